// The checked run's child process: finding the Oclgrind ICD, the session folder and the child's
// environment, the child started (childprocess.h), and the report from the log and the child's stderr. See
// check.h for why the check runs in a child.
#include "childprocess.h"
#include "clscope/check.h"
#include "clscope/fileio.h"
#include "clscope/text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace clscope {
namespace fs = std::filesystem;
namespace {

constexpr const char *kIcdVariable = "CLSCOPE_OCLGRIND_ICD";

// Where Oclgrind's packages put the ICD library: Debian/Ubuntu, multiarch, source installs, Fedora.
constexpr const char *kKnownIcdPaths[] = {
    "/usr/lib/oclgrind/liboclgrind-rt-icd.so",
    "/usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so",
    "/usr/lib/aarch64-linux-gnu/liboclgrind-rt-icd.so",
    "/usr/local/lib/liboclgrind-rt-icd.so",
    "/usr/lib64/liboclgrind-rt-icd.so",
    "/usr/lib/liboclgrind-rt-icd.so",
};

// The variables the child must not inherit: the loader's (the child sees Oclgrind only), Oclgrind's that
// the session sets (and OCLGRIND_MAX_ERRORS when the settings set it), OCLGRIND_INTERACTIVE (it would wait
// for a terminal) and OCLGRIND_QUICK (it skips work-groups), the device choice.
constexpr std::string_view kDropped[] = {
    "OCL_ICD_VENDORS",    "OCL_ICD_FILENAMES",    "OPENCL_VENDOR_PATH",         "OCLGRIND_LOG",
    "OCLGRIND_CHECK_API", "OCLGRIND_DATA_RACES",  "OCLGRIND_UNINITIALIZED",     "OCLGRIND_INTERACTIVE",
    "OCLGRIND_QUICK",     "CLSCOPE_DEVICE",       kCheckChildVariable,          kCheckBuffersVariable,
    "OCLGRIND_PLUGINS",   "CLSCOPE_LINE_PROFILE", "CLSCOPE_LINE_SAMPLE_GROUPS",
};

bool mentionsOclgrind(std::string_view s)
{
    return lowerAscii(s).find("oclgrind") != std::string::npos;
}

// Files this module wrote itself (the child's output) or the user's: missing or unreadable reads as empty.
std::string readFile(const fs::path &path)
{
    try {
        return readRegularFile(path, kMaxDocumentBytes);
    } catch (const FileError &) {
        return {};
    }
}

// A library the loader can open: a path that exists, or a bare name the dynamic linker looks up.
bool usableLibrary(const std::string &library)
{
    std::error_code ec;
    return !library.empty() && (library.find('/') == std::string::npos || fs::is_regular_file(library, ec));
}

// The library an .icd file names, when the file or the library is Oclgrind's.
std::optional<std::string> oclgrindOfIcd(const fs::path &icd)
{
    std::string library = readFile(icd);
    library = library.substr(0, library.find('\n'));
    while (!library.empty() && std::isspace(static_cast<unsigned char>(library.back())))
        library.pop_back();
    if ((mentionsOclgrind(icd.filename().string()) || mentionsOclgrind(library)) && usableLibrary(library))
        return library;
    return std::nullopt;
}

std::optional<std::string> oclgrindInFolder(const fs::path &folder)
{
    std::error_code ec;
    std::vector<fs::path> icds;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".icd")
            icds.push_back(it->path());
    }
    std::sort(icds.begin(), icds.end());
    for (const fs::path &icd : icds) {
        if (auto library = oclgrindOfIcd(icd))
            return library;
    }
    return std::nullopt;
}

void writeFile(const fs::path &path, std::string_view text)
{
    writeWholeFile(path, text);
}

} // namespace

std::optional<std::string> environmentValue(const std::vector<std::string> &environment,
                                            std::string_view name)
{
    // The first entry wins, as getenv sees a list with duplicates.
    for (const std::string &entry : environment) {
        if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 &&
            entry[name.size()] == '=')
            return entry.substr(name.size() + 1);
    }
    return std::nullopt;
}

std::optional<std::string> findOclgrindIcd(const std::vector<std::string> &environment)
{
    std::error_code ec;
    if (const auto chosen = environmentValue(environment, kIcdVariable); chosen && !chosen->empty())
        return usableLibrary(*chosen) ? chosen : std::nullopt;
    if (const auto vendors = environmentValue(environment, "OCL_ICD_VENDORS"); vendors && !vendors->empty()) {
        const fs::path p(*vendors);
        if (fs::is_directory(p, ec)) {
            if (auto library = oclgrindInFolder(p))
                return library;
        } else if (p.extension() == ".icd" && fs::is_regular_file(p, ec)) {
            if (auto library = oclgrindOfIcd(p))
                return library;
        } else if (mentionsOclgrind(p.filename().string()) && usableLibrary(*vendors)) {
            return vendors; // ocl-icd loads a library named here directly
        }
    }
    const auto vendorPath = environmentValue(environment, "OPENCL_VENDOR_PATH");
    for (const fs::path &folder : {fs::path(vendorPath.value_or("")), fs::path("/etc/OpenCL/vendors")}) {
        if (!folder.empty()) {
            if (auto library = oclgrindInFolder(folder))
                return library;
        }
    }
    for (const char *path : kKnownIcdPaths) {
        if (fs::is_regular_file(path, ec))
            return std::string(path);
    }
    return std::nullopt;
}

CheckSession::CheckSession(const std::vector<std::string> &environment, const CheckSettings &settings)
{
    const auto icd = findOclgrindIcd(environment);
    if (!icd) {
        const auto chosen = environmentValue(environment, kIcdVariable);
        throw CheckUnavailableError(
            chosen && !chosen->empty()
                ? "no Oclgrind to check on: " + std::string(kIcdVariable) + "=" + *chosen + " does not exist"
                : "no Oclgrind to check on: no Oclgrind ICD is registered or installed (install the oclgrind "
                  "package, or set " +
                      std::string(kIcdVariable) + " to its liboclgrind-rt-icd.so)");
    }
    m_icd = *icd;

    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec)
        base = "/tmp";
    std::string pattern = (base / "clscope-check-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a folder for the check under " + base.string() + ": " +
                                 std::generic_category().message(errno));
    m_directory = pattern;
    try {
        fs::create_directory(m_directory / "vendors");
        writeFile(m_directory / "vendors" / "oclgrind.icd", m_icd + '\n');
    } catch (...) {
        fs::remove_all(m_directory, ec);
        throw;
    }

    for (const std::string &entry : environment) {
        const std::string_view name = std::string_view(entry).substr(0, entry.find('='));
        const bool ours = settings.maxErrors > 0 && name == "OCLGRIND_MAX_ERRORS";
        if (!ours && std::find(std::begin(kDropped), std::end(kDropped), name) == std::end(kDropped))
            m_environment.push_back(entry);
    }
    m_environment.push_back("OCL_ICD_VENDORS=" + (m_directory / "vendors").string());
    m_environment.push_back("OCLGRIND_LOG=" + logPath().string());
    if (settings.apiChecks)
        m_environment.emplace_back("OCLGRIND_CHECK_API=1");
    if (settings.dataRaces)
        m_environment.emplace_back("OCLGRIND_DATA_RACES=1");
    if (settings.uninitialized)
        m_environment.emplace_back("OCLGRIND_UNINITIALIZED=1");
    if (settings.maxErrors > 0)
        m_environment.push_back("OCLGRIND_MAX_ERRORS=" + std::to_string(settings.maxErrors));
    m_environment.emplace_back("CLSCOPE_DEVICE=oclgrind");
    m_environment.push_back(std::string(kCheckChildVariable) + "=1");
    if (settings.lineProfiler.empty()) {
        m_environment.push_back(std::string(kCheckBuffersVariable) + "=" + buffersPath().string());
    } else {
        // Counting: no reports to name, so no probe kernel (it would be counted as a launch).
        m_environment.push_back("OCLGRIND_PLUGINS=" + settings.lineProfiler);
        m_environment.push_back("CLSCOPE_LINE_PROFILE=" + lineProfilePath().string());
        if (settings.sampleGroups > 0)
            m_environment.push_back("CLSCOPE_LINE_SAMPLE_GROUPS=" + std::to_string(settings.sampleGroups));
    }
}

CheckSession::~CheckSession()
{
    std::error_code ec;
    fs::remove_all(m_directory, ec);
}

CheckReport CheckSession::collect(std::string_view childStderr, const CheckSources &sources,
                                  std::string *restOfStderr) const
{
    std::error_code ec;
    const std::string log = readFile(logPath());
    CheckSources withTexts = sources;
    const auto addText = [&](const std::string &file) {
        if (!file.empty() && !withTexts.texts.contains(file) && fs::is_regular_file(file, ec))
            withTexts.texts.emplace(file, readFile(file));
    };
    addText(sources.sourceFile);
    // Source lines come from the files themselves: a first pass finds the files the reports name.
    for (const std::string_view text : {std::string_view(log), childStderr}) {
        for (const CheckDiagnostic &d : parseOclgrindOutput(text, withTexts).diagnostics) {
            for (const CheckSite &s : d.sites)
                addText(s.file);
        }
    }
    OclgrindOutput fromLog = parseOclgrindOutput(log, withTexts);
    OclgrindOutput fromStderr = parseOclgrindOutput(childStderr, withTexts);
    if (restOfStderr)
        *restOfStderr = std::move(fromStderr.rest);
    std::vector<CheckDiagnostic> all = std::move(fromLog.diagnostics);
    all.insert(all.end(), fromStderr.diagnostics.begin(), fromStderr.diagnostics.end());
    nameBuffers(all, checkedBuffersFromJson(readFile(buffersPath())));
    CheckReport report;
    report.diagnostics = mergeCheckDiagnostics(all);
    return report;
}

CheckChildResult CheckSession::run(const std::string &executable, const std::vector<std::string> &args,
                                   const CheckSources &sources,
                                   const std::shared_ptr<const std::atomic<bool>> &cancel) const
{
    std::error_code ec;
    const fs::path outPath = m_directory / "stdout";
    const fs::path errPath = m_directory / "stderr";
    fs::remove(logPath(), ec); // a child that fails before its first context leaves none
    fs::remove(buffersPath(), ec);
    fs::remove(lineProfilePath(), ec);

    const detail::ChildExit exit =
        detail::runChild(executable, args, m_environment, outPath, errPath, cancel);
    CheckChildResult result;
    result.exitCode = exit.exitCode;
    result.signal = exit.signal;
    result.cancelled = exit.cancelled;
    result.out = readFile(outPath);
    result.report = collect(readFile(errPath), sources, &result.err);
    return result;
}

std::vector<std::string> checkRunArguments(const RunRequest &request, const std::string &sourcePath,
                                           const std::string &buildOptions)
{
    std::vector<std::string> args{"run",          sourcePath, "--kernel",
                                  request.kernel, "--global", formatSizeList(request.range.global)};
    if (!request.range.local.empty())
        args.insert(args.end(), {"--local", formatSizeList(request.range.local)});
    if (!request.range.offset.empty())
        args.insert(args.end(), {"--offset", formatSizeList(request.range.offset)});
    args.insert(args.end(), {"--repeat", std::to_string(request.repeat)});
    for (const ArgValue &a : request.args)
        args.insert(args.end(), {"--arg", toString(a)});
    std::vector<std::string> prints = request.readBack;
    if (request.readBackAll) {
        for (const ArgValue &a : request.args) {
            if (std::holds_alternative<BufferArg>(a.value) &&
                std::find(prints.begin(), prints.end(), a.name) == prints.end())
                prints.push_back(a.name);
        }
    }
    for (const std::string &p : prints)
        args.insert(args.end(), {"--print", p});
    if (!buildOptions.empty())
        args.insert(args.end(), {"--options", buildOptions});
    args.insert(args.end(), {"--check", "--json"});
    return args;
}

std::vector<std::string> rooflineArguments(const RunRequest &request, const std::string &sourcePath,
                                           const std::string &buildOptions, const std::string &deviceSpec)
{
    RunRequest timed = request;
    timed.repeat = std::max(request.repeat, 10);
    timed.readBack.clear();
    timed.readBackAll = false;
    std::vector<std::string> args = checkRunArguments(timed, sourcePath, buildOptions);
    args.front() = "roofline";
    args.erase(std::find(args.begin(), args.end(), "--check")); // run's; --json stays last
    args.insert(args.end() - 1, {"--device", deviceSpec});
    return args;
}

} // namespace clscope
