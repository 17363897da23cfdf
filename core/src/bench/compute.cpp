// Compute peaks: two interleaved chains of mad per work-item (as clpeak), 2048 lane-mads per work-item at
// every vector width, for float, double, half and 32-bit integers where the device has them. The grid is
// sized from a first timed run so that each kernel runs for a set time (long enough to swamp the launch,
// short enough to keep a whole sweep to seconds), and each figure is the best of several runs.
#include "benchcommon.h"

#include <algorithm>
#include <string>
#include <vector>

namespace clscope {
namespace {
using namespace benchdetail;

constexpr int kLaneMadsPerItem = 2048;
constexpr int kMadsPerIteration = 16;
constexpr double kOpsPerItem = 2.0 * kLaneMadsPerItem; // a mad is two operations

struct NumberType
{
    const char *key;    // compute_sp_gflops
    const char *scalar; // float
    const char *label;  // single precision
    const char *unit;   // GFLOPS
    const char *pragma; // what the type needs
    const char *mad;    // the multiply-add
};

constexpr NumberType kTypes[] = {
    {"compute_sp_gflops", "float", "single precision", "GFLOPS", "", "mad"},
    {"compute_dp_gflops", "double", "double precision", "GFLOPS",
     "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n", "mad"},
    {"compute_int_giops", "uint", "32-bit integer", "GIOPS", "", "MAD_INT"},
    {"compute_hp_gflops", "half", "half precision", "GFLOPS",
     "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n", "mad"},
};

// y and x feed each other, so no mad can be dropped and none can start before the one it reads; the
// lanes start apart so that no compiler can fold a vector into one scalar chain. mad2_ is clpeak's form
// (one pair of chains: latency-bound where a work-item is a thread, as on CPU devices); mad8_ runs four
// independent pairs, the same mads in total, so that a core with deep pipelines has work for each of
// them.
const char *const kComputeTemplate = R"(
__kernel void mad2_$W(__global $S *restrict out, float seed)
{
    $T x = $INIT;
    $T y = ($T)(($S)get_local_id(0));
    for (int i = 0; i < $ITERS; ++i) {
$BODY2    }
    // One store per work-item to a small buffer: it keeps the chains alive and costs nothing beside them.
    out[get_global_id(0) & 1023] = $HSUM;
}

__kernel void mad8_$W(__global $S *restrict out, float seed)
{
    $T x0 = $INIT, x1 = x0 + ($S)1, x2 = x0 + ($S)2, x3 = x0 + ($S)3;
    $T y = ($T)(($S)get_local_id(0));
    $T y0 = y, y1 = y + ($S)1, y2 = y + ($S)2, y3 = y + ($S)3;
    for (int i = 0; i < $ITERS; ++i) {
$BODY8    }
    y = y0 + y1 + y2 + y3;
    out[get_global_id(0) & 1023] = $HSUM;
}
)";

constexpr const char *kVariants[] = {"mad2", "mad8"};

std::string initExpression(const NumberType &type, int width)
{
    const std::string scalar = type.scalar;
    if (width == 1)
        return "(" + scalar + ")seed";
    std::string init = "(" + vectorTypeName(scalar, width) + ")(";
    for (int c = 0; c < width; ++c)
        init += (c ? ", " : "") + std::string("(") + scalar + ")(seed + " + std::to_string(c) + ".0f)";
    return init + ")";
}

std::string kernelSource(const NumberType &type)
{
    std::string source = type.pragma;
    source += "#define MAD_INT(a, b, c) ((a) * (b) + (c))\n";
    std::string body2;
    std::string body8;
    for (int m = 0; m < kMadsPerIteration; m += 2) {
        body2 += std::string("        x = ") + type.mad + "(y, x, y); y = " + type.mad + "(x, y, x);\n";
        const std::string n = std::to_string(m / 2 % 4);
        body8 += "        x" + n + " = " + type.mad + "(y" + n + ", x" + n + ", y" + n + "); y" + n + " = " +
                 type.mad + "(x" + n + ", y" + n + ", x" + n + ");\n";
    }
    for (const int width : kWidths) {
        source += substitute(kComputeTemplate,
                             {{"INIT", initExpression(type, width)},
                              {"ITERS", std::to_string(kLaneMadsPerItem / kMadsPerIteration / width)},
                              {"BODY2", body2},
                              {"BODY8", body8},
                              {"HSUM", horizontalSum("y", width)},
                              {"W", std::to_string(width)},
                              {"T", vectorTypeName(type.scalar, width)},
                              {"S", type.scalar}});
    }
    return source;
}

bool supports(const DeviceFacts &facts, const NumberType &type, std::string &why)
{
    const std::string scalar = type.scalar;
    if (scalar == "double") {
        const auto config = deviceInfo<cl_device_fp_config>(facts.id, CL_DEVICE_DOUBLE_FP_CONFIG,
                                                            "CL_DEVICE_DOUBLE_FP_CONFIG");
        if (config == 0 && !facts.hasExtension("cl_khr_fp64")) {
            why = "double precision: the device has no cl_khr_fp64";
            return false;
        }
    }
    if (scalar == "half" && !facts.hasExtension("cl_khr_fp16")) {
        why = "half precision: the device has no cl_khr_fp16";
        return false;
    }
    return true;
}

// Nanoseconds one kernel should run: long against the launch, short against the sweep.
double targetNs(const DeviceFacts &facts, BenchEffort effort)
{
    switch (effort) {
    case BenchEffort::Tiny:
        return 0; // no scaling: the first grid is kept
    case BenchEffort::Quick:
        return facts.isCpu() ? 10e6 : 5e6;
    case BenchEffort::Full:
        break;
    }
    return facts.isCpu() ? 30e6 : 20e6;
}
} // namespace

BenchResult runComputeBench(cl_device_id device, const DeviceBenchOptions &options)
{
    const DeviceFacts facts = DeviceFacts::of(device);
    BenchResult result = startResult("compute", facts);
    std::vector<const NumberType *> types;
    for (const NumberType &t : kTypes) {
        std::string why;
        if (supports(facts, t, why))
            types.push_back(&t);
        else
            result.notes.push_back(why);
    }
    Stepper stepper(options, int(types.size() * std::size(kWidths)));
    BenchContext ctx(facts);
    ClMem out = ctx.buffer(CL_MEM_WRITE_ONLY, 1024 * sizeof(double));
    const int runs = runsFor(options, facts.isCpu() ? 4 : 10, 2);
    const double target = targetNs(facts, options.effort);

    for (const NumberType *type : types) {
        stepper.stage(std::string("compute: building ") + type->label + " kernels");
        ClProgram program;
        try {
            program = ctx.build(kernelSource(*type));
        } catch (const ClError &e) {
            // A driver that claims a type and then cannot compile it loses the type, not the benchmark.
            result.notes.push_back(std::string(type->label) + ": the kernels did not build (" + e.what() +
                                   ")");
            for (std::size_t w = 0; w < std::size(kWidths); ++w)
                stepper.step();
            continue;
        }
        BenchSeries series;
        series.key = type->key;
        series.unit = type->unit;
        series.axis = "vector width";
        double best = 0;
        std::string bestWhat;
        std::uint64_t bestItems = 0;
        for (const int width : kWidths) {
            stepper.stage(std::string("compute: ") + vectorTypeName(type->scalar, width));
            // Both forms run once on a grid of one work-group per compute unit (after a warm-up: lazy drivers
            // compile there); the faster gets a grid sized for the target time and the remaining runs.
            struct Candidate
            {
                ClKernel kernel;
                const char *form;
                std::size_t local = 1;
                std::size_t global = 1;
                double ns = 0;
            };
            std::vector<Candidate> candidates;
            for (const char *form : kVariants) {
                Candidate c;
                c.form = form;
                const std::string name = std::string(form) + "_" + std::to_string(width);
                c.kernel = ctx.kernel(program.get(), name.c_str());
                setArg(c.kernel.get(), 0, out.get());
                setArg(c.kernel.get(), 1, 1.3f);
                c.local = floorPowerOfTwo(
                    std::min<std::size_t>({facts.maxWorkGroup, ctx.kernelWorkGroup(c.kernel.get()),
                                           std::size_t(facts.isCpu() ? 4096 : 256)}));
                c.global = std::size_t(facts.computeUnits) * c.local * (facts.isCpu() ? 1 : 16);
                runKernel(ctx.queue(), c.kernel.get(), c.global, c.local);
                c.ns = timeKernelNs(ctx.queue(), c.kernel.get(), c.global, c.local);
                candidates.push_back(std::move(c));
                stepper.checkCancelled();
            }
            const auto rateOf = [](const Candidate &c) {
                return ratePerNs(double(c.global) * kOpsPerItem, c.ns);
            };
            Candidate &pick = *std::max_element(
                candidates.begin(), candidates.end(),
                [&](const Candidate &l, const Candidate &r) { return rateOf(l) < rateOf(r); });
            double rate = rateOf(pick);
            if (target > 0 && pick.ns > 0 && pick.ns < target / 2) {
                const double scale = std::min(target / pick.ns, 65536.0);
                pick.global = std::max<std::size_t>(
                    roundDown(std::uint64_t(double(pick.global) * scale), pick.local), pick.local);
                pick.ns = 0;
            }
            for (int r = pick.ns > 0 ? 1 : 0; r < runs; ++r) {
                const double ns = timeKernelNs(ctx.queue(), pick.kernel.get(), pick.global, pick.local);
                if (ns > 0 && (pick.ns <= 0 || ns < pick.ns))
                    pick.ns = ns;
                stepper.checkCancelled();
            }
            rate = std::max(rate, rateOf(pick));
            series.labels.push_back(vectorTypeName(type->scalar, width));
            series.values.push_back(rate);
            if (rate > best) {
                best = rate;
                bestWhat = vectorTypeName(type->scalar, width) + ", " +
                           (pick.form == kVariants[0] ? "one" : "four") + " pair(s) of chains, " +
                           std::to_string(pick.global) + " work-items in groups of " +
                           std::to_string(pick.local);
                bestItems = pick.global;
            }
            stepper.step();
        }
        series.definition = std::string(type->label) +
                            " mad chains per vector width: 2 operations per mad, " +
                            std::to_string(kLaneMadsPerItem) + " lane-mads per work-item";
        result.series.push_back(std::move(series));
        addFigure(result, type->key, best, type->unit, bestItems, runs,
                  std::string(type->label) +
                      " peak: interleaved chains of mad, 2 operations each, 1e9 per second " +
                      "by END - START of the fastest run; best: " + bestWhat);
    }
    return result;
}

} // namespace clscope
