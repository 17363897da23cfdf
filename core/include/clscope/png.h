// PNG files for image arguments: read (every colour type and bit depth of the standard, not interlaced)
// and written (8 or 16 bits, stored deflate blocks) with nothing but the C++ library, so that clscope-cli
// links no image library.
#pragma once

#include "clscope/error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// A file that is not a PNG, or one this reader does not take (interlaced), or a broken one. The message
// says which.
class PngError : public Error
{
public:
    explicit PngError(const std::string &message)
        : Error(message)
    {}
};

struct PngImage
{
    std::size_t width = 0;
    std::size_t height = 0;
    int channels = 4;                   // 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA
    int bitDepth = 8;                   // 8 or 16: the range of the samples (0..255 or 0..65535)
    std::vector<std::uint16_t> samples; // row by row, `channels` per pixel, top row first

    std::uint16_t maxSample() const { return bitDepth == 16 ? 65535 : 255; }
};

// What a decode may make. A 4 MB file can declare 65536x65536 and inflate to gigabytes: its declared size
// is compared with these before a byte is inflated. The caller passes what the image is for (the
// device's CL_DEVICE_IMAGE2D_MAX_WIDTH and _HEIGHT, the host memory it will spend).
struct PngLimits
{
    std::size_t maxWidth = std::size_t(1) << 24;
    std::size_t maxHeight = std::size_t(1) << 24;
    std::uint64_t maxBytes = std::uint64_t(4) << 30; // of the decoded samples and of the inflated rows
    std::string origin = "this reader's limit";      // named in the message: "the device's image2d limit"
};

bool looksLikePng(std::string_view bytes); // the 8-byte signature
// The width and height of the IHDR chunk, which a PNG has first; samples stays empty. Needs the first 33
// bytes only, inflates nothing. Throws PngError.
PngImage pngHeader(std::string_view bytes);
// Palette and low bit depth images come back as 8-bit grey or RGB(A); a palette's tRNS as alpha. Throws
// PngError, also for a declared size beyond limits (before inflating).
PngImage decodePng(std::string_view bytes, const PngLimits &limits = {});
std::string encodePng(const PngImage &image);

} // namespace clscope
