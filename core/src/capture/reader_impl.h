// CaptureReader's connection, shared by the reader's files (reader.cpp: summary, commands and launches;
// browse.cpp: what the capture views list), and the passes over the two tables that grow with the program
// (commands, api_calls) that several calls share.
#pragma once

#include "sqlite.h"

#include "clscope/capture.h"
#include "clscope/profile.h"

#include <climits>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace clscope {

namespace capture {

// The profile type of a cl_command_type.
CommandRecord::Type recordType(std::int64_t cl);
// Live bytes over time from (time, +size / -size) events, frees first at equal times.
std::vector<PoolSeriesPoint> liveSeries(std::vector<std::pair<std::int64_t, std::int64_t>> events);
// a + b, held at INT64_MAX / INT64_MIN instead of wrapping: sums of the sizes a hostile file may hold.
inline std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return sum;
}
// The first column of the first row of a query such as SELECT COUNT(*) (0 without a row).
std::uint64_t count(const Db &db, const char *sql);
// "ndrange-kernel" -> "clEnqueueNDRangeKernel", "read-buffer" -> "clEnqueueReadBuffer".
std::string enqueueName(std::string_view typeName);

// Everything one reader call reads comes from one snapshot of the file, which the recorder may be writing:
// a read transaction for the call, unless one is open already.
class ReadSnapshot
{
public:
    explicit ReadSnapshot(Db &db);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot &) = delete;
    ReadSnapshot &operator=(const ReadSnapshot &) = delete;

private:
    Db &m_db;
    bool m_began = false;
};

// One host call as the timeline draws it: an enqueue (commands) or another API call (api_calls).
struct HostSpan
{
    std::int64_t start = 0;    // NULL: 0
    std::int64_t duration = 0; // NULL: 0, with noDuration
    std::int64_t thread = 0;
    std::uint32_t name = 0; // index into the scan's names (CommandScan::enqueues, ApiScan::functions)
    bool noDuration = false;
};

// Sums of a group of calls as SQL's COUNT(*), SUM(result != 0), SUM(duration) and MAX(duration) give them
// (NULLs left out).
struct CallTotals
{
    std::string name; // raw: commands.type_name, or api_names.name ('call N' without one)
    std::uint64_t calls = 0;
    std::uint64_t failed = 0;
    std::uint64_t totalNs = 0; // wraps as SQLite's int64 would not, past 292 years
    std::int64_t maxNs = 0;
    bool anyNs = false;
    void add(bool resultNull, std::int64_t result, bool durationNull, std::int64_t duration);
};

// One pass over `commands`, in id order: what progress(), launchCount(), summary() (without the recorder's
// totals), programs(), apiTotals() and apiCallRecords() need of it. Kept while the file is unchanged
// (PRAGMA data_version): the GUI's read of a capture asks for all of them, and each was a pass of its own
// over what may be millions of rows.
struct CommandScan
{
    std::int64_t dataVersion = -1; // of the snapshot it was made in; -1: none made
    std::uint64_t rows = 0;
    std::uint64_t succeeded = 0;         // result = 0
    std::uint64_t succeededLaunches = 0; // result = 0 AND launch IS NOT NULL
    std::uint64_t launches = 0;          // launch IS NOT NULL
    // Per (type, kernel), NULL apart from 0, as summary() sums them when the recorder wrote no
    // command_totals.
    struct Group
    {
        std::int64_t type = 0, kernel = 0; // NULL: 0
        std::uint64_t launches = 0, count = 0, failed = 0, bytes = 0, deviceNs = 0;
        std::uint64_t timed = 0; // succeeded commands with device times (deviceNs is over these)
    };
    std::vector<Group> groups;
    std::unordered_map<std::int64_t, std::uint64_t> launchesByKernel; // kernels.id -> launches, any result
    std::vector<CallTotals> enqueues;                                 // per type_name
    std::vector<HostSpan> spans;                                      // every enqueue call
};

// One pass over `api_calls`, in id order, for apiTotals() and apiCallRecords(); kept as CommandScan is.
struct ApiScan
{
    std::int64_t dataVersion = -1;
    std::vector<CallTotals> functions; // per api (the entry point), in order of first call
    std::vector<HostSpan> spans;
};

} // namespace capture

// A reader is used from one thread at a time: the scans are kept in it.
struct CaptureReader::Impl
{
    capture::Db db;
    capture::CommandScan commandScan;
    capture::ApiScan apiScan;

    explicit Impl(const std::string &path);

    // PRAGMA data_version (it changes when another connection commits): in a ReadSnapshot.
    std::int64_t dataVersion();
    bool haveCommandScan() { return commandScan.dataVersion == dataVersion(); }
    // In a ReadSnapshot: the pass over commands, made now unless it was made in an unchanged file. With
    // `records`, made now in any case, and the commands that succeeded are put there as commandRecords()
    // returns them.
    const capture::CommandScan &commands(std::vector<CommandRecord> *records = nullptr);
    const capture::ApiScan &apiCalls();
};

} // namespace clscope
