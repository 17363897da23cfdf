// Kernel launch costs: the device-side latency of an empty kernel (clpeak's QUEUED -> START, and QUEUED ->
// END), the host's round trip (enqueue + clFinish), and the host cost of one enqueue with its arguments
// set, through CLScope's typed arguments (kernelargs.h: values parsed and bound to the kernel's signature,
// then set from their bytes as the runner does, on an NDRange resolved against the device's limits)
// against bare clSetKernelArg + clEnqueueNDRangeKernel calls.
#include "benchcommon.h"

#include "clscope/build.h"
#include "clscope/kernelargs.h"
#include "clscope/runner.h"

#include <algorithm>
#include <string>
#include <vector>

namespace clscope {
namespace {
using namespace benchdetail;

// Empty on purpose: the launch is what is measured. The arguments are one of each kind a run sets.
const char *const kSource = R"(
__kernel void empty(__global float *buf, uint n, float f, float4 v)
{
}
)";

struct Counts
{
    int launches; // per round, latency and round trip
    int batch;    // enqueues per round, enqueue cost
    int rounds;
};

Counts countsFor(const DeviceBenchOptions &options)
{
    Counts c{1000, 1000, 5};
    if (options.effort == BenchEffort::Quick)
        c = {200, 200, 3};
    else if (options.effort == BenchEffort::Tiny)
        c = {10, 10, 1};
    if (options.runs > 0)
        c.rounds = options.runs;
    return c;
}

// Sets bound arguments the way the runner does: a value from its bytes, a buffer from its cl_mem, a local
// size as a null pointer with a size.
void setBoundArgs(cl_kernel kernel, const std::vector<BoundArg> &args, const std::vector<cl_mem> &mems)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const BoundArg &a = args[i];
        cl_int err = CL_SUCCESS;
        if (a.kind == ArgKind::Value) {
            err = clSetKernelArg(kernel, cl_uint(a.index), a.value.size(), a.value.data());
        } else if (a.kind == ArgKind::Buffer) {
            err = clSetKernelArg(kernel, cl_uint(a.index), sizeof(cl_mem), &mems[i]);
        } else {
            err = clSetKernelArg(kernel, cl_uint(a.index), a.localBytes, nullptr);
        }
        if (err != CL_SUCCESS)
            throw ClError("clSetKernelArg", err, a.name);
    }
}

// An all-zero offset goes to the driver as no offset: some drivers copy and apply an offset they are
// given even when it is zero.
const std::size_t *offsetOrNull(const NDRange &range)
{
    const bool zero =
        std::all_of(range.offset.begin(), range.offset.end(), [](std::size_t o) { return o == 0; });
    return zero ? nullptr : range.offset.data();
}

void enqueueTyped(cl_command_queue queue, cl_kernel kernel, const std::vector<BoundArg> &args,
                  const std::vector<cl_mem> &mems, const NDRange &range, const std::size_t *offset)
{
    setBoundArgs(kernel, args, mems);
    check(clEnqueueNDRangeKernel(queue, kernel, cl_uint(range.dimensions()), offset, range.global.data(),
                                 range.local.empty() ? nullptr : range.local.data(), 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
}

struct RawArgs
{
    cl_mem buf;
    cl_uint n;
    cl_float f;
    cl_float4 v;
};

void enqueueRaw(cl_command_queue queue, cl_kernel kernel, const RawArgs &a)
{
    static const std::size_t kOne = 1;
    // Checked like the typed path, so that the difference is the typing, not the error handling.
    check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &a.buf), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof(cl_uint), &a.n), "clSetKernelArg");
    check(clSetKernelArg(kernel, 2, sizeof(cl_float), &a.f), "clSetKernelArg");
    check(clSetKernelArg(kernel, 3, sizeof(cl_float4), &a.v), "clSetKernelArg");
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &kOne, &kOne, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
}

// Mean host time of one enqueue over a batch; the batch is drained afterwards, outside the timing.
template<typename Enqueue> double batchMeanNs(cl_command_queue queue, int batch, Enqueue &&enqueue)
{
    const auto start = Clock::now();
    for (int i = 0; i < batch; ++i)
        enqueue();
    const double ns = nsSince(start);
    check(clFinish(queue), "clFinish");
    return ns / batch;
}
} // namespace

BenchResult runLaunchBench(cl_device_id device, const DeviceBenchOptions &options)
{
    const DeviceFacts facts = DeviceFacts::of(device);
    BenchResult result = startResult("launch", facts);
    const Counts counts = countsFor(options);
    Stepper stepper(options, counts.rounds * 2 + 1);
    stepper.stage("launch: building an empty kernel");

    BenchContext ctx(facts);
    const ClProgram program = ctx.build(kSource, "-cl-kernel-arg-info");
    ClKernel kernel = ctx.kernel(program.get(), "empty");
    ClMem buffer = ctx.buffer(CL_MEM_READ_WRITE, 1024 * sizeof(float));

    // The typed path, prepared once as a run prepares it: signature, bound values, resolved range.
    const std::vector<KernelInfo> infos = queryKernels(program.get(), {device}, kSource);
    if (infos.empty())
        throw ClError("clCreateKernelsInProgram", CL_INVALID_KERNEL_NAME, "the empty kernel is missing");
    const std::vector<ArgValue> values = {parseArgSpec("buf=buffer:float:1024"), parseArgSpec("n=uint:1024"),
                                          parseArgSpec("f=float:1.5"), parseArgSpec("v=float4:1,2,3,4")};
    const std::vector<BoundArg> bound = bindArguments(infos.front(), values);
    std::vector<cl_mem> mems(bound.size(), nullptr);
    for (std::size_t i = 0; i < bound.size(); ++i) {
        if (bound[i].kind == ArgKind::Buffer)
            mems[i] = buffer.get();
    }
    NDRange request;
    request.global = {1};
    request.local = {1};
    const NDRange range =
        resolveNDRange(request, queryLaunchLimits(device, kernel.get(), "-cl-kernel-arg-info"));
    const std::size_t *offset = offsetOrNull(range);
    const RawArgs raw{buffer.get(), 1024, 1.5f, {{1, 2, 3, 4}}};

    // Warm-up: the first launches compile (lazy drivers) and fill the driver's caches.
    for (int i = 0; i < 3; ++i) {
        enqueueTyped(ctx.queue(), kernel.get(), bound, mems, range, offset);
        enqueueRaw(ctx.queue(), kernel.get(), raw);
    }
    check(clFinish(ctx.queue()), "clFinish");
    stepper.step();

    // Latency: each launch alone on the queue, as clpeak measures it.
    double bestStart = 0, bestEnd = 0, bestTrip = 0;
    for (int round = 0; round < counts.rounds; ++round) {
        stepper.stage("launch: latency");
        double toStart = 0, toEnd = 0, trip = 0;
        for (int i = 0; i < counts.launches; ++i) {
            static const std::size_t kOne = 1;
            cl_event raw = nullptr;
            const auto start = Clock::now();
            check(
                clEnqueueNDRangeKernel(ctx.queue(), kernel.get(), 1, nullptr, &kOne, &kOne, 0, nullptr, &raw),
                "clEnqueueNDRangeKernel");
            ClEvent event(raw);
            check(clFinish(ctx.queue()), "clFinish");
            trip += nsSince(start);
            const EventTimes t = eventTimes(raw);
            toStart += t.start >= t.queued ? double(t.start - t.queued) : 0.0;
            toEnd += t.end >= t.queued ? double(t.end - t.queued) : 0.0;
        }
        const double n = counts.launches;
        bestStart = round == 0 ? toStart / n : std::min(bestStart, toStart / n);
        bestEnd = round == 0 ? toEnd / n : std::min(bestEnd, toEnd / n);
        bestTrip = round == 0 ? trip / n : std::min(bestTrip, trip / n);
        stepper.step();
    }

    // Enqueue cost: the paths take turns going first, so that neither always meets the queue just drained.
    double bestTyped = 0, bestRaw = 0;
    const auto typedBatch = [&] {
        return batchMeanNs(ctx.queue(), counts.batch,
                           [&] { enqueueTyped(ctx.queue(), kernel.get(), bound, mems, range, offset); });
    };
    const auto rawBatch = [&] {
        return batchMeanNs(ctx.queue(), counts.batch, [&] { enqueueRaw(ctx.queue(), kernel.get(), raw); });
    };
    for (int round = 0; round < counts.rounds * 2; ++round) {
        stepper.stage("launch: enqueue cost");
        double typed = 0, bare = 0;
        if (round % 2 == 0) {
            typed = typedBatch();
            bare = rawBatch();
        } else {
            bare = rawBatch();
            typed = typedBatch();
        }
        bestTyped = round == 0 ? typed : std::min(bestTyped, typed);
        bestRaw = round == 0 ? bare : std::min(bestRaw, bare);
        if (round % 2 == 1)
            stepper.step();
    }

    const std::uint64_t launches = std::uint64_t(counts.launches);
    const std::uint64_t batch = std::uint64_t(counts.batch);
    addFigure(result, "launch_latency_us", bestEnd / 1000.0, "us", launches, counts.rounds,
              "CL_PROFILING_COMMAND_QUEUED -> END of an empty kernel (one work-item) enqueued alone and "
              "waited for; mean of a round, fastest round");
    addFigure(result, "launch_start_latency_us", bestStart / 1000.0, "us", launches, counts.rounds,
              "CL_PROFILING_COMMAND_QUEUED -> START of the same empty kernel: what clpeak's kernel-latency "
              "test computes and prints as its launch latency; mean of a round, fastest round");
    addFigure(
        result, "launch_roundtrip_us", bestTrip / 1000.0, "us", launches, counts.rounds,
        "host wall time of clEnqueueNDRangeKernel (with an event) + clFinish of the empty kernel; mean of "
        "a round, fastest round");
    addFigure(result, "launch_enqueue_ns", bestTyped, "ns", batch, counts.rounds * 2,
              "host time of one enqueue through CLScope's typed arguments: 4 arguments bound from specs "
              "(kernelargs.h) set from their bytes as the runner sets them, then clEnqueueNDRangeKernel of "
              "an NDRange resolved against the device's limits, no event; mean of a batch, fastest batch");
    addFigure(result, "raw_launch_enqueue_ns", bestRaw, "ns", batch, counts.rounds * 2,
              "host time of 4 bare clSetKernelArg calls + clEnqueueNDRangeKernel, no event; mean of a "
              "batch, fastest batch");
    if (bestRaw > 0)
        result.traits.push_back(
            {"launch_enqueue_ratio", bestTyped / bestRaw,
             "launch_enqueue_ns / raw_launch_enqueue_ns: what the typed path costs over bare "
             "calls (1.0: nothing)"});
    return result;
}

} // namespace clscope
