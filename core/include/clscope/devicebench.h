// Device characterization and micro-benchmarks in the manner of clpeak and pyopencl.characterize:
// global and local memory bandwidth, compute peaks, launch latency and enqueue cost, host <-> device
// transfers and device traits, each with per-vector-width detail; results as one document that is saved
// as JSON, loaded back, and compared with a baseline figure by figure. Shared by `clscope-cli bench` and
// the GUI's Benchmarks page. Figures keep bench.h's rule: the unit is the last part of the key.
#pragma once

#include "clscope/bench.h"
#include "clscope/error.h"

#include <CL/cl.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace clscope {

// One figure measured at several points of an axis, e.g. GB/s per vector width (float .. float16).
struct BenchSeries
{
    std::string key;                 // "global_read_gbps": the unit is the key's last part, as for figures
    std::string unit;                // "GB/s"
    std::string axis;                // "vector width"
    std::vector<std::string> labels; // "float", "float2", ...
    std::vector<double> values;      // one per label, in the unit
    std::string definition;

    bool operator==(const BenchSeries &) const = default;
};

// A property found rather than a performance figure: a count, a yes/no, or "unknown" (a string saying
// why) where the device gives no way to measure it. monostate: not applicable (JSON null).
using BenchTraitValue = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

struct BenchTrait
{
    std::string key; // "local_mem_banks"
    BenchTraitValue value;
    std::string definition;

    bool operator==(const BenchTrait &) const = default;
};

// What one kind measured: the headline figures (report.figures) and their detail.
struct BenchResult
{
    BenchReport report;
    std::vector<BenchSeries> series;
    std::vector<BenchTrait> traits;
    std::vector<std::string> notes; // what was skipped and why ("half: cl_khr_fp16 not supported")
    double seconds = 0;             // wall time the kind took, compiles included
};

// Every result of one session on one device, with what identifies the device; what --save writes.
struct BenchDocument
{
    std::string device;        // CL_DEVICE_NAME
    std::string platform;      // CL_PLATFORM_NAME
    std::string deviceVersion; // CL_DEVICE_VERSION
    std::string driverVersion; // CL_DRIVER_VERSION
    std::string created;       // UTC, ISO 8601
    std::vector<BenchResult> results;

    const BenchFigure *findFigure(std::string_view key) const;
    const BenchSeries *findSeries(std::string_view key) const;
    const BenchTrait *findTrait(std::string_view key) const;
    const BenchResult *findKind(std::string_view kind) const;
};

// ---- Running --------------------------------------------------------------------------------------

// Full: accurate figures (a few seconds a kind on a CPU device, large buffers on a GPU). Quick: about a
// tenth of that, for a first look. Tiny: kilobytes and one run, for tests: the figures mean nothing.
enum class BenchEffort { Tiny, Quick, Full };

// Called from the benchmark's thread with the kind's progress in [0, 1] and what it does now.
using BenchProgress = std::function<void(double fraction, const std::string &stage)>;

struct DeviceBenchOptions
{
    BenchEffort effort = BenchEffort::Full;
    std::uint64_t bufferBytes = 0; // bandwidth and transfer buffers; 0: from the device and the effort
    int runs = 0;                  // timed runs per configuration (the best is kept); 0: from the effort
    BenchCancelCheck cancelled;    // asked between runs; true stops with BenchCancelled
    BenchProgress progress;
};

// Each kind runs on a context and queue of its own and throws ClError when an OpenCL call fails,
// BenchCancelled when cancelled. Rates are in units of 1e9 (GB/s = 1e9 bytes/s, as clpeak); each is the best
// of its runs.
//  bandwidth: read, write and copy kernels over float .. float16, three access patterns each (clpeak's
//             local-offset and global-offset patterns, and a contiguous run per work-item);
//             global_read_gbps, global_write_gbps, global_copy_gbps (bytes read + written) and the best of
//             the three as global_bandwidth_gbps.
//  compute:   chains of mad over vector widths: compute_sp_gflops, compute_dp_gflops, compute_int_giops
//             and compute_hp_gflops, each where the device supports the type.
//  launch:    launch_latency_us (QUEUED -> END of an empty kernel), launch_start_latency_us (QUEUED ->
//             START: what clpeak's kernel-latency test prints), launch_roundtrip_us (enqueue + clFinish),
//             launch_enqueue_ns (typed arguments set and an NDRange checked and enqueued, as CLScope
//             launches) and raw_launch_enqueue_ns (clSetKernelArg + clEnqueueNDRangeKernel, no event).
//  transfer:  transfer_{write,read,map}_gbps from ordinary host memory and _pinned_ variants from
//             CL_MEM_ALLOC_HOST_PTR memory.
//  local:     local_bandwidth_gbps (reads of __local memory) over vector widths.
//  traits:    SIMD width, warp/wavefront width, NVIDIA compute capability, local memory banks, whether the
//             driver caches builds, profiling overhead.
BenchResult runBandwidthBench(cl_device_id device, const DeviceBenchOptions &options = {});
BenchResult runComputeBench(cl_device_id device, const DeviceBenchOptions &options = {});
BenchResult runLaunchBench(cl_device_id device, const DeviceBenchOptions &options = {});
BenchResult runTransferBench(cl_device_id device, const DeviceBenchOptions &options = {});
BenchResult runLocalMemBench(cl_device_id device, const DeviceBenchOptions &options = {});
BenchResult runTraitsBench(cl_device_id device, const DeviceBenchOptions &options = {});

// The local memory bank count from kernel times of strided __local reads (work-items strides[i] words
// apart, times ns[i], strides doubling from 1): the stride from which the time stops growing after it
// grew by half or more. Nothing when the times show no such step (no banks, or more than measured).
std::optional<int> estimateLocalMemBanks(const std::vector<int> &strides, const std::vector<double> &ns);

struct BenchKindInfo
{
    const char *name;        // "bandwidth"
    const char *description; // "global memory bandwidth"
};

// pool, launch, bandwidth, compute, transfer, local, traits: the order `all` runs them in.
std::span<const BenchKindInfo> benchKinds();

// "all" gives every kind; a kind name gives itself. Throws std::invalid_argument naming the kinds.
std::vector<std::string> expandBenchKind(std::string_view kind);

// Runs one kind by name (pool included, with counts from the effort).
BenchResult runBenchKind(std::string_view kind, cl_device_id device, const DeviceBenchOptions &options = {});

// Runs the kinds in order into one document; progress covers them all.
BenchDocument runBenchKinds(const std::vector<std::string> &kinds, cl_device_id device,
                            const DeviceBenchOptions &options = {});

// The device's names and versions and the time now, without results.
BenchDocument describeBenchDevice(cl_device_id device);

// ---- Results files and baselines ------------------------------------------------------------------

// A results file that cannot be read, parsed or written. A Failure (bench --baseline says when it is bad
// usage).
class BenchFileError : public Error
{
public:
    explicit BenchFileError(const std::string &message)
        : Error(message)
    {}
};

// Which way is better, read from the key's unit: rates (_gbps, _gflops, _giops) up, times (_ns, _us, _ms,
// _s) down; anything else has no direction.
enum class BenchDirection { HigherIsBetter, LowerIsBetter, Neutral };
BenchDirection benchDirection(std::string_view key);

enum class BenchVerdict { Better, Worse, Same, Unknown };
std::string_view verdictName(BenchVerdict verdict); // "better", "worse", "same", "unknown"

struct BenchComparison
{
    std::string key;
    std::string unit;
    double value = 0;
    double baseline = 0;
    double ratio = 0; // value / baseline; 0 when the baseline is 0
    BenchVerdict verdict = BenchVerdict::Unknown;
};

// Every figure of current that the baseline also has, in current's order. Within tolerance (a fraction:
// 0.05 is 5 %) of the baseline a figure is Same; outside it Better or Worse by its direction.
std::vector<BenchComparison> compareBench(const BenchDocument &current, const BenchDocument &baseline,
                                          double tolerance = 0.05);

// The CLI's JSON: device names, `kinds`, every figure flat at the top level (`global_bandwidth_gbps`),
// then `units`, `iterations`, `rounds`, `definitions`, `figure_kinds`, `series` (per-width arrays),
// `traits`, `notes`, and with a comparison `baseline` (ratios and verdicts per key).
std::string benchToJson(const BenchDocument &document,
                        const std::vector<BenchComparison> *comparison = nullptr,
                        const std::string &baselineName = {});
// Reads what benchToJson wrote. Throws BenchFileError on malformed JSON or a document without a device.
BenchDocument benchFromJson(std::string_view json);
void saveBenchFile(const std::string &path, const BenchDocument &document); // throws BenchFileError
BenchDocument loadBenchFile(const std::string &path);                       // throws BenchFileError

} // namespace clscope
