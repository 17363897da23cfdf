// Recording forwarders for programs (every source, binary and IL), their builds with per-device logs and
// durations (asynchronous ones through a wrapped callback), kernels and every argument set.
#include "hookutil.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace clscope::layer {

namespace {

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
    guardCrashHandler(); // a compiler in the driver may have installed its own
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

// The record of a build, compile or link call, and (when the app gave a callback) the wrapper that records
// the log when the driver calls back. Nothing of the layer's may fail the app's call: on an exception the
// call goes on with the app's own callback and whatever of the record was made.
struct PreparedBuild
{
    BuildCall call;
    Notify *wrapped = nullptr;
};

PreparedBuild prepareBuild(wire::BuildOp op, const char *options, cl_uint n, const cl_device_id *devices,
                           cl_uint ninputs, const cl_program *inputs,
                           void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    PreparedBuild out;
    try {
        out.call.op = op;
        out.call.options = options ? options : "";
        if (n && devices)
            out.call.devices.assign(devices, devices + n);
        out.call.start = nowNs();
        for (cl_uint i = 0; i < ninputs && inputs; ++i)
            out.call.inputs.push_back(h(inputs[i]));
        if (notify)
            out.wrapped = new Notify{notify, user, out.call};
    } catch (...) {
        out.wrapped = nullptr;
    }
    return out;
}

cl_int CL_API_CALL hBuildProgram(cl_program p, cl_uint n, const cl_device_id *devices, const char *options,
                                 void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    CallTimer timer(CLSCOPE_ID(clBuildProgram));
    const auto [call, wrapped] =
        prepareBuild(wire::BuildOp::Build, options, n, devices, 0, nullptr, notify, user);
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
    const auto [call, wrapped] =
        prepareBuild(wire::BuildOp::Compile, options, n, devices, nh, headers, notify, user);
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
    const auto [call, wrapped] =
        prepareBuild(wire::BuildOp::Link, options, n, devices, ni, inputs, notify, user);
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
    guardCrashHandler();
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

} // namespace

void installProgramHooks(cl_icd_dispatch &t, const cl_icd_dispatch &n)
{
#define CLSCOPE_HOOK(name, fn)                                                                               \
    if (n.name)                                                                                              \
        t.name = fn;
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
#undef CLSCOPE_HOOK
}

} // namespace clscope::layer
