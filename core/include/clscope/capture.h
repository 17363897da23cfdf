// Captures of other programs (docs/capture-format.md): the SQLite capture file, its writer (the recorder,
// fed by the stream of libclscope-layer.so), its reader, the summary that capture and capture-info print,
// and the replay of one captured launch on any device.
#pragma once

#include "clscope/build.h"
#include "clscope/error.h"
#include "clscope/kernelargs.h"
#include "clscope/profile.h"

#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clscope {

namespace capture {
class CaptureTarget;
}

// A capture file that cannot be created, opened or read, named with the reason. A Failure: the commands
// that open a capture the user names say when that is bad usage.
class CaptureError : public Error
{
public:
    explicit CaptureError(const std::string &message)
        : Error(message)
    {}
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
    void feedRecords(const unsigned char *data, std::size_t size);
    struct Impl;
    std::unique_ptr<Impl> d;
};

// ---- Recording a program (what `clscope-cli capture` and the GUI's Profile application share) -----------

// Which launches keep their buffer contents (for replay).
struct CaptureContents
{
    bool all = false;
    std::vector<std::string> kernels;
    std::vector<std::int64_t> launches;
    std::optional<std::uint64_t> budget; // bytes of contents at most
    bool any() const { return all || !kernels.empty() || !launches.empty(); }
};

// Which commands the program passed no event for get device timestamps (an event of the layer's each):
// every one (1, the default), one in N of each thread's, or none (0: only the program's own events time
// commands). An event costs some drivers more than the rest of the layer: NVIDIA's about 8 us per launch.
struct CaptureTimestamps
{
    std::uint32_t every = 1;
    // "all", "program" or N; throws CaptureError for anything else.
    static CaptureTimestamps parse(const std::string &text);
    std::string text() const; // as parse takes it
};

// The command as a shell would take it back: words with spaces or quotes in single quotes.
std::string joinCommandLine(const std::vector<std::string> &args);

// libclscope-layer.so: $CLSCOPE_LAYER, else next to the executable in `executableDir` (the build tree),
// else the package's PREFIX/LIBDIR/clscope beside PREFIX/bin, else the install folder. Throws
// CaptureError naming where it looked.
std::string findCaptureLayer(const std::string &executableDir);

// One recording: the capture file, and the socket the program's layer streams into. The program is started
// by the caller (fork/exec, QProcess) with environment() set and programFd() inherited (clear its
// FD_CLOEXEC in the child); record() then runs on a thread of the caller's until the stream ends.
class CaptureRecording
{
public:
    struct Variable
    {
        std::string name;
        std::optional<std::string> value; // none: unset it
        bool overwrite = true;            // false: only when the program's environment lacks it
    };

    // Creates the stream's socket, takes the output's lock and creates the temporary file the capture is
    // written to (beside the output; finish() renames it into place, so the file that is there stays until
    // the new one is complete). Throws CaptureError: a folder, a file that is not a CLScope capture (unless
    // `force`), a file another capture is writing, a folder that cannot be written.
    CaptureRecording(const std::string &output, const std::string &layer, const std::string &command,
                     const CaptureContents &contents, CaptureTimestamps timestamps = {}, bool force = false);
    ~CaptureRecording();
    CaptureRecording(const CaptureRecording &) = delete;
    CaptureRecording &operator=(const CaptureRecording &) = delete;

    // OPENCL_LAYERS (ours first, before the layers `currentLayers` names), the stream, the contents asked
    // for.
    std::vector<Variable> environment(const std::string &currentLayers) const;
    int programFd() const { return m_programFd; }
    // After the program started: closes this process' copy of its end, so the stream ends with the program.
    void programStarted();
    // Creates the capture file: its tables, the command and the layer. Throws CaptureError. A caller that
    // opens the file while the program runs (the GUI) calls it before starting the program; otherwise
    // record() does, while the program starts (the layer's stream waits in the socket meanwhile).
    void createFile();
    // Reads the stream into the file until it ends (the program, and whatever inherited the socket, closed
    // it): after programExited, a descendant that still holds it gets two quiet seconds. Yields the CPU to
    // the program. Returns early, with error(), when the file cannot be written.
    void record(const std::atomic<bool> &programExited);
    // Asks record() to return within 100 ms (the program goes on without its layer's stream).
    void stop() { m_stop.store(true); }
    // The end: the exit status (none when unknown), times, everything committed, and the file renamed into
    // place as output(). A recording destroyed without finish() (the program could not be started) leaves
    // the output as it was.
    void finish(std::optional<int> exitStatus);

    const std::string &output() const { return m_output; }
    // The file being written until finish() (a reader follows the capture live there).
    std::string writingPath() const;
    const std::string &error() const { return m_error; }
    // The file lacks part of what the program did: it could not be written (a full disk), or the stream
    // broke. It holds what was recorded before, as a valid capture.
    bool incomplete() const { return m_incomplete; }
    std::uint64_t bytesReceived() const { return m_bytes.load(); }

private:
    std::string m_output;
    std::unique_ptr<capture::CaptureTarget> m_target; // the lock, the temporary file, the reserve
    std::unique_ptr<CaptureWriter> m_writer;
    std::string m_layer;
    std::string m_command;
    CaptureTimestamps m_timestamps;
    std::uint64_t m_startedNs = 0;
    CaptureContents m_contents;
    int m_fd = -1;        // ours
    int m_programFd = -1; // the program's end
    std::string m_error;
    std::atomic<std::uint64_t> m_bytes{0};
    std::atomic<bool> m_stop{false};
    bool m_incomplete = false;
};

// ---- Reading ------------------------------------------------------------------------------------------

// A kernel of a capture: its name and its program's sources and build options. Programs created again from
// byte-identical sources and built with the same options are one (pyopencl's transpose.py creates 144
// programs from two sources): `program` is the first of them (programs.id; 0 when the file does not say).
struct CaptureKernelTotal
{
    std::string name;
    // The name, or "name (program N)" when kernels of that name come from programs of other sources or
    // options.
    std::string label;
    std::int64_t program = 0;
    std::vector<std::int64_t> contentLaunches; // its launches whose contents were recorded (before), in order
    std::int64_t firstLaunch = -1;             // its first launch (commands.launch)
    std::uint64_t launches = 0;
    std::uint64_t totalNs = 0; // device time, end - start, of the timed launches
    std::uint64_t timed = 0;   // launches with device times (all but with capture --timestamps N or program)
};

struct CaptureTransferTotal
{
    std::string type; // "read", "write", "copy", "fill", "map", "migrate"
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::uint64_t totalNs = 0; // of the timed commands
    std::uint64_t timed = 0;
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
    std::string timestamps = "all";              // CaptureTimestamps::text() of the capture
    std::vector<CaptureKernelTotal> kernels;     // by total device time, longest first
    std::vector<CaptureTransferTotal> transfers; // by type
    std::vector<CaptureContextMemory> memory;    // per context
    // Values of the file that failed the reader's checks (naming table, row and field), left out above.
    std::vector<std::string> problems;
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
    // The first value of the launch's records that failed the reader's checks, naming the table, row and
    // field ("launch 3: commands row 7: global_x -1 is not a size of 1 or more"); empty when all passed.
    // replayBlocker() gives it first: such a launch is listed but never replayed nor exported.
    std::string problem;
};

// What a capture holds so far (read while the recorder still writes: the progress line of a live capture).
struct CaptureProgress
{
    std::uint64_t commands = 0;
    std::uint64_t launches = 0;
    std::uint64_t apiCalls = 0;
    std::uint64_t memObjects = 0;
    std::uint64_t contentBytes = 0; // launch argument contents recorded
    std::uint64_t droppedRecords = 0;
    bool complete = false; // the layer shut down cleanly
};

// One memory object from its create to its release: the Device memory view's lifetime bar.
struct CapturedBuffer
{
    std::int64_t id = 0;      // mem_objects.id
    std::int64_t context = 0; // contexts.id
    std::string kind;         // "buffer", "sub-buffer", "image2d", "svm", ...
    std::uint64_t flags = 0;
    std::uint64_t size = 0;
    std::int64_t parent = 0; // sub-buffers: the parent's id
    std::uint64_t createdNs = 0;
    std::optional<std::uint64_t> releasedNs; // none: still alive when the capture ended
    std::vector<std::string> kernels;        // the kernels launched with it as an argument, by name
    std::uint64_t launches = 0;              // launches that used it
};

// Live bytes of one context's allocations over time (sub-buffers share their parent's memory).
struct CaptureContextSeries
{
    std::int64_t context = 0;
    std::string devices; // device names, ", "-separated
    std::vector<PoolSeriesPoint> series;
};

struct CapturedBuildLog
{
    std::string device; // CL_DEVICE_NAME
    int status = 0;     // CL_BUILD_SUCCESS, CL_BUILD_ERROR, ...
    std::string log;
};

struct CapturedBuild
{
    std::string op; // "build", "compile", "link"
    std::string options;
    int result = 0; // the cl_int the call returned
    std::uint64_t durationNs = 0;
    std::vector<CapturedBuildLog> logs;
};

struct CapturedProgram
{
    std::int64_t id = 0;
    std::int64_t context = 0;
    std::string kind;                 // "source", "binary", "il", "built-in", "linked"
    std::vector<std::string> sources; // as created (source strings, or IL / binaries as bytes)
    std::vector<CapturedBuild> builds;
    std::vector<std::string> kernels; // kernel objects created from it, by name, once each
    std::uint64_t launches = 0;
};

// Each program's first program (by id) of the same kind, byte-identical sources and the same build options
// in the same order: what makes two programs one kernel's (CaptureKernelTotal).
std::map<std::int64_t, std::int64_t> sameSourcePrograms(const std::vector<CapturedProgram> &programs);

// Every call of one OpenCL function: how often, how long on the calling thread, how many failed.
struct CaptureApiTotal
{
    std::string name; // "clCreateBuffer", "clEnqueueNDRangeKernel", ...
    std::uint64_t calls = 0;
    std::uint64_t failed = 0; // returned an error
    std::uint64_t totalNs = 0;
    std::uint64_t maxNs = 0;
};

// What a capture file gained since a reader's last update(): a reader follows a capture that the recorder
// is still writing without reading it again (the window's live views; a read costs what the file gained).
// Commands are numbered across updates in the order given (0, 1, ...).
struct CaptureUpdate
{
    // The commands that succeeded, host clock, in enqueue order within the update (a command whose
    // timestamps came late may follow later ones of an earlier update).
    std::vector<CommandRecord> commands;
    // The API calls (the enqueues included) as host spans on lanes per thread, in start order; at most the
    // limit given to update() in all: the ones over it are counted in apiCallsLeftOut.
    std::vector<CommandRecord> apiCalls;
    std::uint64_t apiCallsLeftOut = 0;
    // Queues whose device clock maps to host time anew (a narrower enqueue bracket pinned it): add deltaNs
    // to each non-zero device time of the queue's commands given before.
    struct ClockShift
    {
        std::string queue; // CommandRecord::queue
        std::int64_t deltaNs = 0;
    };
    std::vector<ClockShift> clockShifts;
    // Commands given before without device times whose times have come since (host clock).
    struct LateTimes
    {
        std::uint64_t command = 0; // its number
        std::uint64_t queued = 0, submit = 0, start = 0, end = 0;
    };
    std::vector<LateTimes> late;

    // Moves the `given` commands given before (command(n) is number n) as this update says: clock shifts,
    // then late times. The update's own commands are given after them.
    void applyTo(std::uint64_t given, const std::function<CommandRecord &(std::uint64_t)> &command) const;
};

class CaptureReader
{
public:
    // Opens read-only; throws CaptureError when the file is missing, not SQLite, or of another schema.
    explicit CaptureReader(const std::string &path);

    // While one lives, the reader's calls read one snapshot of the file that a recorder may be writing:
    // what they read agrees, and the passes they share are brought up to date once (else each call reads
    // the file as it is then). Use the reader from this thread only meanwhile.
    class Snapshot
    {
    public:
        explicit Snapshot(const CaptureReader &reader);
        ~Snapshot();
        Snapshot(const Snapshot &) = delete;
        Snapshot &operator=(const Snapshot &) = delete;

    private:
        struct Hold;
        std::unique_ptr<Hold> m_hold;
    };
    ~CaptureReader();
    CaptureReader(const CaptureReader &) = delete;
    CaptureReader &operator=(const CaptureReader &) = delete;

    CaptureSummary summary() const;
    // Every command, its device timestamps mapped to host time (per queue, from the enqueue calls that
    // bracket CL_PROFILING_COMMAND_QUEUED), in enqueue order.
    std::vector<CommandRecord> commandRecords() const;
    // Device memory over time (bytes live per context, all contexts summed) as a counter series.
    std::vector<PoolSeriesPoint> memorySeries() const;
    // Throws CaptureError naming the launch when there is none with that index. Every value is checked
    // against the schema and the other records (sizes, kinds, what the arguments name, contents' lengths
    // against the objects' sizes); a launch that fails says why in `problem`.
    CapturedLaunch launch(std::int64_t index) const;
    std::int64_t launchCount() const;

    CaptureProgress progress() const;
    // Every memory object, in creation order.
    std::vector<CapturedBuffer> buffers() const;
    // Live bytes per context over time.
    std::vector<CaptureContextSeries> memoryByContext() const;
    std::vector<CapturedProgram> programs() const;
    // Per OpenCL function (the enqueue calls included), by total time, longest first.
    std::vector<CaptureApiTotal> apiTotals() const;
    // The API calls as host spans on one lane per thread ("thread N" in queue), host clock; at most `limit`
    // (the longest when there are more), in start order.
    std::vector<CommandRecord> apiCallRecords(std::size_t limit = 200000) const;
    // The launches whose buffer contents were recorded (before the launch), in order.
    std::vector<std::int64_t> launchesWithContents() const;
    // Each launch's program (programs.id of its kernel object): kernels of one name from several programs
    // (pyopencl's transpose.py builds three "transpose") are different kernels.
    std::map<std::int64_t, std::int64_t> launchPrograms() const;

    // The first call: every command that succeeded and the API calls, as commandRecords() and
    // apiCallRecords(apiLimit) give them; then what the file gained since (see CaptureUpdate). The other
    // calls keep working meanwhile, each brought up to date with the file.
    CaptureUpdate update(std::size_t apiLimit = 200000);
    // The file was renamed into place at the recorder's end (CaptureRecording::finish()): reads go on from
    // `path`, where the passes carry on from where they were. Throws CaptureError when it is not a capture,
    // or has fewer rows than were read (another file); the reader is unchanged then.
    void followRename(const std::string &path);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The summary as capture and capture-info print it, and as one JSON document.
void printSummary(std::ostream &out, const CaptureSummary &summary);
std::string summaryJson(const CaptureSummary &summary, int indent = 2);

// ---- A workbench run as a capture ----------------------------------------------------------------------

class RunResult;

// Saves a run (made with RunOptions::keepContents) as a capture file, through the same stream records and
// CaptureWriter as a captured program: its device, context, queue, memory objects, program from its source
// and build options, kernel and arguments, every command with its timestamps, the buffers' contents before
// the first launch and after the last. capture-info, the GUI and replay take it as any capture: a run of
// one launch replays as launch 0, a run of N (repeat) as the range 0-(N-1). `command` is what the capture
// says made it. Throws CaptureError.
void writeRunCapture(const std::string &path, const RunResult &run, const BuildResult &build,
                     cl_device_id device, const std::string &command);

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
    double maxAbsDifference = 0;                  // over the finite components (compare.h)
};

struct ReplayResult
{
    std::int64_t launch = 0;
    std::string kernel;
    std::string capturedDevice;
    std::string device;
    std::uint64_t durationNs = 0; // of the replayed launch on the device
    std::vector<ReplayOutput> outputs;
    // In a range: the arguments whose buffers were set from their captured "before" because the program
    // had changed them between the launches (the capture's "before" differs from what the range's last
    // launch left there, as captured).
    std::vector<std::uint32_t> reloaded;
    bool equal() const;
};

// Rebuilds the launch's program from its captured sources and options on `device`, binds the captured
// arguments (buffers from their "before" contents), runs it once, and compares every buffer that has
// "after" contents, as its element type with `tolerance` (absolute, for floating types). Throws
// CaptureError when the launch lacks what replay needs (no contents, a kind of argument it cannot
// rebuild), BuildInputError / ClError when the device fails.
// Why the launch cannot be replayed (from its captured source, with every argument rebuilt), naming the
// capture option that would have kept what is missing; empty when it can be.
std::string replayBlocker(const CapturedLaunch &launch);

ReplayResult replayLaunch(const CapturedLaunch &launch, cl_device_id device, double tolerance = 0);
std::string replayJson(const ReplayResult &result, int indent = 2);

// A replay's verdict in the one wording that clscope-cli replay and the Capture panel's Replay tab share:
// the argument, "argument 2 (res_g)" (its name where known); one output, "equal" or "differs at element 17:
// expected nan, got 1 (largest difference 0.5)"; a whole launch, "equal", each differing output as
// "argument 2 (res_g) differs at element ..." joined by "; ", or, when no buffer had "after" contents,
// "nothing compared: no buffer has captured \"after\" contents". Numbers as printf's %g writes them.
std::string replayArgumentName(const ReplayOutput &output);
std::string replayVerdict(const ReplayOutput &output);
std::string replayVerdict(const ReplayResult &result);

// A range of launches in their order, in one context on `device`, the way one launch is (replayLaunch is a
// range of one): each program built once, each buffer created from its captured "before" at its first
// launch and then left on the device, so that what one launch writes is what the next reads (a ping-pong
// pipeline runs as it ran); a buffer the program changed between two launches (its captured "before"
// differs from the capture's "after" of the launch before) is set from the capture first. Every buffer
// with "after" contents is compared after its launch, so the first launch that differs is the one where
// the devices diverge. Only a buffer's first launch in the range needs "before" contents. Sub-buffers are
// objects of their own (one that overlaps a buffer of the range does not share its contents).
std::vector<ReplayResult> replayLaunches(const std::vector<CapturedLaunch> &launches, cl_device_id device,
                                         double tolerance = 0);
std::string replayBlocker(const std::vector<CapturedLaunch> &launches);
// {"first", "last", "equal", "first_differing_launch" (null when all are equal), "launches": [replayJson's
// object of each]}
std::string replayJson(const std::vector<ReplayResult> &results, int indent = 2);

// A captured launch as the workbench (and clscope-cli run) takes it: the arguments in the CLI's --arg forms,
// each buffer initialised from a file holding its "before" contents, and the file of its "after" contents
// to compare the result with.
struct WorkbenchLaunch
{
    std::string kernel;
    std::vector<std::string> sources;
    std::string options;
    std::vector<std::string> args;     // "a=buffer:float:1024:file=DIR/arg0_before.npy", "n=uint:1024"
    std::string global, local, offset; // "1024,768"; local empty when the driver chose
    struct Expected
    {
        std::string buffer;   // the argument's name
        std::string path;     // DIR/argN_after.npy
        bool written = false; // the launch changed it (after differs from before)
    };
    std::vector<Expected> expected;
};

// The element type of a pointer argument as the driver or source spells it ("const float4*",
// "__global uint *"): bytes of one uchar when it is not a number type (a struct, void).
ElementType pointeeElementType(std::string_view typeName);

// Writes the contents into `directory` (created) and names the arguments as `args` (the kernel's
// signature, from the build or the source) does. Throws CaptureError with replayBlocker()'s reason, or when
// the signature does not match the launch's arguments.
WorkbenchLaunch workbenchLaunch(const CapturedLaunch &launch, const std::vector<KernelArg> &args,
                                const std::string &directory);

// Writes a standalone pyopencl reproduction of the launch into `directory` (created): kernel.cl,
// argN_before.npy inputs, argN_after.npy expected outputs, and replay.py, which exits 1 naming the first
// differing element. Throws CaptureError when the launch lacks what it needs (as replayLaunch).
void exportPyopencl(const CapturedLaunch &launch, const std::string &directory);

} // namespace clscope
