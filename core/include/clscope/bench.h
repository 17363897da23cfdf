// Micro-benchmarks of a device (DESIGN.md, "bench"), shared by `clscope-cli bench` and the GUI's benchmark
// page. Each kind measures a few figures; a figure's key carries its unit (`pool_hit_pair_ns`) so that
// JSON consumers never guess. For now only the memory pool is measured.
#pragma once

#include "clscope/error.h"

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clscope {

// One measured number.
struct BenchFigure
{
    std::string key;              // JSON key, unit last: "pool_hit_pair_ns"
    double value = 0;             // in the unit of the key
    std::string unit;             // "ns"
    std::uint64_t iterations = 0; // repetitions per round; the value is the mean of one round
    int rounds = 1;               // rounds run; the value is the fastest round's mean
    std::string definition;       // what exactly was timed, one sentence
};

// What one kind of benchmark measured on one device.
struct BenchReport
{
    std::string kind;   // "pool"
    std::string device; // CL_DEVICE_NAME
    std::vector<BenchFigure> figures;

    const BenchFigure *find(const std::string &key) const;
};

// CPU time of the calling thread in ns (the steady clock where the platform has no thread clock): the cost of
// work without the time other processes took the core (a benchmark's loop, a capture refresh, a paint).
std::int64_t threadCpuNs();

// Called between stages and every batch of repetitions; returning true stops the benchmark, which then
// throws BenchCancelled. Lets a GUI page stop a run without killing its thread.
using BenchCancelCheck = std::function<bool()>;

class BenchCancelled : public Error
{
public:
    BenchCancelled()
        : Error("benchmark cancelled")
    {}
};

struct PoolBenchOptions
{
    // Defaults give stable means in about a second on a CPU device; tests pass small counts.
    std::uint64_t hitPairs = 2'000'000; // >= 1e6 for the published figure
    std::uint64_t missPairs = 20'000;
    std::uint64_t rawPairs = 20'000;
    std::uint64_t realAllocs = 500;
    // Each figure is the mean of its repetitions in the fastest of `rounds` rounds: on a shared machine a
    // round that the scheduler interrupted says more about the neighbours than about the pool.
    int rounds = 3;
    std::size_t smallSize = 1000;                // bytes of the hit, miss and raw pairs
    std::size_t realSize = std::size_t{1} << 20; // bytes of the real (touched) allocation
    BenchCancelCheck cancelled;
};

// Measures on a context and queue of its own:
//  pool_hit_pair_ns       MemoryPool::allocateBlock + freeBlock of smallSize from a warm bin (defaults:
//                         4 leading bits, time series on), mean over hitPairs (fastest round), in the
//                         thread's CPU time (the pair never blocks);
//  pool_hit_pair_wall_ns  the same by the wall clock, which also counts other processes' turns on the core;
//  pool_miss_pair_ns      the same pair on a pool that has stopped holding, so each allocate asks the
//                         deferred allocator (clCreateBuffer) and each free releases (clReleaseMemObject);
//  raw_create_release_ns  clCreateBuffer + clReleaseMemObject of smallSize, no pool;
//  raw_real_alloc_ns      clCreateBuffer + clEnqueueMigrateMemObjects(CONTENT_UNDEFINED) + clFinish +
//                         clReleaseMemObject of realSize (a one-byte blocking write before OpenCL 1.2).
// Throws ClError when an OpenCL call fails, BenchCancelled when cancelled.
BenchReport runPoolBench(cl_device_id device, const PoolBenchOptions &options = {});

} // namespace clscope
