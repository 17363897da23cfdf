// The debug session's environment and the blocking controller of clscope-cli debug (debug.h).
#include "clscope/debug.h"
#include "clscope/error.h"
#include "clscope/fileio.h"

#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clscope {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxLine = 64 << 20; // a reply of every element of many arrays stays far below

CheckSettings debugSettings()
{
    CheckSettings s;
    s.apiChecks = true; // an invalid API call is worth seeing while debugging; it costs the simulator nothing
    s.dataRaces = false;
    s.uninitialized = false;
    return s;
}

std::string readOutput(const fs::path &path)
{
    try {
        return readRegularFile(path, kMaxDocumentBytes);
    } catch (const FileError &) {
        return {};
    }
}

} // namespace

DebugSession::DebugSession(const std::vector<std::string> &environment, const std::string &plugin)
    : m_check(environment, debugSettings())
{
    for (const std::string &entry : m_check.environment()) {
        const std::string_view name = std::string_view(entry).substr(0, entry.find('='));
        if (name != kCheckBuffersVariable && name != kCheckChildVariable && name != "CLSCOPE_NO_CACHE")
            m_environment.push_back(entry);
    }
    m_environment.push_back("OCLGRIND_PLUGINS=" + plugin);
    m_environment.push_back("CLSCOPE_DEBUG_SOCKET=" + socketPath().string());
    m_environment.emplace_back("OCLGRIND_INTERACTIVE=1");
    // No binary cache: a binary kept from a build without OCLGRIND_INTERACTIVE has no variables, and one kept
    // from this -O0 build must not stand in for an optimised one later.
    m_environment.emplace_back("CLSCOPE_NO_CACHE=1");
}

std::string withoutDebugOption(std::string_view options)
{
    std::string out;
    std::size_t i = 0;
    while (i < options.size()) {
        const std::size_t start = options.find_first_not_of(' ', i);
        if (start == std::string_view::npos)
            break;
        const std::size_t end = std::min(options.find(' ', start), options.size());
        const std::string_view word = options.substr(start, end - start);
        if (word != "-g") {
            if (!out.empty())
                out += ' ';
            out += word;
        }
        i = end;
    }
    return out;
}

DebugChild::DebugChild(const DebugSession &session, const std::string &executable,
                       const std::vector<std::string> &args, std::string mainFile)
    : m_session(session)
    , m_mainFile(std::move(mainFile))
{
    const std::string path = session.socketPath().string();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path)
        throw std::runtime_error("the debugger's socket path is too long: " + path);
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    m_listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listener < 0 ||
        ::bind(m_listener, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(m_listener, 1) != 0) {
        const int e = errno;
        if (m_listener >= 0)
            ::close(m_listener);
        throw std::runtime_error("cannot listen for the debugger at " + path + ": " +
                                 std::generic_category().message(e));
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const fs::path out = session.check().directory() / "stdout";
    const fs::path err = session.check().directory() / "stderr";
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char *> argv{const_cast<char *>(executable.c_str())};
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (const std::string &e : session.environment())
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, executable.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        ::close(m_listener);
        throw std::runtime_error("cannot start " + executable + ": " +
                                 std::generic_category().message(spawned));
    }
    m_pid = pid;
}

DebugChild::~DebugChild()
{
    if (m_socket >= 0)
        ::close(m_socket);
    if (m_listener >= 0)
        ::close(m_listener);
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
}

// Reads what comes within timeout; false when nothing came: the child ended, closed the socket, or is quiet.
bool DebugChild::fill(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const int fd = m_socket >= 0 ? m_socket : m_listener;
        if (fd < 0)
            return false;
        pollfd p{fd, POLLIN, 0};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        // Short waits: a child that ends without connecting must be noticed.
        const int ready = ::poll(&p, 1, int(std::clamp<long long>(left.count(), 0, 50)));
        if (ready < 0 && errno != EINTR)
            return false;
        if (ready > 0) {
            if (m_socket < 0) {
                m_socket = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
                if (m_socket >= 0) {
                    ::close(m_listener);
                    m_listener = -1;
                }
                continue;
            }
            char chunk[65536];
            const ssize_t n = ::recv(m_socket, chunk, sizeof chunk, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                ::close(m_socket);
                m_socket = -1;
                return false;
            }
            m_buffer.append(chunk, std::size_t(n));
            if (m_buffer.size() > kMaxLine && m_buffer.find('\n') == std::string::npos)
                throw Error("the debugger plugin sent a line longer than 64 MB", ErrorCategory::Failure);
            return true;
        }
        if (m_socket < 0 && m_pid > 0) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1; // ended without connecting; finish() reports the status
                m_endedStatus = status;
                return false;
            }
        }
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
    }
}

std::optional<std::string> DebugChild::takeLine()
{
    const std::size_t end = m_buffer.find('\n');
    if (end == std::string::npos)
        return std::nullopt;
    std::string line = m_buffer.substr(0, end);
    m_buffer.erase(0, end + 1);
    return line;
}

std::optional<DebugMessage> DebugChild::next(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (auto line = takeLine()) {
            DebugMessage m = parseDebugMessage(*line, m_mainFile);
            if (!m_helloSeen && m.kind != DebugMessage::Kind::Hello)
                throw Error("the debugger plugin did not say hello first", ErrorCategory::Failure);
            m_helloSeen = true;
            return m;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return std::nullopt;
        if (!fill(left)) {
            if (!m_helloSeen && m_endedStatus) {
                const std::string err = readOutput(m_session.check().directory() / "stderr");
                throw Error(
                    "the launch ended on Oclgrind before the debugger could stop it (the program failed "
                    "before its first context, or the plugin did not load)" +
                        (err.empty() ? std::string() : ":\n" + err),
                    ErrorCategory::Failure);
            }
            return std::nullopt;
        }
    }
}

void DebugChild::send(const std::string &request)
{
    if (m_socket < 0)
        return;
    std::size_t done = 0;
    while (done < request.size()) {
        const ssize_t n = ::send(m_socket, request.data() + done, request.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // the child has gone: next() says so
        done += std::size_t(n);
    }
}

DebugMessage DebugChild::request(const std::string &request, std::chrono::milliseconds timeout)
{
    send(request);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        auto m = next(std::max(left, std::chrono::milliseconds(0)));
        if (!m)
            throw Error("the debugged launch ended before it answered", ErrorCategory::Failure);
        if (m->kind == DebugMessage::Kind::Reply)
            return *m;
        if (m->kind != DebugMessage::Kind::Progress)
            throw Error("the debugger plugin answered out of turn", ErrorCategory::Failure);
    }
}

CheckChildResult DebugChild::finish(std::chrono::milliseconds timeout)
{
    if (m_socket >= 0) {
        ::close(m_socket);
        m_socket = -1;
    }
    CheckChildResult result;
    int status = 0;
    if (m_pid > 0) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
            if (r == m_pid || (r < 0 && errno != EINTR))
                break;
            if (std::chrono::steady_clock::now() >= deadline) {
                ::kill(m_pid, SIGKILL);
                while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
                }
                result.cancelled = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        m_pid = -1;
    } else if (m_endedStatus) {
        status = *m_endedStatus;
    }
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.signal = WTERMSIG(status);
    result.out = readOutput(m_session.check().directory() / "stdout");
    CheckSources sources;
    sources.sourceFile = m_mainFile;
    result.report =
        m_session.check().collect(readOutput(m_session.check().directory() / "stderr"), sources, &result.err);
    return result;
}

} // namespace clscope
