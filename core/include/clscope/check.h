// Kernel checks with Oclgrind: runs on the Oclgrind simulator with its checks on (out-of-bounds and
// invalid accesses, data races, uninitialised values, work-group divergence, invalid API use), and its
// reports as diagnostics at the kernel's source lines, each a build.h Diagnostic plus the work-items
// involved, so that the GUI can show them as it shows build diagnostics.
//
// Why the checked run is a child process, not a run in the calling process: Oclgrind takes its options
// from environment variables (OCLGRIND_CHECK_API, OCLGRIND_DATA_RACES, OCLGRIND_UNINITIALIZED,
// OCLGRIND_LOG...). It reads them at every clCreateContext (tried: two contexts of one process, each
// after a setenv of OCLGRIND_LOG, log to two files), so an in-process run would need setenv right before
// the build, and setenv races with every getenv of the other threads of a GUI process. Oclgrind also
// counts its errors in a process-wide static (OCLGRIND_MAX_ERRORS would then span runs), truncates the
// log at each context, writes API errors to the process's stderr rather than to OCLGRIND_LOG, and need
// not be registered with the OpenCL loader at all (the loader reads its vendors once per process). A
// child with an environment of its own has none of these problems: CheckSession builds that environment
// (the OpenCL loader limited to Oclgrind, the checks on, the log in a private folder), starts the child
// with posix_spawn (which takes the environment as an argument; the caller's is never changed), and
// parses the log and the child's stderr after it ends. Every function here keeps no global state; a
// CheckSession may be used from any thread.
#pragma once

#include "clscope/build.h"
#include "clscope/runner.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// ---- Reports ----------------------------------------------------------------------------------------

enum class CheckKind {
    InvalidRead,   // "Invalid read of size 4 at global memory address ...", reads of write-only buffers
    InvalidWrite,  // "Invalid write of size 4 ...", writes to read-only buffers
    Unaligned,     // "Unaligned address on ..."
    DataRace,      // "Read-write data race at ...", "Write-write data race at ..."
    Uninitialized, // "Uninitialized value written to ...", "Uninitialized address used to ..."
    Divergence,    // "Work-group divergence detected (barrier)"
    Api,           // "Oclgrind - OpenCL runtime error detected": a call that returned an error
    Other,         // any other report; Oclgrind's own notes ("Oclgrind: 1000 errors generated ...")
};
// "invalid-read", "invalid-write", "unaligned", "data-race", "uninitialized", "divergence", "api", "other"
std::string_view checkKindName(CheckKind kind);

using WorkItemId = std::array<std::size_t, 3>;

// One work-item (or work-group) a report names, and where in the source it was.
struct CheckSite
{
    std::string role;   // "" for the one entity of most reports; "first", "second" for a race's two
    std::string entity; // as Oclgrind wrote it: "Global(3,0,0) Local(0,0,0) Group(3,0,0)"
    std::optional<WorkItemId> global;
    std::optional<WorkItemId> local;
    std::optional<WorkItemId> group;
    std::string file; // mapped like Diagnostic::file; "" when Oclgrind gave no location
    int line = 0;
    int column = 0;
    std::string sourceLine; // the text of that line, trimmed; "" when not known

    bool operator==(const CheckSite &) const = default;
};

// An invalid access whose address falls in or near a buffer argument of the checked run (nameBuffers).
struct CheckAccess
{
    bool write = false;
    std::uint64_t bytes = 0;        // the access's size
    std::string buffer;             // the argument's name
    std::string elementType;        // "float", "float4", a struct's name
    std::uint64_t elementCount = 0; // the buffer's elements
    std::uint64_t elementSize = 0;  // bytes of one
    std::int64_t index = 0;         // the element the access starts in: -1 before the start, elementCount
                                    // one past the end
    std::string oclgrindMessage;    // Oclgrind's own words, with the address

    bool operator==(const CheckAccess &) const = default;
};

struct CheckDiagnostic
{
    // At the first site that has a location (file "" and line 0 when none has, as for API errors).
    // message: the report's first line ("Invalid read of size 4 at global memory address 0x10"), with the
    // detail it announces ("Work-group divergence detected (barrier): Only 2 out of 4 work-items executed
    // barrier"); API errors as "clSetKernelArg returned CL_INVALID_ARG_SIZE: arg_size is 4, but ...".
    Diagnostic diagnostic;
    CheckKind kind = CheckKind::Other;
    std::string kernel;                // "" when the report names none (API errors)
    std::vector<CheckSite> sites;      // in the report's order
    std::vector<std::string> details;  // other lines of the report, in order
    int occurrences = 1;               // reports merged into this one (mergeCheckDiagnostics)
    std::optional<CheckAccess> access; // an invalid access in or near a buffer argument (nameBuffers)

    bool operator==(const CheckDiagnostic &) const = default;
};

// How to name and show the files Oclgrind reports.
struct CheckSources
{
    std::string sourceFile;              // the user's name of the main source (Oclgrind calls it input.cl)
    std::vector<std::string> knownFiles; // headers whose names look like driver aliases but are not
    // File texts by the name diagnostics give them (the main source under sourceFile). Source lines come
    // from here when the file is here: Oclgrind prints "(source not available)" for programs built from
    // a binary (the binary cache), and the main source's line for a line of a header.
    std::map<std::string, std::string, std::less<>> texts;
};

struct OclgrindOutput
{
    std::vector<CheckDiagnostic> diagnostics; // every report, in order, unmerged
    std::string rest;                         // the lines that belong to no report (other programs' output)
};

// Parses Oclgrind's messages: its log (OCLGRIND_LOG) or a stderr that mixes them with other output. A
// report is a first line followed by tab-indented lines that name a kernel, an entity, a work-group or an
// API function; "Oclgrind: ..." lines are notes. Driver aliases of the main source become
// sources.sourceFile unless they are among sources.knownFiles (as parseDiagnostics does).
OclgrindOutput parseOclgrindOutput(std::string_view text, const CheckSources &sources);

// Reports of one kind, kernel, location and message, memory addresses aside, become one with their
// count in occurrences: a race or an out-of-bounds access is reported for every work-item it happens in.
// The first report of each group is kept, in the order of first appearance. Accesses that nameBuffers
// named merge by kind, kernel, location and buffer. Of invalid reads and writes the report of the lowest
// work-item is kept, and its message names it and counts the others ("..., by work-item 1020, and 3 more
// work-items"): merge a list of reports once.
std::vector<CheckDiagnostic> mergeCheckDiagnostics(const std::vector<CheckDiagnostic> &diagnostics);

// ---- Buffers by name --------------------------------------------------------------------------------

// A buffer argument of the checked run, where Oclgrind put it: what maps an address of a report back to an
// argument. Oclgrind's global addresses carry a buffer number in their top bits and an offset below; the
// base address is not computed from that but asked of Oclgrind in the child (RunOptions::probeAddresses).
struct CheckedBuffer
{
    std::string name;
    std::uint64_t address = 0; // the pointer the kernel gets
    std::uint64_t bytes = 0;
    std::uint64_t count = 0; // elements
    std::string elementType;

    bool operator==(const CheckedBuffer &) const = default;
};

// Set by CheckSession in the child's environment: the file where the child (clscope-cli run --check) writes
// its buffers (checkedBuffersToJson) after the run.
inline constexpr const char *kCheckBuffersVariable = "CLSCOPE_CHECK_BUFFERS";

// The buffer arguments of a run made with RunOptions::probeAddresses whose address is known.
std::vector<CheckedBuffer> checkedBuffersOf(const RunResult &result);
// [{"name": "c", "address": 844424930131968, "bytes": 4096, "count": 1024, "type": "float"}]
std::string checkedBuffersToJson(const std::vector<CheckedBuffer> &buffers);
// The file is the child's, read as hostile input: anything but that form gives nothing, an entry without
// its fields or with an impossible size is left out. Never throws.
std::vector<CheckedBuffer> checkedBuffersFromJson(std::string_view text);

// Invalid reads and writes of global or constant memory ("Invalid write of size 4 at global memory address
// 0x3000000001000") whose address is in a buffer or near one (nearer than any other) gain an access and
// the message "write 4 bytes one past the end of c (1024 x float) at index 1024, by work-item 1023":
// "one past the end of c", "N elements past the end of c", "before the start of c", or "in c".
void nameBuffers(std::vector<CheckDiagnostic> &diagnostics, const std::vector<CheckedBuffer> &buffers);

struct CheckReport
{
    std::string platform = "Oclgrind";
    std::vector<CheckDiagnostic> diagnostics;

    // No diagnostic of severity Error (Oclgrind's notes do not count).
    bool clean() const;
    std::size_t errorCount() const;
};

// {"platform": "Oclgrind", "diagnostics": [{file, line, column, severity, message, kind, kernel, entity,
// source_line, occurrences, details, sites: [{role, entity, global, local, group, file, line, column,
// source_line}], buffer, index, element_type, element_count}], "clean": bool}. Work-item ids are arrays of
// 3 numbers, null when not known; buffer, index and the element's type and count are null unless the
// access was named (nameBuffers).
std::string checkReportToJson(const CheckReport &report, int indent = 2);

// "bugs.cl:8:14: error: Invalid read ...", then indented lines: the kernel and the entity, the other
// sites, the details, the source line. Location-less diagnostics start at "error:".
std::string formatCheckDiagnostic(const CheckDiagnostic &diagnostic);

// ---- The checked run --------------------------------------------------------------------------------

// No Oclgrind to run on. An Input error, like a --device that matches nothing: the device the check asks
// for is not there.
class CheckUnavailableError : public Error
{
public:
    explicit CheckUnavailableError(const std::string &message)
        : Error(message, ErrorCategory::Input)
    {}
};

// The value of NAME in an environment of "NAME=VALUE" entries (as environ or
// QProcessEnvironment::toStringList() give it); nothing when it is not set.
std::optional<std::string> environmentValue(const std::vector<std::string> &environment,
                                            std::string_view name);

// The Oclgrind ICD library: CLSCOPE_OCLGRIND_ICD when set (and then only it); else the library an .icd
// file names whose file or library name contains "oclgrind", looked for in OCL_ICD_VENDORS (a folder or
// an .icd file), OPENCL_VENDOR_PATH and /etc/OpenCL/vendors; else where Oclgrind's packages install it
// (/usr/lib/oclgrind, /usr/lib/<arch>, /usr/local/lib, /usr/lib64). Nothing when there is none.
std::optional<std::string> findOclgrindIcd(const std::vector<std::string> &environment);

struct CheckSettings
{
    bool apiChecks = true;     // OCLGRIND_CHECK_API
    bool dataRaces = true;     // OCLGRIND_DATA_RACES
    bool uninitialized = true; // OCLGRIND_UNINITIALIZED
    unsigned maxErrors = 0;    // OCLGRIND_MAX_ERRORS; 0: Oclgrind's default (1000)
    // The line profiler plugin's library (findLineProfiler in lineprofile.h), or "": Oclgrind loads it
    // (OCLGRIND_PLUGINS) and it counts into CheckSession::lineProfilePath() (CLSCOPE_LINE_PROFILE).
    std::string lineProfiler;
    // With a line profiler: a launch of more work-groups than this runs only this many, evenly spread, and
    // its counts are scaled (CLSCOPE_LINE_SAMPLE_GROUPS; lineprofile.h). 0: every work-group runs.
    std::uint64_t sampleGroups = 0;
};

// Set to "1" in the child's environment: a program that re-executes itself for the check (clscope-cli run
// --check) runs in-process when it finds it.
inline constexpr const char *kCheckChildVariable = "CLSCOPE_CHECK_CHILD";

// What a checked child left behind.
struct CheckChildResult
{
    int exitCode = -1;      // -1 when it did not exit (a signal ended it, or it could not start)
    int signal = 0;         // the signal that ended it, else 0
    bool cancelled = false; // stopped through the cancel flag (then signal is SIGTERM or SIGKILL)
    std::string out;        // its stdout
    std::string err;        // its stderr without Oclgrind's reports
    CheckReport report;     // Oclgrind's reports from the log and from stderr, merged
};

// A private folder (removed with the session) holding the Oclgrind-only vendors folder for the OpenCL
// loader and Oclgrind's log, and the environment of the child that runs there.
class CheckSession
{
public:
    // environment: the one the child inherits (the caller's, as "NAME=VALUE" entries). Throws
    // CheckUnavailableError when findOclgrindIcd finds nothing, std::runtime_error when the folder
    // cannot be made.
    explicit CheckSession(const std::vector<std::string> &environment, const CheckSettings &settings = {});
    ~CheckSession();
    CheckSession(const CheckSession &) = delete;
    CheckSession &operator=(const CheckSession &) = delete;

    const std::string &icd() const { return m_icd; }
    const std::filesystem::path &directory() const { return m_directory; }
    std::filesystem::path logPath() const { return m_directory / "oclgrind.log"; }
    std::filesystem::path buffersPath() const { return m_directory / "buffers.json"; }
    std::filesystem::path lineProfilePath() const { return m_directory / "lines.jsonl"; }

    // The inherited environment without the OpenCL loader's variables, the Oclgrind ones the session
    // sets, OCLGRIND_INTERACTIVE, OCLGRIND_QUICK, OCLGRIND_PLUGINS and CLSCOPE_DEVICE; then
    // OCL_ICD_VENDORS=<folder>/vendors (one oclgrind.icd; a folder works with ocl-icd and with the Khronos
    // loader), OCLGRIND_LOG, the checks of the settings, CLSCOPE_DEVICE=oclgrind, CLSCOPE_CHECK_CHILD=1 and
    // CLSCOPE_CHECK_BUFFERS (buffersPath); with a line profiler OCLGRIND_PLUGINS and CLSCOPE_LINE_PROFILE
    // (lineProfilePath) and CLSCOPE_LINE_SAMPLE_GROUPS (settings.sampleGroups) instead of
    // CLSCOPE_CHECK_BUFFERS. For posix_spawn, or QProcessEnvironment.
    const std::vector<std::string> &environment() const { return m_environment; }

    // Starts executable with args (argv[1..]) and environment(), stdin from /dev/null, stdout and stderr
    // to files of the folder; waits for it (setting *cancel stops it: SIGTERM, then SIGKILL after 2 s);
    // then parses Oclgrind's log and the child's stderr with sources (whose texts are completed with the
    // main source and every file a report names, read from disk). Throws std::runtime_error when the
    // child cannot be started. One run at a time per session: the log is the session's.
    CheckChildResult run(const std::string &executable, const std::vector<std::string> &args,
                         const CheckSources &sources,
                         const std::shared_ptr<const std::atomic<bool>> &cancel = {}) const;

    // The report of what the log holds now and of a child's stderr (run() uses it), with the accesses named
    // from the buffers the child left in buffersPath(); its rest goes to *restOfStderr when given.
    CheckReport collect(std::string_view childStderr, const CheckSources &sources,
                        std::string *restOfStderr = nullptr) const;

private:
    std::string m_icd;
    std::filesystem::path m_directory;
    std::vector<std::string> m_environment;
};

// The clscope-cli arguments (after the program name) that repeat a run under the check: "run FILE --kernel
// K --global ... [--local ...] [--offset ...] --repeat N --arg SPEC... --print NAME... [--options ...]
// --check --json". readBackAll prints every buffer argument named in request.args.
std::vector<std::string> checkRunArguments(const RunRequest &request, const std::string &sourcePath,
                                           const std::string &buildOptions);

// The clscope-cli arguments of the same launch's roofline on a device: "roofline FILE --kernel K --global ...
// --repeat N --arg SPEC... [--options ...] --device SPEC --json", with at least 10 timed launches (their
// median is the kernel's time) and no prints.
std::vector<std::string> rooflineArguments(const RunRequest &request, const std::string &sourcePath,
                                           const std::string &buildOptions, const std::string &deviceSpec);

} // namespace clscope
