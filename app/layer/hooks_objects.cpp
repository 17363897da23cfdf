// Recording forwarders for devices, contexts, queues (with profiling added and hidden), and the retain and
// release of every object; the state the hooks share (queue properties, contents, tracked objects).
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

void recordObjectEvent(wire::Kind kind, wire::ObjectType type, const void *handle) noexcept
{
    const std::uint64_t ts = nowNs(), hv = reinterpret_cast<std::uint64_t>(handle);
    emit(kind, 1 + 8 + 8,
         [&](wire::Encoder &e) { e.put(static_cast<std::uint8_t>(type)), e.put(hv), e.put(ts); });
}

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
    loadTimestampsConfig();
    installObjectHooks(table, next);
    installMemoryHooks(table, next);
    installProgramHooks(table, next);
    installCommandHooks(table, next);
}

} // namespace clscope::layer
