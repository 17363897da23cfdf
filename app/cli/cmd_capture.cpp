// clscope-cli capture -- PROGRAM ARGS: runs a program with libclscope-layer.so (OPENCL_LAYERS) and records
// what it does with OpenCL into a capture file, in this process, while the program runs with its own
// stdin, stdout and stderr. clscope-cli capture-info FILE: the summary again, a Chrome trace, a CSV.
#include "cli.h"

#include "clscope/capture.h"
#include "clscope/profile.h"

#include "../../core/src/capture/protocol.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clscope::cli {
namespace {

namespace fs = std::filesystem;
namespace wire = capture::wire;

struct CaptureOptions
{
    std::string output;
    std::vector<std::string> kernels;
    std::vector<std::int64_t> launches;
    std::string contents;
    std::uint64_t budget = 0;
    bool budgetGiven = false;
    bool json = false;
    std::vector<std::string> command;
};

// The layer next to this executable (the build tree), else where the package installs it.
std::string findLayer()
{
    if (const char *env = std::getenv("CLSCOPE_LAYER"))
        return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // The build tree keeps it next to clscope-cli; a package in PREFIX/LIBDIR/clscope beside PREFIX/bin.
        for (const fs::path &here :
             {self.parent_path() / "libclscope-layer.so",
              self.parent_path() / ".." / CLSCOPE_LAYER_RELATIVE_DIR / "libclscope-layer.so"})
            if (fs::exists(here, ec))
                return fs::weakly_canonical(here, ec).string();
    }
    const fs::path installed = fs::path(CLSCOPE_LAYER_INSTALL_DIR) / "libclscope-layer.so";
    if (fs::exists(installed, ec))
        return installed.string();
    throw CliFailure{ExitFailed, "cannot find libclscope-layer.so next to clscope-cli or in " +
                                     std::string(CLSCOPE_LAYER_INSTALL_DIR) +
                                     " (set CLSCOPE_LAYER to its path)"};
}

std::string joinCommand(const std::vector<std::string> &args)
{
    std::string s;
    for (const std::string &a : args) {
        if (!s.empty())
            s += ' ';
        const bool quote = a.empty() || a.find_first_of(" \t\"'\\$") != std::string::npos;
        if (!quote) {
            s += a;
            continue;
        }
        s += '\'';
        for (char c : a)
            s += c == '\'' ? std::string("'\\''") : std::string(1, c);
        s += '\'';
    }
    return s;
}

std::string joinList(const auto &items)
{
    std::string s;
    for (const auto &i : items) {
        if (!s.empty())
            s += ',';
        if constexpr (std::is_same_v<std::decay_t<decltype(i)>, std::string>)
            s += i;
        else
            s += std::to_string(i);
    }
    return s;
}

// Reads the stream until the program (and whatever inherited the socket) closes it. After the program
// exited, a descendant that still holds the socket gets two quiet seconds before the capture ends.
void recordStream(int fd, CaptureWriter &writer, const std::atomic<bool> &childExited, std::string &error)
{
    // The program comes first: on a machine with few cores the recorder yields to it and catches up from
    // the layer's buffer (which holds 256 MiB before anything is dropped).
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
    std::vector<unsigned char> buffer(std::size_t(1) << 20);
    auto lastData = std::chrono::steady_clock::now();
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int n = ::poll(&p, 1, 100);
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0) {
            const ssize_t got = ::read(fd, buffer.data(), buffer.size());
            if (got == 0)
                break;
            if (got < 0) {
                if (errno == EINTR || errno == EAGAIN)
                    continue;
                break;
            }
            lastData = std::chrono::steady_clock::now();
            try {
                writer.feed(buffer.data(), std::size_t(got));
            } catch (const std::exception &e) {
                error = e.what();
                return; // closing our end makes the layer stop sending; the program runs on
            }
        } else if (childExited.load() &&
                   std::chrono::steady_clock::now() - lastData > std::chrono::seconds(2)) {
            break;
        }
    }
}

int runCapture(const CaptureOptions &o)
{
    if (o.command.empty())
        throw CliFailure{ExitUsage,
                         "capture needs a program to run: clscope-cli capture -- PROGRAM [ARGS...]"};
    if (!o.contents.empty() && o.contents != "all")
        throw CliFailure{ExitUsage, "--contents takes 'all', not '" + o.contents + "'"};
    for (std::int64_t l : o.launches)
        if (l < 0)
            throw CliFailure{ExitUsage, "--launch takes launch indices from 0, not " + std::to_string(l)};
    const std::string layer = findLayer();
    const std::string output =
        o.output.empty() ? fs::path(o.command.front()).filename().string() + ".clscope" : o.output;

    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw CliFailure{ExitFailed,
                         std::string("cannot create the capture socket: ") + std::strerror(errno)};
    std::unique_ptr<CaptureWriter> writer;
    try {
        writer = std::make_unique<CaptureWriter>(output);
    } catch (const CaptureError &e) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw CliFailure{ExitFailed, e.what()};
    }
    struct stat st;
    fstat(fds[1], &st);
    const std::string fdValue = std::to_string(fds[1]) + ":" + std::to_string(st.st_ino);
    const char *oldLayers = std::getenv("OPENCL_LAYERS");
    const std::string layers = oldLayers && *oldLayers ? layer + ":" + oldLayers : layer;
    writer->setMeta("command", joinCommand(o.command));
    writer->setMeta("layer", layer);
    writer->setMeta("started_ns", std::to_string(hostNowNs()));

    std::vector<char *> argv;
    for (const std::string &a : o.command)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);

    // Like system(): the terminal's ^C and ^\ go to the program; we wait for it and keep the capture.
    struct sigaction ignore
    {
    }, oldInt{}, oldQuit{};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &oldInt);
    sigaction(SIGQUIT, &ignore, &oldQuit);

    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = ::fork();
    if (pid < 0) {
        sigaction(SIGINT, &oldInt, nullptr);
        sigaction(SIGQUIT, &oldQuit, nullptr);
        throw CliFailure{ExitFailed,
                         std::string("cannot start ") + o.command.front() + ": " + std::strerror(errno)};
    }
    if (pid == 0) {
        sigaction(SIGINT, &oldInt, nullptr);
        sigaction(SIGQUIT, &oldQuit, nullptr);
        ::fcntl(fds[1], F_SETFD, 0); // the program inherits its end of the stream
        ::setenv("OPENCL_LAYERS", layers.c_str(), 1);
        ::setenv(wire::kEnvFd, fdValue.c_str(), 1);
        ::setenv(wire::kEnvContents, o.contents.c_str(), 1);
        ::setenv(wire::kEnvKernels, joinList(o.kernels).c_str(), 1);
        ::setenv(wire::kEnvLaunches, joinList(o.launches).c_str(), 1);
        // Contents are asked for to replay a launch, which needs its source: pyopencl's binary cache would
        // hand the driver a binary instead (it rebuilds from source with the cache off).
        const bool contents = !o.contents.empty() || !o.kernels.empty() || !o.launches.empty();
        if (contents)
            ::setenv("PYOPENCL_NO_CACHE", "1", 0);
        if (o.budgetGiven)
            ::setenv(wire::kEnvBudget, std::to_string(o.budget).c_str(), 1);
        else
            ::unsetenv(wire::kEnvBudget);
        ::execvp(argv[0], argv.data());
        const std::string msg =
            "clscope-cli: cannot run " + o.command.front() + ": " + std::strerror(errno) + "\n";
        [[maybe_unused]] const ssize_t n = ::write(2, msg.data(), msg.size());
        ::_exit(errno == ENOENT ? 127 : 126);
    }
    ::close(fds[1]);

    std::atomic<bool> childExited{false};
    std::string streamError;
    std::thread recorder([&] { recordStream(fds[0], *writer, childExited, streamError); });
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    childExited.store(true);
    recorder.join();
    ::close(fds[0]);
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);

    const int exitStatus = WIFEXITED(status)     ? WEXITSTATUS(status)
                           : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                                 : 1;
    writer->setMeta("exit_status", std::to_string(exitStatus));
    writer->setMeta("ended_ns", std::to_string(hostNowNs()));
    writer->finish();
    writer.reset();
    if (!streamError.empty())
        std::cerr << "clscope-cli: the capture stopped early: " << streamError << '\n';

    const CaptureSummary summary = CaptureReader(output).summary();
    if (o.json) {
        std::cout << summaryJson(summary) << std::endl;
    } else {
        std::cerr << "clscope-cli: capture written to " << output << '\n';
        printSummary(std::cerr, summary);
    }
    return exitStatus;
}

struct InfoOptions
{
    std::string file;
    bool json = false;
    std::string trace;
    std::string csv;
};

int runCaptureInfo(const InfoOptions &o)
{
    CommonOptions none;
    checkUsage(none, o.file);
    std::unique_ptr<CaptureReader> reader;
    try {
        reader = std::make_unique<CaptureReader>(o.file);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }
    const CaptureSummary summary = reader->summary();
    if (!o.trace.empty() || !o.csv.empty()) {
        const std::vector<CommandRecord> records = reader->commandRecords();
        if (!o.trace.empty())
            writeChromeTrace(o.trace, records, {}, reader->memorySeries());
        if (!o.csv.empty())
            writeCsv(o.csv, records);
    }
    if (o.json)
        std::cout << summaryJson(summary) << '\n';
    else
        printSummary(std::cout, summary);
    return ExitOk;
}

} // namespace

void addCaptureCommand(CLI::App &app, Action &action)
{
    auto o = std::make_shared<CaptureOptions>();
    CLI::App *sub = app.add_subcommand("capture", "Run a program and capture what it does with OpenCL");
    sub->add_option("-o,--output", o->output, "Capture file (default: PROGRAM.clscope)");
    sub->add_option("--kernel", o->kernels, "Record the buffer contents of every launch of this kernel");
    sub->add_option("--launch", o->launches, "Record the buffer contents of this launch (0, 1, ...)");
    sub->add_option(
        "--contents", o->contents,
        "'all': record the buffer contents of every launch (any contents option also sets "
        "PYOPENCL_NO_CACHE=1, so that pyopencl programs are built from source and can be replayed)");
    sub->add_option("--budget", o->budget, "Bytes of contents to record at most")
        ->each([o](const std::string &) { o->budgetGiven = true; });
    sub->add_flag("--json", o->json, "Print the summary as one JSON document on stdout");
    sub->add_option("command", o->command, "-- PROGRAM [ARGS...]")->required();
    sub->positionals_at_end(false);
    sub->callback([o, &action] { action = [o] { return runCapture(*o); }; });

    auto i = std::make_shared<InfoOptions>();
    CLI::App *info = app.add_subcommand("capture-info", "Summarise a capture; export its trace or CSV");
    info->add_option("file", i->file, "Capture file")->required();
    info->add_flag("--json", i->json, "Print the summary as one JSON document");
    info->add_option("--trace", i->trace, "Write the Chrome trace (JSON) here");
    info->add_option("--csv", i->csv, "Write the commands as CSV here");
    info->callback([i, &action] { action = [i] { return runCaptureInfo(*i); }; });
}

} // namespace clscope::cli
