// Private to core/src/program: what every kind of build shares (program.cpp), so that the builds from
// SPIR-V, binaries and built-in kernels (programfrom.cpp) end the way a build from source does.
#pragma once

#include "clscope/build.h"
#include "clscope/clhandle.h"
#include "clscope/compilerthread.h"

#include <chrono>
#include <string>
#include <vector>

namespace clscope::detail {

using Clock = std::chrono::steady_clock;

// What every kind of build needs before it talks to the driver.
struct Prepared
{
    std::string platformName;
    std::vector<std::string> deviceNames;
    std::string source;
    std::string sourceDirectory;
    std::vector<std::string> tokens;
    std::string options;
    bool argInfoAdded = false;
    std::vector<IncludedFile> includes;
    std::string uncacheable; // why the headers the compiler reads cannot be known (empty: they can)
    std::vector<std::string> knownFiles;
    std::vector<SourceText> parts; // every source with its text, the first being the request's own
    std::string subject;           // what a compiler crash names; empty: the source file and its lines
};

// The devices' names, the options with the platform's defaults, and (fromSource) the source, its folder
// and the headers it includes.
Prepared prepare(const BuildRequest &request, bool fromSource);
// The request's context, retained, or a new one for its devices.
ClContext makeContext(const BuildRequest &request);

struct Attempt
{
    cl_int error = CL_SUCCESS;
    std::vector<DeviceBuildLog> logs;
    // A linked build's diagnostics, each compile's parsed against its own file (empty: parse the logs).
    std::vector<Diagnostic> diagnostics;
};

// A call into the driver's compiler (clBuildProgram, clCompileProgram, clLinkProgram), made on a thread
// with a large stack (compilerthread.h); a crash names the request's file and its source lines.
template<typename Call> auto compilerCall(const BuildRequest &request, const Prepared &p, Call &&call)
{
    decltype(call()) result{};
    onCompilerThread([&] { result = call(); },
                     p.subject.empty() ? compileSubject(request.sourcePath, p.source) : p.subject);
    return result;
}

// clBuildProgram for the request's devices with each device's log and status. Throws ClError when the call
// itself fails rather than the build.
Attempt runBuild(cl_program program, const BuildRequest &request, const Prepared &p,
                 const std::string &options);

// Finishes any kind of build: diagnostics from the logs, kernels on success, the program kept alive.
BuildResult finish(const BuildRequest &request, const Prepared &p, ClContext &context, ClProgram &program,
                   Attempt attempt, CacheState cache, Clock::time_point started, std::string cacheNote = {},
                   const BinaryCache &binaryCache = {}, std::vector<CacheKey> cacheKeys = {},
                   const std::string &failure = {});

} // namespace clscope::detail
