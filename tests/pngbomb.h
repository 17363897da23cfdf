// Test helper: a PNG whose header declares width x height RGBA8 pixels and whose image data inflates to
// about `inflated` bytes of zeros from 13 bits per 258 of them (fixed Huffman codes: one literal, then
// matches of length 258 at distance 1). A decompression bomb (issue 27) whose deflate stream is written by
// hand (zlib would take minutes to deflate gigabytes); its CRCs are zlib's and right, so only the declared
// size or the inflated size can refuse it.
#pragma once

#include <QByteArray>

#include <zlib.h>

#include <cstdint>

namespace pngbomb {

inline void appendBe32(QByteArray &out, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.append(char((v >> shift) & 0xff));
}

inline void appendChunk(QByteArray &out, const char *type, const QByteArray &data)
{
    appendBe32(out, std::uint32_t(data.size()));
    QByteArray body(type, 4);
    body.append(data);
    out += body;
    appendBe32(
        out, std::uint32_t(::crc32(0, reinterpret_cast<const Bytef *>(body.constData()), uInt(body.size()))));
}

// Deflate's bit order: fields from the low bit up, Huffman codes from their high bit.
class BitWriter
{
public:
    void bits(std::uint32_t value, int count)
    {
        for (int i = 0; i < count; ++i)
            bit((value >> i) & 1);
    }
    void code(std::uint32_t value, int length)
    {
        for (int i = length - 1; i >= 0; --i)
            bit((value >> i) & 1);
    }
    QByteArray finish()
    {
        if (m_count > 0)
            m_bytes.append(char(m_byte));
        return m_bytes;
    }

private:
    void bit(std::uint32_t b)
    {
        m_byte |= std::uint8_t(b << m_count);
        if (++m_count == 8) {
            m_bytes.append(char(m_byte));
            m_byte = 0;
            m_count = 0;
        }
    }
    QByteArray m_bytes;
    std::uint8_t m_byte = 0;
    int m_count = 0;
};

inline QByteArray make(std::uint32_t width, std::uint32_t height, std::uint64_t inflated)
{
    BitWriter deflate;
    deflate.bits(1, 1);        // the last block
    deflate.bits(1, 2);        // fixed Huffman codes
    deflate.code(0x30 + 0, 8); // the literal 0
    for (std::uint64_t done = 1; done + 258 <= inflated; done += 258) {
        deflate.code(0xc0 + (285 - 280), 8); // length 258
        deflate.code(0, 5);                  // distance 1
    }
    deflate.code(0, 7); // end of block
    QByteArray zlib("\x78\x01", 2);
    zlib += deflate.finish();
    appendBe32(zlib, 0); // Adler-32: never reached
    QByteArray header;
    appendBe32(header, width);
    appendBe32(header, height);
    header += QByteArray("\x08\x06\x00\x00\x00", 5); // 8 bits, RGBA, deflate, no filter choice, no interlace
    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    appendChunk(png, "IHDR", header);
    appendChunk(png, "IDAT", zlib);
    appendChunk(png, "IEND", {});
    return png;
}

} // namespace pngbomb
