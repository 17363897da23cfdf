// CaptureReader: the summary, the commands as profile records (for the Chrome trace and CSV), device
// memory over time, and one launch with everything replay needs.
#include "clscope/capture.h"

#include "reader_impl.h"

#include "clscope/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <ostream>
#include <tuple>
#include <unordered_map>

namespace clscope {

using namespace capture;

CommandRecord::Type capture::recordType(std::int64_t cl)
{
    using T = CommandRecord::Type;
    switch (cl) {
    case CL_COMMAND_NDRANGE_KERNEL:
    case CL_COMMAND_TASK:
    case CL_COMMAND_NATIVE_KERNEL:
        return T::Kernel;
    case CL_COMMAND_READ_BUFFER:
    case CL_COMMAND_READ_BUFFER_RECT:
    case CL_COMMAND_READ_IMAGE:
        return T::Read;
    case CL_COMMAND_WRITE_BUFFER:
    case CL_COMMAND_WRITE_BUFFER_RECT:
    case CL_COMMAND_WRITE_IMAGE:
        return T::Write;
    case CL_COMMAND_COPY_BUFFER:
    case CL_COMMAND_COPY_BUFFER_RECT:
    case CL_COMMAND_COPY_IMAGE:
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER:
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
    case CL_COMMAND_SVM_MEMCPY:
        return T::Copy;
    case CL_COMMAND_FILL_BUFFER:
    case CL_COMMAND_FILL_IMAGE:
    case CL_COMMAND_SVM_MEMFILL:
        return T::Fill;
    case CL_COMMAND_MAP_BUFFER:
    case CL_COMMAND_MAP_IMAGE:
    case CL_COMMAND_UNMAP_MEM_OBJECT:
    case CL_COMMAND_SVM_MAP:
    case CL_COMMAND_SVM_UNMAP:
        return T::Map;
    case CL_COMMAND_MIGRATE_MEM_OBJECTS:
    case CL_COMMAND_SVM_MIGRATE_MEM:
        return T::Migrate;
    default:
        return T::Marker;
    }
}

namespace {

std::string meta(const Db &db, const char *key)
{
    Stmt s(db, "SELECT value FROM meta WHERE key = ?");
    s.bind(1, std::string_view(key));
    return s.step() ? s.text(0) : std::string();
}

std::uint64_t count(const Db &db, const char *sql)
{
    Stmt s(db, sql);
    return s.step() ? std::uint64_t(s.i64(0)) : 0;
}

} // namespace

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
            if (!startNull && !endNull && end >= start && start > 0)
                g.deviceNs += std::uint64_t(end - start);
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

// ---- The reader ---------------------------------------------------------------------------------------

CaptureReader::CaptureReader(const std::string &path)
{
    d = std::make_unique<Impl>(path);
    std::int64_t version = -1;
    try {
        Stmt s(d->db, "PRAGMA user_version");
        if (s.step())
            version = s.i64(0);
    } catch (const CaptureError &) {
        throw CaptureError("cannot read " + path + ": not a CLScope capture (not an SQLite file)");
    }
    if (version != kCaptureSchemaVersion)
        throw CaptureError("cannot read " + path + ": not a CLScope capture of schema version " +
                           std::to_string(kCaptureSchemaVersion) + " (found " + std::to_string(version) +
                           ")");
}

CaptureReader::~CaptureReader() = default;

CaptureSummary CaptureReader::summary() const
{
    const ReadSnapshot snapshot(d->db);
    const Db &db = d->db;
    CaptureSummary s;
    s.program = meta(db, "command");
    const std::string exit = meta(db, "exit_status");
    if (!exit.empty())
        s.exitStatus = std::stoi(exit);
    s.complete = count(db, "SELECT COUNT(*) FROM processes") > 0 &&
                 count(db, "SELECT COUNT(*) FROM processes WHERE ended_ns IS NULL") == 0;
    s.programs = count(db, "SELECT COUNT(*) FROM programs");
    s.kernelObjects = count(db, "SELECT COUNT(*) FROM kernels");
    s.memObjects = count(db, "SELECT COUNT(*) FROM mem_objects");
    s.droppedRecords = count(db, "SELECT IFNULL(SUM(records), 0) FROM drops");
    s.contents = count(db, "SELECT COUNT(*) FROM contents WHERE state = 'captured'");
    {
        // Per type and kernel, then by kernel name and by transfer type.
        std::map<std::int64_t, std::string> kernelNames;
        Stmt names(db, "SELECT id, name FROM kernels");
        while (names.step())
            kernelNames[names.i64(0)] = names.text(1);
        std::map<std::string, CaptureKernelTotal> kernels;
        std::map<int, CaptureTransferTotal> byType;
        // The recorder's totals when it finished; a pass over the commands when it did not.
        std::vector<CommandScan::Group> groups;
        std::uint64_t apiCalls = count(db, "SELECT COUNT(*) FROM api_calls");
        if (meta(db, "command_totals") == "1") {
            Stmt q(db, "SELECT type, kernel, launches, count, bytes, device_ns, failed FROM command_totals");
            while (q.step())
                groups.push_back({q.i64(0), q.i64(1), std::uint64_t(q.i64(2)), std::uint64_t(q.i64(3)),
                                  std::uint64_t(q.i64(6)), std::uint64_t(q.i64(4)), std::uint64_t(q.i64(5))});
        } else {
            groups = d->commands().groups;
        }
        std::uint64_t failed = 0;
        for (const CommandScan::Group &g : groups) {
            failed += g.failed;
            s.commands += g.count;
            if (g.launches) {
                s.launches += g.launches;
                const std::string &name = kernelNames[g.kernel];
                CaptureKernelTotal &k = kernels[name];
                k.name = name;
                k.launches += g.launches;
                k.totalNs += g.deviceNs;
            }
            const CommandRecord::Type t = recordType(g.type);
            if (!isTransfer(t))
                continue;
            CaptureTransferTotal &tt = byType[int(t)];
            tt.type = typeName(t);
            tt.count += g.count;
            tt.bytes += g.bytes;
            tt.totalNs += g.deviceNs;
        }
        s.apiCalls = apiCalls + s.commands + failed;
        for (auto &[name, k] : kernels)
            s.kernels.push_back(k);
        std::sort(s.kernels.begin(), s.kernels.end(),
                  [](const CaptureKernelTotal &a, const CaptureKernelTotal &b) {
                      return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
                  });
        for (auto &[k, v] : byType)
            s.transfers.push_back(v);
    }
    {
        // Peak of live bytes per context: allocations count (sub-buffers share their parent's memory).
        struct Ev
        {
            std::int64_t t;
            std::int64_t delta;
        };
        std::map<std::int64_t, std::vector<Ev>> events;
        std::map<std::int64_t, std::uint64_t> objects;
        Stmt q(db,
               "SELECT context, size, created_ns, released_ns FROM mem_objects WHERE kind != 'sub-buffer'");
        while (q.step()) {
            const std::int64_t ctx = q.i64(0), size = q.i64(1);
            events[ctx].push_back({q.i64(2), size});
            if (!q.isNull(3))
                events[ctx].push_back({q.i64(3), -size});
            ++objects[ctx];
        }
        Stmt names(db,
                   "SELECT GROUP_CONCAT(d.name, ', ') FROM contexts c, json_each('[' || c.devices || ']') j "
                   "JOIN devices d ON d.id = j.value WHERE c.id = ?");
        for (auto &[ctx, evs] : events) {
            std::sort(evs.begin(), evs.end(), [](const Ev &a, const Ev &b) {
                return a.t != b.t ? a.t < b.t : a.delta < b.delta; // frees first at equal times
            });
            std::int64_t live = 0, peak = 0;
            for (const Ev &e : evs) {
                live += e.delta;
                peak = std::max(peak, live);
            }
            CaptureContextMemory m;
            m.context = ctx;
            m.peakBytes = std::uint64_t(peak);
            m.objects = objects[ctx];
            names.bind(1, ctx);
            if (names.step())
                m.devices = names.text(0);
            names.reset();
            s.memory.push_back(m);
        }
    }
    return s;
}

std::vector<CommandRecord> CaptureReader::commandRecords() const
{
    // What SELECT ... FROM commands_host ... WHERE result = 0 ORDER BY process, seq gave (the view's window
    // over every command, per read, was most of the time of opening a capture of millions of them).
    const ReadSnapshot snapshot(d->db);
    std::vector<CommandRecord> out;
    d->commands(&out);
    return out;
}

std::vector<PoolSeriesPoint> CaptureReader::memorySeries() const
{
    std::vector<std::pair<std::int64_t, std::int64_t>> events;
    Stmt q(d->db, "SELECT size, created_ns, released_ns FROM mem_objects WHERE kind != 'sub-buffer'");
    while (q.step()) {
        events.push_back({q.i64(1), q.i64(0)});
        if (!q.isNull(2))
            events.push_back({q.i64(2), -q.i64(0)});
    }
    return liveSeries(std::move(events));
}

std::int64_t CaptureReader::launchCount() const
{
    const ReadSnapshot snapshot(d->db);
    if (d->haveCommandScan())
        return std::int64_t(d->commandScan.launches);
    return std::int64_t(count(d->db, "SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL"));
}

CapturedLaunch CaptureReader::launch(std::int64_t index) const
{
    const Db &db = d->db;
    CapturedLaunch l;
    l.index = index;
    Stmt c(
        db,
        "SELECT c.kernel, k.name, k.program, p.kind, dv.name, c.dims, c.global_x, c.global_y, c.global_z, "
        "c.local_x, c.local_y, c.local_z, c.offset_x, c.offset_y, c.offset_z, c.local_given "
        "FROM commands c JOIN kernels k ON k.id = c.kernel LEFT JOIN programs p ON p.id = k.program "
        "LEFT JOIN queues q ON q.id = c.queue LEFT JOIN devices dv ON dv.id = q.device WHERE c.launch = ?");
    c.bind(1, index);
    if (!c.step())
        throw CaptureError("the capture has no launch " + std::to_string(index) + " (it has " +
                           std::to_string(launchCount()) + ")");
    l.kernel = c.text(1);
    const std::int64_t program = c.i64(2);
    l.programKind = c.text(3);
    l.device = c.text(4);
    l.dims = int(c.i64(5));
    for (int i = 0; i < l.dims && i < 3; ++i) {
        l.global.push_back(std::size_t(c.i64(6 + i)));
        if (c.i64(15))
            l.local.push_back(std::size_t(c.i64(9 + i)));
        l.offset.push_back(std::size_t(c.i64(12 + i)));
    }
    {
        Stmt s(db, "SELECT data FROM program_sources WHERE program = ? ORDER BY idx");
        s.bind(1, program);
        while (s.step()) {
            const std::vector<unsigned char> b = s.blob(0);
            l.sources.emplace_back(b.begin(), b.end());
        }
        Stmt o(db,
               "SELECT options FROM builds WHERE program = ? ORDER BY (result = 0) DESC, id DESC LIMIT 1");
        o.bind(1, program);
        if (o.step())
            l.options = o.text(0);
    }
    Stmt a(db, "SELECT a.idx, a.kind, a.size, a.value, a.mem, m.size, m.flags, m.kind FROM launch_args a "
               "LEFT JOIN mem_objects m ON m.id = a.mem WHERE a.launch = ? ORDER BY a.idx");
    a.bind(1, index);
    Stmt ct(db, "SELECT phase, state, data FROM contents WHERE launch = ? AND idx = ?");
    while (a.step()) {
        CapturedArg arg;
        arg.index = std::uint32_t(a.i64(0));
        arg.kind = a.text(1);
        arg.size = std::uint64_t(a.i64(2));
        arg.value = a.blob(3);
        arg.mem = a.isNull(4) ? 0 : a.i64(4);
        arg.memSize = std::uint64_t(a.i64(5));
        arg.memFlags = std::uint64_t(a.i64(6));
        arg.memKind = a.text(7);
        ct.bind(1, index).bind(2, arg.index);
        while (ct.step()) {
            const bool before = ct.text(0) == "before";
            (before ? arg.hasBefore : arg.hasAfter) = ct.text(1) == "captured";
            (before ? arg.beforeState : arg.afterState) = ct.text(1);
            (before ? arg.before : arg.after) = ct.blob(2);
        }
        ct.reset();
        l.args.push_back(std::move(arg));
    }
    return l;
}

void printSummary(std::ostream &out, const CaptureSummary &s)
{
    out << "capture of: " << s.program << '\n';
    if (s.exitStatus)
        out << "exit status: " << *s.exitStatus << '\n';
    out << "api calls: " << s.apiCalls << ", commands: " << s.commands << ", kernel launches: " << s.launches
        << ", programs: " << s.programs << ", kernels: " << s.kernelObjects
        << ", memory objects: " << s.memObjects << '\n';
    if (s.droppedRecords)
        out << "dropped records: " << s.droppedRecords << " (the stream could not keep up)\n";
    if (s.apiCalls == 0)
        // Seen on NVIDIA's CUDA machines: /usr/local/cuda's libOpenCL.so.1 comes first in the linker's path
        // and ignores OPENCL_LAYERS.
        out << "no OpenCL call reached CLScope's layer: the program used no OpenCL, or its libOpenCL.so.1 "
               "ignores OPENCL_LAYERS (CUDA's own loader does; put ocl-icd's first, e.g. "
               "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu)\n";
    else if (!s.complete)
        out << "the program did not shut OpenCL down cleanly: the capture ends where the program stopped\n";
    if (s.contents)
        out << "buffer contents recorded: " << s.contents << '\n';
    if (!s.kernels.empty()) {
        out << "kernels by total device time:\n";
        for (const CaptureKernelTotal &k : s.kernels)
            out << "  " << k.name << ": " << k.launches << " launches, "
                << formatNanoseconds(double(k.totalNs)) << '\n';
    }
    if (!s.transfers.empty()) {
        out << "transfers:\n";
        for (const CaptureTransferTotal &t : s.transfers)
            out << "  " << t.type << ": " << t.count << " commands, " << t.bytes << " bytes, "
                << formatNanoseconds(double(t.totalNs)) << '\n';
    }
    if (!s.memory.empty()) {
        out << "peak device memory:\n";
        for (const CaptureContextMemory &m : s.memory)
            out << "  context " << m.context << " (" << m.devices << "): " << m.peakBytes << " bytes, "
                << m.objects << " objects\n";
    }
}

std::string summaryJson(const CaptureSummary &s, int indent)
{
    nlohmann::ordered_json j;
    j["program"] = s.program;
    j["exit_status"] = s.exitStatus ? nlohmann::ordered_json(*s.exitStatus) : nlohmann::ordered_json();
    j["complete"] = s.complete;
    j["api_calls"] = s.apiCalls;
    j["commands"] = s.commands;
    j["launches"] = s.launches;
    j["programs"] = s.programs;
    j["kernel_objects"] = s.kernelObjects;
    j["mem_objects"] = s.memObjects;
    j["dropped_records"] = s.droppedRecords;
    j["contents"] = s.contents;
    j["kernels"] = nlohmann::ordered_json::array();
    for (const CaptureKernelTotal &k : s.kernels)
        j["kernels"].push_back({{"name", k.name}, {"launches", k.launches}, {"total_ns", k.totalNs}});
    j["transfers"] = nlohmann::ordered_json::array();
    for (const CaptureTransferTotal &t : s.transfers)
        j["transfers"].push_back(
            {{"type", t.type}, {"count", t.count}, {"bytes", t.bytes}, {"total_ns", t.totalNs}});
    j["memory"] = nlohmann::ordered_json::array();
    for (const CaptureContextMemory &m : s.memory)
        j["memory"].push_back({{"context", m.context},
                               {"devices", m.devices},
                               {"peak_bytes", m.peakBytes},
                               {"objects", m.objects}});
    return j.dump(indent);
}

} // namespace clscope
