// The lanes of records: the host lane, then one lane per device queue under a header per device, each a
// row of boxes from start to end coloured by kernel or type and, with stages, the queued and submitted rows
// above it. It owns the records shown and their lane index (TimelineLanes: records appended to a followed
// capture are added in place). Painting keeps to one primitive per pixel column per row (narrow boxes merge
// into columns), draws boxes without antialiasing and finds the visible range and the box under the mouse
// by binary search, so a million commands paint in a frame.
#pragma once

#include "timelinetrack.h"

#include "models/eventtablemodel.h"

#include <QColor>
#include <QCoreApplication>
#include <QStringList>

#include <vector>

namespace clscope::ui {

class TimelineLanesTrack final : public TimelineTrack
{
    Q_DECLARE_TR_FUNCTIONS(TimelineLanesTrack)
public:
    TimelineLanesTrack();

    // Shows `records`: records[from..] added to the lanes of those shown before, or (from = 0, a new lane
    // needed, stages changed) the lanes built again. Returns the first record added (0: all of them).
    std::size_t setRecords(RecordsPtr records, bool stages, std::size_t from);
    const RecordsPtr &records() const { return m_records; }
    const TimelineLanes &lanes() const { return m_lanes; }

    // The lane whose box covers y, or -1; the rectangle of a lane's run row (time area only).
    int laneAt(int y, const TimelineTrackContext &c) const;
    QRect runRect(int lane, const TimelineTrackContext &c) const;
    QString laneTitle(int lane) const;
    // What the label column shows for a lane: "Host", or the queue and the device that ran it.
    QStringList laneLabelLines(int lane) const;
    // "Host" for the workbench's own lane, "Host thread N" for a captured program's threads.
    static QString hostLaneTitle(const TimelineLane &lane);
    // Every field of a record, as rich text.
    QString recordToolTip(int record, const TimelineData &data) const;

    // Stretches: the lanes share what the other tracks leave, within a height that keeps boxes boxes.
    int height(int available) const override;
    int preferredHeight() const override;
    void paintBackground(QPainter &p, const TimelineTrackContext &c) const override;
    void paint(QPainter &p, const TimelineTrackContext &c) const override;
    // The selected record's frame.
    void paintOverlay(QPainter &p, const TimelineTrackContext &c) const override;
    int recordAt(const QPoint &pos, const TimelineTrackContext &c) const override;
    QString toolTip(const QPoint &pos, const TimelineTrackContext &c) const override;

private:
    static constexpr int kHeaderHeight = 18;
    static constexpr int kStageRow = 6; // height of a queued or submitted stage row

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
        int lane; // the first lane under it
        int top;
    };
    struct Layout
    {
        std::vector<LaneBox> lanes;
        std::vector<Header> headers;
    };

    // A header over each device's lanes (not over the host lane).
    int headerCount() const;
    Layout layoutFor(const QRect &rect) const;
    void paintRow(QPainter &p, const TimelineTrackContext &c, const TimelineRow &row, int top, int height,
                  const QColor *fixedColour, bool labels) const;

    RecordsPtr m_records;
    TimelineLanes m_lanes;
    bool m_stages = false;
    std::vector<QColor> m_palette; // colour index -> colour
    std::vector<QColor> m_edges;   // the darker edge of each
};

} // namespace clscope::ui
