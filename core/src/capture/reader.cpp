// CaptureReader: the summary, the commands as profile records (for the Chrome trace and CSV), device
// memory over time, and one launch with everything replay needs.
#include "clscope/capture.h"

#include "kernelgroups.h"
#include "reader_impl.h"

#include "clscope/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
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

// The summary's problems: the first few said, the rest counted (a file of a million bad rows gives a
// readable summary).
void addProblem(CaptureSummary &s, std::uint64_t &more, std::string text)
{
    constexpr std::size_t kShown = 20;
    if (s.problems.size() < kShown)
        s.problems.push_back(std::move(text));
    else
        ++more;
}

} // namespace

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

struct CaptureReader::Snapshot::Hold
{
    ReadSnapshot snapshot;
};

CaptureReader::Snapshot::Snapshot(const CaptureReader &reader)
    : m_hold(new Hold{ReadSnapshot(reader.d->db)})
{}

CaptureReader::Snapshot::~Snapshot() = default;

void CaptureReader::followRename(const std::string &path)
{
    CaptureReader renamed(path);
    const auto rowsThere = [&renamed](const char *sql, std::int64_t read) {
        Stmt s(renamed.d->db, sql);
        return read == INT64_MIN || (s.step() && !s.isNull(0) && s.i64(0) >= read);
    };
    if (!rowsThere("SELECT MAX(id) FROM commands", d->commandScan.lastId) ||
        !rowsThere("SELECT MAX(id) FROM api_calls", d->apiScan.lastId))
        throw CaptureError("cannot follow the capture to " + path + ": it lacks rows already read");
    d->db.swap(renamed.d->db);
    d->commandScan.dataVersion = -1; // another connection's data_version
    d->apiScan.dataVersion = -1;
}

CaptureSummary CaptureReader::summary() const
{
    const ReadSnapshot snapshot(d->db);
    const Db &db = d->db;
    CaptureSummary s;
    s.program = meta(db, "command");
    if (const std::string t = meta(db, "timestamps"); !t.empty())
        s.timestamps = t;
    std::uint64_t moreProblems = 0;
    const std::string exit = meta(db, "exit_status");
    if (!exit.empty()) {
        int status = 0;
        const auto [end, ec] = std::from_chars(exit.data(), exit.data() + exit.size(), status);
        if (ec == std::errc() && end == exit.data() + exit.size())
            s.exitStatus = status;
        else
            addProblem(s, moreProblems, "meta exit_status: '" + exit + "' is not an exit status (left out)");
    }
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
        std::map<std::int64_t, CaptureKernelTotal> kernels; // by kernel object
        std::map<int, CaptureTransferTotal> byType;
        // The recorder's totals when it finished; a pass over the commands when it did not.
        std::vector<CommandScan::Group> groups;
        std::uint64_t apiCalls = count(db, "SELECT COUNT(*) FROM api_calls");
        if (meta(db, "command_totals") == "1") {
            // Files from before `timed` was added (2026-12-03): their layer timed every command (the count
            // stands for it).
            const bool timedColumn =
                count(db, "SELECT COUNT(*) FROM pragma_table_info('command_totals') WHERE name = 'timed'") >
                0;
            Stmt q(db, timedColumn ? "SELECT type, kernel, launches, count, bytes, device_ns, failed, timed "
                                     "FROM command_totals"
                                   : "SELECT type, kernel, launches, count, bytes, device_ns, failed, count "
                                     "FROM command_totals");
            static constexpr const char *kColumns[] = {"type",  "kernel",    "launches", "count",
                                                       "bytes", "device_ns", "failed",   "timed"};
            while (q.step()) {
                // Counts and sums are never negative (the recorder's own sums of what it wrote).
                int negative = -1;
                for (int i = 2; i < 8 && negative < 0; ++i)
                    if (q.i64(i) < 0)
                        negative = i;
                if (negative >= 0) {
                    addProblem(s, moreProblems,
                               "command_totals row (type " + std::to_string(q.i64(0)) + ", kernel " +
                                   std::to_string(q.i64(1)) + "): " + kColumns[negative] + " " +
                                   std::to_string(q.i64(negative)) + " is negative (left out)");
                    continue;
                }
                groups.push_back({q.i64(0), q.i64(1), std::uint64_t(q.i64(2)), std::uint64_t(q.i64(3)),
                                  std::uint64_t(q.i64(6)), std::uint64_t(q.i64(4)), std::uint64_t(q.i64(5)),
                                  std::uint64_t(q.i64(7))});
            }
        } else {
            groups = d->commands().groups;
        }
        std::uint64_t failed = 0;
        for (const CommandScan::Group &g : groups) {
            failed += g.failed;
            s.commands += g.count;
            if (g.launches) {
                s.launches += g.launches;
                CaptureKernelTotal &k = kernels[g.kernel];
                k.name = kernelNames[g.kernel];
                k.launches += g.launches;
                k.totalNs += g.deviceNs;
                k.timed += g.timed;
            }
            const CommandRecord::Type t = recordType(g.type);
            if (!isTransfer(t))
                continue;
            CaptureTransferTotal &tt = byType[int(t)];
            tt.type = typeName(t);
            tt.count += g.count;
            tt.bytes += g.bytes;
            tt.totalNs += g.deviceNs;
            tt.timed += g.timed;
        }
        s.apiCalls = apiCalls + s.commands + failed;
        s.kernels = groupKernelTotals(db, kernels);
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
        Stmt q(db, "SELECT context, size, created_ns, released_ns, id FROM mem_objects WHERE kind != "
                   "'sub-buffer'");
        while (q.step()) {
            const std::int64_t ctx = q.i64(0), size = q.i64(1);
            if (size < 0) {
                addProblem(s, moreProblems,
                           "mem_objects row " + std::to_string(q.i64(4)) + ": size " + std::to_string(size) +
                               " is negative (left out of the peak)");
                continue;
            }
            events[ctx].push_back({q.i64(2), size});
            if (!q.isNull(3))
                events[ctx].push_back({q.i64(3), -size});
            ++objects[ctx];
        }
        Stmt names(
            db, "SELECT GROUP_CONCAT(d.name, ', ') FROM contexts c, json_each("
                "IIF(json_valid('[' || c.devices || ']'), '[' || c.devices || ']', '[]')) j JOIN devices d "
                "ON d.id = j.value WHERE c.id = ?");
        for (auto &[ctx, evs] : events) {
            std::sort(evs.begin(), evs.end(), [](const Ev &a, const Ev &b) {
                return a.t != b.t ? a.t < b.t : a.delta < b.delta; // frees first at equal times
            });
            std::int64_t live = 0, peak = 0;
            for (const Ev &e : evs) {
                live = saturatingAdd(live, e.delta);
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
    if (moreProblems)
        s.problems.push_back("and " + std::to_string(moreProblems) + " more problems");
    return s;
}

std::vector<CommandRecord> CaptureReader::commandRecords() const
{
    // What SELECT ... FROM commands_host ... WHERE result = 0 ORDER BY process, seq gave (the view's window
    // over every command, per read, was most of the time of opening a capture of millions of them).
    const ReadSnapshot snapshot(d->db);
    std::vector<CommandRecord> out;
    d->commandsWithRecords(out);
    return out;
}

std::vector<PoolSeriesPoint> CaptureReader::memorySeries() const
{
    std::vector<std::pair<std::int64_t, std::int64_t>> events;
    // A negative size (a hostile file; summary() names it) is left out.
    Stmt q(d->db, "SELECT size, created_ns, released_ns FROM mem_objects WHERE kind != 'sub-buffer' AND "
                  "size >= 0");
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

namespace {

// A device-time total over `timed` of `count` commands (capture --timestamps N or program time fewer):
// "none timed", "T over the M timed" (with the mean when asked), or T when all were timed.
std::string timedTotal(std::uint64_t totalNs, std::uint64_t timed, std::uint64_t count, bool withMean)
{
    if (timed == 0 && count > 0)
        return "none timed";
    std::string text = formatNanoseconds(double(totalNs));
    if (timed < count) {
        text += " over the " + std::to_string(timed) + " timed";
        if (withMean)
            text += " (mean " + formatNanoseconds(double(totalNs) / double(timed)) + ")";
    }
    return text;
}

} // namespace

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
    for (const std::string &p : s.problems)
        out << "invalid: " << p << '\n';
    if (s.contents)
        out << "buffer contents recorded: " << s.contents << '\n';
    if (s.timestamps == "program")
        out << "device times: only of commands the program passed an event for (--timestamps program)\n";
    else if (s.timestamps != "all")
        out << "device times: of commands the program passed an event for, and of 1 in " << s.timestamps
            << " of the others (--timestamps " << s.timestamps << "); totals below are over those\n";
    if (!s.kernels.empty()) {
        out << "kernels by total device time:\n";
        for (const CaptureKernelTotal &k : s.kernels) {
            out << "  " << k.label << ": " << k.launches << " launches, "
                << timedTotal(k.totalNs, k.timed, k.launches, true) << '\n';
        }
    }
    if (!s.transfers.empty()) {
        out << "transfers:\n";
        for (const CaptureTransferTotal &t : s.transfers) {
            out << "  " << t.type << ": " << t.count << " commands, " << t.bytes << " bytes, "
                << timedTotal(t.totalNs, t.timed, t.count, false) << '\n';
        }
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
    j["timestamps"] = s.timestamps;
    j["kernels"] = nlohmann::ordered_json::array();
    for (const CaptureKernelTotal &k : s.kernels)
        j["kernels"].push_back({{"name", k.name},
                                {"label", k.label},
                                {"program", k.program},
                                {"launches", k.launches},
                                {"timed", k.timed},
                                {"total_ns", k.totalNs},
                                {"first_launch", k.firstLaunch},
                                {"content_launches", k.contentLaunches}});
    j["transfers"] = nlohmann::ordered_json::array();
    for (const CaptureTransferTotal &t : s.transfers)
        j["transfers"].push_back({{"type", t.type},
                                  {"count", t.count},
                                  {"timed", t.timed},
                                  {"bytes", t.bytes},
                                  {"total_ns", t.totalNs}});
    j["memory"] = nlohmann::ordered_json::array();
    for (const CaptureContextMemory &m : s.memory)
        j["memory"].push_back({{"context", m.context},
                               {"devices", m.devices},
                               {"peak_bytes", m.peakBytes},
                               {"objects", m.objects}});
    j["problems"] = s.problems;
    // Names and commands are the program's bytes: invalid UTF-8 becomes U+FFFD, the document stays valid.
    return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace clscope
