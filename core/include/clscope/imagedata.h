// The host side of image arguments: how an image's pixels are held (a BufferData of its channels), what
// fills an image before the launch (zeros, fill, random, gradient, a PNG or an .npy), and an image read
// back as a PNG or an .npy of shape (H, W, C). No OpenCL calls: the device side is imagerun.h.
#pragma once

#include "clscope/images.h"
#include "clscope/kernelargs.h"
#include "clscope/npy.h"
#include "clscope/png.h"

#include <string_view>
#include <vector>

namespace clscope {

// The numbers of one channel as stored: uchar for UNORM_INT8 and UNSIGNED_INT8, half for HALF_FLOAT...;
// ushort or uint for the packed types (all channels in one word).
ScalarKind channelScalar(cl_channel_type type);
// The element a BufferData of the image holds: one pixel (uchar4 for RGBA/UNORM_INT8, float for
// R/FLOAT, ushort for RGB/UNORM_SHORT_565); for three channels of whole numbers, one channel (a pixel is
// three elements, as it has no padding).
ElementType imageElementType(const ImageFormat &format);
std::size_t imageElementCount(const ImageFormat &format, const ImageShape &shape);
// "RGBA", "BGRA", "I": the channel of each stored position (I intensity, L luminance, D depth).
std::string_view channelLetters(cl_channel_order order);

// The largest stored value of a whole-number or normalized channel type (255 for UNORM_INT8 and
// UNSIGNED_INT8), 1 for floats: a stored value v is v / max of the full range.
double channelMax(cl_channel_type type);

// Checks what can be told before the device is asked: a fill's values, that a file exists and fits the
// image's shape and format. Throws RunInputError naming `what`.
void checkImageInit(const ImageArg &image, std::string_view what);
// The shape of a file initialiser's file (PNG: width x height from its header, nothing inflated; .npy:
// from its shape).
ImageShape imageFileShape(const ImageArg &image, std::string_view what);
// The bytes of the image before the launch, pixel by pixel, rows of width, then height, then depth or
// layers. `image.shape` must be set. A PNG's declared size is held against limits before it is inflated.
// Throws RunInputError naming `what`.
std::vector<unsigned char> initialImage(const ImageArg &image, std::string_view what,
                                        const PngLimits &limits = {});

// A read-back image (BufferData::image set) as a picture: 2-D as it is, 1-D one row, arrays and 3-D
// slices one under the other; 16 bits for channel types wider than 8 bits; BGRA and the others in the
// PNG's RGBA order. Throws PngError for a packed format.
PngImage imageToPng(const BufferData &image);
// As an array: dtype the channel's, shape (H, W, C) for 2-D, (W, C) for 1-D, (L, W, C), (L, H, W, C),
// (D, H, W, C); packed formats without C.
NpyArray imageToNpy(const BufferData &image);

} // namespace clscope
