// Chrome trace event JSON (the object form that Perfetto and chrome://tracing open): processes per device,
// threads per queue, X slices per command, optional stage slices, pool counters. Written event by event so
// that a million records never sit in memory as one JSON tree.
#include "clscope/fileio.h"
#include "clscope/profile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace clscope {

namespace {

using nlohmann::json;

bool sliceable(const CommandRecord &r)
{
    return r.start != 0 && r.end != 0 && r.start <= r.end;
}

// Nanoseconds since the origin as microseconds: a double with three decimals is exact to the nanosecond
// for spans up to 2^53 ns (104 days), which is why times are made relative first.
double micros(std::uint64_t ns, std::uint64_t origin)
{
    const double rel = ns >= origin ? static_cast<double>(ns - origin) : -static_cast<double>(origin - ns);
    return rel / 1000.0;
}

double microsSpan(std::uint64_t ns)
{
    return static_cast<double>(ns) / 1000.0;
}

json sizesJson(const std::array<std::size_t, 3> &sizes, int dims)
{
    json a = json::array();
    for (int i = 0; i < std::clamp(dims, 0, 3); ++i)
        a.push_back(sizes[static_cast<std::size_t>(i)]);
    return a;
}

json recordArgs(const CommandRecord &r, std::size_t index)
{
    json args = {{"index", index},
                 {"type", typeName(r.type)},
                 {"name", r.name},
                 {"queue", r.queue},
                 {"device", r.device},
                 {"bytes", r.bytes},
                 {"dims", r.dims},
                 {"global", sizesJson(r.global, r.dims)},
                 {"local", sizesJson(r.local, r.dims)},
                 {"queued_ns", r.queued},
                 {"submit_ns", r.submit},
                 {"start_ns", r.start},
                 {"end_ns", r.end},
                 {"host_submit_ns", r.hostSubmitNs},
                 {"host_span", r.hostSpan},
                 {"duration_ns", r.duration()}};
    if (r.complete)
        args["complete_ns"] = *r.complete;
    if (r.hasBandwidth())
        args["gb_per_s"] = r.gbPerSecond();
    if (const StampIssues issues = checkTimestamps(r); issues.any()) {
        args["issues"] = describeIssues(issues);
        args["issue_mask"] = issues.mask;
    }
    return args;
}

class EventWriter
{
public:
    explicit EventWriter(std::ostream &out)
        : m_out(out)
    {}
    void write(const json &event)
    {
        m_out << (m_first ? "\n" : ",\n") << event.dump(-1, ' ', false, json::error_handler_t::replace);
        m_first = false;
    }
    void metadata(const char *name, int pid, int tid, json args)
    {
        write({{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}});
    }

private:
    std::ostream &m_out;
    bool m_first = true;
};

struct Track
{
    int pid = 0;
    int tid = 0;
};

// Processes and threads in order of first appearance, so the trace lists them as the run met them.
struct Layout
{
    std::map<std::string, int> devicePid;
    std::vector<std::string> devices;
    std::map<std::pair<int, std::string>, int> queueTid;
    std::vector<std::pair<Track, std::string>> threads;
    int hostPid = 0;
    int poolPid = 0;
    int nextPid = 1;

    int pidFor(const CommandRecord &r)
    {
        if (r.hostSpan) {
            if (hostPid == 0)
                hostPid = nextPid++;
            return hostPid;
        }
        auto [it, inserted] = devicePid.try_emplace(r.device, nextPid);
        if (inserted) {
            ++nextPid;
            devices.push_back(r.device);
        }
        return it->second;
    }
    std::string threadName(int pid, int tid) const
    {
        for (const auto &[track, name] : threads) {
            if (track.pid == pid && track.tid == tid)
                return name;
        }
        return {};
    }
    Track trackFor(const CommandRecord &r)
    {
        const int pid = pidFor(r);
        const std::string name = r.queue.empty() ? std::string(r.hostSpan ? "host" : "queue") : r.queue;
        auto [it, inserted] = queueTid.try_emplace({pid, name}, static_cast<int>(queueTid.size()) + 1);
        if (inserted)
            threads.push_back({{pid, it->second}, name});
        return {pid, it->second};
    }
};

struct StageSlice
{
    const char *name;
    std::uint64_t from;
    std::uint64_t to;
};

// The three stages of a command that have both ends, in order, non-negative.
std::vector<StageSlice> stagesOf(const CommandRecord &r)
{
    std::vector<StageSlice> out;
    auto add = [&out](const char *name, std::uint64_t a, std::uint64_t b) {
        if (a != 0 && b != 0 && a <= b)
            out.push_back({name, a, b});
    };
    add("queued", r.queued, r.submit);
    add("submitted", r.submit, r.start);
    add("running", r.start, r.end);
    return out;
}

} // namespace

void writeChromeTrace(std::ostream &out, const std::vector<CommandRecord> &records,
                      const ChromeTraceOptions &options, const std::vector<PoolSeriesPoint> &pool)
{
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    if (options.originNs) {
        origin = *options.originNs;
    } else {
        for (const CommandRecord &r : records) {
            for (std::uint64_t t : {r.queued, r.submit, r.start}) {
                if (t != 0 && (options.stages || t == r.start))
                    origin = std::min(origin, t);
            }
        }
        for (const PoolSeriesPoint &p : pool)
            origin = std::min(origin, p.timestampNs);
        if (origin == std::numeric_limits<std::uint64_t>::max())
            origin = 0;
    }

    Layout layout;
    std::vector<Track> tracks(records.size());
    std::size_t skipped = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        tracks[i] = layout.trackFor(records[i]);
        if (!sliceable(records[i]))
            ++skipped;
    }

    out << R"({"displayTimeUnit":"ns","otherData":)"
        << json({{"generator", "CLScope"},
                 {"origin_ns", origin},
                 {"records", records.size()},
                 {"skipped_records", skipped}})
               .dump()
        << R"(,"traceEvents":[)";
    EventWriter writer(out);

    // Metadata first: names, and sort indices that put the host on top and the pool at the bottom.
    if (layout.hostPid != 0) {
        writer.metadata("process_name", layout.hostPid, 0, {{"name", "Host"}});
        writer.metadata("process_sort_index", layout.hostPid, 0, {{"sort_index", -1}});
    }
    for (const std::string &device : layout.devices) {
        const int pid = layout.devicePid.at(device);
        writer.metadata("process_name", pid, 0, {{"name", device.empty() ? std::string("device") : device}});
        writer.metadata("process_sort_index", pid, 0, {{"sort_index", pid}});
    }
    for (const auto &[track, name] : layout.threads) {
        writer.metadata("thread_name", track.pid, track.tid, {{"name", name}});
        writer.metadata("thread_sort_index", track.pid, track.tid, {{"sort_index", track.tid * 2}});
    }

    // Commands of an out-of-order queue (or builds in parallel on the host) can overlap, and a track must
    // nest properly: overlapping commands move to extra rows of their queue ("queue 0 #2"), greedily by
    // start. An in-order queue keeps one row.
    int nextTid = static_cast<int>(layout.queueTid.size()) + 1;
    std::map<std::pair<int, int>, std::vector<std::size_t>> slicesByTrack;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (sliceable(records[i]))
            slicesByTrack[{tracks[i].pid, tracks[i].tid}].push_back(i);
    }
    for (auto &[key, indices] : slicesByTrack) {
        const auto [pid, tid] = key;
        std::stable_sort(indices.begin(), indices.end(), [&records](std::size_t a, std::size_t b) {
            return records[a].start < records[b].start;
        });
        std::vector<std::uint64_t> rowEnds;
        std::vector<int> rowTids;
        for (std::size_t i : indices) {
            const CommandRecord &r = records[i];
            std::size_t row = 0;
            while (row < rowEnds.size() && rowEnds[row] > r.start)
                ++row;
            if (row == rowEnds.size()) {
                rowEnds.push_back(0);
                rowTids.push_back(row == 0 ? tid : nextTid++);
                if (row > 0) {
                    const std::string name = layout.threadName(pid, tid) + " #" + std::to_string(row + 1);
                    writer.metadata("thread_name", pid, rowTids[row], {{"name", name}});
                    writer.metadata("thread_sort_index", pid, rowTids[row], {{"sort_index", tid * 2}});
                }
            }
            rowEnds[row] = r.end;
            json event = {{"name", r.name.empty() ? std::string(typeName(r.type)) : r.name},
                          {"cat", typeName(r.type)},
                          {"ph", "X"},
                          {"ts", micros(r.start, origin)},
                          {"dur", microsSpan(r.end - r.start)},
                          {"pid", pid},
                          {"tid", rowTids[row]}};
            if (options.args)
                event["args"] = recordArgs(r, i);
            writer.write(event);
        }
    }

    if (options.stages) {
        // Stage slices of successive commands overlap (the next one is queued while this one runs), and a
        // track must nest properly, so each queue gets as many "stages" rows as overlap needs (greedy).
        std::map<std::pair<int, int>, std::vector<std::size_t>> byTrack;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (!records[i].hostSpan)
                byTrack[{tracks[i].pid, tracks[i].tid}].push_back(i);
        }
        for (auto &[key, indices] : byTrack) {
            const auto [pid, tid] = key;
            std::vector<std::pair<std::size_t, std::vector<StageSlice>>> commands;
            for (std::size_t i : indices) {
                auto slices = stagesOf(records[i]);
                if (!slices.empty())
                    commands.emplace_back(i, std::move(slices));
            }
            std::stable_sort(commands.begin(), commands.end(), [](const auto &a, const auto &b) {
                return a.second.front().from < b.second.front().from;
            });
            std::vector<std::uint64_t> rowEnds;
            std::vector<int> rowTids;
            const std::string queueName = layout.threadName(pid, tid);
            for (const auto &[i, slices] : commands) {
                const std::uint64_t from = slices.front().from;
                std::size_t row = 0;
                while (row < rowEnds.size() && rowEnds[row] > from)
                    ++row;
                if (row == rowEnds.size()) {
                    rowEnds.push_back(0);
                    rowTids.push_back(nextTid++);
                    const std::string name =
                        queueName + " stages" + (row == 0 ? std::string() : " #" + std::to_string(row + 1));
                    writer.metadata("thread_name", pid, rowTids[row], {{"name", name}});
                    writer.metadata("thread_sort_index", pid, rowTids[row], {{"sort_index", tid * 2 + 1}});
                }
                rowEnds[row] = slices.back().to;
                for (const StageSlice &s : slices) {
                    writer.write({{"name", s.name},
                                  {"cat", "stage"},
                                  {"ph", "X"},
                                  {"ts", micros(s.from, origin)},
                                  {"dur", microsSpan(s.to - s.from)},
                                  {"pid", pid},
                                  {"tid", rowTids[row]},
                                  {"args", {{"command", records[i].name}, {"index", i}}}});
                }
            }
        }
    }

    if (!pool.empty()) {
        layout.poolPid = layout.nextPid++;
        writer.metadata("process_name", layout.poolPid, 0, {{"name", "Memory pool"}});
        writer.metadata("process_sort_index", layout.poolPid, 0, {{"sort_index", 1 << 20}});
        for (const PoolSeriesPoint &p : pool) {
            writer.write({{"name", "pool bytes"},
                          {"ph", "C"},
                          {"ts", micros(p.timestampNs, origin)},
                          {"pid", layout.poolPid},
                          {"tid", 0},
                          {"args", {{"held_bytes", p.heldBytes}, {"active_bytes", p.activeBytes}}}});
        }
    }
    out << "\n]}\n";
}

std::string chromeTraceJson(const std::vector<CommandRecord> &records, const ChromeTraceOptions &options,
                            const std::vector<PoolSeriesPoint> &pool)
{
    std::ostringstream out;
    writeChromeTrace(out, records, options, pool);
    return std::move(out).str();
}

void writeChromeTrace(const std::string &path, const std::vector<CommandRecord> &records,
                      const ChromeTraceOptions &options, const std::vector<PoolSeriesPoint> &pool)
{
    writeWholeFile(path, chromeTraceJson(records, options, pool));
}

} // namespace clscope
