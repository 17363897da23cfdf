// CaptureReader, what the capture views list: progress of a live capture, memory objects and their
// lifetimes, live bytes per context, programs with their sources and builds, and the API calls.
#include "reader_impl.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace clscope {

using namespace capture;

namespace {

std::uint64_t scalar(const Db &db, const char *sql)
{
    Stmt s(db, sql);
    return s.step() ? std::uint64_t(s.i64(0)) : 0;
}

// "ndrange-kernel" -> "clEnqueueNDRangeKernel", "read-buffer" -> "clEnqueueReadBuffer".
std::string enqueueName(const std::string &typeName)
{
    std::string out = "clEnqueue";
    std::size_t at = 0;
    while (at <= typeName.size()) {
        const std::size_t dash = std::min(typeName.find('-', at), typeName.size());
        std::string word = typeName.substr(at, dash - at);
        if (word == "ndrange" || word == "svm") {
            for (char &c : word)
                c = char(c - 'a' + 'A');
            if (word == "NDRANGE")
                word = "NDRange";
        } else if (!word.empty() && word[0] >= 'a' && word[0] <= 'z') {
            word[0] = char(word[0] - 'a' + 'A');
        }
        out += word;
        at = dash + 1;
    }
    return out;
}

// Live bytes over time from (time, +size / -size) events, frees first at equal times.
std::vector<PoolSeriesPoint> liveSeries(std::vector<std::pair<std::int64_t, std::int64_t>> events)
{
    std::sort(events.begin(), events.end());
    std::vector<PoolSeriesPoint> out;
    std::int64_t live = 0;
    for (const auto &[t, delta] : events) {
        live += delta;
        if (!out.empty() && out.back().timestampNs == std::uint64_t(t))
            out.back().heldBytes = out.back().activeBytes = std::uint64_t(live);
        else
            out.push_back({std::uint64_t(t), std::uint64_t(live), std::uint64_t(live)});
    }
    return out;
}

} // namespace

CaptureProgress CaptureReader::progress() const
{
    const Db &db = d->db;
    CaptureProgress p;
    {
        Stmt s(db, "SELECT COUNT(*), COUNT(launch) FROM commands WHERE result = 0");
        if (s.step()) {
            p.commands = std::uint64_t(s.i64(0));
            p.launches = std::uint64_t(s.i64(1));
        }
    }
    p.apiCalls = scalar(db, "SELECT COUNT(*) FROM api_calls") + scalar(db, "SELECT COUNT(*) FROM commands");
    p.memObjects = scalar(db, "SELECT COUNT(*) FROM mem_objects");
    p.contentBytes = scalar(db, "SELECT IFNULL(SUM(LENGTH(data)), 0) FROM contents WHERE state = 'captured'");
    p.droppedRecords = scalar(db, "SELECT IFNULL(SUM(records), 0) FROM drops");
    p.complete = scalar(db, "SELECT COUNT(*) FROM processes") > 0 &&
                 scalar(db, "SELECT COUNT(*) FROM processes WHERE ended_ns IS NULL") == 0;
    return p;
}

std::vector<CapturedBuffer> CaptureReader::buffers() const
{
    const Db &db = d->db;
    std::vector<CapturedBuffer> out;
    std::unordered_map<std::int64_t, std::size_t> byId;
    Stmt q(db, "SELECT id, context, kind, flags, size, parent, created_ns, released_ns FROM mem_objects "
               "ORDER BY id");
    while (q.step()) {
        CapturedBuffer b;
        b.id = q.i64(0);
        b.context = q.i64(1);
        b.kind = q.text(2);
        b.flags = std::uint64_t(q.i64(3));
        b.size = std::uint64_t(q.i64(4));
        b.parent = q.isNull(5) ? 0 : q.i64(5);
        b.createdNs = std::uint64_t(q.i64(6));
        if (!q.isNull(7))
            b.releasedNs = std::uint64_t(q.i64(7));
        byId[b.id] = out.size();
        out.push_back(std::move(b));
    }
    Stmt k(db,
           "SELECT a.mem, k.name, COUNT(*) FROM launch_args a JOIN commands c ON c.launch = a.launch "
           "JOIN kernels k ON k.id = c.kernel WHERE a.kind = 'mem' GROUP BY a.mem, k.name ORDER BY a.mem, "
           "MIN(c.id)");
    while (k.step()) {
        const auto it = byId.find(k.i64(0));
        if (it == byId.end())
            continue;
        CapturedBuffer &b = out[it->second];
        b.kernels.push_back(k.text(1));
        b.launches += std::uint64_t(k.i64(2));
    }
    return out;
}

std::vector<CaptureContextSeries> CaptureReader::memoryByContext() const
{
    const Db &db = d->db;
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> events;
    Stmt q(db, "SELECT context, size, created_ns, released_ns FROM mem_objects WHERE kind != 'sub-buffer'");
    while (q.step()) {
        auto &e = events[q.i64(0)];
        e.push_back({q.i64(2), q.i64(1)});
        if (!q.isNull(3))
            e.push_back({q.i64(3), -q.i64(1)});
    }
    Stmt names(db, "SELECT GROUP_CONCAT(d.name, ', ') FROM contexts c, json_each('[' || c.devices || ']') j "
                   "JOIN devices d ON d.id = j.value WHERE c.id = ?");
    std::vector<CaptureContextSeries> out;
    for (auto &[ctx, evs] : events) {
        CaptureContextSeries s;
        s.context = ctx;
        names.bind(1, ctx);
        if (names.step())
            s.devices = names.text(0);
        names.reset();
        s.series = liveSeries(std::move(evs));
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<CapturedProgram> CaptureReader::programs() const
{
    const Db &db = d->db;
    std::vector<CapturedProgram> out;
    Stmt p(db, "SELECT id, context, kind FROM programs ORDER BY id");
    Stmt src(db, "SELECT data FROM program_sources WHERE program = ? ORDER BY idx");
    Stmt builds(db, "SELECT id, op, options, result, duration_ns FROM builds WHERE program = ? ORDER BY id");
    Stmt logs(db, "SELECT IFNULL(d.name, ''), l.status, l.log FROM build_logs l LEFT JOIN devices d ON "
                  "d.id = l.device WHERE l.build = ?");
    Stmt kernels(db,
                 "SELECT k.name, (SELECT COUNT(*) FROM commands c WHERE c.kernel = k.id AND c.launch IS NOT "
                 "NULL) FROM kernels k WHERE k.program = ? ORDER BY k.id");
    while (p.step()) {
        CapturedProgram prog;
        prog.id = p.i64(0);
        prog.context = p.i64(1);
        prog.kind = p.text(2);
        src.bind(1, prog.id);
        while (src.step()) {
            const std::vector<unsigned char> b = src.blob(0);
            prog.sources.emplace_back(b.begin(), b.end());
        }
        src.reset();
        builds.bind(1, prog.id);
        while (builds.step()) {
            CapturedBuild b;
            b.op = builds.text(1);
            b.options = builds.text(2);
            b.result = int(builds.i64(3));
            b.durationNs = std::uint64_t(builds.i64(4));
            logs.bind(1, builds.i64(0));
            while (logs.step())
                b.logs.push_back({logs.text(0), int(logs.i64(1)), logs.text(2)});
            logs.reset();
            prog.builds.push_back(std::move(b));
        }
        builds.reset();
        kernels.bind(1, prog.id);
        while (kernels.step()) {
            const std::string name = kernels.text(0);
            if (std::find(prog.kernels.begin(), prog.kernels.end(), name) == prog.kernels.end())
                prog.kernels.push_back(name);
            prog.launches += std::uint64_t(kernels.i64(1));
        }
        kernels.reset();
        out.push_back(std::move(prog));
    }
    return out;
}

std::vector<CaptureApiTotal> CaptureReader::apiTotals() const
{
    const Db &db = d->db;
    std::map<std::string, CaptureApiTotal> byName;
    auto add = [&byName](const std::string &name, std::uint64_t calls, std::uint64_t failed, std::uint64_t ns,
                         std::uint64_t maxNs) {
        CaptureApiTotal &t = byName[name];
        t.name = name;
        t.calls += calls;
        t.failed += failed;
        t.totalNs += ns;
        t.maxNs = std::max(t.maxNs, maxNs);
    };
    Stmt a(db, "SELECT IFNULL(n.name, 'call ' || c.api), COUNT(*), SUM(c.result != 0), SUM(c.duration_ns), "
               "MAX(c.duration_ns) FROM api_calls c LEFT JOIN api_names n ON n.id = c.api GROUP BY c.api");
    while (a.step())
        add(a.text(0), std::uint64_t(a.i64(1)), std::uint64_t(a.i64(2)), std::uint64_t(a.i64(3)),
            std::uint64_t(a.i64(4)));
    Stmt c(db, "SELECT type_name, COUNT(*), SUM(result != 0), SUM(host_duration_ns), MAX(host_duration_ns) "
               "FROM commands GROUP BY type_name");
    while (c.step())
        add(enqueueName(c.text(0)), std::uint64_t(c.i64(1)), std::uint64_t(c.i64(2)), std::uint64_t(c.i64(3)),
            std::uint64_t(c.i64(4)));
    std::vector<CaptureApiTotal> out;
    for (auto &[name, t] : byName)
        out.push_back(std::move(t));
    std::sort(out.begin(), out.end(), [](const CaptureApiTotal &x, const CaptureApiTotal &y) {
        return x.totalNs != y.totalNs ? x.totalNs > y.totalNs : x.name < y.name;
    });
    return out;
}

std::vector<CommandRecord> CaptureReader::apiCallRecords(std::size_t limit) const
{
    const Db &db = d->db;
    std::vector<CommandRecord> out;
    // The longest calls when there are more than the limit: those are the ones a timeline shows.
    Stmt q(db, "SELECT name, thread, start_ns, duration_ns FROM ("
               "SELECT IFNULL(n.name, 'call ' || c.api) AS name, c.thread, c.start_ns, c.duration_ns "
               "FROM api_calls c LEFT JOIN api_names n ON n.id = c.api "
               "UNION ALL SELECT type_name, thread, host_start_ns, host_duration_ns FROM commands) "
               "ORDER BY duration_ns DESC LIMIT ?");
    q.bind(1, std::int64_t(std::min<std::size_t>(limit, std::size_t(INT64_MAX))));
    while (q.step()) {
        CommandRecord r;
        r.type = CommandRecord::Type::Marker;
        r.hostSpan = true;
        const std::string name = q.text(0);
        r.name = name.rfind("cl", 0) == 0 ? name : enqueueName(name);
        r.queue = "thread " + std::to_string(q.i64(1));
        r.device = "host";
        r.start = std::uint64_t(q.i64(2));
        r.end = r.start + std::uint64_t(std::max<std::int64_t>(q.i64(3), 1));
        r.hostSubmitNs = r.start;
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(),
              [](const CommandRecord &a, const CommandRecord &b) { return a.start < b.start; });
    return out;
}

std::vector<std::int64_t> CaptureReader::launchesWithContents() const
{
    std::vector<std::int64_t> out;
    Stmt q(d->db,
           "SELECT DISTINCT launch FROM contents WHERE phase = 'before' AND state = 'captured' ORDER BY "
           "launch");
    while (q.step())
        out.push_back(q.i64(0));
    return out;
}

} // namespace clscope
