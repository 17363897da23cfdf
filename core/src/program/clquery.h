// Private to core/src/program: the platform of a device, for the build code. Strings come from the bounded
// readers of clscope/clquery.h.
#pragma once

#include "clscope/clquery.h"
#include "clscope/error.h"

#include <CL/cl.h>

namespace clscope::detail {

inline cl_platform_id devicePlatform(cl_device_id device)
{
    cl_platform_id platform = nullptr;
    check(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr), "clGetDeviceInfo",
          "CL_DEVICE_PLATFORM");
    return platform;
}

} // namespace clscope::detail
