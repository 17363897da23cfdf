// Device versions and command queues for every OpenCL version.
#include "clscope/queue.h"

#include "clscope/error.h"

namespace clscope {

std::optional<ClVersion> deviceOpenCLVersion(cl_device_id device)
{
    try {
        return parseOpenCLVersion(deviceInfoString(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION"));
    } catch (const std::runtime_error &) { // ClError, InfoLimitError
        return std::nullopt;
    }
}

cl_command_queue createCommandQueue(cl_context context, cl_device_id device, bool profiling)
{
    cl_int err = CL_SUCCESS;
    const cl_command_queue_properties flags = profiling ? CL_QUEUE_PROFILING_ENABLE : 0;
    const auto version = deviceOpenCLVersion(device);
    if (version && version->major >= 2) {
        const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, flags, 0};
        cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, properties, &err);
        check(err, "clCreateCommandQueueWithProperties");
        return queue;
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    cl_command_queue queue = clCreateCommandQueue(context, device, flags, &err);
#pragma GCC diagnostic pop
    check(err, "clCreateCommandQueue");
    return queue;
}

} // namespace clscope
