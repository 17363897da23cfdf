// Peak-keeping decimation for live charts, heaptrack style: a view draws at most a few hundred buckets,
// and each bucket keeps its lowest and highest point, so a one-sample spike can never vanish however far
// the chart is zoomed out.
#pragma once

#include <QList>

namespace clscope::ui {

// Indices [first, last) of the points to draw for keys in [lower, upper]: the points inside, plus the
// last one before and the first one after, so that lines reach the edges of the view. Keys must be
// sorted (non-decreasing); found by binary search.
struct IndexRange
{
    qsizetype first = 0;
    qsizetype last = 0;
    qsizetype size() const { return last - first; }
};
IndexRange visibleRange(const QList<double> &keys, double lower, double upper);

// Min/max decimation of (keys, values) for the view [lower, upper] into `buckets` equal key ranges.
// Each bucket gives its minimum and its maximum point, in key order (one point when they coincide), and
// the edge points of visibleRange() are kept as they are. So the output:
//  - has at most 2 * buckets + 2 points;
//  - keeps keys non-decreasing, and every output point is an input point;
//  - contains every point that is the highest or lowest of its bucket, hence every spike and dip.
// When the visible points already fit in 2 * buckets, they are copied unchanged.
void decimateMinMax(const QList<double> &keys, const QList<double> &values, double lower, double upper,
                    int buckets, QList<double> &outKeys, QList<double> &outValues);

} // namespace clscope::ui
