// Image formats, shapes, initialisers and samplers as `clscope-cli run --arg` writes them (images.h).
#include "clscope/images.h"

#include "clscope/deviceinfo.h"
#include "clscope/format.h"
#include "clscope/kernelargs.h"
#include "clscope/text.h"

#include "runinternal.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace clscope {
namespace {

using detail::failArgument;

constexpr std::array kOrders{CL_R,     CL_A,    CL_RG,        CL_RA,        CL_RGB,  CL_RGBA, CL_BGRA,
                             CL_ARGB,  CL_ABGR, CL_INTENSITY, CL_LUMINANCE, CL_Rx,   CL_RGx,  CL_RGBx,
                             CL_DEPTH, CL_sRGB, CL_sRGBx,     CL_sRGBA,     CL_sBGRA};
constexpr std::array kTypes{
    CL_SNORM_INT8,      CL_SNORM_INT16,       CL_UNORM_INT8,     CL_UNORM_INT16,  CL_UNORM_SHORT_565,
    CL_UNORM_SHORT_555, CL_UNORM_INT_101010,  CL_SIGNED_INT8,    CL_SIGNED_INT16, CL_SIGNED_INT32,
    CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,    CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
    CL_UNORM_INT24,     CL_UNORM_INT_101010_2};

std::string withoutPrefix(std::string_view name)
{
    return std::string(name.starts_with("CL_") ? name.substr(3) : name);
}

bool sameName(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return (x >= 'a' && x <= 'z' ? char(x - 32) : x) == (y >= 'a' && y <= 'z' ? char(y - 32) : y);
           });
}

// sRGB names keep their lower-case s, so an exact match comes before one that ignores case.
template<typename T, std::size_t N, typename Name>
std::optional<T> byName(const std::array<T, N> &values, std::string_view given, Name name)
{
    // The prefix in any case: CL_BGRA, cl_bgra.
    const bool prefixed = given.size() > 3 && sameName(given.substr(0, 3), "CL_");
    const std::string_view wanted = prefixed ? given.substr(3) : given;
    for (T v : values) {
        if (withoutPrefix(name(v)) == wanted)
            return v;
    }
    for (T v : values) {
        if (sameName(withoutPrefix(name(v)), wanted))
            return v;
    }
    return std::nullopt;
}

std::optional<std::size_t> parseSize(std::string_view text)
{
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0)
        return std::nullopt;
    return value;
}

} // namespace

std::string_view imageDimName(ImageDim dim)
{
    switch (dim) {
    case ImageDim::Image1D:
        return "image1d";
    case ImageDim::Image1DBuffer:
        return "image1d_buffer";
    case ImageDim::Image1DArray:
        return "image1d_array";
    case ImageDim::Image2D:
        return "image2d";
    case ImageDim::Image2DArray:
        return "image2d_array";
    case ImageDim::Image3D:
        return "image3d";
    }
    return "image2d";
}

std::optional<ImageDim> parseImageDim(std::string_view name)
{
    name = trimBlanks(name);
    if (name.ends_with("_t"))
        name = name.substr(0, name.size() - 2);
    for (ImageDim d : {ImageDim::Image1D, ImageDim::Image1DBuffer, ImageDim::Image1DArray, ImageDim::Image2D,
                       ImageDim::Image2DArray, ImageDim::Image3D}) {
        if (imageDimName(d) == name)
            return d;
    }
    return std::nullopt;
}

cl_mem_object_type imageObjectType(ImageDim dim)
{
    switch (dim) {
    case ImageDim::Image1D:
        return CL_MEM_OBJECT_IMAGE1D;
    case ImageDim::Image1DBuffer:
        return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    case ImageDim::Image1DArray:
        return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case ImageDim::Image2D:
        return CL_MEM_OBJECT_IMAGE2D;
    case ImageDim::Image2DArray:
        return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case ImageDim::Image3D:
        return CL_MEM_OBJECT_IMAGE3D;
    }
    return CL_MEM_OBJECT_IMAGE2D;
}

std::string_view imageSizeForm(ImageDim dim)
{
    switch (dim) {
    case ImageDim::Image1D:
    case ImageDim::Image1DBuffer:
        return "W";
    case ImageDim::Image1DArray:
        return "WxL";
    case ImageDim::Image2D:
        return "WxH";
    case ImageDim::Image2DArray:
        return "WxHxL";
    case ImageDim::Image3D:
        return "WxHxD";
    }
    return "WxH";
}

std::optional<cl_channel_order> parseChannelOrder(std::string_view name)
{
    return byName(kOrders, trimBlanks(name), channelOrderName);
}

std::optional<cl_channel_type> parseChannelType(std::string_view name)
{
    return byName(kTypes, trimBlanks(name), channelTypeName);
}

std::string channelOrderText(cl_channel_order order)
{
    const std::string_view name = channelOrderName(order);
    return name.empty() ? "order " + formatHex(order) : withoutPrefix(name);
}

std::string channelTypeText(cl_channel_type type)
{
    const std::string_view name = channelTypeName(type);
    return name.empty() ? "type " + formatHex(type) : withoutPrefix(name);
}

std::string formatText(const ImageFormat &format)
{
    return channelOrderText(format.order) + "/" + channelTypeText(format.type);
}

std::string channelOrderNames()
{
    std::string out;
    for (cl_channel_order o : kOrders)
        out += (out.empty() ? "" : ", ") + channelOrderText(o);
    return out;
}

std::string channelTypeNames()
{
    std::string out;
    for (cl_channel_type t : kTypes)
        out += (out.empty() ? "" : ", ") + channelTypeText(t);
    return out;
}

int channelCount(cl_channel_order order)
{
    switch (order) {
    case CL_R:
    case CL_A:
    case CL_INTENSITY:
    case CL_LUMINANCE:
    case CL_Rx:
    case CL_DEPTH:
        return 1;
    case CL_RG:
    case CL_RA:
    case CL_RGx:
        return 2;
    case CL_RGB:
    case CL_RGBx:
    case CL_sRGB:
    case CL_sRGBx:
        return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
    case CL_sRGBA:
    case CL_sBGRA:
        return 4;
    default:
        return 0;
    }
}

bool isPackedType(cl_channel_type type)
{
    return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010 ||
           type == CL_UNORM_INT_101010_2;
}

bool isNormalizedType(cl_channel_type type)
{
    switch (type) {
    case CL_SNORM_INT8:
    case CL_SNORM_INT16:
    case CL_UNORM_INT8:
    case CL_UNORM_INT16:
    case CL_UNORM_INT24:
        return true;
    default:
        return isPackedType(type);
    }
}

bool isFloatType(cl_channel_type type)
{
    return type == CL_FLOAT || type == CL_HALF_FLOAT;
}

std::size_t pixelSize(const ImageFormat &format)
{
    const int channels = channelCount(format.order);
    switch (format.type) {
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
        return format.order == CL_RGB || format.order == CL_RGBx ? 2 : 0;
    case CL_UNORM_INT_101010:
        return format.order == CL_RGB || format.order == CL_RGBx ? 4 : 0;
    case CL_UNORM_INT_101010_2:
        return format.order == CL_RGBA ? 4 : 0;
    case CL_UNORM_INT24:
        return format.order == CL_DEPTH ? 4 : 0;
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
        return std::size_t(channels);
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
        return 2 * std::size_t(channels);
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
        return 4 * std::size_t(channels);
    default:
        return 0;
    }
}

ImageShape parseImageShape(std::string_view text, ImageDim dim, std::string_view what)
{
    const std::vector<std::string_view> parts = splitOn(trimBlanks(text), 'x');
    const std::string_view form = imageSizeForm(dim);
    const std::size_t wanted = imageSizeCount(dim);
    std::vector<std::size_t> sizes;
    for (std::string_view p : parts) {
        const auto size = parseSize(trimBlanks(p));
        if (!size)
            break;
        sizes.push_back(*size);
    }
    if (sizes.size() != parts.size() || sizes.size() != wanted)
        failArgument(what, "an " + std::string(imageDimName(dim)) + " size is " + std::string(form) +
                               " (whole numbers of at least 1), not '" + std::string(trimBlanks(text)) + "'");
    std::size_t pixels = 1;
    for (std::size_t v : sizes) {
        if (pixels > std::numeric_limits<std::size_t>::max() / v)
            failArgument(what, "image size " + std::string(trimBlanks(text)) + " is too large");
        pixels *= v;
    }
    return imageShapeFromSizes(sizes, dim);
}

std::string formatImageShape(const ImageShape &shape, ImageDim dim)
{
    const std::vector<std::size_t> region = imageRegion(shape, dim);
    std::string out = std::to_string(region[0]);
    for (std::size_t i = 1; i < imageSizeCount(dim); ++i)
        out += "x" + std::to_string(region[i]);
    return out;
}

std::vector<std::size_t> imageRegion(const ImageShape &shape, ImageDim dim)
{
    switch (dim) {
    case ImageDim::Image1D:
    case ImageDim::Image1DBuffer:
        return {shape.width, 1, 1};
    case ImageDim::Image1DArray:
        return {shape.width, shape.layers, 1};
    case ImageDim::Image2D:
        return {shape.width, shape.height, 1};
    case ImageDim::Image2DArray:
        return {shape.width, shape.height, shape.layers};
    case ImageDim::Image3D:
        return {shape.width, shape.height, shape.depth};
    }
    return {shape.width, shape.height, 1};
}

std::size_t imageSizeCount(ImageDim dim)
{
    const std::string_view form = imageSizeForm(dim);
    return std::size_t(std::count(form.begin(), form.end(), 'x')) + 1;
}

ImageShape imageShapeFromSizes(const std::vector<std::size_t> &sizes, ImageDim dim)
{
    // imageRegion's order: width, then height or layers, then depth or layers.
    ImageShape s;
    const auto at = [&](std::size_t i) { return i < sizes.size() ? sizes[i] : std::size_t(1); };
    s.width = at(0);
    if (dim == ImageDim::Image1DArray)
        s.layers = at(1);
    if (dim == ImageDim::Image2D || dim == ImageDim::Image2DArray || dim == ImageDim::Image3D)
        s.height = at(1);
    if (dim == ImageDim::Image2DArray)
        s.layers = at(2);
    if (dim == ImageDim::Image3D)
        s.depth = at(2);
    return s;
}

ImageInit parseImageInit(std::string_view text, std::string_view what)
{
    ImageInit init;
    const std::size_t eq = text.find('=');
    const std::string_view word = trimBlanks(text.substr(0, eq));
    const bool hasValue = eq != std::string_view::npos;
    const std::string_view value = hasValue ? text.substr(eq + 1) : std::string_view();
    const auto noValue = [&] {
        if (hasValue)
            failArgument(what, "image initialiser " + std::string(word) + " takes no value");
    };
    if (word == "zeros") {
        noValue();
    } else if (word == "gradient") {
        noValue();
        init.kind = ImageInitKind::Gradient;
    } else if (word == "fill") {
        if (trimBlanks(value).empty())
            failArgument(what, "image initialiser fill needs a value (fill=V or fill=V,V,V,V)");
        init.kind = ImageInitKind::Fill;
        init.fill = std::string(trimBlanks(value));
    } else if (word == "random") {
        init.kind = ImageInitKind::Random;
        if (hasValue) {
            const std::string_view seed = trimBlanks(value);
            const auto [end, ec] = std::from_chars(seed.data(), seed.data() + seed.size(), init.seed);
            if (seed.empty() || ec != std::errc() || end != seed.data() + seed.size())
                failArgument(what, "random seed '" + std::string(seed) + "' is not a whole number");
        }
    } else if (word == "file") {
        if (value.empty())
            failArgument(what, "image initialiser file needs a path (file=PATH, a PNG or an .npy)");
        init.kind = ImageInitKind::File;
        init.path = std::string(value);
    } else {
        failArgument(what, "unknown image initialiser '" + std::string(text) +
                               "' (zeros, fill=V[,V...], random[=SEED], gradient, file=PATH)");
    }
    return init;
}

std::string toString(const ImageInit &init)
{
    switch (init.kind) {
    case ImageInitKind::Zeros:
        return "zeros";
    case ImageInitKind::Fill:
        return "fill=" + init.fill;
    case ImageInitKind::Random:
        return init.seed ? "random=" + std::to_string(init.seed) : std::string("random");
    case ImageInitKind::Gradient:
        return "gradient";
    case ImageInitKind::File:
        return "file=" + init.path;
    }
    return "zeros";
}

std::string_view addressingName(SamplerAddressing a)
{
    switch (a) {
    case SamplerAddressing::None:
        return "none";
    case SamplerAddressing::ClampToEdge:
        return "clamp_to_edge";
    case SamplerAddressing::Clamp:
        return "clamp";
    case SamplerAddressing::Repeat:
        return "repeat";
    case SamplerAddressing::MirroredRepeat:
        return "mirrored_repeat";
    }
    return "clamp_to_edge";
}

cl_addressing_mode addressingMode(SamplerAddressing a)
{
    switch (a) {
    case SamplerAddressing::None:
        return CL_ADDRESS_NONE;
    case SamplerAddressing::ClampToEdge:
        return CL_ADDRESS_CLAMP_TO_EDGE;
    case SamplerAddressing::Clamp:
        return CL_ADDRESS_CLAMP;
    case SamplerAddressing::Repeat:
        return CL_ADDRESS_REPEAT;
    case SamplerAddressing::MirroredRepeat:
        return CL_ADDRESS_MIRRORED_REPEAT;
    }
    return CL_ADDRESS_CLAMP_TO_EDGE;
}

SamplerArg parseSamplerSpec(std::string_view text, std::string_view what)
{
    SamplerArg s;
    bool coords = false, addressing = false, filter = false;
    const auto once = [&](bool &seen, const char *kind, std::string_view word) {
        if (seen)
            failArgument(what, "the sampler has two " + std::string(kind) + " ('" + std::string(word) +
                                   "' is the second)");
        seen = true;
    };
    for (std::string_view word : splitOn(text, ',')) {
        word = trimBlanks(word);
        if (word.empty())
            continue;
        if (word == "normalized" || word == "unnormalized") {
            once(coords, "coordinate modes", word);
            s.normalized = word == "normalized";
        } else if (word == "nearest" || word == "linear") {
            once(filter, "filter modes", word);
            s.linear = word == "linear";
        } else {
            bool known = false;
            for (SamplerAddressing a :
                 {SamplerAddressing::None, SamplerAddressing::ClampToEdge, SamplerAddressing::Clamp,
                  SamplerAddressing::Repeat, SamplerAddressing::MirroredRepeat}) {
                if (addressingName(a) == word) {
                    once(addressing, "addressing modes", word);
                    s.addressing = a;
                    known = true;
                }
            }
            if (!known)
                failArgument(what, "unknown sampler word '" + std::string(word) +
                                       "' (normalized|unnormalized, none|clamp|clamp_to_edge|repeat|"
                                       "mirrored_repeat, nearest|linear)");
        }
    }
    if (!s.normalized &&
        (s.addressing == SamplerAddressing::Repeat || s.addressing == SamplerAddressing::MirroredRepeat))
        failArgument(what, std::string(addressingName(s.addressing)) +
                               " needs normalized coordinates (OpenCL leaves it undefined otherwise): add "
                               "'normalized'");
    return s;
}

std::string toString(const SamplerArg &s)
{
    return std::string(s.normalized ? "normalized," : "unnormalized,") +
           std::string(addressingName(s.addressing)) + (s.linear ? ",linear" : ",nearest");
}

ImageArg parseImageSpec(std::string_view kind, std::string_view rest, std::string_view what)
{
    ImageArg image;
    const auto dim = parseImageDim(kind);
    if (!dim)
        failArgument(what, "unknown image type '" + std::string(kind) +
                               "' (image1d, image1d_buffer, image1d_array, image2d, image2d_array, image3d)");
    image.dim = *dim;
    const std::string form =
        std::string(imageDimName(*dim)) + ":ORDER:TYPE:" + std::string(imageSizeForm(*dim)) +
        "[:INIT] (e.g. " + std::string(imageDimName(*dim)) +
        ":RGBA:UNORM_INT8:" + (*dim == ImageDim::Image2D ? "512x512" : std::string(imageSizeForm(*dim))) +
        ":gradient)";
    // ORDER:TYPE:SIZE[:INIT], INIT keeping its own colons (file=C:/x.png).
    std::vector<std::string_view> parts;
    std::string_view left = rest;
    for (int i = 0; i < 3; ++i) {
        const std::size_t colon = left.find(':');
        if (colon == std::string_view::npos) {
            parts.push_back(left);
            left = {};
            break;
        }
        parts.push_back(left.substr(0, colon));
        left = left.substr(colon + 1);
    }
    if (parts.size() < 3)
        failArgument(what, "an image needs " + form);
    const auto order = parseChannelOrder(parts[0]);
    if (!order)
        failArgument(what, "unknown channel order '" + std::string(trimBlanks(parts[0])) +
                               "' (orders: " + channelOrderNames() + ")");
    const auto type = parseChannelType(parts[1]);
    if (!type)
        failArgument(what, "unknown channel type '" + std::string(trimBlanks(parts[1])) +
                               "' (types: " + channelTypeNames() + ")");
    image.format = {*order, *type};
    if (pixelSize(image.format) == 0 || channelCount(*order) == 0)
        failArgument(what, formatText(image.format) + " is not an image format CLScope can fill and read");
    const std::string_view sizeText = trimBlanks(parts[2]);
    if (sizeText.starts_with("file=")) {
        // The size from the file: everything after the type is the initialiser.
        image.init = parseImageInit(rest.substr(std::size_t(sizeText.data() - rest.data())), what);
        return image;
    }
    image.shape = parseImageShape(sizeText, *dim, what);
    if (!left.empty() || rest.ends_with(':'))
        image.init = parseImageInit(left, what);
    return image;
}

std::string toString(const ImageArg &image)
{
    std::string out = std::string(imageDimName(image.dim)) + ":" + formatText(image.format);
    out[out.find('/')] = ':';
    if (image.shape)
        out += ":" + formatImageShape(*image.shape, image.dim);
    return out + ":" + toString(image.init);
}

} // namespace clscope
