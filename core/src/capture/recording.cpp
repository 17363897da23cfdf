// One recording of a program: the capture file, the socket its layer streams into, the environment that
// loads the layer, and the loop that writes the stream into the file. clscope-cli capture starts the
// program with fork/exec, the GUI with QProcess; both record the same way.
#include "clscope/capture.h"
#include "clscope/packagefiles.h"

#include "capturetarget.h"
#include "protocol.h"
#include "sqlite.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace clscope {

namespace {

namespace fs = std::filesystem;
namespace wire = capture::wire;

std::string joinList(const auto &items)
{
    std::string s;
    for (const auto &i : items) {
        if (!s.empty())
            s += ',';
        if constexpr (std::is_same_v<std::decay_t<decltype(i)>, std::string>)
            s += i;
        else
            s += std::to_string(i);
    }
    return s;
}

} // namespace

std::string joinCommandLine(const std::vector<std::string> &args)
{
    std::string s;
    for (const std::string &a : args) {
        if (!s.empty())
            s += ' ';
        const bool quote = a.empty() || a.find_first_of(" \t\"'\\$") != std::string::npos;
        if (!quote) {
            s += a;
            continue;
        }
        s += '\'';
        for (char c : a)
            s += c == '\'' ? std::string("'\\''") : std::string(1, c);
        s += '\'';
    }
    return s;
}

CaptureTimestamps CaptureTimestamps::parse(const std::string &text)
{
    const std::optional<std::uint32_t> every = wire::parseTimestampsEvery(text);
    if (!every)
        throw CaptureError("timestamps: 'all', 'program' or N (one command in N), not '" + text + "'");
    return {*every};
}

std::string CaptureTimestamps::text() const
{
    return every == 1 ? "all" : every == 0 ? "program" : std::to_string(every);
}

std::string findCaptureLayer(const std::string &executableDir)
{
    if (const char *env = std::getenv("CLSCOPE_LAYER"); env && *env)
        return env;
    if (auto found = findPackageLibrary("libclscope-layer.so", executableDir))
        return *found;
    throw CaptureError("cannot find libclscope-layer.so next to " +
                       (executableDir.empty() ? std::string("this program") : executableDir) + " or in " +
                       packageLibraryDir() + " (set CLSCOPE_LAYER to its path)");
}

CaptureRecording::CaptureRecording(const std::string &output, const std::string &layer,
                                   const std::string &command, const CaptureContents &contents,
                                   CaptureTimestamps timestamps, bool force)
    : m_output(output)
    , m_layer(layer)
    , m_command(command)
    , m_timestamps(timestamps)
    , m_startedNs(hostNowNs())
    , m_contents(contents)
{
    for (std::int64_t l : contents.launches)
        if (l < 0)
            throw CaptureError("launch indices count from 0, not " + std::to_string(l));
    // A file that cannot be written, or must not be replaced, is said now, before the program runs; the
    // tables are made later (createFile), while the program starts.
    m_target = std::make_unique<capture::CaptureTarget>(output, force);
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw CaptureError(std::string("cannot create the capture socket: ") + std::strerror(errno));
    m_fd = fds[0];
    m_programFd = fds[1];
}

void CaptureRecording::createFile()
{
    if (m_writer)
        return;
    m_writer = std::make_unique<CaptureWriter>(m_target->temporary());
    m_writer->setMeta("command", m_command);
    m_writer->setMeta("layer", m_layer);
    m_writer->setMeta("started_ns", std::to_string(m_startedNs));
    m_writer->setMeta("timestamps", m_timestamps.text());
}

std::string CaptureRecording::writingPath() const
{
    return m_target && !m_target->temporary().empty() ? m_target->temporary() : m_output;
}

CaptureRecording::~CaptureRecording()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_programFd >= 0)
        ::close(m_programFd);
    m_writer.reset(); // before its file goes
}

std::vector<CaptureRecording::Variable> CaptureRecording::environment(const std::string &currentLayers) const
{
    struct stat st
    {};
    ::fstat(m_programFd, &st);
    std::vector<Variable> env;
    env.push_back({"OPENCL_LAYERS", currentLayers.empty() ? m_layer : m_layer + ":" + currentLayers});
    env.push_back({wire::kEnvFd, std::to_string(m_programFd) + ":" + std::to_string(st.st_ino)});
    env.push_back({wire::kEnvContents, m_contents.all ? "all" : ""});
    env.push_back({wire::kEnvKernels, joinList(m_contents.kernels)});
    env.push_back({wire::kEnvLaunches, joinList(m_contents.launches)});
    env.push_back({wire::kEnvBudget,
                   m_contents.budget ? std::optional(std::to_string(*m_contents.budget)) : std::nullopt});
    // Contents are asked for to replay a launch, which needs its source: pyopencl's binary cache would hand
    // the driver a binary instead (it rebuilds from source with the cache off).
    if (m_contents.any())
        env.push_back({"PYOPENCL_NO_CACHE", "1", false});
    env.push_back({wire::kEnvTimestamps, m_timestamps.text()});
    return env;
}

void CaptureRecording::programStarted()
{
    if (m_programFd >= 0)
        ::close(m_programFd);
    m_programFd = -1;
}

void CaptureRecording::record(const std::atomic<bool> &programExited)
{
    // The program comes first: on a machine with few cores the recorder yields to it and catches up from
    // the layer's buffer (which holds 256 MiB before anything is dropped).
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
    try {
        createFile();
    } catch (const std::exception &e) {
        m_error = e.what();
        m_incomplete = true;
        ::close(m_fd); // the layer stops sending; the program runs on
        m_fd = -1;
        return;
    }
    std::vector<unsigned char> buffer(std::size_t(1) << 20);
    auto lastData = std::chrono::steady_clock::now();
    while (!m_stop.load()) {
        pollfd p{m_fd, POLLIN, 0};
        const int n = ::poll(&p, 1, 100);
        if (n < 0 && errno != EINTR)
            break;
        if (n > 0) {
            const ssize_t got = ::read(m_fd, buffer.data(), buffer.size());
            if (got == 0)
                break;
            if (got < 0) {
                if (errno == EINTR || errno == EAGAIN)
                    continue;
                break;
            }
            lastData = std::chrono::steady_clock::now();
            m_bytes.fetch_add(std::uint64_t(got));
            try {
                m_writer->feed(buffer.data(), std::size_t(got));
            } catch (const std::exception &e) {
                // A full disk, most often: what was committed stays, and finish() completes the file with
                // the space the reserve gives back.
                m_error = e.what();
                m_incomplete = true;
                break;
            }
        } else if (programExited.load() &&
                   std::chrono::steady_clock::now() - lastData > std::chrono::seconds(2)) {
            break;
        }
    }
    // Closing our end makes the layer stop sending; the program runs on.
    ::close(m_fd);
    m_fd = -1;
}

namespace {
// Errors name the file the user named, not the temporary one beside it.
std::string namingTarget(std::string text, const std::string &temporary, const std::string &target)
{
    if (!temporary.empty())
        for (std::size_t at; (at = text.find(temporary)) != std::string::npos;)
            text.replace(at, temporary.size(), target);
    return text;
}
} // namespace

void CaptureRecording::finish(std::optional<int> exitStatus)
{
    if (!m_writer) {
        // No file was made: the output stays as it was.
        m_incomplete = true;
        return;
    }
    if (m_incomplete)
        m_target->releaseReserve();
    try {
        if (exitStatus)
            m_writer->setMeta("exit_status", std::to_string(*exitStatus));
        m_writer->setMeta("ended_ns", std::to_string(hostNowNs()));
        m_writer->finish();
    } catch (const std::exception &e) {
        m_incomplete = true;
        if (m_error.empty())
            m_error = e.what();
    }
    m_writer.reset();
    m_error = namingTarget(m_error, m_target->temporary(), m_output);
    try {
        m_target->place();
    } catch (const CaptureError &e) {
        m_incomplete = true;
        if (m_error.empty())
            m_error = e.what();
    }
}

} // namespace clscope
