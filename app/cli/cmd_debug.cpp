// clscope-cli debug FILE.cl|CAPTURE: the kernel debugger without a window. The launch (run's options, or a
// captured launch by --launch) runs on Oclgrind in a child with CLScope's plugin; this process is the
// controller (core's DebugChild): it sets the breakpoints, and at each stop prints where the work-item is
// and the variables asked for (or all of them), then steps --step times and lets the launch finish.
#include "cli.h"

#include "clscope/capture.h"
#include "clscope/debug.h"
#include "clscope/fileio.h"
#include "clscope/text.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>

namespace clscope::cli {
namespace {

using nlohmann::ordered_json;
using namespace std::chrono_literals;

constexpr auto kReplyTimeout = 60s;    // a request answered while the kernel is paused
constexpr auto kLaunchTimeout = 3600s; // from one stop (or the start) to the next
constexpr auto kFinishTimeout = 600s;  // the launch's rest after the last stop

struct DebugOptionsCli : LaunchOptions
{
    std::int64_t launch = -1;
    std::vector<std::string> breaks;
    std::string item;
    std::string condition;
    std::vector<std::string> printed;
    std::string watch;
    int steps = 0;
    std::string stepKind = "over";
};

// What the child runs and how its sources are named.
struct DebugTarget
{
    std::vector<std::string> childArgs;
    std::string kernel;
    std::string mainFile; // the user's name of the main source ("program N" for a capture's)
    std::string sourceText;
};

DebugTarget captureTarget(const DebugOptionsCli &opts)
{
    const std::string &file = opts.input.file;
    if (!opts.global.empty() || !opts.local.empty() || !opts.offset.empty() || !opts.args.empty() ||
        !opts.options.empty() || !opts.kernel.empty())
        throw CliFailure{ExitUsage, file + " is a capture: its launch says its kernel, range, arguments and "
                                           "options (--launch N chooses the launch)"};
    if (opts.launch < 0)
        throw CliFailure{ExitUsage, file + " is a capture: --launch N says which launch to debug"};
    DebugTarget t;
    try {
        const CaptureReader reader(file);
        for (const CommandRecord &r : reader.commandRecords()) {
            if (r.type == CommandRecord::Type::Kernel && r.launch == opts.launch)
                t.kernel = r.name;
        }
        if (t.kernel.empty())
            throw CliFailure{ExitUsage, file + " has no launch " + std::to_string(opts.launch)};
        const auto programs = reader.launchPrograms();
        if (const auto p = programs.find(opts.launch); p != programs.end()) {
            t.mainFile = "program " + std::to_string(p->second);
            for (const CapturedProgram &program : reader.programs()) {
                if (program.id == p->second && program.kind == "source") {
                    for (const std::string &part : program.sources)
                        t.sourceText += part;
                }
            }
        }
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }
    if (t.mainFile.empty())
        t.mainFile = "program";
    t.childArgs = {"replay", file, "--launch", std::to_string(opts.launch)};
    return t;
}

DebugTarget sourceTarget(DebugOptionsCli &opts)
{
    if (opts.launch >= 0)
        throw CliFailure{ExitUsage,
                         "--launch is for a capture; a .cl file's launch is given by run's options"};
    std::string source;
    prepareLaunch(opts, &source);
    (void)launchRequest(opts); // bad arguments are found here, before the child
    LaunchOptions once = opts;
    once.repeat = 1;
    once.prints.clear();
    once.options = withoutDebugOption(opts.options);
    DebugTarget t;
    t.childArgs = runArguments(once);
    t.kernel = opts.kernel;
    t.mainFile = opts.input.file;
    try {
        t.sourceText = source.empty() ? readRegularFile(opts.input.file, kMaxDocumentBytes) : source;
    } catch (const FileError &) {
        // Stops without their source text.
    }
    return t;
}

std::vector<DebugBreakpoint> breakpointsOf(const DebugOptionsCli &opts, const std::optional<WorkItemId> &item)
{
    std::vector<DebugBreakpoint> out;
    for (const std::string &spec : opts.breaks) {
        DebugBreakpoint b;
        std::string lineText = spec;
        if (const std::size_t colon = spec.rfind(':'); colon != std::string::npos) {
            b.file = spec.substr(0, colon);
            lineText = spec.substr(colon + 1);
        }
        int line = 0;
        const auto [end, ec] = std::from_chars(lineText.data(), lineText.data() + lineText.size(), line);
        if (ec != std::errc() || end != lineText.data() + lineText.size() || line <= 0)
            throw CliFailure{ExitUsage, "--break " + spec + ": a breakpoint is LINE or FILE:LINE"};
        b.line = line;
        b.item = item;
        b.condition = opts.condition;
        out.push_back(b);
    }
    return out;
}

std::string lineOfText(const std::string &text, int line)
{
    if (line <= 0)
        return {};
    std::size_t start = 0;
    for (int i = 1; i < line; ++i) {
        start = text.find('\n', start);
        if (start == std::string::npos)
            return {};
        ++start;
    }
    const std::size_t end = text.find('\n', start);
    return std::string(
        trimSpace(std::string_view(text).substr(start, end == std::string::npos ? text.npos : end - start)));
}

ordered_json debugIdJson(const WorkItemId &id)
{
    return ordered_json::array({id[0], id[1], id[2]});
}

ordered_json debugValueJson(const DebugValue &v)
{
    ordered_json out = {{"name", v.name}, {"type", v.type}};
    if (v.error.empty())
        out["value"] = v.value;
    else
        out["error"] = v.error;
    if (v.elements)
        out["elements"] = v.elements;
    if (!v.children.empty()) {
        ordered_json children = ordered_json::array();
        for (const DebugValue &c : v.children)
            children.push_back(debugValueJson(c));
        out["children"] = std::move(children);
    }
    return out;
}

int runDebug(DebugOptionsCli opts)
{
    const bool capture = !opts.input.file.empty() && isCaptureFile(opts.input.file);
    if (opts.steps < 0)
        throw CliFailure{ExitUsage, "--step " + std::to_string(opts.steps) + " must be 0 or more"};
    std::optional<WorkItemId> item;
    if (!opts.item.empty()) {
        item = parseWorkItemId(opts.item);
        if (!item)
            throw CliFailure{ExitUsage, "--item " + opts.item + ": a work-item is X[,Y[,Z]] (its global id)"};
    }
    if (!opts.condition.empty() && opts.breaks.empty())
        throw CliFailure{ExitUsage, "--if needs a --break to be the condition of"};
    std::optional<std::pair<std::string, std::uint64_t>> watch;
    if (!opts.watch.empty()) {
        watch = parseWatchSpec(opts.watch);
        if (!watch)
            throw CliFailure{ExitUsage,
                             "--watch " + opts.watch +
                                 ": an element is NAME[INDEX] (a global buffer argument by name or "
                                 "index, the element's index)"};
    }
    const DebugTarget target = capture ? captureTarget(opts) : sourceTarget(opts);
    const std::vector<DebugBreakpoint> breakpoints = breakpointsOf(opts, item);

    const std::string plugin =
        findLineProfiler(std::filesystem::path(selfExecutable()).parent_path().string());
    DebugSession session(currentEnvironment(), plugin);
    DebugChild child(session, selfExecutable(), target.childArgs, target.mainFile);

    ordered_json stops = ordered_json::array();
    ordered_json kernelDoc;
    bool debugged = false;
    bool ended = false;
    int stepsLeft = opts.steps;
    int stopCount = 0;
    auto resumed = std::chrono::steady_clock::now(); // the last run or step sent: a stop's answer time
    if (!opts.common.json)
        std::cout << "Debugging " << target.kernel << " on Oclgrind (" << target.mainFile << ")\n";
    while (!ended) {
        const auto message = child.next(kLaunchTimeout);
        if (!message)
            break;
        switch (message->kind) {
        case DebugMessage::Kind::Kernel:
            if (debugged || message->kernel.name != target.kernel) {
                child.send(debugSimpleRequest("skip"));
                break;
            }
            debugged = true;
            kernelDoc = {{"name", message->kernel.name},
                         {"global", debugIdJson(message->kernel.global)},
                         {"local", debugIdJson(message->kernel.local)},
                         {"groups", debugIdJson(message->kernel.groups)}};
            if (watch) {
                const DebugMessage reply =
                    child.request(debugWatchRequest(watch->first, watch->second), kReplyTimeout);
                if (!reply.error.empty())
                    throw CliFailure{ExitUsage, "--watch " + opts.watch + ": " + reply.error};
            }
            if (!breakpoints.empty()) {
                const DebugMessage reply =
                    child.request(debugBreakRequest(breakpoints, target.mainFile), kReplyTimeout);
                if (!reply.error.empty())
                    throw CliFailure{ExitUsage, reply.error};
            }
            resumed = std::chrono::steady_clock::now();
            child.send(debugRunRequest(breakpoints.empty() && !watch, item));
            break;
        case DebugMessage::Kind::KernelEnd:
            if (debugged && message->kernel.name == target.kernel)
                ended = true;
            break;
        case DebugMessage::Kind::Stopped: {
            const DebugStop &stop = message->stop;
            const double resumeMs =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - resumed).count();
            ++stopCount;
            const DebugMessage values = opts.printed.empty()
                                            ? child.request(debugSimpleRequest("variables"), kReplyTimeout)
                                            : child.request(debugPrintRequest(opts.printed), kReplyTimeout);
            const std::string text =
                lineOfText(target.sourceText, stop.file == target.mainFile ? stop.line : 0);
            if (opts.common.json) {
                ordered_json s = {{"reason", stop.reason},
                                  {"file", stop.file},
                                  {"line", stop.line},
                                  {"source_line", text},
                                  {"function", stop.function},
                                  {"depth", stop.depth},
                                  {"ms_since_resumed", std::round(resumeMs * 1000) / 1000},
                                  {"item",
                                   {{"global", debugIdJson(stop.item.global)},
                                    {"local", debugIdJson(stop.item.local)},
                                    {"group", debugIdJson(stop.item.group)}}}};
                if (!stop.message.empty())
                    s["message"] = stop.message;
                ordered_json list = ordered_json::array();
                for (const DebugValue &v : values.values)
                    list.push_back(debugValueJson(v));
                s[opts.printed.empty() ? "variables" : "values"] = std::move(list);
                if (!values.error.empty())
                    s["error"] = values.error;
                stops.push_back(std::move(s));
            } else {
                std::cout << "\nStopped at " << stop.file << ':' << stop.line << " in " << stop.function
                          << " (" << stop.reason << "): work-item " << formatWorkItemId(stop.item.global)
                          << ", local " << formatWorkItemId(stop.item.local) << ", group "
                          << formatWorkItemId(stop.item.group) << '\n';
                if (!stop.message.empty())
                    std::cout << "  " << stop.message << '\n';
                if (!text.empty())
                    std::cout << std::setw(6) << stop.line << " | " << text << '\n';
                if (!values.error.empty())
                    std::cout << "  " << values.error << '\n';
                for (const DebugValue &v : values.values)
                    std::cout << formatDebugValue(v, 1);
            }
            if (stepsLeft > 0) {
                --stepsLeft;
                resumed = std::chrono::steady_clock::now();
                child.send(debugStepRequest(opts.stepKind));
            } else {
                child.send(debugSimpleRequest("detach"));
            }
            break;
        }
        default:
            break;
        }
    }
    const CheckChildResult result = child.finish(kFinishTimeout);
    if (result.exitCode != 0 && !(capture && result.exitCode == ExitFailed)) {
        std::cerr << result.err;
        throw CliFailure{result.exitCode > 0 ? result.exitCode : ExitFailed,
                         result.signal
                             ? "the debugged launch ended by signal " + std::to_string(result.signal)
                             : "the debugged launch failed (above)"};
    }
    if (!debugged)
        throw CliFailure{ExitFailed, "the launch never ran " + target.kernel + " on Oclgrind"};
    const bool reached = stopCount > 0;
    std::string missed;
    if (!reached) {
        for (const DebugBreakpoint &b : breakpoints)
            missed += (missed.empty() ? "" : ", ") + std::to_string(b.line);
        missed = "the launch ended without reaching line " + missed +
                 (item ? " in work-item " + formatWorkItemId(*item) : std::string()) +
                 (opts.condition.empty() ? std::string() : " with " + opts.condition);
        if (watch && breakpoints.empty())
            missed = "no work-item wrote " + opts.watch;
    }
    if (opts.common.json) {
        ordered_json doc = {{"kernel", kernelDoc}, {"stops", stops}, {"reached", reached}};
        if (!reached)
            doc["error"] = missed;
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return reached ? ExitOk : ExitFailed;
    }
    if (!reached)
        throw CliFailure{ExitFailed, missed};
    std::cout << "\nThe launch ran to its end on Oclgrind.\n";
    return ExitOk;
}

} // namespace

void addDebugCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<DebugOptionsCli>();
    CLI::App *sub = app.add_subcommand(
        "debug", "Stop a launch at a source line on Oclgrind and print a work-item's variables");
    addLaunchOptions(sub, *opts, "Local size X[,Y[,Z]] (default: the driver chooses)");
    sub->add_option("--launch", opts->launch, "A capture's launch to debug (from 0, in enqueue order)");
    sub->add_option("--break", opts->breaks, "Stop before this line runs: LINE or FILE:LINE (repeatable)");
    sub->add_option("--item", opts->item,
                    "Only this work-item stops: X[,Y[,Z]], its global id (without --break: stop at its first "
                    "line)");
    sub->add_option("--if", opts->condition,
                    "Stop only when VARIABLE OP NUMBER holds there (OP == != < <= > >=), e.g. --if 'i == 3'");
    sub->add_option(
        "--print", opts->printed,
        "At each stop print this (NAME, NAME.FIELD, NAME[INDEX], NAME->FIELD, *NAME; repeatable); "
        "default: every variable");
    sub->add_option(
        "--watch", opts->watch,
        "Stop the work-item that first writes this element of a global buffer argument: NAME[INDEX] "
        "(or ARGNO[INDEX]); what wrote a wrong result");
    sub->add_option("--step", opts->steps, "Steps after the first stop, each printed (default 0)");
    sub->add_option("--step-kind", opts->stepKind, "over (default), into or out")
        ->check(CLI::IsMember({"over", "into", "out"}));
    sub->footer(
        "FILE may be a capture (clscope-cli capture) with --launch N: the captured launch replays on "
        "Oclgrind\n\n" +
        argumentHelp() +
        "\nThe launch runs once on Oclgrind (-O0 unless --options says otherwise; -g is dropped: Oclgrind "
        "keeps line\ninformation) in a child with CLScope's plugin; a variable the compiler optimised "
        "out says so.\n"
        "\nExample:\n  clscope-cli debug reduce.cl --kernel reduce --global 1024 --local 64 \\\n"
        "    --arg in=buffer:float:1024:iota --arg out=buffer:float:16 --arg tmp=local:256 \\\n"
        "    --break 12 --item 5 --print sum --print tmp[3] --step 2\n"
        "  clscope-cli debug app.clscope --launch 3 --break 'program 1:20' --json\n");
    sub->callback([opts, &action] { action = [opts] { return runDebug(*opts); }; });
}

} // namespace clscope::cli
