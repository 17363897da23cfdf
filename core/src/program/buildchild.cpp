// The build's child process: the request written for it and read back in it, the child run, and what its
// end means. See buildchild.h for why.
#include "clscope/buildchild.h"

#include "../check/childprocess.h"
#include "clquery.h"
#include "clscope/compilerthread.h"
#include "clscope/devicespec.h"
#include "clscope/fileio.h"
#include "clscope/icdprobe.h"
#include "clscope/loaderenv.h"
#include "programbuild.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <stdexcept>

extern char **environ;

namespace clscope {
namespace fs = std::filesystem;
namespace {

constexpr int kRequestFormat = 1;
constexpr std::string_view kCrashed = "clscope-cli: the compiler crashed"; // reportCompilerCrashes' line

nlohmann::json identityJson(const DeviceIdentity &id)
{
    return {{"vendor", id.vendor},
            {"name", id.name},
            {"version", id.version},
            {"driver_version", id.driverVersion}};
}

bool sameIdentity(const DeviceIdentity &id, const nlohmann::json &j)
{
    return id.vendor == j.at("vendor").get<std::string>() && id.name == j.at("name").get<std::string>() &&
           id.version == j.at("version").get<std::string>() &&
           id.driverVersion == j.at("driver_version").get<std::string>();
}

// The request in the folder: request.json, and each text in a file of its own (a source's bytes need not be
// UTF-8, which JSON strings must be). A text left empty is read from its path by the child, as here.
void writeRequest(const fs::path &folder, const BuildRequest &request, const ProgramSource &program)
{
    nlohmann::json j;
    j["format"] = kRequestFormat;
    j["kind"] = std::string(programKindName(program.kind));
    if (program.kind == ProgramKind::Il || program.kind == ProgramKind::Binary) {
        writeWholeFile(
            folder / "program",
            std::string_view(reinterpret_cast<const char *>(program.bytes.data()), program.bytes.size()));
        j["program_file"] = "program";
    }
    if (program.kind == ProgramKind::BuiltIns)
        j["built_ins"] = program.builtIns;
    j["source_path"] = request.sourcePath;
    if (!request.source.empty()) {
        writeWholeFile(folder / "source-0", request.source);
        j["source_file"] = "source-0";
    }
    j["options"] = request.options;
    j["more_sources"] = nlohmann::json::array();
    for (std::size_t i = 0; i < request.moreSources.size(); ++i) {
        const SourceText &more = request.moreSources[i];
        nlohmann::json m{{"path", more.path}};
        if (!more.text.empty()) {
            const std::string name = "source-" + std::to_string(i + 1);
            writeWholeFile(folder / name, more.text);
            m["file"] = name;
        }
        j["more_sources"].push_back(std::move(m));
    }
    j["link"] = request.link;
    j["kernel_arg_info"] = request.kernelArgInfo;
    j["platform_defaults"] = request.platformDefaults;
    j["environment_options"] = request.environmentOptions;
    j["platform"] = request.devices.empty()
                        ? std::string()
                        : platformString(detail::devicePlatform(request.devices.front()), CL_PLATFORM_NAME);
    j["devices"] = nlohmann::json::array();
    for (cl_device_id d : request.devices)
        j["devices"].push_back(identityJson(DeviceIdentity::of(d)));
    writeWholeFile(folder / "request.json", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string readText(const fs::path &path)
{
    try {
        return readRegularFile(path, kMaxDocumentBytes);
    } catch (const FileError &) {
        return {};
    }
}

// The child's "clscope-cli: the compiler crashed (SIGSEGV) building ..." line without its prefix; "" when
// none.
std::string crashLine(const std::string &err)
{
    std::size_t start = 0;
    while (start < err.size()) {
        std::size_t end = err.find('\n', start);
        if (end == std::string::npos)
            end = err.size();
        const std::string_view line(err.data() + start, end - start);
        if (line.starts_with(kCrashed))
            return std::string(line.substr(line.find(':') + 2));
        start = end + 1;
    }
    return {};
}

// The cache state in the JSON the child printed; Off when there is none.
CacheState childCache(const std::string &json)
{
    const nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
    if (!doc.is_object() || !doc.contains("cache") || !doc["cache"].is_string())
        return CacheState::Off;
    const std::string state = doc["cache"].get<std::string>();
    return state == cacheStateName(CacheState::Miss)  ? CacheState::Miss
           : state == cacheStateName(CacheState::Hit) ? CacheState::Hit
                                                      : CacheState::Off;
}

// This process's environment. Where this process has prepared its OpenCL loader (prepareLoader: the drivers
// probed, the bad ones left out of OCL_ICD_VENDORS), the child loads the same drivers without probing them
// again, which took it about 100 ms a build.
std::vector<std::string> childEnvironment()
{
    const bool prepared = loaderSetup() != nullptr;
    const std::string probe = std::string(kProbeVariable) + '=';
    std::vector<std::string> out;
    for (char **e = environ; e && *e; ++e) {
        if (!prepared || !std::string_view(*e).starts_with(probe))
            out.emplace_back(*e);
    }
    if (prepared)
        out.push_back(probe + '0');
    return out;
}

} // namespace

ChildCompile compileInChild(const std::string &executable, const BuildRequest &request,
                            const std::shared_ptr<const std::atomic<bool>> &cancel)
{
    return compileInChild(executable, request, ProgramSource{}, cancel);
}

std::string programSubject(const BuildRequest &request, const ProgramSource &program)
{
    switch (program.kind) {
    case ProgramKind::Il:
        return compileSubject(request.sourcePath, "SPIR-V", program.bytes.size());
    case ProgramKind::Binary:
        return compileSubject(request.sourcePath, "a device binary", program.bytes.size());
    case ProgramKind::BuiltIns:
        return "the built-in kernels " + program.builtIns;
    case ProgramKind::Source:
        break;
    }
    return compileSubject(request.sourcePath, request.source);
}

ChildCompile compileInChild(const std::string &executable, const BuildRequest &request,
                            const ProgramSource &program,
                            const std::shared_ptr<const std::atomic<bool>> &cancel)
{
    ChildCompile out;
    const auto started = std::chrono::steady_clock::now();
    detail::ChildExit exit;
    std::string err;
    try {
        const detail::TempFolder folder("build", "build's child");
        writeRequest(folder.path(), request, program);
        exit =
            detail::runChild(executable, {"build", "--request", (folder.path() / "request.json").string()},
                             childEnvironment(), folder.path() / "stdout", folder.path() / "stderr", cancel);
        err = readText(folder.path() / "stderr");
        out.cache = childCache(readText(folder.path() / "stdout"));
        out.durationMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    } catch (const std::exception &e) {
        out.message = e.what();
        return out; // NotStarted: the caller builds in its own process
    }
    if (exit.cancelled) {
        out.outcome = ChildCompile::Outcome::Cancelled;
        return out;
    }
    if (std::string line = crashLine(err); !line.empty()) {
        out.outcome = ChildCompile::Outcome::Crashed;
        out.message = std::move(line);
    } else if (exit.signal != 0) {
        out.outcome = ChildCompile::Outcome::Crashed;
        const char *name = strsignal(exit.signal);
        out.message = "the build's child process died of signal " + std::to_string(exit.signal) + " (" +
                      (name ? name : "unknown") + ") building " + programSubject(request, program) +
                      "; nothing was built";
    } else {
        // Built, failed, or refused its input (exit 2): the caller's own build says which, and why.
        out.outcome = ChildCompile::Outcome::Compiled;
    }
    return out;
}

bool inBinaryCache(const BuildRequest &request, const BinaryCache &cache)
{
    if (!cache.enabled() || request.link)
        return false;
    try {
        const detail::Prepared p = detail::prepare(request, true);
        if (!p.uncacheable.empty())
            return false;
        for (cl_device_id d : request.devices) {
            const std::optional<CacheEntry> entry =
                cache.load(makeCacheKey(p.source, p.options, DeviceIdentity::of(d), p.includes));
            if (!entry || entry->binary.empty())
                return false;
        }
        return !request.devices.empty();
    } catch (const std::exception &) {
        return false;
    }
}

ChildBuildRequest readChildBuildRequest(const fs::path &file)
{
    const fs::path folder = file.parent_path();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(readRegularFile(file, kMaxDocumentBytes));
        if (j.at("format").get<int>() != kRequestFormat)
            throw BuildInputError(file.string() + " is a build request of another format");
    } catch (const FileError &e) {
        throw BuildInputError(e.what());
    } catch (const nlohmann::json::exception &e) {
        throw BuildInputError("cannot read the build request " + file.string() + ": " + e.what());
    }
    try {
        ChildBuildRequest out;
        BuildRequest &request = out.request;
        const std::string kind = j.value("kind", std::string(programKindName(ProgramKind::Source)));
        const std::optional<ProgramKind> parsed = parseProgramKind(kind);
        if (!parsed)
            throw BuildInputError("the build request " + file.string() +
                                  " names no kind of program: " + kind);
        out.program.kind = *parsed;
        if (j.contains("program_file")) {
            const std::string bytes =
                readRegularFile(folder / j["program_file"].get<std::string>(), kMaxDocumentBytes);
            out.program.bytes.assign(bytes.begin(), bytes.end());
        }
        if (out.program.kind == ProgramKind::BuiltIns)
            out.program.builtIns = j.at("built_ins").get<std::string>();
        request.sourcePath = j.at("source_path").get<std::string>();
        if (j.contains("source_file"))
            request.source = readRegularFile(folder / j["source_file"].get<std::string>(), kMaxDocumentBytes);
        request.options = j.at("options").get<std::string>();
        for (const nlohmann::json &m : j.at("more_sources")) {
            SourceText more{m.at("path").get<std::string>(), {}};
            if (m.contains("file"))
                more.text = readRegularFile(folder / m["file"].get<std::string>(), kMaxDocumentBytes);
            request.moreSources.push_back(std::move(more));
        }
        request.link = j.at("link").get<bool>();
        request.kernelArgInfo = j.at("kernel_arg_info").get<bool>();
        request.platformDefaults = j.at("platform_defaults").get<bool>();
        request.environmentOptions = j.at("environment_options").get<bool>();
        // Each device by what the cache key holds of it: any device of that identity builds the same binary.
        const std::string platform = j.at("platform").get<std::string>();
        const std::vector<SelectedDevice> devices = listDevices();
        for (const nlohmann::json &wanted : j.at("devices")) {
            bool found = false;
            for (const SelectedDevice &d : devices) {
                if (platformString(d.platform, CL_PLATFORM_NAME) == platform &&
                    sameIdentity(DeviceIdentity::of(d.device), wanted)) {
                    request.devices.push_back(d.device);
                    found = true;
                    break;
                }
            }
            if (!found)
                throw BuildInputError("the build request names a device this process does not have: " +
                                      wanted.at("name").get<std::string>() + " of " + platform);
        }
        return out;
    } catch (const FileError &e) {
        throw BuildInputError(e.what());
    } catch (const nlohmann::json::exception &e) {
        throw BuildInputError("cannot read the build request " + file.string() + ": " + e.what());
    }
}

BuildResult crashedBuild(const BuildRequest &request, const std::string &message, double durationMs)
{
    BuildResultData d;
    d.status = BuildStatus::Failure;
    d.durationMs = durationMs;
    d.sourcePath = request.sourcePath;
    d.userOptions = request.options;
    d.source = request.source;
    for (cl_device_id device : request.devices)
        d.logs.push_back({device, deviceString(device, CL_DEVICE_NAME), message, false, CacheState::Off});
    d.diagnostics.push_back({request.sourcePath, 0, 0, Severity::Error, message});
    return BuildResult(std::move(d));
}

} // namespace clscope
