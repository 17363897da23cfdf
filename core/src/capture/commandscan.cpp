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

const CommandScan &CaptureReader::Impl::commands(std::vector<CommandRecord> *records)
{
    const std::int64_t version = dataVersion();
    if (!records && commandScan.dataVersion == version)
        return commandScan;
    CommandScan scan;

    // What the old query joined per row (kernels, queues, devices, the view queue_clock), once per object,
    // looked up only when a row's object differs from the row before's.
    struct Kernel
    {
        std::optional<std::string> name; // kernels.name; none: no such kernel, or a NULL name
        std::uint64_t *launches = nullptr;
    };
    std::unordered_map<std::int64_t, Kernel> kernels;
    Kernel noKernel;
    {
        Stmt k(db, "SELECT id, name FROM kernels");
        while (k.step())
            kernels[k.i64(0)].name = k.isNull(1) ? std::nullopt : std::optional<std::string>(k.text(1));
    }
    struct Queue
    {
        std::string name;   // "queue N"
        std::string device; // CL_DEVICE_NAME of its device, "" without one
        // queue_clock: the enqueue call with the narrowest host bracket (NULL first, then the first in id
        // order) pins its CL_PROFILING_COMMAND_QUEUED to the middle of the bracket.
        bool clock = false;
        bool durationNull = false;
        std::int64_t duration = 0;
        bool offsetNull = false;
        std::int64_t offset = 0;
    };
    std::unordered_map<std::int64_t, Queue> queues;
    Queue noQueue{"queue 0", {}}; // a NULL queue joins nothing: no device, no clock
    {
        Stmt q(db, "SELECT q.id, d.name FROM queues q JOIN devices d ON d.id = q.device");
        while (q.step())
            queues[q.i64(0)].device = q.text(1);
    }
    struct Row
    {
        std::int64_t process, seq; // ORDER BY process, seq (NULL first)
        const Queue *queue;
    };
    std::vector<Row> rows;
    // Every row: reserved, the vectors of a million rows are not moved a dozen times as they grow.
    const auto expected = std::size_t(count(db, "SELECT COUNT(*) FROM commands"));
    scan.spans.reserve(expected);
    if (records) {
        records->reserve(expected);
        rows.reserve(expected);
    }

    // GROUP BY type, kernel (summary) with NULL a group of its own, GROUP BY type_name (apiTotals).
    using GroupKey = std::tuple<std::int64_t, bool, std::int64_t, bool>;
    std::map<GroupKey, std::size_t> groupIndex;
    std::vector<GroupKey> groupKeys;
    std::size_t lastGroup = SIZE_MAX;
    std::uint32_t lastEnqueue = UINT32_MAX;
    auto enqueueIndex = [&scan](std::string_view name) {
        for (std::size_t i = scan.enqueues.size(); i-- > 0;)
            if (scan.enqueues[i].name == name)
                return std::uint32_t(i);
        scan.enqueues.push_back({std::string(name)});
        return std::uint32_t(scan.enqueues.size() - 1);
    };
    Kernel *kernel = nullptr;
    std::int64_t kernelId = 0;
    bool kernelWasNull = false;
    Queue *queue = nullptr;
    std::int64_t queueId = 0;
    bool queueWasNull = false;

    enum Col {
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
    Stmt q(db, records
                   ? "SELECT process, seq, launch, type, type_name, queue, kernel, result, bytes, thread, "
                     "host_start_ns, host_duration_ns, queued_ns, submit_ns, start_ns, end_ns, mem, dims, "
                     "global_x, global_y, global_z, local_x, local_y, local_z, local_given "
                     "FROM commands ORDER BY id"
                   : "SELECT process, seq, launch, type, type_name, queue, kernel, result, bytes, thread, "
                     "host_start_ns, host_duration_ns, queued_ns, submit_ns, start_ns, end_ns "
                     "FROM commands ORDER BY id");
    while (q.step()) {
        ++scan.rows;
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
            kernel = kernelNull ? &noKernel : &kernels[k];
            kernelId = k;
            kernelWasNull = kernelNull;
        }
        if (!queue || queueNull != queueWasNull || qu != queueId) {
            queue = queueNull ? &noQueue : &queues[qu];
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

        const GroupKey key{type, typeNull, k, kernelNull};
        if (lastGroup == SIZE_MAX || groupKeys[lastGroup] != key) {
            auto [it, added] = groupIndex.try_emplace(key, scan.groups.size());
            if (added) {
                scan.groups.push_back({type, k});
                groupKeys.push_back(key);
            }
            lastGroup = it->second;
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

        if (!queueNull && queued > 0 &&
            (!queue->clock || (durationNull && !queue->durationNull) ||
             (!durationNull && !queue->durationNull && duration < queue->duration))) {
            queue->clock = true;
            queue->durationNull = durationNull;
            queue->duration = duration;
            queue->offsetNull = durationNull || hostStartV.isNull();
            queue->offset =
                std::int64_t(std::uint64_t(hostStart) + std::uint64_t(duration / 2) - std::uint64_t(queued));
        }

        if (!records || !ok)
            continue;
        CommandRecord &r = records->emplace_back();
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
        // Device times for now: mapped to host time once every queue's clock is known.
        r.queued = std::uint64_t(queued);
        r.submit = std::uint64_t(q.i64(Submit));
        r.start = std::uint64_t(start);
        r.end = std::uint64_t(end);
        r.hostSubmitNs = std::uint64_t(hostStart);
        r.launch = launch ? launchV.i64() : -1;
        const Stmt::Value process = q.value(Process), seq = q.value(Seq);
        rows.push_back(
            {process.isNull() ? INT64_MIN : process.i64(), seq.isNull() ? INT64_MIN : seq.i64(), queue});
    }
    scan.dataVersion = version;
    commandScan = std::move(scan);
    if (!records)
        return commandScan;

    for (std::size_t i = 0; i < records->size(); ++i) {
        CommandRecord &r = (*records)[i];
        const Queue &c = *rows[i].queue;
        const std::uint64_t offset = c.clock && !c.offsetNull ? std::uint64_t(c.offset) : 0;
        for (std::uint64_t *t : {&r.queued, &r.submit, &r.start, &r.end})
            *t = std::int64_t(*t) > 0 ? *t + offset : 0;
    }
    // Enqueue order: rows are written when their timestamps arrive, so id order is not always seq order.
    auto before = [](const Row &a, const Row &b) {
        return a.process != b.process ? a.process < b.process : a.seq < b.seq;
    };
    if (!std::is_sorted(rows.begin(), rows.end(), before)) {
        std::vector<std::size_t> order(rows.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return before(rows[a], rows[b]); });
        std::vector<CommandRecord> sorted;
        sorted.reserve(order.size());
        for (std::size_t i : order)
            sorted.push_back(std::move((*records)[i]));
        *records = std::move(sorted);
    }
    return commandScan;
}

} // namespace clscope
