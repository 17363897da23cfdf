// The recorder's state (CaptureWriter::Impl): the capture file, its transactions, and what one process of
// the stream has said so far. recorder.cpp holds CaptureWriter (framing, transactions, the end) and
// records.cpp the handler of each kind of record; the statements, the live objects, the commands with their
// totals, and contents in pieces are classes of their own.
#pragma once

#include "clscope/capture.h"

#include "commandlog.h"
#include "contentsassembler.h"
#include "liveobjects.h"
#include "protocol.h"
#include "recorderstatements.h"
#include "sqlite.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace clscope {

namespace capture {

// A kernel's argument as the latest clSetKernelArg left it: launch_args of its next launch.
struct CurrentArg
{
    std::string kind;
    std::uint64_t size = 0;
    std::string value;
    std::int64_t mem = 0; // 0: none
};

} // namespace capture

struct CaptureWriter::Impl
{
    capture::Db db;
    capture::RecorderStatements sql;
    capture::CommandLog commands;
    capture::ContentsAssembler contents;
    std::string pending; // bytes of an incomplete record
    std::uint64_t records = 0;
    std::uint64_t truncated = 0;
    bool inTransaction = false;
    std::chrono::steady_clock::time_point transactionStart;

    // Per process (reset at each Hello).
    std::int64_t process = 0;
    std::int64_t launchBase = 0, nextLaunch = 0;
    std::unordered_map<std::uint64_t, std::int64_t> devices; // handle -> devices.id
    capture::LiveObjects live;
    std::unordered_map<std::int64_t, std::vector<capture::CurrentArg>> kernelArgs; // kernels.id -> arguments

    explicit Impl(const std::string &path)
        : db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        , sql(db)
        , commands(db, sql)
    {}

    std::int64_t lastId() const { return sqlite3_last_insert_rowid(db.handle()); }
    // devices.id of a device handle of this process; 0 for one the stream did not describe.
    std::int64_t deviceId(std::uint64_t handle) const
    {
        auto it = devices.find(handle);
        return it == devices.end() ? 0 : it->second;
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

    // One record of the stream (records.cpp), by its kind.
    void record(capture::wire::Kind kind, capture::wire::Decoder &in);
    void onHello(capture::wire::Decoder &in);
    void onApiName(capture::wire::Decoder &in);
    void onApiCall(capture::wire::Decoder &in);
    void onDevice(capture::wire::Decoder &in);
    void onContext(capture::wire::Decoder &in);
    void onQueue(capture::wire::Decoder &in);
    void onMem(capture::wire::Decoder &in);
    void onSampler(capture::wire::Decoder &in);
    void onRetainOrRelease(capture::wire::Kind kind, capture::wire::Decoder &in);
    void onProgram(capture::wire::Decoder &in);
    void onBuild(capture::wire::Decoder &in);
    void onKernel(capture::wire::Decoder &in);
    void onKernelArg(capture::wire::Decoder &in);
    void onCommand(capture::wire::Decoder &in);
    void onCommandTimes(capture::wire::Decoder &in);
    void onContents(capture::wire::Decoder &in);
    void onDrops(capture::wire::Decoder &in);
    void onEnd(capture::wire::Decoder &in);
    // A ContentsPart record: the pieces joined into one Contents record.
    bool contentsPart(capture::wire::Decoder &in);
};

} // namespace clscope
