// Timeline state, layout, hit tests, tooltips and mouse/keyboard interaction. The painting is in
// timelinewidgetpaint.cpp.
#include "timelinewidget.h"
#include "display/recordformat.h"
#include "display/stdstring.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace clscope::ui {

namespace {} // namespace

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
    // The records shown stay the first ones (a run appended, a capture grown): only the new are added.
    rebuild(true, m_shown <= m_records->size() ? m_shown : 0);
}

void TimelineWidget::rebuild(bool keepView, std::size_t from)
{
    const bool zoomed = keepView && m_data.zoomFactor() > 1.0001;
    const std::uint64_t oldStart = m_data.absolute(m_data.viewStart);
    const std::uint64_t oldEnd = m_data.absolute(m_data.viewEnd);

    if (from == 0 || !m_lanes.append(*m_records, from)) {
        m_lanes.build(*m_records, m_showStages);
        from = 0;
    }
    m_shown = m_records->size();
    std::uint64_t first = m_lanes.first();
    std::uint64_t last = m_lanes.last();
    if (first == 0 && last == 0 && !m_pool.empty()) {
        first = m_pool.front().timestampNs;
        last = m_pool.back().timestampNs;
    }

    // Legend: kernels in order of first appearance, then the other types that occur.
    if (from == 0) {
        m_legendKernels.clear();
        m_legendKernelSet.clear();
        m_legendTypes = {};
    }
    for (std::size_t i = from; i < m_records->size(); ++i) {
        const CommandRecord &r = (*m_records)[i];
        if (r.type == CommandRecord::Type::Kernel) {
            if (m_legendKernelSet.size() < 64 && m_legendKernelSet.insert(r.name).second)
                m_legendKernels.push_back(r.name);
        } else {
            m_legendTypes[static_cast<std::size_t>(r.type)] = true;
        }
    }
    m_legend.clear();
    for (const std::string &k : m_legendKernels) {
        CommandRecord kernel;
        kernel.name = k;
        m_legend.push_back({qs(k), m_palette[colourIndexFor(kernel)]});
    }
    for (int t = 1; t < kCommandTypeCount; ++t) {
        if (m_legendTypes[static_cast<std::size_t>(t)])
            m_legend.push_back(
                {typeText(static_cast<CommandRecord::Type>(t)), m_palette[static_cast<std::size_t>(t)]});
    }
    if (m_showStages) {
        m_legend.push_back({tr("queued → submit"), QColor::fromRgb(kQueuedRgb)});
        m_legend.push_back({tr("submit → start"), QColor::fromRgb(kSubmittedRgb)});
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
    const int laneHeight = std::clamp(available / count, 14 + stageExtra, 40 + stageExtra);
    int y = kAxisHeight;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (i >= 1 && (i == 1 || lanes[i].device != lanes[i - 1].device)) {
            layout.headers.push_back({qs(lanes[i].device), y});
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
    return l.host ? hostLaneTitle(l) : qs(l.device) + QStringLiteral(" / ") + qs(l.queue);
}

QString TimelineWidget::hostLaneTitle(const TimelineLane &lane)
{
    // The workbench's own lane is "Host"; a captured program's threads are "Host thread N".
    return lane.queue == "host" ? tr("Host") : tr("Host %1").arg(qs(lane.queue));
}

QStringList TimelineWidget::laneLabelLines(int lane) const
{
    const auto &lanes = m_lanes.lanes();
    if (lane < 0 || lane >= static_cast<int>(lanes.size()))
        return {};
    const TimelineLane &l = lanes[static_cast<std::size_t>(lane)];
    if (l.host)
        return {hostLaneTitle(l)};
    return {qs(l.queue), qs(l.device)};
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
    row(tr("Queue"), qs(r.queue).toHtmlEscaped());
    row(tr("Device"), (r.hostSpan ? tr("host") : qs(r.device)).toHtmlEscaped());
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
        .arg(qs(r.name).toHtmlEscaped(), typeText(r.type), QString::number(record), rows);
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
        const int lane = help->pos().x() < kLabelWidth ? laneAt(help->pos().y()) : -1;
        if (record >= 0)
            QToolTip::showText(help->globalPos(), tooltipText(record), this);
        else if (lane >= 0)
            QToolTip::showText(help->globalPos(), laneTitle(lane), this);
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

} // namespace clscope::ui
