// Min/max-per-bucket decimation (see decimate.h for the guarantees the charts rely on).
#include "decimate.h"

#include <algorithm>
#include <cmath>

namespace clscope::ui {

IndexRange visibleRange(const QList<double> &keys, double lower, double upper)
{
    if (keys.isEmpty() || upper < lower)
        return {};
    // First key >= lower, then step back one so the line enters the view from its left edge.
    qsizetype first = std::lower_bound(keys.cbegin(), keys.cend(), lower) - keys.cbegin();
    if (first > 0)
        --first;
    // First key > upper is the one point after the view; keep it as well.
    qsizetype last = std::upper_bound(keys.cbegin(), keys.cend(), upper) - keys.cbegin();
    if (last < keys.size())
        ++last;
    return {first, std::max(first, last)};
}

void decimateMinMax(const QList<double> &keys, const QList<double> &values, double lower, double upper,
                    int buckets, QList<double> &outKeys, QList<double> &outValues)
{
    outKeys.clear();
    outValues.clear();
    IndexRange range = visibleRange(keys, lower, upper);
    range.last = std::min(range.last, values.size()); // a shorter values list: draw what has both
    if (range.size() <= 0)
        return;
    buckets = std::max(buckets, 1);
    const qsizetype bound = 2 * qsizetype(buckets);
    outKeys.reserve(std::min(range.size(), bound + 2));
    outValues.reserve(std::min(range.size(), bound + 2));
    const auto keep = [&](qsizetype i) {
        outKeys.append(keys[i]);
        outValues.append(values[i]);
    };
    if (range.size() <= bound) {
        for (qsizetype i = range.first; i < range.last; ++i)
            keep(i);
        return;
    }

    // One formula for every point, monotonic in the key, so each bucket is one contiguous run and
    // rounding can never split a bucket into two runs (which would break the 2 * buckets bound).
    const double width = (upper - lower) / buckets;
    const auto bucketOf = [&](double key) {
        const double offset = width > 0 ? std::floor((key - lower) / width) : 0;
        return int(std::clamp(offset, 0.0, double(buckets - 1)));
    };
    qsizetype i = range.first;
    for (; i < range.last && keys[i] < lower; ++i) // the edge point before the view
        keep(i);
    while (i < range.last && keys[i] <= upper) {
        const int bucket = bucketOf(keys[i]);
        qsizetype lo = i;
        qsizetype hi = i;
        for (++i; i < range.last && keys[i] <= upper && bucketOf(keys[i]) == bucket; ++i) {
            if (values[i] < values[lo])
                lo = i;
            if (values[i] > values[hi])
                hi = i;
        }
        keep(std::min(lo, hi));
        if (lo != hi)
            keep(std::max(lo, hi));
    }
    for (; i < range.last; ++i) // the edge point after the view
        keep(i);
}

} // namespace clscope::ui
