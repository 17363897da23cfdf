// Recording forwarders for objects: devices, contexts, queues (with profiling added), memory objects,
// samplers, programs and their builds, kernels and their arguments, and the retain/release of each.
#include "hookutil.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace clscope::layer {

std::atomic<std::uint64_t> g_commandCounter{0};
std::atomic<std::int64_t> g_launchCounter{0};

namespace {

std::mutex g_devicesMutex;
std::unordered_set<cl_device_id> *g_devices = new std::unordered_set<cl_device_id>;
std::mutex g_queuesMutex;
std::unordered_map<cl_command_queue, QueueProps> *g_queues =
    new std::unordered_map<cl_command_queue, QueueProps>;
ContentsConfig *g_contents = new ContentsConfig;

std::string deviceString(cl_device_id d, cl_device_info what)
{
    size_t n = 0;
    if (g_next->clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return {};
    std::string s(n, '\0');
    if (g_next->clGetDeviceInfo(d, what, n, s.data(), nullptr) != CL_SUCCESS)
        return {};
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

std::string platformString(cl_platform_id p, cl_platform_info what)
{
    size_t n = 0;
    if (!p || g_next->clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return {};
    std::string s(n, '\0');
    if (g_next->clGetPlatformInfo(p, what, n, s.data(), nullptr) != CL_SUCCESS)
        return {};
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

std::vector<cl_device_id> contextDevices(cl_context context)
{
    size_t n = 0;
    std::vector<cl_device_id> devices;
    if (g_next->clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &n) != CL_SUCCESS)
        return devices;
    devices.resize(n / sizeof(cl_device_id));
    if (g_next->clGetContextInfo(context, CL_CONTEXT_DEVICES, n, devices.data(), nullptr) != CL_SUCCESS)
        devices.clear();
    return devices;
}

void recordContext(cl_context context, const cl_context_properties *props, std::uint64_t ts) noexcept
{
    try {
        const std::vector<cl_device_id> devices = contextDevices(context);
        for (cl_device_id d : devices)
            recordDevice(d);
        std::size_t np = 0;
        while (props && props[np] != 0)
            np += 2;
        emit(wire::Kind::Context, 8 + 8 + 4 + 8 * devices.size() + 4 + 8 * np, [&](wire::Encoder &e) {
            e.put(h(context)), e.put(ts);
            e.put(static_cast<std::uint32_t>(devices.size()));
            for (cl_device_id d : devices)
                e.put(h(d));
            e.put(static_cast<std::uint32_t>(np));
            for (std::size_t i = 0; i < np; ++i)
                e.put(static_cast<std::uint64_t>(props[i]));
        });
    } catch (...) {
    }
}

void recordObjectEvent(wire::Kind kind, wire::ObjectType type, const void *handle) noexcept
{
    const std::uint64_t ts = nowNs(), hv = reinterpret_cast<std::uint64_t>(handle);
    emit(kind, 1 + 8 + 8,
         [&](wire::Encoder &e) { e.put(static_cast<std::uint8_t>(type)), e.put(hv), e.put(ts); });
}

// ---- Memory objects -------------------------------------------------------------------------------

struct MemDesc
{
    wire::MemKind kind = wire::MemKind::Buffer;
    cl_context context = nullptr;
    cl_mem_flags flags = 0;
    std::uint64_t size = 0;
    const void *hostPtr = nullptr;
    cl_mem parent = nullptr;
    std::uint64_t origin = 0;
    const cl_image_format *format = nullptr;
    const cl_image_desc *image = nullptr;
};

void recordMem(const void *handle, MemDesc d) noexcept
{
    try {
        cl_mem mem = static_cast<cl_mem>(const_cast<void *>(handle));
        if (d.kind != wire::MemKind::Svm) {
            size_t size = 0;
            if (g_next->clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, nullptr) == CL_SUCCESS)
                d.size = size;
            if (!d.context)
                g_next->clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof d.context, &d.context, nullptr);
        }
        const std::uint64_t ts = nowNs();
        emit(wire::Kind::Mem, 8 * 3 + 1 + 8 * 5 + 4 + 8 * 4 + 4 + 4 + 8, [&](wire::Encoder &e) {
            e.put(reinterpret_cast<std::uint64_t>(handle)), e.put(h(d.context));
            e.put(static_cast<std::uint8_t>(d.kind)), e.put<std::uint64_t>(d.flags), e.put(d.size);
            e.put(reinterpret_cast<std::uint64_t>(d.hostPtr)), e.put(h(d.parent)), e.put(d.origin);
            e.put<std::uint32_t>(d.image ? d.image->image_type : 0);
            e.put<std::uint64_t>(d.image ? d.image->image_width : 0);
            e.put<std::uint64_t>(d.image ? d.image->image_height : 0);
            e.put<std::uint64_t>(d.image ? d.image->image_depth : 0);
            e.put<std::uint64_t>(d.image ? d.image->image_array_size : 0);
            e.put<std::uint32_t>(d.format ? d.format->image_channel_order : 0);
            e.put<std::uint32_t>(d.format ? d.format->image_channel_data_type : 0);
            e.put(ts);
        });
        if (contentsConfig().enabled && d.kind != wire::MemKind::Svm) {
            Tracked &t = tracked();
            std::lock_guard lock(t.mutex);
            if (d.kind == wire::MemKind::Buffer || d.kind == wire::MemKind::SubBuffer)
                t.buffers[mem] = d.size;
            t.refs[mem] = 1;
        }
    } catch (...) {
    }
}

template<typename F> auto timedCreate(std::uint16_t id, cl_int *&errcode, cl_int &local, F &&call)
{
    if (!errcode)
        errcode = &local;
    CallTimer timer(id);
    auto r = call();
    timer.result(r ? CL_SUCCESS : *errcode);
    return r;
}

cl_mem CL_API_CALL hCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateBuffer), err, local,
                           [&] { return g_next->clCreateBuffer(ctx, flags, size, host, err); });
    if (m)
        recordMem(m, {wire::MemKind::Buffer, ctx, flags, size, host});
    return m;
}

cl_mem CL_API_CALL hCreateBufferWithProperties(cl_context ctx, const cl_mem_properties *props,
                                               cl_mem_flags flags, size_t size, void *host, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateBufferWithProperties), err, local, [&] {
        return g_next->clCreateBufferWithProperties(ctx, props, flags, size, host, err);
    });
    if (m)
        recordMem(m, {wire::MemKind::Buffer, ctx, flags, size, host});
    return m;
}

cl_mem CL_API_CALL hCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                                    const void *info, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateSubBuffer), err, local,
                           [&] { return g_next->clCreateSubBuffer(buffer, flags, type, info, err); });
    if (m) {
        MemDesc d{wire::MemKind::SubBuffer, nullptr, flags};
        d.parent = buffer;
        if (type == CL_BUFFER_CREATE_TYPE_REGION && info) {
            const auto *region = static_cast<const cl_buffer_region *>(info);
            d.origin = region->origin;
            d.size = region->size;
        }
        recordMem(m, d);
    }
    return m;
}

cl_mem CL_API_CALL hCreateImage(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                const cl_image_desc *desc, void *host, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateImage), err, local,
                           [&] { return g_next->clCreateImage(ctx, flags, format, desc, host, err); });
    if (m) {
        MemDesc d{wire::MemKind::Image, ctx, flags, 0, host};
        d.format = format;
        d.image = desc;
        recordMem(m, d);
    }
    return m;
}

cl_mem CL_API_CALL hCreateImageWithProperties(cl_context ctx, const cl_mem_properties *props,
                                              cl_mem_flags flags, const cl_image_format *format,
                                              const cl_image_desc *desc, void *host, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateImageWithProperties), err, local, [&] {
        return g_next->clCreateImageWithProperties(ctx, props, flags, format, desc, host, err);
    });
    if (m) {
        MemDesc d{wire::MemKind::Image, ctx, flags, 0, host};
        d.format = format;
        d.image = desc;
        recordMem(m, d);
    }
    return m;
}

cl_mem CL_API_CALL hCreateImage2D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format, size_t w,
                                  size_t hgt, size_t pitch, void *host, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateImage2D), err, local, [&] {
        return g_next->clCreateImage2D(ctx, flags, format, w, hgt, pitch, host, err);
    });
    if (m) {
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = w;
        desc.image_height = hgt;
        MemDesc d{wire::MemKind::Image, ctx, flags, 0, host};
        d.format = format;
        d.image = &desc;
        recordMem(m, d);
    }
    return m;
}

cl_mem CL_API_CALL hCreateImage3D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format, size_t w,
                                  size_t hgt, size_t depth, size_t rp, size_t sp, void *host, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreateImage3D), err, local, [&] {
        return g_next->clCreateImage3D(ctx, flags, format, w, hgt, depth, rp, sp, host, err);
    });
    if (m) {
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE3D;
        desc.image_width = w;
        desc.image_height = hgt;
        desc.image_depth = depth;
        MemDesc d{wire::MemKind::Image, ctx, flags, 0, host};
        d.format = format;
        d.image = &desc;
        recordMem(m, d);
    }
    return m;
}

cl_mem CL_API_CALL hCreatePipe(cl_context ctx, cl_mem_flags flags, cl_uint packet, cl_uint packets,
                               const cl_pipe_properties *props, cl_int *err)
{
    cl_int local = 0;
    cl_mem m = timedCreate(CLSCOPE_ID(clCreatePipe), err, local,
                           [&] { return g_next->clCreatePipe(ctx, flags, packet, packets, props, err); });
    if (m)
        recordMem(m, {wire::MemKind::Pipe, ctx, flags, std::uint64_t(packet) * packets});
    return m;
}

void *CL_API_CALL hSVMAlloc(cl_context ctx, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    CallTimer timer(CLSCOPE_ID(clSVMAlloc));
    void *p = g_next->clSVMAlloc(ctx, flags, size, alignment);
    timer.result(p ? 0 : kNullReturned);
    if (p)
        recordMem(p, {wire::MemKind::Svm, ctx, flags, size});
    return p;
}

void CL_API_CALL hSVMFree(cl_context ctx, void *p)
{
    CallTimer timer(CLSCOPE_ID(clSVMFree));
    if (p)
        recordObjectEvent(wire::Kind::Release, wire::ObjectType::Mem, p);
    g_next->clSVMFree(ctx, p);
}

cl_int CL_API_CALL hRetainMem(cl_mem m)
{
    CallTimer timer(CLSCOPE_ID(clRetainMemObject));
    const cl_int r = g_next->clRetainMemObject(m);
    timer.result(r);
    if (r == CL_SUCCESS) {
        recordObjectEvent(wire::Kind::Retain, wire::ObjectType::Mem, m);
        if (contentsConfig().enabled) {
            Tracked &t = tracked();
            std::lock_guard lock(t.mutex);
            if (auto it = t.refs.find(m); it != t.refs.end())
                ++it->second;
        }
    }
    return r;
}

cl_int CL_API_CALL hReleaseMem(cl_mem m)
{
    CallTimer timer(CLSCOPE_ID(clReleaseMemObject));
    const cl_int r = g_next->clReleaseMemObject(m);
    timer.result(r);
    if (r == CL_SUCCESS) {
        recordObjectEvent(wire::Kind::Release, wire::ObjectType::Mem, m);
        if (contentsConfig().enabled) {
            Tracked &t = tracked();
            std::lock_guard lock(t.mutex);
            if (auto it = t.refs.find(m); it != t.refs.end() && --it->second <= 0) {
                t.refs.erase(it);
                t.buffers.erase(m);
            }
        }
    }
    return r;
}

// ---- Contexts and queues --------------------------------------------------------------------------

cl_context CL_API_CALL hCreateContext(const cl_context_properties *props, cl_uint n,
                                      const cl_device_id *devices,
                                      void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                      void *user, cl_int *err)
{
    cl_int local = 0;
    cl_context c = timedCreate(CLSCOPE_ID(clCreateContext), err, local,
                               [&] { return g_next->clCreateContext(props, n, devices, notify, user, err); });
    if (c)
        recordContext(c, props, nowNs());
    return c;
}

cl_context CL_API_CALL hCreateContextFromType(const cl_context_properties *props, cl_device_type type,
                                              void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                                                        void *),
                                              void *user, cl_int *err)
{
    cl_int local = 0;
    cl_context c = timedCreate(CLSCOPE_ID(clCreateContextFromType), err, local, [&] {
        return g_next->clCreateContextFromType(props, type, notify, user, err);
    });
    if (c)
        recordContext(c, props, nowNs());
    return c;
}

void recordQueue(cl_command_queue q, cl_context ctx, cl_device_id dev, const QueueProps &p) noexcept
{
    const std::uint64_t ts = nowNs();
    const std::uint64_t props = p.appProperties;
    const std::uint8_t added = p.added;
    emit(wire::Kind::Queue, 8 * 4 + 1 + 8, [&](wire::Encoder &e) {
        e.put(h(q)), e.put(h(ctx)), e.put(h(dev)), e.put(props), e.put(added), e.put(ts);
    });
    if (p.added || p.hasArray)
        rememberQueue(q, p);
}

cl_command_queue CL_API_CALL hCreateCommandQueue(cl_context ctx, cl_device_id dev,
                                                 cl_command_queue_properties props, cl_int *err)
{
    cl_int local = 0;
    QueueProps p;
    p.appProperties = props;
    cl_command_queue q = timedCreate(CLSCOPE_ID(clCreateCommandQueue), err, local, [&] {
        cl_command_queue r = nullptr;
        if (!(props & CL_QUEUE_PROFILING_ENABLE)) {
            r = g_next->clCreateCommandQueue(ctx, dev, props | CL_QUEUE_PROFILING_ENABLE, err);
            p.added = r != nullptr;
        }
        if (!r) // the driver refused the added property (or the app asked for it): exactly the app's call
            r = g_next->clCreateCommandQueue(ctx, dev, props, err);
        return r;
    });
    if (q)
        recordQueue(q, ctx, dev, p);
    return q;
}

cl_command_queue CL_API_CALL hCreateCommandQueueWithProperties(cl_context ctx, cl_device_id dev,
                                                               const cl_queue_properties *props, cl_int *err)
{
    cl_int local = 0;
    QueueProps p;
    p.hasArray = true;
    std::size_t n = 0;
    while (props && props[n] != 0)
        n += 2;
    cl_queue_properties mine[64];
    bool canAdd = n + 3 <= 64;
    std::size_t propsAt = SIZE_MAX;
    for (std::size_t i = 0; i < n && canAdd; i += 2) {
        mine[i] = props[i];
        mine[i + 1] = props[i + 1];
        if (props[i] == CL_QUEUE_PROPERTIES) {
            propsAt = i + 1;
            p.appProperties = props[i + 1];
        }
    }
    try {
        if (props)
            p.array.assign(props, props + n + 1);
    } catch (...) {
        canAdd = false;
    }
    std::size_t m = n;
    if (canAdd) {
        if (propsAt == SIZE_MAX) {
            mine[m++] = CL_QUEUE_PROPERTIES;
            mine[m++] = CL_QUEUE_PROFILING_ENABLE;
        } else {
            mine[propsAt] |= CL_QUEUE_PROFILING_ENABLE;
        }
        mine[m] = 0;
    }
    cl_command_queue q = timedCreate(CLSCOPE_ID(clCreateCommandQueueWithProperties), err, local, [&] {
        cl_command_queue r = nullptr;
        if (canAdd && !(p.appProperties & CL_QUEUE_PROFILING_ENABLE)) {
            r = g_next->clCreateCommandQueueWithProperties(ctx, dev, mine, err);
            p.added = r != nullptr;
        }
        if (!r)
            r = g_next->clCreateCommandQueueWithProperties(ctx, dev, props, err);
        return r;
    });
    if (q)
        recordQueue(q, ctx, dev, p);
    return q;
}

cl_int copyOut(const void *src, size_t size, size_t capacity, void *value, size_t *sizeRet)
{
    if (value) {
        if (capacity < size)
            return CL_INVALID_VALUE;
        if (size)
            std::memcpy(value, src, size);
    }
    if (sizeRet)
        *sizeRet = size;
    return CL_SUCCESS;
}

cl_int CL_API_CALL hGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info what, size_t size,
                                        void *value, size_t *sizeRet)
{
    CallTimer timer(CLSCOPE_ID(clGetCommandQueueInfo));
    cl_int r = g_next->clGetCommandQueueInfo(q, what, size, value, sizeRet);
    timer.result(r);
    if (r != CL_SUCCESS || (what != CL_QUEUE_PROPERTIES && what != CL_QUEUE_PROPERTIES_ARRAY))
        return r;
    QueueProps p;
    if (!queueProps(q, p))
        return r;
    if (what == CL_QUEUE_PROPERTIES && p.added && value && size >= sizeof(cl_command_queue_properties)) {
        auto *bits = static_cast<cl_command_queue_properties *>(value);
        *bits &= ~cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE);
    } else if (what == CL_QUEUE_PROPERTIES_ARRAY && p.added) {
        // The program's own array, as the driver would have returned it.
        r = copyOut(p.array.data(), p.array.size() * sizeof(cl_queue_properties), size, value, sizeRet);
    }
    return r;
}

// Profiling the layer added stays invisible: the program gets what a queue without it gives.
cl_int CL_API_CALL hGetEventProfilingInfo(cl_event e, cl_profiling_info what, size_t size, void *value,
                                          size_t *sizeRet)
{
    CallTimer timer(CLSCOPE_ID(clGetEventProfilingInfo));
    cl_command_queue q = nullptr;
    if (g_next->clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr) == CL_SUCCESS && q &&
        queueAddedProfiling(q)) {
        timer.result(CL_PROFILING_INFO_NOT_AVAILABLE);
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    }
    const cl_int r = g_next->clGetEventProfilingInfo(e, what, size, value, sizeRet);
    timer.result(r);
    return r;
}

// ---- Samplers -------------------------------------------------------------------------------------

void recordSampler(cl_sampler s, cl_context ctx, cl_bool normalized, cl_uint addressing,
                   cl_uint filter) noexcept
{
    emit(wire::Kind::Sampler, 8 + 8 + 12, [&](wire::Encoder &e) {
        e.put(h(s)), e.put(h(ctx)), e.put<std::uint32_t>(normalized), e.put<std::uint32_t>(addressing);
        e.put<std::uint32_t>(filter);
    });
}

cl_sampler CL_API_CALL hCreateSampler(cl_context ctx, cl_bool normalized, cl_addressing_mode am,
                                      cl_filter_mode fm, cl_int *err)
{
    cl_int local = 0;
    cl_sampler s = timedCreate(CLSCOPE_ID(clCreateSampler), err, local,
                               [&] { return g_next->clCreateSampler(ctx, normalized, am, fm, err); });
    if (s)
        recordSampler(s, ctx, normalized, am, fm);
    return s;
}

cl_sampler CL_API_CALL hCreateSamplerWithProperties(cl_context ctx, const cl_sampler_properties *props,
                                                    cl_int *err)
{
    cl_int local = 0;
    cl_sampler s = timedCreate(CLSCOPE_ID(clCreateSamplerWithProperties), err, local,
                               [&] { return g_next->clCreateSamplerWithProperties(ctx, props, err); });
    if (s) {
        cl_bool normalized = CL_TRUE;
        cl_uint am = CL_ADDRESS_CLAMP, fm = CL_FILTER_NEAREST;
        for (std::size_t i = 0; props && props[i] != 0; i += 2) {
            if (props[i] == CL_SAMPLER_NORMALIZED_COORDS)
                normalized = cl_bool(props[i + 1]);
            else if (props[i] == CL_SAMPLER_ADDRESSING_MODE)
                am = cl_uint(props[i + 1]);
            else if (props[i] == CL_SAMPLER_FILTER_MODE)
                fm = cl_uint(props[i + 1]);
        }
        recordSampler(s, ctx, normalized, am, fm);
    }
    return s;
}

// ---- Programs -------------------------------------------------------------------------------------

struct Blob
{
    std::uint64_t device = 0;
    const void *data = nullptr;
    std::size_t size = 0;
};

void recordProgram(cl_program p, cl_context ctx, wire::ProgramKind kind,
                   const std::vector<Blob> &blobs) noexcept
{
    std::size_t payload = 8 + 8 + 1 + 8 + 4;
    for (const Blob &b : blobs)
        payload += 8 + wire::blobSize(b.size);
    const std::uint64_t ts = nowNs();
    emit(wire::Kind::Program, payload, [&](wire::Encoder &e) {
        e.put(h(p)), e.put(h(ctx)), e.put(static_cast<std::uint8_t>(kind)), e.put(ts);
        e.put(static_cast<std::uint32_t>(blobs.size()));
        for (const Blob &b : blobs) {
            e.put(b.device);
            e.blob(b.data, b.size);
        }
    });
}

cl_program CL_API_CALL hCreateProgramWithSource(cl_context ctx, cl_uint count, const char **strings,
                                                const size_t *lengths, cl_int *err)
{
    cl_int local = 0;
    cl_program p = timedCreate(CLSCOPE_ID(clCreateProgramWithSource), err, local, [&] {
        return g_next->clCreateProgramWithSource(ctx, count, strings, lengths, err);
    });
    if (p) {
        try {
            std::vector<Blob> blobs;
            for (cl_uint i = 0; i < count; ++i)
                blobs.push_back(
                    {0, strings[i], lengths && lengths[i] ? lengths[i] : std::strlen(strings[i])});
            recordProgram(p, ctx, wire::ProgramKind::Source, blobs);
        } catch (...) {
        }
    }
    return p;
}

cl_program CL_API_CALL hCreateProgramWithBinary(cl_context ctx, cl_uint n, const cl_device_id *devices,
                                                const size_t *lengths, const unsigned char **binaries,
                                                cl_int *status, cl_int *err)
{
    cl_int local = 0;
    cl_program p = timedCreate(CLSCOPE_ID(clCreateProgramWithBinary), err, local, [&] {
        return g_next->clCreateProgramWithBinary(ctx, n, devices, lengths, binaries, status, err);
    });
    if (p) {
        try {
            std::vector<Blob> blobs;
            for (cl_uint i = 0; i < n; ++i)
                blobs.push_back({h(devices[i]), binaries[i], lengths[i]});
            recordProgram(p, ctx, wire::ProgramKind::Binary, blobs);
        } catch (...) {
        }
    }
    return p;
}

cl_program CL_API_CALL hCreateProgramWithIL(cl_context ctx, const void *il, size_t length, cl_int *err)
{
    cl_int local = 0;
    cl_program p = timedCreate(CLSCOPE_ID(clCreateProgramWithIL), err, local,
                               [&] { return g_next->clCreateProgramWithIL(ctx, il, length, err); });
    if (p) {
        try {
            recordProgram(p, ctx, wire::ProgramKind::IL, {{0, il, length}});
        } catch (...) {
        }
    }
    return p;
}

cl_program CL_API_CALL hCreateProgramWithBuiltInKernels(cl_context ctx, cl_uint n,
                                                        const cl_device_id *devices, const char *names,
                                                        cl_int *err)
{
    cl_int local = 0;
    cl_program p = timedCreate(CLSCOPE_ID(clCreateProgramWithBuiltInKernels), err, local, [&] {
        return g_next->clCreateProgramWithBuiltInKernels(ctx, n, devices, names, err);
    });
    if (p) {
        try {
            recordProgram(p, ctx, wire::ProgramKind::BuiltIn, {{0, names, names ? std::strlen(names) : 0}});
        } catch (...) {
        }
    }
    return p;
}

std::vector<cl_device_id> programDevices(cl_program p, cl_uint n, const cl_device_id *devices)
{
    if (n && devices)
        return {devices, devices + n};
    size_t size = 0;
    std::vector<cl_device_id> out;
    if (g_next->clGetProgramInfo(p, CL_PROGRAM_DEVICES, 0, nullptr, &size) != CL_SUCCESS)
        return out;
    out.resize(size / sizeof(cl_device_id));
    if (g_next->clGetProgramInfo(p, CL_PROGRAM_DEVICES, size, out.data(), nullptr) != CL_SUCCESS)
        out.clear();
    return out;
}

struct BuildCall
{
    wire::BuildOp op = wire::BuildOp::Build;
    std::string options;
    std::vector<cl_device_id> devices; // as the program named them (empty: all of the program's)
    std::vector<std::uint64_t> inputs; // programs linked, or headers compiled with
    std::uint64_t start = 0;
};

void recordBuild(cl_program p, const BuildCall &call, cl_int result, std::uint64_t end) noexcept
{
    try {
        const std::vector<cl_device_id> devices =
            programDevices(p, cl_uint(call.devices.size()), call.devices.data());
        struct Log
        {
            cl_device_id device;
            cl_int status;
            std::string text;
        };
        std::vector<Log> logs;
        std::size_t payload =
            8 + 1 + wire::blobSize(call.options.size()) + 4 + 8 + 8 + 4 + 8 * call.inputs.size() + 4;
        for (cl_device_id d : devices) {
            Log l{d, CL_BUILD_NONE, {}};
            g_next->clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, sizeof l.status, &l.status, nullptr);
            size_t n = 0;
            if (g_next->clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) == CL_SUCCESS &&
                n) {
                l.text.resize(n);
                if (g_next->clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, l.text.data(), nullptr) !=
                    CL_SUCCESS)
                    l.text.clear();
                while (!l.text.empty() && l.text.back() == '\0')
                    l.text.pop_back();
            }
            payload += 8 + 4 + wire::blobSize(l.text.size());
            logs.push_back(std::move(l));
        }
        emit(wire::Kind::Build, payload, [&](wire::Encoder &e) {
            e.put(h(p)), e.put(static_cast<std::uint8_t>(call.op)), e.str(call.options),
                e.put<std::int32_t>(result);
            e.put(call.start), e.put(end - call.start);
            e.put(static_cast<std::uint32_t>(call.inputs.size()));
            for (std::uint64_t in : call.inputs)
                e.put(in);
            e.put(static_cast<std::uint32_t>(logs.size()));
            for (const Log &l : logs) {
                e.put(h(l.device)), e.put<std::int32_t>(l.status), e.str(l.text);
            }
        });
    } catch (...) {
    }
}

// An asynchronous build: the log is recorded when the driver calls back, then the program's callback runs.
struct Notify
{
    void(CL_CALLBACK *fn)(cl_program, void *);
    void *user;
    BuildCall call;
};

void CL_CALLBACK onBuilt(cl_program p, void *data)
{
    auto *n = static_cast<Notify *>(data);
    cl_int status = CL_SUCCESS;
    recordBuild(p, n->call, status, nowNs());
    n->fn(p, n->user);
    delete n;
}

BuildCall makeCall(wire::BuildOp op, const char *options, cl_uint n, const cl_device_id *devices)
{
    BuildCall call;
    call.op = op;
    call.options = options ? options : "";
    if (n && devices)
        call.devices.assign(devices, devices + n);
    call.start = nowNs();
    return call;
}

cl_int CL_API_CALL hBuildProgram(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                                 void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    CallTimer timer(CLSCOPE_ID(clBuildProgram));
    Notify *wrapped = nullptr;
    BuildCall call;
    try {
        call = makeCall(wire::BuildOp::Build, options, n, devices);
        if (notify)
            wrapped = new Notify{notify, user, call};
    } catch (...) {
        wrapped = nullptr;
    }
    cl_int r;
    if (notify && wrapped)
        r = g_next->clBuildProgram(p, n, devices, options, onBuilt, wrapped);
    else
        r = g_next->clBuildProgram(p, n, devices, options, notify, user);
    timer.result(r);
    if (!notify)
        recordBuild(p, call, r, nowNs());
    return r;
}

cl_int CL_API_CALL hCompileProgram(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                                   cl_uint nh, const cl_program *headers, const char **names,
                                   void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    CallTimer timer(CLSCOPE_ID(clCompileProgram));
    Notify *wrapped = nullptr;
    BuildCall call;
    try {
        call = makeCall(wire::BuildOp::Compile, options, n, devices);
        for (cl_uint i = 0; i < nh; ++i)
            call.inputs.push_back(h(headers[i]));
        if (notify)
            wrapped = new Notify{notify, user, call};
    } catch (...) {
        wrapped = nullptr;
    }
    cl_int r;
    if (notify && wrapped)
        r = g_next->clCompileProgram(p, n, devices, options, nh, headers, names, onBuilt, wrapped);
    else
        r = g_next->clCompileProgram(p, n, devices, options, nh, headers, names, notify, user);
    timer.result(r);
    if (!notify)
        recordBuild(p, call, r, nowNs());
    return r;
}

cl_program CL_API_CALL hLinkProgram(cl_context ctx, cl_uint n, const cl_device_id *devices,
                                    const char *options, cl_uint ni, const cl_program *inputs,
                                    void(CL_CALLBACK *notify)(cl_program, void *), void *user, cl_int *err)
{
    cl_int local = 0;
    if (!err)
        err = &local;
    CallTimer timer(CLSCOPE_ID(clLinkProgram));
    Notify *wrapped = nullptr;
    BuildCall call;
    try {
        call = makeCall(wire::BuildOp::Link, options, n, devices);
        for (cl_uint i = 0; i < ni; ++i)
            call.inputs.push_back(h(inputs[i]));
        if (notify)
            wrapped = new Notify{notify, user, call};
    } catch (...) {
        wrapped = nullptr;
    }
    cl_program p;
    if (notify && wrapped)
        p = g_next->clLinkProgram(ctx, n, devices, options, ni, inputs, onBuilt, wrapped, err);
    else
        p = g_next->clLinkProgram(ctx, n, devices, options, ni, inputs, notify, user, err);
    timer.result(p ? CL_SUCCESS : *err);
    if (p) {
        recordProgram(p, ctx, wire::ProgramKind::Linked, {});
        if (!notify)
            recordBuild(p, call, *err, nowNs());
    }
    return p;
}

// ---- Kernels --------------------------------------------------------------------------------------

void recordKernel(cl_kernel k) noexcept
{
    try {
        cl_program program = nullptr;
        cl_uint args = 0;
        g_next->clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr);
        g_next->clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
        size_t n = 0;
        std::string name;
        if (g_next->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &n) == CL_SUCCESS && n) {
            name.resize(n);
            if (g_next->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, n, name.data(), nullptr) != CL_SUCCESS)
                name.clear();
            while (!name.empty() && name.back() == '\0')
                name.pop_back();
        }
        const std::uint64_t ts = nowNs();
        emit(wire::Kind::Kernel, 8 + 8 + wire::blobSize(name.size()) + 4 + 8, [&](wire::Encoder &e) {
            e.put(h(k)), e.put(h(program)), e.str(name), e.put<std::uint32_t>(args), e.put(ts);
        });
        if (contentsConfig().enabled) {
            Tracked &t = tracked();
            std::lock_guard lock(t.mutex);
            t.kernelNames[k] = name;
            t.kernelArgs[k].assign(args, nullptr);
        }
    } catch (...) {
    }
}

cl_kernel CL_API_CALL hCreateKernel(cl_program p, const char *name, cl_int *err)
{
    cl_int local = 0;
    cl_kernel k = timedCreate(CLSCOPE_ID(clCreateKernel), err, local,
                              [&] { return g_next->clCreateKernel(p, name, err); });
    if (k)
        recordKernel(k);
    return k;
}

cl_int CL_API_CALL hCreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *kernels, cl_uint *nret)
{
    CallTimer timer(CLSCOPE_ID(clCreateKernelsInProgram));
    cl_uint got = 0;
    const cl_int r = g_next->clCreateKernelsInProgram(p, n, kernels, &got);
    timer.result(r);
    if (nret)
        *nret = got;
    if (r == CL_SUCCESS && kernels)
        for (cl_uint i = 0; i < std::min(n, got); ++i)
            recordKernel(kernels[i]);
    return r;
}

cl_kernel CL_API_CALL hCloneKernel(cl_kernel source, cl_int *err)
{
    cl_int local = 0;
    cl_kernel k = timedCreate(CLSCOPE_ID(clCloneKernel), err, local,
                              [&] { return g_next->clCloneKernel(source, err); });
    if (k) {
        recordKernel(k);
        // A clone starts with its source's arguments; the recorder copies them.
        emit(wire::Kind::KernelArg, 8 + 4 + 1 + 8 + wire::blobSize(8), [&](wire::Encoder &e) {
            const std::uint64_t src = h(source);
            e.put(h(k)), e.put<std::uint32_t>(UINT32_MAX), e.put<std::uint8_t>(0), e.put<std::uint64_t>(0);
            e.blob(&src, 8);
        });
        if (contentsConfig().enabled) {
            Tracked &t = tracked();
            std::lock_guard lock(t.mutex);
            try {
                t.kernelArgs[k] = t.kernelArgs[source];
            } catch (...) {
            }
        }
    }
    return k;
}

cl_int CL_API_CALL hSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    CallTimer timer(CLSCOPE_ID(clSetKernelArg));
    const cl_int r = g_next->clSetKernelArg(k, index, size, value);
    timer.result(r);
    if (r != CL_SUCCESS)
        return r;
    const std::size_t bytes = value ? size : 0;
    emit(wire::Kind::KernelArg, 8 + 4 + 1 + 8 + wire::blobSize(bytes), [&](wire::Encoder &e) {
        e.put(h(k)), e.put<std::uint32_t>(index);
        e.put(static_cast<std::uint8_t>(value ? wire::ArgKind::Value : wire::ArgKind::Local));
        e.put<std::uint64_t>(size), e.blob(value, bytes);
    });
    if (contentsConfig().enabled) {
        Tracked &t = tracked();
        std::lock_guard lock(t.mutex);
        auto it = t.kernelArgs.find(k);
        if (it != t.kernelArgs.end() && index < it->second.size()) {
            cl_mem m = nullptr;
            if (value && size == sizeof(cl_mem))
                std::memcpy(&m, value, sizeof m);
            it->second[index] = (m && t.buffers.count(m)) ? m : nullptr;
        }
    }
    return r;
}

cl_int CL_API_CALL hSetKernelArgSVMPointer(cl_kernel k, cl_uint index, const void *ptr)
{
    CallTimer timer(CLSCOPE_ID(clSetKernelArgSVMPointer));
    const cl_int r = g_next->clSetKernelArgSVMPointer(k, index, ptr);
    timer.result(r);
    if (r == CL_SUCCESS) {
        const std::uint64_t v = reinterpret_cast<std::uint64_t>(ptr);
        emit(wire::Kind::KernelArg, 8 + 4 + 1 + 8 + wire::blobSize(8), [&](wire::Encoder &e) {
            e.put(h(k)), e.put<std::uint32_t>(index), e.put(static_cast<std::uint8_t>(wire::ArgKind::Svm));
            e.put<std::uint64_t>(8), e.blob(&v, 8);
        });
    }
    return r;
}

// ---- Retain and release ---------------------------------------------------------------------------

template<auto Member, wire::ObjectType Type, wire::Kind Kind> struct RefHook;
template<typename T, cl_int (CL_API_CALL *cl_icd_dispatch::*Member)(T), wire::ObjectType Type,
         wire::Kind Kind>
struct RefHook<Member, Type, Kind>
{
    static inline std::uint16_t id = 0;
    static cl_int CL_API_CALL call(T object)
    {
        CallTimer timer(id);
        const cl_int r = (g_next->*Member)(object);
        timer.result(r);
        if (r == CL_SUCCESS)
            recordObjectEvent(Kind, Type, object);
        return r;
    }
};

} // namespace

void recordDevice(cl_device_id device) noexcept
{
    try {
        {
            std::lock_guard lock(g_devicesMutex);
            if (!g_devices->insert(device).second)
                return;
        }
        cl_platform_id platform = nullptr;
        cl_device_type type = 0;
        g_next->clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr);
        g_next->clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
        const std::string pname = platformString(platform, CL_PLATFORM_NAME);
        const std::string name = deviceString(device, CL_DEVICE_NAME);
        const std::string version = deviceString(device, CL_DEVICE_VERSION);
        const std::string vendor = deviceString(device, CL_DEVICE_VENDOR);
        emit(wire::Kind::Device,
             8 + 8 + wire::blobSize(pname.size()) + wire::blobSize(name.size()) +
                 wire::blobSize(version.size()) + 8 + wire::blobSize(vendor.size()),
             [&](wire::Encoder &e) {
                 e.put(h(device)), e.put(h(platform)), e.str(pname), e.str(name), e.str(version);
                 e.put<std::uint64_t>(type), e.str(vendor);
             });
    } catch (...) {
    }
}

bool queueProps(cl_command_queue queue, QueueProps &out)
{
    std::lock_guard lock(g_queuesMutex);
    auto it = g_queues->find(queue);
    if (it == g_queues->end())
        return false;
    try {
        out = it->second;
    } catch (...) {
        return false;
    }
    return true;
}

bool queueAddedProfiling(cl_command_queue queue)
{
    std::lock_guard lock(g_queuesMutex);
    auto it = g_queues->find(queue);
    return it != g_queues->end() && it->second.added;
}

void rememberQueue(cl_command_queue queue, QueueProps props)
{
    std::lock_guard lock(g_queuesMutex);
    try {
        (*g_queues)[queue] = std::move(props);
    } catch (...) {
    }
}

const ContentsConfig &contentsConfig()
{
    return *g_contents;
}

void loadContentsConfig()
{
    auto split = [](const char *text, auto &&add) {
        if (!text)
            return;
        std::string_view s(text);
        while (!s.empty()) {
            const std::size_t comma = s.find(',');
            const std::string_view item = s.substr(0, comma);
            if (!item.empty())
                add(item);
            if (comma == std::string_view::npos)
                break;
            s.remove_prefix(comma + 1);
        }
    };
    try {
        ContentsConfig &c = *g_contents;
        const char *all = std::getenv(wire::kEnvContents);
        c.all = all && std::string_view(all) == "all";
        split(std::getenv(wire::kEnvKernels), [&](std::string_view k) { c.kernels.emplace(k); });
        split(std::getenv(wire::kEnvLaunches), [&](std::string_view l) {
            c.launches.insert(std::strtoll(std::string(l).c_str(), nullptr, 10));
        });
        if (const char *b = std::getenv(wire::kEnvBudget))
            c.budget = std::strtoull(b, nullptr, 10);
        c.enabled = c.all || !c.kernels.empty() || !c.launches.empty();
    } catch (...) {
        g_contents->enabled = false;
    }
}

Tracked &tracked()
{
    static Tracked *t = new Tracked;
    return *t;
}

void installObjectHooks(cl_icd_dispatch &t, const cl_icd_dispatch &n)
{
#define CLSCOPE_HOOK(name, fn)                                                                               \
    if (n.name)                                                                                              \
        t.name = fn;
    CLSCOPE_HOOK(clCreateContext, hCreateContext)
    CLSCOPE_HOOK(clCreateContextFromType, hCreateContextFromType)
    CLSCOPE_HOOK(clCreateCommandQueue, hCreateCommandQueue)
    CLSCOPE_HOOK(clCreateCommandQueueWithProperties, hCreateCommandQueueWithProperties)
    CLSCOPE_HOOK(clGetCommandQueueInfo, hGetCommandQueueInfo)
    CLSCOPE_HOOK(clGetEventProfilingInfo, hGetEventProfilingInfo)
    CLSCOPE_HOOK(clCreateBuffer, hCreateBuffer)
    CLSCOPE_HOOK(clCreateBufferWithProperties, hCreateBufferWithProperties)
    CLSCOPE_HOOK(clCreateSubBuffer, hCreateSubBuffer)
    CLSCOPE_HOOK(clCreateImage, hCreateImage)
    CLSCOPE_HOOK(clCreateImageWithProperties, hCreateImageWithProperties)
    CLSCOPE_HOOK(clCreateImage2D, hCreateImage2D)
    CLSCOPE_HOOK(clCreateImage3D, hCreateImage3D)
    CLSCOPE_HOOK(clCreatePipe, hCreatePipe)
    CLSCOPE_HOOK(clSVMAlloc, hSVMAlloc)
    CLSCOPE_HOOK(clSVMFree, hSVMFree)
    CLSCOPE_HOOK(clRetainMemObject, hRetainMem)
    CLSCOPE_HOOK(clReleaseMemObject, hReleaseMem)
    CLSCOPE_HOOK(clCreateSampler, hCreateSampler)
    CLSCOPE_HOOK(clCreateSamplerWithProperties, hCreateSamplerWithProperties)
    CLSCOPE_HOOK(clCreateProgramWithSource, hCreateProgramWithSource)
    CLSCOPE_HOOK(clCreateProgramWithBinary, hCreateProgramWithBinary)
    CLSCOPE_HOOK(clCreateProgramWithIL, hCreateProgramWithIL)
    CLSCOPE_HOOK(clCreateProgramWithBuiltInKernels, hCreateProgramWithBuiltInKernels)
    CLSCOPE_HOOK(clBuildProgram, hBuildProgram)
    CLSCOPE_HOOK(clCompileProgram, hCompileProgram)
    CLSCOPE_HOOK(clLinkProgram, hLinkProgram)
    CLSCOPE_HOOK(clCreateKernel, hCreateKernel)
    CLSCOPE_HOOK(clCreateKernelsInProgram, hCreateKernelsInProgram)
    CLSCOPE_HOOK(clCloneKernel, hCloneKernel)
    CLSCOPE_HOOK(clSetKernelArg, hSetKernelArg)
    CLSCOPE_HOOK(clSetKernelArgSVMPointer, hSetKernelArgSVMPointer)
#define CLSCOPE_REF(name, type, kind)                                                                        \
    using Ref_##name = RefHook<&cl_icd_dispatch::name, wire::ObjectType::type, wire::Kind::kind>;            \
    Ref_##name::id = entryId(#name);                                                                         \
    CLSCOPE_HOOK(name, Ref_##name::call)
    CLSCOPE_REF(clRetainContext, Context, Retain)
    CLSCOPE_REF(clReleaseContext, Context, Release)
    CLSCOPE_REF(clRetainCommandQueue, Queue, Retain)
    CLSCOPE_REF(clReleaseCommandQueue, Queue, Release)
    CLSCOPE_REF(clRetainProgram, Program, Retain)
    CLSCOPE_REF(clReleaseProgram, Program, Release)
    CLSCOPE_REF(clRetainKernel, Kernel, Retain)
    CLSCOPE_REF(clReleaseKernel, Kernel, Release)
    CLSCOPE_REF(clRetainSampler, Sampler, Retain)
    CLSCOPE_REF(clReleaseSampler, Sampler, Release)
#undef CLSCOPE_REF
#undef CLSCOPE_HOOK
}

void installHooks(cl_icd_dispatch &table, const cl_icd_dispatch &next)
{
    loadContentsConfig();
    installObjectHooks(table, next);
    installCommandHooks(table, next);
}

} // namespace clscope::layer
