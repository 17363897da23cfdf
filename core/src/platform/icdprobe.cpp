// The ICD probe: the drivers the loader would load (ocl-icd's rules), each listed in a child process of
// its own with a time limit, and the child's side of it.
#include "clscope/icdprobe.h"

#include "clscope/check.h"
#include "clscope/deviceinfo.h"
#include "clscope/fileio.h"
#include "clscope/text.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clscope {
namespace fs = std::filesystem;
namespace {

constexpr const char *kSystemVendors = "/etc/OpenCL/vendors";
constexpr std::uint64_t kMaxIcdFileBytes = 64 * 1024;

// The variables that decide what a loader loads, which each child gets its own value of; and the layers a
// child must not load (a capture of this process would record the probes).
constexpr std::string_view kLoaderVariables[] = {"OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "OPENCL_VENDOR_PATH",
                                                 "OPENCL_LAYERS", kProbeChildVariable};

std::string value(const std::vector<std::string> &environment, std::string_view name)
{
    return environmentValue(environment, name).value_or(std::string());
}

bool endsWithIcd(std::string_view name)
{
    return name.size() >= 5 && name.substr(name.size() - 4) == ".icd";
}

// An .icd file as ocl-icd reads it: its first line names the library (only a '\n' is cut, so the copy we
// hand the loader keeps every other byte). A file the loader would not get a line from is left out, as the
// loader leaves it out; one we cannot read safely (a FIFO would block the loader) is kept, marked.
std::optional<IcdEntry> icdFile(const fs::path &path)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st) || fs::is_directory(st))
        return std::nullopt;
    IcdEntry e;
    e.file = path.string();
    try {
        e.text = readRegularFile(path, kMaxIcdFileBytes);
    } catch (const FileError &error) {
        e.unreadable = error.reason();
        return e;
    }
    const std::string_view first = std::string_view(e.text).substr(0, e.text.find('\n'));
    if (first.empty())
        return std::nullopt;
    e.library = std::string(trimSpace(first));
    return e;
}

void addFolder(const fs::path &folder, std::vector<IcdEntry> &out)
{
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (endsWithIcd(it->path().filename().string()))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path &f : files) {
        if (auto e = icdFile(f))
            out.push_back(std::move(*e));
    }
}

std::string signalName(int signal)
{
    switch (signal) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGABRT:
        return "SIGABRT";
    case SIGILL:
        return "SIGILL";
    case SIGFPE:
        return "SIGFPE";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGSYS:
        return "SIGSYS";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGXCPU:
        return "SIGXCPU";
    case SIGXFSZ:
        return "SIGXFSZ";
    default:
        return "signal " + std::to_string(signal);
    }
}

std::string seconds(std::chrono::milliseconds ms)
{
    if (ms.count() % 1000 == 0)
        return std::to_string(ms.count() / 1000) + " s";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms.count()) / 1000.0);
    return text;
}

// At most the last `limit` bytes of a file the child wrote; "" when there is none.
std::string tail(const fs::path &path, std::size_t limit)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return {};
    struct stat st
    {};
    std::string out;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        const off_t size = st.st_size;
        const off_t from = size > static_cast<off_t>(limit) ? size - static_cast<off_t>(limit) : 0;
        out.resize(static_cast<std::size_t>(size - from));
        const ssize_t n = ::pread(fd, out.data(), out.size(), from);
        out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    }
    ::close(fd);
    return out;
}

std::string lastLine(std::string_view text)
{
    while (!text.empty()) {
        const std::size_t nl = text.find_last_of('\n');
        const std::string_view line = trimSpace(nl == std::string_view::npos ? text : text.substr(nl + 1));
        if (!line.empty())
            return std::string(line.substr(0, 300));
        if (nl == std::string_view::npos)
            break;
        text = text.substr(0, nl);
    }
    return {};
}

std::string firstLine(std::string_view text)
{
    return std::string(trimSpace(text.substr(0, text.find('\n'))));
}

// One child: everything it needs is made before fork, so that the child only calls what is safe between
// fork and exec in a process that may have threads.
struct Child
{
    fs::path dir;
    std::vector<std::string> env;
    pid_t pid = -1;
    bool running = false;
    std::chrono::steady_clock::time_point started;
};

pid_t spawn(const std::string &executable, Child &c)
{
    const std::string out = (c.dir / "stdout").string();
    const std::string err = (c.dir / "stderr").string();
    std::vector<char *> argv{const_cast<char *>(executable.c_str()), const_cast<char *>(kProbeArgument),
                             nullptr};
    std::vector<char *> envp;
    for (const std::string &e : c.env)
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    // The child: killed with its parent (a hung driver must not outlive us), no core dump for a crash we
    // expect and report, and its output in files of the session.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
        ::_exit(127);
    const struct rlimit noCore
    {
        0, 0
    };
    ::setrlimit(RLIMIT_CORE, &noCore);
    const int in = ::open("/dev/null", O_RDONLY);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || o < 0 || e < 0 || ::dup2(in, 0) < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0)
        ::_exit(127);
    ::execve(executable.c_str(), argv.data(), envp.data());
    ::_exit(127);
}

void finish(IcdProbe &probe, const Child &c, int status)
{
    probe.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - c.started);
    if (WIFSIGNALED(status)) {
        probe.outcome = ProbeOutcome::Crashed;
        probe.signal = WTERMSIG(status);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        probe.outcome = ProbeOutcome::Failed;
        probe.exitCode = WEXITSTATUS(status);
        probe.detail = lastLine(tail(c.dir / "stderr", 4096));
    } else {
        probe.outcome = ProbeOutcome::Ok;
        probe.summary = firstLine(tail(c.dir / "stdout", 4096));
    }
}

} // namespace

std::vector<IcdEntry> loaderIcds(const std::vector<std::string> &environment)
{
    std::vector<IcdEntry> out;
    const std::string vendors = value(environment, "OCL_ICD_VENDORS");
    std::string vendorPath = value(environment, "OPENCL_VENDOR_PATH");
    if (vendorPath.empty())
        vendorPath = kSystemVendors;
    std::error_code ec;
    if (vendors.empty()) {
        addFolder(vendorPath, out);
    } else if (fs::is_directory(vendors, ec)) {
        addFolder(vendors, out);
    } else if (endsWithIcd(vendors)) {
        std::optional<IcdEntry> e;
        if (vendors.find('/') == std::string::npos)
            e = icdFile(fs::path(vendorPath) / vendors);
        if (!e)
            e = icdFile(vendors);
        if (e)
            out.push_back(std::move(*e));
    } else {
        out.push_back({vendors, vendors, vendors + "\n", false});
    }
    const std::string filenames = value(environment, "OCL_ICD_FILENAMES");
    for (std::size_t start = 0; start <= filenames.size();) {
        std::size_t end = filenames.find(':', start);
        if (end == std::string::npos)
            end = filenames.size();
        const std::string library = filenames.substr(start, end - start);
        if (!library.empty())
            out.push_back({library, library, library + "\n", true});
        start = end + 1;
    }
    return out;
}

bool IcdProbe::skipped() const
{
    return outcome == ProbeOutcome::Crashed || outcome == ProbeOutcome::Hung ||
           outcome == ProbeOutcome::Failed;
}

std::string IcdProbe::reason() const
{
    switch (outcome) {
    case ProbeOutcome::Crashed:
        return "crashed (" + signalName(signal) + ")";
    case ProbeOutcome::Hung:
        return "did not answer within " + seconds(timeout);
    case ProbeOutcome::Failed:
        if (!icd.unreadable.empty())
            return "cannot be read (" + icd.unreadable + ")";
        return "failed (exit status " + std::to_string(exitCode) + (detail.empty() ? "" : ": " + detail) +
               ")";
    case ProbeOutcome::Ok:
    case ProbeOutcome::NotRun:
        break;
    }
    return {};
}

std::string IcdProbe::message() const
{
    if (!skipped())
        return {};
    if (!icd.unreadable.empty())
        return "the OpenCL driver file " + icd.file + " " + reason() + "; it was skipped";
    const std::string name = icd.file == icd.library ? icd.file : icd.file + " (" + icd.library + ")";
    return "the OpenCL driver " + name + " " + reason() + " while listing its devices; it was skipped";
}

std::chrono::milliseconds probeTimeout(const std::vector<std::string> &environment)
{
    const std::string text = value(environment, kProbeTimeoutVariable);
    if (text.empty())
        return kDefaultProbeTimeout;
    char *end = nullptr;
    const double s = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(s > 0) || s > 3600)
        return kDefaultProbeTimeout;
    return std::chrono::milliseconds(std::max<long long>(1, static_cast<long long>(s * 1000)));
}

std::vector<IcdProbe> probeIcds(const std::vector<IcdEntry> &icds,
                                const std::vector<std::string> &environment, const ProbeSettings &settings)
{
    std::vector<IcdProbe> out(icds.size());
    for (std::size_t i = 0; i < icds.size(); ++i) {
        out[i].icd = icds[i];
        if (!icds[i].unreadable.empty())
            out[i].outcome = ProbeOutcome::Failed; // no child: the loader would block on it or choke
    }
    auto notRun = [&](const std::string &why) {
        for (IcdProbe &p : out) {
            if (p.outcome == ProbeOutcome::NotRun)
                p.detail = why;
        }
        return out;
    };
    if (std::none_of(out.begin(), out.end(),
                     [](const IcdProbe &p) { return p.outcome == ProbeOutcome::NotRun; }))
        return out;
    if (::access(settings.executable.c_str(), X_OK) != 0)
        return notRun("cannot run the probe " + settings.executable + ": " +
                      std::generic_category().message(errno));

    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec)
        base = "/tmp";
    std::string pattern = (base / "clscope-probe-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        return notRun("cannot make a folder for the probe under " + base.string() + ": " +
                      std::generic_category().message(errno));
    const fs::path session(pattern);

    std::vector<std::string> inherited;
    for (const std::string &entry : environment) {
        const std::string_view name = std::string_view(entry).substr(0, entry.find('='));
        if (std::find(std::begin(kLoaderVariables), std::end(kLoaderVariables), name) ==
            std::end(kLoaderVariables))
            inherited.push_back(entry);
    }
    inherited.push_back(std::string(kProbeChildVariable) + "=1");
#if defined(__SANITIZE_ADDRESS__)
    // An ASan build's runtime would catch a driver's SIGSEGV in the child and exit 1 with its report: the
    // probe must see the crash as the signal it is.
    const auto asan = std::find_if(inherited.begin(), inherited.end(),
                                   [](const std::string &e) { return e.starts_with("ASAN_OPTIONS="); });
    if (asan == inherited.end())
        inherited.push_back("ASAN_OPTIONS=handle_segv=0");
    else
        *asan += ":handle_segv=0";
#endif

    std::vector<Child> children(icds.size());
    for (std::size_t i = 0; i < icds.size(); ++i) {
        if (out[i].outcome != ProbeOutcome::NotRun)
            continue;
        Child &c = children[i];
        c.dir = session / std::to_string(i);
        try {
            // A folder with one .icd: the loader sees this driver only (ocl-icd and the Khronos loader both
            // take a folder in OCL_ICD_VENDORS).
            fs::create_directories(c.dir / "vendors");
            writeWholeFile(c.dir / "vendors" / "driver.icd", icds[i].text);
        } catch (const std::exception &e) {
            out[i].detail = e.what();
            continue;
        }
        c.env = inherited;
        c.env.push_back("OCL_ICD_VENDORS=" + (c.dir / "vendors").string());
        c.started = std::chrono::steady_clock::now();
        c.pid = spawn(settings.executable, c);
        if (c.pid < 0) {
            out[i].detail = "cannot start the probe: " + std::generic_category().message(errno);
            continue;
        }
        c.running = true;
    }

    const auto deadline = std::chrono::steady_clock::now() + settings.timeout;
    auto running = [&] {
        return std::any_of(children.begin(), children.end(), [](const Child &c) { return c.running; });
    };
    while (running()) {
        for (std::size_t i = 0; i < children.size(); ++i) {
            Child &c = children[i];
            if (!c.running)
                continue;
            int status = 0;
            const pid_t r = ::waitpid(c.pid, &status, WNOHANG);
            if (r == c.pid) {
                c.running = false;
                finish(out[i], c, status);
            } else if (r < 0 && errno != EINTR) {
                // Reaped elsewhere (SIGCHLD ignored): what it printed is all there is to go by.
                c.running = false;
                finish(out[i], c, 0);
                if (out[i].summary.empty()) {
                    out[i].outcome = ProbeOutcome::NotRun;
                    out[i].detail = "the probe's status was lost";
                }
            }
        }
        if (!running())
            break;
        if (std::chrono::steady_clock::now() >= deadline) {
            for (std::size_t i = 0; i < children.size(); ++i) {
                Child &c = children[i];
                if (!c.running)
                    continue;
                ::kill(c.pid, SIGKILL);
                out[i].outcome = ProbeOutcome::Hung;
                out[i].timeout = settings.timeout;
                out[i].elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - c.started);
                // Reaped when it goes; a child stuck in the kernel stays a zombie rather than stalling us.
                for (int tries = 0; tries < 200; ++tries) {
                    int status = 0;
                    const pid_t r = ::waitpid(c.pid, &status, WNOHANG);
                    if (r == c.pid || (r < 0 && errno != EINTR))
                        break;
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                }
                c.running = false;
            }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    fs::remove_all(session, ec);
    return out;
}

void runIcdProbe()
{
    int code = 0;
    try {
        const SystemSnapshot snap = takeSnapshot({.imageFormats = false, .kernelProbe = false});
        std::size_t devices = 0;
        for (const PlatformSnapshot &p : snap.platforms)
            devices += p.devices.size();
        std::printf("%zu platform%s, %zu device%s\n", snap.platforms.size(),
                    snap.platforms.size() == 1 ? "" : "s", devices, devices == 1 ? "" : "s");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        code = 1;
    }
    // Out without exit handlers: a driver's teardown is not what is probed (the parent never unloads a
    // driver either), and a leak report of LeakSanitizer at exit is no failure of the driver.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
}

} // namespace clscope
