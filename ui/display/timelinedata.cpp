// Timeline geometry, lane index and axis ticks (no Qt: see timelinedata.h).
#include "timelinedata.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <unordered_map>

namespace clscope::ui {

// ---- Geometry -------------------------------------------------------------------------------------------

void TimelineData::setRange(std::uint64_t first, std::uint64_t last, double marginFraction)
{
    if (last < first)
        std::swap(first, last);
    origin = first;
    const double full = static_cast<double>(last - first);
    const double margin = full * std::max(0.0, marginFraction);
    rangeStart = -margin;
    rangeEnd = full + margin;
    // A single zero-length command still needs a range to look at.
    if (rangeSpan() < minSpan) {
        const double centre = (rangeStart + rangeEnd) / 2;
        rangeStart = centre - minSpan / 2;
        rangeEnd = centre + minSpan / 2;
    }
    fitAll();
}

std::uint64_t TimelineData::absolute(double rel) const
{
    if (rel < 0) {
        const double back = std::ceil(-rel - 0.5);
        return back >= static_cast<double>(origin) ? 0 : origin - static_cast<std::uint64_t>(back);
    }
    const double forward = std::floor(rel + 0.5);
    const double room = static_cast<double>(std::numeric_limits<std::uint64_t>::max() - origin);
    if (forward >= room)
        return std::numeric_limits<std::uint64_t>::max();
    return origin + static_cast<std::uint64_t>(forward);
}

void TimelineData::fitAll()
{
    viewStart = rangeStart;
    viewEnd = rangeEnd;
    clamp();
}

void TimelineData::zoomAround(double x, double factor)
{
    if (!(factor > 0) || width <= 0)
        return;
    const double t = xToTime(x);
    const double full = std::max(rangeSpan(), minSpan);
    const double newSpan = std::clamp(span() / factor, minSpan, full);
    const double fraction = x / width;
    viewStart = t - fraction * newSpan;
    viewEnd = viewStart + newSpan;
    clamp();
}

void TimelineData::pan(double pixels)
{
    const double delta = pixels * nsPerPixel();
    viewStart += delta;
    viewEnd += delta;
    clamp();
}

void TimelineData::zoomToPixels(double x0, double x1)
{
    zoomToRange(xToTime(std::min(x0, x1)), xToTime(std::max(x0, x1)));
}

void TimelineData::zoomToRange(double rel0, double rel1)
{
    if (rel1 < rel0)
        std::swap(rel0, rel1);
    if (rel1 - rel0 < minSpan) {
        const double centre = (rel0 + rel1) / 2;
        rel0 = centre - minSpan / 2;
        rel1 = centre + minSpan / 2;
    }
    viewStart = rel0;
    viewEnd = rel1;
    clamp();
}

void TimelineData::centerOn(double rel)
{
    const double s = span();
    viewStart = rel - s / 2;
    viewEnd = rel + s / 2;
    clamp();
}

void TimelineData::clamp()
{
    const double full = std::max(rangeSpan(), minSpan);
    if (!(viewEnd > viewStart) || !std::isfinite(viewStart) || !std::isfinite(viewEnd)) {
        viewStart = rangeStart;
        viewEnd = rangeStart + full;
        return;
    }
    const double s = std::clamp(span(), minSpan, full);
    if (s != span()) {
        const double centre = (viewStart + viewEnd) / 2;
        viewStart = centre - s / 2;
        viewEnd = centre + s / 2;
    }
    if (s >= full) {
        viewStart = rangeStart;
        viewEnd = rangeStart + full;
        return;
    }
    if (viewStart < rangeStart) {
        viewStart = rangeStart;
        viewEnd = rangeStart + s;
    } else if (viewEnd > rangeEnd) {
        viewEnd = rangeEnd;
        viewStart = rangeEnd - s;
    }
}

// ---- Rows and lanes -------------------------------------------------------------------------------------

void TimelineRow::build(std::vector<TimelineItem> items)
{
    m_items = std::move(items);
    // Records of one queue mostly arrive in order already; stable keeps equal starts in record order.
    if (!std::is_sorted(m_items.begin(), m_items.end(),
                        [](const TimelineItem &a, const TimelineItem &b) { return a.begin < b.begin; })) {
        std::stable_sort(m_items.begin(), m_items.end(),
                         [](const TimelineItem &a, const TimelineItem &b) { return a.begin < b.begin; });
    }
    m_maxEnd.resize(m_items.size());
    std::uint64_t maxEnd = 0;
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        maxEnd = std::max(maxEnd, m_items[i].end);
        m_maxEnd[i] = maxEnd;
    }
}

void TimelineRow::append(std::vector<TimelineItem> items)
{
    if (items.empty())
        return;
    const auto byBegin = [](const TimelineItem &a, const TimelineItem &b) { return a.begin < b.begin; };
    if (!std::is_sorted(items.begin(), items.end(), byBegin))
        std::stable_sort(items.begin(), items.end(), byBegin);
    // Merged in after the items that begin no later than the first new one (stable: the older records
    // first at equal begins); only that tail's running maximum is made again.
    const auto at = std::upper_bound(m_items.begin(), m_items.end(), items.front(), byBegin);
    const auto from = static_cast<std::size_t>(at - m_items.begin());
    std::vector<TimelineItem> tail(at, m_items.end());
    m_items.resize(from);
    m_items.reserve(from + tail.size() + items.size());
    std::merge(tail.begin(), tail.end(), items.begin(), items.end(), std::back_inserter(m_items), byBegin);
    m_maxEnd.resize(m_items.size());
    std::uint64_t maxEnd = from > 0 ? m_maxEnd[from - 1] : 0;
    for (std::size_t i = from; i < m_items.size(); ++i) {
        maxEnd = std::max(maxEnd, m_items[i].end);
        m_maxEnd[i] = maxEnd;
    }
}

std::pair<std::size_t, std::size_t> TimelineRow::visibleRange(std::uint64_t from, std::uint64_t to) const
{
    const auto lo =
        static_cast<std::size_t>(std::lower_bound(m_maxEnd.begin(), m_maxEnd.end(), from) - m_maxEnd.begin());
    const auto hi = static_cast<std::size_t>(
        std::upper_bound(m_items.begin(), m_items.end(), to,
                         [](std::uint64_t t, const TimelineItem &item) { return t < item.begin; }) -
        m_items.begin());
    return {lo, std::max(lo, hi)};
}

std::ptrdiff_t TimelineRow::hitTest(std::uint64_t t, std::uint64_t tolerance) const
{
    const std::uint64_t low = t > tolerance ? t - tolerance : 0;
    const std::uint64_t high = t > std::numeric_limits<std::uint64_t>::max() - tolerance
                                   ? std::numeric_limits<std::uint64_t>::max()
                                   : t + tolerance;
    auto hi = static_cast<std::ptrdiff_t>(
        std::upper_bound(m_items.begin(), m_items.end(), high,
                         [](std::uint64_t v, const TimelineItem &item) { return v < item.begin; }) -
        m_items.begin());
    std::ptrdiff_t best = -1;
    std::uint64_t bestDistance = 0;
    std::uint64_t bestLength = 0;
    // Walking back stops where no earlier item can reach `low`: the running maximum of ends says so.
    for (std::ptrdiff_t i = hi - 1; i >= 0 && m_maxEnd[static_cast<std::size_t>(i)] >= low; --i) {
        const TimelineItem &item = m_items[static_cast<std::size_t>(i)];
        if (item.end < low)
            continue;
        const std::uint64_t distance = t < item.begin ? item.begin - t : (t > item.end ? t - item.end : 0);
        const std::uint64_t length = item.end - item.begin;
        if (best < 0 || distance < bestDistance || (distance == bestDistance && length < bestLength)) {
            best = i;
            bestDistance = distance;
            bestLength = length;
        }
    }
    return best;
}

std::uint32_t stableHash(std::string_view text)
{
    std::uint32_t h = 2166136261u;
    for (char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    return h;
}

std::uint32_t colourIndexFor(const CommandRecord &record)
{
    if (record.type == CommandRecord::Type::Kernel)
        return kKernelColourBase + stableHash(record.name) % kKernelColourCount;
    return static_cast<std::uint32_t>(record.type);
}

void TimelineLanes::build(const std::vector<CommandRecord> &records, bool stages)
{
    m_stages = stages;
    m_lanes.clear();
    m_laneOfRecord.assign(records.size(), -1);
    m_first = std::numeric_limits<std::uint64_t>::max();
    m_last = 0;

    // Every record's group first: the "host" lane (group 0), a thread of a captured program (its host
    // spans), or a (device, queue). Lanes are grouped by device, so numbering waits until every queue of
    // every device is known; the items of each group are counted on the way, so that each lane's row is
    // allocated once (a capture has millions of records).
    struct Group
    {
        int device = -1; // -1: a host lane
        std::string queue;
        std::size_t items = 0;
        int lane = 0;
    };
    struct DeviceQueues
    {
        std::string name;
        std::vector<int> groups; // in order of first appearance
        std::unordered_map<std::string, int> index;
    };
    std::vector<Group> groups(1);
    groups[0].queue = "host";
    std::vector<DeviceQueues> devices;
    std::unordered_map<std::string, int> deviceIndex;
    std::unordered_map<std::string, int> hostGroup;
    std::vector<int> groupOf(records.size(), 0);
    // Consecutive records of one queue (or thread) are the common case: no hash lookups for them.
    const CommandRecord *lastDevice = nullptr;
    const CommandRecord *lastHost = nullptr;
    int lastDeviceGroup = 0, lastHostGroup = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        int group = 0;
        if (r.hostSpan) {
            if (!r.queue.empty() && r.queue != "host") {
                if (lastHost && lastHost->queue == r.queue) {
                    group = lastHostGroup;
                } else {
                    auto [it, added] = hostGroup.try_emplace(r.queue, static_cast<int>(groups.size()));
                    if (added)
                        groups.push_back({-1, r.queue});
                    group = lastHostGroup = it->second;
                    lastHost = &r;
                }
            }
        } else if (lastDevice && lastDevice->device == r.device && lastDevice->queue == r.queue) {
            group = lastDeviceGroup;
        } else {
            auto [dit, newDevice] = deviceIndex.try_emplace(r.device, static_cast<int>(devices.size()));
            if (newDevice)
                devices.push_back({r.device, {}, {}});
            DeviceQueues &d = devices[static_cast<std::size_t>(dit->second)];
            auto [qit, newQueue] = d.index.try_emplace(r.queue, static_cast<int>(groups.size()));
            if (newQueue) {
                groups.push_back({dit->second, r.queue});
                d.groups.push_back(qit->second);
            }
            group = lastDeviceGroup = qit->second;
            lastDevice = &r;
        }
        groupOf[i] = group;
        if (r.start != 0 && r.end != 0 && r.start <= r.end)
            ++groups[static_cast<std::size_t>(group)].items;
    }

    // Host lanes first: "host" for the workbench's own spans, then one per thread of a captured program, then
    // the queues of each device.
    auto addLane = [this, &groups](int group, const std::string &device) {
        Group &g = groups[static_cast<std::size_t>(group)];
        g.lane = static_cast<int>(m_lanes.size());
        TimelineLane lane;
        lane.host = g.device < 0;
        lane.device = device;
        lane.queue = g.queue;
        m_lanes.push_back(std::move(lane));
    };
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].device < 0)
            addLane(static_cast<int>(g), {});
    }
    for (const DeviceQueues &d : devices) {
        for (int g : d.groups)
            addLane(g, d.name);
    }

    m_laneIndex.clear();
    for (std::size_t l = 0; l < m_lanes.size(); ++l) {
        const TimelineLane &lane = m_lanes[l];
        m_laneIndex.emplace(lane.host ? "H" + lane.queue : "D" + lane.device + '\0' + lane.queue, int(l));
    }
    std::vector<int> lanes(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        lanes[i] = groups[static_cast<std::size_t>(groupOf[i])].lane;
    addItems(records, 0, lanes, false);
}

std::string TimelineLanes::laneKey(const CommandRecord &r)
{
    if (r.hostSpan)
        return "H" + (r.queue.empty() || r.queue == "host" ? std::string("host") : r.queue);
    return "D" + r.device + '\0' + r.queue;
}

bool TimelineLanes::append(const std::vector<CommandRecord> &records, std::size_t from)
{
    if (from != m_laneOfRecord.size() || from > records.size())
        return false;
    std::vector<int> lanes(records.size() - from);
    for (std::size_t i = from; i < records.size(); ++i) {
        const auto it = m_laneIndex.find(laneKey(records[i]));
        if (it == m_laneIndex.end())
            return false; // a queue or thread not seen before: the lanes are numbered anew
        lanes[i - from] = it->second;
    }
    addItems(records, from, lanes, true);
    return true;
}

void TimelineLanes::addItems(const std::vector<CommandRecord> &records, std::size_t from,
                             const std::vector<int> &lanes, bool append)
{
    const bool stages = m_stages;
    m_laneOfRecord.resize(records.size(), -1);
    if (!append || (m_first == 0 && m_last == 0)) {
        m_first = std::numeric_limits<std::uint64_t>::max();
        m_last = 0;
    }
    // Each lane's row is allocated once (a capture has millions of records).
    std::vector<std::size_t> counts(m_lanes.size());
    for (std::size_t i = from; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        if (r.start != 0 && r.end != 0 && r.start <= r.end)
            ++counts[static_cast<std::size_t>(lanes[i - from])];
    }
    std::vector<std::vector<TimelineItem>> run(m_lanes.size());
    std::vector<std::vector<TimelineItem>> queued(stages ? m_lanes.size() : 0);
    std::vector<std::vector<TimelineItem>> submitted(stages ? m_lanes.size() : 0);
    for (std::size_t l = 0; l < m_lanes.size(); ++l) {
        run[l].reserve(counts[l]);
        if (stages && !m_lanes[l].host) {
            queued[l].reserve(counts[l]);
            submitted[l].reserve(counts[l]);
        }
    }
    const std::string *lastKernel = nullptr; // colourIndexFor hashes the name: once per run of one kernel
    std::uint32_t lastKernelColour = 0;
    for (std::size_t i = from; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        if (r.start == 0 || r.end == 0 || r.start > r.end)
            continue;
        const int lane = lanes[i - from];
        m_laneOfRecord[i] = lane;
        std::uint32_t colour = static_cast<std::uint32_t>(r.type);
        if (r.type == CommandRecord::Type::Kernel) {
            if (!lastKernel || *lastKernel != r.name) {
                lastKernel = &r.name;
                lastKernelColour = colourIndexFor(r);
            }
            colour = lastKernelColour;
        }
        const auto index = static_cast<std::uint32_t>(i);
        run[static_cast<std::size_t>(lane)].push_back({r.start, r.end, index, colour});
        m_first = std::min(m_first, r.start);
        m_last = std::max(m_last, r.end);
        if (stages && !r.hostSpan) {
            if (r.queued != 0 && r.submit != 0 && r.queued <= r.submit) {
                queued[static_cast<std::size_t>(lane)].push_back({r.queued, r.submit, index, colour});
                m_first = std::min(m_first, r.queued);
            }
            if (r.submit != 0 && r.submit <= r.start) {
                submitted[static_cast<std::size_t>(lane)].push_back({r.submit, r.start, index, colour});
                m_first = std::min(m_first, r.submit);
            }
        }
    }
    for (std::size_t l = 0; l < m_lanes.size(); ++l) {
        TimelineLane &lane = m_lanes[l];
        if (append) {
            lane.run.append(std::move(run[l]));
            if (stages) {
                lane.queued.append(std::move(queued[l]));
                lane.submitted.append(std::move(submitted[l]));
            }
        } else {
            lane.run.build(std::move(run[l]));
            if (stages) {
                lane.queued.build(std::move(queued[l]));
                lane.submitted.build(std::move(submitted[l]));
            }
        }
    }
    if (m_first > m_last)
        m_first = m_last = 0;
}

int TimelineLanes::laneOf(std::size_t record) const
{
    return record < m_laneOfRecord.size() ? m_laneOfRecord[record] : -1;
}

// ---- Axis -----------------------------------------------------------------------------------------------

const char *unitName(double unit)
{
    if (unit >= 1e9)
        return "s";
    if (unit >= 1e6)
        return "ms";
    if (unit >= 1e3)
        return "\u00b5s";
    return "ns";
}

std::string TimeAxisTicks::label(double rel) const
{
    double value = (rel - base) / unit;
    // Printing -0.000 for a tick that is 0 up to rounding would look like a bug.
    if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value, unitName(unit));
    return buf;
}

TimeAxisTicks chooseTicks(const TimelineData &data, const std::function<int(const std::string &)> &textWidth,
                          int gap)
{
    TimeAxisTicks ticks;
    const double nsPerPixel = data.nsPerPixel();
    if (!(nsPerPixel > 0) || !(data.span() > 0))
        return ticks;
    ticks.base = data.viewStart;
    ticks.firstTick = data.viewStart;
    const double magnitude = data.span();
    ticks.unit = magnitude >= 1e9 ? 1e9 : magnitude >= 1e6 ? 1e6 : magnitude >= 1e3 ? 1e3 : 1;

    static constexpr std::array<double, 3> mantissas = {1, 2, 5};
    const int firstExponent = std::max(0, static_cast<int>(std::floor(std::log10(nsPerPixel))));
    for (int exponent = firstExponent; exponent < 20; ++exponent) {
        for (std::size_t m = 0; m < mantissas.size(); ++m) {
            const double step = mantissas[m] * std::pow(10.0, exponent);
            ticks.step = step;
            ticks.decimals = std::max(0, static_cast<int>(std::ceil(std::log10(ticks.unit / step) - 1e-9)));
            ticks.minorDivisions = m == 1 ? 4 : 5;
            // The widest label is the last one, the furthest from the view's start.
            const double last = data.viewStart + std::floor(data.span() / step) * step;
            const int widest = std::max(textWidth(ticks.label(last)), textWidth(ticks.label(data.viewStart)));
            if (step / nsPerPixel >= widest + gap)
                return ticks;
        }
    }
    return ticks;
}

std::vector<AxisLabel> axisLabels(const TimelineData &data, const TimeAxisTicks &ticks,
                                  const std::function<int(const std::string &)> &textWidth)
{
    std::vector<AxisLabel> out;
    if (!(ticks.step > 0) || data.width <= 0)
        return out;
    int rightmost = std::numeric_limits<int>::min();
    for (int k = 0; k < 100000; ++k) {
        const double t = ticks.firstTick + k * ticks.step;
        if (t > data.viewEnd)
            break;
        AxisLabel label;
        label.tick = t;
        label.text = ticks.label(t);
        label.width = textWidth(label.text);
        label.x = static_cast<int>(std::lround(data.timeToX(t))) + kAxisLabelPad;
        if (label.x + label.width > data.width || label.x < rightmost + kAxisLabelPad)
            continue;
        rightmost = label.x + label.width;
        out.push_back(std::move(label));
    }
    return out;
}

std::pair<std::uint64_t, std::uint64_t> recordSpan(const std::vector<CommandRecord> &records,
                                                   const std::vector<std::size_t> &indices, bool stages)
{
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last = 0;
    for (const std::size_t i : indices) {
        if (i >= records.size())
            continue;
        const CommandRecord &r = records[i];
        if (r.start == 0 || r.end < r.start)
            continue;
        const std::uint64_t begin = stages && r.queued != 0 && r.queued <= r.start ? r.queued : r.start;
        first = std::min(first, begin);
        last = std::max(last, r.end);
    }
    if (last == 0)
        return {0, 0};
    return {first, last};
}

std::pair<std::uint64_t, std::uint64_t> lastRunSpan(const std::vector<CommandRecord> &records,
                                                    const std::vector<std::size_t> &indices, bool stages)
{
    const auto spanOf = [&](auto keep) {
        std::vector<std::size_t> kept;
        kept.reserve(indices.size());
        for (const std::size_t i : indices) {
            if (i < records.size() && keep(records[i]))
                kept.push_back(i);
        }
        return recordSpan(records, kept, stages);
    };
    auto span =
        spanOf([](const CommandRecord &r) { return !r.hostSpan && r.type == CommandRecord::Type::Kernel; });
    if (span.second == 0)
        span = spanOf([](const CommandRecord &r) { return !r.hostSpan; });
    return span.second != 0 ? span : recordSpan(records, indices, stages);
}

} // namespace clscope::ui
