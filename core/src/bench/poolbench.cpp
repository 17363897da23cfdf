// The memory pool benchmark: what a pool hit costs against what it saves (a miss, a bare
// clCreateBuffer/clReleaseMemObject, and an allocation made real on the device).
#include "clscope/bench.h"

#include "clscope/clhandle.h"
#include "clscope/error.h"
#include "clscope/pool.h"
#include "clscope/queue.h"
#include "clscope/version.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace clscope {

const BenchFigure *BenchReport::find(const std::string &key) const
{
    const auto it =
        std::find_if(figures.begin(), figures.end(), [&](const BenchFigure &f) { return f.key == key; });
    return it == figures.end() ? nullptr : &*it;
}

namespace {
using Clock = std::chrono::steady_clock;

// How often a loop asks whether to stop: rare enough to cost nothing per repetition.
constexpr std::uint64_t kCancelStride = 1u << 16;

void checkCancelled(const PoolBenchOptions &options)
{
    if (options.cancelled && options.cancelled())
        throw BenchCancelled();
}

std::int64_t wallNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// Runs body() `count` times per round and returns the fastest round's mean in nanoseconds on the clock
// `now`, asking to stop every kCancelStride repetitions.
template<typename Body>
double meanNs(std::uint64_t count, const PoolBenchOptions &options, Body &&body,
              std::int64_t (*now)() = wallNs)
{
    count = std::max<std::uint64_t>(count, 1);
    double best = 0;
    for (int round = 0; round < std::max(options.rounds, 1); ++round) {
        const std::int64_t start = now();
        for (std::uint64_t done = 0; done < count;) {
            const std::uint64_t batch = std::min(count - done, kCancelStride);
            for (std::uint64_t i = 0; i < batch; ++i)
                body();
            done += batch;
            checkCancelled(options);
        }
        const double mean = static_cast<double>(now() - start) / static_cast<double>(count);
        best = round == 0 ? mean : std::min(best, mean);
    }
    return best;
}

cl_mem createBuffer(cl_context context, std::size_t size)
{
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err);
    check(err, "clCreateBuffer");
    return mem;
}

// Makes the memory of `mem` real on the queue's device, the way ImmediateAllocator does.
void touch(cl_command_queue queue, cl_mem mem, bool canMigrate)
{
    if (canMigrate) {
        check(clEnqueueMigrateMemObjects(queue, 1, &mem, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
                                         nullptr),
              "clEnqueueMigrateMemObjects");
    } else {
        static const unsigned char kByte = 0;
        check(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, 1, &kByte, 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
    }
    check(clFinish(queue), "clFinish");
}
} // namespace

std::int64_t threadCpuNs()
{
#if defined(__linux__) || defined(__APPLE__)
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
#endif
    return wallNs();
}

BenchReport runPoolBench(cl_device_id device, const PoolBenchOptions &options)
{
    BenchReport report;
    report.kind = "pool";
    report.device = deviceInfoString(device, CL_DEVICE_NAME, "CL_DEVICE_NAME");
    const auto version = deviceOpenCLVersion(device);
    const bool canMigrate = version && *version >= ClVersion{1, 2, 0};

    cl_int err = CL_SUCCESS;
    ClContext context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
    check(err, "clCreateContext");
    ClQueue queue(createCommandQueue(context.get(), device, false));
    const int rounds = std::max(options.rounds, 1);
    const std::size_t small = options.smallSize;
    const std::string smallText = std::to_string(small) + " bytes";

    {
        // Default options on purpose: the series is meant to be left on, so its cost belongs in the figure.
        MemoryPool pool(std::make_shared<DeferredAllocator>(context.get()));
        pool.freeBlock(pool.allocateBlock(small).id); // warm the bin: one held block
        for (int i = 0; i < 1000; ++i)                // warm caches and the branch predictor
            pool.freeBlock(pool.allocateBlock(small).id);
        auto pair = [&] { pool.freeBlock(pool.allocateBlock(small).id); };
        const std::uint64_t pairs = std::max<std::uint64_t>(options.hitPairs, 1);
        const double cpu = meanNs(options.hitPairs, options, pair, threadCpuNs);
        const double wall = meanNs(options.hitPairs, options, pair);
        report.figures.push_back(
            {"pool_hit_pair_ns", cpu, "ns", pairs, rounds,
             "MemoryPool allocateBlock + freeBlock of " + smallText +
                 " from a warm bin (4 leading bits, time series on), thread CPU time: "
                 "the pair never blocks, so this is its cost whatever else the machine runs"});
        report.figures.push_back({"pool_hit_pair_wall_ns", wall, "ns", pairs, rounds,
                                  "the same pair timed by the wall clock (steady_clock), which also counts "
                                  "the time other processes had the core"});
    }
    checkCancelled(options);

    {
        MemoryPool pool(std::make_shared<DeferredAllocator>(context.get()));
        pool.stopHolding(); // every free goes back to the allocator, so every allocate is a miss
        const double ns =
            meanNs(options.missPairs, options, [&] { pool.freeBlock(pool.allocateBlock(small).id); });
        report.figures.push_back(
            {"pool_miss_pair_ns", ns, "ns", std::max<std::uint64_t>(options.missPairs, 1), rounds,
             "MemoryPool allocateBlock + freeBlock of " + smallText +
                 " on a pool that stopped holding: each pair calls the deferred allocator "
                 "(clCreateBuffer) and releases (clReleaseMemObject)"});
    }
    checkCancelled(options);

    {
        const double ns = meanNs(options.rawPairs, options,
                                 [&] { clReleaseMemObject(createBuffer(context.get(), small)); });
        report.figures.push_back({"raw_create_release_ns", ns, "ns",
                                  std::max<std::uint64_t>(options.rawPairs, 1), rounds,
                                  "clCreateBuffer + clReleaseMemObject of " + smallText + ", no pool"});
    }
    checkCancelled(options);

    {
        const std::size_t real = options.realSize;
        const double ns = meanNs(options.realAllocs, options, [&] {
            cl_mem mem = createBuffer(context.get(), real);
            try {
                touch(queue.get(), mem, canMigrate);
            } catch (...) {
                clReleaseMemObject(mem);
                throw;
            }
            clReleaseMemObject(mem);
        });
        report.figures.push_back(
            {"raw_real_alloc_ns", ns, "ns", std::max<std::uint64_t>(options.realAllocs, 1), rounds,
             "clCreateBuffer + " +
                 std::string(canMigrate ? "clEnqueueMigrateMemObjects(CONTENT_UNDEFINED)"
                                        : "a one-byte clEnqueueWriteBuffer (OpenCL < 1.2)") +
                 " + clFinish + clReleaseMemObject of " + std::to_string(real) + " bytes, no pool"});
    }
    return report;
}

} // namespace clscope
