// clscope-cli replay FILE --launch N: one captured launch again, on any device, compared with what the
// program's own run produced.
#include "cli.h"

#include "clscope/capture.h"
#include "clscope/devicespec.h"
#include "clscope/format.h"

#include <iostream>

namespace clscope::cli {
namespace {

struct ReplayOptions
{
    CommonOptions common;
    std::string file;
    std::int64_t launch = -1;
    double tolerance = 0;
};

int runReplay(const ReplayOptions &o)
{
    const std::string spec = checkUsage(o.common, o.file);
    if (o.launch < 0)
        throw CliFailure{ExitUsage, "--launch takes a launch index from 0, not " + std::to_string(o.launch)};
    if (o.tolerance < 0)
        throw CliFailure{ExitUsage, "--tolerance must not be negative"};
    CapturedLaunch launch;
    try {
        launch = CaptureReader(o.file).launch(o.launch);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitUsage, e.what()};
    }
    const SelectedDevice device = selectDevice(spec);
    ReplayResult r;
    try {
        r = replayLaunch(launch, device.device, o.tolerance);
    } catch (const CaptureError &e) {
        throw CliFailure{ExitFailed, e.what()};
    }
    if (o.common.json) {
        std::cout << replayJson(r) << '\n';
    } else {
        std::cout << "launch " << r.launch << " (" << r.kernel << "), captured on " << r.capturedDevice
                  << ", replayed on " << r.device << " in " << formatNanoseconds(double(r.durationNs))
                  << '\n';
        for (const ReplayOutput &out : r.outputs) {
            std::cout << "  argument " << out.arg << (out.name.empty() ? "" : " (" + out.name + ")") << ", "
                      << out.elements << " x " << out.type << ": ";
            if (out.equal)
                std::cout << "equal\n";
            else
                std::cout << "differs at element " << *out.firstDifference << ": expected " << out.expected
                          << ", got " << out.actual << " (largest difference " << out.maxAbsDifference
                          << ")\n";
        }
        if (r.outputs.empty())
            std::cout << "  no buffer has captured \"after\" contents: nothing compared\n";
    }
    return r.equal() ? ExitOk : ExitFailed;
}

} // namespace

void addReplayCommand(CLI::App &app, Action &action)
{
    auto o = std::make_shared<ReplayOptions>();
    CLI::App *sub = app.add_subcommand("replay", "Run one captured launch again on any device and compare");
    sub->add_option("file", o->file, "Capture file")->required();
    sub->add_option("--launch", o->launch, "Launch index (from 0, in enqueue order)")->required();
    sub->add_option("--tolerance", o->tolerance,
                    "Largest absolute difference of floating values that is equal");
    addCommonOptions(sub, o->common);
    sub->callback([o, &action] { action = [o] { return runReplay(*o); }; });
}

} // namespace clscope::cli
