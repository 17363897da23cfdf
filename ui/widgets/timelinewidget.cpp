// The timeline widget: its tracks' layout, the view (zoom, pan, fit), mouse and keyboard, and the order in
// which the tracks paint. What a track shows is in its own class (timeline*track.h).
#include "timelinewidget.h"

#include "display/recordformat.h"

#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
{
    setObjectName(QStringLiteral("timeline"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    rebuild(false);
}

void TimelineWidget::setRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool)
{
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_counterTrack.setSeries(std::move(pool));
    m_selected = -1;
    rebuild(false);
}

void TimelineWidget::appendRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool)
{
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_counterTrack.setSeries(std::move(pool));
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

    from = m_lanesTrack.setRecords(m_records, m_showStages, from);
    m_shown = m_records->size();
    m_legendTrack.update(*m_records, from, m_showStages);

    std::uint64_t first = lanes().first();
    std::uint64_t last = lanes().last();
    const std::vector<PoolSeriesPoint> &pool = m_counterTrack.series();
    if (first == 0 && last == 0 && !pool.empty()) {
        first = pool.front().timestampNs;
        last = pool.back().timestampNs;
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
        lanes().laneOf(std::size_t(record)) < 0)
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
    // The axis on top and the legend at the bottom; the lanes share what is left with the counter track,
    // which follows them.
    const int axis = m_axisTrack.height(0);
    const int legend = m_legendTrack.height(0);
    const int counter = m_counterTrack.height(0);
    const int lanes = m_lanesTrack.height(size.height() - axis - counter - legend - 4);
    const int w = size.width();
    return {{{&m_lanesTrack, QRect(0, axis, w, lanes)},
             {&m_counterTrack, QRect(0, axis + lanes, w, counter)},
             {&m_axisTrack, QRect(0, 0, w, axis)},
             {&m_legendTrack, QRect(0, size.height() - legend, w, legend)}}};
}

const TimelineWidget::Placed *TimelineWidget::trackAt(const Layout &layout, int y)
{
    for (const Placed &placed : layout) {
        if (y >= placed.rect.top() && y < placed.rect.top() + placed.rect.height())
            return &placed;
    }
    return nullptr;
}

TimelineTrackContext TimelineWidget::context(const TimelineData &data, const QSize &size, const QRect &rect,
                                             const TimeAxisTicks &ticks) const
{
    return {
        data,      size,   rect,  kLabelWidth, m_axisTrack.height(0), size.height() - m_legendTrack.height(0),
        palette(), font(), ticks, m_selected};
}

TimelineData TimelineWidget::viewData() const
{
    TimelineData d = m_data;
    d.width = std::max(1, width() - kLabelWidth);
    return d;
}

int TimelineWidget::laneAt(int y) const
{
    const TimelineData d = viewData();
    return m_lanesTrack.laneAt(y, context(d, size(), layoutFor(size())[0].rect, {}));
}

QRect TimelineWidget::laneRect(int lane) const
{
    const TimelineData d = viewData();
    return m_lanesTrack.runRect(lane, context(d, size(), layoutFor(size())[0].rect, {}));
}

int TimelineWidget::recordAt(const QPoint &pos) const
{
    const Layout layout = layoutFor(size());
    const Placed *placed = trackAt(layout, pos.y());
    if (!placed)
        return -1;
    const TimelineData d = viewData();
    return placed->track->recordAt(pos, context(d, size(), placed->rect, {}));
}

double TimelineWidget::recordX(int record) const
{
    if (record < 0 || record >= static_cast<int>(m_records->size()))
        return -1;
    return kLabelWidth + viewData().absoluteToX((*m_records)[static_cast<std::size_t>(record)].start);
}

QSize TimelineWidget::sizeHint() const
{
    int height = 8;
    for (const TimelineTrack *track : std::initializer_list<const TimelineTrack *>{
             &m_axisTrack, &m_lanesTrack, &m_counterTrack, &m_legendTrack})
        height += track->preferredHeight();
    return {960, std::max(220, height)};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {kLabelWidth + 200, 160};
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
    const TimeAxisTicks ticks = TimelineAxisTrack::ticksFor(d, QFontMetrics(font()));

    // The tracks' backgrounds (the grid among them), then the tracks, then what goes over all of them.
    for (const Placed &placed : layout)
        placed.track->paintBackground(p, context(d, size, placed.rect, ticks));
    for (const Placed &placed : layout)
        placed.track->paint(p, context(d, size, placed.rect, ticks));
    for (const Placed &placed : layout)
        placed.track->paintOverlay(p, context(d, size, placed.rect, ticks));
    if (m_drag == Drag::Band)
        paintBand(p, d, layout);
}

void TimelineWidget::paintBand(QPainter &p, const TimelineData &d, const Layout &layout) const
{
    // The selection a drag zooms to, from the axis down to the legend.
    const QRect &axis = layout[2].rect;
    const QRect &legend = layout[3].rect;
    const int x0 = std::min(m_pressPos.x(), m_bandEnd);
    const int x1 = std::max(m_pressPos.x(), m_bandEnd);
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(60);
    const QRect band(x0, axis.height(), x1 - x0, legend.top() - axis.height());
    p.fillRect(band, fill);
    p.setPen(palette().color(QPalette::Highlight));
    p.drawRect(band.adjusted(0, 0, -1, -1));
    const double ns = (x1 - x0) * d.nsPerPixel();
    p.setPen(palette().color(QPalette::Text));
    p.drawText(band.adjusted(4, 2, -4, 0), Qt::AlignTop | Qt::AlignLeft, durationText(ns));
}

// ---- Events ---------------------------------------------------------------------------------------------

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const Layout layout = layoutFor(size());
        const Placed *placed = trackAt(layout, help->pos().y());
        const TimelineData d = viewData();
        const QString text =
            placed ? placed->track->toolTip(help->pos(), context(d, size(), placed->rect, {})) : QString();
        if (!text.isEmpty())
            QToolTip::showText(help->globalPos(), text, this);
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
