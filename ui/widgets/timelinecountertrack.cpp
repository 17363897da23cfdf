// The timeline's counter track.
#include "timelinecountertrack.h"

#include "display/recordformat.h"

#include <QPainter>
#include <QPolygon>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {

const QColor kCounterActiveColour(0x4e, 0x79, 0xa7);
const QColor kCounterHeldColour(0xf2, 0x8e, 0x2b);

} // namespace

TimelineCounterTrack::Columns TimelineCounterTrack::columns(const TimelineData &d) const
{
    const int w = d.width;
    Columns out;
    out.total.assign(static_cast<std::size_t>(w), 0);
    out.active.assign(static_cast<std::size_t>(w), 0);
    out.known.assign(static_cast<std::size_t>(w), 0);
    auto &total = out.total;
    auto &active = out.active;
    auto &known = out.known;
    // Between samples the last value holds (a step line).
    const std::uint64_t from = d.absolute(d.viewStart);
    const std::uint64_t to = d.absolute(d.viewEnd);
    auto it = std::upper_bound(m_series.begin(), m_series.end(), from,
                               [](std::uint64_t t, const PoolSeriesPoint &s) { return t < s.timestampNs; });
    if (it != m_series.begin())
        --it;
    int column = 0;
    std::uint64_t curTotal = 0;
    std::uint64_t curActive = 0;
    bool have = false;
    for (; it != m_series.end() && it->timestampNs <= to; ++it) {
        const int c = std::clamp(static_cast<int>(std::floor(d.absoluteToX(it->timestampNs))), 0, w - 1);
        for (; column < c; ++column) {
            if (have) {
                auto &t = total[static_cast<std::size_t>(column)];
                auto &a = active[static_cast<std::size_t>(column)];
                t = std::max(t, curTotal);
                a = std::max(a, curActive);
                known[static_cast<std::size_t>(column)] = 1;
            }
        }
        curTotal = it->heldBytes + it->activeBytes;
        curActive = it->activeBytes;
        have = true;
        auto &t = total[static_cast<std::size_t>(c)];
        auto &a = active[static_cast<std::size_t>(c)];
        t = std::max(t, curTotal);
        a = std::max(a, curActive);
        known[static_cast<std::size_t>(c)] = 1;
    }
    // After the last sample in view the value holds to the end of the series, not of the view.
    const bool seriesContinues = it != m_series.end();
    const int lastColumn = seriesContinues ? w - 1 : column;
    for (; column <= lastColumn && have; ++column) {
        auto i = static_cast<std::size_t>(column);
        total[i] = std::max(total[i], curTotal);
        active[i] = std::max(active[i], curActive);
        known[i] = 1;
    }
    for (int c = 0; c < w; ++c)
        out.peak = std::max(out.peak, total[static_cast<std::size_t>(c)]);
    return out;
}

void TimelineCounterTrack::paintKey(QPainter &p, const TimelineTrackContext &c, int top) const
{
    const QPalette &pal = c.palette;
    const int labelWidth = c.labelWidth;
    p.fillRect(0, top, labelWidth, kPlotHeight, pal.window());
    p.setPen(pal.color(QPalette::Midlight));
    p.drawLine(0, top - 1, c.size.width(), top - 1);
    p.drawLine(0, top + kPlotHeight - 1, c.size.width(), top + kPlotHeight - 1);
    QFont bold = c.font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, top + 2, labelWidth - 10, 16), Qt::AlignLeft | Qt::AlignVCenter,
               m_title.isEmpty() ? tr("Memory pool") : m_title);
    p.setFont(c.font);
    p.fillRect(8, top + 24, 10, 10, kCounterActiveColour);
    p.drawText(QRect(22, top + 20, labelWidth - 26, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("active bytes"));
    p.fillRect(8, top + 42, 10, 10, kCounterHeldColour);
    p.drawText(QRect(22, top + 38, labelWidth - 26, 16), Qt::AlignLeft | Qt::AlignVCenter, tr("held bytes"));
}

void TimelineCounterTrack::paint(QPainter &p, const TimelineTrackContext &c) const
{
    if (m_series.empty())
        return;
    const int w = c.data.width;
    const int top = c.rect.top() + kGap;
    const int bottom = top + kPlotHeight - 2;
    const int labelWidth = c.labelWidth;
    const Columns cols = columns(c.data);
    paintKey(p, c, top);
    if (cols.peak == 0)
        return;
    const double yScale = (kPlotHeight - 16) / static_cast<double>(cols.peak);
    auto polygon = [&](const std::vector<std::uint64_t> &values) {
        // One polygon for the whole track: a step line closed along the baseline.
        QPolygon poly;
        poly.reserve(2 * w + 2);
        int firstKnown = -1;
        int lastKnown = -1;
        for (int col = 0; col < w; ++col) {
            if (!cols.known[static_cast<std::size_t>(col)])
                continue;
            if (firstKnown < 0)
                firstKnown = col;
            lastKnown = col;
            const int y =
                bottom - static_cast<int>(std::lround(values[static_cast<std::size_t>(col)] * yScale));
            poly << QPoint(labelWidth + col, y) << QPoint(labelWidth + col + 1, y);
        }
        if (firstKnown >= 0)
            poly << QPoint(labelWidth + lastKnown + 1, bottom) << QPoint(labelWidth + firstKnown, bottom);
        return poly;
    };
    QColor held = kCounterHeldColour;
    held.setAlpha(200);
    p.setPen(Qt::NoPen);
    p.setBrush(held);
    p.drawPolygon(polygon(cols.total));
    p.setBrush(kCounterActiveColour);
    p.drawPolygon(polygon(cols.active));
    p.setPen(c.palette.color(QPalette::Text));
    p.drawText(QRect(labelWidth + 4, top + 1, 200, 14), Qt::AlignLeft | Qt::AlignTop,
               tr("peak %1").arg(bytesText(cols.peak)));
}

} // namespace clscope::ui
