// CaptureWriter: frames the layer's stream (protocol.h) into records, hands each to its handler
// (records.cpp), and writes the capture file in short transactions.
#include "recorder_impl.h"

namespace clscope {

using namespace capture;
namespace w = capture::wire;

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
    d->sql.insMeta.bind(1, key).bind(2, value).run();
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
        d->commands.flushWaiting(std::chrono::milliseconds(250), d->process);
        d->commit();
    }
}

void CaptureWriter::finish()
{
    d->recover();
    d->truncated += d->pending.size();
    d->pending.clear();
    d->begin();
    d->commands.flushWaiting(std::chrono::milliseconds(0), d->process);
    // After rows were rolled back the readers count the commands themselves (as after a crash of the
    // recorder): totals from memory would count what the file lacks.
    if (!d->lostWrites)
        d->commands.writeTotals();
    d->sql.insMeta.bind(1, "truncated_bytes").bind(2, std::to_string(d->truncated)).run();
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
