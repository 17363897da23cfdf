// A build from source compiled first in a child process (`clscope-cli build --request FILE`), so that a
// driver's compiler that crashes in spite of the large stack of its thread (compilerthread.h) takes the
// child down, not the calling process (the GUI). The child builds the very request the caller would (same
// source text, same file name and folder, same options, same devices, same environment), so its build fills
// the binary cache under the key the caller's build then looks up: that build hits and never runs the
// compiler. Where the cache cannot keep the program (CLSCOPE_NO_CACHE, headers the include scan cannot
// know, separate compilation) the child is a crash pre-flight only and the caller compiles again, as it
// does for SPIR-V and device binaries (never cached), whose build the driver's back end runs on bytes from
// a file: a damaged binary that makes the driver abort (PoCL asserts on a binary whose build hash was
// changed) takes the child down too.
#pragma once

#include "clscope/build.h"
#include "clscope/programsource.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

namespace clscope {

struct ChildCompile
{
    enum class Outcome {
        Compiled,   // the child ended without a crash: built, failed or refused the input; build in process
        Crashed,    // the compiler crashed (or the child died of a signal): do not build in process
        NotStarted, // the child could not be started: build in process
        Cancelled,  // the cancel flag turned true and the child was stopped
    };
    Outcome outcome = Outcome::NotStarted;
    // Crashed: the child's line without its "clscope-cli: " prefix ("the compiler crashed (SIGSEGV)
    // building deep.cl (5 source lines): ..."), or the signal it died of; NotStarted: why.
    std::string message;
    double durationMs = 0; // from the start of the child to its end
    // Compiled: the cache state of the child's build (Miss: it compiled the program and stored it; Off
    // when it could not be told).
    CacheState cache = CacheState::Off;
};

// Writes the request (its texts as files of their own, its devices by platform name and DeviceIdentity)
// into a private folder, runs `executable build --request FOLDER/request.json` (which prints its result's
// JSON, buildResultToJson) with the caller's
// environment (stdin /dev/null, stdout and stderr to files of the folder), waits for it, and removes the
// folder. Setting *cancel stops the child (SIGTERM, SIGKILL after 2 s). Blocks: call it from a worker thread.
ChildCompile compileInChild(const std::string &executable, const BuildRequest &request,
                            const std::shared_ptr<const std::atomic<bool>> &cancel = {});
// The same for a program of any kind (programsource.h): SPIR-V and a binary travel as a file of their bytes,
// built-in kernels by their names; a Source program is the request's source, as above.
ChildCompile compileInChild(const std::string &executable, const BuildRequest &request,
                            const ProgramSource &program,
                            const std::shared_ptr<const std::atomic<bool>> &cancel = {});

// Whether buildProgram(request, cache) finds every device's binary in the cache, so that it runs no
// compiler: then no child is needed. False when the program is not cached at all (the cache off, headers
// the include scan cannot know, separate compilation) and when the request cannot be prepared (its build
// says why). Reads the files the build would read.
bool inBinaryCache(const BuildRequest &request, const BinaryCache &cache);

// The child's side: the request written by compileInChild, its devices found again among this process's
// (the first device of each identity on a platform of that name), and the program it builds
// (buildProgramSource). Throws BuildInputError when the file cannot be read, names a device this process does
// not have or a kind of program there is not.
struct ChildBuildRequest
{
    BuildRequest request;
    ProgramSource program;
};
ChildBuildRequest readChildBuildRequest(const std::filesystem::path &file);

// A failed build of durationMs whose every device log and one diagnostic (at no line of the source) are
// `message`: what the caller shows when the child crashed. Asks the devices their names.
BuildResult crashedBuild(const BuildRequest &request, const std::string &message, double durationMs = 0);

// What a crash of the program's build names: "FILE (N source lines)", "FILE (SPIR-V, N bytes)", ...
std::string programSubject(const BuildRequest &request, const ProgramSource &program);

} // namespace clscope
