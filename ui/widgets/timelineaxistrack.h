// The timeline's time axis: labelled ticks counted from the view's start (label steps chosen from the text
// width), minor ticks where they have room, and left of it a caption that says where the view starts in the
// run and how much it spans. Its background is the grid that the ticks draw down through the other tracks.
#pragma once

#include "timelinetrack.h"

#include <QCoreApplication>

class QFontMetrics;

namespace clscope::ui {

class TimelineAxisTrack final : public TimelineTrack
{
    Q_DECLARE_TR_FUNCTIONS(TimelineAxisTrack)
public:
    static constexpr int kHeight = 28;

    // The ticks of a view, as the axis and the grid draw them.
    static TimeAxisTicks ticksFor(const TimelineData &data, const QFontMetrics &fm);
    // "from 16.2 ms (300 µs)": where the view starts in the run, and its span.
    static QString caption(const TimelineData &data);

    int height(int) const override { return kHeight; }
    void paintBackground(QPainter &p, const TimelineTrackContext &c) const override;
    void paint(QPainter &p, const TimelineTrackContext &c) const override;
};

} // namespace clscope::ui
