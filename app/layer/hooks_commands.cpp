// Recording forwarders for enqueued commands. One template forwards every clEnqueue*: it passes an event
// of the layer's own when the program passed none (so every command gets timestamps; or one command in N,
// or none, as CLSCOPE_CAPTURE_TIMESTAMPS asks), sends a Command record, and hands the event to the writer,
// which sends the timestamps once the command has finished.
// Kernel launches also read their buffer arguments before and after, when contents were asked for.
#include "hookutil.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <type_traits>

namespace clscope::layer {

namespace {

// 1: an event of the layer's for every command the program passed none for; N: for one in N of a thread's;
// 0: none. An event costs NVIDIA's driver about 8 us per launch, the rest of the layer under one
// (docs/benchmarks.md).
std::uint32_t g_ownEventEvery = 1;

bool takeOwnEvent() noexcept
{
    const std::uint32_t every = g_ownEventEvery;
    if (every <= 1)
        return every == 1;
    thread_local std::uint32_t n = 0;
    return n++ % every == 0;
}

// CommandWire::ownEvent: whose event times the command.
std::uint8_t ownEvent(const cl_event *userEvent, bool takeOwn)
{
    return std::uint8_t(userEvent ? wire::OwnEvent::Program
                        : takeOwn ? wire::OwnEvent::Layer
                                  : wire::OwnEvent::None);
}

std::uint64_t regionBytes(const size_t *region)
{
    return region ? std::uint64_t(region[0]) * region[1] * region[2] : 0;
}

std::uint64_t imageBytes(cl_mem image, const size_t *region)
{
    size_t element = 0;
    if (g_next->clGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr) != CL_SUCCESS)
        element = 0;
    return regionBytes(region) * element;
}

void emitCommand(const wire::CommandWire &c) noexcept
{
    emit(wire::Kind::Command, 8 * 2 + 4 + 8 * 2 + 4 + 8 * 9 + 1 + 8 * 3 + 4 + 1 + 1 + 4 + 8 + 8 + 4,
         [&](wire::Encoder &e) { e.command(c); });
}

// After the driver returned: the Command record, and the event to the writer.
void finishCommand(wire::CommandWire &c, cl_int result, cl_event *userEvent, cl_event own) noexcept
{
    c.result = result;
    emitCommand(c);
    if (result == CL_SUCCESS) {
        cl_event ev = userEvent ? *userEvent : own;
        if (ev && userEvent && g_next->clRetainEvent(ev) != CL_SUCCESS)
            ev = nullptr;
        if (ev)
            watchEvent(ev, c.id, c.queue, c.hostStart + c.hostDuration);
    } else if (own) {
        g_next->clReleaseEvent(own);
    }
}

template<typename T> struct Enqueue;
template<typename R, typename... A> struct Enqueue<R(CL_API_CALL *)(A...)>
{
    // EventIdx: the position of the cl_event* parameter; Describe fills the command from the arguments.
    template<auto Member, std::size_t EventIdx, typename Describe> static R CL_API_CALL call(A... a)
    {
        if (!recording())
            return (g_next->*Member)(a...);
        auto args = std::tie(a...);
        static_assert(std::is_same_v<std::tuple_element_t<EventIdx, std::tuple<A...>>, cl_event *>,
                      "EventIdx must name the cl_event* parameter");
        cl_event *&eventArg = std::get<EventIdx>(args);
        cl_event *const userEvent = eventArg;
        cl_event own = nullptr;
        const bool takeOwn = !userEvent && takeOwnEvent();
        if (takeOwn)
            eventArg = &own;
        cl_int localErr = CL_SUCCESS;
        if constexpr (!std::is_same_v<R, cl_int>) {
            cl_int *&errArg = std::get<sizeof...(A) - 1>(args);
            if (!errArg)
                errArg = &localErr;
        }
        wire::CommandWire c;
        c.queue = h(std::get<0>(args));
        if constexpr (EventIdx >= 2)
            c.waitCount = static_cast<std::uint32_t>(std::get<EventIdx - 2>(args));
        Describe::describe(c, args);
        c.thread = threadId();
        c.ownEvent = ownEvent(userEvent, takeOwn);
        c.hostStart = nowNs();
        R r = std::apply(g_next->*Member, args);
        c.hostDuration = nowNs() - c.hostStart;
        c.id = g_commandCounter.fetch_add(1, std::memory_order_relaxed);
        cl_int code;
        if constexpr (std::is_same_v<R, cl_int>)
            code = r;
        else
            code = *std::get<sizeof...(A) - 1>(args);
        finishCommand(c, code, userEvent, own);
        if (takeOwn)
            eventArg = nullptr;
        return r;
    }
};

// ---- What each command is -------------------------------------------------------------------------

using std::get;
#define CLSCOPE_DESCRIBE(Name, body)                                                                         \
    struct Name                                                                                              \
    {                                                                                                        \
        static void describe(wire::CommandWire &c, const auto &a)                                            \
        {                                                                                                    \
            (void)a;                                                                                         \
            body;                                                                                            \
        }                                                                                                    \
    };

CLSCOPE_DESCRIBE(DReadBuffer, c.type = CL_COMMAND_READ_BUFFER; c.mem = h(get<1>(a)); c.blocking = get<2>(a);
                 c.bytes = get<4>(a))
CLSCOPE_DESCRIBE(DWriteBuffer, c.type = CL_COMMAND_WRITE_BUFFER; c.mem = h(get<1>(a)); c.blocking = get<2>(a);
                 c.bytes = get<4>(a))
CLSCOPE_DESCRIBE(DReadBufferRect, c.type = CL_COMMAND_READ_BUFFER_RECT; c.mem = h(get<1>(a));
                 c.blocking = get<2>(a); c.bytes = regionBytes(get<5>(a)))
CLSCOPE_DESCRIBE(DWriteBufferRect, c.type = CL_COMMAND_WRITE_BUFFER_RECT; c.mem = h(get<1>(a));
                 c.blocking = get<2>(a); c.bytes = regionBytes(get<5>(a)))
CLSCOPE_DESCRIBE(DFillBuffer, c.type = CL_COMMAND_FILL_BUFFER; c.mem = h(get<1>(a)); c.bytes = get<5>(a))
CLSCOPE_DESCRIBE(DCopyBuffer, c.type = CL_COMMAND_COPY_BUFFER; c.mem = h(get<1>(a)); c.mem2 = h(get<2>(a));
                 c.bytes = get<5>(a))
CLSCOPE_DESCRIBE(DCopyBufferRect, c.type = CL_COMMAND_COPY_BUFFER_RECT; c.mem = h(get<1>(a));
                 c.mem2 = h(get<2>(a)); c.bytes = regionBytes(get<5>(a)))
CLSCOPE_DESCRIBE(DReadImage, c.type = CL_COMMAND_READ_IMAGE; c.mem = h(get<1>(a)); c.blocking = get<2>(a);
                 c.bytes = imageBytes(get<1>(a), get<4>(a)))
CLSCOPE_DESCRIBE(DWriteImage, c.type = CL_COMMAND_WRITE_IMAGE; c.mem = h(get<1>(a)); c.blocking = get<2>(a);
                 c.bytes = imageBytes(get<1>(a), get<4>(a)))
CLSCOPE_DESCRIBE(DFillImage, c.type = CL_COMMAND_FILL_IMAGE; c.mem = h(get<1>(a));
                 c.bytes = imageBytes(get<1>(a), get<4>(a)))
CLSCOPE_DESCRIBE(DCopyImage, c.type = CL_COMMAND_COPY_IMAGE; c.mem = h(get<1>(a)); c.mem2 = h(get<2>(a));
                 c.bytes = imageBytes(get<1>(a), get<5>(a)))
CLSCOPE_DESCRIBE(DCopyImageToBuffer, c.type = CL_COMMAND_COPY_IMAGE_TO_BUFFER; c.mem = h(get<1>(a));
                 c.mem2 = h(get<2>(a)); c.bytes = imageBytes(get<1>(a), get<4>(a)))
CLSCOPE_DESCRIBE(DCopyBufferToImage, c.type = CL_COMMAND_COPY_BUFFER_TO_IMAGE; c.mem = h(get<1>(a));
                 c.mem2 = h(get<2>(a)); c.bytes = imageBytes(get<2>(a), get<5>(a)))
CLSCOPE_DESCRIBE(DMapBuffer, c.type = CL_COMMAND_MAP_BUFFER; c.mem = h(get<1>(a)); c.blocking = get<2>(a);
                 c.bytes = get<5>(a))
CLSCOPE_DESCRIBE(DMapImage, c.type = CL_COMMAND_MAP_IMAGE; c.mem = h(get<1>(a)); c.blocking = get<2>(a);
                 c.bytes = imageBytes(get<1>(a), get<5>(a)))
CLSCOPE_DESCRIBE(DUnmap, c.type = CL_COMMAND_UNMAP_MEM_OBJECT; c.mem = h(get<1>(a)))
CLSCOPE_DESCRIBE(DMigrate, c.type = CL_COMMAND_MIGRATE_MEM_OBJECTS)
CLSCOPE_DESCRIBE(DNativeKernel, c.type = CL_COMMAND_NATIVE_KERNEL)
CLSCOPE_DESCRIBE(DMarker, c.type = CL_COMMAND_MARKER)
CLSCOPE_DESCRIBE(DBarrier, c.type = CL_COMMAND_BARRIER)
CLSCOPE_DESCRIBE(DSVMFree, c.type = CL_COMMAND_SVM_FREE)
CLSCOPE_DESCRIBE(DSVMMemcpy, c.type = CL_COMMAND_SVM_MEMCPY; c.blocking = get<1>(a); c.bytes = get<4>(a);
                 c.mem = reinterpret_cast<std::uint64_t>(get<3>(a));
                 c.mem2 = reinterpret_cast<std::uint64_t>(get<2>(a)))
CLSCOPE_DESCRIBE(DSVMMemFill, c.type = CL_COMMAND_SVM_MEMFILL; c.bytes = get<4>(a);
                 c.mem = reinterpret_cast<std::uint64_t>(get<1>(a)))
CLSCOPE_DESCRIBE(DSVMMap, c.type = CL_COMMAND_SVM_MAP; c.blocking = get<1>(a); c.bytes = get<4>(a);
                 c.mem = reinterpret_cast<std::uint64_t>(get<3>(a)))
CLSCOPE_DESCRIBE(DSVMUnmap, c.type = CL_COMMAND_SVM_UNMAP; c.mem = reinterpret_cast<std::uint64_t>(get<1>(a)))
CLSCOPE_DESCRIBE(DSVMMigrate, c.type = CL_COMMAND_SVM_MIGRATE_MEM)
#undef CLSCOPE_DESCRIBE

// ---- Kernel launches and their contents -----------------------------------------------------------

std::mutex g_contentsMutex; // launches with contents are taken one at a time, so the index is known

struct ContentArg
{
    cl_uint index;
    cl_mem mem;
    std::uint64_t size;
};

// The kernel's buffer arguments, when this launch is one whose contents were asked for.
bool wantContents(cl_kernel kernel, std::int64_t launch, std::vector<ContentArg> &out)
{
    const ContentsConfig &cfg = contentsConfig();
    Tracked &t = tracked();
    std::lock_guard lock(t.mutex);
    bool want = cfg.all || cfg.launches.count(launch);
    if (!want && !cfg.kernels.empty()) {
        auto it = t.kernelNames.find(kernel);
        want = it != t.kernelNames.end() && cfg.kernels.count(it->second);
    }
    if (!want)
        return false;
    auto args = t.kernelArgs.find(kernel);
    if (args == t.kernelArgs.end())
        return false;
    for (cl_uint i = 0; i < args->second.size(); ++i) {
        cl_mem m = args->second[i];
        if (!m)
            continue;
        auto b = t.buffers.find(m);
        out.push_back({i, m, b == t.buffers.end() ? 0 : b->second});
    }
    return true;
}

void readContents(cl_command_queue queue, std::int64_t launch, const std::vector<ContentArg> &args,
                  std::uint8_t phase, cl_uint nwait, const cl_event *wait) noexcept
{
    for (const ContentArg &arg : args) {
        wire::ContentState state = wire::ContentState::Captured;
        std::vector<unsigned char> bytes;
        {
            Tracked &t = tracked();
            std::lock_guard lock(t.mutex);
            if (t.contentsBytes + arg.size > contentsConfig().budget)
                state = wire::ContentState::OverBudget;
            else
                t.contentsBytes += arg.size;
        }
        if (state == wire::ContentState::Captured) {
            try {
                bytes.resize(arg.size);
                if (g_next->clEnqueueReadBuffer(queue, arg.mem, CL_TRUE, 0, arg.size, bytes.data(), nwait,
                                                wait, nullptr) != CL_SUCCESS) {
                    state = wire::ContentState::ReadFailed;
                    bytes.clear();
                }
            } catch (...) {
                state = wire::ContentState::ReadFailed;
                bytes.clear();
            }
        }
        if (bytes.size() <= wire::kContentsPiece) {
            emitContentsRecord(wire::Kind::Contents, 8 + 4 + 1 + 8 + 1 + wire::blobSize(bytes.size()),
                               [&](wire::Encoder &e) {
                                   e.put(launch), e.put<std::uint32_t>(arg.index), e.put(phase),
                                       e.put(h(arg.mem));
                                   e.put(static_cast<std::uint8_t>(state)),
                                       e.blob(bytes.data(), bytes.size());
                               });
            continue;
        }
        // Large contents go in pieces, each of which fits the layer's buffer.
        for (std::size_t at = 0; at < bytes.size(); at += wire::kContentsPiece) {
            const std::size_t n = std::min(wire::kContentsPiece, bytes.size() - at);
            emitContentsRecord(
                wire::kContentsPart, 8 + 4 + 1 + 8 + 8 + 8 + wire::blobSize(n), [&](wire::Encoder &e) {
                    e.put(launch), e.put<std::uint32_t>(arg.index), e.put(phase), e.put(h(arg.mem));
                    e.put<std::uint64_t>(bytes.size()), e.put<std::uint64_t>(at);
                    e.blob(bytes.data() + at, n);
                });
        }
    }
}

cl_int launch(wire::CommandWire &c, cl_command_queue queue, cl_kernel kernel, cl_uint nwait,
              const cl_event *wait, cl_event *userEvent, auto &&forward)
{
    cl_event own = nullptr;
    c.queue = h(queue);
    c.kernel = h(kernel);
    c.waitCount = nwait;
    c.thread = threadId();
    if (!contentsConfig().enabled) {
        const bool takeOwn = !userEvent && takeOwnEvent();
        cl_event *eventArg = userEvent ? userEvent : takeOwn ? &own : nullptr;
        c.ownEvent = ownEvent(userEvent, takeOwn);
        c.hostStart = nowNs();
        const cl_int r = forward(eventArg);
        c.hostDuration = nowNs() - c.hostStart;
        c.id = g_commandCounter.fetch_add(1, std::memory_order_relaxed);
        if (r == CL_SUCCESS)
            c.launch = g_launchCounter.fetch_add(1, std::memory_order_relaxed);
        finishCommand(c, r, userEvent, own);
        return r;
    }
    std::lock_guard lock(g_contentsMutex);
    const std::int64_t index = g_launchCounter.load();
    std::vector<ContentArg> args;
    bool want = false;
    try {
        want = wantContents(kernel, index, args);
    } catch (...) {
        want = false;
    }
    // With contents the layer always takes an event: the read after the launch waits for it.
    cl_event *eventArg = userEvent ? userEvent : &own;
    c.ownEvent = ownEvent(userEvent, true);
    if (want)
        readContents(queue, index, args, 0, nwait, wait);
    c.hostStart = nowNs();
    const cl_int r = forward(eventArg);
    c.hostDuration = nowNs() - c.hostStart;
    c.id = g_commandCounter.fetch_add(1, std::memory_order_relaxed);
    if (r == CL_SUCCESS)
        c.launch = g_launchCounter.fetch_add(1);
    if (want && r == CL_SUCCESS)
        readContents(queue, index, args, 1, 1, eventArg);
    finishCommand(c, r, userEvent, own);
    return r;
}

cl_int CL_API_CALL hEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                         const size_t *global, const size_t *local, cl_uint nwait,
                                         const cl_event *wait, cl_event *event)
{
    if (!recording())
        return g_next->clEnqueueNDRangeKernel(q, k, dims, offset, global, local, nwait, wait, event);
    wire::CommandWire c;
    c.type = CL_COMMAND_NDRANGE_KERNEL;
    c.dims = dims;
    for (cl_uint i = 0; i < dims && i < 3; ++i) {
        c.global[i] = global ? global[i] : 0;
        c.local[i] = local ? local[i] : 0;
        c.offset[i] = offset ? offset[i] : 0;
    }
    c.localGiven = local != nullptr;
    return launch(c, q, k, nwait, wait, event, [&](cl_event *ev) {
        return g_next->clEnqueueNDRangeKernel(q, k, dims, offset, global, local, nwait, wait, ev);
    });
}

cl_int CL_API_CALL hEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nwait, const cl_event *wait,
                                cl_event *event)
{
    if (!recording())
        return g_next->clEnqueueTask(q, k, nwait, wait, event);
    wire::CommandWire c;
    c.type = CL_COMMAND_TASK;
    c.dims = 1;
    c.global[0] = c.local[0] = 1;
    c.localGiven = 1;
    return launch(c, q, k, nwait, wait, event,
                  [&](cl_event *ev) { return g_next->clEnqueueTask(q, k, nwait, wait, ev); });
}

// The calls that wait for commands: once they return, the commands waited for have finished, and their
// device times are read then (a program that crashes right after waiting keeps them).
cl_int CL_API_CALL hFinish(cl_command_queue q)
{
    if (!recording())
        return g_next->clFinish(q);
    cl_int r;
    {
        CallTimer timer(CLSCOPE_ID(clFinish));
        r = g_next->clFinish(q);
        timer.result(r);
    }
    if (r == CL_SUCCESS)
        readFinishedEvents(h(q));
    return r;
}

cl_int CL_API_CALL hWaitForEvents(cl_uint n, const cl_event *events)
{
    if (!recording())
        return g_next->clWaitForEvents(n, events);
    cl_int r;
    {
        CallTimer timer(CLSCOPE_ID(clWaitForEvents));
        r = g_next->clWaitForEvents(n, events);
        timer.result(r);
    }
    if (r == CL_SUCCESS)
        readFinishedEvents();
    return r;
}

} // namespace

void loadTimestampsConfig()
{
    // Unset or not understood: every command (the default).
    const char *env = std::getenv(wire::kEnvTimestamps);
    g_ownEventEvery = wire::parseTimestampsEvery(env ? env : "").value_or(1);
}

void installCommandHooks(cl_icd_dispatch &t, const cl_icd_dispatch &n)
{
#define CLSCOPE_ENQ(name, idx, D)                                                                            \
    if (n.name)                                                                                              \
        t.name = &Enqueue<decltype(n.name)>::call<&cl_icd_dispatch::name, idx, D>;
    CLSCOPE_ENQ(clEnqueueReadBuffer, 8, DReadBuffer)
    CLSCOPE_ENQ(clEnqueueWriteBuffer, 8, DWriteBuffer)
    CLSCOPE_ENQ(clEnqueueReadBufferRect, 13, DReadBufferRect)
    CLSCOPE_ENQ(clEnqueueWriteBufferRect, 13, DWriteBufferRect)
    CLSCOPE_ENQ(clEnqueueFillBuffer, 8, DFillBuffer)
    CLSCOPE_ENQ(clEnqueueCopyBuffer, 8, DCopyBuffer)
    CLSCOPE_ENQ(clEnqueueCopyBufferRect, 12, DCopyBufferRect)
    CLSCOPE_ENQ(clEnqueueReadImage, 10, DReadImage)
    CLSCOPE_ENQ(clEnqueueWriteImage, 10, DWriteImage)
    CLSCOPE_ENQ(clEnqueueFillImage, 7, DFillImage)
    CLSCOPE_ENQ(clEnqueueCopyImage, 8, DCopyImage)
    CLSCOPE_ENQ(clEnqueueCopyImageToBuffer, 8, DCopyImageToBuffer)
    CLSCOPE_ENQ(clEnqueueCopyBufferToImage, 8, DCopyBufferToImage)
    CLSCOPE_ENQ(clEnqueueMapBuffer, 8, DMapBuffer)
    CLSCOPE_ENQ(clEnqueueMapImage, 10, DMapImage)
    CLSCOPE_ENQ(clEnqueueUnmapMemObject, 5, DUnmap)
    CLSCOPE_ENQ(clEnqueueMigrateMemObjects, 6, DMigrate)
    CLSCOPE_ENQ(clEnqueueNativeKernel, 9, DNativeKernel)
    CLSCOPE_ENQ(clEnqueueMarkerWithWaitList, 3, DMarker)
    CLSCOPE_ENQ(clEnqueueBarrierWithWaitList, 3, DBarrier)
    CLSCOPE_ENQ(clEnqueueSVMFree, 7, DSVMFree)
    CLSCOPE_ENQ(clEnqueueSVMMemcpy, 7, DSVMMemcpy)
    CLSCOPE_ENQ(clEnqueueSVMMemFill, 7, DSVMMemFill)
    CLSCOPE_ENQ(clEnqueueSVMMap, 7, DSVMMap)
    CLSCOPE_ENQ(clEnqueueSVMUnmap, 4, DSVMUnmap)
    CLSCOPE_ENQ(clEnqueueSVMMigrateMem, 7, DSVMMigrate)
#undef CLSCOPE_ENQ
    if (n.clEnqueueNDRangeKernel)
        t.clEnqueueNDRangeKernel = hEnqueueNDRangeKernel;
    if (n.clEnqueueTask)
        t.clEnqueueTask = hEnqueueTask;
    if (n.clFinish)
        t.clFinish = hFinish;
    if (n.clWaitForEvents)
        t.clWaitForEvents = hWaitForEvents;
}

} // namespace clscope::layer
