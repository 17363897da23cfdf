// Bounded reads of what a driver reports. Every clGet*Info of variable size in core (strings, arrays,
// build logs, binaries) and every count a driver gives (platforms, devices, image formats) goes through
// here: the size is asked first and compared with a limit before anything is allocated, so an absurd
// answer (param_value_size_ret = SIZE_MAX/2, a billion devices) is a clear error for that value, never a
// std::bad_alloc. One "size, then allocate, then value" reader, instead of a copy in every module.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

inline constexpr std::size_t kMaxInfoStringBytes = 64 * 1024; // a name, a version, an extension list
inline constexpr std::size_t kMaxInfoArrayEntries = 4096;     // an array parameter, an image format list
inline constexpr std::size_t kMaxInfoScalarBytes = 64;        // a number, a bitfield, a bool (8 at most)
inline constexpr cl_uint kMaxPlatforms = 1024;                // platforms the loader lists
inline constexpr cl_uint kMaxDevices = 1024;                  // devices of a platform, context or program
inline constexpr std::size_t kMaxKernels = 65536;             // kernels of one program
inline constexpr std::size_t kMaxBuildLogBytes = 64ull << 20; // one device's build log
inline constexpr std::size_t kMaxBinaryBytes = 1ull << 30;    // one device's program binary

// A size or count a driver reported that is over its limit, thrown by the readers that throw:
// "the driver reports 4611686018427387903 bytes for CL_DEVICE_NAME, more than the 65536 CLScope accepts".
class InfoLimitError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// That message: what ("CL_DEVICE_NAME"), the amount the driver reported, its unit ("bytes", "devices").
std::string limitMessage(std::string_view what, std::size_t reported, std::string_view unit,
                         std::size_t limit);

// The answer to one variable-size query: the size the driver reported and, when it is within the limit,
// the value.
struct InfoBytes
{
    cl_int error = CL_SUCCESS; // the driver's answer to the size query or to the read
    std::size_t reported = 0;  // param_value_size_ret
    std::size_t limit = 0;
    std::string bytes; // the value, when ok()

    bool tooLarge() const { return error == CL_SUCCESS && reported > limit; }
    bool ok() const { return error == CL_SUCCESS && reported <= limit; }
    // The bytes without trailing NULs: the text of a string parameter.
    std::string text() const;
    // limitMessage for this answer, naming `what`.
    std::string refusal(std::string_view what) const;
};

// query(size, value, size_ret) is one clGet*Info call with its object and parameter bound. The value is
// read only when the driver's size is within `limit`.
// `readEmpty`: after a size of 0, ask for the (empty) value all the same and keep the driver's answer, as
// clinfo does for platform parameters: NVIDIA's driver answers 0 bytes for
// CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, then CL_INVALID_VALUE for the value.
template<typename Query> InfoBytes readInfoBytes(Query &&query, std::size_t limit, bool readEmpty = false)
{
    InfoBytes r;
    r.limit = limit;
    r.error = query(0, nullptr, &r.reported);
    if (r.error == CL_SUCCESS && r.reported == 0 && readEmpty) {
        char none = 0;
        r.error = query(0, &none, nullptr);
        return r;
    }
    if (r.error != CL_SUCCESS || r.reported > limit || r.reported == 0)
        return r;
    r.bytes.assign(r.reported, '\0');
    r.error = query(r.reported, r.bytes.data(), nullptr);
    if (r.error != CL_SUCCESS)
        r.bytes.clear();
    return r;
}

InfoBytes deviceInfoBytes(cl_device_id device, cl_device_info param, std::size_t limit = kMaxInfoStringBytes);
InfoBytes platformInfoBytes(cl_platform_id platform, cl_platform_info param,
                            std::size_t limit = kMaxInfoStringBytes);

// String parameters without their trailing NULs; "" when the driver rejects the query or reports more
// than kMaxInfoStringBytes (build logs: kMaxBuildLogBytes).
std::string deviceString(cl_device_id device, cl_device_info param);
std::string platformString(cl_platform_id platform, cl_platform_info param);
std::string kernelString(cl_kernel kernel, cl_kernel_info param);
std::string buildLog(cl_program program, cl_device_id device);
// nullopt when the driver rejects the query or its size is over the limit (an argument without arg info).
std::optional<std::string> kernelArgString(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param);

// A string parameter of a device that must be there: throws ClError naming `name` when the driver rejects
// the query, InfoLimitError when its size is over kMaxInfoStringBytes.
std::string deviceInfoString(cl_device_id device, cl_device_info param, const char *name);

// Throws InfoLimitError (limitMessage) when `reported` is over `limit`; returns it.
std::size_t checkReported(std::size_t reported, std::size_t limit, std::string_view what,
                          std::string_view unit);

// clGetPlatformIDs and clGetDeviceIDs with the count bounded: `error` is the driver's answer
// (CL_PLATFORM_NOT_FOUND_KHR or CL_DEVICE_NOT_FOUND when there are none); a count over the limit leaves
// `ids` empty and says why in `refused`.
template<typename Id> struct IdList
{
    cl_int error = CL_SUCCESS;
    cl_uint reported = 0;
    std::vector<Id> ids;
    std::string refused;
};
IdList<cl_platform_id> platformIds();
IdList<cl_device_id> deviceIds(cl_platform_id platform, cl_device_type type = CL_DEVICE_TYPE_ALL);

// The devices of a context (CL_CONTEXT_NUM_DEVICES bounded by kMaxDevices). Throws ClError or
// InfoLimitError.
std::vector<cl_device_id> contextDevices(cl_context context);

} // namespace clscope
