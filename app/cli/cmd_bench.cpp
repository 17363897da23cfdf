// clscope-cli bench: `bench KIND [--json] [--device SPEC] [--save FILE] [--baseline FILE]` runs the
// micro-benchmarks of clscope/bench.h and clscope/devicebench.h on one device. Kinds come from one table, so
// a new kind is one new row; `all` runs every row in order. --save writes the JSON document, --baseline
// compares every figure with a saved one (ratio and better/worse).
#include "cli.h"

#include "clscope/bench.h"
#include "clscope/devicebench.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace clscope::cli {
namespace {
struct BenchOptions
{
    std::string kind;
    std::uint64_t iterations = 0; // 0: the kind's defaults
    std::string effort = "full";  // full, quick, tiny
    std::string save;             // --save FILE
    std::string baseline;         // --baseline FILE
    CommonOptions common;
};

// A kind without a runner is known but not available yet.
using BenchRunner = BenchResult (*)(cl_device_id device, const BenchOptions &opts);

struct BenchKind
{
    const char *name;
    const char *what;
    BenchRunner run;
};

DeviceBenchOptions deviceOptions(const BenchOptions &opts)
{
    DeviceBenchOptions options;
    options.effort = opts.effort == "tiny"    ? BenchEffort::Tiny
                     : opts.effort == "quick" ? BenchEffort::Quick
                                              : BenchEffort::Full;
    return options;
}

BenchResult runPool(cl_device_id device, const BenchOptions &opts)
{
    if (opts.iterations == 0)
        return runBenchKind("pool", device, deviceOptions(opts));
    const std::uint64_t iterations = opts.iterations;
    PoolBenchOptions options;
    {
        // --iterations sets the hit pairs; the slower figures keep their proportion to it.
        options.hitPairs = iterations;
        options.missPairs = std::max<std::uint64_t>(iterations / 100, 1);
        options.rawPairs = std::max<std::uint64_t>(iterations / 100, 1);
        options.realAllocs = std::max<std::uint64_t>(iterations / 4000, 1);
    }
    BenchResult result;
    result.report = runPoolBench(device, options);
    return result;
}

template<const char *Kind> BenchResult runDeviceKind(cl_device_id device, const BenchOptions &opts)
{
    return runBenchKind(Kind, device, deviceOptions(opts));
}
constexpr char kLaunch[] = "launch", kBandwidth[] = "bandwidth", kCompute[] = "compute",
               kTransfer[] = "transfer", kLocal[] = "local", kTraits[] = "traits";

const BenchKind kKinds[] = {
    {"pool", "memory pool hit and miss against bare clCreateBuffer", &runPool},
    {"launch", "kernel launch latency and enqueue cost", &runDeviceKind<kLaunch>},
    {"bandwidth", "global memory bandwidth", &runDeviceKind<kBandwidth>},
    {"compute", "compute peak", &runDeviceKind<kCompute>},
    {"transfer", "host <-> device transfers", &runDeviceKind<kTransfer>},
    {"local", "local memory bandwidth", &runDeviceKind<kLocal>},
    {"traits", "device traits: SIMD width, banks, build cache, profiling overhead", &runDeviceKind<kTraits>},
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

// The rows a kind name runs: itself, or every row for `all`.
std::vector<const BenchKind *> findKinds(const std::string &name)
{
    std::vector<const BenchKind *> rows;
    for (const BenchKind &k : kKinds) {
        if (name == "all") {
            if (k.run)
                rows.push_back(&k);
        } else if (k.name == name) {
            if (!k.run)
                throw CliFailure{ExitUsage, "bench " + name + " (" + k.what +
                                                ") is not available yet; available: " + availableKinds()};
            rows.push_back(&k);
        }
    }
    if (!rows.empty())
        return rows;
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

std::string traitText(const BenchTraitValue &value)
{
    return std::visit(
        [](const auto &v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return "n/a";
            else if constexpr (std::is_same_v<T, bool>)
                return v ? "yes" : "no";
            else if constexpr (std::is_same_v<T, std::string>)
                return v;
            else if constexpr (std::is_same_v<T, double>)
                return formatValue(v);
            else
                return std::to_string(v);
        },
        value);
}

// One line per figure (with its ratio to the baseline when there is one), then per-width detail, traits
// and notes, indented.
void printText(const BenchDocument &doc, const std::vector<BenchComparison> *comparison)
{
    std::cout << "device: " << doc.device << '\n';
    std::size_t width = 0;
    for (const BenchResult &r : doc.results) {
        for (const BenchFigure &f : r.report.figures)
            width = std::max(width, f.key.size());
    }
    for (const BenchResult &r : doc.results) {
        for (const BenchFigure &f : r.report.figures) {
            std::cout << f.key << std::string(width + 2 - f.key.size(), ' ') << formatValue(f.value) << ' '
                      << f.unit;
            if (comparison) {
                const auto c = std::find_if(comparison->begin(), comparison->end(),
                                            [&](const BenchComparison &b) { return b.key == f.key; });
                if (c != comparison->end() && c->baseline != 0)
                    std::cout << "  x" << formatValue(c->ratio) << ' ' << verdictName(c->verdict)
                              << " (baseline " << formatValue(c->baseline) << ')';
            }
            if (r.report.kind == "pool")
                std::cout << "  (" << f.definition << "; mean of " << f.iterations << ", fastest of "
                          << f.rounds << " rounds)\n";
            else
                std::cout << "  (" << f.definition << ")\n";
        }
        for (const BenchSeries &s : r.series) {
            std::cout << "  " << s.key << " by " << s.axis << ':';
            for (std::size_t i = 0; i < s.labels.size() && i < s.values.size(); ++i)
                std::cout << ' ' << s.labels[i] << ' ' << formatValue(s.values[i]);
            std::cout << '\n';
        }
        for (const BenchTrait &t : r.traits)
            std::cout << "  " << t.key << ": " << traitText(t.value) << '\n';
        for (const std::string &n : r.notes)
            std::cout << "  note: " << n << '\n';
    }
}

int runBench(const BenchOptions &opts)
{
    const std::vector<const BenchKind *> kinds =
        findKinds(opts.kind); // before the device: bad usage fails fast
    std::optional<BenchDocument> baseline;
    if (!opts.baseline.empty()) {
        try {
            baseline = loadBenchFile(opts.baseline);
        } catch (const BenchFileError &e) {
            throw CliFailure{ExitUsage, std::string("--baseline: ") + e.what()};
        }
    }
    const std::string spec = effectiveDeviceSpec(opts.common.device);
    if (!spec.empty())
        parseDeviceSpec(spec);
    const SelectedDevice device = selectDevice(spec);
    BenchDocument doc;
    try {
        doc = describeBenchDevice(device.device);
        for (const BenchKind *kind : kinds)
            doc.results.push_back(kind->run(device.device, opts));
    } catch (const ClError &e) {
        throw CliFailure{ExitFailed, "bench " + opts.kind + " on " + device.deviceName + ": " + e.what()};
    }
    std::vector<BenchComparison> comparison;
    if (baseline)
        comparison = compareBench(doc, *baseline);
    if (!opts.save.empty()) {
        try {
            saveBenchFile(opts.save, doc);
        } catch (const BenchFileError &e) {
            throw CliFailure{ExitFailed, std::string("--save: ") + e.what()};
        }
    }
    if (opts.common.json)
        std::cout << benchToJson(doc, baseline ? &comparison : nullptr, opts.baseline) << '\n';
    else
        printText(doc, baseline ? &comparison : nullptr);
    std::cout.flush();
    return ExitOk;
}
} // namespace

void addBenchCommand(CLI::App &app, Action &action)
{
    auto opts = std::make_shared<BenchOptions>();
    CLI::App *bench = app.add_subcommand("bench", "Micro-benchmarks of a device (kinds: pool, launch, "
                                                  "bandwidth, compute, transfer, local, traits, all)");
    bench
        ->add_option("KIND", opts->kind,
                     "What to measure: pool, launch, bandwidth, compute, transfer, local, "
                     "traits or all")
        ->required();
    bench->add_option(
        "--iterations", opts->iterations,
        "Repetitions of the fastest figure (pool: hit pairs; default 2000000); slower figures scale");
    bench
        ->add_option("--effort", opts->effort,
                     "full (accurate, the default), quick (about a tenth of the time) or tiny (smoke tests: "
                     "the figures mean nothing)")
        ->check(CLI::IsMember({"full", "quick", "tiny"}));
    bench->add_option("--save", opts->save, "Write the results as JSON to FILE (a baseline for --baseline)");
    bench->add_option("--baseline", opts->baseline,
                      "Compare every figure with a saved result (ratio to it, better or worse)");
    addCommonOptions(bench, opts->common);
    bench->callback([opts, &action] { action = [opts] { return runBench(*opts); }; });
}

} // namespace clscope::cli
