// runKernel: binds the arguments, validates the range, takes buffers from the pool, initialises them with
// fill/write/copy commands, launches on a profiling queue (cancellable between launches), reads back, and
// turns every command's event into a CommandRecord of the immutable RunResult.
#include "clscope/runner.h"
#include "clscope/stdoutcapture.h"

#include "clscope/clhandle.h"
#include "clscope/queue.h"
#include "clscope/structs.h"

#include "clscope/error.h"
#include "clscope/imagedata.h"
#include "clscope/version.h"

#include "imagerun.h"

#include <algorithm>
#include <chrono>

namespace clscope {
namespace {

using Clock = std::chrono::steady_clock;

// Pending host memory (writes, reads) must outlive the commands that use it, also when a run fails
// half-way: declared after that memory, this waits for the queue before it is freed.
struct FinishGuard
{
    cl_command_queue queue = nullptr;
    ~FinishGuard()
    {
        if (queue)
            clFinish(queue);
    }
};

bool isOpenCL2(cl_device_id device)
{
    const auto version = deviceOpenCLVersion(device);
    return version && version->major >= 2;
}

ClQueue makeProfilingQueue(cl_context context, cl_device_id device)
{
    return ClQueue(createCommandQueue(context, device, true));
}

// "launch 2 of vector_add", "write a": what a failed command is called in an error.
std::string routineOf(const CommandRecord &r, int launch)
{
    return r.type == CommandRecord::Type::Kernel ? "launch " + std::to_string(launch) + " of " + r.name
                                                 : r.name;
}

// Commands with their events until the queue has finished, then records with timestamps.
class Recorder
{
public:
    void add(CommandRecord record, cl_event event)
    {
        m_pending.push_back({std::move(record), ClEvent(event)});
    }

    std::size_t size() const { return m_pending.size(); }

    // Waits for command i and throws ClError naming it when it failed on the device.
    void wait(std::size_t i, const std::string &routine) const
    {
        cl_event e = m_pending[i].event.get();
        const cl_int err = clWaitForEvents(1, &e);
        checkStatus(i, routine);
        check(err, "clWaitForEvents", routine);
    }

    void checkStatus(std::size_t i, const std::string &routine) const
    {
        cl_int status = CL_COMPLETE;
        if (clGetEventInfo(m_pending[i].event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                           &status, nullptr) == CL_SUCCESS &&
            status < 0)
            throw ClError(routine, status);
    }

    // After clFinish: every command's status and profiling timestamps. CL_PROFILING_COMMAND_COMPLETE is
    // OpenCL 2.0: asked of a 1.x device it is an invalid value, which Oclgrind's API check reports.
    std::vector<CommandRecord> collect(bool askComplete) const
    {
        std::vector<CommandRecord> out;
        int launches = 0;
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            launches += m_pending[i].record.type == CommandRecord::Type::Kernel;
            checkStatus(i, routineOf(m_pending[i].record, launches));
            CommandRecord r = m_pending[i].record;
            cl_event e = m_pending[i].event.get();
            // A driver that keeps a timestamp back leaves it at 0 rather than failing the run.
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof r.queued, &r.queued, nullptr);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_SUBMIT, sizeof r.submit, &r.submit, nullptr);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof r.start, &r.start, nullptr);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof r.end, &r.end, nullptr);
            cl_ulong complete = 0;
            if (askComplete &&
                clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete,
                                        nullptr) == CL_SUCCESS &&
                complete != 0)
                r.complete = complete;
            out.push_back(std::move(r));
        }
        return out;
    }

private:
    struct Pending
    {
        CommandRecord record;
        ClEvent event;
    };
    std::vector<Pending> m_pending;
};

// A buffer argument's memory: a block of the pool, or a buffer of its own of exactly the argument's size.
struct RunBuffer
{
    PooledBuffer pooled;
    ClMem own;
    cl_mem mem() const { return own ? own.get() : pooled.mem(); }
};

// The queue's lane name in timelines: one queue per run.
constexpr const char *kQueueName = "queue 0";

CommandRecord record(CommandRecord::Type type, std::string name, std::uint64_t bytes,
                     const std::string &device)
{
    CommandRecord r;
    r.type = type;
    r.name = std::move(name);
    r.bytes = bytes;
    r.queue = kQueueName;
    r.device = device;
    r.hostSubmitNs = hostNowNs();
    return r;
}

// By name, "#N" or PoCL's other spelling (findArgument).
const BoundArg *findBound(const std::vector<BoundArg> &args, const std::string &name)
{
    std::vector<std::string> names;
    for (const BoundArg &a : args)
        names.push_back(a.name);
    const std::optional<std::size_t> index = findArgument(names, name);
    return index ? &args[*index] : nullptr;
}

// The buffers to read back, in argument order; an unknown name or a non-buffer is an input error.
std::vector<bool> readBackSet(const RunRequest &request, const std::vector<BoundArg> &args)
{
    std::vector<bool> wanted(args.size(), false);
    for (const std::string &name : request.readBack) {
        const BoundArg *a = findBound(args, name);
        if (!a)
            throw RunInputError("cannot read back '" + name + "': kernel " + request.kernel +
                                    " has no argument of that name",
                                name);
        if (a->kind != ArgKind::Buffer && a->kind != ArgKind::Image)
            throw RunInputError(name + ": only buffers and images can be read back (" + name + " is a " +
                                    std::string(argKindName(a->kind)) + " argument)",
                                name);
        wanted[std::size_t(a - args.data())] = true;
    }
    for (std::size_t i = 0; i < args.size(); ++i)
        wanted[i] = wanted[i] || (request.readBackAll &&
                                  (args[i].kind == ArgKind::Buffer || args[i].kind == ArgKind::Image));
    return wanted;
}

// The device's types for the arguments that need them: structs and typedefs of the program, named by the
// kernel's signature or by a value (`struct:TYPE:...`, `buffer:TYPE:...`). Empty when every argument is a
// number. A probe that fails leaves the table without layouts: bytesN values still run unchecked, and a
// struct value is refused with the reason.
TypeTable argumentTypes(const RunRequest &request, const KernelInfo &kernel, cl_device_id device)
{
    std::vector<std::string> names = unknownArgumentTypes(kernel);
    bool structValues = false;
    for (const ArgValue &v : request.args) {
        if (const auto *s = std::get_if<StructArg>(&v.value)) {
            structValues = true;
            if (!s->typeName.empty())
                names.push_back(s->typeName);
        } else if (const auto *b = std::get_if<BufferArg>(&v.value); b && !b->typeName.empty()) {
            names.push_back(b->typeName);
        }
    }
    if (names.empty() && !structValues)
        return {};
    if (request.build.source().empty()) {
        TypeTable none;
        none.knownStructs = "none (the program was not built from source)";
        return none;
    }
    try {
        return probeTypes(request.build, device, names);
    } catch (const ClError &e) {
        TypeTable none;
        none.knownStructs = buildSourceTypes(request.build, device).structNames();
        none.unavailable = e.detail().empty() ? std::string(e.what()) : e.detail();
        return none;
    }
}

std::string kernelList(const BuildResult &build)
{
    std::string out;
    for (const auto &k : build.kernels())
        out += (out.empty() ? "" : ", ") + k.name;
    return out.empty() ? std::string("none") : out;
}

} // namespace

RunResult::RunResult()
    : m_d(std::make_shared<const RunResultData>())
{}

RunResult::RunResult(RunResultData data)
    : m_d(std::make_shared<const RunResultData>(std::move(data)))
{}

const BufferData *RunResult::buffer(std::string_view name) const
{
    const std::optional<std::size_t> index = findArgument(m_d->argNames, name);
    const std::string_view wanted = index ? std::string_view(m_d->argNames[*index]) : name;
    for (const auto &b : m_d->buffers) {
        if (b.name == wanted)
            return &b;
    }
    return nullptr;
}

RunResult runKernel(const RunRequest &request, const RunOptions &options)
{
    const auto started = Clock::now();
    if (!request.build.success() || !request.build.program())
        throw RunInputError("the program did not build");
    const KernelInfo *info = request.build.kernel(request.kernel);
    if (!info)
        throw RunInputError("unknown kernel '" + request.kernel + "' (kernels: " + kernelList(request.build) +
                            ")");
    if (request.repeat < 1)
        throw RunInputError("repeat count " + std::to_string(request.repeat) + " must be at least 1");

    cl_device_id device = request.device ? request.device : request.build.logs().front().id;
    if (std::none_of(request.build.logs().begin(), request.build.logs().end(),
                     [&](const DeviceBuildLog &l) { return l.id == device; }))
        throw RunInputError("the device is not one the program was built for");
    // Everything that can be told without a launch comes first: arguments, initialisers, read-backs. Struct
    // layouts are the device's answer to a probe (kept with the build), asked only when a type needs it.
    const TypeTable types = argumentTypes(request, *info, device);
    const std::vector<BoundArg> args = bindArguments(*info, request.args, &types);
    const std::vector<bool> wanted = readBackSet(request, args);
    std::vector<std::optional<std::vector<unsigned char>>> patterns(args.size());
    std::vector<std::vector<unsigned char>> contents(args.size()); // alive until the writes finish
    std::vector<std::uint64_t> localBytes; // summed without wrapping by checkLocalMemory
    for (const BoundArg &a : args) {
        if (a.kind == ArgKind::Local)
            localBytes.push_back(a.localBytes);
    }

    cl_int err = CL_SUCCESS;
    ClKernel kernel(clCreateKernel(request.build.program(), request.kernel.c_str(), &err));
    check(err, ("clCreateKernel(" + request.kernel + ")").c_str());
    const LaunchLimits limits = queryLaunchLimits(device, kernel.get(), request.build.options());
    const NDRange range = resolveNDRange(request.range, limits);
    checkLocalMemory(localBytes, limits);
    {
        std::vector<std::string> names;
        std::vector<std::uint64_t> bytes;
        for (const auto &a : args) {
            if (a.kind == ArgKind::Buffer || a.kind == ArgKind::Image) {
                names.push_back(a.name);
                bytes.push_back(a.bufferBytes());
            }
        }
        checkBufferSizes(names, bytes, limits);
    }
    // Host memory for the initial contents only once the device has said the buffers fit: a huge iota or
    // random buffer is refused by CL_DEVICE_MAX_MEM_ALLOC_SIZE, not by the host running out of memory.
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].kind == ArgKind::Image) {
            // A PNG's pixels are inflated only for an image the device can hold.
            detail::checkImageLimits(args[i], device);
            contents[i] =
                initialImage(args[i].image, args[i].name, detail::pngLimits(device, limits.maxMemAllocSize));
        }
        if (args[i].kind != ArgKind::Buffer || args[i].init.kind == InitKind::Copy)
            continue;
        if (!options.writeInsteadOfFill)
            patterns[i] = fillPattern(args[i]);
        if (!patterns[i])
            contents[i] = initialContents(args[i]);
    }

    const std::string deviceName = deviceInfoString(device, CL_DEVICE_NAME, "CL_DEVICE_NAME");
    ClQueue queue = makeProfilingQueue(request.build.context(), device);
    std::optional<ClockMapping> clock;
    if (options.calibrateClock)
        clock = calibrate(device, queue.get());
    // Exact buffers leave no slack past the end for an off-by-one access to land in unseen: under a checker
    // (Oclgrind) every buffer is as long as the user's and no longer.
    const bool exact = options.exactBuffers || isOclgrindDevice(device);
    std::shared_ptr<MemoryPool> pool = exact ? nullptr : options.pool;
    if (!pool && !exact) {
        PoolOptions poolOptions;
        poolOptions.seriesCapacity = 0; // nobody watches a pool that lives for one run
        pool = makePool(AllocatorKind::Immediate, request.build.context(), queue.get(), poolOptions);
    } else if (pool && dynamic_cast<const SvmAllocator *>(pool->allocator().get())) {
        throw RunInputError("the memory pool hands out SVM pointers; runs need a pool of cl_mem buffers");
    }
    std::vector<RunBuffer> buffers(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].kind != ArgKind::Buffer)
            continue;
        if (exact) {
            cl_int created = CL_SUCCESS;
            buffers[i].own = ClMem(clCreateBuffer(request.build.context(), CL_MEM_READ_WRITE,
                                                  args[i].bufferBytes(), nullptr, &created));
            check(created, ("clCreateBuffer(" + args[i].name + ")").c_str());
            continue;
        }
        try {
            buffers[i].pooled = pool->allocate(args[i].bufferBytes(), queue.get());
        } catch (const ClError &e) {
            throw ClError(e.routine() + "(" + args[i].name + ")", e.code(), e.detail());
        }
        cl_context context = nullptr;
        clGetMemObjectInfo(buffers[i].mem(), CL_MEM_CONTEXT, sizeof context, &context, nullptr);
        if (context != request.build.context())
            throw RunInputError("the memory pool allocates in another context than the program's");
    }
    std::vector<std::optional<std::uint64_t>> addresses(args.size());
    if (options.probeAddresses) {
        std::vector<cl_mem> mems;
        for (const RunBuffer &b : buffers)
            mems.push_back(b.mem());
        addresses = probeBufferAddresses(request.build.context(), device, queue.get(), mems);
    }
    std::vector<detail::DeviceImage> images(args.size());
    std::vector<ClSampler> samplers(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].kind == ArgKind::Image)
            images[i] = detail::createImage(request.build.context(), device, args[i]);
        else if (args[i].kind == ArgKind::Sampler)
            samplers[i] = detail::createSampler(request.build.context(), device, args[i]);
    }
    std::vector<BufferData> readBack;
    readBack.reserve(args.size()); // the reads fill these bytes: they must not move
    Recorder recorder;
    FinishGuard guard{queue.get()};

    for (std::size_t i = 0; i < args.size(); ++i) {
        const BoundArg &a = args[i];
        if (a.kind == ArgKind::Image) {
            CommandRecord r =
                record(CommandRecord::Type::Write, "write " + a.name, a.bufferBytes(), deviceName);
            recorder.add(std::move(r),
                         detail::writeImage(queue.get(), a, images[i].image.get(), contents[i].data()));
        }
        if (a.kind != ArgKind::Buffer || a.init.kind == InitKind::Copy)
            continue;
        cl_event event = nullptr;
        if (patterns[i]) {
            CommandRecord r =
                record(CommandRecord::Type::Fill, "fill " + a.name, a.bufferBytes(), deviceName);
            check(clEnqueueFillBuffer(queue.get(), buffers[i].mem(), patterns[i]->data(), patterns[i]->size(),
                                      0, a.bufferBytes(), 0, nullptr, &event),
                  ("clEnqueueFillBuffer(" + a.name + ")").c_str());
            recorder.add(std::move(r), event);
        } else {
            CommandRecord r =
                record(CommandRecord::Type::Write, "write " + a.name, a.bufferBytes(), deviceName);
            check(clEnqueueWriteBuffer(queue.get(), buffers[i].mem(), CL_FALSE, 0, a.bufferBytes(),
                                       contents[i].data(), 0, nullptr, &event),
                  ("clEnqueueWriteBuffer(" + a.name + ")").c_str());
            recorder.add(std::move(r), event);
        }
    }
    // Copies once their source is ready: bindArguments ruled out cycles, so every pass makes progress.
    std::vector<bool> ready(args.size(), true);
    for (std::size_t i = 0; i < args.size(); ++i)
        ready[i] = !(args[i].kind == ArgKind::Buffer && args[i].init.kind == InitKind::Copy);
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (ready[i])
                continue;
            const std::size_t source = std::size_t(findBound(args, args[i].init.source) - args.data());
            if (!ready[source])
                continue;
            cl_event event = nullptr;
            CommandRecord r =
                record(CommandRecord::Type::Copy, "copy " + args[source].name + " to " + args[i].name,
                       args[i].bufferBytes(), deviceName);
            check(clEnqueueCopyBuffer(queue.get(), buffers[source].mem(), buffers[i].mem(), 0, 0,
                                      args[i].bufferBytes(), 0, nullptr, &event),
                  ("clEnqueueCopyBuffer(" + args[i].name + ")").c_str());
            recorder.add(std::move(r), event);
            ready[i] = progress = true;
        }
    }

    for (std::size_t i = 0; i < args.size(); ++i) {
        const BoundArg &a = args[i];
        const std::string routine = "clSetKernelArg(" + a.name + ")";
        if (a.kind == ArgKind::Value) {
            check(clSetKernelArg(kernel.get(), cl_uint(a.index), a.value.size(), a.value.data()),
                  routine.c_str());
        } else if (a.kind == ArgKind::Buffer || a.kind == ArgKind::Image) {
            cl_mem mem = a.kind == ArgKind::Image ? images[i].image.get() : buffers[i].mem();
            check(clSetKernelArg(kernel.get(), cl_uint(a.index), sizeof mem, &mem), routine.c_str());
        } else if (a.kind == ArgKind::Sampler) {
            cl_sampler sampler = samplers[i].get();
            check(clSetKernelArg(kernel.get(), cl_uint(a.index), sizeof sampler, &sampler), routine.c_str());
        } else {
            check(clSetKernelArg(kernel.get(), cl_uint(a.index), a.localBytes, nullptr), routine.c_str());
        }
    }

    RunResultData result;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const BoundArg &a = args[i];
        RunArgument r;
        r.name = a.name;
        r.kind = a.kind;
        r.typeName =
            info->args.size() > std::size_t(a.index) ? info->args[std::size_t(a.index)].typeName : "";
        r.value = a.kind == ArgKind::Value ? a.value : std::vector<unsigned char>();
        r.bytes = a.kind == ArgKind::Local                                ? a.localBytes
                  : a.kind == ArgKind::Buffer || a.kind == ArgKind::Image ? a.bufferBytes()
                                                                          : 0;
        if (a.kind == ArgKind::Image)
            r.image = ImageInfo{a.image.dim, a.image.format, *a.image.shape};
        r.sampler = a.sampler;
        if (a.kind == ArgKind::Buffer) {
            r.count = a.count;
            r.element = a.layout ? a.layout->label() : a.type.name();
            r.address = addresses[i];
        }
        if (options.keepContents && a.kind == ArgKind::Buffer) {
            // What the launch sees: after the writes, fills and copies above.
            r.before.resize(a.bufferBytes());
            check(clEnqueueReadBuffer(queue.get(), buffers[i].mem(), CL_TRUE, 0, r.before.size(),
                                      r.before.data(), 0, nullptr, nullptr),
                  ("clEnqueueReadBuffer(" + a.name + ")").c_str());
        }
        result.arguments.push_back(std::move(r));
    }
    result.options = request.build.options();
    result.kernel = request.kernel;
    result.device = deviceName;
    result.clock = clock;
    result.global = range.global;
    result.local = range.local;
    result.offset = range.offset;
    result.repeat = request.repeat;
    const std::string launchRoutine = "clEnqueueNDRangeKernel(" + request.kernel + ")";
    const std::string rangeDetail = "global " + formatSizeList(range.global) +
                                    (range.local.empty() ? std::string(", local chosen by the driver")
                                                         : ", local " + formatSizeList(range.local));
    std::optional<std::size_t> previousLaunch;
    std::optional<StdoutCapture> printed; // restores stdout however the run ends
    if (options.capturePrintf)
        printed.emplace();
    for (int launch = 0; launch < request.repeat; ++launch) {
        if (options.cancel && options.cancel->load()) {
            result.cancelled = true;
            break;
        }
        CommandRecord r = record(CommandRecord::Type::Kernel, request.kernel, 0, deviceName);
        r.dims = int(range.dimensions());
        std::copy(range.global.begin(), range.global.end(), r.global.begin());
        std::copy(range.local.begin(), range.local.end(), r.local.begin());
        cl_event event = nullptr;
        check(clEnqueueNDRangeKernel(queue.get(), kernel.get(), cl_uint(range.dimensions()),
                                     range.offset.data(), range.global.data(),
                                     range.local.empty() ? nullptr : range.local.data(), 0, nullptr, &event),
              launchRoutine.c_str(), rangeDetail);
        recorder.add(std::move(r), event);
        clFlush(queue.get());
        // At most two launches in flight: one running, one queued behind it, so that the device never waits
        // for the host and a cancel takes effect after the launch that runs now.
        if (previousLaunch)
            recorder.wait(*previousLaunch, "launch " + std::to_string(launch) + " of " + request.kernel);
        previousLaunch = recorder.size() - 1;
    }
    if (!result.cancelled) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (!wanted[i])
                continue;
            const BoundArg &a = args[i];
            readBack.push_back(
                {a.name, a.type, a.count, std::vector<unsigned char>(a.bufferBytes()), a.layout});
            CommandRecord r =
                record(CommandRecord::Type::Read, "read " + a.name, a.bufferBytes(), deviceName);
            if (a.kind == ArgKind::Image) {
                readBack.back().image = ImageInfo{a.image.dim, a.image.format, *a.image.shape};
                recorder.add(std::move(r), detail::readImage(queue.get(), a, images[i].image.get(),
                                                             readBack.back().bytes.data()));
                continue;
            }
            cl_event event = nullptr;
            check(clEnqueueReadBuffer(queue.get(), buffers[i].mem(), CL_FALSE, 0, a.bufferBytes(),
                                      readBack.back().bytes.data(), 0, nullptr, &event),
                  ("clEnqueueReadBuffer(" + a.name + ")").c_str());
            recorder.add(std::move(r), event);
        }
    }
    check(clFinish(queue.get()), "clFinish");
    if (options.keepContents && !result.cancelled) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (args[i].kind != ArgKind::Buffer)
                continue;
            std::vector<unsigned char> &after = result.arguments[i].after;
            after.resize(args[i].bufferBytes());
            check(clEnqueueReadBuffer(queue.get(), buffers[i].mem(), CL_TRUE, 0, after.size(), after.data(),
                                      0, nullptr, nullptr),
                  ("clEnqueueReadBuffer(" + args[i].name + ")").c_str());
        }
    }
    if (printed) {
        result.printed = printed->finish();
        result.printedDropped = printed->dropped();
    }
    result.commands = recorder.collect(isOpenCL2(device));
    for (const CommandRecord &r : result.commands) {
        if (r.type == CommandRecord::Type::Kernel)
            result.launches.push_back(r);
    }
    result.buffers = std::move(readBack);
    for (const BoundArg &a : args)
        result.argNames.push_back(a.name);
    result.durationMs = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    return RunResult(std::move(result));
}

} // namespace clscope
