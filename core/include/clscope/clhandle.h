// Owning handles for OpenCL objects: one reference each, given back with the type's clRelease* when the
// handle goes. Moved, never copied; a second reference is taken only when asked (ClHandle::retain).
#pragma once

#include "clscope/error.h"

#include <CL/cl.h>

#include <utility>

namespace clscope {

// The clRetain*/clRelease* pair of each handle type.
template<typename T> struct ClReferenceCalls;
template<> struct ClReferenceCalls<cl_context>
{
    static constexpr auto retain = clRetainContext;
    static constexpr auto release = clReleaseContext;
    static constexpr const char *retainName = "clRetainContext";
};
template<> struct ClReferenceCalls<cl_command_queue>
{
    static constexpr auto retain = clRetainCommandQueue;
    static constexpr auto release = clReleaseCommandQueue;
    static constexpr const char *retainName = "clRetainCommandQueue";
};
template<> struct ClReferenceCalls<cl_program>
{
    static constexpr auto retain = clRetainProgram;
    static constexpr auto release = clReleaseProgram;
    static constexpr const char *retainName = "clRetainProgram";
};
template<> struct ClReferenceCalls<cl_kernel>
{
    static constexpr auto retain = clRetainKernel;
    static constexpr auto release = clReleaseKernel;
    static constexpr const char *retainName = "clRetainKernel";
};
template<> struct ClReferenceCalls<cl_mem>
{
    static constexpr auto retain = clRetainMemObject;
    static constexpr auto release = clReleaseMemObject;
    static constexpr const char *retainName = "clRetainMemObject";
};
template<> struct ClReferenceCalls<cl_event>
{
    static constexpr auto retain = clRetainEvent;
    static constexpr auto release = clReleaseEvent;
    static constexpr const char *retainName = "clRetainEvent";
};

template<> struct ClReferenceCalls<cl_sampler>
{
    static constexpr auto retain = clRetainSampler;
    static constexpr auto release = clReleaseSampler;
    static constexpr const char *retainName = "clRetainSampler";
};

template<typename T> class ClHandle
{
public:
    ClHandle() = default;
    // Takes over the reference the caller holds (what clCreate* returned).
    explicit ClHandle(T handle) noexcept
        : m_handle(handle)
    {}
    // A reference of its own to a handle someone else keeps; throws ClError when clRetain* fails.
    static ClHandle retain(T handle)
    {
        if (handle)
            check(ClReferenceCalls<T>::retain(handle), ClReferenceCalls<T>::retainName);
        return ClHandle(handle);
    }
    ~ClHandle() { reset(); }
    ClHandle(ClHandle &&other) noexcept
        : m_handle(std::exchange(other.m_handle, nullptr))
    {}
    ClHandle &operator=(ClHandle &&other) noexcept
    {
        if (this != &other)
            reset(std::exchange(other.m_handle, nullptr));
        return *this;
    }
    ClHandle(const ClHandle &) = delete;
    ClHandle &operator=(const ClHandle &) = delete;

    T get() const noexcept { return m_handle; }
    explicit operator bool() const noexcept { return m_handle != nullptr; }
    // Releases the reference held (if any) and takes over `handle`'s.
    void reset(T handle = nullptr) noexcept
    {
        if (m_handle)
            ClReferenceCalls<T>::release(m_handle);
        m_handle = handle;
    }
    // Gives the reference to the caller; the handle is empty afterwards.
    [[nodiscard]] T release() noexcept { return std::exchange(m_handle, nullptr); }

private:
    T m_handle = nullptr;
};

using ClContext = ClHandle<cl_context>;
using ClQueue = ClHandle<cl_command_queue>;
using ClProgram = ClHandle<cl_program>;
using ClKernel = ClHandle<cl_kernel>;
using ClMem = ClHandle<cl_mem>;
using ClEvent = ClHandle<cl_event>;
using ClSampler = ClHandle<cl_sampler>;

} // namespace clscope
