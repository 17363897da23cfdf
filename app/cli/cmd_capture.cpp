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
#include <iterator>
#include <limits>
#include <thread>

#include <fcntl.h>
#include <pthread.h>
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
    bool force = false;
    std::uint64_t buffer = 0; // --buffer: bytes the layer holds before it drops records (0: its default)
    std::vector<std::string> command;
};

// The program being captured, for the signal handlers: 0 before it is started.
volatile sig_atomic_t g_program = 0;
volatile sig_atomic_t g_pendingSignal = 0;

// SIGINT, SIGTERM, SIGHUP, SIGQUIT to clscope-cli are the user's word for the program: they are passed on to
// it (and clscope-cli finishes the file and exits with its status). A signal the terminal sent (Ctrl-C,
// Ctrl-\, a hang-up: si_code SI_KERNEL) reached the program's process group already, and is not sent twice.
void forwardSignal(int sig, siginfo_t *info, void *)
{
    if (info && info->si_code == SI_KERNEL)
        return;
    const pid_t program = pid_t(g_program);
    if (program > 0)
        ::kill(program, sig);
    else
        g_pendingSignal = sig;
}

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

struct ForwardSignals
{
    struct sigaction old[std::size(kForwarded)]{};
    ForwardSignals()
    {
        struct sigaction sa
        {};
        sa.sa_sigaction = forwardSignal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        for (std::size_t i = 0; i < std::size(kForwarded); ++i)
            sigaction(kForwarded[i], &sa, &old[i]);
    }
    // In the program: the dispositions clscope-cli was given (an ignored SIGINT stays ignored).
    void restore() const
    {
        for (std::size_t i = 0; i < std::size(kForwarded); ++i)
            sigaction(kForwarded[i], &old[i], nullptr);
    }
    ~ForwardSignals()
    {
        g_program = 0;
        restore();
    }
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
        recording =
            std::make_unique<CaptureRecording>(output, findCaptureLayer(ec ? "" : self.parent_path()),
                                               joinCommandLine(o.command), contents, timestamps, o.force);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitFailed, e.what()};
    }
    const char *oldLayers = std::getenv("OPENCL_LAYERS");
    std::vector<CaptureRecording::Variable> env = recording->environment(oldLayers ? oldLayers : "");
    if (o.buffer)
        env.push_back({"CLSCOPE_CAPTURE_BUFFER", std::to_string(o.buffer)});

    std::vector<char *> argv;
    for (const std::string &a : o.command)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);

    // The child tells an exec that failed through this pipe (closed on a successful exec): a program that
    // cannot be started leaves the capture file as it was.
    int execPipe[2];
    if (::pipe2(execPipe, O_CLOEXEC) != 0)
        throw CliFailure{ExitFailed,
                         std::string("cannot start ") + o.command.front() + ": " + std::strerror(errno)};

    std::cout.flush();
    std::cerr.flush();
    ForwardSignals signals;
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(execPipe[0]);
        ::close(execPipe[1]);
        throw CliFailure{ExitFailed,
                         std::string("cannot start ") + o.command.front() + ": " + std::strerror(err)};
    }
    if (pid == 0) {
        signals.restore();
        ::fcntl(recording->programFd(), F_SETFD, 0); // the program inherits its end of the stream
        for (const CaptureRecording::Variable &v : env) {
            if (!v.value)
                ::unsetenv(v.name.c_str());
            else
                ::setenv(v.name.c_str(), v.value->c_str(), v.overwrite ? 1 : 0);
        }
        ::execvp(argv[0], argv.data());
        const int err = errno;
        [[maybe_unused]] const ssize_t w = ::write(execPipe[1], &err, sizeof err);
        ::_exit(err == ENOENT ? 127 : 126);
    }
    g_program = pid;
    if (const int pending = g_pendingSignal)
        ::kill(pid, pending);
    ::close(execPipe[1]);
    int execError = 0;
    ssize_t got;
    while ((got = ::read(execPipe[0], &execError, sizeof execError)) < 0 && errno == EINTR) {
    }
    ::close(execPipe[0]);
    if (got == ssize_t(sizeof execError)) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        recording.reset(); // the capture file stays as it was
        throw CliFailure{execError == ENOENT ? 127 : 126, "cannot run " + o.command.front() + ": " +
                                                              std::strerror(execError) + " (" + output +
                                                              " is left as it was)"};
    }
    recording->programStarted();

    std::atomic<bool> childExited{false};
    std::thread recorder([&] {
        // The signals are the main thread's to take.
        sigset_t set;
        sigemptyset(&set);
        for (int sig : kForwarded)
            sigaddset(&set, sig);
        pthread_sigmask(SIG_BLOCK, &set, nullptr);
        recording->record(childExited);
    });
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_program = 0;
    childExited.store(true);
    recorder.join();

    const int exitStatus = WIFEXITED(status)     ? WEXITSTATUS(status)
                           : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                                 : 1;
    recording->finish(exitStatus);
    const std::string streamError = recording->error();
    const bool incomplete = recording->incomplete();
    recording.reset();

    CaptureSummary summary;
    bool haveSummary = false;
    try {
        summary = CaptureReader(output).summary();
        haveSummary = true;
    } catch (const CaptureError &e) {
        // No capture to sum up (its file could not be made).
        std::cerr << "clscope-cli: " << e.what() << '\n';
    }
    if (haveSummary) {
        if (o.json) {
            std::cout << summaryJson(summary) << std::endl;
        } else {
            std::cerr << "clscope-cli: capture written to " << output << '\n';
            printSummary(std::cerr, summary);
        }
    }
    if (haveSummary && summary.droppedRecords > 0) {
        // The limit and the option that raises it (contents wait for room instead: these are other records).
        const std::uint64_t limit = o.buffer ? o.buffer : std::uint64_t(256) << 20;
        std::cerr << "clscope-cli: " << summary.droppedRecords
                  << " records were dropped: the recorder could not keep up with the program, and the layer "
                     "holds at most "
                  << limit << " bytes of records (--buffer BYTES raises it)\n";
    }
    if (incomplete) {
        // Its own status, distinct from the program's (docs/cli.md), which is said on the same line.
        std::cerr << "clscope-cli: the capture is incomplete: "
                  << (streamError.empty() ? std::string("the file could not be written") : streamError)
                  << (haveSummary ? "; " + output + " keeps what was recorded before (" +
                                        std::to_string(summary.launches) + " launches)"
                                  : std::string("; ") + output + " was not replaced")
                  << "; the program exited with status " << exitStatus << '\n';
        return ExitCaptureIncomplete;
    }
    if (!streamError.empty())
        std::cerr << "clscope-cli: the capture stopped early: " << streamError << '\n';
    return exitStatus;
}

struct CaptureInfoOptions
{
    std::string file;
    bool json = false;
    std::string trace;
    std::string csv;
};

int runCaptureInfo(const CaptureInfoOptions &o)
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
    sub->add_option(
           "--buffer", o->buffer,
           "Bytes of records the layer holds for the recorder before it drops some (default 256 MiB)")
        ->check(CLI::Range(std::uint64_t(65536), std::numeric_limits<std::uint64_t>::max()));
    sub->add_flag("--force", o->force,
                  "Replace the output file even when it is not a CLScope capture (a folder never is)");
    sub->add_option("command", o->command, "-- PROGRAM [ARGS...]")->required();
    sub->positionals_at_end(false);
    sub->callback([o, &action] { action = [o] { return runCapture(*o); }; });

    auto i = std::make_shared<CaptureInfoOptions>();
    CLI::App *info = app.add_subcommand("capture-info", "Summarise a capture; export its trace or CSV");
    info->add_option("file", i->file, "Capture file")->required();
    info->add_flag("--json", i->json, "Print the summary as one JSON document");
    info->add_option("--trace", i->trace, "Write the Chrome trace (JSON) here");
    info->add_option("--csv", i->csv, "Write the commands as CSV here");
    info->callback([i, &action] { action = [i] { return runCaptureInfo(*i); }; });
}

} // namespace clscope::cli
