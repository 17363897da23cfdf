// Images and samplers on the device (imagerun.h): support, formats and limits checked by name before
// anything is created.
#include "imagerun.h"

#include "clscope/queue.h"

#include "runinternal.h"

#include <algorithm>

namespace clscope::detail {
namespace {

template<typename T> T deviceValue(cl_device_id device, cl_device_info param)
{
    T value{};
    if (clGetDeviceInfo(device, param, sizeof value, &value, nullptr) != CL_SUCCESS)
        return T{};
    return value;
}

cl_mem_flags accessFlags(AccessQualifier access)
{
    switch (access) {
    case AccessQualifier::WriteOnly:
        return CL_MEM_WRITE_ONLY;
    case AccessQualifier::ReadWrite:
        return CL_MEM_READ_WRITE;
    default:
        return CL_MEM_READ_ONLY;
    }
}

// The format query for an access: read_write images need CL_MEM_KERNEL_READ_AND_WRITE formats.
cl_mem_flags formatQueryFlags(AccessQualifier access)
{
    return access == AccessQualifier::ReadWrite ? CL_MEM_KERNEL_READ_AND_WRITE : accessFlags(access);
}

void checkLimit(const BoundArg &arg, const char *what, std::size_t value, cl_device_info param,
                const char *paramName, cl_device_id device)
{
    const std::size_t limit = deviceValue<std::size_t>(device, param);
    if (limit != 0 && value > limit)
        failArgument(arg.name, "image " + std::string(what) + " " + std::to_string(value) + " exceeds " +
                                   paramName + " (" + std::to_string(limit) + ")");
}

void checkLimits(const BoundArg &arg, cl_device_id device)
{
    const ImageShape &s = *arg.image.shape;
    switch (arg.image.dim) {
    case ImageDim::Image1D:
    case ImageDim::Image1DArray:
    case ImageDim::Image2D:
    case ImageDim::Image2DArray:
        checkLimit(arg, "width", s.width, CL_DEVICE_IMAGE2D_MAX_WIDTH, "CL_DEVICE_IMAGE2D_MAX_WIDTH", device);
        checkLimit(arg, "height", s.height, CL_DEVICE_IMAGE2D_MAX_HEIGHT, "CL_DEVICE_IMAGE2D_MAX_HEIGHT",
                   device);
        break;
    case ImageDim::Image1DBuffer:
        checkLimit(arg, "width", s.width, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE",
                   device);
        break;
    case ImageDim::Image3D:
        checkLimit(arg, "width", s.width, CL_DEVICE_IMAGE3D_MAX_WIDTH, "CL_DEVICE_IMAGE3D_MAX_WIDTH", device);
        checkLimit(arg, "height", s.height, CL_DEVICE_IMAGE3D_MAX_HEIGHT, "CL_DEVICE_IMAGE3D_MAX_HEIGHT",
                   device);
        checkLimit(arg, "depth", s.depth, CL_DEVICE_IMAGE3D_MAX_DEPTH, "CL_DEVICE_IMAGE3D_MAX_DEPTH", device);
        break;
    }
    if (arg.image.dim == ImageDim::Image1DArray || arg.image.dim == ImageDim::Image2DArray)
        checkLimit(arg, "array size", s.layers, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
                   "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE", device);
}

} // namespace

void checkImageLimits(const BoundArg &arg, cl_device_id device)
{
    checkLimits(arg, device);
}

PngLimits pngLimits(cl_device_id device, std::uint64_t maxMemAllocBytes)
{
    PngLimits limits;
    if (const auto w = deviceValue<std::size_t>(device, CL_DEVICE_IMAGE2D_MAX_WIDTH); w != 0)
        limits.maxWidth = std::min(limits.maxWidth, w);
    if (const auto h = deviceValue<std::size_t>(device, CL_DEVICE_IMAGE2D_MAX_HEIGHT); h != 0)
        limits.maxHeight = std::min(limits.maxHeight, h);
    if (maxMemAllocBytes != 0 && maxMemAllocBytes < (UINT64_MAX >> 3))
        limits.maxBytes = maxMemAllocBytes * 8;
    limits.origin = "the device's CL_DEVICE_IMAGE2D_MAX_WIDTH, _HEIGHT and CL_DEVICE_MAX_MEM_ALLOC_SIZE";
    return limits;
}

std::vector<ImageFormat> supportedImageFormats(cl_context context, cl_mem_flags flags,
                                               cl_mem_object_type type)
{
    cl_uint count = 0;
    if (clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count) != CL_SUCCESS || count == 0)
        return {};
    std::vector<cl_image_format> formats(std::min<cl_uint>(count, 4096));
    if (clGetSupportedImageFormats(context, flags, type, cl_uint(formats.size()), formats.data(), nullptr) !=
        CL_SUCCESS)
        return {};
    std::vector<ImageFormat> out;
    for (const cl_image_format &f : formats)
        out.push_back({f.image_channel_order, f.image_channel_data_type});
    return out;
}

DeviceImage createImage(cl_context context, cl_device_id device, const BoundArg &arg)
{
    if (!deviceValue<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT))
        failArgument(arg.name, "the device has no image support (CL_DEVICE_IMAGE_SUPPORT is false)");
    const cl_mem_object_type type = imageObjectType(arg.image.dim);
    const std::vector<ImageFormat> formats =
        supportedImageFormats(context, formatQueryFlags(arg.access), type);
    if (std::find(formats.begin(), formats.end(), arg.image.format) == formats.end()) {
        std::string has;
        for (const ImageFormat &f : formats)
            has += (has.empty() ? "" : ", ") + formatText(f);
        failArgument(arg.name, "the device has no " + formatText(arg.image.format) + " " +
                                   std::string(imageDimName(arg.image.dim)) + " for " +
                                   std::string(accessQualifierName(arg.access)) + " access; it has " +
                                   (has.empty() ? std::string("none") : has));
    }
    checkLimits(arg, device);
    const ImageShape &s = *arg.image.shape;
    DeviceImage out;
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = s.width;
    desc.image_height = arg.image.dim == ImageDim::Image2D || arg.image.dim == ImageDim::Image2DArray ||
                                arg.image.dim == ImageDim::Image3D
                            ? s.height
                            : 0;
    desc.image_depth = arg.image.dim == ImageDim::Image3D ? s.depth : 0;
    desc.image_array_size =
        arg.image.dim == ImageDim::Image1DArray || arg.image.dim == ImageDim::Image2DArray ? s.layers : 0;
    cl_int err = CL_SUCCESS;
    if (arg.image.dim == ImageDim::Image1DBuffer) {
        out.buffer =
            ClMem(clCreateBuffer(context, accessFlags(arg.access), arg.bufferBytes(), nullptr, &err));
        check(err, ("clCreateBuffer(" + arg.name + ")").c_str());
        desc.buffer = out.buffer.get();
    }
    const cl_image_format format{arg.image.format.order, arg.image.format.type};
    out.image = ClMem(clCreateImage(context, accessFlags(arg.access), &format, &desc, nullptr, &err));
    check(err, ("clCreateImage(" + arg.name + ")").c_str(),
          formatText(arg.image.format) + " " + formatImageShape(s, arg.image.dim));
    return out;
}

ClSampler createSampler(cl_context context, cl_device_id device, const BoundArg &arg)
{
    if (!deviceValue<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT))
        failArgument(arg.name, "the device has no image support (CL_DEVICE_IMAGE_SUPPORT is false)");
    const SamplerArg &s = arg.sampler;
    cl_int err = CL_SUCCESS;
    cl_sampler sampler = nullptr;
    const auto version = deviceOpenCLVersion(device);
    if (version && version->major >= 2) {
        const cl_sampler_properties properties[] = {
            CL_SAMPLER_NORMALIZED_COORDS,
            cl_sampler_properties(s.normalized ? CL_TRUE : CL_FALSE),
            CL_SAMPLER_ADDRESSING_MODE,
            cl_sampler_properties(addressingMode(s.addressing)),
            CL_SAMPLER_FILTER_MODE,
            cl_sampler_properties(s.linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST),
            0};
        sampler = clCreateSamplerWithProperties(context, properties, &err);
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        sampler = clCreateSampler(context, s.normalized ? CL_TRUE : CL_FALSE, addressingMode(s.addressing),
                                  s.linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
#pragma GCC diagnostic pop
    }
    check(err, ("clCreateSampler(" + arg.name + ")").c_str(), toString(s));
    return ClSampler(sampler);
}

cl_event writeImage(cl_command_queue queue, const BoundArg &arg, cl_mem image, const unsigned char *bytes)
{
    const std::vector<std::size_t> region = imageRegion(*arg.image.shape, arg.image.dim);
    const std::size_t origin[3] = {0, 0, 0};
    cl_event event = nullptr;
    check(clEnqueueWriteImage(queue, image, CL_FALSE, origin, region.data(), 0, 0, bytes, 0, nullptr, &event),
          ("clEnqueueWriteImage(" + arg.name + ")").c_str());
    return event;
}

cl_event readImage(cl_command_queue queue, const BoundArg &arg, cl_mem image, unsigned char *bytes)
{
    const std::vector<std::size_t> region = imageRegion(*arg.image.shape, arg.image.dim);
    const std::size_t origin[3] = {0, 0, 0};
    cl_event event = nullptr;
    check(clEnqueueReadImage(queue, image, CL_FALSE, origin, region.data(), 0, 0, bytes, 0, nullptr, &event),
          ("clEnqueueReadImage(" + arg.name + ")").c_str());
    return event;
}

} // namespace clscope::detail
