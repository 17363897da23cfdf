// The OpenCL allocators a MemoryPool draws from: deferred and immediate buffers, and SVM.
#include "clscope/pool.h"

#include "clscope/clquery.h"
#include "clscope/queue.h"
#include "clscope/version.h"

#include <algorithm>
#include <string>
#include <vector>

namespace clscope {
namespace {

// The pool serves a request unrounded when only the rounded size passes this, so take the strictest device.
std::size_t smallestMaxAlloc(cl_context context)
{
    cl_ulong smallest = 0;
    for (cl_device_id device : contextDevices(context)) {
        cl_ulong value = 0;
        check(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(value), &value, nullptr),
              "clGetDeviceInfo", "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
        if (value != 0 && (smallest == 0 || value < smallest))
            smallest = value;
    }
    return static_cast<std::size_t>(smallest);
}

cl_context queueContext(cl_command_queue queue)
{
    cl_context context = nullptr;
    check(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr),
          "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
    return context;
}

bool deviceAtLeast12(cl_command_queue queue)
{
    cl_device_id device = nullptr;
    check(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr),
          "clGetCommandQueueInfo", "CL_QUEUE_DEVICE");
    const auto version = parseOpenCLVersion(deviceInfoString(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION"));
    return version && *version >= ClVersion{1, 2, 0};
}
} // namespace

// ---- Deferred ---------------------------------------------------------------------------------------

DeferredAllocator::DeferredAllocator(cl_context context, cl_mem_flags flags)
    : m_context(ClContext::retain(context))
    , m_flags(flags)
    , m_maxAllocSize(smallestMaxAlloc(context))
{}

DeferredAllocator::~DeferredAllocator() = default;

AllocResult DeferredAllocator::allocate(std::size_t size)
{
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(m_context.get(), m_flags, size, nullptr, &error);
    if (error != CL_SUCCESS)
        return {nullptr, error, "clCreateBuffer"};
    return {mem, CL_SUCCESS, nullptr};
}

void DeferredAllocator::release(void *handle) noexcept
{
    // The runtime keeps the memory until commands using it have finished, so no wait is needed here.
    clReleaseMemObject(static_cast<cl_mem>(handle));
}

// ---- Immediate --------------------------------------------------------------------------------------

ImmediateAllocator::ImmediateAllocator(cl_command_queue queue, cl_mem_flags flags)
    : DeferredAllocator(queueContext(queue), flags)
    , m_queue(ClQueue::retain(queue))
    , m_canMigrate(deviceAtLeast12(queue))
{}

ImmediateAllocator::~ImmediateAllocator() = default;

AllocResult ImmediateAllocator::allocate(std::size_t size)
{
    AllocResult result = DeferredAllocator::allocate(size);
    if (result.error != CL_SUCCESS)
        return result;
    cl_mem mem = static_cast<cl_mem>(result.handle);
    const char *routine = nullptr;
    cl_int error = CL_SUCCESS;
    if (m_canMigrate) {
        // Wait on the migration's own event, not clFinish: a failed command shows only in its event
        // status (CL_MEM_OBJECT_ALLOCATION_FAILURE there is the out-of-memory we are here to catch).
        cl_event event = nullptr;
        routine = "clEnqueueMigrateMemObjects";
        error = clEnqueueMigrateMemObjects(m_queue.get(), 1, &mem, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                           nullptr, &event);
        if (error == CL_SUCCESS) {
            routine = "clWaitForEvents";
            error = clWaitForEvents(1, &event);
            cl_int status = CL_COMPLETE;
            if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr) ==
                    CL_SUCCESS &&
                status < 0)
                error = status;
            clReleaseEvent(event);
        }
    } else {
        // OpenCL 1.0/1.1: a one-byte blocking write is the cheapest way to make the driver commit memory.
        static const unsigned char kByte = 0;
        routine = "clEnqueueWriteBuffer";
        error = clEnqueueWriteBuffer(m_queue.get(), mem, CL_TRUE, 0, 1, &kByte, 0, nullptr, nullptr);
    }
    if (error != CL_SUCCESS) {
        clReleaseMemObject(mem);
        return {nullptr, error, routine};
    }
    return result;
}

// ---- SVM --------------------------------------------------------------------------------------------

bool SvmAllocator::isSupported(cl_device_id device)
{
    // OpenCL 1.x devices reject the query, which is the answer: no SVM.
    cl_device_svm_capabilities caps = 0;
    return clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, nullptr) == CL_SUCCESS &&
           caps != 0;
}

SvmAllocator::SvmAllocator(cl_context context, cl_svm_mem_flags flags)
    : m_flags(flags)
    , m_maxAllocSize(0)
{
    const auto devices = contextDevices(context);
    if (std::none_of(devices.begin(), devices.end(), [](cl_device_id d) { return isSupported(d); }))
        throw ClError("clGetDeviceInfo", CL_INVALID_OPERATION,
                      "no device of the context reports SVM capabilities");
    m_maxAllocSize = smallestMaxAlloc(context);
    m_context = ClContext::retain(context);
}

SvmAllocator::~SvmAllocator() = default;

AllocResult SvmAllocator::allocate(std::size_t size)
{
    // clSVMAlloc gives no error code. Sizes it rejects are told apart first; any other NULL is taken as
    // out of memory, which lets the pool give back held blocks and retry.
    if (size == 0 || (m_maxAllocSize != 0 && size > m_maxAllocSize))
        return {nullptr, CL_INVALID_BUFFER_SIZE, "clSVMAlloc"};
    void *p = clSVMAlloc(m_context.get(), m_flags, size, 0);
    if (!p)
        return {nullptr, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clSVMAlloc"};
    return {p, CL_SUCCESS, nullptr};
}

void SvmAllocator::release(void *handle) noexcept
{
    clSVMFree(m_context.get(), handle);
}

// ---- By kind ----------------------------------------------------------------------------------------

std::string_view allocatorKindName(AllocatorKind kind)
{
    switch (kind) {
    case AllocatorKind::Deferred:
        return "deferred";
    case AllocatorKind::Immediate:
        return "immediate";
    case AllocatorKind::Svm:
        return "svm";
    }
    return {};
}

std::optional<AllocatorKind> parseAllocatorKind(std::string_view name)
{
    for (AllocatorKind kind : {AllocatorKind::Deferred, AllocatorKind::Immediate, AllocatorKind::Svm}) {
        if (name == allocatorKindName(kind))
            return kind;
    }
    return std::nullopt;
}

std::shared_ptr<Allocator> makeAllocator(AllocatorKind kind, cl_context context, cl_command_queue queue)
{
    if (!context && !(kind == AllocatorKind::Immediate && queue))
        throw std::invalid_argument(std::string(allocatorKindName(kind)) + " allocator without a context");
    switch (kind) {
    case AllocatorKind::Deferred:
        return std::make_shared<DeferredAllocator>(context);
    case AllocatorKind::Immediate: {
        if (queue)
            return std::make_shared<ImmediateAllocator>(queue);
        const std::vector<cl_device_id> devices = contextDevices(context);
        if (devices.empty())
            throw ClError("clGetContextInfo", CL_INVALID_CONTEXT, "the context has no device");
        const ClQueue own(createCommandQueue(context, devices.front(), false));
        return std::make_shared<ImmediateAllocator>(own.get()); // which takes a reference of its own
    }
    case AllocatorKind::Svm:
        return std::make_shared<SvmAllocator>(context);
    }
    throw std::invalid_argument("unknown allocator kind");
}

std::shared_ptr<MemoryPool> makePool(AllocatorKind kind, cl_context context, cl_command_queue queue,
                                     PoolOptions options)
{
    return std::make_shared<MemoryPool>(makeAllocator(kind, context, queue), options);
}

} // namespace clscope
