// Private to core/src/run: the device side of image and sampler arguments for runKernel. Every refusal is
// a RunInputError naming the argument: a device without images, a format the device lacks for the
// kernel's access (listing the ones it has), a size past the device's image limits.
#pragma once

#include "clscope/clhandle.h"
#include "clscope/kernelargs.h"
#include "clscope/png.h"

namespace clscope::detail {

struct DeviceImage
{
    ClMem buffer; // the buffer under an image1d_buffer: released after the image made from it
    ClMem image;
};

// The formats the context supports for an image type and memory flags, in the driver's order.
std::vector<ImageFormat> supportedImageFormats(cl_context context, cl_mem_flags flags,
                                               cl_mem_object_type type);

// The image's size against the device's image limits (CL_DEVICE_IMAGE2D_MAX_WIDTH...): checked before
// host memory is spent on its contents, and again by createImage.
void checkImageLimits(const BoundArg &arg, cl_device_id device);
// What a PNG for an image of this device may declare: the device's image2d sides, and at most
// maxMemAllocBytes (0: not known) times the 8 bytes a decoded pixel may take per byte of the image.
PngLimits pngLimits(cl_device_id device, std::uint64_t maxMemAllocBytes);
DeviceImage createImage(cl_context context, cl_device_id device, const BoundArg &arg);
ClSampler createSampler(cl_context context, cl_device_id device, const BoundArg &arg);

// Enqueues the write of an image's whole contents (bytes as imagedata.h's initialImage makes them).
cl_event writeImage(cl_command_queue queue, const BoundArg &arg, cl_mem image, const unsigned char *bytes);
// Enqueues the read of an image's whole contents into `bytes` (arg.bufferBytes() of them).
cl_event readImage(cl_command_queue queue, const BoundArg &arg, cl_mem image, unsigned char *bytes);

} // namespace clscope::detail
