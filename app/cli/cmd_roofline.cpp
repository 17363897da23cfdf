// clscope-cli roofline FILE.cl --kernel K ...: a launch's speed of light. The work is counted on Oclgrind
// with the line profiler (the child of run --lines), the time is the launch's own on the chosen device
// (the median of --repeat launches), and the roofs are the device's measured bandwidth and compute peaks
// (roofline.h: measured once per device and kept, --remeasure to measure again).
// clscope-cli roofline CAPTURE: the same for every kernel of a captured program, by total device time: each
// kernel's work counted on one replayed launch, its time the capture's own (the median of its launches of
// that range), the roofs those of the device the capture ran on (here, kept, or --peaks FILE).
#include "cli.h"

#include "clscope/capture.h"
#include "clscope/fileio.h"
#include "clscope/format.h"
#include "clscope/profile.h"
#include "clscope/roofline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

namespace clscope::cli {
namespace {

struct RooflineOptionsCli : LaunchOptions
{
    bool remeasure = false;
    std::string effort = "full"; // of the peaks' benchmarks: full or quick
    std::string peaks;           // a capture's: a bench document saved on its device (bench all --save)
    std::uint64_t sampleGroups = kDefaultSampleGroups; // of the counted launch
};

BenchEffort peaksEffort(const RooflineOptionsCli &opts)
{
    return opts.effort == "quick" ? BenchEffort::Quick : BenchEffort::Full;
}

// The median device time of the launches, from the same statistics the timeline shows (launches without
// usable timestamps left out).
double medianLaunchSeconds(const RunResult &result)
{
    const std::vector<DurationStats> stats = statsByKernel(result.launches());
    if (stats.empty() || stats.front().count == 0)
        throw CliFailure{ExitFailed,
                         "the driver gave the launches of " + result.kernel() + " no device times"};
    return stats.front().medianNs / 1e9;
}

// ---- A capture ----------------------------------------------------------------------------------------

// A kernel's lines as `run --lines --json` gives them (the GUI's heat gutter reads them from roofline's
// JSON).
nlohmann::ordered_json lineProfileJson(const KernelLineProfile &profile)
{
    return nlohmann::ordered_json::parse(lineProfileToJson({profile}, -1)).at(0);
}

// Where the roofs of a captured device come from: that device here (kept or measured, as for a .cl file),
// --peaks FILE (a bench document saved on that device), or peaks kept here for a device of that name.
struct CapturePeaks
{
    DevicePeaks peaks;
    std::string from; // "measured now", "kept in FILE", "FILE"
};

CapturePeaks peaksOfCapturedDevice(const std::string &deviceName, const RooflineOptionsCli &opts)
{
    CapturePeaks out;
    if (!opts.peaks.empty()) {
        try {
            out.peaks = peaksFromBench(loadBenchFile(opts.peaks));
        } catch (const Error &e) {
            throw CliFailure{ExitUsage, "--peaks " + opts.peaks + ": " + e.what()};
        }
        if (out.peaks.device != deviceName)
            std::cerr << "clscope-cli: warning: the peaks of " << opts.peaks << " are of " << out.peaks.device
                      << "; the capture ran on " << deviceName << '\n';
        out.from = opts.peaks;
        return out;
    }
    for (const SelectedDevice &here : listDevices()) {
        if (here.deviceName != deviceName)
            continue;
        std::string file;
        bool measuredNow = false;
        if (!opts.common.json)
            std::cerr << "clscope-cli: the peaks of " << deviceName << (opts.remeasure ? ": measuring" : "")
                      << "...\n";
        out.peaks = devicePeaks(here.device, opts.remeasure, &file, &measuredNow, peaksEffort(opts));
        out.from =
            measuredNow ? "measured now" + (file.empty() ? "" : ", kept in " + file) : "kept in " + file;
        return out;
    }
    // Kept here from an earlier visit of that device (any driver version): the newest measurement.
    std::string file;
    if (const std::optional<DevicePeaks> kept = keptPeaks(deviceName, &file)) {
        out.peaks = *kept;
        out.from = "kept in " + file;
    }
    if (out.from.empty())
        throw CliFailure{ExitFailed,
                         "no peaks of " + deviceName +
                             ", which the capture ran on: it is not on this machine and none are "
                             "kept here; measure them where it is (clscope-cli bench all --device '" +
                             deviceName + "' --save peaks.json) and give --peaks peaks.json"};
    return out;
}

// One kernel of the capture: its launches' device times, and the launch whose work was counted.
struct CapturedKernelRoof
{
    std::string kernel;
    std::int64_t program = 0; // programs.id (the first with these sources): one name in several is several
    std::string label;        // the name, with its program when the name is in several
    std::string device;
    std::uint64_t launches = 0;
    std::uint64_t totalNs = 0;
    std::int64_t counted = -1;   // the launch replayed on Oclgrind
    std::uint64_t sameRange = 0; // timed launches with the counted launch's range (their median is its time)
    std::optional<RooflinePoint> point;
    std::optional<KernelLineProfile> lines; // what the counted launch executed, line by line
    std::string problem;                    // why there is no point
};

// The kernel's first launch that replay can rebuild (of the first `tries`); -1 and *why when none.
std::int64_t replayableLaunch(const CaptureReader &reader, const std::vector<const CommandRecord *> &records,
                              std::string *why)
{
    constexpr std::size_t tries = 64;
    for (std::size_t i = 0; i < records.size() && i < tries; ++i) {
        const CapturedLaunch launch = reader.launch(records[i]->launch);
        const std::string blocker = launch.problem.empty() ? replayBlocker(launch) : launch.problem;
        if (blocker.empty()) {
            why->clear(); // an earlier launch's blocker is no problem of a kernel that is counted
            return records[i]->launch;
        }
        if (why->empty())
            *why = "launch " + std::to_string(records[i]->launch) + " cannot be replayed: " + blocker;
    }
    return -1;
}

// sourceOf: the text of each program built from source (its strings joined), by programs.id.
void countCapturedKernel(const std::string &file, const CaptureReader &reader,
                         const std::map<std::int64_t, std::string> &sourceOf,
                         const std::vector<const CommandRecord *> &records, const RooflineOptionsCli &opts,
                         std::map<std::string, CapturePeaks> &peaksByDevice, CapturedKernelRoof &k)
{
    k.counted = replayableLaunch(reader, records, &k.problem);
    if (k.counted < 0)
        return;
    const auto countedRecord = std::find_if(records.begin(), records.end(),
                                            [&](const CommandRecord *r) { return r->launch == k.counted; });
    std::vector<CommandRecord> same;
    for (const CommandRecord *r : records) {
        if (r->global == (*countedRecord)->global && r->local == (*countedRecord)->local && r->duration() > 0)
            same.push_back(*r);
    }
    k.sameRange = same.size();
    if (same.empty()) {
        k.problem = "the capture has no device times of its launches (captured with --timestamps)";
        return;
    }
    const double seconds = statsByKernel(same).front().medianNs / 1e9;

    // The roofs first: without them (a bad --peaks, a device neither here nor kept) nothing is worth
    // counting.
    auto found = peaksByDevice.find(k.device);
    if (found == peaksByDevice.end())
        found = peaksByDevice.emplace(k.device, peaksOfCapturedDevice(k.device, opts)).first;
    const DevicePeaks &peaks = found->second.peaks;

    // The work: that launch replayed on Oclgrind with the line profiler; outputs that differ there from the
    // capture's (float rounding of another device) do not matter for counting.
    // Its lines named "program N" with the text of the program's sources (what the GUI's heat gutter shows).
    CheckedRun run{{"replay", file, "--launch", std::to_string(k.counted), "--json"}, "", "", true};
    if (const auto text = sourceOf.find(k.program); text != sourceOf.end()) {
        run.file = "program " + std::to_string(k.program);
        run.sourceText = text->second;
    }
    run.countWhenOutputsDiffer = true;
    run.sampleGroups = opts.sampleGroups;
    try {
        const ProfiledChild profiled = profileLines(run);
        const std::vector<KernelLineProfile> kernels = profiled.profile.byKernel();
        const auto counted = std::find_if(kernels.begin(), kernels.end(),
                                          [&](const KernelLineProfile &p) { return p.kernel == k.kernel; });
        if (counted == kernels.end()) {
            k.problem = "the line profiler counted no launch of it";
            return;
        }
        k.point = rooflinePoint(k.label, counted->total, seconds, peaks);
        k.lines = *counted;
    } catch (const CliFailure &e) {
        k.problem = e.message.empty() ? "its replay on Oclgrind failed (above)" : e.message;
    } catch (const Error &e) {
        k.problem = e.what();
    }
}

int runCaptureRoofline(const RooflineOptionsCli &opts)
{
    const std::string &file = opts.input.file;
    if (!opts.global.empty() || !opts.local.empty() || !opts.offset.empty() || !opts.args.empty() ||
        !opts.options.empty() || opts.input.files.size() > 1)
        throw CliFailure{ExitUsage, file +
                                        " is a capture: its launches say their ranges, arguments and options "
                                        "(--kernel chooses one kernel)"};
    std::vector<CommandRecord> records;
    std::unique_ptr<CaptureReader> reader;
    CaptureSummary summary;
    try {
        reader = std::make_unique<CaptureReader>(file);
        summary = reader->summary();
        records = reader->commandRecords();
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }

    // The kernels (name and program) by total device time.
    // Programs created again from the same sources and options (pyopencl creates one per call in
    // transpose.py) are one, as in the capture's summary: each launch's program is the first of them.
    std::map<std::int64_t, std::int64_t> programOf;
    std::map<std::int64_t, std::string> sourceOf;
    try {
        programOf = reader->launchPrograms();
        const std::vector<CapturedProgram> programs = reader->programs();
        const std::map<std::int64_t, std::int64_t> firstWithSources = sameSourcePrograms(programs);
        for (const CapturedProgram &p : programs) {
            if (p.kind == "source") {
                std::string &text = sourceOf[p.id];
                for (const std::string &part : p.sources)
                    text += part;
            }
        }
        for (auto &[launch, program] : programOf) {
            if (const auto first = firstWithSources.find(program); first != firstWithSources.end())
                program = first->second;
        }
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }
    std::map<std::pair<std::string, std::int64_t>, std::vector<const CommandRecord *>> launchesOf;
    std::map<std::string, int> programsNamed;
    for (const CommandRecord &r : records) {
        if (r.type != CommandRecord::Type::Kernel || r.launch < 0)
            continue;
        const auto program = programOf.find(r.launch);
        auto &list = launchesOf[{r.name, program == programOf.end() ? 0 : program->second}];
        if (list.empty())
            ++programsNamed[r.name];
        list.push_back(&r);
    }
    std::vector<CapturedKernelRoof> kernels;
    std::uint64_t allNs = 0;
    for (const auto &[key, list] : launchesOf) {
        if (!opts.kernel.empty() && key.first != opts.kernel)
            continue;
        CapturedKernelRoof k;
        k.kernel = key.first;
        k.program = key.second;
        k.label = programsNamed[key.first] > 1 ? k.kernel + " (program " + std::to_string(k.program) + ")"
                                               : k.kernel;
        k.device = list.front()->device;
        k.launches = list.size();
        for (const CommandRecord *r : list)
            k.totalNs += r->duration();
        allNs += k.totalNs;
        kernels.push_back(std::move(k));
    }
    if (kernels.empty())
        throw CliFailure{ExitFailed, opts.kernel.empty() ? file + " has no kernel launches"
                                                         : file + " has no launch of " + opts.kernel};
    std::stable_sort(
        kernels.begin(), kernels.end(),
        [](const CapturedKernelRoof &a, const CapturedKernelRoof &b) { return a.totalNs > b.totalNs; });

    std::map<std::string, CapturePeaks> peaksByDevice;
    for (CapturedKernelRoof &k : kernels) {
        if (!opts.common.json)
            std::cerr << "clscope-cli: counting " << k.label << " on Oclgrind...\n";
        countCapturedKernel(file, *reader, sourceOf, launchesOf[{k.kernel, k.program}], opts, peaksByDevice,
                            k);
    }
    const bool anyCounted = std::any_of(kernels.begin(), kernels.end(),
                                        [](const CapturedKernelRoof &k) { return k.point.has_value(); });

    if (opts.common.json) {
        nlohmann::ordered_json doc;
        doc["capture"] = file;
        doc["program"] = summary.program;
        nlohmann::ordered_json peaks = nlohmann::ordered_json::object();
        for (const auto &[device, p] : peaksByDevice) {
            nlohmann::ordered_json one = nlohmann::ordered_json::parse(rooflineToJson({}, p.peaks))["peaks"];
            one["from"] = p.from;
            peaks[device] = one;
        }
        doc["peaks"] = peaks;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const CapturedKernelRoof &k : kernels) {
            nlohmann::ordered_json one{{"kernel", k.kernel},
                                       {"label", k.label},
                                       {"program", k.program},
                                       {"device", k.device},
                                       {"launches", k.launches},
                                       {"total_ns", k.totalNs},
                                       {"share_of_time", allNs ? double(k.totalNs) / double(allNs) : 0.0},
                                       {"counted_launch", k.counted},
                                       {"timed_launches_of_that_range", k.sameRange}};
            if (k.point) {
                const nlohmann::ordered_json point = nlohmann::ordered_json::parse(
                    rooflineToJson({*k.point}, peaksByDevice.at(k.device).peaks))["kernels"][0];
                for (auto it = point.begin(); it != point.end(); ++it) {
                    if (it.key() != "kernel")
                        one[it.key()] = it.value();
                }
                if (k.lines)
                    one["line_profile"] = lineProfileJson(*k.lines);
            } else {
                one["error"] = k.problem;
            }
            list.push_back(one);
        }
        doc["kernels"] = list;
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return anyCounted ? ExitOk : ExitFailed;
    }

    std::cout
        << "Roofline of " << file << (summary.program.empty() ? "" : " (" + summary.program + ")")
        << ": each kernel's work counted on one launch replayed on Oclgrind, its time the median of the "
           "captured launches of that range\n";
    for (const auto &[device, p] : peaksByDevice)
        std::cout << "Peaks of " << device << ": " << formatFixed(p.peaks.bandwidthGBps, 1) << " GB/s, "
                  << formatFixed(p.peaks.singleGflops, 1) << " GFLOP/s single"
                  << (p.peaks.doubleGflops > 0
                          ? ", " + formatFixed(p.peaks.doubleGflops, 1) + " GFLOP/s double"
                          : "")
                  << " (" << p.from << ")\n";
    std::cout << '\n'
              << std::left << std::setw(24) << "Kernel" << std::right << std::setw(9) << "Launches"
              << std::setw(13) << "Device time" << std::setw(8) << "Share" << std::setw(10) << "GB/s"
              << std::setw(11) << "GFLOP/s" << std::setw(11) << "Flops/B" << std::setw(9) << "Limit"
              << std::setw(11) << "% of roof" << '\n';
    for (const CapturedKernelRoof &k : kernels) {
        std::cout << std::left << std::setw(24) << k.label << std::right << std::setw(9) << k.launches
                  << std::setw(13) << formatNanoseconds(double(k.totalNs)) << std::setw(8)
                  << formatFixed(allNs ? 100.0 * double(k.totalNs) / double(allNs) : 0, 1) + " %";
        if (k.point)
            std::cout << std::setw(10) << formatFixed(k.point->gbps, 1) << std::setw(11)
                      << formatFixed(k.point->gflops, 1) << std::setw(11)
                      << formatFixed(k.point->intensity, 3) << std::setw(9)
                      << (k.point->memoryBound ? "memory" : "compute") << std::setw(11)
                      << formatFixed(k.point->percentOfRoof, 1) + " %" << '\n';
        else
            std::cout << "   not counted: " << k.problem << '\n';
    }
    for (const CapturedKernelRoof &k : kernels) {
        if (!k.point)
            continue;
        std::cout << '\n'
                  << "launch " << k.counted << ", " << k.sameRange << " timed launches of its range: "
                  << formatRoofline(*k.point, peaksByDevice.at(k.device).peaks);
        if (k.lines && k.lines->sampled())
            std::cout << "  Work of " << k.label << ": " << describeSampling(*k.lines) << '\n';
    }
    return anyCounted ? ExitOk : ExitFailed;
}

int runRoofline(const RooflineOptionsCli &given)
{
    if (!given.input.file.empty() && isCaptureFile(given.input.file))
        return runCaptureRoofline(given);
    if (!given.peaks.empty())
        throw CliFailure{ExitUsage,
                         "--peaks is for a capture, whose device may not be here; a .cl file runs on "
                         "a device here, whose peaks are measured or kept"};
    RooflineOptionsCli opts = given;
    std::string source;
    const std::string spec = prepareLaunch(opts, &source);
    if (opts.repeat < 1)
        throw CliFailure{ExitUsage, "--repeat " + std::to_string(opts.repeat) + " must be at least 1"};
    RunRequest request = launchRequest(opts); // bad input is found before any driver is touched
    request.repeat = opts.repeat;

    // The work: one launch counted on Oclgrind.
    LaunchOptions once = opts;
    once.repeat = 1;
    once.prints.clear();
    std::vector<std::string> childArgs = runArguments(once);
    childArgs.insert(childArgs.end(), {"--check", "--json"});
    CheckedRun countedRun{childArgs, opts.input.file, spec, true};
    countedRun.sampleGroups = opts.sampleGroups;
    const ProfiledChild profiled = profileLines(countedRun);
    const std::vector<KernelLineProfile> kernels = profiled.profile.byKernel();
    const auto counted = std::find_if(kernels.begin(), kernels.end(),
                                      [&](const KernelLineProfile &k) { return k.kernel == opts.kernel; });
    if (counted == kernels.end())
        throw CliFailure{ExitFailed, "the line profiler counted no launch of " + opts.kernel};

    // The time: the launch on the device, --repeat times.
    const SelectedDevice device = selectDevice(spec);
    request.build = buildForLaunch(opts, source, device.device);
    request.device = device.device;
    const RunResult result = runKernel(request, RunOptions{});
    const double seconds = medianLaunchSeconds(result);

    // The roofs.
    std::string peaksPath;
    bool measuredNow = false;
    if (!opts.common.json)
        std::cerr << "clscope-cli: the peaks of " << device.deviceName
                  << (opts.remeasure ? ": measuring" : "") << "...\n";
    const DevicePeaks peaks =
        devicePeaks(device.device, opts.remeasure, &peaksPath, &measuredNow, peaksEffort(opts));
    const RooflinePoint point = rooflinePoint(opts.kernel, counted->total, seconds, peaks);

    if (opts.common.json) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(rooflineToJson({point}, peaks));
        doc["device"] = device.deviceName;
        doc["launches_timed"] = result.launches().size();
        doc["peaks_file"] = peaksPath;
        doc["peaks_measured_now"] = measuredNow;
        doc["kernels"][0]["line_profile"] = lineProfileJson(*counted);
        std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return ExitOk;
    }
    std::cout << "Roofline on " << device.deviceName << ": the work counted on Oclgrind, the time of "
              << result.launches().size()
              << (result.launches().size() == 1 ? " launch" : " launches (median)") << " on the device\n"
              << "Peaks: " << peaks.bandwidthGBps << " GB/s, " << peaks.singleGflops << " GFLOP/s single"
              << (peaks.doubleGflops > 0 ? ", " + std::to_string(int(peaks.doubleGflops)) + " GFLOP/s double"
                                         : "")
              << (measuredNow ? " (measured now" : " (measured " + peaks.measured)
              << (peaksPath.empty() ? ")" : ", kept in " + peaksPath + ")") << '\n'
              << formatRoofline(point, peaks);
    if (counted->sampled())
        std::cout << "  Work: " << describeSampling(*counted) << '\n';
    return ExitOk;
}

} // namespace

void addRooflineCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<RooflineOptionsCli>();
    opts->repeat = 10;
    CLI::App *sub = app.add_subcommand(
        "roofline",
        "A kernel's speed of light: its counted work over its device time, against the device's peaks");
    addLaunchOptions(sub, *opts, "Local size X[,Y[,Z]] (default: the driver chooses)");
    sub->add_option("--repeat", opts->repeat, "Timed launches on the device; the median counts (default 10)");
    sub->add_flag("--remeasure", opts->remeasure,
                  "Measure the device's bandwidth and compute peaks again instead of using the kept ones");
    sub->add_option(
           "--effort", opts->effort,
           "How long the peaks' benchmarks run when they are measured: full (default) or quick (a tenth)")
        ->check(CLI::IsMember({"full", "quick"}));
    sub->add_option(
        "--peaks", opts->peaks,
        "A capture's roofs: a bench document saved on the device it ran on (clscope-cli bench all "
        "--save FILE there), when that device is not here");
    sub->add_option("--sample-groups", opts->sampleGroups,
                    "A counted launch of more work-groups than this runs only this many on Oclgrind, evenly "
                    "spread (first and last included), and its counts are scaled; 0 runs every work-group "
                    "(default " +
                        std::to_string(kDefaultSampleGroups) + ")")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30));
    sub->footer(
        "FILE may be a capture (clscope-cli capture): every kernel of it, by device time, each counted on "
        "one "
        "replayed launch\n\n" +
        argumentHelp() +
        "\nThe flops and bytes come from one launch on Oclgrind with CLScope's line profiler (run --lines);"
        "\nthe peaks from `bench bandwidth` and `bench compute`, measured once per device and kept in"
        "\n$XDG_CACHE_HOME/clscope/peaks (CLSCOPE_PEAKS_DIR sets another folder).\n"
        "\nExample:\n  clscope-cli roofline copy.cl --kernel copy --global 16777216 \\\n"
        "    --arg a=buffer:float:16777216:iota --arg b=buffer:float:16777216 --device nvidia\n"
        "  clscope-cli roofline app.clscope --peaks h200-peaks.json\n");
    sub->callback([opts, &action] { action = [opts] { return runRoofline(*opts); }; });
}

} // namespace clscope::cli
