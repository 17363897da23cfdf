// Shared pieces of clscope-cli: the options every subcommand takes, exit codes, and error printing.
#pragma once

#include "clscope/build.h"
#include "clscope/devicespec.h"
#include "clscope/lineprofile.h"
#include "clscope/runner.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace clscope::cli {

// DESIGN.md: 0 success, 1 a failed build/run, 2 bad usage; and 3 when `run --check` ran the kernel and
// Oclgrind reported errors, or when `capture` could not keep all of what the program did (docs/cli.md).
enum ExitCode : int {
    ExitOk = 0,
    ExitFailed = 1,
    ExitUsage = 2,
    ExitCheckErrors = 3,
    ExitCaptureIncomplete = 3
};

// A clear one-line failure that maps to an exit code.
struct CliFailure
{
    int code;
    std::string message; // "": what went wrong has been printed already (a child's own words)
};

struct CommonOptions
{
    std::string device; // --device SPEC (else CLSCOPE_DEVICE, else the default device)
    bool json = false;  // --json
};

// Bad usage found before any driver is touched: a malformed --device/CLSCOPE_DEVICE spec, or an input
// file that is missing or not a regular file (an empty file: no file to check). Throws DeviceSpecError or
// CliFailure{ExitUsage}.
std::string checkUsage(const CommonOptions &opts, const std::string &file); // returns the effective spec

// What a program is built from: an OpenCL C file, SPIR-V (told by its magic number, not the file's name), a
// device binary (--binary) or the device's built-in kernels (--builtin NAMES, with no file).
// Several OpenCL C files make one program, as hosts pass several strings to clCreateProgramWithSource, or
// each compiled apart and linked (--link).
struct ProgramInput
{
    std::string file;               // the first of files ("" with --builtin)
    std::vector<std::string> files; // FILE [MORE...] as given
    bool binary = false;
    bool link = false;
    std::string builtins;
};
// The FILE... positional (described by fileHelp), --binary, --link and --builtin.
void addProgramInputOptions(CLI::App *sub, ProgramInput &in, const std::string &fileHelp);
// A FILE or --builtin, not both; one FILE with --binary; no --link with --binary or --builtin; every FILE a
// regular file. Throws CliFailure{ExitUsage}.
void checkProgramInput(const ProgramInput &in);
// A capture (clscope-cli capture) is an SQLite file, told by its header, not its name: false for anything
// else, and for what is not a regular file.
bool isCaptureFile(const std::string &path);
// Builds request's devices (one platform) from the input; OpenCL C through the binary cache.
// request.source, when set, is the file's text already read.
BuildResult buildProgramInput(const ProgramInput &in, BuildRequest request, const BinaryCache &cache);

// The launch that run and sweep take: the program, the kernel, its range and arguments, the build options
// (launchinput.cpp).
struct LaunchOptions
{
    CommonOptions common;
    ProgramInput input;
    std::string kernel;
    std::string global;
    std::string local;
    std::string offset;
    int repeat = 1; // run's --repeat, or the file's // clscope-run: line's
    std::vector<std::string> args;
    std::vector<std::string> prints;
    std::string options;
};
// FILE..., --kernel, --global, --local (localHelp), --offset, --arg, --options, --device and --json.
void addLaunchOptions(CLI::App *sub, LaunchOptions &opts, const std::string &localHelp);
// The "INIT: ..., Types: ..." part of run's and sweep's help.
std::string argumentHelp();
// Without --global and --arg the file's own `// clscope-run:` line for the kernel says how to run it.
// *source gets the file's text when it had to be read for its launch, so the build does not read it again.
void applyRunDirective(LaunchOptions &opts, std::string *source);
// The request's kernel, range, arguments and read-backs (--print), parsed: bad input is found before any
// driver is touched. repeat, build and device are left for the caller.
RunRequest launchRequest(const LaunchOptions &opts);
// Builds the launch's program for the device (source: the file's text when already read). A failed build
// shows what the compiler said on stderr and throws CliFailure naming the first diagnostic.
BuildResult buildForLaunch(const LaunchOptions &opts, const std::string &source, cl_device_id device);
// The start of run, sweep and roofline: the program input and the device spec checked (bad usage throws
// CliFailure), then the file's own launch applied (applyRunDirective). Returns the device spec.
std::string prepareLaunch(LaunchOptions &opts, std::string *source);
// The launch as `clscope-cli run` arguments (after the program name): files, kernel, ranges, --repeat,
// --arg, --print and --options; no --device (a child on Oclgrind picks it).
std::vector<std::string> runArguments(const LaunchOptions &opts);

// Adds --device and --json to a subcommand.
void addCommonOptions(CLI::App *sub, CommonOptions &opts);

// Set by a command that has begun writing its JSON document to stdout (pool replay streams one): an error
// after that ends the command's own document rather than adding a second {"error": ...} document.
bool &jsonDocumentStarted();

// run --check outside its child: runs `clscope-cli childArgs...` again in a child on Oclgrind with its
// checks on (core's CheckSession), prints the child's output with Oclgrind's diagnostics added (text lines,
// or the "check" object of the JSON) and returns the exit status.
struct CheckedRun
{
    std::vector<std::string> childArgs; // the run's arguments, --check included
    std::string file;                   // the .cl file, as diagnostics name it
    std::string deviceSpec;             // what --device / CLSCOPE_DEVICE asked for ("" when nothing)
    bool json = false;
    // roofline of a capture: a replay whose outputs differ on Oclgrind (exit 1) still counted its work, so
    // its profile is read; a signal or another status is a failure as before.
    bool countWhenOutputsDiffer = false;
    std::string sourceText = {}; // the file's text when it is not on disk (a captured program's sources)
    // --lines: the work-group budget (CheckSettings::sampleGroups; 0 runs every work-group).
    std::uint64_t sampleGroups = kDefaultSampleGroups;
};
int runUnderCheck(const CheckedRun &run);
// run --lines: the same child on Oclgrind with CLScope's line profiler (lineprofile.h) instead of the checks;
// prints the run's output, then each kernel's lines with what they executed.
int runWithLineProfile(const CheckedRun &run);
// The child of run --lines and what its plugin counted. A child that failed has printed what it said and
// throws CliFailure with its exit status; a profile that cannot be read throws Error.
struct ProfiledChild
{
    CheckChildResult child;
    LineProfile profile;
};
ProfiledChild profileLines(const CheckedRun &run);
// True in the child of runUnderCheck (CLSCOPE_CHECK_CHILD=1): the run happens in-process on Oclgrind.
bool isCheckChild();

// Each subcommand registers itself and sets the action run after parsing.
using Action = std::function<int()>;
void addInfoCommand(CLI::App &app, Action &action);
void addPoolCommand(CLI::App &app, Action &action);
void addBenchCommand(CLI::App &app, Action &action);
void addBuildCommand(CLI::App &app, Action &action);
// Devices grouped by platform, in selection order: one context (and one build) per platform.
std::vector<std::vector<SelectedDevice>> byPlatform(const std::vector<SelectedDevice> &devices);
// build --matrix (cmd_buildmatrix.cpp): every option set on every selected device.
struct MatrixOptions
{
    ProgramInput input;
    std::string deviceSpec;
    std::string baseOptions; // --options and the words after --, added to every set
    std::string sets;        // "-O0|-cl-fast-relaxed-math"
    bool json = false;
};
int runBuildMatrix(const MatrixOptions &opts);
// `build FILE... -- OPTIONS...`: the words after -- are the compiler's. FILE... would take them (a list takes
// every positional word), so they are named first: each becomes --compiler-option=WORD. Other commands'
// words are returned as they are.
std::vector<std::string> nameCompilerOptions(int argc, char **argv);
void addRunCommand(CLI::App &app, Action &action);
void addSweepCommand(CLI::App &app, Action &action);
void addCaptureCommand(CLI::App &app, Action &action); // capture, capture-info (cmd_capture.cpp)
void addReplayCommand(CLI::App &app, Action &action);  // replay, export (cmd_capture_replay.cpp)
void addRooflineCommand(CLI::App &app, Action &action);
void addDebugCommand(CLI::App &app, Action &action);
// The path of this executable (/proc/self/exe): what a checked or debugged child runs.
std::string selfExecutable();
// This process's environment as "NAME=VALUE" entries.
std::vector<std::string> currentEnvironment();

} // namespace clscope::cli
