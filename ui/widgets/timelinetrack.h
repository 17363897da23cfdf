// A track of the timeline, after Tracy's TimelineItem: one band across the timeline that says how tall it
// is, paints itself and answers hit tests and tool tips inside its own rectangle. TimelineWidget lays the
// tracks out (the axis on top, the lanes of records, the counter under them, the legend at the bottom),
// paints them in that order and hands them the mouse; the tracks hold what they show.
#pragma once

#include "display/timelinedata.h"

#include <QFont>
#include <QPalette>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>

class QPainter;

namespace clscope::ui {

// The stage rows' colours (the lanes paint them, the legend names them).
inline constexpr QRgb kTimelineQueuedRgb = 0xffa0a8b8;
inline constexpr QRgb kTimelineSubmittedRgb = 0xffe8b040;

// What a track paints and hit-tests with. Coordinates are the timeline's (0, 0 at its top left).
struct TimelineTrackContext
{
    const TimelineData &data; // the view; data.width is the time area's width
    QSize size;               // the whole timeline
    QRect rect;               // this track
    int labelWidth = 0;       // the label column left of the time area
    int bodyTop = 0;          // the grid and the label column's edge run from under the axis...
    int bodyBottom = 0;       // ...to the legend
    const QPalette &palette;
    const QFont &font;
    TimeAxisTicks ticks; // the axis' ticks, which the grid follows
    int selected = -1;   // the selected record, or -1
};

class TimelineTrack
{
public:
    virtual ~TimelineTrack() = default;

    // The height the track takes; `available` is what the other tracks leave (only a track that stretches
    // uses it). 0: the track is not shown.
    virtual int height(int available) const = 0;
    // What the track asks for in the widget's size hint.
    virtual int preferredHeight() const { return height(0); }

    // Painted before the grid, then every track's paint(), then every track's overlay.
    virtual void paintBackground(QPainter &, const TimelineTrackContext &) const {}
    virtual void paint(QPainter &p, const TimelineTrackContext &c) const = 0;
    virtual void paintOverlay(QPainter &, const TimelineTrackContext &) const {}

    // The record under pos, or -1.
    virtual int recordAt(const QPoint &, const TimelineTrackContext &) const { return -1; }
    // Rich text for a tool tip at pos; empty: none.
    virtual QString toolTip(const QPoint &, const TimelineTrackContext &) const { return {}; }

protected:
    TimelineTrack() = default;
    TimelineTrack(const TimelineTrack &) = default;
    TimelineTrack &operator=(const TimelineTrack &) = default;
};

} // namespace clscope::ui
