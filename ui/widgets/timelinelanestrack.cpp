// The lanes of records: layout, painting, hit tests and tool tips.
#include "timelinelanestrack.h"

#include "display/recordformat.h"
#include "display/stdstring.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {

bool isDarkFill(const QColor &c)
{
    return c.lightnessF() < 0.5;
}

} // namespace

TimelineLanesTrack::TimelineLanesTrack()
    : m_records(std::make_shared<const std::vector<CommandRecord>>())
{
    for (std::uint32_t i = 0; i < kKernelColourBase + kKernelColourCount; ++i) {
        m_palette.push_back(timelineColour(i));
        m_edges.push_back(timelineColour(i).darker(150));
    }
}

std::size_t TimelineLanesTrack::setRecords(RecordsPtr records, bool stages, std::size_t from)
{
    m_records = std::move(records);
    m_stages = stages;
    if (from == 0 || !m_lanes.append(*m_records, from)) {
        m_lanes.build(*m_records, m_stages);
        from = 0;
    }
    return from;
}

// ---- Layout and hit tests -------------------------------------------------------------------------------

int TimelineLanesTrack::headerCount() const
{
    const auto &lanes = m_lanes.lanes();
    int headers = 0;
    for (std::size_t i = 1; i < lanes.size(); ++i) {
        if (i == 1 || lanes[i].device != lanes[i - 1].device)
            ++headers;
    }
    return headers;
}

int TimelineLanesTrack::height(int available) const
{
    const auto &lanes = m_lanes.lanes();
    if (lanes.empty())
        return 0;
    const int headers = headerCount() * kHeaderHeight;
    const int stageExtra = m_stages ? 2 * (kStageRow + 1) : 0;
    const int count = static_cast<int>(lanes.size());
    // Lanes grow to use the height, but not so much that a box looks like a bar chart.
    const int laneHeight = std::clamp((available - headers) / count, 14 + stageExtra, 40 + stageExtra);
    return headers + count * laneHeight;
}

int TimelineLanesTrack::preferredHeight() const
{
    const auto lanes = static_cast<int>(m_lanes.lanes().size());
    return lanes * (24 + (m_stages ? 14 : 0)) + 2 * kHeaderHeight;
}

TimelineLanesTrack::Layout TimelineLanesTrack::layoutFor(const QRect &rect) const
{
    Layout layout;
    const auto &lanes = m_lanes.lanes();
    if (lanes.empty())
        return layout;
    // height() gave every lane the same height under its headers.
    const int laneHeight = (rect.height() - headerCount() * kHeaderHeight) / static_cast<int>(lanes.size());
    int y = rect.top();
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (i >= 1 && (i == 1 || lanes[i].device != lanes[i - 1].device)) {
            layout.headers.push_back({static_cast<int>(i), y});
            y += kHeaderHeight;
        }
        LaneBox box;
        box.lane = static_cast<int>(i);
        box.top = y;
        box.height = laneHeight;
        box.stageHeight = m_stages && !lanes[i].host ? kStageRow : 0;
        box.runTop = y + 3 + (box.stageHeight ? 2 * (kStageRow + 1) : 0);
        box.runHeight = std::max(4, y + laneHeight - 3 - box.runTop);
        layout.lanes.push_back(box);
        y += laneHeight;
    }
    return layout;
}

int TimelineLanesTrack::laneAt(int y, const TimelineTrackContext &c) const
{
    for (const LaneBox &box : layoutFor(c.rect).lanes) {
        if (y >= box.top && y < box.top + box.height)
            return box.lane;
    }
    return -1;
}

QRect TimelineLanesTrack::runRect(int lane, const TimelineTrackContext &c) const
{
    for (const LaneBox &box : layoutFor(c.rect).lanes) {
        if (box.lane == lane)
            return {c.labelWidth, box.runTop, std::max(1, c.size.width() - c.labelWidth), box.runHeight};
    }
    return {};
}

QString TimelineLanesTrack::laneTitle(int lane) const
{
    const auto &lanes = m_lanes.lanes();
    if (lane < 0 || lane >= static_cast<int>(lanes.size()))
        return {};
    const TimelineLane &l = lanes[static_cast<std::size_t>(lane)];
    return l.host ? hostLaneTitle(l) : qs(l.device) + QStringLiteral(" / ") + qs(l.queue);
}

QString TimelineLanesTrack::hostLaneTitle(const TimelineLane &lane)
{
    // The workbench's own lane is "Host"; a captured program's threads are "Host thread N".
    return lane.queue == "host" ? tr("Host") : tr("Host %1").arg(qs(lane.queue));
}

QStringList TimelineLanesTrack::laneLabelLines(int lane) const
{
    const auto &lanes = m_lanes.lanes();
    if (lane < 0 || lane >= static_cast<int>(lanes.size()))
        return {};
    const TimelineLane &l = lanes[static_cast<std::size_t>(lane)];
    if (l.host)
        return {hostLaneTitle(l)};
    return {qs(l.queue), qs(l.device)};
}

int TimelineLanesTrack::recordAt(const QPoint &pos, const TimelineTrackContext &c) const
{
    if (pos.x() < c.labelWidth)
        return -1;
    for (const LaneBox &box : layoutFor(c.rect).lanes) {
        if (pos.y() < box.top || pos.y() >= box.top + box.height)
            continue;
        const TimelineLane &lane = m_lanes.lanes()[static_cast<std::size_t>(box.lane)];
        const TimelineRow *row = &lane.run;
        if (box.stageHeight && pos.y() < box.runTop - 1)
            row = pos.y() < box.top + 3 + kStageRow + 1 ? &lane.queued : &lane.submitted;
        const TimelineData &d = c.data;
        const std::uint64_t t = d.absolute(d.xToTime(pos.x() - c.labelWidth));
        const auto tolerance = static_cast<std::uint64_t>(std::ceil(3 * d.nsPerPixel()));
        const std::ptrdiff_t hit = row->hitTest(t, tolerance);
        return hit < 0 ? -1 : static_cast<int>(row->items()[static_cast<std::size_t>(hit)].record);
    }
    return -1;
}

QString TimelineLanesTrack::toolTip(const QPoint &pos, const TimelineTrackContext &c) const
{
    if (const int record = recordAt(pos, c); record >= 0)
        return recordToolTip(record, c.data);
    // Over the label column: the lane's whole title, which the column may elide.
    return pos.x() < c.labelWidth ? laneTitle(laneAt(pos.y(), c)) : QString();
}

QString TimelineLanesTrack::recordToolTip(int record, const TimelineData &data) const
{
    if (record < 0 || record >= static_cast<int>(m_records->size()))
        return {};
    const CommandRecord &r = (*m_records)[static_cast<std::size_t>(record)];
    QString rows;
    auto row = [&rows](const QString &key, const QString &value) {
        if (!value.isEmpty())
            rows += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(key, value);
    };
    auto stamp = [](std::uint64_t ns) -> QString {
        return ns ? QString::number(ns) + QStringLiteral(" ns") : tr("—");
    };
    auto span = [](std::uint64_t a, std::uint64_t b) -> QString {
        return a && b && b >= a ? durationText(static_cast<double>(b - a)) : QString();
    };
    row(tr("Queue"), qs(r.queue).toHtmlEscaped());
    row(tr("Device"), (r.hostSpan ? tr("host") : qs(r.device)).toHtmlEscaped());
    row(tr("Duration"), span(r.start, r.end));
    row(tr("Start"), r.start ? QStringLiteral("+") + durationText(data.relative(r.start)) : QString());
    row(tr("Queued → submit"), span(r.queued, r.submit));
    row(tr("Submit → start"), span(r.submit, r.start));
    if (r.complete)
        row(tr("End → complete"), span(r.end, *r.complete));
    if (!r.hostSpan) {
        row(tr("QUEUED"), stamp(r.queued));
        row(tr("SUBMIT"), stamp(r.submit));
    }
    row(tr("START"), stamp(r.start));
    row(tr("END"), stamp(r.end));
    if (r.complete)
        row(tr("COMPLETE"), stamp(*r.complete));
    if (r.hostSubmitNs)
        row(tr("Host enqueue"), stamp(r.hostSubmitNs));
    row(tr("Global"), QString::fromStdString(ndRangeText(r.global, r.dims)));
    row(tr("Local"), QString::fromStdString(ndRangeText(r.local, r.dims)));
    if (r.bytes)
        row(tr("Bytes"), bytesText(r.bytes) + QStringLiteral(" (%1)").arg(r.bytes));
    if (r.hasBandwidth())
        row(tr("Bandwidth"), QString::number(r.gbPerSecond(), 'f', 2) + QStringLiteral(" GB/s"));
    const StampIssues issues = checkTimestamps(r);
    if (issues.any()) {
        const QString text = QString::fromStdString(describeIssues(issues)).toHtmlEscaped();
        row(tr("Checks"),
            issues.isError() ? QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text) : text);
    }
    return QStringLiteral(
               "<b>%1</b> &nbsp;<i>%2</i> &nbsp;#%3<table cellspacing='0' cellpadding='1'>%4</table>")
        .arg(qs(r.name).toHtmlEscaped(), typeText(r.type), QString::number(record), rows);
}

// ---- Painting -------------------------------------------------------------------------------------------

void TimelineLanesTrack::paintBackground(QPainter &p, const TimelineTrackContext &c) const
{
    // Every other lane shaded, under the grid.
    for (const LaneBox &box : layoutFor(c.rect).lanes) {
        if (box.lane % 2 == 1)
            p.fillRect(c.labelWidth, box.top, c.size.width() - c.labelWidth, box.height,
                       c.palette.alternateBase());
    }
}

void TimelineLanesTrack::paint(QPainter &p, const TimelineTrackContext &c) const
{
    const QPalette &pal = c.palette;
    const auto &lanes = m_lanes.lanes();
    const int width = c.size.width();
    const int labelWidth = c.labelWidth;
    const Layout layout = layoutFor(c.rect);
    QFont bold = c.font;
    bold.setBold(true);
    const QFontMetrics fm(c.font);
    const QFontMetrics boldMetrics(bold);
    const QColor queued = QColor::fromRgb(kTimelineQueuedRgb);
    const QColor submitted = QColor::fromRgb(kTimelineSubmittedRgb);

    for (const Header &h : layout.headers) {
        p.fillRect(0, h.top, width, kHeaderHeight, pal.window());
        p.setFont(bold);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(6, h.top, width - 12, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   boldMetrics.elidedText(qs(lanes[static_cast<std::size_t>(h.lane)].device), Qt::ElideRight,
                                          width - 12));
        p.setFont(c.font);
    }
    for (const LaneBox &box : layout.lanes) {
        const TimelineLane &lane = lanes[static_cast<std::size_t>(box.lane)];
        if (box.stageHeight) {
            paintRow(p, c, lane.queued, box.top + 3, kStageRow, &queued, false);
            paintRow(p, c, lane.submitted, box.top + 3 + kStageRow + 1, kStageRow, &submitted, false);
        }
        paintRow(p, c, lane.run, box.runTop, box.runHeight, nullptr, box.runHeight >= fm.height());
        // The label column is painted over anything that reached into it.
        p.fillRect(0, box.top, labelWidth, box.height, pal.window());
        p.setPen(pal.color(QPalette::WindowText));
        p.setFont(lane.host ? bold : c.font);
        const int indent = lane.host ? 6 : 18;
        const int room = labelWidth - indent - 6;
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
        p.setFont(c.font);
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, box.top + box.height - 1, width, box.top + box.height - 1);
    }
    // The label column's edge runs down to the legend (the counter's key covers it).
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(labelWidth - 1, c.bodyTop, labelWidth - 1, c.bodyBottom - 1);
}

void TimelineLanesTrack::paintRow(QPainter &p, const TimelineTrackContext &c, const TimelineRow &row, int top,
                                  int height, const QColor *fixedColour, bool labels) const
{
    if (row.empty() || height <= 0)
        return;
    const TimelineData &d = c.data;
    const int left = c.labelWidth;
    const int w = d.width;
    const double scale = 1.0 / d.nsPerPixel();
    const double offset = d.viewStart;
    const std::uint64_t origin = d.origin;
    const auto [lo, hi] = row.visibleRange(d.absolute(d.viewStart), d.absolute(d.viewEnd));
    const auto &items = row.items();
    const QFontMetrics fm(c.font);

    int drawn = -1; // last column painted: nothing is painted twice in a column
    int pending = -1;
    std::uint32_t pendingColour = 0;
    std::uint64_t pendingLength = 0;
    auto colour = [&](std::uint32_t index) -> const QColor & {
        return fixedColour ? *fixedColour : m_palette[index];
    };
    auto flush = [&] {
        if (pending > drawn) {
            p.fillRect(left + pending, top, 1, height, colour(pendingColour));
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
            const int col = std::clamp(static_cast<int>((x0 + x1) * 0.5), 0, w - 1);
            if (col <= drawn)
                continue;
            if (col != pending)
                flush();
            pending = col;
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
            p.drawRect(left + c0, top, boxWidth - 1, height - 1);
            if (labels && boxWidth >= 36) {
                const CommandRecord &r = (*m_records)[item.record];
                const QString text = fm.elidedText(qs(r.name), Qt::ElideRight, boxWidth - 6);
                if (!text.isEmpty()) {
                    p.setPen(isDarkFill(fill) ? Qt::white : Qt::black);
                    p.drawText(QRect(left + c0 + 3, top, boxWidth - 6, height), Qt::AlignVCenter, text);
                }
            }
        } else {
            p.fillRect(left + c0, top, boxWidth, height, fill);
        }
        drawn = c1;
    }
    flush();
}

void TimelineLanesTrack::paintOverlay(QPainter &p, const TimelineTrackContext &c) const
{
    if (c.selected < 0)
        return;
    const TimelineData &d = c.data;
    const int lane = m_lanes.laneOf(static_cast<std::size_t>(c.selected));
    for (const LaneBox &box : layoutFor(c.rect).lanes) {
        if (box.lane != lane)
            continue;
        const CommandRecord &r = (*m_records)[static_cast<std::size_t>(c.selected)];
        const double x0 = std::max(-10.0, d.absoluteToX(r.start));
        const double x1 = std::min(d.width + 10.0, d.absoluteToX(r.end));
        if (x1 < 0 || x0 > d.width)
            return;
        // Always visible, however narrow the command is at this zoom.
        const double centre = (x0 + x1) / 2;
        const double half = std::max(3.0, (x1 - x0) / 2);
        const int left = c.labelWidth + static_cast<int>(std::floor(centre - half));
        const int right = c.labelWidth + static_cast<int>(std::ceil(centre + half));
        QPen pen(c.palette.color(QPalette::Highlight), 2);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(left - 1, box.runTop - 2, right - left + 2, box.runHeight + 3));
        return;
    }
}

} // namespace clscope::ui
