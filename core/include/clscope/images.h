// Image and sampler arguments of a kernel run (issue 14): the `--arg` forms
// `img=image2d:RGBA:UNORM_INT8:512x512:INIT` and `s=sampler:normalized,clamp_to_edge,linear`, image formats
// by the names the CL_* macros use without their prefix, shapes per image type, and what a sampler is.
// Pure (no OpenCL calls): the device's side (supported formats, creation, reads) is imagerun.h.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// The image types of OpenCL C: image1d_t, image1d_buffer_t, image1d_array_t, image2d_t, image2d_array_t,
// image3d_t.
enum class ImageDim { Image1D, Image1DBuffer, Image1DArray, Image2D, Image2DArray, Image3D };

std::string_view imageDimName(ImageDim dim); // "image2d", "image1d_buffer"
// "image2d" or "image2d_t" (the kernel's type name); nothing for anything else.
std::optional<ImageDim> parseImageDim(std::string_view name);
cl_mem_object_type imageObjectType(ImageDim dim); // CL_MEM_OBJECT_IMAGE2D...
// "W", "WxL", "WxH", "WxHxL", "WxHxD": how the size of such an image is written.
std::string_view imageSizeForm(ImageDim dim);

struct ImageFormat
{
    cl_channel_order order = CL_RGBA;
    cl_channel_type type = CL_UNORM_INT8;

    bool operator==(const ImageFormat &) const = default;
};

// "RGBA", "BGRA", "R", "sRGBA"... and "UNORM_INT8", "FLOAT", "HALF_FLOAT"...: the CL_* names without the
// prefix (the prefix is accepted too, and case does not matter). Nothing for an unknown name.
std::optional<cl_channel_order> parseChannelOrder(std::string_view name);
std::optional<cl_channel_type> parseChannelType(std::string_view name);
std::string channelOrderText(cl_channel_order order); // "RGBA"
std::string channelTypeText(cl_channel_type type);    // "UNORM_INT8"
std::string formatText(const ImageFormat &format);    // "RGBA/UNORM_INT8"
std::string channelOrderNames();                      // "R, A, RG, ..." for messages
std::string channelTypeNames();

int channelCount(cl_channel_order order); // 1 for R, 4 for RGBA; 0 for an order CLScope does not read
// UNORM_SHORT_565/555 and UNORM_INT_101010(_2): all channels in one 16- or 32-bit word.
bool isPackedType(cl_channel_type type);
bool isNormalizedType(cl_channel_type type); // UNORM_*/SNORM_*: read as floats in [0, 1] or [-1, 1]
bool isFloatType(cl_channel_type type);      // FLOAT, HALF_FLOAT
// Bytes per pixel; 0 for a combination CLScope does not read (a packed type with more than the one order
// it packs, an unknown name).
std::size_t pixelSize(const ImageFormat &format);

// Width, height, depth and array size; the ones an image type does not have stay 1.
struct ImageShape
{
    std::size_t width = 1;
    std::size_t height = 1;
    std::size_t depth = 1;
    std::size_t layers = 1; // image arrays

    std::size_t pixels() const { return width * height * depth * layers; }
    bool operator==(const ImageShape &) const = default;
};

// The size as imageSizeForm(dim) writes it ("512x512"); throws RunInputError naming `what`.
ImageShape parseImageShape(std::string_view text, ImageDim dim, std::string_view what);
std::string formatImageShape(const ImageShape &shape, ImageDim dim);
// The region of clEnqueueWriteImage/ReadImage: width, then height or layers, then depth or layers.
std::vector<std::size_t> imageRegion(const ImageShape &shape, ImageDim dim);
// How many sizes an image type has (the parts of imageSizeForm: 1 for image1d, 3 for image2d_array), and
// the shape from those sizes in imageRegion's order (width first).
std::size_t imageSizeCount(ImageDim dim);
ImageShape imageShapeFromSizes(const std::vector<std::size_t> &sizes, ImageDim dim);

// What a read-back image is: BufferData::image.
struct ImageInfo
{
    ImageDim dim = ImageDim::Image2D;
    ImageFormat format;
    ImageShape shape;

    bool operator==(const ImageInfo &) const = default;
};

enum class ImageInitKind { Zeros, Fill, Random, Gradient, File };

// How an image is filled before the launch. Fill values are the stored channel values (0..255 for
// UNORM_INT8, floats for FLOAT), one for every channel or one per channel.
struct ImageInit
{
    ImageInitKind kind = ImageInitKind::Zeros;
    std::string fill;       // Fill: "255" or "255,0,0,255"
    std::uint64_t seed = 0; // Random: std::mt19937_64, every stored value of the type's range (floats 0..1)
    std::string path;       // File: PNG, or .npy of shape (H, W, C), (W, C), (D, H, W, C)...

    bool operator==(const ImageInit &) const = default;
};

// `zeros`, `fill=V[,V...]`, `random[=SEED]`, `gradient`, `file=PATH`. Throws RunInputError naming `what`.
ImageInit parseImageInit(std::string_view text, std::string_view what);
std::string toString(const ImageInit &init);

// `image2d:RGBA:UNORM_INT8:512x512[:INIT]`; with a file the size may be left out
// (`image2d:RGBA:UNORM_INT8:file=in.png`): the file's size is the image's.
struct ImageArg
{
    ImageDim dim = ImageDim::Image2D;
    ImageFormat format;
    std::optional<ImageShape> shape; // none: from the file
    ImageInit init;

    bool operator==(const ImageArg &) const = default;
};

enum class SamplerAddressing { None, ClampToEdge, Clamp, Repeat, MirroredRepeat };
std::string_view addressingName(SamplerAddressing a); // "none", "clamp_to_edge", "clamp", "repeat"...
cl_addressing_mode addressingMode(SamplerAddressing a);

// `sampler:normalized,clamp_to_edge,linear`: words in any order; left out: unnormalized, clamp_to_edge,
// nearest (the sampler most image filters declare).
struct SamplerArg
{
    bool normalized = false;
    SamplerAddressing addressing = SamplerAddressing::ClampToEdge;
    bool linear = false;

    bool operator==(const SamplerArg &) const = default;
};

// Throws RunInputError naming `what`: an unknown word, two of a kind, repeat or mirrored_repeat without
// normalized coordinates (OpenCL leaves that undefined).
SamplerArg parseSamplerSpec(std::string_view text, std::string_view what);
std::string toString(const SamplerArg &sampler); // "normalized,repeat,linear"

// The image part after `NAME=`: "image2d:RGBA:UNORM_INT8:64x64:gradient". Throws RunInputError naming
// `what`.
ImageArg parseImageSpec(std::string_view kind, std::string_view rest, std::string_view what);
std::string toString(const ImageArg &image); // the spec form after NAME=

} // namespace clscope
