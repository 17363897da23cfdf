// Private to core/src/program: small typed wrappers over clGet*Info for the build code.
#pragma once

#include "clscope/error.h"

#include <CL/cl.h>

#include <string>
#include <vector>

namespace clscope::detail {

// A string parameter without its trailing NULs; empty when the driver rejects the query.
inline std::string deviceString(cl_device_id device, cl_device_info param)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string s(size, '\0');
    if (clGetDeviceInfo(device, param, size, s.data(), nullptr) != CL_SUCCESS)
        return {};
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

inline std::string platformString(cl_platform_id platform, cl_platform_info param)
{
    size_t size = 0;
    if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string s(size, '\0');
    if (clGetPlatformInfo(platform, param, size, s.data(), nullptr) != CL_SUCCESS)
        return {};
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

inline cl_platform_id devicePlatform(cl_device_id device)
{
    cl_platform_id platform = nullptr;
    check(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr), "clGetDeviceInfo",
          "CL_DEVICE_PLATFORM");
    return platform;
}

} // namespace clscope::detail
