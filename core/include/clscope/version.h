// OpenCL version values: parsing "OpenCL X.Y ..." strings and decoding cl_version numbers.
#pragma once

#include <CL/cl.h>

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace clscope {

struct ClVersion
{
    int major = 0;
    int minor = 0;
    int patch = 0;

    auto operator<=>(const ClVersion &) const = default;
    // 120 for 1.2, 300 for 3.0: the form the info table uses for minimum versions.
    int asNumber() const { return major * 100 + minor * 10; }
    std::string toString() const; // "3.0.0"
};

// "OpenCL 3.0 PoCL ..." (platform and device CL_*_VERSION). Nothing for anything else.
std::optional<ClVersion> parseOpenCLVersion(std::string_view text);
// "OpenCL C 1.2 PoCL" (CL_DEVICE_OPENCL_C_VERSION).
std::optional<ClVersion> parseOpenCLCVersion(std::string_view text);
// cl_version as packed by CL_MAKE_VERSION (major:10, minor:10, patch:12 bits).
ClVersion decodeVersion(cl_version packed);

} // namespace clscope
