// clscope-cli roofline FILE.cl --kernel K ...: a launch's speed of light. The work is counted on Oclgrind
// with the line profiler (the child of run --lines), the time is the launch's own on the chosen device
// (the median of --repeat launches), and the roofs are the device's measured bandwidth and compute peaks
// (roofline.h: measured once per device and kept, --remeasure to measure again).
#include "cli.h"

#include "clscope/profile.h"
#include "clscope/roofline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace clscope::cli {
namespace {

struct RooflineOptionsCli : LaunchOptions
{
    bool remeasure = false;
    std::string effort = "full"; // of the peaks' benchmarks: full or quick
};

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

int runRoofline(const RooflineOptionsCli &given)
{
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
    const ProfiledChild profiled = profileLines({childArgs, opts.input.file, spec, true});
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
    const DevicePeaks peaks = devicePeaks(device.device, opts.remeasure, &peaksPath, &measuredNow,
                                          opts.effort == "quick" ? BenchEffort::Quick : BenchEffort::Full);
    const RooflinePoint point = rooflinePoint(opts.kernel, counted->total, seconds, peaks);

    if (opts.common.json) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(rooflineToJson({point}, peaks));
        doc["device"] = device.deviceName;
        doc["launches_timed"] = result.launches().size();
        doc["peaks_file"] = peaksPath;
        doc["peaks_measured_now"] = measuredNow;
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
    sub->footer(
        argumentHelp() +
        "\nThe flops and bytes come from one launch on Oclgrind with CLScope's line profiler (run --lines);"
        "\nthe peaks from `bench bandwidth` and `bench compute`, measured once per device and kept in"
        "\n$XDG_CACHE_HOME/clscope/peaks (CLSCOPE_PEAKS_DIR sets another folder).\n"
        "\nExample:\n  clscope-cli roofline copy.cl --kernel copy --global 16777216 \\\n"
        "    --arg a=buffer:float:16777216:iota --arg b=buffer:float:16777216 --device nvidia\n");
    sub->callback([opts, &action] { action = [opts] { return runRoofline(*opts); }; });
}

} // namespace clscope::cli
