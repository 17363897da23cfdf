// Profiling records: one CommandRecord per enqueued command (the runner fills them), the mapping of device
// timestamps to host time, timestamp sanity checks, per-kernel statistics, and export to Chrome trace event
// JSON (Perfetto, chrome://tracing) and CSV. Plain values only, so any part of the program can include it.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

struct PoolSample;

// ---- Records --------------------------------------------------------------------------------------------

// One command as the device (or, for host spans, the host) saw it. Timestamps are nanoseconds; for device
// commands they are CL_PROFILING_COMMAND_* values, ideally already mapped to host time with ClockMapping so
// that several devices and the host share one axis. 0 means "not reported".
struct CommandRecord
{
    enum class Type : std::uint8_t { Kernel, Read, Write, Copy, Fill, Map, Migrate, Build, Marker };

    Type type = Type::Kernel;
    std::string name;   // "vector_add", "read c"
    std::string queue;  // "queue 0"
    std::string device; // "pthread-skylake-avx512"
    std::uint64_t bytes = 0;
    std::array<std::size_t, 3> global{};
    std::array<std::size_t, 3> local{}; // all 0: the runtime chose
    int dims = 0;
    std::uint64_t queued = 0;
    std::uint64_t submit = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::optional<std::uint64_t> complete; // CL_PROFILING_COMMAND_COMPLETE (OpenCL 2.0+), when asked for
    std::uint64_t hostSubmitNs = 0;        // steady_clock when the host called clEnqueue*
    bool hostSpan = false;                 // a host activity (Build): start/end are steady_clock ns
    std::int64_t launch = -1;              // in a capture: the launch's index (commands.launch), else -1

    // end - start, or 0 when either is missing or they are out of order.
    std::uint64_t duration() const { return start != 0 && end >= start ? end - start : 0; }
    // Transfers (Read, Write, Copy, Fill, Map, Migrate) with bytes and a non-zero duration.
    bool hasBandwidth() const;
    // bytes / duration in GB/s (1e9 bytes per second, which is bytes per ns); 0 when !hasBandwidth().
    double gbPerSecond() const;
};

// "kernel", "read", "write", "copy", "fill", "map", "migrate", "build", "marker".
std::string_view typeName(CommandRecord::Type type);
std::optional<CommandRecord::Type> parseType(std::string_view name);
inline constexpr int kCommandTypeCount = 9;
bool isTransfer(CommandRecord::Type type);

// The host's pool counters at one instant (steady_clock ns), as drawn under the timeline and exported as
// Chrome trace counters.
struct PoolSeriesPoint
{
    std::uint64_t timestampNs = 0;
    std::uint64_t heldBytes = 0;
    std::uint64_t activeBytes = 0;
};
std::vector<PoolSeriesPoint> toPoolSeries(const std::vector<PoolSample> &samples);

// ---- Device time to host time ---------------------------------------------------------------------------

// host = device + offsetNs. A device clock and steady_clock tick at the same rate for the length of a run,
// so an offset is all that is kept; a fresh calibration per queue absorbs slow drift.
struct ClockMapping
{
    enum class Source : std::uint8_t {
        Identity,    // no mapping known: device time is taken as host time
        HostTimer,   // clGetDeviceAndHostTimer (OpenCL 2.1+ with a host timer)
        Calibration, // a marker's END bracketed by two host clock reads
    };
    Source source = Source::Identity;
    std::int64_t offsetNs = 0;
    std::uint64_t uncertaintyNs = 0; // half the bracket: the mapping is right to within this

    std::uint64_t toHost(std::uint64_t deviceNs) const;
    std::uint64_t toDevice(std::uint64_t hostNs) const;
};
std::string_view sourceName(ClockMapping::Source source); // "identity", "host-timer", "calibration"

// Host time now as ClockMapping maps to: std::chrono::steady_clock in ns.
std::uint64_t hostNowNs();

// Prefers clGetDeviceAndHostTimer when the platform is 2.1+ and reports a host timer resolution; otherwise
// enqueues markers on `queue` (which must have CL_QUEUE_PROFILING_ENABLE) and keeps the tightest bracket.
// Throws ClError when the queue cannot run a marker.
ClockMapping calibrate(cl_device_id device, cl_command_queue queue);
// The marker method alone (what calibrate falls back to); exposed so it can be tested on any device.
ClockMapping calibrateWithMarkers(cl_command_queue queue, int rounds = 5);
// Maps every device timestamp (not host spans, not zeros) of the records in place.
void mapToHost(std::vector<CommandRecord> &records, const ClockMapping &mapping);

// ---- Timestamp checks -----------------------------------------------------------------------------------

// What is odd about one record's timestamps. Some flags are normal on some drivers (Oclgrind reports
// SUBMIT = START; some drivers leave SUBMIT 0): those are notes, not errors.
struct StampIssues
{
    enum Flag : std::uint32_t {
        MissingQueued = 1u << 0,
        MissingSubmit = 1u << 1,
        MissingStart = 1u << 2,
        MissingEnd = 1u << 3,
        MissingComplete = 1u << 4, // complete asked for (present) but 0
        QueuedAfterSubmit = 1u << 5,
        SubmitAfterStart = 1u << 6,
        StartAfterEnd = 1u << 7,
        EndAfterComplete = 1u << 8,
        ZeroQueued = 1u << 9,      // queued == submit
        ZeroSubmitted = 1u << 10,  // submit == start
        ZeroRun = 1u << 11,        // start == end
        ZeroComplete = 1u << 12,   // end == complete
        OrderAcrossGap = 1u << 13, // out of order across a missing stage (queued > start, SUBMIT 0)
    };
    static constexpr int kFlagCount = 14;
    static constexpr std::uint32_t kErrors = MissingStart | MissingEnd | QueuedAfterSubmit |
                                             SubmitAfterStart | StartAfterEnd | EndAfterComplete |
                                             OrderAcrossGap;

    std::uint32_t mask = 0;

    bool has(Flag flag) const { return (mask & flag) != 0; }
    bool any() const { return mask != 0; }
    // Something that makes the record's times wrong, not merely unusual.
    bool isError() const { return (mask & kErrors) != 0; }
    bool operator==(const StampIssues &) const = default;
};

// Host spans are checked for start/end only. Out-of-order checks skip stages that are missing, and compare
// the neighbours around them instead (queued > start when SUBMIT is missing).
StampIssues checkTimestamps(const CommandRecord &record);
// One short line per flag: "submit = start (Oclgrind reports this)".
std::vector<std::string> issueTexts(StampIssues issues);
// The texts joined with "; ", or "" for none.
std::string describeIssues(StampIssues issues);

// ---- Statistics -----------------------------------------------------------------------------------------

// Durations (end - start) of one group of records. The standard deviation is the sample one (n - 1); 0 for
// fewer than two. Records whose start or end is missing or out of order are left out and counted in skipped.
struct DurationStats
{
    std::string name; // kernel name, or the type name for a by-type group
    CommandRecord::Type type = CommandRecord::Type::Kernel;
    std::uint64_t count = 0;
    std::uint64_t skipped = 0;
    std::uint64_t totalNs = 0;
    std::uint64_t minNs = 0;
    std::uint64_t maxNs = 0;
    double medianNs = 0;
    double meanNs = 0;
    double stddevNs = 0;
    std::uint64_t bytes = 0; // moved by the group (transfers)
    double gbPerSecond = 0;  // bytes / totalNs; 0 for non-transfers
};

// Fills count .. stddevNs from raw durations (the vector is reordered).
DurationStats summarize(std::vector<std::uint64_t> durations);

// One group per (type, name), in order of first appearance: each kernel by name, each transfer name.
std::vector<DurationStats> statsByName(const std::vector<CommandRecord> &records);
// Kernels only, one group per kernel name.
std::vector<DurationStats> statsByKernel(const std::vector<CommandRecord> &records);
// One group per command type that occurs, in Type order.
std::vector<DurationStats> statsByType(const std::vector<CommandRecord> &records);

// Equal-width bins over [minNs, maxNs] of the given durations; the last bin is closed.
struct DurationHistogram
{
    double minNs = 0;
    double binWidthNs = 0;
    std::vector<std::uint64_t> counts;
};
// bins 0 picks ceil(sqrt(n)) clamped to [5, 50].
DurationHistogram histogram(const std::vector<std::uint64_t> &durations, int bins = 0);

// ---- Export ---------------------------------------------------------------------------------------------

struct ChromeTraceOptions
{
    bool stages = false; // queued->submit, submit->start, start->end slices on "stages" tracks
    bool args = true;    // every record field in each slice's args
    // Timestamps are written relative to this (ns); empty: the earliest timestamp in the trace. Keeps
    // microsecond doubles at nanosecond precision whatever the device's epoch.
    std::optional<std::uint64_t> originNs;
};

// The Chrome trace event format in its object form ({"traceEvents": [...], "displayTimeUnit": "ns"}): one
// process per device (plus "Host" for host spans and "Memory pool" for counters), one thread per queue,
// an X slice per command with dur = end - start exactly (microseconds with three decimals).
void writeChromeTrace(std::ostream &out, const std::vector<CommandRecord> &records,
                      const ChromeTraceOptions &options = {}, const std::vector<PoolSeriesPoint> &pool = {});
std::string chromeTraceJson(const std::vector<CommandRecord> &records, const ChromeTraceOptions &options = {},
                            const std::vector<PoolSeriesPoint> &pool = {});
// Throws std::runtime_error naming the path when the file cannot be written.
void writeChromeTrace(const std::string &path, const std::vector<CommandRecord> &records,
                      const ChromeTraceOptions &options = {}, const std::vector<PoolSeriesPoint> &pool = {});

// RFC 4180 CSV: a header line, then one row per record; CRLF line ends; fields with a comma, quote or line
// break are quoted with quotes doubled.
inline constexpr std::array<std::string_view, 20> kCsvColumns = {
    "index",          "type",      "name",        "queue",     "device",   "bytes",     "dims",
    "global",         "local",     "queued_ns",   "submit_ns", "start_ns", "end_ns",    "complete_ns",
    "host_submit_ns", "host_span", "duration_ns", "gb_per_s",  "issues",   "issue_mask"};
void writeCsv(std::ostream &out, const std::vector<CommandRecord> &records);
std::string csvText(const std::vector<CommandRecord> &records);
void writeCsv(const std::string &path, const std::vector<CommandRecord> &records);
// Quotes one field when RFC 4180 requires it.
std::string csvField(std::string_view text);
// "1024x64" for dims = 2; "" when dims = 0 or the sizes are all 0 (local chosen by the runtime).
std::string ndRangeText(const std::array<std::size_t, 3> &sizes, int dims);

// ---- Synthetic data -------------------------------------------------------------------------------------

// `count` plausible records over devices x queuesPerDevice lanes (kernels and transfers back to back per
// queue, a few host build spans), deterministic for a seed. For benchmarks, screenshots and tests.
std::vector<CommandRecord> syntheticRecords(std::size_t count, int devices = 2, int queuesPerDevice = 4,
                                            std::uint32_t seed = 1);
// A pool held/active series that follows the synthetic records' transfers.
std::vector<PoolSeriesPoint> syntheticPoolSeries(const std::vector<CommandRecord> &records,
                                                 std::size_t points = 2000);

} // namespace clscope
