// Pieces the recording forwarders share: handle encoding, call timing, the objects the layer must know
// itself (queues whose properties it changed; buffers and kernel arguments when contents are captured).
#pragma once

#include "hooks.h"
#include "stream.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace clscope::layer {

template<typename T> std::uint64_t h(T *p)
{
    return reinterpret_cast<std::uint64_t>(p);
}

// Records one ApiCall when it goes out of scope.
class CallTimer
{
public:
    explicit CallTimer(std::uint16_t id)
        : m_id(id)
        , m_start(nowNs())
    {}
    ~CallTimer() { recordApiCall(m_id, m_start, nowNs() - m_start, m_result); }
    CallTimer(const CallTimer &) = delete;
    CallTimer &operator=(const CallTimer &) = delete;
    void result(std::int32_t r) { m_result = r; }
    std::uint64_t start() const { return m_start; }

private:
    std::uint16_t m_id;
    std::uint64_t m_start;
    std::int32_t m_result = 0;
};

#define CLSCOPE_ID(name)                                                                                     \
    ([] {                                                                                                    \
        static const std::uint16_t id = entryId(#name);                                                      \
        return id;                                                                                           \
    }())

// The device is sent once, the first time a context names it.
void recordDevice(cl_device_id device) noexcept;

// Queues to which the layer added CL_QUEUE_PROFILING_ENABLE: what the program itself asked for.
struct QueueProps
{
    cl_command_queue_properties appProperties = 0;
    bool added = false;
    bool hasArray = false;                  // created with clCreateCommandQueueWithProperties
    std::vector<cl_queue_properties> array; // the program's array, terminating 0 included (empty: null)
};
bool queueProps(cl_command_queue queue, QueueProps &out);
void rememberQueue(cl_command_queue queue, QueueProps props);
bool queueAddedProfiling(cl_command_queue queue);

// Contents for replay: which launches, the byte budget, and what the layer must track to read them.
struct ContentsConfig
{
    bool enabled = false;
    bool all = false;
    std::unordered_set<std::string> kernels;
    std::unordered_set<std::int64_t> launches;
    std::uint64_t budget = UINT64_MAX;
};
const ContentsConfig &contentsConfig();
void loadContentsConfig();
// Which commands get an event of the layer's when the program passed none (wire::kEnvTimestamps).
void loadTimestampsConfig();

struct Tracked
{
    std::mutex mutex;
    std::unordered_map<cl_mem, std::uint64_t> buffers;             // live buffers -> size (refcount below)
    std::unordered_map<cl_mem, std::int64_t> refs;                 // references the program holds
    std::unordered_map<cl_kernel, std::string> kernelNames;        // live kernels
    std::unordered_map<cl_kernel, std::vector<cl_mem>> kernelArgs; // buffer per argument (null: other)
    std::uint64_t contentsBytes = 0;                               // contents recorded so far
};
Tracked &tracked();

// Commands and launches are numbered by the layer, over all queues and threads.
extern std::atomic<std::uint64_t> g_commandCounter;
extern std::atomic<std::int64_t> g_launchCounter;

// A create call timed as an ApiCall, with an errcode of the layer's own when the program passed none.
template<typename F> auto timedCreate(std::uint16_t id, cl_int *&errcode, cl_int &local, F &&call)
{
    if (!errcode)
        errcode = &local;
    CallTimer timer(id);
    auto r = call();
    timer.result(r ? CL_SUCCESS : *errcode);
    return r;
}

// A Retain or Release record of one object.
void recordObjectEvent(wire::Kind kind, wire::ObjectType type, const void *handle) noexcept;

void installObjectHooks(cl_icd_dispatch &table, const cl_icd_dispatch &next);
void installMemoryHooks(cl_icd_dispatch &table, const cl_icd_dispatch &next);
void installProgramHooks(cl_icd_dispatch &table, const cl_icd_dispatch &next);
void installCommandHooks(cl_icd_dispatch &table, const cl_icd_dispatch &next);

} // namespace clscope::layer
