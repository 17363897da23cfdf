// Kernel runs: the NDRange and its validation against device and kernel limits, the launch on a
// profiling queue with buffers from a memory pool, one CommandRecord (profile.h) per enqueued command, and
// the immutable RunResult that the CLI prints and the GUI shows. runKernel blocks; call it from any thread
// (it keeps no global state, and every run makes its own cl_kernel and queue).
#pragma once

#include "clscope/build.h"
#include "clscope/kernelargs.h"
#include "clscope/pool.h"
#include "clscope/profile.h"

#include <CL/cl.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// ---- NDRange ----------------------------------------------------------------------------------------

struct NDRange
{
    std::vector<std::size_t> global; // 1 to 3 dimensions
    std::vector<std::size_t> local;  // empty: the driver chooses
    std::vector<std::size_t> offset; // empty: zeros

    std::size_t dimensions() const { return global.size(); }
    bool operator==(const NDRange &) const = default;
};

// "1024", "64,64", "8,8,1". Throws RunInputError naming `what` ("global size") on anything else.
std::vector<std::size_t> parseSizeList(std::string_view text, std::string_view what);
// "64,64": the form parseSizeList reads.
std::string formatSizeList(const std::vector<std::size_t> &sizes);

// What a launch must respect. A plain struct so that validation is testable without a device.
struct LaunchLimits
{
    std::string kernel;                                // for messages
    std::uint32_t maxWorkItemDimensions = 3;           // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS
    std::vector<std::size_t> maxWorkItemSizes;         // CL_DEVICE_MAX_WORK_ITEM_SIZES
    std::size_t maxWorkGroupSize = 0;                  // CL_DEVICE_MAX_WORK_GROUP_SIZE
    std::size_t kernelWorkGroupSize = 0;               // CL_KERNEL_WORK_GROUP_SIZE (0: not known)
    std::array<std::size_t, 3> compileWorkGroupSize{}; // CL_KERNEL_COMPILE_WORK_GROUP_SIZE (zeros: none)
    std::uint64_t localMemSize = 0;                    // CL_DEVICE_LOCAL_MEM_SIZE (0: not known)
    std::uint64_t kernelLocalMemSize = 0;              // CL_KERNEL_LOCAL_MEM_SIZE without __local arguments
    std::uint64_t maxMemAllocSize = 0;                 // CL_DEVICE_MAX_MEM_ALLOC_SIZE (0: not known)
    std::uint64_t globalMemSize = 0;                   // CL_DEVICE_GLOBAL_MEM_SIZE (0: not known)
    std::uint32_t addressBits = 0;                     // CL_DEVICE_ADDRESS_BITS (0: not known, taken as 64)
    // Global sizes need not be multiples of the local size: the device supports non-uniform work-groups
    // (OpenCL 2.x, or 3.0 with CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) and the program was built with
    // -cl-std=CL2.0 or later without -cl-uniform-work-group-size. Conservative: false unless both hold.
    bool nonUniformWorkGroups = false;
};

// Reads the limits of a device and of a kernel built for it; buildOptions decide nonUniformWorkGroups.
LaunchLimits queryLaunchLimits(cl_device_id device, cl_kernel kernel, std::string_view buildOptions);
// True when the options ask for OpenCL C 2.0 or later (-cl-std=CL2.0, CL3.0) without
// -cl-uniform-work-group-size.
bool optionsAllowNonUniform(std::string_view buildOptions);

// The range that will be launched: checked against every limit, with the local size taken from the
// kernel's required work-group size when none is given. Throws RunInputError naming the limit: "local
// size 8192 exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (4096)". The whole range (offset plus global size in
// each dimension, and the work-items of all work-groups together) must be countable in the device's
// signed size type (CL_DEVICE_ADDRESS_BITS - 1 bits): drivers count work-items and groups that way, and
// PoCL aborts or never returns on a range past it.
NDRange resolveNDRange(const NDRange &range, const LaunchLimits &limits);
// Throws RunInputError when __local arguments and the kernel's own local memory pass
// CL_DEVICE_LOCAL_MEM_SIZE (also when the sum does not fit in 64 bits).
void checkLocalMemory(std::uint64_t localArgBytes, const LaunchLimits &limits);
// The same for each __local argument's size, summed without wrapping.
void checkLocalMemory(const std::vector<std::uint64_t> &localArgBytes, const LaunchLimits &limits);
// Throws RunInputError naming the buffer when one is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE, or when
// all of them together exceed CL_DEVICE_GLOBAL_MEM_SIZE: errors a driver would report as an unhelpful
// CL_INVALID_BUFFER_SIZE or as an out-of-memory in the middle of the run. names[i] goes with bytes[i].
void checkBufferSizes(const std::vector<std::string> &names, const std::vector<std::uint64_t> &bytes,
                      const LaunchLimits &limits);

// ---- Results ----------------------------------------------------------------------------------------

// One argument of a run as it was set: what a run saved as a capture (capture.h's writeRunCapture) records.
struct RunArgument
{
    std::string name;
    ArgKind kind = ArgKind::Value;
    std::string typeName;                     // as the driver spells it: "float*", "uint", "image2d_t"
    std::vector<unsigned char> value;         // Value: the bytes clSetKernelArg got
    std::uint64_t bytes = 0;                  // Buffer and Image: the object's size; Local: its size
    std::optional<ImageInfo> image;           // Image
    SamplerArg sampler;                       // Sampler
    std::vector<unsigned char> before, after; // Buffer, with RunOptions::keepContents: before the first
                                              // launch (after fills and copies) and after the last
    std::size_t count = 0;                    // Buffer: its elements
    std::string element;                      // Buffer: their type ("float", "float4", a struct's name)
    // Buffer, with RunOptions::probeAddresses: the pointer the kernel gets, as a number (unknown when the
    // device could not run the probe).
    std::optional<std::uint64_t> address;
};

struct RunResultData
{
    std::string kernel;
    std::string device; // CL_DEVICE_NAME
    std::vector<std::size_t> global;
    std::vector<std::size_t> local;  // empty: chosen by the driver
    std::vector<std::size_t> offset; // always as many as global (zeros when none was given)
    int repeat = 1;                  // launches asked for
    bool cancelled = false;          // stopped between launches: fewer launches, no buffers read back
    // Device timestamps (CL_PROFILING_COMMAND_*) as the driver gave them; `clock` maps them to host time.
    std::vector<CommandRecord> launches; // one per launch done
    std::vector<CommandRecord> commands; // fills, writes, copies, launches, reads, in enqueue order
    std::optional<ClockMapping> clock;   // when RunOptions::calibrateClock asked for it
    std::vector<BufferData> buffers;     // read back after the last launch, in argument order
    std::vector<std::string> argNames;   // every argument's name, in order (buffer() takes "#N" and aliases)
    std::string printed;                 // the kernel's printf output, with RunOptions::capturePrintf
    std::size_t printedDropped = 0;      // bytes of it past StdoutCapture's limit, left out
    double durationMs = 0;               // wall time of the whole run (allocation and read-back included)
    std::vector<RunArgument> arguments;  // every argument as set, in argument order
    std::string options;                 // the program's build options
};

// Immutable and cheap to copy (shared data), so it can travel through queued signals.
class RunResult
{
public:
    RunResult();
    explicit RunResult(RunResultData data);

    const std::string &kernel() const { return m_d->kernel; }
    const std::string &device() const { return m_d->device; }
    const std::vector<std::size_t> &global() const { return m_d->global; }
    const std::vector<std::size_t> &local() const { return m_d->local; }
    const std::vector<std::size_t> &offset() const { return m_d->offset; }
    int repeat() const { return m_d->repeat; }
    bool cancelled() const { return m_d->cancelled; }
    const std::vector<CommandRecord> &launches() const { return m_d->launches; }
    const std::vector<CommandRecord> &commands() const { return m_d->commands; }
    const std::optional<ClockMapping> &clock() const { return m_d->clock; }
    const std::vector<BufferData> &buffers() const { return m_d->buffers; }
    // By the argument's name, "#N" or PoCL's other spelling (findArgument); null when it was not read back.
    const BufferData *buffer(std::string_view name) const;
    double durationMs() const { return m_d->durationMs; }
    const std::string &printed() const { return m_d->printed; }
    const std::vector<RunArgument> &arguments() const { return m_d->arguments; }
    const std::string &options() const { return m_d->options; }
    std::size_t printedDropped() const { return m_d->printedDropped; }

private:
    std::shared_ptr<const RunResultData> m_d;
};

// ---- A run on the host clock ------------------------------------------------------------------------

// Pool samples this long before a run's first command still belong to it: buffers are taken from the pool
// before anything is enqueued, and the pool's clock is coarse (a few milliseconds).
inline constexpr std::uint64_t kPoolLeadNs = 20'000'000;

// What a timeline or a trace shows of one run, on one axis: its commands on the host clock (steady_clock,
// mapped with the run's clock when RunOptions::calibrateClock asked for it, else as the device gave them)
// and the samples of the pool its buffers came from that belong to it.
struct RunProfile
{
    std::vector<CommandRecord> commands;
    std::vector<PoolSeriesPoint> pool; // from kPoolLeadNs before the first command on
};

// pool: the one the run took its buffers from (RunOptions::pool); null, or a run without commands: no
// series.
RunProfile hostProfile(const RunResult &result, const MemoryPool *pool);

// ---- Running ----------------------------------------------------------------------------------------

struct RunRequest
{
    BuildResult build;             // a successful build; its program and context are used
    cl_device_id device = nullptr; // one of the build's devices (null: the first)
    std::string kernel;
    NDRange range;
    int repeat = 1; // launches, one after another
    std::vector<ArgValue> args;
    std::vector<std::string> readBack; // buffers read back after the run (an unknown name is an error)
    bool readBackAll = false;          // or every buffer
};

struct RunOptions
{
    // Buffers come from this pool, so a GUI can show it live; it must allocate cl_mem buffers in the
    // build's context (a DeferredAllocator or an ImmediateAllocator on a queue of that context). Null:
    // a pool of the run's own, with an ImmediateAllocator on the run's queue.
    std::shared_ptr<MemoryPool> pool;
    // Set from any thread to stop the run between launches (checked before each launch). A kernel
    // already enqueued cannot be interrupted: OpenCL has no way to stop a running command, so a
    // cancelled run returns once the launches in flight (at most two) have finished.
    std::shared_ptr<const std::atomic<bool>> cancel;
    // Calibrates the device clock against steady_clock on the run's queue (profile.h's calibrate), so that
    // a timeline can put the commands next to host events and the pool's series.
    bool calibrateClock = false;
    // Initialises every buffer with clEnqueueWriteBuffer, also the zeros and fills that otherwise take a
    // clEnqueueFillBuffer: Oclgrind's uninitialised-value check does not count filled memory as written,
    // and would report every read of it (the checked run of check.h sets this).
    bool writeInsteadOfFill = false;
    // Takes what the process writes to stdout from the first launch to the end of the run: the kernel's
    // printf, which drivers write there (StdoutCapture; one such run at a time in a process).
    bool capturePrintf = false;
    // Keeps every buffer's contents before the first launch and after the last (RunArgument::before and
    // after), read with blocking reads that are not among the run's commands: what a run saved as a
    // capture needs for its replay.
    bool keepContents = false;
    // Allocates every buffer with a clCreateBuffer of exactly its size instead of taking it from the pool,
    // whose bins round sizes up (pyopencl's alloc_size: 4096 bytes take a block of 4351): an access one past
    // the end then leaves the buffer, where a checker sees it, instead of landing in the block's slack. A run
    // on Oclgrind (isOclgrindDevice) allocates so whatever this says, bypassing `pool` too.
    bool exactBuffers = false;
    // Asks the device, with a probe kernel run before the first command, for the pointer value each buffer
    // argument has in a kernel (RunArgument::address): what Oclgrind's reports of invalid accesses name, so
    // that the check can map them back to the arguments (check.h).
    bool probeAddresses = false;
};

// Builds the kernel's arguments, allocates and initialises the buffers, launches `repeat` times on a
// queue with CL_QUEUE_PROFILING_ENABLE, reads back the buffers asked for, and records every command.
// Throws RunInputError for input the run cannot use (before any command is enqueued where it can be
// told without the device: arguments, NDRange, local memory), ClError when the driver fails, naming the
// call and what it worked on ("clSetKernelArg(c) failed: INVALID_ARG_SIZE").
RunResult runKernel(const RunRequest &request, const RunOptions &options = {});

// True when the device's platform is Oclgrind's (its name says so).
bool isOclgrindDevice(cl_device_id device);

// The pointer value each buffer has as a kernel's __global argument, from a probe kernel built in `context`
// and run on `queue` (blocking); null entries of `buffers` and every entry, when the device cannot build or
// run the probe, stay unknown.
std::vector<std::optional<std::uint64_t>> probeBufferAddresses(cl_context context, cl_device_id device,
                                                               cl_command_queue queue,
                                                               const std::vector<cl_mem> &buffers);

} // namespace clscope
