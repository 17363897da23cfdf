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

bool looksLikePng(std::string_view bytes); // the 8-byte signature
// Palette and low bit depth images come back as 8-bit grey or RGB(A); a palette's tRNS as alpha.
PngImage decodePng(std::string_view bytes);
std::string encodePng(const PngImage &image);

} // namespace clscope
