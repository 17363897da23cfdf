// The profiling timeline: a host lane and one lane per device queue, a box per command coloured by kernel
// or type, optional stage rows (queued, submitted), a time axis, the pool's held/active bytes as a track
// under the lanes, and a legend. Mouse wheel zooms around the cursor, drag pans, shift+drag or right drag
// zooms to a selection, double-click fits all; hovering shows every field, clicking selects.
// Painting keeps to one primitive per pixel column per row (narrow boxes merge into columns), draws boxes
// without antialiasing, and finds the visible range by binary search, so a million commands paint in a
// frame. Interaction is in timelinewidget.cpp, painting in timelinewidgetpaint.cpp.
#pragma once

#include "display/timelinedata.h"
#include "models/eventtablemodel.h"

#include <QWidget>

#include <array>

#include <unordered_set>
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
    const TimelineLanes &lanes() const { return m_lanes; }

    void setShowStages(bool show);
    // The counter track's title: "Memory pool" (the runner's pool) unless set ("Device memory" of a capture).
    void setCounterTitle(const QString &title)
    {
        m_counterTitle = title;
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
    QString laneTitle(int lane) const;
    // What the label column shows for a lane: "Host", or the queue and the device that ran it.
    QStringList laneLabelLines(int lane) const;
    // "Host" for the workbench's own lane, "Host thread N" for a captured program's threads.
    static QString hostLaneTitle(const TimelineLane &lane);
    // The text left of the axis: where the view starts in the run, and its span ("from 16.2 ms (300 µs)").
    QString axisCaption(const TimelineData &data) const;
    // The record under a widget position, or -1.
    int recordAt(const QPoint &pos) const;
    // The x of a record's start in widget coordinates (for tests and the dock's scrolling).
    double recordX(int record) const;
    QString tooltipText(int record) const;

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
    static constexpr int kAxisHeight = 28;
    static constexpr int kHeaderHeight = 18;
    static constexpr int kPoolHeight = 72;
    static constexpr int kLegendHeight = 24;
    static constexpr int kStageRow = 6; // height of a queued or submitted stage row
    static constexpr QRgb kQueuedRgb = 0xffa0a8b8;
    static constexpr QRgb kSubmittedRgb = 0xffe8b040;

    struct LaneBox
    {
        int lane;
        int top;
        int height;    // whole lane
        int runTop;    // the start -> end row
        int runHeight; //
        int stageHeight;
    };
    struct Header
    {
        QString title;
        int top;
    };
    struct Layout
    {
        std::vector<LaneBox> lanes;
        std::vector<Header> headers;
        int poolTop = 0;
        int legendTop = 0;
    };
    struct LegendEntry
    {
        QString label;
        QColor colour;
    };

    Layout layoutFor(const QSize &size) const;
    // The lanes, legend and range: of every record, or (from > 0) with records[from..] added to those shown.
    void rebuild(bool keepView, std::size_t from = 0);
    void syncWidth();
    void emitViewChanged();

    void paintAxis(QPainter &p, const TimelineData &d, const QSize &size, const TimeAxisTicks &ticks) const;
    void paintLanes(QPainter &p, const TimelineData &d, const Layout &layout, const QSize &size) const;
    void paintRow(QPainter &p, const TimelineData &d, const TimelineRow &row, int top, int height,
                  const QColor *fixedColour, bool labels) const;
    void paintPool(QPainter &p, const TimelineData &d, int top, const QSize &size) const;
    void paintLegend(QPainter &p, int top, const QSize &size) const;
    void paintSelection(QPainter &p, const TimelineData &d, const Layout &layout) const;

    RecordsPtr m_records;
    std::vector<PoolSeriesPoint> m_pool;
    TimelineLanes m_lanes;
    std::vector<LegendEntry> m_legend;
    std::vector<std::string> m_legendKernels; // kernels in order of first appearance (at most 64)
    std::unordered_set<std::string> m_legendKernelSet;
    std::array<bool, kCommandTypeCount> m_legendTypes{};
    std::size_t m_shown = 0;       // records in the lanes
    std::vector<QColor> m_palette; // colour index -> colour, with the darker edge colour after
    std::vector<QColor> m_edges;
    TimelineData m_data;
    bool m_showStages = false;
    int m_selected = -1;

    QString m_counterTitle;
    enum class Drag { None, Pan, Band };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    int m_bandEnd = 0;
    bool m_moved = false;
};

} // namespace clscope::ui
