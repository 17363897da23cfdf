// clscope-cli info: every platform and device with every parameter of the info table.
#include "cli.h"

#include "clscope/deviceinfo.h"
#include "clscope/devicespec.h"

#include <iostream>
#include <memory>

namespace clscope::cli {
namespace {

struct InfoOptions
{
    CommonOptions common;
};

void printValues(const std::vector<InfoValue> &values, const char *indent)
{
    constexpr size_t kLabelWidth = 44;
    for (const GroupedValues &group : groupValues(values)) {
        if (group.group != InfoGroup::Platform)
            std::cout << indent << "[" << groupName(group.group) << "]\n";
        for (const InfoValue *v : group.values) {
            // Multi-line values (extension lists) continue under the value column.
            std::string padded;
            for (char c : v->display()) {
                padded += c;
                if (c == '\n')
                    padded += std::string(std::string_view(indent).size() + 2 + kLabelWidth, ' ');
            }
            std::string label(v->param->label);
            if (label.size() < kLabelWidth)
                label.resize(kLabelWidth, ' ');
            std::cout << indent << "  " << label << padded << '\n';
        }
    }
}

// Keeps only the selected devices (and the platforms that hold them) when a spec is given.
void filterBySpec(SystemSnapshot &snap, const std::string &spec)
{
    const std::vector<DeviceCandidate> candidates = deviceCandidates(snap);
    const auto picked = matchDeviceSpec(spec, candidates);
    if (picked.empty()) // the same line as run and build give, with the devices there are
        throw CliFailure{ExitUsage, "no OpenCL device matches '" + spec +
                                        "' (devices: " + candidateList(candidates) + ")"};
    std::vector<PlatformSnapshot> kept;
    for (auto &p : snap.platforms) {
        std::vector<DeviceSnapshot> devs;
        for (auto &d : p.devices) {
            for (size_t i : picked) {
                if (candidates[i].platformIndex == p.index && candidates[i].deviceIndex == d.index)
                    devs.push_back(std::move(d));
            }
        }
        if (!devs.empty()) {
            p.devices = std::move(devs);
            kept.push_back(std::move(p));
        }
    }
    snap.platforms = std::move(kept);
}

int runInfo(const InfoOptions &opts)
{
    const std::string spec = effectiveDeviceSpec(opts.common.device);
    if (!spec.empty())
        parseDeviceSpec(spec); // a malformed spec is bad usage before any driver is touched
    SystemSnapshot snap = takeSnapshot();
    if (!snap.error.empty())
        throw CliFailure{ExitFailed, snap.error};
    if (!spec.empty())
        filterBySpec(snap, spec);
    if (opts.common.json) {
        std::cout << snapshotToJson(snap) << '\n';
        return ExitOk;
    }
    if (snap.platforms.empty()) {
        std::cout
            << "No OpenCL platform found. Install a driver, e.g. `sudo apt-get install pocl-opencl-icd`.\n";
        return ExitOk;
    }
    for (const auto &p : snap.platforms) {
        std::cout << "Platform " << p.index << ": " << p.name() << '\n';
        if (!p.error.empty())
            std::cout << "  error: " << p.error << '\n';
        printValues(p.values, "  ");
        for (const auto &d : p.devices) {
            std::cout << "\n  Device " << p.index << ':' << d.index << ": " << d.name() << '\n';
            printValues(d.values, "    ");
            if (d.kernelPreferredWorkGroupSizeMultiple)
                std::cout << "    "
                          << std::string("  Preferred work-group size multiple (kernel)").append(2, ' ')
                          << *d.kernelPreferredWorkGroupSizeMultiple << '\n';
            if (!d.imageFormats.empty()) {
                std::cout << "    [Image formats]\n";
                for (const auto &set : d.imageFormats)
                    std::cout << "      " << memFlagName(set.memFlags) << ' ' << imageTypeName(set.imageType)
                              << ": " << set.formats.size() << " formats\n";
            }
            if (!d.error.empty())
                std::cout << "    note: " << d.error << '\n';
        }
        std::cout << '\n';
    }
    return ExitOk;
}

} // namespace

void addInfoCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<InfoOptions>();
    CLI::App *sub = app.add_subcommand("info", "List OpenCL platforms and devices with every parameter");
    addCommonOptions(sub, opts->common);
    sub->callback([opts, &action] { action = [opts] { return runInfo(*opts); }; });
}

} // namespace clscope::cli
