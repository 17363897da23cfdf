// What the device benchmarks share: the facts about a device that size a benchmark, a context with a
// profiling queue, program builds that report their log, kernel timing by profiling events, and the
// progress/cancel stepper. Internal to clscope-core; the owning handles are clhandle.h's.
#pragma once

#include "clscope/clhandle.h"
#include "clscope/devicebench.h"
#include "clscope/error.h"

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clscope::benchdetail {

using Clock = std::chrono::steady_clock;

inline double nsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// What sizes and gates a benchmark.
struct DeviceFacts
{
    cl_device_id id = nullptr;
    cl_platform_id platform = nullptr;
    std::string name;
    std::string vendor;
    std::string platformName;
    std::string version;
    std::string driverVersion;
    std::string extensions;
    cl_device_type type = 0;
    cl_uint computeUnits = 1;
    std::size_t maxWorkGroup = 1;
    cl_ulong maxAlloc = 0;
    cl_ulong globalMem = 0;
    cl_ulong localMem = 0;
    cl_device_local_mem_type localMemType = CL_LOCAL;
    bool atLeast20 = false; // OpenCL 2.0 or later: clCreateCommandQueueWithProperties
    bool atLeast12 = false;

    static DeviceFacts of(cl_device_id device);
    bool isGpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
    bool isCpu() const { return (type & CL_DEVICE_TYPE_CPU) != 0; }
    bool hasExtension(std::string_view name) const;
};

template<typename T> T deviceInfo(cl_device_id device, cl_device_info param, const char *name)
{
    T value{};
    check(clGetDeviceInfo(device, param, sizeof(T), &value, nullptr), "clGetDeviceInfo", name);
    return value;
}

// A context on one device with an in-order queue (profiling on unless asked otherwise).
class BenchContext
{
public:
    explicit BenchContext(const DeviceFacts &facts, bool profiling = true);

    cl_context context() const { return m_context.get(); }
    cl_command_queue queue() const { return m_queue.get(); }
    ClQueue makeQueue(bool profiling) const;

    // Builds source for the device; a failed build throws ClError carrying the log.
    ClProgram build(const std::string &source, const std::string &options = "-cl-mad-enable") const;
    ClKernel kernel(cl_program program, const char *name) const;
    ClMem buffer(cl_mem_flags flags, std::size_t bytes, void *host = nullptr) const;
    // The kernel's CL_KERNEL_WORK_GROUP_SIZE on this device.
    std::size_t kernelWorkGroup(cl_kernel kernel) const;

    const DeviceFacts &facts() const { return m_facts; }

private:
    const DeviceFacts &m_facts;
    ClContext m_context;
    ClQueue m_queue;
};

template<typename T> void setArg(cl_kernel kernel, cl_uint index, const T &value)
{
    check(clSetKernelArg(kernel, index, sizeof(T), &value), "clSetKernelArg");
}

struct EventTimes
{
    cl_ulong queued = 0, submit = 0, start = 0, end = 0;
    double runNs() const { return end > start ? double(end - start) : 0.0; }
};
EventTimes eventTimes(cl_event event);

// Enqueues a 1-D kernel with an event, waits, and gives END - START in ns.
double timeKernelNs(cl_command_queue queue, cl_kernel kernel, std::size_t global, std::size_t local);
// Enqueues without an event and waits (warm-ups: they also make lazy drivers compile).
void runKernel(cl_command_queue queue, cl_kernel kernel, std::size_t global, std::size_t local);

// Progress and cancellation through a kind's steps.
class Stepper
{
public:
    Stepper(const DeviceBenchOptions &options, int totalSteps);
    void setTotal(int totalSteps) { m_total = std::max(totalSteps, 1); }
    // Reports the stage about to run and checks for cancellation.
    void stage(const std::string &what);
    // One step done; checks for cancellation.
    void step();
    void checkCancelled() const;

private:
    const DeviceBenchOptions &m_options;
    int m_total;
    int m_done = 0;
    std::string m_stage;
};

inline int runsFor(const DeviceBenchOptions &options, int full, int quick)
{
    if (options.runs > 0)
        return options.runs;
    switch (options.effort) {
    case BenchEffort::Tiny:
        return 1;
    case BenchEffort::Quick:
        return quick;
    case BenchEffort::Full:
        break;
    }
    return full;
}

inline std::uint64_t roundDown(std::uint64_t value, std::uint64_t multiple)
{
    return multiple == 0 ? value : value / multiple * multiple;
}

inline std::size_t floorPowerOfTwo(std::size_t value)
{
    std::size_t p = 1;
    while (p * 2 <= value)
        p *= 2;
    return p;
}

// Rate in units of 1e9 per second from an amount and nanoseconds (bytes/ns == GB/s).
inline double ratePerNs(double amount, double ns)
{
    return ns > 0 ? amount / ns : 0.0;
}

// Vector widths the bandwidth, compute and local benchmarks sweep.
inline constexpr int kWidths[] = {1, 2, 4, 8, 16};
std::string vectorTypeName(std::string_view scalar, int width); // "float", "float4"
// "v.s0 + v.s1 + ..." over the components of a vector variable; the variable itself for width 1.
std::string horizontalSum(std::string_view variable, int width);

// Replaces every "$NAME" of the table in text (longest names first is the caller's business).
std::string substitute(std::string text, const std::vector<std::pair<std::string, std::string>> &table);

// Starts a result for kind on the device: report.kind, report.device.
BenchResult startResult(const char *kind, const DeviceFacts &facts);
void addFigure(BenchResult &result, std::string key, double value, std::string unit, std::uint64_t iterations,
               int rounds, std::string definition);

} // namespace clscope::benchdetail
