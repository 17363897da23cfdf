// Timeline painting and interaction (see timelinewidget.h for the rules the painting keeps to).
#include "timelinewidget.h"

#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace clscope::ui {

namespace {

constexpr int kStageRow = 6; // height of a queued/submitted stage row
const QColor kQueuedColour(0xa0, 0xa8, 0xb8);
const QColor kSubmittedColour(0xe8, 0xb0, 0x40);
const QColor kActiveColour(0x4e, 0x79, 0xa7);
const QColor kHeldColour(0xf2, 0x8e, 0x2b);

bool isDark(const QColor &c)
{
    return c.lightnessF() < 0.5;
}

QString fromUtf8(const std::string &s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
{
    setObjectName(QStringLiteral("timeline"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    for (std::uint32_t i = 0; i < kKernelColourBase + kKernelColourCount; ++i) {
        m_palette.push_back(timelineColour(i));
        m_edges.push_back(timelineColour(i).darker(150));
    }
    rebuild(false);
}

void TimelineWidget::setRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool)
{
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_pool = std::move(pool);
    m_selected = -1;
    rebuild(false);
}

void TimelineWidget::appendRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool)
{
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_pool = std::move(pool);
    if (m_selected >= static_cast<int>(m_records->size()))
        m_selected = -1;
    rebuild(true);
}

void TimelineWidget::rebuild(bool keepView)
{
    const bool zoomed = keepView && m_data.zoomFactor() > 1.0001;
    const std::uint64_t oldStart = m_data.absolute(m_data.viewStart);
    const std::uint64_t oldEnd = m_data.absolute(m_data.viewEnd);

    m_lanes.build(*m_records, m_showStages);
    std::uint64_t first = m_lanes.first();
    std::uint64_t last = m_lanes.last();
    if (first == 0 && last == 0 && !m_pool.empty()) {
        first = m_pool.front().timestampNs;
        last = m_pool.back().timestampNs;
    }

    // Legend: kernels in order of first appearance, then the other types that occur.
    m_legend.clear();
    std::unordered_set<std::string> kernels;
    std::array<bool, kCommandTypeCount> types{};
    for (const CommandRecord &r : *m_records) {
        if (r.type == CommandRecord::Type::Kernel) {
            if (kernels.size() < 64 && kernels.insert(r.name).second)
                m_legend.push_back({fromUtf8(r.name), m_palette[colourIndexFor(r)]});
        } else {
            types[static_cast<std::size_t>(r.type)] = true;
        }
    }
    for (int t = 1; t < kCommandTypeCount; ++t) {
        if (types[static_cast<std::size_t>(t)])
            m_legend.push_back(
                {typeText(static_cast<CommandRecord::Type>(t)), m_palette[static_cast<std::size_t>(t)]});
    }
    if (m_showStages) {
        m_legend.push_back({tr("queued → submit"), kQueuedColour});
        m_legend.push_back({tr("submit → start"), kSubmittedColour});
    }

    m_data.setRange(first, last, 0.01);
    syncWidth();
    if (zoomed)
        m_data.zoomToRange(m_data.relative(oldStart), m_data.relative(oldEnd));
    updateGeometry();
    emitViewChanged();
}

void TimelineWidget::syncWidth()
{
    m_data.width = std::max(1, width() - kLabelWidth);
}

void TimelineWidget::emitViewChanged()
{
    update();
    emit viewChanged();
}

void TimelineWidget::setShowStages(bool show)
{
    if (show == m_showStages)
        return;
    m_showStages = show;
    rebuild(true);
}

void TimelineWidget::setSelectedRecord(int record)
{
    if (record < -1 || record >= static_cast<int>(m_records->size()))
        record = -1;
    if (record == m_selected)
        return;
    m_selected = record;
    update();
}

void TimelineWidget::revealRecord(int record)
{
    if (record < 0 || record >= static_cast<int>(m_records->size()) ||
        m_lanes.laneOf(std::size_t(record)) < 0)
        return;
    syncWidth();
    const CommandRecord &r = (*m_records)[static_cast<std::size_t>(record)];
    const double rel0 = m_data.relative(r.start);
    const double rel1 = m_data.relative(r.end);
    if (rel1 - rel0 > 0.9 * m_data.span()) {
        const double pad = (rel1 - rel0) * 0.1;
        m_data.zoomToRange(rel0 - pad, rel1 + pad);
    } else if (rel0 < m_data.viewStart || rel1 > m_data.viewEnd) {
        m_data.centerOn((rel0 + rel1) / 2);
    } else {
        return;
    }
    emitViewChanged();
}

void TimelineWidget::setView(double relStart, double relEnd)
{
    syncWidth();
    m_data.zoomToRange(relStart, relEnd);
    emitViewChanged();
}

void TimelineWidget::fitAll()
{
    syncWidth();
    m_data.fitAll();
    emitViewChanged();
}

void TimelineWidget::zoomAround(double x, double factor)
{
    syncWidth();
    m_data.zoomAround(x - kLabelWidth, factor);
    emitViewChanged();
}

void TimelineWidget::panBy(double pixels)
{
    syncWidth();
    m_data.pan(pixels);
    emitViewChanged();
}

// ---- Layout and hit tests -------------------------------------------------------------------------------

TimelineWidget::Layout TimelineWidget::layoutFor(const QSize &size) const
{
    Layout layout;
    const auto &lanes = m_lanes.lanes();
    int headers = 0;
    for (std::size_t i = 1; i < lanes.size(); ++i) {
        if (i == 1 || lanes[i].device != lanes[i - 1].device)
            ++headers;
    }
    const int stageExtra = m_showStages ? 2 * (kStageRow + 1) : 0;
    const int pool = m_pool.empty() ? 0 : kPoolHeight + 6;
    const int available = size.height() - kAxisHeight - pool - kLegendHeight - headers * kHeaderHeight - 4;
    const int count = std::max<int>(1, static_cast<int>(lanes.size()));
    // Lanes grow to use the height, but not so much that a box looks like a bar chart.
    const int laneHeight = std::clamp(available / count, 14 + stageExtra, 30 + stageExtra);
    int y = kAxisHeight;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (i >= 1 && (i == 1 || lanes[i].device != lanes[i - 1].device)) {
            layout.headers.push_back({fromUtf8(lanes[i].device), y});
            y += kHeaderHeight;
        }
        LaneBox box;
        box.lane = static_cast<int>(i);
        box.top = y;
        box.height = laneHeight;
        box.stageHeight = m_showStages && !lanes[i].host ? kStageRow : 0;
        box.runTop = y + 3 + (box.stageHeight ? 2 * (kStageRow + 1) : 0);
        box.runHeight = std::max(4, y + laneHeight - 3 - box.runTop);
        layout.lanes.push_back(box);
        y += laneHeight;
    }
    layout.poolTop = y + 6;
    layout.legendTop = size.height() - kLegendHeight;
    return layout;
}

int TimelineWidget::laneAt(int y) const
{
    for (const LaneBox &box : layoutFor(size()).lanes) {
        if (y >= box.top && y < box.top + box.height)
            return box.lane;
    }
    return -1;
}

QRect TimelineWidget::laneRect(int lane) const
{
    for (const LaneBox &box : layoutFor(size()).lanes) {
        if (box.lane == lane)
            return {kLabelWidth, box.runTop, std::max(1, width() - kLabelWidth), box.runHeight};
    }
    return {};
}

QString TimelineWidget::laneTitle(int lane) const
{
    const auto &lanes = m_lanes.lanes();
    if (lane < 0 || lane >= static_cast<int>(lanes.size()))
        return {};
    const TimelineLane &l = lanes[static_cast<std::size_t>(lane)];
    return l.host ? tr("Host") : fromUtf8(l.device) + QStringLiteral(" / ") + fromUtf8(l.queue);
}

int TimelineWidget::recordAt(const QPoint &pos) const
{
    if (pos.x() < kLabelWidth)
        return -1;
    for (const LaneBox &box : layoutFor(size()).lanes) {
        if (pos.y() < box.top || pos.y() >= box.top + box.height)
            continue;
        const TimelineLane &lane = m_lanes.lanes()[static_cast<std::size_t>(box.lane)];
        const TimelineRow *row = &lane.run;
        if (box.stageHeight && pos.y() < box.runTop - 1)
            row = pos.y() < box.top + 3 + kStageRow + 1 ? &lane.queued : &lane.submitted;
        TimelineData d = m_data;
        d.width = std::max(1, width() - kLabelWidth);
        const std::uint64_t t = d.absolute(d.xToTime(pos.x() - kLabelWidth));
        const auto tolerance = static_cast<std::uint64_t>(std::ceil(3 * d.nsPerPixel()));
        const std::ptrdiff_t hit = row->hitTest(t, tolerance);
        return hit < 0 ? -1 : static_cast<int>(row->items()[static_cast<std::size_t>(hit)].record);
    }
    return -1;
}

double TimelineWidget::recordX(int record) const
{
    if (record < 0 || record >= static_cast<int>(m_records->size()))
        return -1;
    TimelineData d = m_data;
    d.width = std::max(1, width() - kLabelWidth);
    return kLabelWidth + d.absoluteToX((*m_records)[static_cast<std::size_t>(record)].start);
}

QString TimelineWidget::tooltipText(int record) const
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
    row(tr("Queue"), fromUtf8(r.queue).toHtmlEscaped());
    row(tr("Device"), (r.hostSpan ? tr("host") : fromUtf8(r.device)).toHtmlEscaped());
    row(tr("Duration"), span(r.start, r.end));
    row(tr("Start"), r.start ? QStringLiteral("+") + durationText(m_data.relative(r.start)) : QString());
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
        .arg(fromUtf8(r.name).toHtmlEscaped(), typeText(r.type), QString::number(record), rows);
}

QSize TimelineWidget::sizeHint() const
{
    const auto lanes = static_cast<int>(m_lanes.lanes().size());
    const int height = kAxisHeight + lanes * (24 + (m_showStages ? 14 : 0)) + 2 * kHeaderHeight +
                       (m_pool.empty() ? 0 : kPoolHeight + 6) + kLegendHeight + 8;
    return {960, std::max(220, height)};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {kLabelWidth + 200, 160};
}

// ---- Events ---------------------------------------------------------------------------------------------

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int record = recordAt(help->pos());
        if (record >= 0)
            QToolTip::showText(help->globalPos(), tooltipText(record), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintTimeline(p, size());
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    syncWidth();
    m_data.clamp();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
    const bool band = event->button() == Qt::RightButton ||
                      (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (band && m_pressPos.x() >= kLabelWidth) {
        m_drag = Drag::Band;
        m_bandEnd = m_pressPos.x();
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if ((pos - m_pressPos).manhattanLength() > 3)
        m_moved = true;
    if (m_drag == Drag::Pan && m_moved) {
        panBy(m_lastPos.x() - pos.x());
    } else if (m_drag == Drag::Band) {
        m_bandEnd = std::max(pos.x(), kLabelWidth);
        update();
    }
    m_lastPos = pos;
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::Band && std::abs(m_bandEnd - m_pressPos.x()) >= 4) {
        syncWidth();
        m_data.zoomToPixels(m_pressPos.x() - kLabelWidth, m_bandEnd - kLabelWidth);
        emitViewChanged();
    } else if (m_drag == Drag::Pan && !m_moved) {
        const int record = recordAt(pos);
        setSelectedRecord(record);
        emit recordClicked(record);
    }
    m_drag = Drag::None;
    unsetCursor();
    update();
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent *)
{
    fitAll();
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (delta.y() != 0)
        zoomAround(event->position().x(), std::pow(1.25, delta.y() / 120.0));
    else if (delta.x() != 0)
        panBy(-delta.x() / 120.0 * 60);
    event->accept();
}

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    const double centre = kLabelWidth + (width() - kLabelWidth) / 2.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround(centre, 2);
        break;
    case Qt::Key_Minus:
        zoomAround(centre, 0.5);
        break;
    case Qt::Key_Left:
        panBy(-(width() - kLabelWidth) / 8.0);
        break;
    case Qt::Key_Right:
        panBy((width() - kLabelWidth) / 8.0);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

// ---- Painting -------------------------------------------------------------------------------------------

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
    p.drawText(QRect(8, 0, kLabelWidth - 12, kAxisHeight - 2), Qt::AlignVCenter | Qt::AlignLeft,
               tr("view %1").arg(durationText(d.span())));
    if (ticks.step <= 0)
        return;
    const double pixelsPerStep = ticks.step / d.nsPerPixel();
    const double minor = ticks.step / ticks.minorDivisions;
    const bool drawMinor = pixelsPerStep / ticks.minorDivisions >= 5;
    const QFontMetrics fm(font());
    for (int k = -1; k < 1000; ++k) {
        const double t = ticks.firstTick + k * ticks.step;
        if (t - ticks.step > d.viewEnd)
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
        if (t < d.viewStart || t > d.viewEnd)
            continue;
        p.setPen(pal.color(QPalette::WindowText));
        p.drawLine(x, kAxisHeight - 8, x, kAxisHeight - 1);
        const QString text = QString::fromUtf8(ticks.label(t));
        const int w = fm.horizontalAdvance(text);
        // Centred on the tick, but kept inside the time area.
        const int left = std::clamp(x - w / 2, kLabelWidth + 2, size.width() - w - 2);
        p.drawText(left, kAxisHeight - 11, text);
    }
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
            paintRow(p, d, lane.queued, box.top + 3, kStageRow, &kQueuedColour, false);
            paintRow(p, d, lane.submitted, box.top + 3 + kStageRow + 1, kStageRow, &kSubmittedColour, false);
        }
        paintRow(p, d, lane.run, box.runTop, box.runHeight, nullptr, box.runHeight >= fm.height());
        // The label column is painted over anything that reached into it.
        p.fillRect(0, box.top, kLabelWidth, box.height, pal.window());
        p.setPen(pal.color(QPalette::WindowText));
        p.setFont(lane.host ? bold : font());
        const QString title = lane.host ? tr("Host") : fromUtf8(lane.queue);
        const int indent = lane.host ? 6 : 18;
        p.drawText(
            QRect(indent, box.top, kLabelWidth - indent - 6, box.height), Qt::AlignVCenter | Qt::AlignLeft,
            (lane.host ? boldMetrics : fm).elidedText(title, Qt::ElideRight, kLabelWidth - indent - 6));
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
                const QString text = fm.elidedText(fromUtf8(r.name), Qt::ElideRight, boxWidth - 6);
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
    p.drawText(QRect(6, top + 2, kLabelWidth - 10, 16), Qt::AlignLeft | Qt::AlignVCenter, tr("Memory pool"));
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
