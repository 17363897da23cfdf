// Device traits in the spirit of pyopencl.characterize: SIMD width (the kernel's preferred work-group
// multiple), NVIDIA's warp size and compute capability and AMD's wavefront width where the extensions give
// them, the local memory bank count estimated from strided reads (GPUs with dedicated local memory only),
// whether the driver caches builds (two identical clBuildProgram calls in fresh contexts), and what
// profiling costs (a one-byte copy on a profiling queue against a plain one).
#include "benchcommon.h"

#include <atomic>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace clscope {
namespace {
using namespace benchdetail;

// From cl_ext.h's NVIDIA and AMD attribute queries; spelled out so any header version builds.
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;
constexpr cl_device_info kWarpSizeNv = 0x4003;
constexpr cl_device_info kWavefrontWidthAmd = 0x4043;

const char *const kStridedSource = R"(
__kernel void strided(__global float *restrict out, __local float *lm, uint stride, uint words)
{
    const uint lid = get_local_id(0);
    const uint mask = words - 1;
    for (uint j = lid; j < words; j += get_local_size(0))
        lm[j] = (float)j;
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0;
    const uint base = lid * stride;
    for (uint r = 0; r < 256; r += 8) {
        s += lm[(base + r) & mask];
        s += lm[(base + r + 1) & mask];
        s += lm[(base + r + 2) & mask];
        s += lm[(base + r + 3) & mask];
        s += lm[(base + r + 4) & mask];
        s += lm[(base + r + 5) & mask];
        s += lm[(base + r + 6) & mask];
        s += lm[(base + r + 7) & mask];
    }
    out[get_global_id(0) & 1023] = s;
}
)";

std::optional<cl_uint> optionalUint(cl_device_id device, cl_device_info param)
{
    cl_uint value = 0;
    if (clGetDeviceInfo(device, param, sizeof(value), &value, nullptr) != CL_SUCCESS)
        return std::nullopt;
    return value;
}

// A source no cache has seen: the first build compiles for sure.
std::string uniqueSource()
{
    static std::atomic<unsigned> counter{0};
    char nonce[96];
    std::snprintf(nonce, sizeof(nonce), "// clscope build-cache probe %llx-%u\n",
                  static_cast<unsigned long long>(Clock::now().time_since_epoch().count()), counter++);
    std::string source = nonce;
    source += R"(
float poly(float x, int n) { float y = 1.0f; for (int i = 0; i < n; ++i) y = mad(y, x, (float)i); return y; }
__kernel void probe_a(__global float *a, int n) { a[get_global_id(0)] = poly(a[get_global_id(0)], n); }
__kernel void probe_b(__global float4 *a, int n)
{
    float4 v = a[get_global_id(0)];
    for (int i = 0; i < n; ++i) v = v * v + (float4)(poly(v.x, 3), poly(v.y, 4), poly(v.z, 5), poly(v.w, 6));
    a[get_global_id(0)] = v;
}
)";
    return source;
}

double buildInFreshContextMs(const DeviceFacts &facts, const std::string &source)
{
    BenchContext ctx(facts, false);
    const auto start = Clock::now();
    ctx.build(source);
    return nsSince(start) / 1e6;
}

// Mean ns of a 1-byte copy + clFinish on the queue, with an event asked for, over n copies.
double oneByteCopyNs(cl_command_queue queue, cl_mem from, cl_mem to, int n)
{
    const auto start = Clock::now();
    for (int i = 0; i < n; ++i) {
        cl_event raw = nullptr;
        check(clEnqueueCopyBuffer(queue, from, to, 0, 0, 1, 0, nullptr, &raw), "clEnqueueCopyBuffer");
        ClEvent event(raw);
        check(clFinish(queue), "clFinish");
    }
    return nsSince(start) / n;
}

} // namespace

// Stride (in 4-byte words) from which the time of strided reads stops growing: the bank count. With B
// banks, work-items `stride` words apart meet min(stride, B) to a bank, so the time roughly doubles with
// each doubling of the stride until B and then levels off (small strides can cost about the same when
// something else bounds the kernel, so only the step up then the level matter). Nothing when no step up
// is followed by a level.
std::optional<int> estimateLocalMemBanks(const std::vector<int> &strides, const std::vector<double> &ns)
{
    for (std::size_t i = 1; i + 1 < strides.size() && i + 1 < ns.size(); ++i) {
        if (ns[i - 1] <= 0 || ns[i] <= 0 || ns[i + 1] <= 0)
            return std::nullopt;
        const bool rose = ns[i] > 1.5 * ns[i - 1];
        const bool levelled = ns[i + 1] < 1.2 * ns[i];
        if (rose && levelled)
            return strides[i];
    }
    return std::nullopt;
}

BenchResult runTraitsBench(cl_device_id device, const DeviceBenchOptions &options)
{
    const DeviceFacts facts = DeviceFacts::of(device);
    BenchResult result = startResult("traits", facts);
    Stepper stepper(options, 4);
    stepper.stage("traits: SIMD width");
    BenchContext ctx(facts);

    {
        const ClProgram program = ctx.build(kStridedSource);
        ClKernel kernel = ctx.kernel(program.get(), "strided");
        std::size_t multiple = 0;
        check(clGetKernelWorkGroupInfo(kernel.get(), device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                       sizeof(multiple), &multiple, nullptr),
              "clGetKernelWorkGroupInfo", "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
        result.traits.push_back(
            {"simd_width", std::int64_t(multiple),
             "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a small kernel: the width the "
             "device runs work-items in"});
        const auto warp = facts.hasExtension("cl_nv_device_attribute_query")
                              ? optionalUint(device, kWarpSizeNv)
                              : std::nullopt;
        result.traits.push_back({"warp_size", warp ? BenchTraitValue(std::int64_t(*warp)) : BenchTraitValue{},
                                 "CL_DEVICE_WARP_SIZE_NV (null: not an NVIDIA device)"});
        const auto wave = facts.hasExtension("cl_amd_device_attribute_query")
                              ? optionalUint(device, kWavefrontWidthAmd)
                              : std::nullopt;
        result.traits.push_back({"wavefront_width",
                                 wave ? BenchTraitValue(std::int64_t(*wave)) : BenchTraitValue{},
                                 "CL_DEVICE_WAVEFRONT_WIDTH_AMD (null: not an AMD device)"});
        std::optional<cl_uint> major, minor;
        if (facts.hasExtension("cl_nv_device_attribute_query")) {
            major = optionalUint(device, kComputeCapabilityMajorNv);
            minor = optionalUint(device, kComputeCapabilityMinorNv);
        }
        result.traits.push_back(
            {"nv_compute_capability",
             major && minor ? BenchTraitValue(std::to_string(*major) + "." + std::to_string(*minor))
                            : BenchTraitValue{},
             "CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV.MINOR_NV (null: not an NVIDIA device)"});
        stepper.step();

        // Bank count: the time of reads whose work-items are `stride` words apart.
        stepper.stage("traits: local memory banks");
        const char *bankDefinition = "local memory banks: the stride (in 4-byte words) from which reads of "
                                     "work-items that far apart stop getting slower";
        if (!facts.isGpu() || facts.localMemType != CL_LOCAL) {
            result.traits.push_back(
                {"local_mem_banks",
                 std::string(
                     facts.localMemType != CL_LOCAL
                         ? "unknown: local memory is global memory on this device (no banks to measure)"
                         : "unknown: not a GPU (local memory in caches, no banks to measure)"),
                 bankDefinition});
        } else {
            const std::uint64_t words = std::min<std::uint64_t>(8192, floorPowerOfTwo(facts.localMem / 8));
            const std::size_t local = floorPowerOfTwo(
                std::min<std::size_t>({256, facts.maxWorkGroup, ctx.kernelWorkGroup(kernel.get())}));
            const std::size_t global = local * facts.computeUnits * 8;
            ClMem out = ctx.buffer(CL_MEM_WRITE_ONLY, 1024 * sizeof(float));
            setArg(kernel.get(), 0, out.get());
            check(clSetKernelArg(kernel.get(), 1, words * sizeof(float), nullptr), "clSetKernelArg");
            setArg(kernel.get(), 3, cl_uint(words));
            BenchSeries series{"local_mem_stride_ns", "ns", "stride (words)", {}, {}, {}};
            std::vector<int> strides;
            const int runs = runsFor(options, 5, 2);
            for (int stride = 1; stride <= 128; stride *= 2) {
                setArg(kernel.get(), 2, cl_uint(stride));
                runKernel(ctx.queue(), kernel.get(), global, local);
                double best = 0;
                for (int r = 0; r < runs; ++r) {
                    const double ns = timeKernelNs(ctx.queue(), kernel.get(), global, local);
                    best = r == 0 ? ns : std::min(best, ns);
                }
                strides.push_back(stride);
                series.labels.push_back(std::to_string(stride));
                series.values.push_back(best);
                stepper.checkCancelled();
            }
            const auto banks = estimateLocalMemBanks(strides, series.values);
            series.definition = "kernel time of strided __local reads (work-items `stride` words apart)";
            result.traits.push_back(
                {"local_mem_banks",
                 banks ? BenchTraitValue(std::int64_t(*banks))
                       : BenchTraitValue(std::string("unknown: the strided timings show no clear step")),
                 bankDefinition});
            result.series.push_back(std::move(series));
        }
        stepper.step();
    }

    // Build cache: the same new source built twice, each time in a fresh context.
    stepper.stage("traits: build cache");
    const std::string source = uniqueSource();
    const double firstMs = buildInFreshContextMs(facts, source);
    const double secondMs = buildInFreshContextMs(facts, source);
    addFigure(result, "build_first_ms", firstMs, "ms", 1, 1,
              "clBuildProgram of a small source never built before, in a fresh context");
    addFigure(result, "build_second_ms", secondMs, "ms", 1, 1,
              "clBuildProgram of the same source again, in another fresh context");
    result.traits.push_back({"driver_caches_builds", secondMs < 0.5 * firstMs,
                             "true when the second identical build took less than half the first: the driver "
                             "(ICD) keeps compiled programs across contexts"});
    stepper.step();

    // Profiling overhead: rounds alternate between the queues so that a busy moment hits both alike.
    stepper.stage("traits: profiling overhead");
    {
        ClQueue plain = ctx.makeQueue(false);
        ClMem a = ctx.buffer(CL_MEM_READ_WRITE, 64);
        ClMem b = ctx.buffer(CL_MEM_READ_WRITE, 64);
        const int n = options.effort == BenchEffort::Tiny    ? 20
                      : options.effort == BenchEffort::Quick ? 200
                                                             : 1000;
        const int rounds = runsFor(options, 5, 3);
        oneByteCopyNs(ctx.queue(), a.get(), b.get(), 5);
        oneByteCopyNs(plain.get(), a.get(), b.get(), 5);
        double profiled = 0, unprofiled = 0;
        for (int r = 0; r < rounds; ++r) {
            const double p = oneByteCopyNs(ctx.queue(), a.get(), b.get(), n);
            const double u = oneByteCopyNs(plain.get(), a.get(), b.get(), n);
            profiled = r == 0 ? p : std::min(profiled, p);
            unprofiled = r == 0 ? u : std::min(unprofiled, u);
            stepper.checkCancelled();
        }
        char detail[160];
        std::snprintf(detail, sizeof(detail),
                      " (%.0f ns against %.0f ns; 0 when the difference is below noise)", profiled,
                      unprofiled);
        addFigure(
            result, "profiling_overhead_ns", std::max(0.0, profiled - unprofiled), "ns", std::uint64_t(n),
            rounds,
            "host time of a 1-byte clEnqueueCopyBuffer + clFinish on a profiling queue minus on a plain "
            "queue, means of the fastest rounds" +
                std::string(detail));
    }
    stepper.step();
    return result;
}

} // namespace clscope
