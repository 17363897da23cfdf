// What the sweep chart (ui/widgets/sweepchart.h) draws, worked out from a SweepResult without a plot: which
// kind of chart the sizes make, the time unit, the time axis' extent of the series chart, and what a point's
// tool tip says. Kept apart from the drawing, as TimelineData is, so it reads as plain numbers.
#pragma once

#include "clscope/sweep.h"

#include <QCoreApplication>
#include <QString>

#include <vector>

namespace clscope::ui {

class SweepChartData
{
    Q_DECLARE_TR_FUNCTIONS(SweepChartData)
public:
    // Empty: no points; Sizes: 1-D sizes; HeatMap: 2-D sizes of two or more widths and heights; Labels:
    // anything else (3-D, mixed dimensions, a single row of shapes), one position per size in the order
    // tried.
    enum class Kind { Empty, Sizes, HeatMap, Labels };
    static Kind kindOf(const SweepResult &result);

    // Microseconds, or milliseconds once the medians reach ten thousand of them.
    struct TimeUnit
    {
        double ns = 1e3; // nanoseconds in one unit
        QString name;
    };
    static TimeUnit timeUnitOf(const SweepResult &result);

    // The series chart's time axis, in the unit: from the error bars' extent, from zero unless that would
    // flatten the differences; failed is where the sizes that did not run are marked.
    struct TimeAxis
    {
        double low = 0;
        double high = 1;
        double failed = 0;
    };
    static TimeAxis seriesTimeAxis(const std::vector<SweepPoint> &points, double unitNs);

    // What the tool tip says of a point ("" for none).
    static QString describe(const SweepResult &result, int point);
};

} // namespace clscope::ui
