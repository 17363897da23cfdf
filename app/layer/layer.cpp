// libclscope-layer.so: the OpenCL loader layer (CL/cl_layer.h) that captures a program for clscope-cli
// capture. clInitLayer fills the layer's dispatch table from the one list of entry points
// (entrypoints.h): every entry gets a generic forwarder that times the call and records it as an API
// call; hooks.cpp then puts its recording forwarders into the slots of the calls it records in detail.
#include "entrypoints.h"
#include "hooks.h"
#include "stream.h"

#include <CL/cl_layer.h>

#include <cstring>
#include <type_traits>

#include <algorithm>
#include <unistd.h>

namespace clscope::layer {

namespace {

enum EntryId : std::uint16_t {
#define CLSCOPE_ENUM(name) Id_##name,
    CLSCOPE_ENTRY_POINTS(CLSCOPE_ENUM)
#undef CLSCOPE_ENUM
        kEntryCount
};
static_assert(sizeof(cl_icd_dispatch) == kEntryCount * sizeof(void *),
              "entrypoints.h must list every member of cl_icd_dispatch");

constexpr const char *kEntryNames[] = {
#define CLSCOPE_NAME(name) #name,
    CLSCOPE_ENTRY_POINTS(CLSCOPE_NAME)
#undef CLSCOPE_NAME
};

cl_icd_dispatch g_table;

template<typename T> std::int32_t resultCode(const T &r)
{
    if constexpr (std::is_same_v<T, cl_int>)
        return r;
    else if constexpr (std::is_pointer_v<T>)
        return r ? 0 : kNullReturned;
    else
        return 0;
}

template<typename T> struct Forwarder;
template<typename R, typename... A> struct Forwarder<R(CL_API_CALL *)(A...)>
{
    template<auto Member, std::uint16_t Id> static R CL_API_CALL call(A... a)
    {
        if (!recording())
            return (g_next->*Member)(a...);
        const std::uint64_t t0 = nowNs();
        if constexpr (std::is_void_v<R>) {
            (g_next->*Member)(a...);
            recordApiCall(Id, t0, nowNs() - t0, 0);
        } else {
            R r = (g_next->*Member)(a...);
            recordApiCall(Id, t0, nowNs() - t0, resultCode(r));
            return r;
        }
    }
};

template<auto Member, std::uint16_t Id> void fill(cl_icd_dispatch &table, const cl_icd_dispatch &next)
{
    using T = std::remove_reference_t<decltype(table.*Member)>;
    if constexpr (std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>)
        table.*Member = (next.*Member) ? &Forwarder<T>::template call<Member, Id> : nullptr;
    else
        table.*Member = next.*Member; // an entry this header types as void* (another OS's interop)
}

void sendApiNames()
{
    const std::uint64_t ts = nowNs();
    const auto pid = static_cast<std::uint32_t>(getpid());
    emit(wire::Kind::Hello, 4 + 4 + 8 + wire::blobSize(22), [&](wire::Encoder &e) {
        e.put(wire::kVersion), e.put(pid), e.put(ts), e.str("libclscope-layer.so 1");
    });
    for (std::uint16_t id = 0; id < kEntryCount; ++id) {
        const std::string_view name = kEntryNames[id];
        emit(wire::Kind::ApiName, 2 + wire::blobSize(name.size()),
             [&](wire::Encoder &e) { e.put(id), e.str(name); });
    }
}

} // namespace

std::uint16_t entryId(std::string_view name)
{
    for (std::uint16_t id = 0; id < kEntryCount; ++id)
        if (name == kEntryNames[id])
            return id;
    return 0xffff;
}

void recordApiCall(std::uint16_t id, std::uint64_t start, std::uint64_t duration,
                   std::int32_t result) noexcept
{
    const std::uint32_t thread = threadId();
    emit(wire::Kind::ApiCall, 2 + 4 + 8 + 8 + 4,
         [&](wire::Encoder &e) { e.put(id), e.put(thread), e.put(start), e.put(duration), e.put(result); });
}

} // namespace clscope::layer

using namespace clscope::layer;

extern "C" {

__attribute__((visibility("default"))) cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name,
                                                                         size_t param_value_size,
                                                                         void *param_value,
                                                                         size_t *param_value_size_ret)
{
    static const char kName[] = "clscope capture layer";
    const void *src = nullptr;
    size_t size = 0;
    cl_layer_api_version version = CL_LAYER_API_VERSION_100;
    switch (param_name) {
    case CL_LAYER_API_VERSION:
        src = &version;
        size = sizeof version;
        break;
    case CL_LAYER_NAME:
        src = kName;
        size = sizeof kName;
        break;
    default:
        return CL_INVALID_VALUE;
    }
    if (param_value) {
        if (param_value_size < size)
            return CL_INVALID_VALUE;
        std::memcpy(param_value, src, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

__attribute__((visibility("default"))) cl_int CL_API_CALL
clInitLayer(cl_uint num_entries, const cl_icd_dispatch *target_dispatch, cl_uint *num_entries_ret,
            const cl_icd_dispatch **layer_dispatch_ret)
{
    if (!target_dispatch || !layer_dispatch_ret || !num_entries_ret)
        return CL_INVALID_VALUE;
    // A loader with a shorter table than ours: copy what it has, leave the rest empty.
    cl_icd_dispatch next;
    std::memset(&next, 0, sizeof next);
    const size_t have = std::min<size_t>(num_entries, kEntryCount) * sizeof(void *);
    std::memcpy(&next, target_dispatch, have);
    static cl_icd_dispatch s_next;
    s_next = next;
    g_next = &s_next;
#define CLSCOPE_FILL(name) fill<&cl_icd_dispatch::name, Id_##name>(g_table, s_next);
    CLSCOPE_ENTRY_POINTS(CLSCOPE_FILL)
#undef CLSCOPE_FILL
    startStream();
    if (recording()) {
        sendApiNames();
        installHooks(g_table, s_next);
    }
    *layer_dispatch_ret = &g_table;
    *num_entries_ret = kEntryCount;
    return CL_SUCCESS;
}

} // extern "C"
