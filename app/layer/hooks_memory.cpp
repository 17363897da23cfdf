// Recording forwarders for memory objects (buffers, sub-buffers, images, pipes, SVM) and samplers.
#include "hookutil.h"

#include <cstring>

namespace clscope::layer {

namespace {

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

} // namespace

void installMemoryHooks(cl_icd_dispatch &t, const cl_icd_dispatch &n)
{
#define CLSCOPE_HOOK(name, fn)                                                                               \
    if (n.name)                                                                                              \
        t.name = fn;
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
#undef CLSCOPE_HOOK
}

} // namespace clscope::layer
