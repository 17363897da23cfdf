// clscope-cli run --check: the run once more in a child process on Oclgrind with its checks on (check.h
// says why a child), then the child's output with Oclgrind's reports as diagnostics at the kernel's lines.
// The child is this executable with the same run arguments; it finds CLSCOPE_CHECK_CHILD=1 in its
// environment and runs in-process (cmd_run.cpp).
#include "cli.h"

#include "clscope/check.h"
#include "clscope/fileio.h"
#include "clscope/lineprofile.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include <csignal>
#include <unistd.h>

extern char **environ;

namespace clscope::cli {

std::vector<std::string> currentEnvironment()
{
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e)
        env.emplace_back(*e);
    return env;
}

std::string selfExecutable()
{
    std::string path(4096, '\0');
    const ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
    if (n <= 0 || std::size_t(n) >= path.size())
        throw CliFailure{ExitFailed, "cannot find the clscope-cli executable to run the check in"};
    path.resize(std::size_t(n));
    return path;
}

namespace {

void printDiagnostics(std::ostream &out, const CheckReport &report, bool skipApi)
{
    for (const CheckDiagnostic &d : report.diagnostics) {
        if (!(skipApi && d.kind == CheckKind::Api))
            out << formatCheckDiagnostic(d);
    }
}

std::string summary(const CheckReport &report)
{
    const std::size_t errors = report.errorCount();
    if (errors == 0)
        return "Oclgrind check: clean";
    std::size_t reports = 0;
    for (const CheckDiagnostic &d : report.diagnostics)
        reports += d.diagnostic.severity == Severity::Error ? std::size_t(d.occurrences) : 0;
    std::string s = "Oclgrind check: " + std::to_string(errors) + (errors == 1 ? " error" : " errors");
    if (reports != errors)
        s += " (" + std::to_string(reports) + " reports)";
    return s;
}

// SIGINT (Ctrl-C) or SIGTERM while the checked run goes. The default action would end this process at
// once and leave the session's clscope-check-* folder behind; instead the handler only sets the session's
// cancel flag (an atomic store is all it does, which is async-signal-safe): the session stops its child,
// the folder goes with the session, and then this process ends by the same signal, as it would have.
std::atomic<bool> g_interrupted{false};
volatile std::sig_atomic_t g_signal = 0;

void onInterrupt(int number)
{
    g_signal = number;
    g_interrupted.store(true);
}

class CheckInterrupt
{
public:
    CheckInterrupt()
    {
        static_assert(std::atomic<bool>::is_always_lock_free);
        struct sigaction action
        {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &m_oldInt);
        sigaction(SIGTERM, &action, &m_oldTerm);
    }
    ~CheckInterrupt()
    {
        sigaction(SIGINT, &m_oldInt, nullptr);
        sigaction(SIGTERM, &m_oldTerm, nullptr);
    }
    CheckInterrupt(const CheckInterrupt &) = delete;
    CheckInterrupt &operator=(const CheckInterrupt &) = delete;

    // The session's cancel flag: the static atomic, owned by no one.
    std::shared_ptr<const std::atomic<bool>> flag() const
    {
        return {std::shared_ptr<void>(), &g_interrupted};
    }

    // After the session is gone: ends the process by the signal that came, if one did.
    void endIfInterrupted()
    {
        const int number = g_signal;
        if (number == 0)
            return;
        std::signal(number, SIG_DFL);
        std::raise(number);
    }

private:
    struct sigaction m_oldInt
    {};
    struct sigaction m_oldTerm
    {};
};

} // namespace

bool isCheckChild()
{
    const char *value = std::getenv(kCheckChildVariable);
    return value && std::strcmp(value, "1") == 0;
}

namespace {

// The child on Oclgrind, interruptible (CheckInterrupt); *lineProfile gets the line profiler's file when
// the settings name the plugin.
CheckChildResult runChild(const CheckedRun &run, const CheckSettings &settings, std::string *lineProfile)
{
    CheckInterrupt interrupt;
    CheckChildResult child;
    {
        const CheckSession session(currentEnvironment(), settings);
        CheckSources sources;
        sources.sourceFile = run.file;
        child = session.run(selfExecutable(), run.childArgs, sources, interrupt.flag());
        if (lineProfile) {
            try {
                *lineProfile = readRegularFile(session.lineProfilePath(), kMaxDocumentBytes);
            } catch (const FileError &e) {
                // Missing: the plugin did not load (parseLineProfile says so); too big: say what it was.
                if (std::filesystem::exists(session.lineProfilePath()))
                    throw CliFailure{ExitFailed, std::string("the line profile cannot be read: ") + e.what()};
            }
        }
    } // the session's folder is removed here
    interrupt.endIfInterrupted();
    return child;
}

// A child that failed reads as the run does without --check or --lines, its one stderr line last; what
// Oclgrind found in the kernel before comes first (its API errors repeat that line, so they are left out).
int failedChild(const CheckChildResult &child)
{
    printDiagnostics(std::cerr, child.report, true);
    std::cout << child.out << std::flush;
    std::cerr << child.err;
    if (child.exitCode > 0)
        return child.exitCode;
    throw CliFailure{ExitFailed, "the run on Oclgrind ended with signal " + std::to_string(child.signal) +
                                     " (" + strsignal(child.signal) + ")"};
}

nlohmann::ordered_json childDocument(const CheckChildResult &child)
{
    try {
        return nlohmann::ordered_json::parse(child.out);
    } catch (const nlohmann::json::exception &) {
        throw CliFailure{ExitFailed, "the run on Oclgrind printed no JSON document"};
    }
}

std::string notOn(const CheckedRun &run)
{
    return run.deviceSpec.empty() ? std::string() : ", not on '" + run.deviceSpec + "'";
}

} // namespace

int runUnderCheck(const CheckedRun &run)
{
    // No Oclgrind is bad usage, like a --device that matches nothing (CheckUnavailableError is an Input
    // error).
    const CheckChildResult child = runChild(run, CheckSettings{}, nullptr);
    if (child.exitCode != 0)
        return failedChild(child);
    std::cerr << child.err;
    if (run.json) {
        nlohmann::ordered_json doc = childDocument(child);
        doc["check"] = nlohmann::ordered_json::parse(checkReportToJson(child.report));
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::cout << "Memory check on Oclgrind: the kernel runs on the Oclgrind simulator with its checks on"
                  << notOn(run) << '\n'
                  << child.out;
        printDiagnostics(std::cout, child.report, false);
        std::cout << summary(child.report) << '\n';
    }
    return child.report.clean() ? ExitOk : ExitCheckErrors;
}

ProfiledChild profileLines(const CheckedRun &run)
{
    CheckSettings settings;
    settings.apiChecks = false; // counting, not checking: the checks would only slow the simulator
    settings.dataRaces = false;
    settings.uninitialized = false;
    settings.lineProfiler = findLineProfiler(std::filesystem::path(selfExecutable()).parent_path().string());
    settings.sampleGroups = run.sampleGroups;
    std::string text;
    ProfiledChild result;
    result.child = runChild(run, settings, &text);
    const bool differed = run.countWhenOutputsDiffer && result.child.exitCode == ExitFailed;
    if (result.child.exitCode != 0 && !differed)
        throw CliFailure{failedChild(result.child), ""};
    std::cerr << result.child.err;

    CheckSources sources;
    sources.sourceFile = run.file;
    try {
        if (!run.sourceText.empty()) // a captured program's sources
            sources.texts.emplace(run.file, run.sourceText);
        else if (!run.file.empty())
            sources.texts.emplace(run.file, readRegularFile(run.file, kMaxDocumentBytes));
    } catch (const FileError &) {
        // Lines without their text: the counts stand.
    }
    result.profile = parseLineProfile(text, sources);
    if (result.profile.invocations.empty()) {
        if (differed) // it failed before its launch: say what it said
            throw CliFailure{failedChild(result.child), ""};
        throw CliFailure{ExitFailed, "the kernel ran on Oclgrind, but the line profiler counted no launch"};
    }
    return result;
}

int runWithLineProfile(const CheckedRun &run)
{
    const ProfiledChild profiled = profileLines(run);
    const std::vector<KernelLineProfile> kernels = profiled.profile.byKernel();
    if (run.json) {
        nlohmann::ordered_json doc = childDocument(profiled.child);
        doc["lines"] = nlohmann::ordered_json::parse(lineProfileToJson(kernels));
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return ExitOk;
    }
    std::cout
        << "Line profile on Oclgrind: the kernel runs on the Oclgrind simulator, every instruction counted"
        << notOn(run) << '\n';
    if (std::any_of(kernels.begin(), kernels.end(), [](const KernelLineProfile &k) { return k.sampled(); }))
        std::cout << "Sampled: only some work-groups ran (below), so the outputs are theirs alone; "
                     "--sample-groups 0 runs every work-group\n";
    std::cout << profiled.child.out;
    for (const KernelLineProfile &k : kernels)
        std::cout << '\n' << formatLineProfile(k);
    return ExitOk;
}

} // namespace clscope::cli
