// clscope-cli bench: `bench KIND [--json] [--device SPEC]` runs the micro-benchmarks of clscope/bench.h on
// one device. Kinds come from one table, so a new kind is one new row (DESIGN.md lists launch,
// bandwidth, compute, transfer and all; only pool exists yet, the others say so).
#include "cli.h"

#include "clscope/bench.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace clscope::cli {
namespace {
struct BenchOptions
{
    std::string kind;
    std::uint64_t iterations = 0; // 0: the kind's defaults
    CommonOptions common;
};

// A kind without a runner is known but not available yet.
using BenchRunner = BenchReport (*)(cl_device_id device, std::uint64_t iterations);

struct BenchKind
{
    const char *name;
    const char *what;
    BenchRunner run;
};

BenchReport runPool(cl_device_id device, std::uint64_t iterations)
{
    PoolBenchOptions options;
    if (iterations > 0) {
        // --iterations sets the hit pairs; the slower figures keep their proportion to it.
        options.hitPairs = iterations;
        options.missPairs = std::max<std::uint64_t>(iterations / 100, 1);
        options.rawPairs = std::max<std::uint64_t>(iterations / 100, 1);
        options.realAllocs = std::max<std::uint64_t>(iterations / 4000, 1);
    }
    return runPoolBench(device, options);
}

const BenchKind kKinds[] = {
    {"pool", "memory pool hit and miss against bare clCreateBuffer", &runPool},
    {"launch", "kernel launch latency", nullptr},
    {"bandwidth", "global memory bandwidth", nullptr},
    {"compute", "compute peak", nullptr},
    {"transfer", "host <-> device transfers", nullptr},
    {"all", "every kind above", nullptr},
};

std::string availableKinds()
{
    std::string names;
    for (const BenchKind &k : kKinds) {
        if (k.run)
            names += (names.empty() ? "" : ", ") + std::string(k.name);
    }
    return names;
}

const BenchKind &findKind(const std::string &name)
{
    for (const BenchKind &k : kKinds) {
        if (k.name == name) {
            if (!k.run)
                throw CliFailure{ExitUsage, "bench " + name + " (" + k.what +
                                                ") is not available yet; available: " + availableKinds()};
            return k;
        }
    }
    std::string all;
    for (const BenchKind &k : kKinds)
        all += (all.empty() ? "" : ", ") + std::string(k.name);
    throw CliFailure{ExitUsage, "unknown bench kind '" + name + "' (kinds: " + all + ")"};
}

std::string formatValue(double value)
{
    char text[64];
    std::snprintf(text, sizeof(text), value < 100 ? "%.2f" : "%.0f", value);
    return text;
}

void printText(const BenchReport &report)
{
    std::cout << "device: " << report.device << '\n';
    std::size_t width = 0;
    for (const BenchFigure &f : report.figures)
        width = std::max(width, f.key.size());
    for (const BenchFigure &f : report.figures) {
        std::cout << f.key << std::string(width + 2 - f.key.size(), ' ') << formatValue(f.value) << ' '
                  << f.unit << "  (" << f.definition << "; mean of " << f.iterations << ", fastest of "
                  << f.rounds << " rounds)\n";
    }
}

void printJson(const std::vector<BenchReport> &reports)
{
    // Figures flat at the top, as DESIGN.md's contract has them; iterations and definitions per figure
    // beside them so that a number never travels without what it means.
    nlohmann::ordered_json doc;
    doc["device"] = reports.empty() ? std::string() : reports.front().device;
    auto iterations = nlohmann::ordered_json::object();
    auto rounds = nlohmann::ordered_json::object();
    auto definitions = nlohmann::ordered_json::object();
    auto kinds = nlohmann::ordered_json::array();
    for (const BenchReport &r : reports) {
        kinds.push_back(r.kind);
        for (const BenchFigure &f : r.figures) {
            doc[f.key] = f.value;
            iterations[f.key] = f.iterations;
            rounds[f.key] = f.rounds;
            definitions[f.key] = f.definition;
        }
    }
    doc["kinds"] = kinds;
    doc["iterations"] = iterations;
    doc["rounds"] = rounds; // each figure is the mean of `iterations` in the fastest of `rounds` rounds
    doc["definitions"] = definitions;
    std::cout << doc.dump(2) << '\n';
}

int runBench(const BenchOptions &opts)
{
    const BenchKind &kind = findKind(opts.kind); // before the device: bad usage fails fast
    const std::string spec = effectiveDeviceSpec(opts.common.device);
    if (!spec.empty())
        parseDeviceSpec(spec);
    const SelectedDevice device = selectDevice(spec);
    std::vector<BenchReport> reports;
    try {
        reports.push_back(kind.run(device.device, opts.iterations));
    } catch (const ClError &e) {
        throw CliFailure{ExitFailed, "bench " + opts.kind + " on " + device.deviceName + ": " + e.what()};
    }
    if (opts.common.json) {
        printJson(reports);
    } else {
        for (const BenchReport &r : reports)
            printText(r);
    }
    std::cout.flush();
    return ExitOk;
}
} // namespace

void addBenchCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<BenchOptions>();
    CLI::App *bench =
        app.add_subcommand("bench", "Micro-benchmarks of a device (kinds: pool; launch, bandwidth, "
                                    "compute, transfer and all are not available yet)");
    bench->add_option("KIND", opts->kind, "What to measure: pool")->required();
    bench->add_option(
        "--iterations", opts->iterations,
        "Repetitions of the fastest figure (pool: hit pairs; default 2000000); slower figures scale");
    addCommonOptions(bench, opts->common);
    bench->callback([opts, &action] {
        action = [opts] {
            try {
                return runBench(*opts);
            } catch (const DeviceSpecError &e) {
                throw CliFailure{ExitUsage, e.what()};
            }
        };
    });
}

} // namespace clscope::cli
