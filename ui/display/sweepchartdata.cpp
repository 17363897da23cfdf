// A sweep chart's kind, unit, time axis and point texts (see sweepchartdata.h).
#include "sweepchartdata.h"

#include "recordformat.h"

#include <QStringList>

#include <algorithm>
#include <limits>
#include <set>

namespace clscope::ui {

SweepChartData::Kind SweepChartData::kindOf(const SweepResult &result)
{
    std::set<std::size_t> dims;
    std::set<std::size_t> widths;
    std::set<std::size_t> heights;
    for (const SweepPoint &p : result.points) {
        if (p.local.empty())
            continue; // the driver's choice fits every kind
        dims.insert(p.local.size());
        if (p.local.size() == 2) {
            widths.insert(p.local[0]);
            heights.insert(p.local[1]);
        }
    }
    if (result.points.empty())
        return Kind::Empty;
    if (dims == std::set<std::size_t>{1})
        return Kind::Sizes;
    if (dims == std::set<std::size_t>{2} && widths.size() >= 2 && heights.size() >= 2)
        return Kind::HeatMap;
    return Kind::Labels;
}

SweepChartData::TimeUnit SweepChartData::timeUnitOf(const SweepResult &result)
{
    double slowest = 0;
    for (const SweepPoint &p : result.points)
        slowest = std::max(slowest, p.ran ? p.stats.medianNs : 0.0);
    return slowest >= 1e7 ? TimeUnit{1e6, tr("ms")} : TimeUnit{1e3, tr("µs")};
}

SweepChartData::TimeAxis SweepChartData::seriesTimeAxis(const std::vector<SweepPoint> &points, double unitNs)
{
    // A few slow outliers make a standard deviation many times the median: the axis stops at three times
    // the largest median, so that the medians stay apart, and longer bars run off the top.
    double top = 0;
    double topMedian = 0;
    double bottom = std::numeric_limits<double>::infinity();
    for (const SweepPoint &p : points) {
        if (!p.ran)
            continue;
        top = std::max(top, (p.stats.medianNs + p.stats.stddevNs) / unitNs);
        topMedian = std::max(topMedian, p.stats.medianNs / unitNs);
        bottom = std::min(bottom, (p.stats.medianNs - p.stats.stddevNs) / unitNs);
    }
    top = std::min(top, topMedian * 3);
    if (!(top > 0)) {
        top = 1;
        bottom = 0;
    }
    bottom = std::max(0.0, bottom);
    TimeAxis axis;
    axis.low = bottom < top * 0.5 ? 0 : bottom - (top - bottom) * 0.25;
    axis.high = top + (top - axis.low) * 0.08 + (top == axis.low ? 1 : 0);
    axis.failed = axis.low + (axis.high - axis.low) * 0.04;
    return axis;
}

QString SweepChartData::describe(const SweepResult &result, int point)
{
    if (point < 0 || std::size_t(point) >= result.points.size())
        return {};
    const SweepPoint &p = result.points[std::size_t(point)];
    QString text = tr("Local %1").arg(QString::fromStdString(localSizeLabel(p.local)));
    if (!p.ran)
        return text + tr(": did not run\n%1").arg(QString::fromStdString(p.error));
    text += tr(": median %1 (min %2, mean %3, std dev %4; %5)")
                .arg(durationText(p.stats.medianNs), durationText(double(p.stats.minNs)),
                     durationText(p.stats.meanNs), durationText(p.stats.stddevNs),
                     p.stats.count == 1 ? tr("1 launch") : tr("%1 launches").arg(p.stats.count));
    if (result.reference == std::size_t(point))
        text += tr("\nThe reference: the others' outputs are compared with its");
    else if (p.matches)
        text += tr("\nOutputs equal the reference's");
    else {
        QStringList names;
        for (const std::string &n : p.differing)
            names << QString::fromStdString(n);
        text += tr("\nOutputs differ from the reference's: %1").arg(names.join(QStringLiteral(", ")));
    }
    if (result.best == std::size_t(point))
        text += tr("\nBest: the lowest median among the sizes whose outputs match");
    return text;
}

} // namespace clscope::ui
