// Global memory bandwidth: read, write and copy kernels over float .. float16, timed by profiling events.
// Method after clpeak (a buffer far larger than any cache, 16 unrolled accesses per work-item, clpeak's
// local-offset and global-offset access patterns, END - START of each kernel) with what makes the figure
// hold on a busy machine and on very different devices: a third pattern (a contiguous run per work-item,
// which CPU devices stream best), read kernels that store only when an impossible sum comes up (so a read
// benchmark moves no bytes but the ones it counts), a second work-group size on GPUs, and the best of
// several runs rather than the mean.
#include "benchcommon.h"

#include <cstdio>
#include <string>
#include <vector>

namespace clscope {
namespace {
using namespace benchdetail;

constexpr int kPerItem = 16; // accesses per work-item, unrolled

struct Pattern
{
    const char *name;
    const char *label;
    const char *start; // first index of the work-item, in vectors
    const char *step;  // distance between its accesses, in vectors
};

constexpr Pattern kPatterns[] = {
    {"lo", "local-offset", "get_group_id(0) * get_local_size(0) * 16 + get_local_id(0)", "get_local_size(0)"},
    {"go", "global-offset", "get_global_id(0)", "get_global_size(0)"},
    {"run", "contiguous run", "get_global_id(0) * 16", "1"},
};

enum class Op { Read, Write, Copy };
constexpr Op kOps[] = {Op::Read, Op::Write, Op::Copy};
const char *opName(Op op)
{
    switch (op) {
    case Op::Read:
        return "read";
    case Op::Write:
        return "write";
    case Op::Copy:
        break;
    }
    return "copy";
}

const char *const kReadTemplate = R"(
__kernel void read_$P_$W(__global const $T *restrict a, __global float *restrict out)
{
    uint i = (uint)($START);
    const uint step = (uint)($STEP);
    $T s = 0;
$BODY
    const float t = $HSUM;
    // Inputs are 1.0f: the sum is never negative, but the compiler cannot know, so every load stays.
    if (t < -1.0f)
        out[get_global_id(0)] = t;
}
)";

const char *const kWriteTemplate = R"(
__kernel void write_$P_$W(__global $T *restrict b, float v)
{
    uint i = (uint)($START);
    const uint step = (uint)($STEP);
    const $T x = ($T)(v);
$BODY
}
)";

const char *const kCopyTemplate = R"(
__kernel void copy_$P_$W(__global const $T *restrict a, __global $T *restrict b)
{
    uint i = (uint)($START);
    const uint step = (uint)($STEP);
$BODY
}
)";

// Fills the buffers before timing (some drivers' clEnqueueFillBuffer crawls: PoCL takes seconds for
// 256 MiB), touching every page so that no timed run pays for faulting one in.
const char *const kFillKernel = R"(
__kernel void fill(__global float4 *p, float v)
{
    p[get_global_id(0)] = (float4)(v);
}
)";

std::string kernelSource(bool cpu)
{
    std::string source = kFillKernel;
    for (const int width : kWidths) {
        for (const Pattern &p : kPatterns) {
            if (cpu && std::string_view(p.name) == "go")
                continue; // not run on CPU devices (below): not built either
            for (const Op op : kOps) {
                std::string body;
                for (int k = 0; k < kPerItem; ++k) {
                    const char *access = op == Op::Read    ? "    s += a[i];"
                                         : op == Op::Write ? "    b[i] = x;"
                                                           : "    b[i] = a[i];";
                    body += access + std::string(k + 1 < kPerItem ? " i += step;\n" : "\n");
                }
                const char *tmpl = op == Op::Read    ? kReadTemplate
                                   : op == Op::Write ? kWriteTemplate
                                                     : kCopyTemplate;
                source += substitute(tmpl, {{"START", p.start},
                                            {"STEP", p.step},
                                            {"BODY", body},
                                            {"HSUM", horizontalSum("s", width)},
                                            {"P", p.name},
                                            {"W", std::to_string(width)},
                                            {"T", vectorTypeName("float", width)}});
            }
        }
    }
    return source;
}

// The buffer: as large as clpeak's on GPUs (2 GiB), so that the ramp at a kernel's start and end is lost in
// its length; on CPU devices 128 MiB, well past the caches their cores share yet small enough that faulting
// its pages in (seconds per GiB on some virtual machines) does not dominate. Capped by the device.
std::uint64_t bufferBytes(const DeviceFacts &facts, const DeviceBenchOptions &options,
                          std::size_t multipleBytes)
{
    std::uint64_t bytes = options.bufferBytes;
    if (bytes == 0) {
        const bool cpu = facts.isCpu();
        switch (options.effort) {
        case BenchEffort::Tiny:
            bytes = std::uint64_t{1} << 20;
            break;
        case BenchEffort::Quick:
            bytes = (cpu ? std::uint64_t{64} : std::uint64_t{256}) << 20;
            break;
        case BenchEffort::Full:
            bytes = cpu ? std::uint64_t{128} << 20 : std::uint64_t{2} << 30;
            break;
        }
    }
    bytes = std::min<std::uint64_t>(bytes, facts.maxAlloc);
    if (facts.globalMem > 0)
        bytes = std::min<std::uint64_t>(bytes, facts.globalMem / 4); // two buffers, with room to spare
    bytes = roundDown(bytes, multipleBytes);
    return std::max<std::uint64_t>(bytes, multipleBytes);
}

struct Config
{
    Op op;
    int width;
    const Pattern *pattern;
    std::size_t local;
    cl_kernel kernel;
    std::size_t global = 0;
    double bestNs = 0;
};
} // namespace

BenchResult runBandwidthBench(cl_device_id device, const DeviceBenchOptions &options)
{
    const DeviceFacts facts = DeviceFacts::of(device);
    BenchResult result = startResult("bandwidth", facts);
    Stepper stepper(options, 1);
    stepper.stage("bandwidth: building kernels");

    BenchContext ctx(facts);
    const ClProgram program = ctx.build(kernelSource(facts.isCpu()));

    // Work-group sizes: the device's largest power of two up to 1024 (what clpeak uses) and 256 on GPUs,
    // where smaller groups sometimes keep more loads in flight; on CPU devices the largest and 64, which
    // keeps a work-group's share of the buffer in the core's caches while the driver's vectorized work-item
    // loop runs. Tiny runs cap them so the buffer can be small.
    const bool cpu = facts.isCpu();
    std::size_t largest =
        floorPowerOfTwo(cpu ? facts.maxWorkGroup : std::min<std::size_t>(facts.maxWorkGroup, 1024));
    if (options.effort == BenchEffort::Tiny)
        largest = std::min<std::size_t>(largest, 64);
    std::vector<std::size_t> locals{largest};
    const std::size_t second = cpu ? 64 : 256;
    if (largest > second)
        locals.push_back(second);

    const std::uint64_t multiple = std::uint64_t(largest) * kPerItem * 16 * sizeof(float);
    const std::uint64_t bytes = bufferBytes(facts, options, multiple);
    const std::uint64_t floats = bytes / sizeof(float);

    ClMem a = ctx.buffer(CL_MEM_READ_WRITE, bytes);
    ClMem b = ctx.buffer(CL_MEM_READ_WRITE, bytes);
    ClMem out = ctx.buffer(CL_MEM_WRITE_ONLY, std::max<std::uint64_t>(floats / kPerItem, 1) * sizeof(float));
    {
        ClKernel fill = ctx.kernel(program.get(), "fill");
        for (cl_mem mem : {a.get(), b.get()}) {
            setArg(fill.get(), 0, mem);
            setArg(fill.get(), 1, 1.0f);
            runKernel(ctx.queue(), fill.get(), floats / 4, 0);
        }
    }

    std::vector<ClKernel> kernels;
    std::vector<Config> configs;
    for (const int width : kWidths) {
        for (const Op op : kOps) {
            for (const Pattern &p : kPatterns) {
                if (cpu && std::string_view(p.name) == "go")
                    continue; // on a CPU device, a stride of the whole grid between accesses only loses
                const std::string name = std::string(opName(op)) + "_" + p.name + "_" + std::to_string(width);
                kernels.push_back(ctx.kernel(program.get(), name.c_str()));
                const cl_kernel k = kernels.back().get();
                if (op == Op::Read) {
                    setArg(k, 0, a.get());
                    setArg(k, 1, out.get());
                } else if (op == Op::Write) {
                    setArg(k, 0, b.get());
                    setArg(k, 1, 2.0f);
                } else {
                    setArg(k, 0, a.get());
                    setArg(k, 1, b.get());
                }
                const std::size_t kernelLimit = ctx.kernelWorkGroup(k);
                for (const std::size_t local : locals) {
                    // A kernel may allow less than the device (registers); its largest power of two divides
                    // the buffer as the device's does.
                    const std::size_t l = std::min(local, floorPowerOfTwo(kernelLimit));
                    const bool duplicate = std::any_of(configs.begin(), configs.end(), [&](const Config &c) {
                        return c.kernel == k && c.local == l;
                    });
                    if (!duplicate)
                        configs.push_back({op, width, &p, l, k, floats / std::uint64_t(width) / kPerItem});
                }
            }
        }
    }

    const int runs = runsFor(options, facts.isCpu() ? 5 : 20, 3);
    stepper.setTotal(int(configs.size()) * 2);

    // Probe every configuration once (after a warm-up that also makes lazy drivers compile), then spend the
    // runs on those within 25 % of the best probe of their operation and width.
    for (Config &c : configs) {
        stepper.stage(std::string("bandwidth: ") + opName(c.op) + " " + vectorTypeName("float", c.width) +
                      " " + c.pattern->label);
        runKernel(ctx.queue(), c.kernel, c.global, c.local);
        c.bestNs = timeKernelNs(ctx.queue(), c.kernel, c.global, c.local);
        stepper.step();
    }
    for (Config &c : configs) {
        double bestProbe = 0;
        for (const Config &o : configs) {
            if (o.op == c.op && o.width == c.width && o.bestNs > 0)
                bestProbe = bestProbe == 0 ? o.bestNs : std::min(bestProbe, o.bestNs);
        }
        stepper.stage(std::string("bandwidth: ") + opName(c.op) + " " + vectorTypeName("float", c.width));
        if (runs > 1 && c.bestNs > 0 && c.bestNs <= bestProbe * 1.25) {
            for (int r = 1; r < runs; ++r) {
                const double ns = timeKernelNs(ctx.queue(), c.kernel, c.global, c.local);
                if (ns > 0)
                    c.bestNs = std::min(c.bestNs, ns);
                stepper.checkCancelled();
            }
        }
        stepper.step();
    }

    const double gib = double(bytes) / double(1 << 30);
    char sizeText[64];
    std::snprintf(sizeText, sizeof(sizeText), "%.3g GiB", gib);
    double overall = 0;
    std::string overallWhat;
    for (const Op op : kOps) {
        const double moved = double(bytes) * (op == Op::Copy ? 2.0 : 1.0);
        BenchSeries series;
        series.key = std::string("global_") + opName(op) + "_gbps";
        series.unit = "GB/s";
        series.axis = "vector width";
        double best = 0;
        std::string bestWhat;
        for (const int width : kWidths) {
            double widthBest = 0;
            for (const Config &c : configs) {
                if (c.op != op || c.width != width)
                    continue;
                const double gbps = ratePerNs(moved, c.bestNs);
                if (gbps > widthBest)
                    widthBest = gbps;
                if (gbps > best) {
                    best = gbps;
                    bestWhat = vectorTypeName("float", width) + ", " + c.pattern->label +
                               " pattern, work-group " + std::to_string(c.local);
                }
            }
            series.labels.push_back(vectorTypeName("float", width));
            series.values.push_back(widthBest);
        }
        series.definition = std::string("best ") + opName(op) + " bandwidth per vector width over " +
                            "the access patterns (" + sizeText + " buffer)";
        result.series.push_back(std::move(series));
        const std::string what = op == Op::Read    ? "reads"
                                 : op == Op::Write ? "writes"
                                                   : "copies (bytes read + bytes written)";
        addFigure(result, std::string("global_") + opName(op) + "_gbps", best, "GB/s", 1, runs,
                  "global memory " + what + " of a " + sizeText +
                      " buffer, 1e9 bytes/s by END - START of the " + "fastest run; best: " + bestWhat);
        if (best > overall) {
            overall = best;
            overallWhat = std::string(opName(op)) + ", " + bestWhat;
        }
    }
    result.report.figures.insert(
        result.report.figures.begin(),
        BenchFigure{"global_bandwidth_gbps", overall, "GB/s", 1, runs,
                    "the best of global_read_gbps, global_write_gbps and global_copy_gbps (" + overallWhat +
                        ")"});
    return result;
}

} // namespace clscope
