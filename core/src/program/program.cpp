// Program builds from source (through the binary cache), from SPIR-V and from binaries, ending in one
// immutable BuildResult with logs, diagnostics and kernels.
#include "programbuild.h"

#include "clscope/build.h"

#include "clquery.h"
#include "clscope/clhandle.h"
#include "clscope/error.h"
#include "clscope/fileio.h"
#include "clscope/text.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace clscope {
namespace {

namespace fs = std::filesystem;

// The absolute folder of a file, without a trailing '/' (its -I, searched first for its quoted includes).
std::string folderOf(const std::string &path)
{
    std::error_code ec;
    std::string dir = fs::absolute(fs::path(path), ec).parent_path().lexically_normal().string();
    if (dir.size() > 1 && dir.back() == '/')
        dir.pop_back();
    return dir;
}

// An OpenCL C program object of the text; an empty text is a valid translation unit, but drivers reject a
// zero length, so it is given as one newline.
ClProgram programFromSource(cl_context context, const std::string &source)
{
    const char *text = source.empty() ? "\n" : source.c_str();
    const size_t length = source.empty() ? 1 : source.size();
    cl_int err = CL_SUCCESS;
    ClProgram program(clCreateProgramWithSource(context, 1, &text, &length, &err));
    check(err, "clCreateProgramWithSource");
    return program;
}

// `#line 1 "PATH"` with the path as a C string literal.
std::string lineMarker(const std::string &path)
{
    std::string out = "\n#line 1 \"";
    for (char c : path) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"\n";
}

// -include FILE and -imacros FILE make the compiler read a header that no directive names.
std::string optionIncludes(const std::vector<std::string> &tokens)
{
    for (const std::string &t : tokens) {
        for (const char *option : {"-include", "-imacros"}) {
            if (t.starts_with(option))
                return "the option " + t + " makes the compiler read a header that the cache cannot see";
        }
    }
    return {};
}

} // namespace

void checkSourceText(const std::string &path, std::string_view text)
{
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
        throw BuildInputError("cannot read " + path + ": it holds a NUL byte at offset " +
                              std::to_string(nul) + ", so it is not a text file");
}

std::string readSourceFile(const std::string &path)
{
    std::string text;
    try {
        text = readRegularFile(path, kMaxSourceBytes);
    } catch (const FileError &e) {
        throw BuildInputError(e.what());
    }
    checkSourceText(path, text);
    return text;
}

namespace detail {

namespace {

std::string trimmedLog(std::string log)
{
    while (!log.empty() &&
           (log.back() == '\0' || log.back() == '\n' || log.back() == ' ' || log.back() == '\r'))
        log.pop_back();
    return log;
}

} // namespace

Prepared prepare(const BuildRequest &request, bool fromSource)
{
    if (request.devices.empty())
        throw ClError("clBuildProgram", CL_DEVICE_NOT_FOUND, "no device to build for");
    const cl_platform_id platform = detail::devicePlatform(request.devices.front());
    Prepared p;
    for (cl_device_id d : request.devices) {
        if (detail::devicePlatform(d) != platform)
            throw ClError("clCreateContext", CL_INVALID_DEVICE,
                          "the devices of one build must share a platform");
        p.deviceNames.push_back(deviceString(d, CL_DEVICE_NAME));
    }
    p.platformName = platformString(platform, CL_PLATFORM_NAME);
    p.source = request.source;
    if (p.source.empty() && fromSource) {
        if (request.sourcePath.empty())
            throw BuildInputError("nothing to build: no source text and no file");
        p.source = readSourceFile(request.sourcePath);
    }
    if (fromSource && !request.moreSources.empty()) {
        p.parts.push_back({request.sourcePath, p.source});
        for (const SourceText &more : request.moreSources) {
            if (more.text.empty() && more.path.empty())
                throw BuildInputError("a source of the program has no text and no file");
            p.parts.push_back({more.path, more.text.empty() ? readSourceFile(more.path) : more.text});
            p.source +=
                lineMarker(more.path.empty() ? "source " + std::to_string(p.parts.size()) : more.path);
            p.source += p.parts.back().text;
            if (!more.path.empty())
                p.knownFiles.push_back(more.path);
        }
    }
    if (!request.sourcePath.empty() && fromSource)
        p.sourceDirectory = folderOf(request.sourcePath);
    OptionInputs in;
    in.platformName = request.platformDefaults ? p.platformName : std::string();
    in.userOptions = request.options;
    in.sourceDirectory = p.sourceDirectory;
    if (request.environmentOptions) {
        if (const char *env = std::getenv("CLSCOPE_BUILD_OPTIONS"))
            in.environment = env;
        if (const char *env = std::getenv("PYOPENCL_BUILD_OPTIONS"))
            in.pyopenclEnvironment = env;
    }
    in.kernelArgInfo = false;
    p.tokens = effectiveOptions(in);
    // Added here rather than through OptionInputs so that we know whether a retry without it is ours to make.
    if (request.kernelArgInfo &&
        std::find(p.tokens.begin(), p.tokens.end(), kArgInfoOption) == p.tokens.end()) {
        p.tokens.push_back(kArgInfoOption);
        p.argInfoAdded = true;
    }
    p.options = joinOptions(p.tokens);
    if (fromSource) {
        IncludeScan scan = scanIncludeTree(p.source, p.sourceDirectory, includePaths(p.tokens));
        const bool wantsPyopencl =
            std::any_of(scan.files.begin(), scan.files.end(), [](const IncludedFile &f) {
                return !f.found && f.spelling.starts_with("pyopencl-");
            });
        if (wantsPyopencl) {
            if (const std::string dir = pyopenclIncludeDirectory(); !dir.empty()) {
                p.tokens.insert(p.argInfoAdded ? p.tokens.end() - 1 : p.tokens.end(), {"-I", dir});
                p.options = joinOptions(p.tokens);
                scan = scanIncludeTree(p.source, p.sourceDirectory, includePaths(p.tokens));
            }
        }
        p.includes = std::move(scan.files);
        p.uncacheable = scan.unresolved.empty() ? optionIncludes(p.tokens) : scan.unresolved;
        for (const auto &f : p.includes) {
            if (f.found)
                p.knownFiles.push_back(f.path);
        }
    }
    return p;
}

ClContext makeContext(const BuildRequest &request)
{
    if (request.context)
        return ClContext::retain(request.context);
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, cl_uint(request.devices.size()), request.devices.data(),
                                     nullptr, nullptr, &err);
    check(err, "clCreateContext");
    return ClContext(ctx);
}

// Errors that mean "the input did not build" rather than "the driver or the call is broken".
bool isBuildFailure(cl_int err)
{
    return err == CL_BUILD_PROGRAM_FAILURE || err == CL_COMPILE_PROGRAM_FAILURE ||
           err == CL_INVALID_BUILD_OPTIONS || err == CL_COMPILER_NOT_AVAILABLE || err == CL_INVALID_BINARY ||
           err == CL_LINK_PROGRAM_FAILURE || err == CL_LINKER_NOT_AVAILABLE ||
           err == CL_INVALID_COMPILER_OPTIONS || err == CL_INVALID_LINKER_OPTIONS;
}

Attempt runBuild(cl_program program, const BuildRequest &request, const Prepared &p,
                 const std::string &options)
{
    Attempt a;
    a.error = compilerCall(request, p, [&] {
        return clBuildProgram(program, cl_uint(request.devices.size()), request.devices.data(),
                              options.c_str(), nullptr, nullptr);
    });
    if (a.error != CL_SUCCESS && !isBuildFailure(a.error))
        throw ClError("clBuildProgram", a.error);
    for (size_t i = 0; i < request.devices.size(); ++i) {
        DeviceBuildLog log;
        log.id = request.devices[i];
        log.device = p.deviceNames[i];
        log.log = trimmedLog(buildLog(program, log.id));
        cl_build_status status = CL_BUILD_ERROR;
        clGetProgramBuildInfo(program, log.id, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
        log.success = a.error == CL_SUCCESS && status == CL_BUILD_SUCCESS;
        a.logs.push_back(std::move(log));
    }
    return a;
}

bool mentionsArgInfo(const Attempt &a)
{
    return std::any_of(a.logs.begin(), a.logs.end(), [](const DeviceBuildLog &l) {
        return l.log.find(kArgInfoOption) != std::string::npos;
    });
}

// Appends the ones not there yet (each device's log repeats the same diagnostics).
void addDiagnostics(std::vector<Diagnostic> &to, std::vector<Diagnostic> from)
{
    for (Diagnostic &diag : from) {
        if (std::find(to.begin(), to.end(), diag) == to.end())
            to.push_back(std::move(diag));
    }
}

// Finishes any kind of build: diagnostics from the logs, kernels on success, the program kept alive.
BuildResult finish(const BuildRequest &request, const Prepared &p, ClContext &context, ClProgram &program,
                   Attempt attempt, CacheState cache, Clock::time_point started, std::string cacheNote,
                   const BinaryCache &binaryCache, std::vector<CacheKey> cacheKeys,
                   const std::string &failure)
{
    BuildResultData d;
    // What a struct layout probe (structs.h) needs later: the text, its headers, where to keep the answer.
    d.source = p.source.empty() ? request.source : p.source;
    for (const IncludedFile &f : p.includes) {
        if (f.found)
            d.includes.push_back(f);
    }
    if (!cacheKeys.empty()) {
        d.binaryCache = binaryCache;
        d.cacheKeys = std::move(cacheKeys);
    }
    d.status = attempt.error == CL_SUCCESS ? BuildStatus::Success : BuildStatus::Failure;
    d.durationMs = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    d.cache = cache;
    d.cacheNote = std::move(cacheNote);
    d.options = p.options;
    d.userOptions = request.options;
    d.sourcePath = request.sourcePath;
    for (const IncludedFile &f : p.includes) {
        if (f.found)
            d.headers.push_back(f.path);
    }
    if (attempt.diagnostics.empty()) {
        for (const DeviceBuildLog &log : attempt.logs)
            addDiagnostics(d.diagnostics, parseDiagnostics(log.log, request.sourcePath, p.knownFiles));
    } else {
        d.diagnostics = std::move(attempt.diagnostics);
    }
    // Some drivers refuse options with an empty log; the failure must still say something.
    const bool anyError = std::any_of(d.diagnostics.begin(), d.diagnostics.end(),
                                      [](const Diagnostic &x) { return x.severity == Severity::Error; });
    if (d.status == BuildStatus::Failure && !anyError)
        d.diagnostics.push_back(
            {{},
             0,
             0,
             Severity::Error,
             failure.empty() ? "clBuildProgram failed: " + errorLabel(attempt.error) : failure});
    d.logs = std::move(attempt.logs);
    if (d.status == BuildStatus::Success) {
        d.kernels = queryKernels(program.get(), request.devices, p.source);
        auto *handle = new ProgramHandle(context.release(), program.release());
        if (request.releaseOn)
            d.program = std::shared_ptr<const ProgramHandle>(
                handle,
                [releaseOn = request.releaseOn](const ProgramHandle *h) { releaseOn([h] { delete h; }); });
        else
            d.program = std::shared_ptr<const ProgramHandle>(handle);
    }
    return BuildResult(std::move(d));
}

} // namespace detail

namespace {

using namespace detail;

// Every device's entry, or nothing when any is missing (a partial hit rebuilds from source anyway).
std::optional<std::vector<CacheEntry>> loadAll(const BinaryCache &cache, const std::vector<CacheKey> &keys)
{
    std::vector<CacheEntry> entries;
    for (const CacheKey &k : keys) {
        auto e = cache.load(k);
        if (!e || e->binary.empty())
            return std::nullopt;
        entries.push_back(std::move(*e));
    }
    return entries;
}

std::string optionsWithoutArgInfo(std::vector<std::string> tokens)
{
    tokens.erase(std::remove(tokens.begin(), tokens.end(), kArgInfoOption), tokens.end());
    return joinOptions(tokens);
}

// Builds from cached binaries; nothing when the driver refuses them (stale or corrupt in a way the
// checksum cannot see, such as a binary from an older driver that kept its version string).
std::optional<Attempt> buildFromEntries(cl_context context, const BuildRequest &request, Prepared &p,
                                        const std::vector<CacheEntry> &entries, ClProgram &program)
{
    std::vector<size_t> sizes;
    std::vector<const unsigned char *> pointers;
    for (const auto &e : entries) {
        sizes.push_back(e.binary.size());
        pointers.push_back(e.binary.data());
    }
    // The entry may come from a build that had to drop -cl-kernel-arg-info: try without it as well.
    std::vector<std::string> variants{p.options};
    if (p.argInfoAdded)
        variants.push_back(optionsWithoutArgInfo(p.tokens));
    for (const std::string &options : variants) {
        std::vector<cl_int> status(entries.size(), CL_SUCCESS);
        cl_int err = CL_SUCCESS;
        program.reset(clCreateProgramWithBinary(context, cl_uint(request.devices.size()),
                                                request.devices.data(), sizes.data(), pointers.data(),
                                                status.data(), &err));
        if (err != CL_SUCCESS || !program.get())
            break;
        if (compilerCall(request, p, [&] {
                return clBuildProgram(program.get(), cl_uint(request.devices.size()), request.devices.data(),
                                      options.c_str(), nullptr, nullptr);
            }) != CL_SUCCESS)
            continue;
        p.options = options;
        Attempt a;
        for (size_t i = 0; i < entries.size(); ++i)
            a.logs.push_back({request.devices[i], p.deviceNames[i], entries[i].log, true, CacheState::Hit});
        return a;
    }
    program.reset();
    return std::nullopt;
}

Attempt buildFromSource(cl_context context, const BuildRequest &request, Prepared &p, ClProgram &program)
{
    program = programFromSource(context, p.source);
    Attempt a = runBuild(program.get(), request, p, p.options);
    // Some platforms refuse -cl-kernel-arg-info; the build must not fail because we added it.
    if (a.error != CL_SUCCESS && p.argInfoAdded &&
        (a.error == CL_INVALID_BUILD_OPTIONS || mentionsArgInfo(a))) {
        const std::string options = optionsWithoutArgInfo(p.tokens);
        program = programFromSource(context, p.source);
        Attempt retry = runBuild(program.get(), request, p, options);
        if (retry.error == CL_SUCCESS) {
            p.options = options;
            return retry;
        }
    }
    return a;
}

// The functions the parts declare and call that none defines, each added to `to` as an error at its
// declaration; true when there is one.
bool undefinedFunctions(const std::vector<SourceText> &parts, std::vector<Diagnostic> &to)
{
    std::vector<FunctionNames> names;
    std::set<std::string> defined;
    for (const SourceText &part : parts) {
        names.push_back(functionNames(part.text));
        defined.insert(names.back().defined.begin(), names.back().defined.end());
    }
    std::set<std::string> missing;
    for (size_t i = 0; i < parts.size(); ++i) {
        for (const auto &[name, line] : names[i].declared) {
            if (defined.count(name) || !names[i].called.count(name) || !missing.insert(name).second)
                continue;
            to.push_back({parts[i].path, line, 0, Severity::Error,
                          name + " is declared and called, but no source of the program defines it: the link "
                                 "needs its definition"});
        }
    }
    return !missing.empty();
}

// Separate compilation: each part compiled on its own (its folder searched first for its quoted includes),
// then the objects linked. Each device's log holds every compile's log under the file's name, then the
// link's.
Attempt buildLinked(cl_context context, const BuildRequest &request, Prepared &p, ClProgram &program)
{
    if (p.parts.empty())
        p.parts.push_back({request.sourcePath, p.source});
    Attempt a;
    for (size_t i = 0; i < request.devices.size(); ++i)
        a.logs.push_back({request.devices[i], p.deviceNames[i], {}, true, CacheState::Off});
    auto appendLog = [&](size_t device, const std::string &title, const std::string &log) {
        if (log.empty())
            return;
        std::string &to = a.logs[device].log;
        to += (to.empty() ? "" : "\n") + ("== " + title + " ==\n") + log;
    };
    std::vector<ClProgram> objects;
    for (const SourceText &part : p.parts) {
        ClProgram object = programFromSource(context, part.text);
        std::vector<std::string> tokens = p.tokens;
        if (!part.path.empty() && part.path != request.sourcePath)
            tokens.insert(tokens.begin(), {"-I", folderOf(part.path)});
        const std::string options = joinOptions(tokens);
        const cl_int err = compilerCall(request, p, [&] {
            return clCompileProgram(object.get(), cl_uint(request.devices.size()), request.devices.data(),
                                    options.c_str(), 0, nullptr, nullptr, nullptr, nullptr);
        });
        if (err != CL_SUCCESS && !isBuildFailure(err))
            throw ClError("clCompileProgram", err);
        const std::string name = part.path.empty() ? "source" : part.path;
        for (size_t i = 0; i < request.devices.size(); ++i) {
            const std::string log = trimmedLog(buildLog(object.get(), request.devices[i]));
            appendLog(i, "compile " + name, log);
            addDiagnostics(a.diagnostics, parseDiagnostics(log, name, p.knownFiles));
            if (err != CL_SUCCESS)
                a.logs[i].success = false;
        }
        if (err != CL_SUCCESS)
            a.error = err;
        objects.push_back(std::move(object));
    }
    if (a.error == CL_SUCCESS && undefinedFunctions(p.parts, a.diagnostics)) {
        a.error = CL_LINK_PROGRAM_FAILURE;
        for (DeviceBuildLog &log : a.logs)
            log.success = false;
    }
    if (a.error == CL_SUCCESS) {
        std::vector<cl_program> inputs;
        for (const ClProgram &o : objects)
            inputs.push_back(o.get());
        cl_int err = CL_SUCCESS;
        program.reset(compilerCall(request, p, [&] {
            return clLinkProgram(context, cl_uint(request.devices.size()), request.devices.data(), "",
                                 cl_uint(inputs.size()), inputs.data(), nullptr, nullptr, &err);
        }));
        if (err != CL_SUCCESS && !isBuildFailure(err))
            throw ClError("clLinkProgram", err);
        for (size_t i = 0; i < request.devices.size(); ++i) {
            const std::string log =
                program.get() ? trimmedLog(buildLog(program.get(), request.devices[i])) : "";
            appendLog(i, "link", log);
            if (err != CL_SUCCESS) {
                a.logs[i].success = false;
                // A linker's messages name no file of ours: each line is a diagnostic of the program.
                addDiagnostics(a.diagnostics, parseDiagnostics(log, {}, p.knownFiles));
            }
        }
        a.error = err;
    }
    if (a.error != CL_SUCCESS && a.diagnostics.empty())
        a.diagnostics.push_back(
            {{},
             0,
             0,
             Severity::Error,
             (a.error == CL_LINK_PROGRAM_FAILURE ? "clLinkProgram failed: " : "clCompileProgram failed: ") +
                 errorLabel(a.error)});
    return a;
}

} // namespace

ProgramHandle::ProgramHandle(cl_context context, cl_program program)
    : m_context(context)
    , m_program(program)
{}

BuildResult::BuildResult()
    : m_d(std::make_shared<const BuildResultData>())
{}

BuildResult::BuildResult(BuildResultData data)
    : m_d(std::make_shared<const BuildResultData>(std::move(data)))
{}

std::optional<CacheKey> BuildResult::cacheKey(cl_device_id device) const
{
    for (std::size_t i = 0; i < m_d->logs.size() && i < m_d->cacheKeys.size(); ++i) {
        if (m_d->logs[i].id == device)
            return m_d->cacheKeys[i];
    }
    return std::nullopt;
}

BuildResult BuildResult::compiledElsewhere(double compileMs) const
{
    BuildResultData d = *m_d;
    if (d.cache == CacheState::Hit)
        d.cache = CacheState::Miss;
    for (DeviceBuildLog &log : d.logs) {
        if (log.cache == CacheState::Hit)
            log.cache = CacheState::Miss;
    }
    d.durationMs += compileMs;
    return BuildResult(std::move(d));
}

std::optional<std::string> BuildMemo::find(const std::string &key) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_entries.find(key);
    return it == m_entries.end() ? std::nullopt : std::optional(it->second);
}

void BuildMemo::put(const std::string &key, std::string value)
{
    const std::lock_guard lock(m_mutex);
    m_entries[key] = std::move(value);
}

std::size_t BuildMemo::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_entries.size();
}

const KernelInfo *BuildResult::kernel(std::string_view name) const
{
    for (const auto &k : m_d->kernels) {
        if (k.name == name)
            return &k;
    }
    return nullptr;
}

BuildResult buildProgram(const BuildRequest &request, const BinaryCache &cache)
{
    Prepared p = prepare(request, true);
    const auto started = Clock::now();
    ClContext context = makeContext(request);
    ClProgram program;

    // A program whose headers cannot all be known is never cached: its key could miss the header that
    // changed, and the cache would hand back a stale binary as a hit.
    // Nor is a linked program (its objects are not what the key describes).
    const bool useCache = cache.enabled() && p.uncacheable.empty() && !request.link;
    std::string note = cache.enabled() && !p.uncacheable.empty()
                           ? "cache off for this program: " + p.uncacheable
                           : std::string();
    std::vector<CacheKey> keys;
    if (useCache) {
        for (cl_device_id d : request.devices)
            keys.push_back(makeCacheKey(p.source, p.options, DeviceIdentity::of(d), p.includes));
        if (auto entries = loadAll(cache, keys)) {
            if (auto hit = buildFromEntries(context.get(), request, p, *entries, program))
                return finish(request, p, context, program, std::move(*hit), CacheState::Hit, started, {},
                              cache, keys);
            for (const CacheKey &k : keys)
                cache.remove(k.digest);
        }
    }

    if (request.link) {
        Attempt linked = buildLinked(context.get(), request, p, program);
        return finish(request, p, context, program, std::move(linked), CacheState::Off, started);
    }
    Attempt attempt = buildFromSource(context.get(), request, p, program);
    const CacheState state = useCache ? CacheState::Miss : CacheState::Off;
    for (auto &log : attempt.logs)
        log.cache = state;
    if (attempt.error == CL_SUCCESS && useCache) {
        // Keyed by the options first tried, which is what the next identical build looks up.
        const auto binaries = programBinaries(program.get(), request.devices);
        for (size_t i = 0; i < keys.size(); ++i) {
            std::string error;
            // The first failure says it all (the same folder for every device): one note, not one per device.
            if (!binaries[i].empty() && !cache.store(keys[i], {binaries[i], attempt.logs[i].log}, &error) &&
                note.empty())
                note = "the binary cache cannot keep this build: " + error;
        }
    }
    return finish(request, p, context, program, std::move(attempt), state, started, std::move(note), cache,
                  std::move(keys));
}

} // namespace clscope
