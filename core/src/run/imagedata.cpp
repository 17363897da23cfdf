// Image contents on the host (imagedata.h): element types per format, the initialisers, PNG and .npy in
// and out.
#include "clscope/imagedata.h"

#include "clscope/fileio.h"
#include "clscope/text.h"

#include "runinternal.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

namespace clscope {
namespace {

using detail::failArgument;

std::size_t channelsStored(const ImageFormat &format)
{
    return isPackedType(format.type) ? 1 : std::size_t(channelCount(format.order));
}

bool isSignedChannel(cl_channel_type type)
{
    return isSignedInteger(channelScalar(type));
}

Number storedFromUnit(double x, cl_channel_type type)
{
    if (isFloatType(type))
        return x;
    const double v = std::round(std::clamp(x, isSignedChannel(type) ? -1.0 : 0.0, 1.0) * channelMax(type));
    if (isSignedChannel(type))
        return std::int64_t(v);
    return std::uint64_t(v);
}

double unitFromStored(const Number &n, cl_channel_type type)
{
    return std::clamp(toDouble(n) / channelMax(type), 0.0, 1.0);
}

// The first bytes of an initialiser's file: its kind (PNG or .npy) and a PNG's size, without reading on.
std::string fileHead(const ImageArg &image, std::string_view what, std::size_t bytes)
{
    try {
        return RegularFile(image.init.path).readAt(0, bytes);
    } catch (const FileError &e) {
        failArgument(what, e.what());
    }
}

bool isPngFile(const ImageArg &image, std::string_view what)
{
    return looksLikePng(fileHead(image, what, 8));
}

std::string readInitFile(const ImageArg &image, std::string_view what)
{
    try {
        return readRegularFile(image.init.path, kMaxDataFileBytes);
    } catch (const FileError &e) {
        failArgument(what, e.what());
    }
}

PngImage readPng(const ImageArg &image, std::string_view what, const PngLimits &limits)
{
    try {
        return decodePng(readInitFile(image, what), limits);
    } catch (const PngError &e) {
        failArgument(what, image.init.path + ": " + e.what());
    }
}

NpyArray readNpy(const ImageArg &image, std::string_view what)
{
    try {
        return parseNpy(readInitFile(image, what));
    } catch (const NpyError &e) {
        failArgument(what, image.init.path + ": " + e.what());
    }
}

// The .npy shape of an image: (H, W, C) and the like, outermost first, without C for packed formats.
std::vector<std::size_t> npyShape(ImageDim dim, const ImageShape &s, const ImageFormat &format)
{
    const std::vector<std::size_t> region = imageRegion(s, dim);
    std::vector<std::size_t> shape(region.rbegin() + std::ptrdiff_t(region.size() - imageSizeCount(dim)),
                                   region.rend());
    if (!isPackedType(format.type))
        shape.push_back(channelsStored(format));
    return shape;
}

using detail::shapeText;

// The image's shape from an array's shape (C may be left out when there is one channel).
std::optional<ImageShape> shapeFromNpy(std::vector<std::size_t> shape, const ImageArg &image)
{
    const std::size_t channels = channelsStored(image.format);
    const std::size_t spatial = imageSizeCount(image.dim);
    if (shape.size() == spatial + 1 && !isPackedType(image.format.type)) {
        if (shape.back() != channels)
            return std::nullopt;
        shape.pop_back();
    } else if (!(shape.size() == spatial && channels == 1)) {
        return std::nullopt;
    }
    const ImageShape s =
        imageShapeFromSizes(std::vector<std::size_t>(shape.rbegin(), shape.rend()), image.dim);
    if (s.pixels() == 0)
        return std::nullopt;
    return s;
}

// A PNG pixel's value for one channel letter, in [0, 1].
double pngChannel(const PngImage &png, std::size_t pixel, char letter)
{
    const std::uint16_t *p = png.samples.data() + pixel * std::size_t(png.channels);
    const double max = png.maxSample();
    const bool colour = png.channels >= 3;
    switch (letter) {
    case 'R':
        return p[0] / max;
    case 'G':
        return (colour ? p[1] : p[0]) / max;
    case 'B':
        return (colour ? p[2] : p[0]) / max;
    case 'A':
        return png.channels == 2 || png.channels == 4 ? p[png.channels - 1] / max : 1.0;
    default: // I, L, D: grey, or the luma of a colour picture
        return colour ? (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) / max : p[0] / max;
    }
}

void refusePacked(const ImageArg &image, std::string_view what, const char *use)
{
    if (isPackedType(image.format.type))
        failArgument(what, std::string(use) + " needs whole channels; " + formatText(image.format) +
                               " packs them in one word (use zeros, fill=WORD, random or an .npy)");
}

void checkPngFits(const ImageArg &image, std::string_view what)
{
    refusePacked(image, what, "a PNG file");
    if (image.dim != ImageDim::Image2D)
        failArgument(what, "a PNG file fills an image2d; an " + std::string(imageDimName(image.dim)) +
                               " takes an .npy");
}

} // namespace

ScalarKind channelScalar(cl_channel_type type)
{
    switch (type) {
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
        return ScalarKind::Char;
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8:
        return ScalarKind::UChar;
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16:
        return ScalarKind::Short;
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16:
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
        return ScalarKind::UShort;
    case CL_SIGNED_INT32:
        return ScalarKind::Int;
    case CL_HALF_FLOAT:
        return ScalarKind::Half;
    case CL_FLOAT:
        return ScalarKind::Float;
    default: // UNSIGNED_INT32, UNORM_INT24, UNORM_INT_101010(_2)
        return ScalarKind::UInt;
    }
}

ElementType imageElementType(const ImageFormat &format)
{
    const std::size_t channels = channelsStored(format);
    return {channelScalar(format.type), channels == 3 ? 1 : int(channels), 0, false};
}

std::size_t imageElementCount(const ImageFormat &format, const ImageShape &shape)
{
    return shape.pixels() * (channelsStored(format) == 3 ? 3 : 1);
}

std::string_view channelLetters(cl_channel_order order)
{
    switch (order) {
    case CL_R:
    case CL_Rx:
        return "R";
    case CL_A:
        return "A";
    case CL_INTENSITY:
        return "I";
    case CL_LUMINANCE:
        return "L";
    case CL_DEPTH:
        return "D";
    case CL_RG:
    case CL_RGx:
        return "RG";
    case CL_RA:
        return "RA";
    case CL_RGB:
    case CL_RGBx:
    case CL_sRGB:
    case CL_sRGBx:
        return "RGB";
    case CL_BGRA:
    case CL_sBGRA:
        return "BGRA";
    case CL_ARGB:
        return "ARGB";
    case CL_ABGR:
        return "ABGR";
    default:
        return "RGBA";
    }
}

double channelMax(cl_channel_type type)
{
    switch (type) {
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
        return 127;
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8:
        return 255;
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16:
        return 32767;
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16:
        return 65535;
    case CL_UNORM_INT24:
        return 16777215;
    case CL_SIGNED_INT32:
        return 2147483647.0;
    case CL_UNSIGNED_INT32:
        return 4294967295.0;
    default:
        return 1;
    }
}

void checkImageInit(const ImageArg &image, std::string_view what)
{
    const ScalarKind kind = channelScalar(image.format.type);
    switch (image.init.kind) {
    case ImageInitKind::Zeros:
    case ImageInitKind::Random:
        break;
    case ImageInitKind::Gradient:
        refusePacked(image, what, "a gradient");
        break;
    case ImageInitKind::Fill: {
        const std::vector<std::string_view> values = splitOn(image.init.fill, ',');
        const std::size_t channels = channelsStored(image.format);
        if (values.size() != 1 && values.size() != channels)
            failArgument(what, "fill of " + formatText(image.format) + " takes one value or " +
                                   std::to_string(channels) + " (one per channel), got " +
                                   std::to_string(values.size()));
        for (std::string_view v : values)
            parseNumber(trimBlanks(v), kind, what);
        break;
    }
    case ImageInitKind::File: {
        if (const std::string problem = detail::initFileProblem(image.init.path); !problem.empty())
            failArgument(what, problem);
        const ImageShape fileShape = imageFileShape(image, what);
        if (image.shape && *image.shape != fileShape)
            failArgument(what, "file '" + image.init.path + "' is " + formatImageShape(fileShape, image.dim) +
                                   ", the image " + formatImageShape(*image.shape, image.dim));
        break;
    }
    }
}

ImageShape imageFileShape(const ImageArg &image, std::string_view what)
{
    if (isPngFile(image, what)) {
        checkPngFits(image, what);
        // The header's size only: the pixels are inflated once the device has said the image fits.
        PngImage png;
        try {
            png = pngHeader(fileHead(image, what, 33));
        } catch (const PngError &e) {
            failArgument(what, image.init.path + ": " + e.what());
        }
        ImageShape s;
        s.width = png.width;
        s.height = png.height;
        return s;
    }
    const NpyArray array = readNpy(image, what);
    const std::vector<std::size_t> wanted = npyShape(image.dim, ImageShape{}, image.format);
    if (array.complex || !array.fields.empty() || array.dtype != channelScalar(image.format.type))
        failArgument(what, image.init.path + ": dtype " + array.descr() + " does not match " +
                               formatText(image.format) + " (" +
                               npyDescr(channelScalar(image.format.type)).value_or("?") + ")");
    const auto shape = shapeFromNpy(array.shape, image);
    if (!shape)
        failArgument(what, image.init.path + ": shape " + shapeText(array.shape) + " is not one of an " +
                               std::string(imageDimName(image.dim)) + " of " + formatText(image.format) +
                               " (" + std::to_string(wanted.size()) + " dimensions, the last " +
                               std::to_string(channelsStored(image.format)) + ")");
    return *shape;
}

std::vector<unsigned char> initialImage(const ImageArg &image, std::string_view what, const PngLimits &limits)
{
    const ImageShape shape = image.shape.value_or(ImageShape{});
    const ElementType element = imageElementType(image.format);
    const ScalarKind kind = element.scalar;
    const std::size_t componentSize = scalarSize(kind);
    const std::size_t channels = channelsStored(image.format);
    const std::size_t values = shape.pixels() * channels;
    std::vector<unsigned char> bytes(values * componentSize, 0);
    const auto put = [&](std::size_t index, const Number &n) {
        encodeNumber(n, kind, bytes.data() + index * componentSize, what);
    };
    switch (image.init.kind) {
    case ImageInitKind::Zeros:
        break;
    case ImageInitKind::Fill: {
        std::vector<Number> fill;
        for (std::string_view v : splitOn(image.init.fill, ','))
            fill.push_back(parseNumber(trimBlanks(v), kind, what));
        for (std::size_t i = 0; i < values; ++i)
            put(i, fill[fill.size() == 1 ? 0 : i % channels]);
        break;
    }
    case ImageInitKind::Random: {
        std::mt19937_64 random(image.init.seed);
        const double max = isPackedType(image.format.type)
                               ? (image.format.type == CL_UNORM_INT_101010 ? 1073741823.0 : 65535.0)
                               : channelMax(image.format.type);
        for (std::size_t i = 0; i < values; ++i) {
            if (isFloatType(image.format.type)) {
                put(i, std::uniform_real_distribution<double>(0.0, 1.0)(random));
            } else if (isSignedInteger(kind)) {
                // SNORM's lowest value reads as -1.0 like the one above it: left out, so that a value
                // read and written back stays what it was.
                const std::int64_t low = -std::int64_t(max) - (isNormalizedType(image.format.type) ? 0 : 1);
                put(i, std::uniform_int_distribution<std::int64_t>(low, std::int64_t(max))(random));
            } else {
                put(i, std::uniform_int_distribution<std::uint64_t>(0, std::uint64_t(max))(random));
            }
        }
        break;
    }
    case ImageInitKind::Gradient: {
        refusePacked(image, what, "a gradient");
        const std::vector<std::size_t> region = imageRegion(shape, image.dim);
        const std::string_view letters = channelLetters(image.format.order);
        const auto unit = [](std::size_t i, std::size_t n) {
            return n > 1 ? double(i) / double(n - 1) : 0.0;
        };
        std::size_t at = 0;
        for (std::size_t z = 0; z < region[2]; ++z) {
            for (std::size_t y = 0; y < region[1]; ++y) {
                for (std::size_t x = 0; x < region[0]; ++x) {
                    const double r = unit(x, region[0]), g = unit(y, region[1]);
                    const double b = region[2] > 1 ? unit(z, region[2]) : 0.5;
                    for (char c : letters) {
                        const double v = c == 'R'   ? r
                                         : c == 'G' ? g
                                         : c == 'B' ? b
                                         : c == 'A' ? 1.0
                                                    : (r + g) / 2;
                        put(at++, storedFromUnit(v, image.format.type));
                    }
                }
            }
        }
        break;
    }
    case ImageInitKind::File: {
        if (isPngFile(image, what)) {
            checkPngFits(image, what);
            const PngImage png = readPng(image, what, limits);
            if (png.width != shape.width || png.height != shape.height)
                failArgument(what, "file '" + image.init.path + "' is " + std::to_string(png.width) + "x" +
                                       std::to_string(png.height) + ", the image " +
                                       formatImageShape(shape, image.dim));
            const std::string_view letters = channelLetters(image.format.order);
            std::size_t at = 0;
            for (std::size_t p = 0; p < shape.pixels(); ++p) {
                for (char c : letters)
                    put(at++, storedFromUnit(pngChannel(png, p, c), image.format.type));
            }
            break;
        }
        const NpyArray array = readNpy(image, what);
        if (shapeFromNpy(array.shape, image) != shape || array.dtype != kind || array.complex ||
            array.data.size() != bytes.size())
            imageFileShape(image, what); // names what differs
        if (array.data.size() != bytes.size())
            failArgument(what, "file '" + image.init.path + "' does not hold " +
                                   formatImageShape(shape, image.dim) + " pixels of " +
                                   formatText(image.format));
        bytes = array.data;
        break;
    }
    }
    return bytes;
}

PngImage imageToPng(const BufferData &image)
{
    if (!image.image)
        throw PngError(image.name + " is not an image");
    const ImageInfo &info = *image.image;
    if (isPackedType(info.format.type))
        throw PngError(formatText(info.format) + " packs its channels in one word; save it as .npy");
    const std::vector<std::size_t> region = imageRegion(info.shape, info.dim);
    const std::string_view letters = channelLetters(info.format.order);
    const auto find = [&](char c) { return letters.find(c); };
    PngImage png;
    png.width = region[0];
    png.height = region[1] * region[2];
    const bool colour = find('R') != std::string_view::npos && find('G') != std::string_view::npos;
    const bool alpha = find('A') != std::string_view::npos && letters.size() > 1;
    png.channels = (colour ? 3 : 1) + (alpha ? 1 : 0);
    png.bitDepth = scalarSize(channelScalar(info.format.type)) > 1 ? 16 : 8;
    const double max = png.maxSample();
    const std::size_t channels = letters.size();
    png.samples.reserve(png.width * png.height * std::size_t(png.channels));
    const auto sample = [&](std::size_t pixel, char c) -> std::uint16_t {
        const std::size_t at = find(c);
        if (at == std::string_view::npos)
            return 0; // B of an RG image
        const double unit = unitFromStored(image.number(pixel * channels + at), info.format.type);
        return std::uint16_t(std::lround(unit * max));
    };
    const char grey = letters.size() == 1 ? letters[0] : letters[0] == 'A' ? letters[1] : letters[0];
    for (std::size_t p = 0; p < png.width * png.height; ++p) {
        if (colour) {
            for (char c : {'R', 'G', 'B'})
                png.samples.push_back(sample(p, c));
        } else {
            png.samples.push_back(sample(p, grey));
        }
        if (alpha)
            png.samples.push_back(sample(p, 'A'));
    }
    return png;
}

NpyArray imageToNpy(const BufferData &image)
{
    NpyArray array;
    const ImageInfo &info = *image.image;
    array.dtype = channelScalar(info.format.type);
    array.shape = npyShape(info.dim, info.shape, info.format);
    array.data = image.bytes;
    return array;
}

} // namespace clscope
