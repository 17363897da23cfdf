// Local memory bandwidth: each work-group fills a __local array once, then every work-item reads it 16
// vectors at a time, over float .. float16, the same bytes per work-item at every width. The reads of one
// step are a permutation of an aligned block of 16 (i ^ k), so neighbouring work-items never meet in one
// bank, and the block moves on every step, so no compiler can hoist the loads out of the loop.
#include "benchcommon.h"

#include <string>
#include <vector>

namespace clscope {
namespace {
using namespace benchdetail;

constexpr int kBytesPerItem = 16384;
constexpr int kReadsPerStep = 16;

const char *const kLocalMemTemplate = R"(
__kernel void local_$W(__global float *restrict out, __local $T *lm)
{
    const uint lid = get_local_id(0);
    const uint mask = get_local_size(0) - 1;
    lm[lid] = ($T)((float)lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    $T s = 0;
    uint i = lid;
    for (int r = 0; r < $STEPS; ++r) {
$BODY        i = (i + 16) & mask;
    }
    out[get_global_id(0) & 1023] = $HSUM;
}
)";

std::string kernelSource()
{
    std::string body;
    for (int k = 0; k < kReadsPerStep; ++k)
        body += "        s += lm[i ^ " + std::to_string(k) + "u];\n";
    std::string source;
    for (const int width : kWidths) {
        const int vectorBytes = width * int(sizeof(float));
        source += substitute(kLocalMemTemplate,
                             {{"STEPS", std::to_string(kBytesPerItem / vectorBytes / kReadsPerStep)},
                              {"BODY", body},
                              {"HSUM", horizontalSum("s", width)},
                              {"W", std::to_string(width)},
                              {"T", vectorTypeName("float", width)}});
    }
    return source;
}
} // namespace

BenchResult runLocalMemBench(cl_device_id device, const DeviceBenchOptions &options)
{
    const DeviceFacts facts = DeviceFacts::of(device);
    BenchResult result = startResult("local", facts);
    Stepper stepper(options, int(std::size(kWidths)) + 1);
    stepper.stage("local: building kernels");
    BenchContext ctx(facts);
    const ClProgram program = ctx.build(kernelSource());
    ClMem out = ctx.buffer(CL_MEM_WRITE_ONLY, 1024 * sizeof(float));
    stepper.step();
    if (facts.localMemType != CL_LOCAL)
        result.notes.push_back("the device has no dedicated local memory (CL_DEVICE_LOCAL_MEM_TYPE is "
                               "CL_GLOBAL): the figure is the bandwidth of the memory that stands in for it");

    const int runs = runsFor(options, facts.isCpu() ? 4 : 10, 2);
    const double target = options.effort == BenchEffort::Tiny ? 0 : (facts.isCpu() ? 20e6 : 10e6);
    BenchSeries series{"local_bandwidth_gbps", "GB/s", "vector width", {}, {}, {}};
    double best = 0;
    std::string bestWhat;
    for (const int width : kWidths) {
        const std::string type = vectorTypeName("float", width);
        stepper.stage("local: " + type);
        const std::string name = "local_" + std::to_string(width);
        ClKernel kernel = ctx.kernel(program.get(), name.c_str());
        // 256 work-items (64 on CPU devices, whose caches hold a group's array), never more than the kernel
        // or the local memory allows, and a power of two for the index mask.
        std::size_t local = std::min<std::size_t>(
            {std::size_t(facts.isCpu() ? 64 : 256), facts.maxWorkGroup, ctx.kernelWorkGroup(kernel.get())});
        while (local > 1 && local * width * sizeof(float) > facts.localMem / 2)
            local /= 2;
        local = floorPowerOfTwo(local);
        if (local < 16) {
            result.notes.push_back(type + ": fewer than 16 work-items fit in a group; skipped");
            series.labels.push_back(type);
            series.values.push_back(0);
            stepper.step();
            continue;
        }
        setArg(kernel.get(), 0, out.get());
        check(clSetKernelArg(kernel.get(), 1, local * width * sizeof(float), nullptr), "clSetKernelArg");
        std::size_t global = local * facts.computeUnits * (facts.isCpu() ? 4 : 16);
        runKernel(ctx.queue(), kernel.get(), global, local);
        double ns = timeKernelNs(ctx.queue(), kernel.get(), global, local);
        if (target > 0 && ns > 0 && ns < target / 2) {
            global = std::max<std::size_t>(
                roundDown(std::uint64_t(double(global) * std::min(target / ns, 65536.0)), local), local);
            ns = timeKernelNs(ctx.queue(), kernel.get(), global, local);
        }
        for (int r = 1; r < runs; ++r) {
            const double again = timeKernelNs(ctx.queue(), kernel.get(), global, local);
            if (again > 0 && (ns <= 0 || again < ns))
                ns = again;
            stepper.checkCancelled();
        }
        const double gbps = ratePerNs(double(global) * kBytesPerItem, ns);
        series.labels.push_back(type);
        series.values.push_back(gbps);
        if (gbps > best) {
            best = gbps;
            bestWhat =
                type + ", " + std::to_string(global) + " work-items in groups of " + std::to_string(local);
        }
        stepper.step();
    }
    series.definition = "bytes read from __local memory per second, per vector width (" +
                        std::to_string(kBytesPerItem) + " bytes per work-item)";
    result.series.push_back(std::move(series));
    addFigure(
        result, "local_bandwidth_gbps", best, "GB/s", 1, runs,
        "reads of __local memory (a group's array, read 16 vectors a step), 1e9 bytes/s by END - START of "
        "the fastest run; best: " +
            bestWhat);
    return result;
}

} // namespace clscope
