// Timeline painting: one primitive per pixel column per row, boxes without antialiasing, visible ranges
// by binary search (TimelineRow), the axis with label steps chosen from the text width, the pool track as
// a filled step line that keeps per-column peaks, and the legend.
#include "display/recordformat.h"
#include "display/stdstring.h"
#include "timelinewidget.h"

#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {

const QColor kActiveColour(0x4e, 0x79, 0xa7);
const QColor kHeldColour(0xf2, 0x8e, 0x2b);

bool isDark(const QColor &c)
{
    return c.lightnessF() < 0.5;
}

} // namespace

QImage TimelineWidget::renderImage(const QSize &size) const
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    paintTimeline(p, size);
    return image;
}

void TimelineWidget::paintTimeline(QPainter &p, const QSize &size) const
{
    TimelineData d = m_data;
    d.width = std::max(1, size.width() - kLabelWidth);
    const Layout layout = layoutFor(size);
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(QRect(QPoint(0, 0), size), palette().base());

    const QFontMetrics fm(font());
    const TimeAxisTicks ticks = chooseTicks(
        d, [&fm](const std::string &text) { return fm.horizontalAdvance(QString::fromUtf8(text)); }, 18);

    // Lane shading, then the grid, then the boxes on top of both.
    for (const LaneBox &box : layout.lanes) {
        if (box.lane % 2 == 1)
            p.fillRect(kLabelWidth, box.top, size.width() - kLabelWidth, box.height,
                       palette().alternateBase());
    }
    p.setPen(palette().color(QPalette::Midlight));
    if (ticks.step > 0) {
        for (int k = 0; k < 1000; ++k) {
            const double t = ticks.firstTick + k * ticks.step;
            if (t > d.viewEnd)
                break;
            const int x = kLabelWidth + static_cast<int>(d.timeToX(t));
            p.drawLine(x, kAxisHeight, x, layout.legendTop - 1);
        }
    }
    paintLanes(p, d, layout, size);
    if (!m_pool.empty())
        paintPool(p, d, layout.poolTop, size);
    paintAxis(p, d, size, ticks);
    paintLegend(p, layout.legendTop, size);
    paintSelection(p, d, layout);

    if (m_drag == Drag::Band) {
        const int x0 = std::min(m_pressPos.x(), m_bandEnd);
        const int x1 = std::max(m_pressPos.x(), m_bandEnd);
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(60);
        const QRect band(x0, kAxisHeight, x1 - x0, layout.legendTop - kAxisHeight);
        p.fillRect(band, fill);
        p.setPen(palette().color(QPalette::Highlight));
        p.drawRect(band.adjusted(0, 0, -1, -1));
        const double ns = (x1 - x0) * d.nsPerPixel();
        p.setPen(palette().color(QPalette::Text));
        p.drawText(band.adjusted(4, 2, -4, 0), Qt::AlignTop | Qt::AlignLeft, durationText(ns));
    }
}

void TimelineWidget::paintAxis(QPainter &p, const TimelineData &d, const QSize &size,
                               const TimeAxisTicks &ticks) const
{
    const QPalette &pal = palette();
    p.fillRect(0, 0, size.width(), kAxisHeight, pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, kAxisHeight - 1, size.width(), kAxisHeight - 1);
    p.setPen(pal.color(QPalette::WindowText));
    const QFontMetrics fm(font());
    // The labels count from the view's start; where that is in the run is said here.
    p.drawText(QRect(8, 0, kLabelWidth - 12, kAxisHeight - 2), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(axisCaption(d), Qt::ElideRight, kLabelWidth - 12));
    if (ticks.step <= 0)
        return;
    const double pixelsPerStep = ticks.step / d.nsPerPixel();
    const double minor = ticks.step / ticks.minorDivisions;
    const bool drawMinor = pixelsPerStep / ticks.minorDivisions >= 5;
    for (int k = 0; k < 1000; ++k) {
        const double t = ticks.firstTick + k * ticks.step;
        if (t > d.viewEnd)
            break;
        const int x = kLabelWidth + static_cast<int>(d.timeToX(t));
        if (drawMinor) {
            p.setPen(pal.color(QPalette::Mid));
            for (int m = 1; m < ticks.minorDivisions; ++m) {
                const int mx = kLabelWidth + static_cast<int>(d.timeToX(t + m * minor));
                if (mx >= kLabelWidth && mx < size.width())
                    p.drawLine(mx, kAxisHeight - 4, mx, kAxisHeight - 1);
            }
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawLine(x, kAxisHeight - 8, x, kAxisHeight - 1);
    }
    p.setPen(pal.color(QPalette::WindowText));
    for (const AxisLabel &label : axisLabels(d, ticks, [&fm](const std::string &text) {
             return fm.horizontalAdvance(QString::fromUtf8(text));
         }))
        p.drawText(kLabelWidth + label.x, kAxisHeight - 11, qs(label.text));
}

QString TimelineWidget::axisCaption(const TimelineData &d) const
{
    return tr("from %1 (%2)").arg(durationText(d.viewStart), durationText(d.span()));
}

void TimelineWidget::paintLanes(QPainter &p, const TimelineData &d, const Layout &layout,
                                const QSize &size) const
{
    const QPalette &pal = palette();
    const auto &lanes = m_lanes.lanes();
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(font());
    const QFontMetrics boldMetrics(bold);
    const QColor queued = QColor::fromRgb(kQueuedRgb);
    const QColor submitted = QColor::fromRgb(kSubmittedRgb);

    for (const Header &h : layout.headers) {
        p.fillRect(0, h.top, size.width(), kHeaderHeight, pal.window());
        p.setFont(bold);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(6, h.top, size.width() - 12, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   boldMetrics.elidedText(h.title, Qt::ElideRight, size.width() - 12));
        p.setFont(font());
    }
    for (const LaneBox &box : layout.lanes) {
        const TimelineLane &lane = lanes[static_cast<std::size_t>(box.lane)];
        if (box.stageHeight) {
            paintRow(p, d, lane.queued, box.top + 3, kStageRow, &queued, false);
            paintRow(p, d, lane.submitted, box.top + 3 + kStageRow + 1, kStageRow, &submitted, false);
        }
        paintRow(p, d, lane.run, box.runTop, box.runHeight, nullptr, box.runHeight >= fm.height());
        // The label column is painted over anything that reached into it.
        p.fillRect(0, box.top, kLabelWidth, box.height, pal.window());
        p.setPen(pal.color(QPalette::WindowText));
        p.setFont(lane.host ? bold : font());
        const int indent = lane.host ? 6 : 18;
        const int room = kLabelWidth - indent - 6;
        const QStringList lines = laneLabelLines(box.lane);
        if (lane.host) {
            p.drawText(QRect(indent, box.top, room, box.height), Qt::AlignVCenter | Qt::AlignLeft,
                       boldMetrics.elidedText(lines.front(), Qt::ElideRight, room));
        } else if (box.height >= 2 * fm.height() + 2) {
            // The queue, and under it the device that ran it: a lane says where its commands ran even
            // when the device's header is far above.
            const int top = box.top + (box.height - 2 * fm.height()) / 2;
            p.drawText(QRect(indent, top, room, fm.height()), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(lines.front(), Qt::ElideRight, room));
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(indent, top + fm.height(), room, fm.height()), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(lines.back(), Qt::ElideRight, room));
        } else {
            p.drawText(QRect(indent, box.top, room, box.height), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(lines.join(QStringLiteral(" · ")), Qt::ElideRight, room));
        }
        p.setFont(font());
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, box.top + box.height - 1, size.width(), box.top + box.height - 1);
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(kLabelWidth - 1, kAxisHeight, kLabelWidth - 1, layout.legendTop - 1);
}

void TimelineWidget::paintRow(QPainter &p, const TimelineData &d, const TimelineRow &row, int top, int height,
                              const QColor *fixedColour, bool labels) const
{
    if (row.empty() || height <= 0)
        return;
    const int w = d.width;
    const double scale = 1.0 / d.nsPerPixel();
    const double offset = d.viewStart;
    const std::uint64_t origin = d.origin;
    const auto [lo, hi] = row.visibleRange(d.absolute(d.viewStart), d.absolute(d.viewEnd));
    const auto &items = row.items();
    const QFontMetrics fm(font());

    int drawn = -1; // last column painted: nothing is painted twice in a column
    int pending = -1;
    std::uint32_t pendingColour = 0;
    std::uint64_t pendingLength = 0;
    auto colour = [&](std::uint32_t index) -> const QColor & {
        return fixedColour ? *fixedColour : m_palette[index];
    };
    auto flush = [&] {
        if (pending > drawn) {
            p.fillRect(kLabelWidth + pending, top, 1, height, colour(pendingColour));
            drawn = pending;
        }
        pending = -1;
        pendingLength = 0;
    };

    for (std::size_t i = lo; i < hi; ++i) {
        const TimelineItem &item = items[i];
        // Relative first (exact in uint64), then double: absolute ns would lose precision in a double.
        const double x0 = (static_cast<double>(item.begin - origin) - offset) * scale;
        const double x1 = (static_cast<double>(item.end - origin) - offset) * scale;
        if (x1 < 0 || x0 >= w)
            continue;
        if (x1 - x0 < 1.0) {
            // Narrower than a pixel: merged into its column, which takes the colour of its longest command.
            const int c = std::clamp(static_cast<int>((x0 + x1) * 0.5), 0, w - 1);
            if (c <= drawn)
                continue;
            if (c != pending)
                flush();
            pending = c;
            const std::uint64_t length = item.end - item.begin;
            if (length >= pendingLength) {
                pendingLength = length;
                pendingColour = item.colour;
            }
            continue;
        }
        // Clamped in double first: a box far off screen would overflow an int.
        int c0 = x0 <= 0 ? 0 : static_cast<int>(x0);
        const int c1 = x1 >= w ? w - 1 : static_cast<int>(std::ceil(x1)) - 1;
        if (c1 <= drawn)
            continue;
        flush();
        c0 = std::max(c0, drawn + 1);
        if (c1 < c0)
            continue;
        const int boxWidth = c1 - c0 + 1;
        const QColor &fill = colour(item.colour);
        if (boxWidth >= 4 && !fixedColour) {
            p.setPen(m_edges[item.colour]);
            p.setBrush(fill);
            p.drawRect(kLabelWidth + c0, top, boxWidth - 1, height - 1);
            if (labels && boxWidth >= 36) {
                const CommandRecord &r = (*m_records)[item.record];
                const QString text = fm.elidedText(qs(r.name), Qt::ElideRight, boxWidth - 6);
                if (!text.isEmpty()) {
                    p.setPen(isDark(fill) ? Qt::white : Qt::black);
                    p.drawText(QRect(kLabelWidth + c0 + 3, top, boxWidth - 6, height), Qt::AlignVCenter,
                               text);
                }
            }
        } else {
            p.fillRect(kLabelWidth + c0, top, boxWidth, height, fill);
        }
        drawn = c1;
    }
    flush();
}

void TimelineWidget::paintPool(QPainter &p, const TimelineData &d, int top, const QSize &size) const
{
    const QPalette &pal = palette();
    const int w = d.width;
    const int bottom = top + kPoolHeight - 2;
    // The value at each column: the largest total (held + active) and active seen in it, so that spikes
    // narrower than a pixel survive; between samples the last value holds (a step line).
    std::vector<std::uint64_t> total(static_cast<std::size_t>(w), 0);
    std::vector<std::uint64_t> active(static_cast<std::size_t>(w), 0);
    std::vector<char> known(static_cast<std::size_t>(w), 0);
    const std::uint64_t from = d.absolute(d.viewStart);
    const std::uint64_t to = d.absolute(d.viewEnd);
    auto it = std::upper_bound(m_pool.begin(), m_pool.end(), from,
                               [](std::uint64_t t, const PoolSeriesPoint &s) { return t < s.timestampNs; });
    if (it != m_pool.begin())
        --it;
    int column = 0;
    std::uint64_t curTotal = 0;
    std::uint64_t curActive = 0;
    bool have = false;
    std::uint64_t peak = 0;
    for (; it != m_pool.end() && it->timestampNs <= to; ++it) {
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
    const bool seriesContinues = it != m_pool.end();
    const int lastColumn = seriesContinues ? w - 1 : column;
    for (; column <= lastColumn && have; ++column) {
        auto i = static_cast<std::size_t>(column);
        total[i] = std::max(total[i], curTotal);
        active[i] = std::max(active[i], curActive);
        known[i] = 1;
    }
    for (int c = 0; c < w; ++c)
        peak = std::max(peak, total[static_cast<std::size_t>(c)]);

    p.fillRect(0, top, kLabelWidth, kPoolHeight, pal.window());
    p.setPen(pal.color(QPalette::Midlight));
    p.drawLine(0, top - 1, size.width(), top - 1);
    p.drawLine(0, bottom + 1, size.width(), bottom + 1);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(6, top + 2, kLabelWidth - 10, 16), Qt::AlignLeft | Qt::AlignVCenter,
               m_counterTitle.isEmpty() ? tr("Memory pool") : m_counterTitle);
    p.setFont(font());
    p.fillRect(8, top + 24, 10, 10, kActiveColour);
    p.drawText(QRect(22, top + 20, kLabelWidth - 26, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("active bytes"));
    p.fillRect(8, top + 42, 10, 10, kHeldColour);
    p.drawText(QRect(22, top + 38, kLabelWidth - 26, 16), Qt::AlignLeft | Qt::AlignVCenter, tr("held bytes"));
    if (peak == 0)
        return;
    const double yScale = (kPoolHeight - 16) / static_cast<double>(peak);
    auto polygon = [&](const std::vector<std::uint64_t> &values) {
        // One polygon for the whole track: a step line closed along the baseline.
        QPolygon poly;
        poly.reserve(2 * w + 2);
        int firstKnown = -1;
        int lastKnown = -1;
        for (int c = 0; c < w; ++c) {
            if (!known[static_cast<std::size_t>(c)])
                continue;
            if (firstKnown < 0)
                firstKnown = c;
            lastKnown = c;
            const int y =
                bottom - static_cast<int>(std::lround(values[static_cast<std::size_t>(c)] * yScale));
            poly << QPoint(kLabelWidth + c, y) << QPoint(kLabelWidth + c + 1, y);
        }
        if (firstKnown >= 0)
            poly << QPoint(kLabelWidth + lastKnown + 1, bottom) << QPoint(kLabelWidth + firstKnown, bottom);
        return poly;
    };
    QColor held = kHeldColour;
    held.setAlpha(200);
    p.setPen(Qt::NoPen);
    p.setBrush(held);
    p.drawPolygon(polygon(total));
    p.setBrush(kActiveColour);
    p.drawPolygon(polygon(active));
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(kLabelWidth + 4, top + 1, 200, 14), Qt::AlignLeft | Qt::AlignTop,
               tr("peak %1").arg(bytesText(peak)));
}

void TimelineWidget::paintLegend(QPainter &p, int top, const QSize &size) const
{
    const QPalette &pal = palette();
    p.fillRect(0, top, size.width(), kLegendHeight, pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, top, size.width(), top);
    const QFontMetrics fm(font());
    int x = 8;
    for (std::size_t i = 0; i < m_legend.size(); ++i) {
        const LegendEntry &e = m_legend[i];
        const int w = 14 + fm.horizontalAdvance(e.label) + 14;
        if (x + w > size.width() - 60) {
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(QRect(x, top, 80, kLegendHeight), Qt::AlignVCenter,
                       tr("+%1 more").arg(m_legend.size() - i));
            break;
        }
        p.fillRect(x, top + (kLegendHeight - 10) / 2, 10, 10, e.colour);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(x + 14, top, w, kLegendHeight), Qt::AlignVCenter, e.label);
        x += w;
    }
}

void TimelineWidget::paintSelection(QPainter &p, const TimelineData &d, const Layout &layout) const
{
    if (m_selected < 0)
        return;
    const int lane = m_lanes.laneOf(static_cast<std::size_t>(m_selected));
    for (const LaneBox &box : layout.lanes) {
        if (box.lane != lane)
            continue;
        const CommandRecord &r = (*m_records)[static_cast<std::size_t>(m_selected)];
        const double x0 = std::max(-10.0, d.absoluteToX(r.start));
        const double x1 = std::min(d.width + 10.0, d.absoluteToX(r.end));
        if (x1 < 0 || x0 > d.width)
            return;
        // Always visible, however narrow the command is at this zoom.
        const double centre = (x0 + x1) / 2;
        const double half = std::max(3.0, (x1 - x0) / 2);
        const int left = kLabelWidth + static_cast<int>(std::floor(centre - half));
        const int right = kLabelWidth + static_cast<int>(std::ceil(centre + half));
        QPen pen(palette().color(QPalette::Highlight), 2);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(left - 1, box.runTop - 2, right - left + 2, box.runHeight + 3));
        return;
    }
}

} // namespace clscope::ui
