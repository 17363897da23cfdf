// CaptureWriter: decodes the layer's stream (protocol.h) and writes the capture file in short
// transactions. Handles are the driver's and may be reused once an object is gone, so every object gets
// its own row id; the writer keeps the live handle -> id maps and the reference counts.
#include "clscope/capture.h"

#include "protocol.h"
#include "schema.h"
#include "sqlite.h"

#include <CL/cl.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <unordered_map>

namespace clscope {

using namespace capture;
namespace w = capture::wire;

namespace {

std::string memKindName(w::MemKind k)
{
    switch (k) {
    case w::MemKind::Buffer:
        return "buffer";
    case w::MemKind::SubBuffer:
        return "sub-buffer";
    case w::MemKind::Image:
        return "image";
    case w::MemKind::Svm:
        return "svm";
    case w::MemKind::Pipe:
        return "pipe";
    case w::MemKind::Interop:
        return "interop";
    }
    return "unknown";
}

std::string programKindName(w::ProgramKind k)
{
    switch (k) {
    case w::ProgramKind::Source:
        return "source";
    case w::ProgramKind::Binary:
        return "binary";
    case w::ProgramKind::IL:
        return "il";
    case w::ProgramKind::BuiltIn:
        return "built-in";
    case w::ProgramKind::Linked:
        return "linked";
    }
    return "unknown";
}

std::string buildOpName(w::BuildOp op)
{
    switch (op) {
    case w::BuildOp::Build:
        return "build";
    case w::BuildOp::Compile:
        return "compile";
    case w::BuildOp::Link:
        return "link";
    }
    return "unknown";
}

const char *contentStateName(w::ContentState s)
{
    switch (s) {
    case w::ContentState::Captured:
        return "captured";
    case w::ContentState::OverBudget:
        return "over-budget";
    case w::ContentState::NotABuffer:
        return "not-a-buffer";
    case w::ContentState::ReadFailed:
        return "read-failed";
    }
    return "unknown";
}

std::string commandTypeName(std::uint32_t type)
{
    switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL:
        return "ndrange-kernel";
    case CL_COMMAND_TASK:
        return "task";
    case CL_COMMAND_NATIVE_KERNEL:
        return "native-kernel";
    case CL_COMMAND_READ_BUFFER:
        return "read-buffer";
    case CL_COMMAND_WRITE_BUFFER:
        return "write-buffer";
    case CL_COMMAND_COPY_BUFFER:
        return "copy-buffer";
    case CL_COMMAND_READ_IMAGE:
        return "read-image";
    case CL_COMMAND_WRITE_IMAGE:
        return "write-image";
    case CL_COMMAND_COPY_IMAGE:
        return "copy-image";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER:
        return "copy-image-to-buffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
        return "copy-buffer-to-image";
    case CL_COMMAND_MAP_BUFFER:
        return "map-buffer";
    case CL_COMMAND_MAP_IMAGE:
        return "map-image";
    case CL_COMMAND_UNMAP_MEM_OBJECT:
        return "unmap";
    case CL_COMMAND_MARKER:
        return "marker";
    case CL_COMMAND_READ_BUFFER_RECT:
        return "read-buffer-rect";
    case CL_COMMAND_WRITE_BUFFER_RECT:
        return "write-buffer-rect";
    case CL_COMMAND_COPY_BUFFER_RECT:
        return "copy-buffer-rect";
    case CL_COMMAND_BARRIER:
        return "barrier";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS:
        return "migrate";
    case CL_COMMAND_FILL_BUFFER:
        return "fill-buffer";
    case CL_COMMAND_FILL_IMAGE:
        return "fill-image";
    case CL_COMMAND_SVM_FREE:
        return "svm-free";
    case CL_COMMAND_SVM_MEMCPY:
        return "svm-memcpy";
    case CL_COMMAND_SVM_MEMFILL:
        return "svm-memfill";
    case CL_COMMAND_SVM_MAP:
        return "svm-map";
    case CL_COMMAND_SVM_UNMAP:
        return "svm-unmap";
    case CL_COMMAND_SVM_MIGRATE_MEM:
        return "svm-migrate";
    }
    return "command-" + std::to_string(type);
}

struct LiveObject
{
    std::int64_t id = 0;
    std::int64_t refs = 1;
};

struct CurrentArg
{
    std::string kind;
    std::uint64_t size = 0;
    std::string value;
    std::int64_t mem = 0; // 0: none
};

} // namespace

struct CaptureWriter::Impl
{
    Db db;
    bool schemaMade = false; // before the statements: prep() creates the schema on first use
    Stmt insMeta, insProcess, endProcess, insApiName, insApiCall, insDevice, insContext, insQueue, insMem,
        insSampler, insProgram, insSource, insBuild, insLog, insKernel, insCommand, updTimes, insArg,
        insContents, insDrops;
    std::string pending; // bytes of an incomplete record
    std::uint64_t records = 0;
    std::uint64_t truncated = 0;
    bool inTransaction = false;
    std::chrono::steady_clock::time_point transactionStart;

    // Per process (reset at each Hello).
    std::int64_t process = 0;
    std::int64_t launchBase = 0, nextLaunch = 0;
    std::unordered_map<std::uint64_t, std::int64_t> devices;
    std::map<std::pair<int, std::uint64_t>, LiveObject> live;    // (ObjectType, handle) -> row
    std::unordered_map<std::uint64_t, std::int64_t> commandRows; // layer seq -> commands.id (awaiting times)
    std::unordered_map<std::int64_t, std::vector<CurrentArg>> kernelArgs; // kernels.id -> arguments
    struct WaitingCommand
    {
        w::CommandWire c;
        std::int64_t kernel = 0, mem = 0, mem2 = 0, queue = 0, launch = -1;
        std::chrono::steady_clock::time_point arrived;
    };
    std::unordered_map<std::uint64_t, WaitingCommand> waiting; // layer seq -> command awaiting its times
    std::deque<std::uint64_t> waitingOrder;                    // seqs in arrival order (some already written)

    struct Total
    {
        std::uint64_t launches = 0, count = 0, failed = 0, bytes = 0, deviceNs = 0;
    };
    std::map<std::pair<std::uint32_t, std::int64_t>, Total> totals; // (CL_COMMAND_*, kernels.id)
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::int64_t>> rowTotals; // seq -> its total
    void addTime(const std::pair<std::uint32_t, std::int64_t> &key, const std::uint64_t *times)
    {
        if (times[2] > 0 && times[3] >= times[2])
            totals[key].deviceNs += times[3] - times[2];
    }
    void writeTotals();

    void insertCommand(const WaitingCommand &w, const std::uint64_t *times, std::int32_t status);
    // Writes the commands whose timestamps are later than `age` without them (they update the row later).
    void flushWaiting(std::chrono::milliseconds age);

    explicit Impl(const std::string &path)
        : db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        , insMeta(prep("INSERT OR REPLACE INTO meta VALUES(?,?)"))
        , insProcess(prep("INSERT INTO processes(pid, layer, started_ns) VALUES(?,?,?)"))
        , endProcess(prep("UPDATE processes SET ended_ns = ? WHERE id = ?"))
        , insApiName(prep("INSERT OR REPLACE INTO api_names VALUES(?,?)"))
        , insApiCall(prep("INSERT INTO api_calls(process, api, thread, start_ns, duration_ns, result) "
                          "VALUES(?,?,?,?,?,?)"))
        , insDevice(
              prep("INSERT INTO devices(process, handle, platform_handle, platform_name, name, version, "
                   "type, vendor) VALUES(?,?,?,?,?,?,?,?)"))
        , insContext(prep("INSERT INTO contexts(process, handle, devices, properties, created_ns) "
                          "VALUES(?,?,?,?,?)"))
        , insQueue(prep("INSERT INTO queues(process, handle, context, device, properties, profiling_added, "
                        "created_ns) VALUES(?,?,?,?,?,?,?)"))
        , insMem(
              prep("INSERT INTO mem_objects(process, handle, context, kind, flags, size, host_ptr, parent, "
                   "origin, image_type, width, height, depth, array_size, channel_order, channel_type, "
                   "created_ns) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"))
        , insSampler(prep("INSERT INTO samplers(process, handle, context, normalized, addressing, filter) "
                          "VALUES(?,?,?,?,?,?)"))
        , insProgram(
              prep("INSERT INTO programs(process, handle, context, kind, created_ns) VALUES(?,?,?,?,?)"))
        , insSource(prep("INSERT INTO program_sources VALUES(?,?,?,?)"))
        , insBuild(prep("INSERT INTO builds(program, op, options, result, start_ns, duration_ns, inputs) "
                        "VALUES(?,?,?,?,?,?,?)"))
        , insLog(prep("INSERT INTO build_logs VALUES(?,?,?,?)"))
        , insKernel(prep("INSERT INTO kernels(process, handle, program, name, num_args, created_ns) "
                         "VALUES(?,?,?,?,?,?)"))
        , insCommand(
              prep("INSERT INTO commands(process, seq, launch, type, type_name, queue, kernel, dims, "
                   "global_x, global_y, global_z, local_x, local_y, local_z, offset_x, offset_y, offset_z, "
                   "local_given, bytes, mem, mem2, wait_count, blocking, own_event, thread, host_start_ns, "
                   "host_duration_ns, result, status, queued_ns, submit_ns, start_ns, end_ns) "
                   "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"))
        , updTimes(prep("UPDATE commands SET status=?, queued_ns=?, submit_ns=?, start_ns=?, end_ns=? "
                        "WHERE id=?"))
        , insArg(prep("INSERT OR REPLACE INTO launch_args VALUES(?,?,?,?,?,?)"))
        , insContents(prep("INSERT OR REPLACE INTO contents VALUES(?,?,?,?,?,?)"))
        , insDrops(prep("INSERT INTO drops(process, records, bytes, at_ns) VALUES(?,?,?,?)"))
    {}

    Stmt prep(const char *sql)
    {
        if (!schemaMade) {
            db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
            db.exec(kSchemaSql);
            db.exec(("PRAGMA user_version = " + std::to_string(kCaptureSchemaVersion)).c_str());
            schemaMade = true;
        }
        return Stmt(db, sql);
    }

    std::int64_t lastId() const { return sqlite3_last_insert_rowid(db.handle()); }

    std::int64_t find(w::ObjectType type, std::uint64_t handle) const
    {
        if (!handle)
            return 0;
        auto it = live.find({int(type), handle});
        return it == live.end() ? 0 : it->second.id;
    }

    void add(w::ObjectType type, std::uint64_t handle, std::int64_t id)
    {
        live[{int(type), handle}] = {id, 1};
    }

    void begin()
    {
        if (!inTransaction) {
            db.exec("BEGIN");
            inTransaction = true;
            transactionStart = std::chrono::steady_clock::now();
        }
    }
    void commit()
    {
        if (inTransaction) {
            db.exec("COMMIT");
            inTransaction = false;
        }
    }

    void release(w::ObjectType type, std::uint64_t handle, std::uint64_t ts)
    {
        auto it = live.find({int(type), handle});
        if (it == live.end() || --it->second.refs > 0)
            return;
        const char *table = nullptr;
        switch (type) {
        case w::ObjectType::Context:
            table = "contexts";
            break;
        case w::ObjectType::Queue:
            table = "queues";
            break;
        case w::ObjectType::Mem:
            table = "mem_objects";
            break;
        case w::ObjectType::Program:
            table = "programs";
            break;
        case w::ObjectType::Kernel:
            table = "kernels";
            break;
        case w::ObjectType::Sampler:
            table = "samplers";
            break;
        case w::ObjectType::Event:
            break;
        }
        if (table) {
            Stmt s(db, (std::string("UPDATE ") + table + " SET released_ns = ? WHERE id = ?").c_str());
            s.bind(1, ts).bind(2, it->second.id).run();
        }
        if (type == w::ObjectType::Kernel)
            kernelArgs.erase(it->second.id);
        live.erase(it);
    }

    void record(w::Kind kind, w::Decoder &in);
};

void CaptureWriter::Impl::insertCommand(const WaitingCommand &w, const std::uint64_t *times,
                                        std::int32_t status)
{
    const w::CommandWire &c = w.c;
    Stmt &s = insCommand;
    s.bind(1, process).bind(2, c.id);
    w.launch >= 0 ? s.bind(3, w.launch) : s.bindNull(3);
    s.bind(4, c.type).bind(5, commandTypeName(c.type)).bind(6, w.queue);
    w.kernel ? s.bind(7, w.kernel) : s.bindNull(7);
    s.bind(8, c.dims);
    for (int i = 0; i < 3; ++i)
        s.bind(9 + i, c.global[i]).bind(12 + i, c.local[i]).bind(15 + i, c.offset[i]);
    s.bind(18, c.localGiven).bind(19, c.bytes);
    w.mem ? s.bind(20, w.mem) : s.bindNull(20);
    w.mem2 ? s.bind(21, w.mem2) : s.bindNull(21);
    s.bind(22, c.waitCount).bind(23, c.blocking).bind(24, c.ownEvent).bind(25, c.thread);
    s.bind(26, c.hostStart).bind(27, c.hostDuration).bind(28, c.result);
    if (times) {
        s.bind(29, status);
        for (int i = 0; i < 4; ++i)
            s.bind(30 + i, times[i]);
    }
    s.run();
    const std::pair<std::uint32_t, std::int64_t> key{c.type, w.kernel};
    Total &t = totals[key];
    if (c.result != CL_SUCCESS) {
        ++t.failed;
        return;
    }
    ++t.count;
    t.bytes += c.bytes;
    t.launches += w.launch >= 0;
    if (times)
        addTime(key, times);
    else {
        commandRows[c.id] = lastId();
        rowTotals[c.id] = key;
    }
}

void CaptureWriter::Impl::writeTotals()
{
    db.exec("DELETE FROM command_totals");
    Stmt ins(db, "INSERT INTO command_totals VALUES(?,?,?,?,?,?,?)");
    for (const auto &[key, t] : totals) {
        ins.bind(1, key.first).bind(2, key.second).bind(3, t.launches).bind(4, t.count).bind(5, t.failed);
        ins.bind(6, t.bytes).bind(7, t.deviceNs).run();
    }
    insMeta.bind(1, "command_totals").bind(2, "1").run();
}

void CaptureWriter::Impl::flushWaiting(std::chrono::milliseconds age)
{
    const auto now = std::chrono::steady_clock::now();
    while (!waitingOrder.empty()) {
        auto it = waiting.find(waitingOrder.front());
        if (it != waiting.end()) {
            if (now - it->second.arrived < age)
                break;
            insertCommand(it->second, nullptr, 0);
            waiting.erase(it);
        }
        waitingOrder.pop_front();
    }
}

void CaptureWriter::Impl::record(w::Kind kind, w::Decoder &in)
{
    using u64 = std::uint64_t;
    switch (kind) {
    case w::Kind::Hello: {
        in.get<std::uint32_t>();
        const auto pid = in.get<std::uint32_t>();
        const auto ts = in.get<u64>();
        const std::string_view layer = in.blob();
        insProcess.bind(1, pid).bind(2, layer).bind(3, ts).run();
        process = lastId();
        flushWaiting(std::chrono::milliseconds(0));
        launchBase = nextLaunch;
        devices.clear();
        live.clear();
        commandRows.clear();
        kernelArgs.clear();
        break;
    }
    case w::Kind::ApiName: {
        const auto id = in.get<std::uint16_t>();
        insApiName.bind(1, id).bind(2, in.blob()).run();
        break;
    }
    case w::Kind::ApiCall: {
        const auto id = in.get<std::uint16_t>();
        const auto thread = in.get<std::uint32_t>();
        const auto start = in.get<u64>(), dur = in.get<u64>();
        const auto result = in.get<std::int32_t>();
        insApiCall.bind(1, process)
            .bind(2, id)
            .bind(3, thread)
            .bind(4, start)
            .bind(5, dur)
            .bind(6, result)
            .run();
        break;
    }
    case w::Kind::Device: {
        const u64 handle = in.get<u64>(), platform = in.get<u64>();
        const std::string pname(in.blob()), name(in.blob()), version(in.blob());
        const u64 type = in.get<u64>();
        const std::string vendor(in.blob());
        insDevice.bind(1, process).bind(2, handle).bind(3, platform).bind(4, pname).bind(5, name);
        insDevice.bind(6, version).bind(7, type).bind(8, vendor).run();
        devices[handle] = lastId();
        break;
    }
    case w::Kind::Context: {
        const u64 handle = in.get<u64>(), ts = in.get<u64>();
        std::string devs, props;
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
            auto it = devices.find(in.get<u64>());
            devs += (devs.empty() ? "" : ",") + std::to_string(it == devices.end() ? 0 : it->second);
        }
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
            props += (props.empty() ? "" : ",") + std::to_string(in.get<u64>());
        insContext.bind(1, process).bind(2, handle).bind(3, devs).bind(4, props).bind(5, ts).run();
        add(w::ObjectType::Context, handle, lastId());
        break;
    }
    case w::Kind::Queue: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>(), dev = in.get<u64>(), props = in.get<u64>();
        const auto added = in.get<std::uint8_t>();
        const u64 ts = in.get<u64>();
        auto d = devices.find(dev);
        insQueue.bind(1, process).bind(2, handle).bind(3, find(w::ObjectType::Context, ctx));
        insQueue.bind(4, d == devices.end() ? 0 : d->second).bind(5, props).bind(6, added).bind(7, ts).run();
        add(w::ObjectType::Queue, handle, lastId());
        break;
    }
    case w::Kind::Mem: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>();
        const auto kind = static_cast<w::MemKind>(in.get<std::uint8_t>());
        const u64 flags = in.get<u64>(), size = in.get<u64>(), host = in.get<u64>(), parent = in.get<u64>();
        const u64 origin = in.get<u64>();
        const auto itype = in.get<std::uint32_t>();
        const u64 wd = in.get<u64>(), ht = in.get<u64>(), dp = in.get<u64>(), arr = in.get<u64>();
        const auto order = in.get<std::uint32_t>(), dtype = in.get<std::uint32_t>();
        const u64 ts = in.get<u64>();
        insMem.bind(1, process)
            .bind(2, handle)
            .bind(3, find(w::ObjectType::Context, ctx))
            .bind(4, memKindName(kind));
        insMem.bind(5, flags).bind(6, size).bind(7, host).bind(9, origin);
        if (const std::int64_t parentId = find(w::ObjectType::Mem, parent))
            insMem.bind(8, parentId);
        else
            insMem.bindNull(8);
        insMem.bind(10, itype).bind(11, wd).bind(12, ht).bind(13, dp).bind(14, arr).bind(15, order).bind(
            16, dtype);
        insMem.bind(17, ts).run();
        add(w::ObjectType::Mem, handle, lastId());
        break;
    }
    case w::Kind::Sampler: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>();
        const auto norm = in.get<std::uint32_t>(), am = in.get<std::uint32_t>(), fm = in.get<std::uint32_t>();
        insSampler.bind(1, process).bind(2, handle).bind(3, find(w::ObjectType::Context, ctx)).bind(4, norm);
        insSampler.bind(5, am).bind(6, fm).run();
        add(w::ObjectType::Sampler, handle, lastId());
        break;
    }
    case w::Kind::Retain:
    case w::Kind::Release: {
        const auto type = static_cast<w::ObjectType>(in.get<std::uint8_t>());
        const u64 handle = in.get<u64>(), ts = in.get<u64>();
        if (kind == w::Kind::Retain) {
            auto it = live.find({int(type), handle});
            if (it != live.end())
                ++it->second.refs;
        } else {
            release(type, handle, ts);
        }
        break;
    }
    case w::Kind::Program: {
        const u64 handle = in.get<u64>(), ctx = in.get<u64>();
        const auto pk = static_cast<w::ProgramKind>(in.get<std::uint8_t>());
        const u64 ts = in.get<u64>();
        insProgram.bind(1, process).bind(2, handle).bind(3, find(w::ObjectType::Context, ctx));
        insProgram.bind(4, programKindName(pk)).bind(5, ts).run();
        const std::int64_t id = lastId();
        add(w::ObjectType::Program, handle, id);
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
            const u64 dev = in.get<u64>();
            const std::string_view data = in.blob();
            auto d = devices.find(dev);
            insSource.bind(1, id)
                .bind(2, i)
                .bind(3, d == devices.end() ? 0 : d->second)
                .bindBlob(4, data)
                .run();
        }
        break;
    }
    case w::Kind::Build: {
        const std::int64_t program = find(w::ObjectType::Program, in.get<u64>());
        const auto op = static_cast<w::BuildOp>(in.get<std::uint8_t>());
        const std::string options(in.blob());
        const auto result = in.get<std::int32_t>();
        const u64 start = in.get<u64>(), dur = in.get<u64>();
        std::string inputs;
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i)
            inputs +=
                (inputs.empty() ? "" : ",") + std::to_string(find(w::ObjectType::Program, in.get<u64>()));
        insBuild.bind(1, program).bind(2, buildOpName(op)).bind(3, options).bind(4, result).bind(5, start);
        insBuild.bind(6, dur).bind(7, inputs).run();
        const std::int64_t build = lastId();
        for (std::uint32_t i = 0, n = in.get<std::uint32_t>(); i < n && in.ok(); ++i) {
            auto d = devices.find(in.get<u64>());
            const auto status = in.get<std::int32_t>();
            insLog.bind(1, build)
                .bind(2, d == devices.end() ? 0 : d->second)
                .bind(3, status)
                .bind(4, in.blob());
            insLog.run();
        }
        break;
    }
    case w::Kind::Kernel: {
        const u64 handle = in.get<u64>(), program = in.get<u64>();
        const std::string name(in.blob());
        const auto nargs = in.get<std::uint32_t>();
        const u64 ts = in.get<u64>();
        insKernel.bind(1, process)
            .bind(2, handle)
            .bind(3, find(w::ObjectType::Program, program))
            .bind(4, name);
        insKernel.bind(5, nargs).bind(6, ts).run();
        const std::int64_t id = lastId();
        add(w::ObjectType::Kernel, handle, id);
        kernelArgs[id].resize(nargs);
        break;
    }
    case w::Kind::KernelArg: {
        const std::int64_t kernel = find(w::ObjectType::Kernel, in.get<u64>());
        const auto index = in.get<std::uint32_t>();
        const auto ak = static_cast<w::ArgKind>(in.get<std::uint8_t>());
        const u64 size = in.get<u64>();
        const std::string_view value = in.blob();
        if (!kernel)
            break;
        std::vector<CurrentArg> &args = kernelArgs[kernel];
        if (index == UINT32_MAX) { // a clone: the arguments of its source kernel
            u64 source = 0;
            if (value.size() == 8)
                std::memcpy(&source, value.data(), 8);
            auto src = kernelArgs.find(find(w::ObjectType::Kernel, source));
            if (src != kernelArgs.end())
                args = src->second;
            break;
        }
        if (index >= args.size())
            args.resize(index + 1);
        CurrentArg a;
        a.size = size;
        a.value = value;
        if (ak == w::ArgKind::Local) {
            a.kind = "local";
        } else if (ak == w::ArgKind::Svm) {
            a.kind = "svm";
        } else {
            a.kind = "value";
            if (value.size() == sizeof(u64)) {
                u64 hv = 0;
                std::memcpy(&hv, value.data(), 8);
                if (const std::int64_t mem = find(w::ObjectType::Mem, hv)) {
                    a.kind = "mem";
                    a.mem = mem;
                } else if (find(w::ObjectType::Sampler, hv)) {
                    a.kind = "sampler";
                    a.mem = find(w::ObjectType::Sampler, hv);
                }
            }
        }
        args[index] = std::move(a);
        break;
    }
    case w::Kind::Command: {
        WaitingCommand w;
        w.c = in.command();
        w.kernel = find(w::ObjectType::Kernel, w.c.kernel);
        w.mem = find(w::ObjectType::Mem, w.c.mem);
        w.mem2 = find(w::ObjectType::Mem, w.c.mem2);
        w.queue = find(w::ObjectType::Queue, w.c.queue);
        w.launch = w.c.launch >= 0 ? launchBase + w.c.launch : -1;
        w.arrived = std::chrono::steady_clock::now();
        if (w.launch >= 0)
            nextLaunch = std::max(nextLaunch, w.launch + 1);
        if (w.launch >= 0 && w.kernel) {
            const auto args = kernelArgs.find(w.kernel);
            if (args != kernelArgs.end()) {
                for (std::size_t i = 0; i < args->second.size(); ++i) {
                    const CurrentArg &a = args->second[i];
                    insArg.bind(1, w.launch).bind(2, std::uint64_t(i));
                    insArg.bind(3, a.kind.empty() ? std::string_view("unset") : std::string_view(a.kind));
                    insArg.bind(4, a.size).bindBlob(5, a.value);
                    a.mem ? insArg.bind(6, a.mem) : insArg.bindNull(6);
                    insArg.run();
                }
            }
        }
        if (w.c.result != CL_SUCCESS) {
            insertCommand(w, nullptr, 0);
        } else {
            // Written once its timestamps arrive (one insert instead of an insert and an update), or
            // without them when they are late.
            waitingOrder.push_back(w.c.id);
            waiting.emplace(w.c.id, w);
        }
        break;
    }
    case w::Kind::CommandTimes: {
        const u64 id = in.get<u64>();
        const auto status = in.get<std::int32_t>();
        u64 t[4];
        for (u64 &v : t)
            v = in.get<u64>();
        if (auto wt = waiting.find(id); wt != waiting.end()) {
            insertCommand(wt->second, t, status);
            waiting.erase(wt);
            break;
        }
        auto it = commandRows.find(id);
        if (it == commandRows.end())
            break;
        updTimes.bind(1, status)
            .bind(2, t[0])
            .bind(3, t[1])
            .bind(4, t[2])
            .bind(5, t[3])
            .bind(6, it->second)
            .run();
        commandRows.erase(it);
        if (auto rt = rowTotals.find(id); rt != rowTotals.end()) {
            addTime(rt->second, t);
            rowTotals.erase(rt);
        }
        break;
    }
    case w::Kind::Contents: {
        const std::int64_t launch = launchBase + in.get<std::int64_t>();
        const auto arg = in.get<std::uint32_t>();
        const auto phase = in.get<std::uint8_t>();
        const std::int64_t mem = find(w::ObjectType::Mem, in.get<u64>());
        const auto state = static_cast<w::ContentState>(in.get<std::uint8_t>());
        const std::string_view data = in.blob();
        insContents.bind(1, launch).bind(2, arg).bind(3, phase ? "after" : "before").bind(4, mem);
        insContents.bind(5, contentStateName(state)).bindBlob(6, data).run();
        break;
    }
    case w::Kind::Drops: {
        const u64 recs = in.get<u64>(), bytes = in.get<u64>(), ts = in.get<u64>();
        insDrops.bind(1, process).bind(2, recs).bind(3, bytes).bind(4, ts).run();
        break;
    }
    case w::Kind::End: {
        endProcess.bind(1, in.get<u64>()).bind(2, process).run();
        break;
    }
    }
}

CaptureWriter::CaptureWriter(const std::string &path)
{
    std::remove(path.c_str());
    std::remove((path + "-wal").c_str());
    std::remove((path + "-shm").c_str());
    d = std::make_unique<Impl>(path);
}

CaptureWriter::~CaptureWriter()
{
    try {
        d->commit();
    } catch (...) {
    }
}

void CaptureWriter::setMeta(const std::string &key, const std::string &value)
{
    d->begin();
    d->insMeta.bind(1, key).bind(2, value).run();
}

void CaptureWriter::feed(const unsigned char *data, std::size_t size)
{
    d->pending.append(reinterpret_cast<const char *>(data), size);
    std::size_t pos = 0;
    d->begin();
    while (d->pending.size() - pos >= w::kHeaderSize) {
        std::uint32_t total = 0;
        std::uint16_t kind = 0;
        std::memcpy(&total, d->pending.data() + pos, 4);
        std::memcpy(&kind, d->pending.data() + pos + 4, 2);
        if (total < w::kHeaderSize)
            throw CaptureError(d->db.path() + ": the capture stream is corrupt (a record of " +
                               std::to_string(total) + " bytes)");
        if (d->pending.size() - pos < total)
            break;
        w::Decoder in(reinterpret_cast<const unsigned char *>(d->pending.data()) + pos + w::kHeaderSize,
                      total - w::kHeaderSize);
        d->record(static_cast<w::Kind>(kind), in);
        ++d->records;
        pos += total;
    }
    d->pending.erase(0, pos);
    if (std::chrono::steady_clock::now() - d->transactionStart > std::chrono::milliseconds(20)) {
        d->flushWaiting(std::chrono::milliseconds(250));
        d->commit();
    }
}

void CaptureWriter::finish()
{
    d->truncated += d->pending.size();
    d->pending.clear();
    d->begin();
    d->flushWaiting(std::chrono::milliseconds(0));
    d->writeTotals();
    d->insMeta.bind(1, "truncated_bytes").bind(2, std::to_string(d->truncated)).run();
    d->commit();
    d->db.exec("PRAGMA wal_checkpoint(TRUNCATE);");
}

std::uint64_t CaptureWriter::records() const
{
    return d->records;
}

std::uint64_t CaptureWriter::truncatedBytes() const
{
    return d->truncated;
}

} // namespace clscope
