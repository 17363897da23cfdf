// PNG reading (zlib inflate of stored, fixed and dynamic Huffman blocks; the five row filters; palettes)
// and writing (stored deflate blocks), after the PNG specification and RFC 1950/1951.
#include "clscope/png.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace clscope {
namespace {

constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

[[noreturn]] void fail(const std::string &message)
{
    throw PngError("PNG: " + message);
}

std::uint32_t crc32(const unsigned char *data, std::size_t size, std::uint32_t crc = 0)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

std::uint32_t adler32(const unsigned char *data, std::size_t size)
{
    std::uint32_t a = 1, b = 0;
    for (std::size_t i = 0; i < size; ++i) {
        a = (a + data[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

std::uint32_t readBe32(const unsigned char *p)
{
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// ---- Inflate (RFC 1951) ---------------------------------------------------------------------------

class Inflater
{
public:
    Inflater(const unsigned char *data, std::size_t size, std::size_t expected)
        : m_data(data)
        , m_size(size)
        , m_limit(expected)
    {}

    std::vector<unsigned char> run()
    {
        for (bool last = false; !last;) {
            last = bits(1);
            switch (bits(2)) {
            case 0:
                stored();
                break;
            case 1:
                fixedTables();
                codes();
                break;
            case 2:
                dynamicTables();
                codes();
                break;
            default:
                fail("bad deflate block type");
            }
        }
        return std::move(m_out);
    }

private:
    struct Huffman
    {
        std::array<std::uint16_t, 16> count{};
        std::array<std::uint16_t, 320> symbol{};
    };

    unsigned bits(int n)
    {
        unsigned value = m_bitBuffer;
        while (m_bitCount < n) {
            if (m_pos >= m_size)
                fail("the compressed data ends early");
            value |= unsigned(m_data[m_pos++]) << m_bitCount;
            m_bitCount += 8;
        }
        m_bitBuffer = value >> n;
        m_bitCount -= n;
        return value & ((1u << n) - 1);
    }

    void put(unsigned char byte)
    {
        if (m_out.size() >= m_limit)
            fail("more image data than the header says");
        m_out.push_back(byte);
    }

    void stored()
    {
        m_bitBuffer = 0;
        m_bitCount = 0;
        if (m_pos + 4 > m_size)
            fail("the compressed data ends early");
        const unsigned len = m_data[m_pos] | unsigned(m_data[m_pos + 1]) << 8;
        const unsigned nlen = m_data[m_pos + 2] | unsigned(m_data[m_pos + 3]) << 8;
        m_pos += 4;
        if (len != (~nlen & 0xffff))
            fail("a stored block's length is broken");
        if (m_pos + len > m_size)
            fail("the compressed data ends early");
        for (unsigned i = 0; i < len; ++i)
            put(m_data[m_pos + i]);
        m_pos += len;
    }

    static void build(Huffman &h, const std::uint16_t *lengths, int n)
    {
        h.count.fill(0);
        for (int i = 0; i < n; ++i)
            h.count[lengths[i]]++;
        std::array<std::uint16_t, 16> offsets{};
        for (int len = 1; len < 15; ++len)
            offsets[std::size_t(len + 1)] =
                std::uint16_t(offsets[std::size_t(len)] + h.count[std::size_t(len)]);
        for (int i = 0; i < n; ++i) {
            if (lengths[i])
                h.symbol[offsets[lengths[i]]++] = std::uint16_t(i);
        }
    }

    int decode(const Huffman &h)
    {
        int code = 0, first = 0, index = 0;
        for (int len = 1; len < 16; ++len) {
            code |= int(bits(1));
            const int count = h.count[std::size_t(len)];
            if (code - count < first)
                return h.symbol[std::size_t(index + (code - first))];
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        fail("a Huffman code is broken");
    }

    void fixedTables()
    {
        std::array<std::uint16_t, 288> lengths{};
        for (int i = 0; i < 288; ++i)
            lengths[std::size_t(i)] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
        build(m_lengths, lengths.data(), 288);
        std::array<std::uint16_t, 30> distances{};
        distances.fill(5);
        build(m_distances, distances.data(), 30);
    }

    void dynamicTables()
    {
        const int nlen = int(bits(5)) + 257, ndist = int(bits(5)) + 1, ncode = int(bits(4)) + 4;
        if (nlen > 286 || ndist > 30)
            fail("bad Huffman table counts");
        static constexpr int order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        std::array<std::uint16_t, 320> lengths{};
        for (int i = 0; i < ncode; ++i)
            lengths[std::size_t(order[i])] = std::uint16_t(bits(3));
        Huffman codeCodes;
        build(codeCodes, lengths.data(), 19);
        for (int i = 0; i < nlen + ndist;) {
            const int symbol = decode(codeCodes);
            if (symbol < 16) {
                lengths[std::size_t(i++)] = std::uint16_t(symbol);
                continue;
            }
            int repeat = 0;
            std::uint16_t value = 0;
            if (symbol == 16) {
                if (i == 0)
                    fail("a repeat with nothing before it");
                value = lengths[std::size_t(i - 1)];
                repeat = 3 + int(bits(2));
            } else if (symbol == 17) {
                repeat = 3 + int(bits(3));
            } else {
                repeat = 11 + int(bits(7));
            }
            if (i + repeat > nlen + ndist)
                fail("too many code lengths");
            while (repeat--)
                lengths[std::size_t(i++)] = value;
        }
        if (lengths[256] == 0)
            fail("no end-of-block code");
        build(m_lengths, lengths.data(), nlen);
        build(m_distances, lengths.data() + nlen, ndist);
    }

    void codes()
    {
        static constexpr std::uint16_t lengthBase[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                         15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                         67, 83, 99, 115, 131, 163, 195, 227, 258};
        static constexpr std::uint8_t lengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        static constexpr std::uint16_t distBase[30] = {
            1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
            193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
        static constexpr std::uint8_t distExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
        for (;;) {
            int symbol = decode(m_lengths);
            if (symbol < 256) {
                put(static_cast<unsigned char>(symbol));
            } else if (symbol == 256) {
                return;
            } else {
                symbol -= 257;
                if (symbol >= 29)
                    fail("a bad length code");
                const std::size_t len = lengthBase[symbol] + bits(lengthExtra[symbol]);
                const int d = decode(m_distances);
                if (d >= 30)
                    fail("a bad distance code");
                const std::size_t dist = distBase[d] + bits(distExtra[d]);
                if (dist > m_out.size())
                    fail("a distance before the start of the data");
                for (std::size_t i = 0; i < len; ++i)
                    put(m_out[m_out.size() - dist]);
            }
        }
    }

    const unsigned char *m_data;
    std::size_t m_size;
    std::size_t m_limit;
    std::size_t m_pos = 0;
    unsigned m_bitBuffer = 0;
    int m_bitCount = 0;
    std::vector<unsigned char> m_out;
    Huffman m_lengths;
    Huffman m_distances;
};

int paeth(int a, int b, int c)
{
    const int p = a + b - c;
    const int pa = p > a ? p - a : a - p, pb = p > b ? p - b : b - p, pc = p > c ? p - c : c - p;
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Undoes the row filters in place; `bpp` bytes per pixel (at least 1).
void unfilter(std::vector<unsigned char> &data, std::size_t rowBytes, std::size_t rows, std::size_t bpp)
{
    std::vector<unsigned char> previous(rowBytes, 0);
    for (std::size_t y = 0; y < rows; ++y) {
        unsigned char *row = data.data() + y * (rowBytes + 1);
        const unsigned filter = row[0];
        unsigned char *p = row + 1;
        for (std::size_t x = 0; x < rowBytes; ++x) {
            const int a = x >= bpp ? p[x - bpp] : 0, b = previous[x], c = x >= bpp ? previous[x - bpp] : 0;
            switch (filter) {
            case 0:
                break;
            case 1:
                p[x] = static_cast<unsigned char>(p[x] + a);
                break;
            case 2:
                p[x] = static_cast<unsigned char>(p[x] + b);
                break;
            case 3:
                p[x] = static_cast<unsigned char>(p[x] + (a + b) / 2);
                break;
            case 4:
                p[x] = static_cast<unsigned char>(p[x] + paeth(a, b, c));
                break;
            default:
                fail("row " + std::to_string(y) + " has an unknown filter type " + std::to_string(filter));
            }
        }
        std::memcpy(previous.data(), p, rowBytes);
    }
}

void appendBe32(std::string &out, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void appendChunk(std::string &out, const char *type, const std::string &data)
{
    appendBe32(out, std::uint32_t(data.size()));
    const std::string body = std::string(type, 4) + data;
    out += body;
    appendBe32(out, crc32(reinterpret_cast<const unsigned char *>(body.data()), body.size()));
}

} // namespace

bool looksLikePng(std::string_view bytes)
{
    return bytes.size() >= 8 && std::memcmp(bytes.data(), kSignature, 8) == 0;
}

PngImage pngHeader(std::string_view bytes)
{
    if (!looksLikePng(bytes))
        fail("not a PNG file (no PNG signature)");
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
    if (bytes.size() < 33 || readBe32(data + 8) != 13 || bytes.substr(12, 4) != "IHDR")
        fail("no IHDR chunk first");
    if (crc32(data + 12, 17) != readBe32(data + 29))
        fail("chunk IHDR has a wrong CRC (the file is damaged)");
    PngImage image;
    image.width = readBe32(data + 16);
    image.height = readBe32(data + 20);
    if (image.width == 0 || image.height == 0 || image.width > (1u << 24) || image.height > (1u << 24))
        fail("image size " + std::to_string(image.width) + "x" + std::to_string(image.height) +
             " is not one this reader takes");
    if (data[28] != 0)
        fail("interlaced PNGs are not read; save the image without interlacing");
    return image;
}

PngImage decodePng(std::string_view bytes, const PngLimits &limits)
{
    if (!looksLikePng(bytes))
        fail("not a PNG file (no PNG signature)");
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
    std::size_t pos = 8;
    PngImage image;
    int colorType = -1, depth = 0;
    std::vector<unsigned char> compressed, palette, transparency;
    bool ended = false;
    while (!ended) {
        if (pos + 12 > bytes.size())
            fail("the file ends before its IEND chunk");
        const std::uint32_t length = readBe32(data + pos);
        const std::string type(bytes.substr(pos + 4, 4));
        if (length > bytes.size() - pos - 12)
            fail("chunk " + type + " runs past the end of the file");
        const unsigned char *body = data + pos + 8;
        if (crc32(data + pos + 4, length + 4) != readBe32(body + length))
            fail("chunk " + type + " has a wrong CRC (the file is damaged)");
        if (type == "IHDR") {
            if (length != 13)
                fail("IHDR has a wrong length");
            image.width = readBe32(body);
            image.height = readBe32(body + 4);
            depth = body[8];
            colorType = body[9];
            if (body[12] != 0)
                fail("interlaced PNGs are not read; save the image without interlacing");
        } else if (type == "PLTE") {
            palette.assign(body, body + length);
        } else if (type == "tRNS") {
            transparency.assign(body, body + length);
        } else if (type == "IDAT") {
            compressed.insert(compressed.end(), body, body + length);
        } else if (type == "IEND") {
            ended = true;
        }
        pos += 12 + length;
    }
    int samplesPerPixel = 0;
    switch (colorType) {
    case 0:
        samplesPerPixel = 1;
        break;
    case 2:
        samplesPerPixel = 3;
        break;
    case 3:
        samplesPerPixel = 1;
        if (palette.empty())
            fail("a palette image without a PLTE chunk");
        break;
    case 4:
        samplesPerPixel = 2;
        break;
    case 6:
        samplesPerPixel = 4;
        break;
    default:
        fail("no IHDR chunk, or an unknown colour type");
    }
    if (image.width == 0 || image.height == 0 || image.width > (1u << 24) || image.height > (1u << 24))
        fail("image size " + std::to_string(image.width) + "x" + std::to_string(image.height) +
             " is not one this reader takes");
    if (depth != 1 && depth != 2 && depth != 4 && depth != 8 && depth != 16)
        fail("bit depth " + std::to_string(depth) + " is not a PNG bit depth");
    const std::size_t bitsPerPixel = std::size_t(samplesPerPixel) * std::size_t(depth);
    const std::size_t rowBytes = (image.width * bitsPerPixel + 7) / 8;
    const auto sizeText = [](std::size_t w, std::size_t h) {
        return std::to_string(w) + "x" + std::to_string(h);
    };
    if (image.width > limits.maxWidth || image.height > limits.maxHeight)
        fail("the header declares " + sizeText(image.width, image.height) + " pixels, more than " +
             sizeText(limits.maxWidth, limits.maxHeight) + " (" + limits.origin + ")");
    // Both sides are below 2^24 here, so these products fit in 64 bits.
    const std::size_t outChannels =
        colorType == 3 ? (transparency.empty() ? 3 : 4) : std::size_t(samplesPerPixel);
    const std::uint64_t decoded =
        std::uint64_t(image.width) * image.height * outChannels * sizeof(std::uint16_t);
    const std::uint64_t inflated = (std::uint64_t(rowBytes) + 1) * image.height;
    if (std::max(decoded, inflated) > limits.maxBytes)
        fail("the header declares " + sizeText(image.width, image.height) + " pixels, " +
             std::to_string(std::max(decoded, inflated)) + " bytes decoded, more than the " +
             std::to_string(limits.maxBytes) + " allowed (" + limits.origin + ")");
    if (compressed.size() < 6)
        fail("no image data");
    if ((compressed[0] & 0x0f) != 8 || ((compressed[0] << 8) | compressed[1]) % 31 != 0 ||
        (compressed[1] & 0x20))
        fail("the image data is not zlib deflate data");
    const std::size_t expected = (rowBytes + 1) * image.height;
    std::vector<unsigned char> raw = Inflater(compressed.data() + 2, compressed.size() - 6, expected).run();
    if (raw.size() != expected)
        fail("the image data holds " + std::to_string(raw.size()) + " bytes, the header asks for " +
             std::to_string(expected));
    if (adler32(raw.data(), raw.size()) != readBe32(compressed.data() + compressed.size() - 4))
        fail("the image data's checksum is wrong (the file is damaged)");
    unfilter(raw, rowBytes, image.height, std::max<std::size_t>(1, bitsPerPixel / 8));

    const bool paletted = colorType == 3;
    const bool alphaFromTrns = paletted && !transparency.empty();
    image.channels = paletted ? (alphaFromTrns ? 4 : 3) : samplesPerPixel;
    image.bitDepth = depth == 16 ? 16 : 8;
    image.samples.resize(image.width * image.height * std::size_t(image.channels));
    std::size_t out = 0;
    for (std::size_t y = 0; y < image.height; ++y) {
        const unsigned char *row = raw.data() + y * (rowBytes + 1) + 1;
        for (std::size_t x = 0; x < image.width * std::size_t(samplesPerPixel); ++x) {
            unsigned v = 0;
            if (depth == 16) {
                v = unsigned(row[2 * x]) << 8 | row[2 * x + 1];
            } else if (depth == 8) {
                v = row[x];
            } else {
                const std::size_t bit = x * std::size_t(depth);
                v = (row[bit / 8] >> (8 - depth - int(bit % 8))) & ((1u << depth) - 1);
                if (!paletted)
                    v = v * 255 / ((1u << depth) - 1); // grey of 1, 2 or 4 bits to 0..255
            }
            if (paletted) {
                if (3 * std::size_t(v) + 2 >= palette.size())
                    fail("a pixel names palette entry " + std::to_string(v) + ", which the PLTE lacks");
                for (int c = 0; c < 3; ++c)
                    image.samples[out++] = palette[3 * std::size_t(v) + std::size_t(c)];
                if (alphaFromTrns)
                    image.samples[out++] = v < transparency.size() ? transparency[v] : 255;
            } else {
                image.samples[out++] = std::uint16_t(v);
            }
        }
    }
    return image;
}

std::string encodePng(const PngImage &image)
{
    static constexpr int colorTypes[5] = {0, 0, 4, 2, 6};
    if (image.channels < 1 || image.channels > 4 || (image.bitDepth != 8 && image.bitDepth != 16) ||
        image.samples.size() != image.width * image.height * std::size_t(image.channels))
        fail("cannot write an image of " + std::to_string(image.channels) + " channels, " +
             std::to_string(image.bitDepth) + " bits, " + std::to_string(image.samples.size()) + " samples");
    const std::size_t bytesPerSample = image.bitDepth == 16 ? 2 : 1;
    const std::size_t rowBytes = image.width * std::size_t(image.channels) * bytesPerSample;
    std::vector<unsigned char> raw;
    raw.reserve((rowBytes + 1) * image.height);
    std::size_t at = 0;
    for (std::size_t y = 0; y < image.height; ++y) {
        raw.push_back(0); // no filter
        for (std::size_t x = 0; x < image.width * std::size_t(image.channels); ++x) {
            const std::uint16_t v = image.samples[at++];
            if (bytesPerSample == 2)
                raw.push_back(static_cast<unsigned char>(v >> 8));
            raw.push_back(static_cast<unsigned char>(v & 0xff));
        }
    }
    std::string zlib{"\x78\x01", 2};
    for (std::size_t pos = 0; pos < raw.size() || pos == 0;) {
        const std::size_t len = std::min<std::size_t>(65535, raw.size() - pos);
        const bool last = pos + len == raw.size();
        zlib.push_back(last ? 1 : 0);
        zlib.push_back(static_cast<char>(len & 0xff));
        zlib.push_back(static_cast<char>(len >> 8));
        zlib.push_back(static_cast<char>(~len & 0xff));
        zlib.push_back(static_cast<char>((~len >> 8) & 0xff));
        zlib.append(reinterpret_cast<const char *>(raw.data() + pos), len);
        pos += len;
        if (last)
            break;
    }
    appendBe32(zlib, adler32(raw.data(), raw.size()));
    std::string header;
    appendBe32(header, std::uint32_t(image.width));
    appendBe32(header, std::uint32_t(image.height));
    header.push_back(static_cast<char>(image.bitDepth));
    header.push_back(static_cast<char>(colorTypes[image.channels]));
    header.append(3, '\0'); // deflate, adaptive filtering, no interlace
    std::string out(reinterpret_cast<const char *>(kSignature), 8);
    appendChunk(out, "IHDR", header);
    appendChunk(out, "IDAT", zlib);
    appendChunk(out, "IEND", {});
    return out;
}

} // namespace clscope
