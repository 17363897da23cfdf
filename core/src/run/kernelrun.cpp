// runKernel's steps (kernelrun.h): binds the arguments, validates the range, takes buffers from the pool,
// initialises them with fill/write/copy commands, launches on a profiling queue (cancellable between
// launches), reads back, and turns every command's event into a CommandRecord of the immutable RunResult.
#include "kernelrun.h"

#include "clscope/error.h"
#include "clscope/imagedata.h"
#include "clscope/queue.h"
#include "clscope/version.h"

#include <algorithm>

namespace clscope::detail {

namespace {

bool isOpenCL2(cl_device_id device)
{
    const auto version = deviceOpenCLVersion(device);
    return version && version->major >= 2;
}

// The queue's lane name in timelines: one queue per run.
constexpr const char *kQueueName = "queue 0";

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

KernelRun::KernelRun(const RunRequest &request, const RunOptions &options)
    : m_started(std::chrono::steady_clock::now())
    , m_request(request)
    , m_options(options)
{}

RunResult KernelRun::run()
{
    checkRequest();
    bindArguments();
    checkLimits();
    prepareContents();
    makeQueue();
    takeBuffers();
    createImagesAndSamplers();
    initialise();
    copyBuffers();
    setArguments();
    describeArguments();
    launch();
    enqueueReadBack();
    finish();
    return RunResult(std::move(m_result));
}

CommandRecord KernelRun::record(CommandRecord::Type type, std::string name, std::uint64_t bytes) const
{
    CommandRecord r;
    r.type = type;
    r.name = std::move(name);
    r.bytes = bytes;
    r.queue = kQueueName;
    r.device = m_deviceName;
    r.hostSubmitNs = hostNowNs();
    return r;
}

// A built program with the kernel, a repeat count of at least one, and a device of the build.
void KernelRun::checkRequest()
{
    if (!m_request.build.success() || !m_request.build.program())
        throw RunInputError("the program did not build");
    m_info = m_request.build.kernel(m_request.kernel);
    if (!m_info)
        throw RunInputError("unknown kernel '" + m_request.kernel +
                            "' (kernels: " + kernelList(m_request.build) + ")");
    if (m_request.repeat < 1)
        throw RunInputError("repeat count " + std::to_string(m_request.repeat) + " must be at least 1");

    m_device = m_request.device ? m_request.device : m_request.build.logs().front().id;
    if (std::none_of(m_request.build.logs().begin(), m_request.build.logs().end(),
                     [&](const DeviceBuildLog &l) { return l.id == m_device; }))
        throw RunInputError("the device is not one the program was built for");
}

// Arguments, initialisers, read-backs. Struct layouts are the device's answer to a probe (kept with the
// build), asked only when a type needs it.
void KernelRun::bindArguments()
{
    m_types = argumentTypes(m_request, *m_info, m_device);
    m_args = clscope::bindArguments(*m_info, m_request.args, &m_types);
    m_wanted = readBackSet(m_request, m_args);
    m_patterns.resize(m_args.size());
    m_contents.resize(m_args.size());
    for (const BoundArg &a : m_args) {
        if (a.kind == ArgKind::Local)
            m_localBytes.push_back(a.localBytes);
    }
}

// The range, local memory and buffer sizes against the device's and the kernel's limits.
void KernelRun::checkLimits()
{
    cl_int err = CL_SUCCESS;
    m_kernel = ClKernel(clCreateKernel(m_request.build.program(), m_request.kernel.c_str(), &err));
    check(err, ("clCreateKernel(" + m_request.kernel + ")").c_str());
    m_limits = queryLaunchLimits(m_device, m_kernel.get(), m_request.build.options());
    m_range = resolveNDRange(m_request.range, m_limits);
    checkLocalMemory(m_localBytes, m_limits);
    std::vector<std::string> names;
    std::vector<std::uint64_t> bytes;
    for (const auto &a : m_args) {
        if (a.kind == ArgKind::Buffer || a.kind == ArgKind::Image) {
            names.push_back(a.name);
            bytes.push_back(a.bufferBytes());
        }
    }
    checkBufferSizes(names, bytes, m_limits);
}

// Host memory for the initial contents only once the device has said the buffers fit: a huge iota or
// random buffer is refused by CL_DEVICE_MAX_MEM_ALLOC_SIZE, not by the host running out of memory.
void KernelRun::prepareContents()
{
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (m_args[i].kind == ArgKind::Image) {
            // A PNG's pixels are inflated only for an image the device can hold.
            checkImageLimits(m_args[i], m_device);
            m_contents[i] =
                initialImage(m_args[i].image, m_args[i].name, pngLimits(m_device, m_limits.maxMemAllocSize));
        }
        if (m_args[i].kind != ArgKind::Buffer || m_args[i].init.kind == InitKind::Copy)
            continue;
        if (!m_options.writeInsteadOfFill)
            m_patterns[i] = fillPattern(m_args[i]);
        if (!m_patterns[i])
            m_contents[i] = initialContents(m_args[i]);
    }
}

// A profiling queue, and the device clock's mapping to the host's when asked for.
void KernelRun::makeQueue()
{
    m_deviceName = deviceInfoString(m_device, CL_DEVICE_NAME, "CL_DEVICE_NAME");
    m_queue = ClQueue(createCommandQueue(m_request.build.context(), m_device, true));
    if (m_options.calibrateClock)
        m_clock = calibrate(m_device, m_queue.get());
}

// Buffers from the pool (the caller's, else one for this run), or exact buffers of their own.
void KernelRun::takeBuffers()
{
    // Exact buffers leave no slack past the end for an off-by-one access to land in unseen: under a checker
    // (Oclgrind) every buffer is as long as the user's and no longer.
    m_exact = m_options.exactBuffers || isOclgrindDevice(m_device);
    m_pool = m_exact ? nullptr : m_options.pool;
    if (!m_pool && !m_exact) {
        PoolOptions poolOptions;
        poolOptions.seriesCapacity = 0; // nobody watches a pool that lives for one run
        m_pool = makePool(AllocatorKind::Immediate, m_request.build.context(), m_queue.get(), poolOptions);
    } else if (m_pool && dynamic_cast<const SvmAllocator *>(m_pool->allocator().get())) {
        throw RunInputError("the memory pool hands out SVM pointers; runs need a pool of cl_mem buffers");
    }
    m_buffers.resize(m_args.size());
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (m_args[i].kind != ArgKind::Buffer)
            continue;
        if (m_exact) {
            cl_int created = CL_SUCCESS;
            m_buffers[i].own = ClMem(clCreateBuffer(m_request.build.context(), CL_MEM_READ_WRITE,
                                                    m_args[i].bufferBytes(), nullptr, &created));
            check(created, ("clCreateBuffer(" + m_args[i].name + ")").c_str());
            continue;
        }
        try {
            m_buffers[i].pooled = m_pool->allocate(m_args[i].bufferBytes(), m_queue.get());
        } catch (const ClError &e) {
            throw ClError(e.routine() + "(" + m_args[i].name + ")", e.code(), e.detail());
        }
        cl_context context = nullptr;
        clGetMemObjectInfo(m_buffers[i].mem(), CL_MEM_CONTEXT, sizeof context, &context, nullptr);
        if (context != m_request.build.context())
            throw RunInputError("the memory pool allocates in another context than the program's");
    }
    m_addresses.resize(m_args.size());
    if (m_options.probeAddresses) {
        std::vector<cl_mem> mems;
        for (const RunBuffer &b : m_buffers)
            mems.push_back(b.mem());
        m_addresses = probeBufferAddresses(m_request.build.context(), m_device, m_queue.get(), mems);
    }
}

void KernelRun::createImagesAndSamplers()
{
    m_images.resize(m_args.size());
    m_samplers.resize(m_args.size());
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (m_args[i].kind == ArgKind::Image)
            m_images[i] = createImage(m_request.build.context(), m_device, m_args[i]);
        else if (m_args[i].kind == ArgKind::Sampler)
            m_samplers[i] = createSampler(m_request.build.context(), m_device, m_args[i]);
    }
}

// The images' writes and the buffers' fills and writes.
void KernelRun::initialise()
{
    m_readBack.reserve(m_args.size()); // the reads fill these bytes: they must not move
    m_guard.queue = m_queue.get();
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        const BoundArg &a = m_args[i];
        if (a.kind == ArgKind::Image) {
            CommandRecord r = record(CommandRecord::Type::Write, "write " + a.name, a.bufferBytes());
            m_recorder.add(std::move(r),
                           writeImage(m_queue.get(), a, m_images[i].image.get(), m_contents[i].data()));
        }
        if (a.kind != ArgKind::Buffer || a.init.kind == InitKind::Copy)
            continue;
        cl_event event = nullptr;
        if (m_patterns[i]) {
            CommandRecord r = record(CommandRecord::Type::Fill, "fill " + a.name, a.bufferBytes());
            check(clEnqueueFillBuffer(m_queue.get(), m_buffers[i].mem(), m_patterns[i]->data(),
                                      m_patterns[i]->size(), 0, a.bufferBytes(), 0, nullptr, &event),
                  ("clEnqueueFillBuffer(" + a.name + ")").c_str());
            m_recorder.add(std::move(r), event);
        } else {
            CommandRecord r = record(CommandRecord::Type::Write, "write " + a.name, a.bufferBytes());
            check(clEnqueueWriteBuffer(m_queue.get(), m_buffers[i].mem(), CL_FALSE, 0, a.bufferBytes(),
                                       m_contents[i].data(), 0, nullptr, &event),
                  ("clEnqueueWriteBuffer(" + a.name + ")").c_str());
            m_recorder.add(std::move(r), event);
        }
    }
}

// Copies once their source is ready: bindArguments ruled out cycles, so every pass makes progress.
void KernelRun::copyBuffers()
{
    std::vector<bool> ready(m_args.size(), true);
    for (std::size_t i = 0; i < m_args.size(); ++i)
        ready[i] = !(m_args[i].kind == ArgKind::Buffer && m_args[i].init.kind == InitKind::Copy);
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t i = 0; i < m_args.size(); ++i) {
            if (ready[i])
                continue;
            const std::size_t source = std::size_t(findBound(m_args, m_args[i].init.source) - m_args.data());
            if (!ready[source])
                continue;
            cl_event event = nullptr;
            CommandRecord r =
                record(CommandRecord::Type::Copy, "copy " + m_args[source].name + " to " + m_args[i].name,
                       m_args[i].bufferBytes());
            check(clEnqueueCopyBuffer(m_queue.get(), m_buffers[source].mem(), m_buffers[i].mem(), 0, 0,
                                      m_args[i].bufferBytes(), 0, nullptr, &event),
                  ("clEnqueueCopyBuffer(" + m_args[i].name + ")").c_str());
            m_recorder.add(std::move(r), event);
            ready[i] = progress = true;
        }
    }
}

void KernelRun::setArguments()
{
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        const BoundArg &a = m_args[i];
        const std::string routine = "clSetKernelArg(" + a.name + ")";
        if (a.kind == ArgKind::Value) {
            check(clSetKernelArg(m_kernel.get(), cl_uint(a.index), a.value.size(), a.value.data()),
                  routine.c_str());
        } else if (a.kind == ArgKind::Buffer || a.kind == ArgKind::Image) {
            cl_mem mem = a.kind == ArgKind::Image ? m_images[i].image.get() : m_buffers[i].mem();
            check(clSetKernelArg(m_kernel.get(), cl_uint(a.index), sizeof mem, &mem), routine.c_str());
        } else if (a.kind == ArgKind::Sampler) {
            cl_sampler sampler = m_samplers[i].get();
            check(clSetKernelArg(m_kernel.get(), cl_uint(a.index), sizeof sampler, &sampler),
                  routine.c_str());
        } else {
            check(clSetKernelArg(m_kernel.get(), cl_uint(a.index), a.localBytes, nullptr), routine.c_str());
        }
    }
}

// The result's arguments (with the contents the launch sees, when kept) and the launch's description.
void KernelRun::describeArguments()
{
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        const BoundArg &a = m_args[i];
        RunArgument r;
        r.name = a.name;
        r.kind = a.kind;
        r.typeName =
            m_info->args.size() > std::size_t(a.index) ? m_info->args[std::size_t(a.index)].typeName : "";
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
            r.address = m_addresses[i];
        }
        if (m_options.keepContents && a.kind == ArgKind::Buffer) {
            // What the launch sees: after the writes, fills and copies above.
            r.before.resize(a.bufferBytes());
            check(clEnqueueReadBuffer(m_queue.get(), m_buffers[i].mem(), CL_TRUE, 0, r.before.size(),
                                      r.before.data(), 0, nullptr, nullptr),
                  ("clEnqueueReadBuffer(" + a.name + ")").c_str());
        }
        m_result.arguments.push_back(std::move(r));
    }
    m_result.options = m_request.build.options();
    m_result.kernel = m_request.kernel;
    m_result.device = m_deviceName;
    m_result.clock = m_clock;
    m_result.global = m_range.global;
    m_result.local = m_range.local;
    m_result.offset = m_range.offset;
    m_result.repeat = m_request.repeat;
}

// The repeated launches, with the kernel's printf captured when asked for.
void KernelRun::launch()
{
    const std::string launchRoutine = "clEnqueueNDRangeKernel(" + m_request.kernel + ")";
    const std::string rangeDetail = "global " + formatSizeList(m_range.global) +
                                    (m_range.local.empty() ? std::string(", local chosen by the driver")
                                                           : ", local " + formatSizeList(m_range.local));
    std::optional<std::size_t> previousLaunch;
    if (m_options.capturePrintf)
        m_printed.emplace();
    for (int index = 0; index < m_request.repeat; ++index) {
        if (m_options.cancel && m_options.cancel->load()) {
            m_result.cancelled = true;
            break;
        }
        CommandRecord r = record(CommandRecord::Type::Kernel, m_request.kernel, 0);
        r.dims = int(m_range.dimensions());
        std::copy(m_range.global.begin(), m_range.global.end(), r.global.begin());
        std::copy(m_range.local.begin(), m_range.local.end(), r.local.begin());
        cl_event event = nullptr;
        check(clEnqueueNDRangeKernel(m_queue.get(), m_kernel.get(), cl_uint(m_range.dimensions()),
                                     m_range.offset.data(), m_range.global.data(),
                                     m_range.local.empty() ? nullptr : m_range.local.data(), 0, nullptr,
                                     &event),
              launchRoutine.c_str(), rangeDetail);
        m_recorder.add(std::move(r), event);
        clFlush(m_queue.get());
        // At most two launches in flight: one running, one queued behind it, so that the device never waits
        // for the host and a cancel takes effect after the launch that runs now.
        if (previousLaunch)
            m_recorder.wait(*previousLaunch, "launch " + std::to_string(index) + " of " + m_request.kernel);
        previousLaunch = m_recorder.size() - 1;
    }
}

// The reads of the buffers and images asked for, unless the run was cancelled.
void KernelRun::enqueueReadBack()
{
    if (m_result.cancelled)
        return;
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (!m_wanted[i])
            continue;
        const BoundArg &a = m_args[i];
        m_readBack.push_back(
            {a.name, a.type, a.count, std::vector<unsigned char>(a.bufferBytes()), a.layout});
        CommandRecord r = record(CommandRecord::Type::Read, "read " + a.name, a.bufferBytes());
        if (a.kind == ArgKind::Image) {
            m_readBack.back().image = ImageInfo{a.image.dim, a.image.format, *a.image.shape};
            m_recorder.add(std::move(r), readImage(m_queue.get(), a, m_images[i].image.get(),
                                                   m_readBack.back().bytes.data()));
            continue;
        }
        cl_event event = nullptr;
        check(clEnqueueReadBuffer(m_queue.get(), m_buffers[i].mem(), CL_FALSE, 0, a.bufferBytes(),
                                  m_readBack.back().bytes.data(), 0, nullptr, &event),
              ("clEnqueueReadBuffer(" + a.name + ")").c_str());
        m_recorder.add(std::move(r), event);
    }
}

// Waits for the queue; then the contents after the launch (when kept), the printf output, and every
// command's record.
void KernelRun::finish()
{
    check(clFinish(m_queue.get()), "clFinish");
    if (m_options.keepContents && !m_result.cancelled) {
        for (std::size_t i = 0; i < m_args.size(); ++i) {
            if (m_args[i].kind != ArgKind::Buffer)
                continue;
            std::vector<unsigned char> &after = m_result.arguments[i].after;
            after.resize(m_args[i].bufferBytes());
            check(clEnqueueReadBuffer(m_queue.get(), m_buffers[i].mem(), CL_TRUE, 0, after.size(),
                                      after.data(), 0, nullptr, nullptr),
                  ("clEnqueueReadBuffer(" + m_args[i].name + ")").c_str());
        }
    }
    if (m_printed) {
        m_result.printed = m_printed->finish();
        m_result.printedDropped = m_printed->dropped();
    }
    m_result.commands = m_recorder.collect(isOpenCL2(m_device));
    for (const CommandRecord &r : m_result.commands) {
        if (r.type == CommandRecord::Type::Kernel)
            m_result.launches.push_back(r);
    }
    m_result.buffers = std::move(m_readBack);
    for (const BoundArg &a : m_args)
        m_result.argNames.push_back(a.name);
    m_result.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_started).count();
}

} // namespace clscope::detail
