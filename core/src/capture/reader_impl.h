// CaptureReader's connection, shared by the reader's files (reader.cpp: summary, commands and launches;
// browse.cpp: what the capture views list), and the passes over the two tables that grow with the program
// (commands, api_calls) that several calls share.
#pragma once

#include "sqlite.h"

#include "clscope/capture.h"
#include "clscope/profile.h"

#include <climits>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
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

// The pass over `commands`, in id order: what progress(), launchCount(), summary() (without the recorder's
// totals), programs(), apiTotals() and apiCallRecords() need of it. Rows are only ever added (and a late
// command's device times written once), so the pass goes on from the last row it read when the file has
// changed (PRAGMA data_version) instead of starting again: a capture the recorder is writing costs each read
// what it gained, not its millions of rows.
struct CommandScan
{
    std::int64_t dataVersion = -1; // of the snapshot it was last brought up to date in; -1: none made
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

    // Where the pass is, and what it looked up on the way (once per object, not per row).
    std::int64_t lastId = INT64_MIN;       // commands.id of the last row read
    std::int64_t lastKernelId = INT64_MIN; // kernels.id of the last kernel looked up
    std::int64_t lastQueueId = INT64_MIN;
    struct Kernel
    {
        std::optional<std::string> name; // kernels.name; none: no such kernel, or a NULL name
        std::uint64_t *launches = nullptr;
    };
    std::unordered_map<std::int64_t, Kernel> kernels; // node-based: Kernel* stay valid as it grows
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
        std::uint64_t given = 0; // the offset that the records given so far were mapped with (following)
        // Host ns to add to a device time of this queue.
        std::uint64_t hostOffset() const { return clock && !offsetNull ? std::uint64_t(offset) : 0; }
    };
    std::unordered_map<std::int64_t, Queue> queues;
    using GroupKey = std::tuple<std::int64_t, bool, std::int64_t, bool>; // type, NULL, kernel, NULL
    std::map<GroupKey, std::size_t> groupIndex;

    // Rows that succeeded with an event of their own but no device times yet: the recorder writes those
    // times later (an UPDATE) when they were late. Checked again on each pass; at most kMaxUntimed kept.
    struct Untimed
    {
        std::int64_t id = 0;
        std::size_t group = 0;
        Queue *queue = nullptr;
        std::int64_t hostStart = 0, duration = 0;
        bool durationNull = false, hostStartNull = false;
        std::uint64_t record = UINT64_MAX; // its number among the records given (following), or none
    };
    static constexpr std::size_t kMaxUntimed = 65536;
    std::deque<Untimed> untimed;

    // Following (CaptureReader::update()): the records of rows read since the last update, and how many
    // were given before.
    bool following = false;
    std::vector<CommandRecord> newRecords;
    std::vector<std::pair<std::int64_t, std::int64_t>> newOrder; // (process, seq) of each new record
    std::vector<Queue *> newQueues;
    std::vector<std::pair<CaptureUpdate::LateTimes, Queue *>> late; // device times until update()
    std::uint64_t recordsGiven = 0;
    std::size_t spansGiven = 0; // of `spans`
};

// One pass over `api_calls`, in id order, for apiTotals() and apiCallRecords(); kept as CommandScan is.
struct ApiScan
{
    std::int64_t dataVersion = -1;
    std::vector<CallTotals> functions; // per api (the entry point), in order of first call
    std::vector<HostSpan> spans;
    std::int64_t lastId = INT64_MIN;
    std::unordered_map<std::int64_t, std::uint32_t> byApi; // api_names.id -> functions index
    std::optional<std::uint32_t> nullApi;
    std::size_t spansGiven = 0; // following
};

} // namespace capture

namespace capture {

// Host spans as the timeline's records (on a lane per thread, "thread N"), each name and lane made once:
// "clEnqueueNDRangeKernel" from the enqueue's "ndrange-kernel", an API function's name as it is.
class SpanRecords
{
public:
    SpanRecords(const ApiScan &api, const CommandScan &commands);
    CommandRecord make(const HostSpan &span, bool enqueue);

private:
    const ApiScan &m_api;
    const CommandScan &m_commands;
    std::vector<std::optional<std::string>> m_apiNames, m_enqueueNames;
    std::unordered_map<std::int64_t, std::string> m_threads;
};

} // namespace capture

// A reader is used from one thread at a time: the scans are kept in it.
struct CaptureReader::Impl
{
    capture::Db db;
    capture::CommandScan commandScan;
    capture::ApiScan apiScan;
    std::size_t apiGiven = 0; // host spans given by update()

    explicit Impl(const std::string &path);

    // PRAGMA data_version (it changes when another connection commits): in a ReadSnapshot.
    std::int64_t dataVersion();
    bool haveCommandScan() { return commandScan.dataVersion == dataVersion(); }
    // In a ReadSnapshot: the pass over commands, brought up to date with what the file gained (following:
    // the new rows' records kept for update()).
    const capture::CommandScan &commands();
    // In a ReadSnapshot: a pass of its own over every command, the ones that succeeded put in `records` as
    // commandRecords() returns them; it becomes the kept pass unless the reader is following.
    void commandsWithRecords(std::vector<CommandRecord> &records);
    const capture::ApiScan &apiCalls();
};

} // namespace clscope
