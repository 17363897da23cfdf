// CaptureReader, what the capture views list: progress of a live capture, memory objects and their
// lifetimes, live bytes per context, programs with their sources and builds, and the API calls.
#include "reader_impl.h"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <unordered_map>

namespace clscope {

using namespace capture;

std::string capture::enqueueName(std::string_view typeName)
{
    std::string out = "clEnqueue";
    std::size_t at = 0;
    while (at <= typeName.size()) {
        const std::size_t dash = std::min(typeName.find('-', at), typeName.size());
        std::string word(typeName.substr(at, dash - at));
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

const ApiScan &CaptureReader::Impl::apiCalls()
{
    const std::int64_t version = dataVersion();
    if (apiScan.dataVersion == version)
        return apiScan;
    // Rows are only added: the pass goes on from the last one it read.
    ApiScan &scan = apiScan;
    std::unordered_map<std::int64_t, std::optional<std::string>> names;
    {
        Stmt n(db, "SELECT id, name FROM api_names");
        while (n.step())
            names[n.i64(0)] = n.isNull(1) ? std::nullopt : std::optional<std::string>(n.text(1));
    }
    // GROUP BY api (NULL a group of its own); consecutive calls of one function are the common case.
    std::int64_t lastApi = 0;
    bool lastNull = false;
    std::uint32_t last = UINT32_MAX;
    Stmt q(db,
           "SELECT id, api, thread, start_ns, duration_ns, result FROM api_calls WHERE id > ? ORDER BY id");
    q.bind(1, scan.lastId);
    while (q.step()) {
        scan.lastId = std::max(scan.lastId, q.i64(0)); // a damaged file may give ids out of order
        const bool apiNull = q.isNull(1);
        const std::int64_t api = q.i64(1);
        if (last == UINT32_MAX || apiNull != lastNull || api != lastApi) {
            const auto index = std::uint32_t(scan.functions.size());
            bool added = false;
            if (apiNull) {
                added = !scan.nullApi;
                if (added)
                    scan.nullApi = index;
                last = *scan.nullApi;
            } else {
                auto it = scan.byApi.try_emplace(api, index);
                added = it.second;
                last = it.first->second;
            }
            if (added) {
                // IFNULL(n.name, 'call ' || c.api): NULL (so "") without an api.
                CallTotals f;
                if (!apiNull) {
                    const auto n = names.find(api);
                    f.name = n != names.end() && n->second ? *n->second : "call " + std::to_string(api);
                }
                scan.functions.push_back(std::move(f));
            }
            lastApi = api;
            lastNull = apiNull;
        }
        const bool durationNull = q.isNull(4);
        const std::int64_t duration = q.i64(4);
        scan.functions[last].add(q.isNull(5), q.i64(5), durationNull, duration);
        scan.spans.push_back({q.i64(3), duration, q.i64(2), last, durationNull});
    }
    scan.dataVersion = version;
    return scan;
}

SpanRecords::SpanRecords(const ApiScan &api, const CommandScan &commands)
    : m_api(api)
    , m_commands(commands)
    , m_apiNames(api.functions.size())
    , m_enqueueNames(commands.enqueues.size())
{}

CommandRecord SpanRecords::make(const HostSpan &s, bool enqueue)
{
    std::optional<std::string> &name = (enqueue ? m_enqueueNames : m_apiNames)[s.name];
    if (!name) {
        const std::string &raw = enqueue ? m_commands.enqueues[s.name].name : m_api.functions[s.name].name;
        name = raw.rfind("cl", 0) == 0 ? raw : enqueueName(raw);
    }
    auto [thread, added] = m_threads.try_emplace(s.thread);
    if (added)
        thread->second = "thread " + std::to_string(s.thread);
    CommandRecord r;
    r.type = CommandRecord::Type::Marker;
    r.hostSpan = true;
    r.name = *name;
    r.queue = thread->second;
    r.device = "host";
    r.start = std::uint64_t(s.start);
    r.end = r.start + std::uint64_t(std::max<std::int64_t>(s.duration, 1));
    r.hostSubmitNs = r.start;
    return r;
}

namespace {

std::uint64_t scalar(const Db &db, const char *sql)
{
    Stmt s(db, sql);
    return s.step() ? std::uint64_t(s.i64(0)) : 0;
}

} // namespace

// Live bytes over time from (time, +size / -size) events, frees first at equal times.
std::vector<PoolSeriesPoint> capture::liveSeries(std::vector<std::pair<std::int64_t, std::int64_t>> events)
{
    std::sort(events.begin(), events.end());
    std::vector<PoolSeriesPoint> out;
    std::int64_t live = 0;
    for (const auto &[t, delta] : events) {
        live = saturatingAdd(live, delta);
        if (!out.empty() && out.back().timestampNs == std::uint64_t(t))
            out.back().heldBytes = out.back().activeBytes = std::uint64_t(live);
        else
            out.push_back({std::uint64_t(t), std::uint64_t(live), std::uint64_t(live)});
    }
    return out;
}

CaptureProgress CaptureReader::progress() const
{
    const ReadSnapshot snapshot(d->db);
    const Db &db = d->db;
    CaptureProgress p;
    std::uint64_t commands = 0;
    if (d->haveCommandScan()) {
        p.commands = d->commandScan.succeeded;
        p.launches = d->commandScan.succeededLaunches;
        commands = d->commandScan.rows;
    } else if (scalar(db, "SELECT value = '1' FROM meta WHERE key = 'command_totals'")) {
        // The recorder's totals of a finished capture (as summary() takes them): count is what succeeded,
        // launches the launches among them.
        Stmt s(db, "SELECT IFNULL(SUM(count), 0), IFNULL(SUM(launches), 0), IFNULL(SUM(count + failed), 0) "
                   "FROM command_totals");
        if (s.step()) {
            p.commands = std::uint64_t(s.i64(0));
            p.launches = std::uint64_t(s.i64(1));
            commands = std::uint64_t(s.i64(2));
        }
    } else {
        // A live capture's progress line: two columns, not the whole pass.
        Stmt s(db, "SELECT COUNT(*), COUNT(launch) FROM commands WHERE result = 0");
        if (s.step()) {
            p.commands = std::uint64_t(s.i64(0));
            p.launches = std::uint64_t(s.i64(1));
        }
        commands = scalar(db, "SELECT COUNT(*) FROM commands");
    }
    p.apiCalls = scalar(db, "SELECT COUNT(*) FROM api_calls") + commands;
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
    // A negative size (a hostile file; summary() names it) is left out.
    Stmt q(db, "SELECT context, size, created_ns, released_ns FROM mem_objects WHERE kind != 'sub-buffer' "
               "AND size >= 0");
    while (q.step()) {
        auto &e = events[q.i64(0)];
        e.push_back({q.i64(2), q.i64(1)});
        if (!q.isNull(3))
            e.push_back({q.i64(3), -q.i64(1)});
    }
    Stmt names(db,
               "SELECT GROUP_CONCAT(d.name, ', ') FROM contexts c, json_each("
               "IIF(json_valid('[' || c.devices || ']'), '[' || c.devices || ']', '[]')) j JOIN devices d "
               "ON d.id = j.value WHERE c.id = ?");
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
    const ReadSnapshot snapshot(d->db);
    const Db &db = d->db;
    // Launches per kernel from the pass over the commands, instead of a pass per kernel.
    const std::unordered_map<std::int64_t, std::uint64_t> &launches = d->commands().launchesByKernel;
    std::vector<CapturedProgram> out;
    Stmt p(db, "SELECT id, context, kind FROM programs ORDER BY id");
    Stmt src(db, "SELECT data FROM program_sources WHERE program = ? ORDER BY idx");
    Stmt builds(db, "SELECT id, op, options, result, duration_ns FROM builds WHERE program = ? ORDER BY id");
    Stmt logs(db, "SELECT IFNULL(d.name, ''), l.status, l.log FROM build_logs l LEFT JOIN devices d ON "
                  "d.id = l.device WHERE l.build = ?");
    Stmt kernels(db, "SELECT name, id FROM kernels WHERE program = ? ORDER BY id");
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
            if (const auto n = launches.find(kernels.i64(1)); n != launches.end())
                prog.launches += n->second;
        }
        kernels.reset();
        out.push_back(std::move(prog));
    }
    return out;
}

std::vector<CaptureApiTotal> CaptureReader::apiTotals() const
{
    const ReadSnapshot snapshot(d->db);
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
    for (const CallTotals &f : d->apiCalls().functions)
        add(f.name, f.calls, f.failed, f.totalNs, std::uint64_t(f.maxNs));
    for (const CallTotals &e : d->commands().enqueues)
        add(enqueueName(e.name), e.calls, e.failed, e.totalNs, std::uint64_t(e.maxNs));
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
    const ReadSnapshot snapshot(d->db);
    const ApiScan &api = d->apiCalls();
    const CommandScan &commands = d->commands();
    struct Pick
    {
        const HostSpan *span;
        bool enqueue;
    };
    std::vector<Pick> picks;
    picks.reserve(api.spans.size() + commands.spans.size());
    for (const HostSpan &s : api.spans)
        picks.push_back({&s, false});
    for (const HostSpan &s : commands.spans)
        picks.push_back({&s, true});
    // The longest calls when there are more than the limit: those are the ones a timeline shows (ORDER BY
    // duration DESC, NULL last, LIMIT).
    if (picks.size() > limit) {
        const auto longer = [](const Pick &a, const Pick &b) {
            if (a.span->noDuration != b.span->noDuration)
                return b.span->noDuration;
            return a.span->duration > b.span->duration;
        };
        std::nth_element(picks.begin(), picks.begin() + std::ptrdiff_t(limit), picks.end(), longer);
        picks.resize(limit);
    }
    std::stable_sort(picks.begin(), picks.end(),
                     [](const Pick &a, const Pick &b) { return a.span->start < b.span->start; });

    SpanRecords records(api, commands);
    std::vector<CommandRecord> out;
    out.reserve(picks.size());
    for (const Pick &p : picks)
        out.push_back(records.make(*p.span, p.enqueue));
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

std::map<std::int64_t, std::int64_t> CaptureReader::launchPrograms() const
{
    std::map<std::int64_t, std::int64_t> out;
    Stmt q(
        d->db,
        "SELECT c.launch, k.program FROM commands c JOIN kernels k ON k.id = c.kernel WHERE c.launch >= 0");
    while (q.step())
        out[q.i64(0)] = q.i64(1);
    return out;
}

} // namespace clscope
