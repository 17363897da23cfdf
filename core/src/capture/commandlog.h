// The recorder's commands: each is written once its device timestamps arrive (one insert instead of an
// insert and an update), or without them when they are late (the row is updated when they come), and
// counted in the totals per (command type, kernel) that the file's command_totals keeps.
#pragma once

#include "protocol.h"
#include "recorderstatements.h"
#include "sqlite.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <utility>

namespace clscope::capture {

class CommandLog
{
public:
    // A Command record with its handles as rows (0: none) and its launch in the file (-1: not a launch).
    struct Command
    {
        wire::CommandWire c;
        std::int64_t kernel = 0, mem = 0, mem2 = 0, queue = 0, launch = -1;
        std::chrono::steady_clock::time_point arrived;
    };

    CommandLog(Db &db, RecorderStatements &sql);

    // Writes the command now when no timestamps will come, else keeps it until they do. `process` is the
    // processes row its row names, here and in the calls below.
    void add(const Command &command, std::int64_t process);
    // A CommandTimes record: device status and queued, submit, start, end.
    void times(std::uint64_t id, std::int32_t status, const std::uint64_t *t, std::int64_t process);
    // Writes the commands waiting longer than `age` for their timestamps without them.
    void flushWaiting(std::chrono::milliseconds age, std::int64_t process);
    // A new process: the written rows still awaiting times are no longer updated.
    void forgetRows() { m_rows.clear(); }
    // command_totals from the totals kept in memory.
    void writeTotals();

private:
    using Key = std::pair<std::uint32_t, std::int64_t>; // (CL_COMMAND_*, kernels.id)
    struct Total
    {
        std::uint64_t launches = 0, count = 0, failed = 0, bytes = 0, deviceNs = 0;
        std::uint64_t timed = 0; // commands with device times (deviceNs is over these)
    };

    void insert(const Command &w, const std::uint64_t *times, std::int32_t status, std::int64_t process);
    void addTime(const Key &key, const std::uint64_t *times);

    Db &m_db;
    RecorderStatements &m_sql;
    std::unordered_map<std::uint64_t, Command> m_waiting;   // layer seq -> command awaiting its times
    std::deque<std::uint64_t> m_waitingOrder;               // seqs in arrival order (some already written)
    std::unordered_map<std::uint64_t, std::int64_t> m_rows; // layer seq -> commands.id (awaiting times)
    std::map<Key, Total> m_totals;
    std::unordered_map<std::uint64_t, Key> m_rowTotals; // seq -> its total
};

} // namespace clscope::capture
