// The time axis and the grid under the tracks.
#include "timelineaxistrack.h"

#include "display/recordformat.h"
#include "display/stdstring.h"

#include <QFontMetrics>
#include <QPainter>

namespace clscope::ui {

TimeAxisTicks TimelineAxisTrack::ticksFor(const TimelineData &data, const QFontMetrics &fm)
{
    return chooseTicks(
        data, [&fm](const std::string &text) { return fm.horizontalAdvance(QString::fromUtf8(text)); }, 18);
}

QString TimelineAxisTrack::caption(const TimelineData &d)
{
    return tr("from %1 (%2)").arg(durationText(d.viewStart), durationText(d.span()));
}

void TimelineAxisTrack::paintBackground(QPainter &p, const TimelineTrackContext &c) const
{
    // The grid: a line under each labelled tick, from the axis down to the legend.
    p.setPen(c.palette.color(QPalette::Midlight));
    const TimeAxisTicks &ticks = c.ticks;
    if (ticks.step <= 0)
        return;
    for (int k = 0; k < 1000; ++k) {
        const double t = ticks.firstTick + k * ticks.step;
        if (t > c.data.viewEnd)
            break;
        const int x = c.labelWidth + static_cast<int>(c.data.timeToX(t));
        p.drawLine(x, c.bodyTop, x, c.bodyBottom - 1);
    }
}

void TimelineAxisTrack::paint(QPainter &p, const TimelineTrackContext &c) const
{
    const QPalette &pal = c.palette;
    const TimelineData &d = c.data;
    const TimeAxisTicks &ticks = c.ticks;
    const int top = c.rect.top();
    const int bottom = top + c.rect.height(); // the axis line is the last row above it
    const int width = c.size.width();
    const int labelWidth = c.labelWidth;
    p.fillRect(0, top, width, c.rect.height(), pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, bottom - 1, width, bottom - 1);
    p.setPen(pal.color(QPalette::WindowText));
    const QFontMetrics fm(c.font);
    // The labels count from the view's start; where that is in the run is said here.
    p.drawText(QRect(8, top, labelWidth - 12, c.rect.height() - 2), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(caption(d), Qt::ElideRight, labelWidth - 12));
    if (ticks.step <= 0)
        return;
    const double pixelsPerStep = ticks.step / d.nsPerPixel();
    const double minor = ticks.step / ticks.minorDivisions;
    const bool drawMinor = pixelsPerStep / ticks.minorDivisions >= 5;
    for (int k = 0; k < 1000; ++k) {
        const double t = ticks.firstTick + k * ticks.step;
        if (t > d.viewEnd)
            break;
        const int x = labelWidth + static_cast<int>(d.timeToX(t));
        if (drawMinor) {
            p.setPen(pal.color(QPalette::Mid));
            for (int m = 1; m < ticks.minorDivisions; ++m) {
                const int mx = labelWidth + static_cast<int>(d.timeToX(t + m * minor));
                if (mx >= labelWidth && mx < width)
                    p.drawLine(mx, bottom - 4, mx, bottom - 1);
            }
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawLine(x, bottom - 8, x, bottom - 1);
    }
    p.setPen(pal.color(QPalette::WindowText));
    for (const AxisLabel &label : axisLabels(d, ticks, [&fm](const std::string &text) {
             return fm.horizontalAdvance(QString::fromUtf8(text));
         }))
        p.drawText(labelWidth + label.x, bottom - 11, qs(label.text));
}

} // namespace clscope::ui
