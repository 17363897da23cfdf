// The recorder's state (CaptureWriter::Impl), shared by recorder.cpp (transactions, commands, totals)
// and records.cpp (one case per record kind of the stream).
#pragma once

#include "clscope/capture.h"

#include "protocol.h"
#include "schema.h"
#include "sqlite.h"

#include <CL/cl.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace clscope {

namespace capture {

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

// "ndrange-kernel", "read-buffer", ... for commands.type_name; "command-N" for others.
std::string commandTypeName(std::uint32_t type);

} // namespace capture

using capture::CurrentArg;
using capture::Db;
using capture::LiveObject;
using capture::Stmt;
namespace w = capture::wire;

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
        std::uint64_t timed = 0; // commands with device times (deviceNs is over these)
    };
    std::map<std::pair<std::uint32_t, std::int64_t>, Total> totals; // (CL_COMMAND_*, kernels.id)
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::int64_t>> rowTotals; // seq -> its total
    void addTime(const std::pair<std::uint32_t, std::int64_t> &key, const std::uint64_t *times)
    {
        if (times[2] > 0 && times[3] >= times[2]) {
            Total &t = totals[key];
            t.deviceNs += times[3] - times[2];
            ++t.timed;
        }
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
            // The empty tables in one transaction and without syncing the disk (a crash of the machine
            // now loses nothing recorded); the program's records are committed with synchronous=NORMAL.
            db.exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL;");
            db.exec("BEGIN");
            db.exec(capture::kSchemaSql);
            db.exec(("PRAGMA user_version = " + std::to_string(kCaptureSchemaVersion)).c_str());
            db.exec("COMMIT");
            db.exec("PRAGMA synchronous=NORMAL;");
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
    // After a write that failed (a full disk): the transaction it was in is given up (SQLite may have rolled
    // it back already), so that what was committed before stays and the end can still be written.
    bool failed = false;
    bool lostWrites = false; // rows were rolled back: the totals kept in memory no longer match the file
    void recover()
    {
        if (!failed)
            return;
        failed = false;
        lostWrites = true;
        if (!sqlite3_get_autocommit(db.handle())) {
            try {
                db.exec("ROLLBACK");
            } catch (const CaptureError &) {
            }
        }
        inTransaction = false;
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

    // Contents that come in pieces (ContentsPart), by (launch, arg, phase): a Contents payload being
    // filled, and the bytes still to come.
    struct Assembly
    {
        std::vector<unsigned char> payload;
        std::uint64_t missing = 0;
    };
    std::map<std::tuple<std::int64_t, std::uint32_t, std::uint8_t>, Assembly> assemblies;
    // Adds one piece; records the whole Contents once the last has come. Returns false for a piece that
    // does not continue what came before (it and its contents are then left out).
    bool contentsPart(w::Decoder &in);
};

} // namespace clscope
