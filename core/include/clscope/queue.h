// What every module that enqueues needs from a device: a string parameter, its OpenCL version, and a
// command queue made with the call that version has (clCreateCommandQueueWithProperties on 2.0 and
// later, the deprecated clCreateCommandQueue on 1.x, which has only that one).
#pragma once

#include "clscope/clquery.h" // deviceInfoString
#include "clscope/version.h"

#include <CL/cl.h>

#include <optional>
#include <string>

namespace clscope {

// CL_DEVICE_VERSION parsed; nothing when the query fails or the text is not "OpenCL X.Y ...".
std::optional<ClVersion> deviceOpenCLVersion(cl_device_id device);
// A new in-order queue, with CL_QUEUE_PROFILING_ENABLE when `profiling`. The caller releases it. Throws
// ClError naming the call that failed.
cl_command_queue createCommandQueue(cl_context context, cl_device_id device, bool profiling);

} // namespace clscope
