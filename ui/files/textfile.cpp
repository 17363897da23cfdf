// UTF-8 validation after the Unicode standard's table of well-formed byte sequences (Table 3-7).
#include "textfile.h"

namespace clscope::ui {

qsizetype firstInvalidUtf8(const QByteArray &bytes)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char b = p[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        unsigned char low = 0x80, high = 0xBF; // the allowed range of the second byte
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3;
            if (b == 0xE0)
                low = 0xA0; // no overlong forms
            else if (b == 0xED)
                high = 0x9F; // no surrogates
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4;
            if (b == 0xF0)
                low = 0x90;
            else if (b == 0xF4)
                high = 0x8F; // nothing above U+10FFFF
        } else {
            return i;
        }
        if (i + length > n)
            return i; // cut short at the end
        if (p[i + 1] < low || p[i + 1] > high)
            return i;
        for (int k = 2; k < length; ++k) {
            if (p[i + k] < 0x80 || p[i + k] > 0xBF)
                return i;
        }
        i += length;
    }
    return -1;
}

QString textProblem(const QByteArray &bytes)
{
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0)
        return QStringLiteral("it holds a NUL byte at offset %1, so it is not a text file").arg(nul);
    if (const qsizetype bad = firstInvalidUtf8(bytes); bad >= 0)
        return QStringLiteral("it is not UTF-8 text: byte 0x%1 at offset %2 (convert it to UTF-8 first, "
                              "e.g. with iconv)")
            .arg(QString::number(static_cast<unsigned char>(bytes.at(bad)), 16)
                     .toUpper()
                     .rightJustified(2, u'0'))
            .arg(bad);
    return {};
}

} // namespace clscope::ui
