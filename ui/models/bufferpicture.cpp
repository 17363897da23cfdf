// Pictures of read-back buffers and the description of their pixels.
#include "bufferpicture.h"

#include "clscope/imagedata.h"
#include "display/stdstring.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("clscope::ui::ResultsViewer", text);
}
} // namespace

QImage bufferImage(const BufferData &buffer, std::size_t rowWidth)
{
    if (rowWidth == 0 || buffer.count == 0 || buffer.componentCount() == 0)
        return {};
    const std::size_t components = buffer.componentCount() / buffer.count;
    const std::size_t height = (buffer.count + rowWidth - 1) / rowWidth;
    // QImage sizes are int, and a picture larger than 32k on a side is no use on a screen anyway.
    if (rowWidth > 32768 || height > 32768)
        return {};
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (std::size_t e = 0; e < buffer.count; ++e) {
        const double v = buffer.value(e * components);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    QImage image(int(rowWidth), int(height), QImage::Format_RGB32);
    image.fill(QColor(0x80, 0x80, 0x80)); // past the end of the buffer
    const double range = hi > lo ? hi - lo : 0;
    for (std::size_t e = 0; e < buffer.count; ++e) {
        const double v = buffer.value(e * components);
        QRgb rgb = 0;
        if (std::isnan(v)) {
            rgb = qRgb(255, 0, 255);
        } else {
            const double t = std::isinf(v) ? (v > 0 ? 1.0 : 0.0) : range > 0 ? (v - lo) / range : 0.5;
            const int g = std::clamp(int(std::lround(t * 255)), 0, 255);
            rgb = qRgb(g, g, g);
        }
        image.setPixel(int(e % rowWidth), int(e / rowWidth), rgb);
    }
    return image;
}

QImage imagePicture(const BufferData &buffer, QString *why)
{
    if (!buffer.image)
        return {};
    PngImage png;
    try {
        png = imageToPng(buffer);
    } catch (const std::exception &e) {
        if (why)
            *why = QString::fromStdString(e.what());
        return {};
    }
    if (png.width == 0 || png.height == 0 || png.width > 32768 || png.height > 32768)
        return {};
    QImage image(int(png.width), int(png.height), QImage::Format_ARGB32);
    const int shift = png.bitDepth == 16 ? 8 : 0;
    const std::size_t channels = std::size_t(png.channels);
    for (std::size_t y = 0; y < png.height; ++y) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(int(y)));
        for (std::size_t x = 0; x < png.width; ++x) {
            const std::uint16_t *s = png.samples.data() + (y * png.width + x) * channels;
            const auto v = [&](std::size_t i) { return int(s[i] >> shift); };
            switch (png.channels) {
            case 1:
                line[x] = qRgb(v(0), v(0), v(0));
                break;
            case 2:
                line[x] = qRgba(v(0), v(0), v(0), v(1));
                break;
            case 3:
                line[x] = qRgb(v(0), v(1), v(2));
                break;
            default:
                line[x] = qRgba(v(0), v(1), v(2), v(3));
                break;
            }
        }
    }
    return image;
}

QString describePixel(const BufferData &buffer, int pictureWidth, std::size_t rowWidth, NumberFormat format,
                      int x, int y)
{
    const BufferData &b = buffer;
    if (x < 0 || y < 0 || b.count == 0)
        return {};
    if (b.image && pictureWidth > 0 && pictureWidth == int(b.image->shape.width)) {
        // Pixels in the picture's order (slices one under the other), each its channels' stored values
        // and, for normalized types, what a read_imagef gives.
        const ImageInfo &info = *b.image;
        const std::size_t pixels = info.shape.pixels();
        const std::size_t pixel = std::size_t(y) * info.shape.width + std::size_t(x);
        if (pixel >= pixels)
            return {};
        const std::size_t per = b.componentCount() / pixels;
        QString where = tr("x %1, y %2").arg(x).arg(y);
        if (info.dim == ImageDim::Image3D || info.dim == ImageDim::Image2DArray) {
            const std::size_t rows = info.shape.height;
            where = tr("x %1, y %2, %3 %4")
                        .arg(x)
                        .arg(std::size_t(y) % rows)
                        .arg(info.dim == ImageDim::Image3D ? tr("z") : tr("layer"))
                        .arg(std::size_t(y) / rows);
        } else if (info.dim == ImageDim::Image1DArray) {
            where = tr("x %1, layer %2").arg(x).arg(y);
        }
        QStringList stored;
        QStringList unit;
        for (std::size_t c = 0; c < per; ++c) {
            stored << formatComponent(b, pixel * per + c, format);
            if (isNormalizedType(info.format.type))
                unit << QString::number(b.value(pixel * per + c) / channelMax(info.format.type), 'g', 4);
        }
        QString text = tr("%1: %2 %3")
                           .arg(where, qs(std::string(channelLetters(info.format.order))),
                                stored.join(QStringLiteral(", ")));
        if (!unit.isEmpty() && !isPackedType(info.format.type))
            text += QStringLiteral(" (") + unit.join(QStringLiteral(", ")) + u')';
        return text;
    }
    const std::size_t width = rowWidth;
    const std::size_t element = std::size_t(y) * width + std::size_t(x);
    if (width == 0 || element >= b.count)
        return {};
    const std::size_t components = b.componentCount() / b.count;
    return tr("x %1, y %2: %3").arg(x).arg(y).arg(formatComponent(b, element * components, format));
}

} // namespace clscope::ui
