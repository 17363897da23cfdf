// Captures of other programs (docs/capture-format.md): the SQLite capture file, its writer (the recorder,
// fed by the stream of libclscope-layer.so), its reader, the summary that capture and capture-info print,
// and the replay of one captured launch on any device.
#pragma once

#include "clscope/profile.h"

#include <CL/cl.h>

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clscope {

// A capture file that cannot be created, opened or read, named with the reason.
class CaptureError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// PRAGMA user_version of the files this build writes and reads.
inline constexpr int kCaptureSchemaVersion = 1;

// ---- Writing (the recorder) ---------------------------------------------------------------------------

class CaptureWriter
{
public:
    // Creates the file (replacing one that is there) with the schema. Throws CaptureError.
    explicit CaptureWriter(const std::string &path);
    ~CaptureWriter();
    CaptureWriter(const CaptureWriter &) = delete;
    CaptureWriter &operator=(const CaptureWriter &) = delete;

    void setMeta(const std::string &key, const std::string &value);
    // Bytes of the layer's stream, in any chunking; complete records are written, the rest kept for later.
    // Commits every few milliseconds, so that a reader (or a crash of the recorder) sees recent commands.
    void feed(const unsigned char *data, std::size_t size);
    // The stream ended: a partial last record is counted as truncated, everything is committed.
    void finish();

    std::uint64_t records() const;
    std::uint64_t truncatedBytes() const; // of a last record the program did not finish sending

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// ---- Reading ------------------------------------------------------------------------------------------

struct CaptureKernelTotal
{
    std::string name;
    std::uint64_t launches = 0;
    std::uint64_t totalNs = 0; // device time, end - start
};

struct CaptureTransferTotal
{
    std::string type; // "read", "write", "copy", "fill", "map", "migrate"
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::uint64_t totalNs = 0;
};

struct CaptureContextMemory
{
    std::int64_t context = 0; // contexts.id
    std::string devices;      // device names, ", "-separated
    std::uint64_t peakBytes = 0;
    std::uint64_t objects = 0;
};

struct CaptureSummary
{
    std::string program; // the command line
    std::optional<int> exitStatus;
    bool complete = false; // the layer shut down cleanly (an End record)
    std::uint64_t apiCalls = 0;
    std::uint64_t commands = 0;
    std::uint64_t launches = 0;
    std::uint64_t programs = 0;
    std::uint64_t kernelObjects = 0;
    std::uint64_t memObjects = 0;
    std::uint64_t droppedRecords = 0;
    std::uint64_t contents = 0;                  // launch argument contents recorded
    std::vector<CaptureKernelTotal> kernels;     // by total device time, longest first
    std::vector<CaptureTransferTotal> transfers; // by type
    std::vector<CaptureContextMemory> memory;    // per context
};

// One argument of a captured launch, with its contents when they were recorded.
struct CapturedArg
{
    std::uint32_t index = 0;
    std::string kind; // "value", "mem", "local", "svm", "sampler", "null"
    std::uint64_t size = 0;
    std::vector<unsigned char> value; // the clSetKernelArg bytes (values, samplers' properties)
    std::int64_t mem = 0;             // mem_objects.id for "mem"
    std::uint64_t memSize = 0;
    std::uint64_t memFlags = 0;
    std::string memKind; // "buffer", "sub-buffer", "image", ...
    bool hasBefore = false, hasAfter = false;
    std::string beforeState, afterState; // "captured", "over-budget", "not-a-buffer", "read-failed", ""
    std::vector<unsigned char> before, after;
};

struct CapturedLaunch
{
    std::int64_t index = 0;
    std::string kernel;
    std::string programKind;          // "source", "binary", "il", "built-in", "linked"
    std::vector<std::string> sources; // source strings (or the IL / binaries as bytes)
    std::string options;              // of the last successful build of the program
    std::string device;               // CL_DEVICE_NAME of the queue's device
    int dims = 0;
    std::vector<std::size_t> global, local, offset; // local empty: the driver chose
    std::vector<CapturedArg> args;
};

class CaptureReader
{
public:
    // Opens read-only; throws CaptureError when the file is missing, not SQLite, or of another schema.
    explicit CaptureReader(const std::string &path);
    ~CaptureReader();
    CaptureReader(const CaptureReader &) = delete;
    CaptureReader &operator=(const CaptureReader &) = delete;

    CaptureSummary summary() const;
    // Every command, its device timestamps mapped to host time (per queue, from the enqueue calls that
    // bracket CL_PROFILING_COMMAND_QUEUED), in enqueue order.
    std::vector<CommandRecord> commandRecords() const;
    // Device memory over time (bytes live per context, all contexts summed) as a counter series.
    std::vector<PoolSeriesPoint> memorySeries() const;
    // Throws CaptureError naming the launch when there is none with that index.
    CapturedLaunch launch(std::int64_t index) const;
    std::int64_t launchCount() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The summary as capture and capture-info print it, and as one JSON document.
void printSummary(std::ostream &out, const CaptureSummary &summary);
std::string summaryJson(const CaptureSummary &summary, int indent = 2);

// ---- Replay -------------------------------------------------------------------------------------------

struct ReplayOutput
{
    std::uint32_t arg = 0;
    std::string name; // the argument's name where the driver or source tells it
    std::string type; // element type compared ("float", "uchar", ...)
    std::uint64_t elements = 0;
    bool equal = true;
    std::optional<std::uint64_t> firstDifference; // element index
    double expected = 0, actual = 0;              // at firstDifference
    double maxAbsDifference = 0;
};

struct ReplayResult
{
    std::int64_t launch = 0;
    std::string kernel;
    std::string capturedDevice;
    std::string device;
    std::uint64_t durationNs = 0; // of the replayed launch on the device
    std::vector<ReplayOutput> outputs;
    bool equal() const;
};

// Rebuilds the launch's program from its captured sources and options on `device`, binds the captured
// arguments (buffers from their "before" contents), runs it once, and compares every buffer that has
// "after" contents, as its element type with `tolerance` (absolute, for floating types). Throws
// CaptureError when the launch lacks what replay needs (no contents, a kind of argument it cannot
// rebuild), BuildInputError / ClError when the device fails.
ReplayResult replayLaunch(const CapturedLaunch &launch, cl_device_id device, double tolerance = 0);
std::string replayJson(const ReplayResult &result, int indent = 2);

// Writes a standalone pyopencl reproduction of the launch into `directory` (created): kernel.cl,
// argN_before.npy inputs, argN_after.npy expected outputs, and replay.py, which exits 1 naming the first
// differing element. Throws CaptureError when the launch lacks what it needs (as replayLaunch).
void exportPyopencl(const CapturedLaunch &launch, const std::string &directory);

} // namespace clscope
