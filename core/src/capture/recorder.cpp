// CaptureWriter: decodes the layer's stream (protocol.h) and writes the capture file in short
// transactions. Handles are the driver's and may be reused once an object is gone, so every object gets
// its own row id; the writer keeps the live handle -> id maps and the reference counts.
#include "recorder_impl.h"

namespace clscope {

using namespace capture;

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
    else if (c.ownEvent != std::uint8_t(w::OwnEvent::None)) { // its timestamps may still come
        commandRows[c.id] = lastId();
        rowTotals[c.id] = key;
    }
}

void CaptureWriter::Impl::writeTotals()
{
    db.exec("DELETE FROM command_totals");
    Stmt ins(db, "INSERT INTO command_totals VALUES(?,?,?,?,?,?,?,?)");
    for (const auto &[key, t] : totals) {
        ins.bind(1, key.first).bind(2, key.second).bind(3, t.launches).bind(4, t.count).bind(5, t.failed);
        ins.bind(6, t.bytes).bind(7, t.deviceNs).bind(8, t.timed).run();
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

namespace {
// A Contents payload before its bytes: launch, arg, phase, mem, state, the blob's length.
constexpr std::size_t kContentsHead = 8 + 4 + 1 + 8 + 1 + 4;
} // namespace

bool CaptureWriter::Impl::contentsPart(w::Decoder &in)
{
    const auto launch = in.get<std::int64_t>();
    const auto arg = in.get<std::uint32_t>();
    const auto phase = in.get<std::uint8_t>();
    const auto mem = in.get<std::uint64_t>();
    const auto total = in.get<std::uint64_t>();
    const auto offset = in.get<std::uint64_t>();
    const std::string_view data = in.blob();
    const auto key = std::make_tuple(launch, arg, phase);
    auto it = assemblies.find(key);
    if (offset == 0) {
        // A Contents record's blob has a u32 length: larger contents are left out (the layer sends none).
        if (!in.ok() || total > UINT32_MAX || data.size() > total)
            return false;
        Assembly a;
        a.payload.resize(kContentsHead);
        w::Encoder e(a.payload.data(), a.payload.size());
        e.put(launch), e.put(arg), e.put(phase), e.put(mem), e.put(w::ContentState::Captured);
        e.put(static_cast<std::uint32_t>(total));
        a.missing = total;
        it = assemblies.insert_or_assign(key, std::move(a)).first;
    }
    if (it == assemblies.end())
        return false;
    Assembly &a = it->second;
    if (!in.ok() || offset != a.payload.size() - kContentsHead || data.size() > a.missing) {
        assemblies.erase(it);
        return false;
    }
    a.payload.insert(a.payload.end(), data.begin(), data.end());
    a.missing -= data.size();
    if (a.missing == 0) {
        w::Decoder whole(a.payload.data(), a.payload.size());
        record(w::Kind::Contents, whole);
        assemblies.erase(it);
    }
    return true;
}

CaptureWriter::CaptureWriter(const std::string &path)
{
    removeDatabase(path);
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
    d->recover();
    d->begin();
    d->insMeta.bind(1, key).bind(2, value).run();
}

void CaptureWriter::feed(const unsigned char *data, std::size_t size)
{
    try {
        feedRecords(data, size);
    } catch (...) {
        d->failed = true;
        throw;
    }
}

void CaptureWriter::feedRecords(const unsigned char *data, std::size_t size)
{
    d->recover();
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
        if (static_cast<w::Kind>(kind) == w::kContentsPart)
            d->contentsPart(in);
        else
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
    d->recover();
    d->truncated += d->pending.size();
    d->pending.clear();
    d->begin();
    d->flushWaiting(std::chrono::milliseconds(0));
    // After rows were rolled back the readers count the commands themselves (as after a crash of the
    // recorder): totals from memory would count what the file lacks.
    if (!d->lostWrites)
        d->writeTotals();
    d->insMeta.bind(1, "truncated_bytes").bind(2, std::to_string(d->truncated)).run();
    d->commit();
    // Back to a rollback journal: the WAL goes into the file and away, and the readers that open it read-only
    // afterwards (capture-info, the GUI) leave no -wal and -shm files beside it. A reader that has it open
    // now (the GUI while the program ran) keeps it in WAL mode: then the WAL is only emptied.
    // (SQLite answers the mode it is in: "wal" when it could not change, or an error when busy.)
    bool changed = false;
    try {
        Stmt mode(d->db, "PRAGMA journal_mode=DELETE");
        changed = mode.step() && mode.text(0) == "delete";
    } catch (const CaptureError &) {
    }
    if (!changed)
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
