// clscope-cli sweep: one launch tried with every local size the device and the kernel allow (or the ones
// given), each timed over --repeat launches after a warm-up, with the outputs compared against the first
// candidate's. Prints a table (or JSON `results` and `best`). Exit 1 when no candidate ran, 2 on bad usage.
#include "cli.h"

#include "clscope/devicespec.h"
#include "clscope/sweep.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace clscope::cli {
namespace {

struct SweepOptionsCli : LaunchOptions
{
    std::string candidates = "auto";
    int sweepRepeat = 10;
    int warmup = 1;
};

void printText(const SweepResult &r)
{
    std::cout << "Sweep of " << r.kernel << " on " << r.device << ": global " << formatSizeList(r.global)
              << ", " << r.repeat << (r.repeat == 1 ? " launch" : " launches") << " per local size after "
              << r.warmup << " warm-up\n";
    char line[160];
    std::snprintf(line, sizeof line, "%-14s %12s %12s %12s %12s  %s", "local", "median us", "min us",
                  "mean us", "stddev us", "outputs");
    std::cout << line << '\n';
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const SweepPoint &p = r.points[i];
        const std::string label = localSizeLabel(p.local);
        if (!p.ran) {
            std::snprintf(line, sizeof line, "%-14s ", label.c_str());
            std::cout << line << "did not run: " << p.error << '\n';
            continue;
        }
        std::string outputs = r.reference == i ? "reference" : p.matches ? "equal" : "DIFFER:";
        for (const std::string &name : p.differing)
            outputs += ' ' + name;
        std::snprintf(line, sizeof line, "%-14s %12.3f %12.3f %12.3f %12.3f  %s", label.c_str(),
                      p.stats.medianNs / 1e3, double(p.stats.minNs) / 1e3, p.stats.meanNs / 1e3,
                      p.stats.stddevNs / 1e3, outputs.c_str());
        std::cout << line << (r.best == i ? "  <- best" : "") << '\n';
    }
    if (r.cancelled)
        std::cout << "Cancelled after " << r.points.size() << " local sizes\n";
    if (r.best) {
        const SweepPoint &b = r.points[*r.best];
        std::snprintf(line, sizeof line, "%.3f", b.stats.medianNs / 1e3);
        std::cout << "Best: local " << localSizeLabel(b.local) << " (median " << line << " us)\n";
    } else {
        std::cout << "Best: none (no local size ran with the reference's outputs)\n";
    }
}

int runSweep(const SweepOptionsCli &given)
{
    SweepOptionsCli opts = given;
    std::string source;
    const std::string spec = prepareLaunch(opts, &source);
    if (opts.sweepRepeat < 1)
        throw CliFailure{ExitUsage, "--repeat " + std::to_string(opts.sweepRepeat) + " must be at least 1"};
    if (opts.warmup < 0)
        throw CliFailure{ExitUsage, "--warmup " + std::to_string(opts.warmup) + " must not be negative"};
    SweepRequest request;
    request.run = launchRequest(opts);
    request.repeat = opts.sweepRepeat;
    request.warmup = opts.warmup;
    if (opts.candidates != "auto")
        request.candidates = parseLocalCandidates(opts.candidates);

    const SelectedDevice device = selectDevice(spec);
    request.run.build = buildForLaunch(opts, source, device.device);
    request.run.device = device.device;
    const SweepResult result = sweepLocalSizes(request);
    if (opts.common.json)
        std::cout << sweepResultToJson(result) << '\n';
    else
        printText(result);
    return result.reference ? ExitOk : ExitFailed;
}

} // namespace

void addSweepCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<SweepOptionsCli>();
    CLI::App *sub = app.add_subcommand(
        "sweep", "Run one kernel launch with every local size the device allows, and time each");
    addLaunchOptions(sub, *opts,
                     "The first local size tried, whose outputs the others are compared with (default: the "
                     "driver chooses)");
    sub->add_option("--local-candidates", opts->candidates,
                    "auto (every size the device and kernel allow, and the driver's choice) or a list: "
                    "\"32;64;128\", \"16,16;32,8;driver\"");
    sub->add_option("--repeat", opts->sweepRepeat, "Timed launches per local size (default 10)");
    sub->add_option("--warmup", opts->warmup, "Launches before them, not timed (default 1)");
    sub->footer(argumentHelp() +
                "\nExample:\n  clscope-cli sweep resources/kernels/matmul_tiled.cl --repeat 20 --json\n"
                "  clscope-cli sweep vector_add.cl --kernel vector_add --global 1048576 \\\n"
                "    --local-candidates \"64;128;256;driver\" --arg a=buffer:float:1048576:iota ...");
    sub->callback([opts, &action] { action = [opts] { return runSweep(*opts); }; });
}

} // namespace clscope::cli
