// The bounded readers of clquery.h.
#include "clscope/clquery.h"

#include "clscope/error.h"

#include <string>

namespace clscope {

std::string limitMessage(std::string_view what, std::size_t reported, std::string_view unit,
                         std::size_t limit)
{
    return "the driver reports " + std::to_string(reported) + " " + std::string(unit) + " for " +
           std::string(what) + ", more than the " + std::to_string(limit) + " CLScope accepts";
}

std::string InfoBytes::text() const
{
    std::string s = bytes;
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

std::string InfoBytes::refusal(std::string_view what) const
{
    return limitMessage(what, reported, "bytes", limit);
}

InfoBytes deviceInfoBytes(cl_device_id device, cl_device_info param, std::size_t limit)
{
    return readInfoBytes([&](std::size_t size, void *value,
                             std::size_t *ret) { return clGetDeviceInfo(device, param, size, value, ret); },
                         limit);
}

InfoBytes platformInfoBytes(cl_platform_id platform, cl_platform_info param, std::size_t limit)
{
    return readInfoBytes(
        [&](std::size_t size, void *value, std::size_t *ret) {
            return clGetPlatformInfo(platform, param, size, value, ret);
        },
        limit, true);
}

std::string deviceString(cl_device_id device, cl_device_info param)
{
    const InfoBytes r = deviceInfoBytes(device, param);
    return r.ok() ? r.text() : std::string();
}

std::string platformString(cl_platform_id platform, cl_platform_info param)
{
    const InfoBytes r = platformInfoBytes(platform, param);
    return r.ok() ? r.text() : std::string();
}

std::string kernelString(cl_kernel kernel, cl_kernel_info param)
{
    const InfoBytes r =
        readInfoBytes([&](std::size_t size, void *value,
                          std::size_t *ret) { return clGetKernelInfo(kernel, param, size, value, ret); },
                      kMaxInfoStringBytes);
    return r.ok() ? r.text() : std::string();
}

std::string buildLog(cl_program program, cl_device_id device)
{
    const InfoBytes r = readInfoBytes(
        [&](std::size_t size, void *value, std::size_t *ret) {
            return clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, value, ret);
        },
        kMaxBuildLogBytes);
    return r.ok() ? r.text() : std::string();
}

std::optional<std::string> kernelArgString(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param)
{
    const InfoBytes r = readInfoBytes(
        [&](std::size_t size, void *value, std::size_t *ret) {
            return clGetKernelArgInfo(kernel, index, param, size, value, ret);
        },
        kMaxInfoStringBytes);
    if (!r.ok())
        return std::nullopt;
    return r.text();
}

std::string deviceInfoString(cl_device_id device, cl_device_info param, const char *name)
{
    const InfoBytes r = deviceInfoBytes(device, param);
    check(r.error, "clGetDeviceInfo", name);
    if (r.tooLarge())
        throw InfoLimitError(r.refusal(name));
    return r.text();
}

std::size_t checkReported(std::size_t reported, std::size_t limit, std::string_view what,
                          std::string_view unit)
{
    if (reported > limit)
        throw InfoLimitError(limitMessage(what, reported, unit, limit));
    return reported;
}

namespace {

// A count first, then the ids: the shape of clGetPlatformIDs and clGetDeviceIDs.
template<typename Id, typename Query>
IdList<Id> readIds(Query &&query, cl_uint limit, std::string_view what, std::string_view unit)
{
    IdList<Id> r;
    r.error = query(0, nullptr, &r.reported);
    if (r.error != CL_SUCCESS || r.reported == 0)
        return r;
    if (r.reported > limit) {
        r.refused = limitMessage(what, r.reported, unit, limit);
        return r;
    }
    r.ids.assign(r.reported, nullptr);
    r.error = query(r.reported, r.ids.data(), nullptr);
    if (r.error != CL_SUCCESS)
        r.ids.clear();
    return r;
}

} // namespace

IdList<cl_platform_id> platformIds()
{
    return readIds<cl_platform_id>(
        [](cl_uint n, cl_platform_id *ids, cl_uint *count) { return clGetPlatformIDs(n, ids, count); },
        kMaxPlatforms, "clGetPlatformIDs", "platforms");
}

IdList<cl_device_id> deviceIds(cl_platform_id platform, cl_device_type type)
{
    return readIds<cl_device_id>(
        [&](cl_uint n, cl_device_id *ids, cl_uint *count) {
            return clGetDeviceIDs(platform, type, n, ids, count);
        },
        kMaxDevices, "clGetDeviceIDs", "devices");
}

std::vector<cl_device_id> contextDevices(cl_context context)
{
    cl_uint count = 0;
    check(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof(count), &count, nullptr),
          "clGetContextInfo", "CL_CONTEXT_NUM_DEVICES");
    std::vector<cl_device_id> devices(checkReported(count, kMaxDevices, "CL_CONTEXT_NUM_DEVICES", "devices"));
    if (count > 0)
        check(clGetContextInfo(context, CL_CONTEXT_DEVICES, count * sizeof(cl_device_id), devices.data(),
                               nullptr),
              "clGetContextInfo", "CL_CONTEXT_DEVICES");
    return devices;
}

} // namespace clscope
