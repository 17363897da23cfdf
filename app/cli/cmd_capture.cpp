// clscope-cli capture -- PROGRAM ARGS: runs a program with libclscope-layer.so (OPENCL_LAYERS) and records
// what it does with OpenCL into a capture file, in this process, while the program runs with its own
// stdin, stdout and stderr. clscope-cli capture-info FILE: the summary again, a Chrome trace, a CSV.
#include "cli.h"

#include "clscope/capture.h"
#include "clscope/profile.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clscope::cli {
namespace {

namespace fs = std::filesystem;

struct CaptureOptions
{
    std::string output;
    std::vector<std::string> kernels;
    std::vector<std::int64_t> launches;
    std::string contents;
    std::uint64_t budget = 0;
    bool budgetGiven = false;
    std::string timestamps = "all";
    bool json = false;
    std::vector<std::string> command;
};

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
    CaptureTimestamps timestamps;
    try {
        timestamps = CaptureTimestamps::parse(o.timestamps);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, std::string("--") + e.what()}; // "--timestamps: 'all', ..."
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const std::string output =
        o.output.empty() ? fs::path(o.command.front()).filename().string() + ".clscope" : o.output;
    CaptureContents contents;
    contents.all = o.contents == "all";
    contents.kernels = o.kernels;
    contents.launches = o.launches;
    if (o.budgetGiven)
        contents.budget = o.budget;
    std::unique_ptr<CaptureRecording> recording;
    try {
        recording = std::make_unique<CaptureRecording>(output, findCaptureLayer(ec ? "" : self.parent_path()),
                                                       joinCommandLine(o.command), contents, timestamps);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitFailed, e.what()};
    }
    const char *oldLayers = std::getenv("OPENCL_LAYERS");
    const std::vector<CaptureRecording::Variable> env = recording->environment(oldLayers ? oldLayers : "");

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
        ::fcntl(recording->programFd(), F_SETFD, 0); // the program inherits its end of the stream
        for (const CaptureRecording::Variable &v : env) {
            if (!v.value)
                ::unsetenv(v.name.c_str());
            else
                ::setenv(v.name.c_str(), v.value->c_str(), v.overwrite ? 1 : 0);
        }
        ::execvp(argv[0], argv.data());
        const std::string msg =
            "clscope-cli: cannot run " + o.command.front() + ": " + std::strerror(errno) + "\n";
        [[maybe_unused]] const ssize_t n = ::write(2, msg.data(), msg.size());
        ::_exit(errno == ENOENT ? 127 : 126);
    }
    recording->programStarted();

    std::atomic<bool> childExited{false};
    std::thread recorder([&] { recording->record(childExited); });
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    childExited.store(true);
    recorder.join();
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);

    const int exitStatus = WIFEXITED(status)     ? WEXITSTATUS(status)
                           : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                                 : 1;
    recording->finish(exitStatus);
    const std::string streamError = recording->error();
    recording.reset();
    if (!streamError.empty())
        std::cerr << "clscope-cli: the capture stopped early: " << streamError << '\n';

    CaptureSummary summary;
    try {
        summary = CaptureReader(output).summary();
    } catch (const CaptureError &e) {
        // No capture to sum up (its file could not be made): the program's own exit status all the same.
        std::cerr << "clscope-cli: " << e.what() << '\n';
        return exitStatus;
    }
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
    sub->add_option("--timestamps", o->timestamps,
                    "Device times of the commands the program passed no event for: 'all' (default: an event "
                    "of the layer's each), N (one in N of each thread's) or 'program' (none: only the "
                    "program's own events)");
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
