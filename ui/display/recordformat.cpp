// The palette and number formats that the timeline, the tables and the panels share.
#include "recordformat.h"

#include "timelinedata.h"

#include "clscope/format.h"

#include <array>
#include <cmath>
#include <utility>

namespace clscope::ui {

namespace {

// Types: calm, distinct hues (transfers warm, sync grey). Kernels: a 16-colour qualitative palette that
// stays readable with dark text on it.
constexpr std::array<QRgb, kCommandTypeCount> kTypeColours = {
    0xff4e79a7, // kernel (only used when a kernel has no name)
    0xffe15759, // read
    0xfff28e2b, // write
    0xffedc948, // copy
    0xffb07aa1, // fill
    0xffff9da7, // map
    0xff9c755f, // migrate
    0xff76b7b2, // build (host)
    0xffbab0ac, // marker
};
constexpr std::array<QRgb, kKernelColourCount> kKernelColours = {
    0xff4e79a7, 0xff59a14f, 0xff8cd17d, 0xff499894, 0xff86bcb6, 0xfff1ce63, 0xffa0cbe8, 0xff79706e,
    0xffd37295, 0xfffabfd2, 0xffb6992d, 0xff8fbc8f, 0xff6a5acd, 0xffd4a6c8, 0xff9d7660, 0xff66c2a5,
};

} // namespace

QColor timelineColour(std::uint32_t colourIndex)
{
    if (colourIndex < kKernelColourBase)
        return QColor::fromRgb(kTypeColours[colourIndex]);
    return QColor::fromRgb(kKernelColours[(colourIndex - kKernelColourBase) % kKernelColourCount]);
}

QString durationText(double ns)
{
    const double a = std::fabs(ns);
    if (std::llround(a) < 1000)
        return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
    static constexpr std::array<std::pair<double, const char *>, 3> units = {
        {{1e3, "\u00b5s"}, {1e6, "ms"}, {1e9, "s"}}};
    for (std::size_t u = 0; u < units.size(); ++u) {
        const double v = a / units[u].first;
        // Three significant digits: 1.23, 12.3, 123.
        const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
        const double scale = std::pow(10.0, decimals);
        const double rounded = std::round(v * scale) / scale;
        if (rounded >= 1000 && u + 1 < units.size())
            continue; // 999.7 µs is 1 ms
        QString text = QString::number(ns < 0 ? -rounded : rounded, 'f', decimals);
        if (text.contains(u'.')) {
            while (text.endsWith(u'0'))
                text.chop(1);
            if (text.endsWith(u'.'))
                text.chop(1);
        }
        return text + u' ' + QString::fromUtf8(units[u].second);
    }
    return {};
}

QString bytesText(std::uint64_t bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

QString typeText(CommandRecord::Type type)
{
    return QString::fromUtf8(typeName(type));
}

} // namespace clscope::ui
