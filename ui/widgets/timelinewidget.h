// The profiling timeline: the time axis, the lanes of records (a host lane and one lane per device queue, a
// box per command coloured by kernel or type, optional stage rows), a counter track of memory under them
// and a legend. Each is a TimelineTrack; this widget lays them out, paints them in order, turns the mouse
// and keys into the view (wheel zooms around the cursor, drag pans, shift+drag or right drag zooms to a
// selection, double-click fits all) and asks the track under the mouse what is there (hovering shows every
// field of a command, clicking selects it).
#pragma once

#include "display/timelinedata.h"
#include "models/eventtablemodel.h"
#include "timelineaxistrack.h"
#include "timelinecountertrack.h"
#include "timelinelanestrack.h"
#include "timelinelegendtrack.h"

#include <QWidget>

#include <array>
#include <vector>

namespace clscope::ui {

class TimelineWidget : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);

    void setRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool = {});
    // The records shown plus new ones after them (a run appended, a capture grown): only the new are
    // added; keeps the view when the user has zoomed.
    void appendRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool = {});
    const RecordsPtr &records() const { return m_records; }
    const TimelineLanes &lanes() const { return m_lanesTrack.lanes(); }

    void setShowStages(bool show);
    // The counter track's title: "Memory pool" (the runner's pool) unless set ("Device memory" of a capture).
    void setCounterTitle(const QString &title)
    {
        m_counterTrack.setTitle(title);
        update();
    }
    bool showStages() const { return m_showStages; }

    // -1 clears. Does not emit recordClicked (that is for the user's clicks).
    void setSelectedRecord(int record);
    int selectedRecord() const { return m_selected; }
    // Pans (and zooms out if needed) so the record is on screen.
    void revealRecord(int record);

    const TimelineData &geometry() const { return m_data; }
    void setView(double relStart, double relEnd);
    void fitAll();
    void zoomAround(double x, double factor); // x in widget coordinates
    void panBy(double pixels);

    // Left edge of the time area (the lane labels take the rest).
    int timeLeft() const { return kLabelWidth; }
    // Lane under a widget y, or -1; the rectangle of a lane's run row in widget coordinates.
    int laneAt(int y) const;
    QRect laneRect(int lane) const;
    QString laneTitle(int lane) const { return m_lanesTrack.laneTitle(lane); }
    // What the label column shows for a lane: "Host", or the queue and the device that ran it.
    QStringList laneLabelLines(int lane) const { return m_lanesTrack.laneLabelLines(lane); }
    // "Host" for the workbench's own lane, "Host thread N" for a captured program's threads.
    static QString hostLaneTitle(const TimelineLane &lane) { return TimelineLanesTrack::hostLaneTitle(lane); }
    // The text left of the axis: where the view starts in the run, and its span ("from 16.2 ms (300 µs)").
    QString axisCaption(const TimelineData &data) const { return TimelineAxisTrack::caption(data); }
    // The record under a widget position, or -1.
    int recordAt(const QPoint &pos) const;
    // The x of a record's start in widget coordinates (for tests and the dock's scrolling).
    double recordX(int record) const;
    QString tooltipText(int record) const { return m_lanesTrack.recordToolTip(record, m_data); }

    // Paints the whole timeline as it would look at `size` (same view), e.g. into a QImage.
    void paintTimeline(QPainter &painter, const QSize &size) const;
    QImage renderImage(const QSize &size) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void recordClicked(int record); // -1: a click on empty space
    void viewChanged();

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    static constexpr int kLabelWidth = 168;

    // A track and where it is; the layout lists them in the order they paint.
    struct Placed
    {
        const TimelineTrack *track;
        QRect rect;
    };
    using Layout = std::array<Placed, 4>;
    Layout layoutFor(const QSize &size) const;
    // The placed track whose rows hold y (the first in paint order), or null.
    static const Placed *trackAt(const Layout &layout, int y);
    // What the tracks paint and hit-test with, for a timeline of `size`.
    TimelineTrackContext context(const TimelineData &data, const QSize &size, const QRect &rect,
                                 const TimeAxisTicks &ticks) const;
    // The view at the widget's width.
    TimelineData viewData() const;

    // The tracks and range: of every record, or (from > 0) with records[from..] added to those shown.
    void rebuild(bool keepView, std::size_t from = 0);
    void syncWidth();
    void emitViewChanged();
    void paintBand(QPainter &p, const TimelineData &d, const Layout &layout) const;

    RecordsPtr m_records; // shared with the lanes track
    TimelineLanesTrack m_lanesTrack;
    TimelineCounterTrack m_counterTrack;
    TimelineAxisTrack m_axisTrack;
    TimelineLegendTrack m_legendTrack;
    std::size_t m_shown = 0; // records in the lanes
    TimelineData m_data;
    bool m_showStages = false;
    int m_selected = -1;

    enum class Drag { None, Pan, Band };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    int m_bandEnd = 0;
    bool m_moved = false;
};

} // namespace clscope::ui
