// The timeline's geometry and lane index, free of Qt so tests can check them with plain numbers (the idea
// of hotspot's TimeLineData): time <-> x, zoom around a point, pan, fit, zoom to a selection, clamping; the
// lanes' records sorted by start with a running maximum of ends, so the visible range and hit tests are
// binary searches; and the time axis' tick step, unit and label precision.
#pragma once

#include "clscope/profile.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace clscope::ui {

// Times are doubles in ns relative to `origin` (absolute uint64 ns would lose precision in a double: a
// device epoch of 1.7e18 ns has a 256 ns ulp).
struct TimelineData
{
    std::uint64_t origin = 0; // absolute ns of time 0: the axis counts from here
    double rangeStart = 0;    // what fit all shows
    double rangeEnd = 0;
    double viewStart = 0; // what is visible
    double viewEnd = 0;
    int width = 0;         // pixels of the time area
    double minSpan = 10.0; // zooming in stops when the whole width shows this many ns

    // Sets origin = first and the range to [first, last] plus a margin on each side, and fits all.
    void setRange(std::uint64_t first, std::uint64_t last, double marginFraction = 0.0);

    double relative(std::uint64_t absolute) const
    {
        return absolute >= origin ? static_cast<double>(absolute - origin)
                                  : -static_cast<double>(origin - absolute);
    }
    std::uint64_t absolute(double rel) const; // clamped to [0, 2^64)
    double span() const { return viewEnd - viewStart; }
    double rangeSpan() const { return rangeEnd - rangeStart; }
    double nsPerPixel() const { return span() / (width > 0 ? width : 1); }
    double timeToX(double rel) const { return (rel - viewStart) / nsPerPixel(); }
    double absoluteToX(std::uint64_t t) const { return timeToX(relative(t)); }
    double xToTime(double x) const { return viewStart + x * nsPerPixel(); }
    // How much the view is magnified relative to fit all (1 = everything visible).
    double zoomFactor() const { return span() > 0 ? rangeSpan() / span() : 1.0; }

    void fitAll();
    // factor > 1 zooms in; the time under x stays under x unless clamping at an end moves it.
    void zoomAround(double x, double factor);
    // Moves the view by `pixels` to later times (negative: earlier), at the same zoom.
    void pan(double pixels);
    void zoomToPixels(double x0, double x1);
    void zoomToRange(double rel0, double rel1);
    void centerOn(double rel);
    // Keeps the span within [minSpan, range span] and the view within the range.
    void clamp();
};

// Where a box is drawn and what it stands for. colour is an index into the timeline palette.
struct TimelineItem
{
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint32_t record = 0;
    std::uint32_t colour = 0;
};

// One row of boxes: sorted by begin, with the running maximum of ends so that "every item that may reach
// time t" is a binary search even when items overlap.
class TimelineRow
{
public:
    void build(std::vector<TimelineItem> items);
    // Adds items of records after those of the row: as build() of all of them would make the row.
    void append(std::vector<TimelineItem> items);
    const std::vector<TimelineItem> &items() const { return m_items; }
    bool empty() const { return m_items.empty(); }

    // [first, last) of the items that may intersect [from, to] (absolute ns): maxEnd >= from, begin <= to.
    std::pair<std::size_t, std::size_t> visibleRange(std::uint64_t from, std::uint64_t to) const;
    // The item under t within the tolerance: one that contains t (the shortest when several do), else the
    // nearest. Returns an index into items(), or -1.
    std::ptrdiff_t hitTest(std::uint64_t t, std::uint64_t tolerance) const;

private:
    std::vector<TimelineItem> m_items;
    std::vector<std::uint64_t> m_maxEnd;
};

struct TimelineLane
{
    bool host = false;
    std::string device; // empty for the host lane
    std::string queue;
    TimelineRow run;       // start -> end
    TimelineRow queued;    // queued -> submit (built with stages only)
    TimelineRow submitted; // submit -> start (built with stages only)
};

// Palette indices: command types 0..8, kernels by a stable hash of their name after them.
inline constexpr std::uint32_t kKernelColourBase = static_cast<std::uint32_t>(kCommandTypeCount);
inline constexpr std::uint32_t kKernelColourCount = 16;
std::uint32_t colourIndexFor(const CommandRecord &record);
// FNV-1a: the same kernel has the same colour in every run and every session.
std::uint32_t stableHash(std::string_view text);

// The lanes of a set of records: the host lane first, then one per (device, queue) in order of first
// appearance, grouped by device.
class TimelineLanes
{
public:
    void build(const std::vector<CommandRecord> &records, bool stages);
    // The records from `from` on added to lanes built of those before (a followed capture's refresh): as
    // build() of them all would make the lanes. False, changing nothing, when one of them needs a lane
    // that is not there yet (build() then).
    bool append(const std::vector<CommandRecord> &records, std::size_t from);
    const std::vector<TimelineLane> &lanes() const { return m_lanes; }
    bool hasStages() const { return m_stages; }
    // The lane a record is in, or -1 (a record without usable start/end is in none).
    int laneOf(std::size_t record) const;
    // Earliest and latest usable timestamps (queued included with stages); 0, 0 when there is nothing.
    std::uint64_t first() const { return m_first; }
    std::uint64_t last() const { return m_last; }

private:
    // The lane of a record's host thread ("H" + queue) or device queue ("D" + device + NUL + queue).
    static std::string laneKey(const CommandRecord &record);
    // Puts records[from..] into lanes (laneOfRecord: each one's lane, -1 for none) and widens first/last.
    void addItems(const std::vector<CommandRecord> &records, std::size_t from, const std::vector<int> &lanes,
                  bool append);

    std::vector<TimelineLane> m_lanes;
    std::unordered_map<std::string, int> m_laneIndex; // laneKey -> lane
    std::vector<int> m_laneOfRecord;
    std::uint64_t m_first = 0;
    std::uint64_t m_last = 0;
    bool m_stages = false;
};

// Time axis ticks, counted from the view's start (the first tick is at the left edge and reads 0, so the
// labels stay short however deep the view is in a long run): a step of 1, 2 or 5 x 10^k ns, the smallest
// whose labels fit (text width + gap), the unit picked from the span shown and as many decimals as the step
// needs.
struct TimeAxisTicks
{
    double step = 0;      // ns between labelled ticks
    double firstTick = 0; // relative ns of the first labelled tick: the view's start
    double base = 0;      // relative ns that the labels count from (the view's start)
    double unit = 1;      // ns per unit: 1, 1e3, 1e6, 1e9
    int decimals = 0;
    int minorDivisions = 5;
    std::string label(double rel) const; // "12.5 ms" after base
};
TimeAxisTicks chooseTicks(const TimelineData &data, const std::function<int(const std::string &)> &textWidth,
                          int gap = 16);

// The axis labels as drawn: each starts just right of its tick (x in time-area pixels, 0 = the view's
// start), and a label that would not fit before the right edge, or would touch the one before, is left
// out rather than pushed into its neighbour.
struct AxisLabel
{
    double tick = 0; // relative ns
    int x = 0;       // left edge of the text
    int width = 0;
    std::string text;
};
inline constexpr int kAxisLabelPad = 3; // pixels between a tick and its label
std::vector<AxisLabel> axisLabels(const TimelineData &data, const TimeAxisTicks &ticks,
                                  const std::function<int(const std::string &)> &textWidth);

// The earliest and latest usable timestamps (queued included when `stages`) of the records at `indices`,
// or 0, 0 when none of them has any.
std::pair<std::uint64_t, std::uint64_t> recordSpan(const std::vector<CommandRecord> &records,
                                                   const std::vector<std::size_t> &indices, bool stages);

// What "Last run" frames of the records at `indices`: their kernel launches, the commands a run is about (a
// write before the first launch can be a driver's compile of 360 ms away, and the build's tens of
// milliseconds on the host lane would shrink a 50 us kernel to a pixel); without launches, their device
// commands; with neither, everything. 0, 0 when none has usable timestamps.
std::pair<std::uint64_t, std::uint64_t> lastRunSpan(const std::vector<CommandRecord> &records,
                                                    const std::vector<std::size_t> &indices, bool stages);

// "ns", "µs", "ms", "s" for a unit of 1, 1e3, 1e6, 1e9.
const char *unitName(double unit);

} // namespace clscope::ui
