// Each OpenCL driver (ICD) tried in a child process before this process loads any. A driver that crashes
// or hangs in clGetPlatformIDs or clGetDeviceInfo would take `clscope-cli info`, `run` and the GUI down
// with it (a hung one forever); tried in a child with a time limit, it is named and skipped, and the
// process carries on with the others (loaderenv.h points the loader at the good ones only).
//
// The child is `clscope-cli --probe-icd` with an environment whose loader sees that one driver: it lists
// every platform and device and reads every parameter of the info table, as `info` does (no context, no
// kernel). Every child starts at once and they share one deadline, so probing costs about as long as the
// slowest driver takes to list its devices (PoCL or Oclgrind: 40 to 150 ms each here).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// The argument that makes clscope-cli a probe child, and the variable the child gets (a child never
// probes again).
inline constexpr const char *kProbeArgument = "--probe-icd";
inline constexpr const char *kProbeChildVariable = "CLSCOPE_ICD_PROBE_CHILD";
// CLSCOPE_ICD_PROBE_TIMEOUT=SECONDS (a decimal number) sets the time limit; CLSCOPE_ICD_PROBE=0 turns the
// probe off; CLSCOPE_ICD_PROBE=PATH names the probe executable (else clscope-cli next to this process's
// executable).
inline constexpr const char *kProbeTimeoutVariable = "CLSCOPE_ICD_PROBE_TIMEOUT";
inline constexpr const char *kProbeVariable = "CLSCOPE_ICD_PROBE";
// Long enough for a healthy driver's first enumeration: CUDA's cold start takes seconds on hosts with
// many GPUs, and a driver wrongly called hung would hide a working GPU.
inline constexpr std::chrono::milliseconds kDefaultProbeTimeout{10000};

// One driver the loader would load.
struct IcdEntry
{
    // The .icd file that names the driver ("/etc/OpenCL/vendors/pocl.icd"), or the library itself when the
    // loader is given it directly (OCL_ICD_VENDORS=lib.so, OCL_ICD_FILENAMES, Oclgrind when unregistered).
    std::string file;
    std::string library; // the library the file names, its first line ("libpocl.so.2.10.0")
    std::string text;    // what the loader reads: the .icd file's contents, or the library and a newline
    bool fromFilenames = false; // listed in OCL_ICD_FILENAMES (the Khronos loader reads it, ocl-icd not)
    // Why the .icd file could not be read safely ("not a regular file (a FIFO)": the loader would block on
    // it); such a driver is skipped without a probe.
    std::string unreadable = {};
};

// The drivers the OpenCL loader loads in this environment ("NAME=VALUE" entries), by ocl-icd's rules:
// OCL_ICD_VENDORS a folder (its .icd files), an .icd file (looked for in OPENCL_VENDOR_PATH or
// /etc/OpenCL/vendors first when it has no slash) or a library; else the .icd files of OPENCL_VENDOR_PATH,
// else of /etc/OpenCL/vendors; then each library of OCL_ICD_FILENAMES (':'-separated). Folder entries are
// sorted by name.
std::vector<IcdEntry> loaderIcds(const std::vector<std::string> &environment);

enum class ProbeOutcome {
    Ok,      // the child listed the driver's platforms and devices (none is fine: not every .icd has any)
    Crashed, // the child died of a signal (SIGSEGV, SIGABRT, ...)
    Hung,    // the child did not end within the time limit and was killed
    Failed,  // the child exited with a status other than 0
    NotRun,  // no probe was made (no probe executable, no folder for it): the driver is kept
};

struct IcdProbe
{
    IcdEntry icd;
    ProbeOutcome outcome = ProbeOutcome::NotRun;
    int signal = 0;                       // Crashed
    int exitCode = 0;                     // Failed
    std::chrono::milliseconds timeout{0}; // Hung: the limit it ran past
    std::string detail;                   // Failed: the child's last line on stderr; NotRun: why
    std::string summary;                  // Ok: the child's line ("1 platform, 1 device")
    std::chrono::milliseconds elapsed{0};

    // Crashed, Hung or Failed: the process must not load it.
    bool skipped() const;
    // "crashed (SIGSEGV)", "did not answer within 10 s", "failed (exit status 1: ...)"; "" when not skipped.
    std::string reason() const;
    // "the OpenCL driver /etc/OpenCL/vendors/bad.icd (libbad.so) crashed (SIGSEGV) while listing its
    // devices; it was skipped"
    std::string message() const;
};

struct ProbeSettings
{
    std::string executable; // runs `executable --probe-icd`
    std::chrono::milliseconds timeout = kDefaultProbeTimeout;
};

// The time limit CLSCOPE_ICD_PROBE_TIMEOUT sets in this environment, else kDefaultProbeTimeout.
std::chrono::milliseconds probeTimeout(const std::vector<std::string> &environment);

// Probes every entry at once, each in a child whose loader sees only that entry (the rest of
// `environment` is passed on), and waits until all have ended or the time limit has passed (the rest are
// killed). Never throws: what cannot be probed is NotRun with the reason. One result per entry, in order.
std::vector<IcdProbe> probeIcds(const std::vector<IcdEntry> &icds,
                                const std::vector<std::string> &environment, const ProbeSettings &settings);

// The child's side (clscope-cli --probe-icd): lists every platform and device of this process's loader and
// reads each parameter of the info table, then prints one line ("1 platform, 1 device") and ends the
// process with status 0 (1 when something threw), without running exit handlers.
[[noreturn]] void runIcdProbe();

} // namespace clscope
