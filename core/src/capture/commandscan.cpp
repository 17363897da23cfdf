// The shared pass over `commands` (reader_impl.h's CommandScan): one read of what may be millions of rows
// for the summary, the timeline's records and its host spans, and the read snapshot every reader call uses.
#include "reader_impl.h"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace clscope {

using namespace capture;

std::uint64_t capture::count(const Db &db, const char *sql)
{
    Stmt s(db, sql);
    return s.step() ? std::uint64_t(s.i64(0)) : 0;
}

// ---- The shared passes -------------------------------------------------------------------------------

ReadSnapshot::ReadSnapshot(Db &db)
    : m_db(db)
{
    if (sqlite3_get_autocommit(db.handle())) {
        db.exec("BEGIN");
        m_began = true;
    }
}

ReadSnapshot::~ReadSnapshot()
{
    if (m_began)
        sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr); // a read: nothing to lose
}

void CallTotals::add(bool resultNull, std::int64_t result, bool durationNull, std::int64_t duration)
{
    ++calls;
    failed += !resultNull && result != 0;
    if (durationNull)
        return;
    totalNs += std::uint64_t(duration);
    maxNs = anyNs ? std::max(maxNs, duration) : duration;
    anyNs = true;
}

CaptureReader::Impl::Impl(const std::string &path)
    : db(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX) // one thread at a time: no lock per column read
{}

std::int64_t CaptureReader::Impl::dataVersion()
{
    Stmt s(db, "PRAGMA data_version");
    return s.step() ? s.i64(0) : 0;
}

namespace {

// The records a pass makes: device times until every queue's clock of the pass is known.
struct RecordSink
{
    std::vector<CommandRecord> &records;
    std::vector<std::pair<std::int64_t, std::int64_t>> &order; // (process, seq), NULL as INT64_MIN
    std::vector<CommandScan::Queue *> &queues;                 // null: none (no clock)
};

// The kernels and queues (with their devices' names) added since the pass last looked.
void lookUpObjects(const Db &db, CommandScan &scan)
{
    Stmt k(db, "SELECT id, name FROM kernels WHERE id > ? ORDER BY id");
    k.bind(1, scan.lastKernelId);
    while (k.step()) {
        scan.kernels[k.i64(0)].name = k.isNull(1) ? std::nullopt : std::optional<std::string>(k.text(1));
        scan.lastKernelId = k.i64(0);
    }
    Stmt q(db, "SELECT q.id, d.name FROM queues q JOIN devices d ON d.id = q.device WHERE q.id > ? ORDER BY "
               "q.id");
    q.bind(1, scan.lastQueueId);
    while (q.step()) {
        scan.queues[q.i64(0)].device = q.text(1);
        scan.lastQueueId = q.i64(0);
    }
}

// queue_clock: a narrower host bracket (or a NULL one, first) around an enqueue pins the queue's clock.
void offerClock(CommandScan::Queue &queue, std::int64_t queued, bool durationNull, std::int64_t duration,
                bool hostStartNull, std::int64_t hostStart)
{
    if (queued <= 0 || !(!queue.clock || (durationNull && !queue.durationNull) ||
                         (!durationNull && !queue.durationNull && duration < queue.duration)))
        return;
    queue.clock = true;
    queue.durationNull = durationNull;
    queue.duration = duration;
    queue.offsetNull = durationNull || hostStartNull;
    queue.offset =
        std::int64_t(std::uint64_t(hostStart) + std::uint64_t(duration / 2) - std::uint64_t(queued));
}

std::uint64_t mapped(std::uint64_t deviceTime, std::uint64_t offset)
{
    return std::int64_t(deviceTime) > 0 ? deviceTime + offset : 0;
}

void toHostClock(CommandRecord &r, const CommandScan::Queue &queue)
{
    const std::uint64_t offset = queue.hostOffset();
    for (std::uint64_t *t : {&r.queued, &r.submit, &r.start, &r.end})
        *t = mapped(*t, offset);
}

// Reads the rows after scan.lastId into scan; with a sink, the records of the rows that succeeded too.
void scanRows(const Db &db, CommandScan &scan, RecordSink *sink)
{
    lookUpObjects(db, scan);
    // Every row: reserved, the vectors of a million rows are not moved a dozen times as they grow.
    {
        Stmt n(db, "SELECT COUNT(*) FROM commands WHERE id > ?");
        n.bind(1, scan.lastId);
        const auto expected = std::size_t(n.step() ? n.i64(0) : 0);
        scan.spans.reserve(scan.spans.size() + expected);
        if (sink) {
            sink->records.reserve(sink->records.size() + expected);
            sink->order.reserve(sink->order.size() + expected);
            sink->queues.reserve(sink->queues.size() + expected);
        }
    }
    CommandScan::Kernel noKernel;
    CommandScan::Queue noQueue{"queue 0", {}}; // a NULL queue joins nothing: no device, no clock
    std::size_t lastGroup = SIZE_MAX;
    CommandScan::GroupKey lastKey{};
    std::uint32_t lastEnqueue = UINT32_MAX;
    auto enqueueIndex = [&scan](std::string_view name) {
        for (std::size_t i = scan.enqueues.size(); i-- > 0;)
            if (scan.enqueues[i].name == name)
                return std::uint32_t(i);
        scan.enqueues.push_back({std::string(name)});
        return std::uint32_t(scan.enqueues.size() - 1);
    };
    CommandScan::Kernel *kernel = nullptr;
    std::int64_t kernelId = 0;
    bool kernelWasNull = false;
    CommandScan::Queue *queue = nullptr;
    std::int64_t queueId = 0;
    bool queueWasNull = false;

    enum Col {
        Id,
        OwnEvent,
        Process,
        Seq,
        Launch,
        Type,
        TypeName,
        QueueCol,
        KernelCol,
        Result,
        Bytes,
        Thread,
        HostStart,
        HostDuration,
        Queued,
        Submit,
        Start,
        End,
        Mem,
        Dims,
        GlobalX,
        LocalX = GlobalX + 3,
        LocalGiven = LocalX + 3
    };
    Stmt q(db,
           sink ? "SELECT id, own_event, process, seq, launch, type, type_name, queue, kernel, result, "
                  "bytes, thread, host_start_ns, host_duration_ns, queued_ns, submit_ns, start_ns, end_ns, "
                  "mem, dims, global_x, global_y, global_z, local_x, local_y, local_z, local_given "
                  "FROM commands WHERE id > ? ORDER BY id"
                : "SELECT id, own_event, process, seq, launch, type, type_name, queue, kernel, result, "
                  "bytes, thread, host_start_ns, host_duration_ns, queued_ns, submit_ns, start_ns, end_ns "
                  "FROM commands WHERE id > ? ORDER BY id");
    q.bind(1, scan.lastId);
    while (q.step()) {
        ++scan.rows;
        scan.lastId = std::max(scan.lastId, q.i64(Id)); // a damaged file may give ids out of order
        const Stmt::Value launchV = q.value(Launch), resultV = q.value(Result), typeV = q.value(Type),
                          kernelV = q.value(KernelCol), queueV = q.value(QueueCol), startV = q.value(Start),
                          endV = q.value(End), durationV = q.value(HostDuration),
                          hostStartV = q.value(HostStart);
        const bool launch = !launchV.isNull(), resultNull = resultV.isNull(), typeNull = typeV.isNull();
        const bool kernelNull = kernelV.isNull(), queueNull = queueV.isNull();
        const bool startNull = startV.isNull(), endNull = endV.isNull(), durationNull = durationV.isNull();
        const std::int64_t result = resultV.i64(), type = typeV.i64(), k = kernelV.i64(), qu = queueV.i64();
        const std::int64_t start = startV.i64(), end = endV.i64(), queued = q.i64(Queued);
        const std::int64_t hostStart = hostStartV.i64(), duration = durationV.i64();
        const bool ok = !resultNull && result == 0;

        if (!kernel || kernelNull != kernelWasNull || k != kernelId) {
            kernel = kernelNull ? &noKernel : &scan.kernels[k];
            kernelId = k;
            kernelWasNull = kernelNull;
        }
        if (!queue || queueNull != queueWasNull || qu != queueId) {
            queue = queueNull ? &noQueue : &scan.queues[qu];
            if (queue->name.empty())
                queue->name = "queue " + std::to_string(qu);
            queueId = qu;
            queueWasNull = queueNull;
        }

        scan.launches += launch;
        scan.succeeded += ok;
        scan.succeededLaunches += ok && launch;
        if (launch && !kernelNull) {
            if (!kernel->launches)
                kernel->launches = &scan.launchesByKernel[k];
            ++*kernel->launches;
        }

        // GROUP BY type, kernel (summary) with NULL a group of its own, GROUP BY type_name (apiTotals).
        const CommandScan::GroupKey key{type, typeNull, k, kernelNull};
        if (lastGroup == SIZE_MAX || lastKey != key) {
            auto [it, added] = scan.groupIndex.try_emplace(key, scan.groups.size());
            if (added)
                scan.groups.push_back({type, k});
            lastGroup = it->second;
            lastKey = key;
        }
        CommandScan::Group &g = scan.groups[lastGroup];
        g.launches += launch;
        g.count += ok;
        g.failed += !resultNull && result != 0;
        if (ok) {
            g.bytes += std::uint64_t(q.i64(Bytes));
            if (!startNull && !endNull && end >= start && start > 0) {
                g.deviceNs += std::uint64_t(end - start);
                ++g.timed;
            }
        }

        const std::string_view typeName = q.view(TypeName);
        if (lastEnqueue == UINT32_MAX || scan.enqueues[lastEnqueue].name != typeName)
            lastEnqueue = enqueueIndex(typeName);
        scan.enqueues[lastEnqueue].add(resultNull, result, durationNull, duration);
        scan.spans.push_back({hostStart, duration, q.i64(Thread), lastEnqueue, durationNull});

        if (!queueNull)
            offerClock(*queue, queued, durationNull, duration, hostStartV.isNull(), hostStart);

        // Its times may still be written (an UPDATE of a late command's row).
        const bool untimed = ok && startNull && q.i64(OwnEvent) != 2 && !queueNull; // 2: none taken
        if (untimed) {
            if (scan.untimed.size() == CommandScan::kMaxUntimed)
                scan.untimed.pop_front();
            scan.untimed.push_back(
                {scan.lastId, lastGroup, queue, hostStart, duration, durationNull, hostStartV.isNull()});
        }

        if (!sink || !ok)
            continue;
        if (untimed)
            scan.untimed.back().record = scan.recordsGiven + sink->records.size();
        CommandRecord &r = sink->records.emplace_back();
        r.type = recordType(type);
        if (kernel->name) {
            r.name = *kernel->name;
        } else {
            r.name = typeName;
            if (const Stmt::Value mem = q.value(Mem); !mem.isNull())
                r.name += " mem " + std::to_string(mem.i64());
        }
        r.queue = queue->name;
        r.device = queue->device;
        r.bytes = std::uint64_t(q.i64(Bytes));
        r.dims = int(q.i64(Dims));
        const bool localGiven = q.i64(LocalGiven) != 0;
        for (int i = 0; i < 3; ++i) {
            r.global[std::size_t(i)] = std::size_t(q.i64(GlobalX + i));
            r.local[std::size_t(i)] = localGiven ? std::size_t(q.i64(LocalX + i)) : 0;
        }
        r.queued = std::uint64_t(queued);
        r.submit = std::uint64_t(q.i64(Submit));
        r.start = std::uint64_t(start);
        r.end = std::uint64_t(end);
        r.hostSubmitNs = std::uint64_t(hostStart);
        r.launch = launch ? launchV.i64() : -1;
        const Stmt::Value process = q.value(Process), seq = q.value(Seq);
        sink->order.push_back(
            {process.isNull() ? INT64_MIN : process.i64(), seq.isNull() ? INT64_MIN : seq.i64()});
        sink->queues.push_back(queueNull ? nullptr : queue);
    }
}

// The rows kept as untimed whose times have been written since: their group's device time, the queue's
// clock, and (following) their records' times.
void checkUntimed(const Db &db, CommandScan &scan)
{
    if (scan.untimed.empty())
        return;
    Stmt q(db, "SELECT queued_ns, submit_ns, start_ns, end_ns FROM commands WHERE id = ? AND start_ns IS NOT "
               "NULL");
    for (auto it = scan.untimed.begin(); it != scan.untimed.end();) {
        q.bind(1, it->id);
        if (!q.step()) {
            q.reset();
            ++it;
            continue;
        }
        const std::int64_t queued = q.i64(0), submit = q.i64(1), start = q.i64(2), end = q.i64(3);
        const bool endNull = q.isNull(3);
        q.reset();
        CommandScan::Group &g = scan.groups[it->group];
        if (!endNull && end >= start && start > 0) {
            g.deviceNs += std::uint64_t(end - start);
            ++g.timed;
        }
        offerClock(*it->queue, queued, it->durationNull, it->duration, it->hostStartNull, it->hostStart);
        if (scan.following && it->record != UINT64_MAX)
            scan.late.push_back({{it->record, std::uint64_t(queued), std::uint64_t(submit),
                                  std::uint64_t(start), std::uint64_t(end)},
                                 it->queue});
        it = scan.untimed.erase(it);
    }
}

// Host times for the records of a pass, then enqueue order: rows are written when their timestamps arrive,
// so id order is not always seq order. The untimed rows' record numbers (base + index) follow the sort.
void finishRecords(RecordSink &sink, CommandScan &scan, std::uint64_t base)
{
    auto &records = sink.records;
    for (std::size_t i = 0; i < records.size(); ++i)
        if (const CommandScan::Queue *queue = sink.queues[i])
            toHostClock(records[i], *queue);
    const auto &order = sink.order;
    if (std::is_sorted(order.begin(), order.end()))
        return;
    std::vector<std::size_t> index(records.size());
    for (std::size_t i = 0; i < index.size(); ++i)
        index[i] = i;
    std::stable_sort(index.begin(), index.end(),
                     [&](std::size_t a, std::size_t b) { return order[a] < order[b]; });
    std::vector<CommandRecord> sorted;
    sorted.reserve(index.size());
    std::vector<std::uint64_t> position(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        sorted.push_back(std::move(records[index[i]]));
        position[index[i]] = i;
    }
    records = std::move(sorted);
    for (CommandScan::Untimed &u : scan.untimed)
        if (u.record != UINT64_MAX && u.record >= base && u.record - base < position.size())
            u.record = base + position[u.record - base];
}

} // namespace

const CommandScan &CaptureReader::Impl::commands()
{
    const std::int64_t version = dataVersion();
    if (commandScan.dataVersion == version)
        return commandScan;
    CommandScan &scan = commandScan;
    checkUntimed(db, scan);
    if (!scan.following) {
        scanRows(db, scan, nullptr);
    } else {
        // The records of the new rows wait for update(), mapped to host time there.
        RecordSink sink{scan.newRecords, scan.newOrder, scan.newQueues};
        scanRows(db, scan, &sink);
    }
    scan.dataVersion = version;
    return scan;
}

void CaptureReader::Impl::commandsWithRecords(std::vector<CommandRecord> &records)
{
    CommandScan scan;
    std::vector<std::pair<std::int64_t, std::int64_t>> order;
    std::vector<CommandScan::Queue *> queues;
    RecordSink sink{records, order, queues};
    scanRows(db, scan, &sink);
    finishRecords(sink, scan, 0);
    scan.dataVersion = dataVersion();
    if (!commandScan.following)
        commandScan = std::move(scan);
}

void CaptureUpdate::applyTo(std::uint64_t given,
                            const std::function<CommandRecord &(std::uint64_t)> &command) const
{
    for (const ClockShift &shift : clockShifts) {
        for (std::uint64_t n = 0; n < given; ++n) {
            CommandRecord &r = command(n);
            if (r.queue != shift.queue)
                continue;
            for (std::uint64_t *t : {&r.queued, &r.submit, &r.start, &r.end})
                if (*t)
                    *t = std::uint64_t(std::int64_t(*t) + shift.deltaNs);
        }
    }
    for (const LateTimes &t : late) {
        if (t.command >= given)
            continue;
        CommandRecord &r = command(t.command);
        r.queued = t.queued;
        r.submit = t.submit;
        r.start = t.start;
        r.end = t.end;
    }
}

CaptureUpdate CaptureReader::update(std::size_t apiLimit)
{
    const ReadSnapshot snapshot(d->db);
    CommandScan &scan = d->commandScan;
    CaptureUpdate u;
    if (!scan.following) {
        // Everything so far, as commandRecords() and apiCallRecords() give it; then the pass goes on from
        // its end, keeping the records of what is read for the next update.
        d->commandsWithRecords(u.commands);
        u.apiCalls = apiCallRecords(apiLimit);
        const ApiScan &api = d->apiCalls();
        const std::size_t all = api.spans.size() + scan.spans.size();
        u.apiCallsLeftOut = all - u.apiCalls.size();
        scan.following = true;
        scan.recordsGiven = u.commands.size();
        scan.spansGiven = scan.spans.size();
        d->apiScan.spansGiven = api.spans.size();
        d->apiGiven = u.apiCalls.size();
        for (auto &[id, queue] : scan.queues)
            queue.given = queue.hostOffset();
        scan.late.clear();
        return u;
    }
    d->commands();
    const ApiScan &api = d->apiCalls();

    // The queues whose clock moved since records of theirs were given: those records move with it.
    for (auto &[id, queue] : scan.queues) {
        const std::uint64_t now = queue.hostOffset();
        if (now != queue.given) {
            u.clockShifts.push_back({queue.name, std::int64_t(now - queue.given)});
            queue.given = now;
        }
    }
    RecordSink sink{scan.newRecords, scan.newOrder, scan.newQueues};
    finishRecords(sink, scan, scan.recordsGiven);
    u.commands = std::move(scan.newRecords);
    scan.recordsGiven += u.commands.size();
    scan.newRecords.clear();
    scan.newOrder.clear();
    scan.newQueues.clear();
    for (auto &[t, queue] : scan.late) {
        // With the queue's clock as it is now (the records given before have moved with it).
        const std::uint64_t offset = queue->hostOffset();
        for (std::uint64_t *v : {&t.queued, &t.submit, &t.start, &t.end})
            *v = mapped(*v, offset);
        u.late.push_back(t);
    }
    scan.late.clear();

    // The API calls and enqueues since, as host spans, up to the limit in all.
    std::vector<HostSpan> spans;
    std::vector<bool> enqueue;
    for (std::size_t i = d->apiScan.spansGiven; i < api.spans.size(); ++i) {
        spans.push_back(api.spans[i]);
        enqueue.push_back(false);
    }
    for (std::size_t i = scan.spansGiven; i < scan.spans.size(); ++i) {
        spans.push_back(scan.spans[i]);
        enqueue.push_back(true);
    }
    d->apiScan.spansGiven = api.spans.size();
    scan.spansGiven = scan.spans.size();
    const std::size_t room = apiLimit > d->apiGiven ? apiLimit - d->apiGiven : 0;
    u.apiCallsLeftOut = spans.size() > room ? spans.size() - room : 0;
    std::vector<std::size_t> order(std::min(spans.size(), room));
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&spans](std::size_t a, std::size_t b) { return spans[a].start < spans[b].start; });
    SpanRecords records(api, scan);
    u.apiCalls.reserve(order.size());
    for (std::size_t i : order)
        u.apiCalls.push_back(records.make(spans[i], enqueue[i]));
    d->apiGiven += u.apiCalls.size();
    return u;
}

} // namespace clscope
