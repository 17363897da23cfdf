// The recorder's commands and their totals (commandlog.h).
#include "commandlog.h"

#include "recordnames.h"

#include <CL/cl.h>

namespace clscope::capture {

CommandLog::CommandLog(Db &db, RecorderStatements &sql)
    : m_db(db)
    , m_sql(sql)
{}

void CommandLog::add(const Command &command, std::int64_t process)
{
    if (command.c.result != CL_SUCCESS || command.c.ownEvent == std::uint8_t(wire::OwnEvent::None)) {
        insert(command, nullptr, 0, process); // no timestamps will come
    } else {
        // Written once its timestamps arrive (one insert instead of an insert and an update), or
        // without them when they are late.
        m_waitingOrder.push_back(command.c.id);
        m_waiting.emplace(command.c.id, command);
    }
}

void CommandLog::times(std::uint64_t id, std::int32_t status, const std::uint64_t *t, std::int64_t process)
{
    if (auto wt = m_waiting.find(id); wt != m_waiting.end()) {
        insert(wt->second, t, status, process);
        m_waiting.erase(wt);
        return;
    }
    auto it = m_rows.find(id);
    if (it == m_rows.end())
        return;
    m_sql.updTimes.bind(1, status)
        .bind(2, t[0])
        .bind(3, t[1])
        .bind(4, t[2])
        .bind(5, t[3])
        .bind(6, it->second)
        .run();
    m_rows.erase(it);
    if (auto rt = m_rowTotals.find(id); rt != m_rowTotals.end()) {
        addTime(rt->second, t);
        m_rowTotals.erase(rt);
    }
}

void CommandLog::addTime(const Key &key, const std::uint64_t *times)
{
    if (times[2] > 0 && times[3] >= times[2]) {
        Total &t = m_totals[key];
        t.deviceNs += times[3] - times[2];
        ++t.timed;
    }
}

void CommandLog::insert(const Command &w, const std::uint64_t *times, std::int32_t status,
                        std::int64_t process)
{
    const wire::CommandWire &c = w.c;
    Stmt &s = m_sql.insCommand;
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
    const Key key{c.type, w.kernel};
    Total &t = m_totals[key];
    if (c.result != CL_SUCCESS) {
        ++t.failed;
        return;
    }
    ++t.count;
    t.bytes += c.bytes;
    t.launches += w.launch >= 0;
    if (times)
        addTime(key, times);
    else if (c.ownEvent != std::uint8_t(wire::OwnEvent::None)) { // its timestamps may still come
        m_rows[c.id] = sqlite3_last_insert_rowid(m_db.handle());
        m_rowTotals[c.id] = key;
    }
}

void CommandLog::writeTotals()
{
    m_db.exec("DELETE FROM command_totals");
    Stmt ins(m_db, "INSERT INTO command_totals VALUES(?,?,?,?,?,?,?,?)");
    for (const auto &[key, t] : m_totals) {
        ins.bind(1, key.first).bind(2, key.second).bind(3, t.launches).bind(4, t.count).bind(5, t.failed);
        ins.bind(6, t.bytes).bind(7, t.deviceNs).bind(8, t.timed).run();
    }
    m_sql.insMeta.bind(1, "command_totals").bind(2, "1").run();
}

void CommandLog::flushWaiting(std::chrono::milliseconds age, std::int64_t process)
{
    const auto now = std::chrono::steady_clock::now();
    while (!m_waitingOrder.empty()) {
        auto it = m_waiting.find(m_waitingOrder.front());
        if (it != m_waiting.end()) {
            if (now - it->second.arrived < age)
                break;
            insert(it->second, nullptr, 0, process);
            m_waiting.erase(it);
        }
        m_waitingOrder.pop_front();
    }
}

} // namespace clscope::capture
