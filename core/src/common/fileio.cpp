// RegularFile, readRegularFile and writeWholeFile: POSIX calls rather than iostreams, because a stream
// forgets errno (ENOSPC became "Unknown error") and opens a FIFO with a blocking open().
#include "clscope/fileio.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clscope {
namespace {

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a plain file";
}

[[noreturn]] void failRead(const std::string &path, const std::string &reason)
{
    throw FileError("read", path, reason);
}

} // namespace

FileError::FileError(const std::string &action, std::string path, std::string reason)
    : Error("cannot " + action + " " + path + ": " + reason)
    , m_path(std::move(path))
    , m_reason(std::move(reason))
{}

std::string errnoText(int code)
{
    return code == 0 ? std::string("unknown error") : std::string(std::strerror(code));
}

RegularFile::RegularFile(const std::filesystem::path &path)
    : m_path(path.string())
{
    // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting for one.
    m_fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (m_fd < 0) {
        const int code = errno;
        failRead(m_path, code == ENOENT ? std::string("no such file") : errnoText(code));
    }
    struct stat st
    {};
    if (::fstat(m_fd, &st) != 0) {
        const int code = errno;
        ::close(m_fd);
        failRead(m_path, errnoText(code));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(m_fd);
        failRead(m_path, "not a regular file (" + kindOf(st.st_mode) + ")");
    }
    const int flags = ::fcntl(m_fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(m_fd, F_SETFL, flags & ~O_NONBLOCK);
    m_size = std::uint64_t(st.st_size);
}

RegularFile::~RegularFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

RegularFile::RegularFile(RegularFile &&other) noexcept
    : m_path(std::move(other.m_path))
    , m_fd(std::exchange(other.m_fd, -1))
    , m_size(other.m_size)
    , m_buffer(std::move(other.m_buffer))
    , m_start(other.m_start)
    , m_eof(other.m_eof)
{}

std::string RegularFile::readAll(std::uint64_t maxBytes)
{
    if (m_size > maxBytes)
        failRead(m_path, std::to_string(m_size) + " bytes, more than the " + std::to_string(maxBytes) +
                             " it may have");
    std::string out;
    out.resize(std::size_t(m_size));
    std::size_t have = 0;
    while (true) {
        if (have == out.size()) {
            // A file that grew since fstat: read on, within the limit.
            if (out.size() >= maxBytes) {
                char probe = 0;
                if (read(&probe, 1) > 0)
                    failRead(m_path, "it grew past " + std::to_string(maxBytes) + " bytes while it was read");
                break;
            }
            out.resize(std::size_t(std::min<std::uint64_t>(maxBytes, std::uint64_t(out.size()) + 65536)));
        }
        const std::size_t n = read(out.data() + have, out.size() - have);
        if (n == 0)
            break;
        have += n;
    }
    out.resize(have);
    return out;
}

std::size_t RegularFile::fill()
{
    if (m_start > 0) {
        m_buffer.erase(0, m_start);
        m_start = 0;
    }
    const std::size_t old = m_buffer.size();
    m_buffer.resize(old + 65536);
    while (true) {
        const ssize_t n = ::read(m_fd, m_buffer.data() + old, 65536);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int code = errno;
            m_buffer.resize(old);
            failRead(m_path, errnoText(code));
        }
        m_buffer.resize(old + std::size_t(n));
        if (n == 0)
            m_eof = true;
        return std::size_t(n);
    }
}

bool RegularFile::readLine(std::string &line, std::size_t maxLength)
{
    std::size_t searchFrom = m_start;
    while (true) {
        const std::size_t newline = m_buffer.find('\n', searchFrom);
        if (newline != std::string::npos) {
            if (newline - m_start > maxLength)
                break;
            line.assign(m_buffer, m_start, newline - m_start);
            m_start = newline + 1;
            return true;
        }
        if (m_buffer.size() - m_start > maxLength)
            break;
        if (m_eof) {
            if (m_start >= m_buffer.size())
                return false;
            line.assign(m_buffer, m_start, std::string::npos);
            m_start = m_buffer.size();
            return true;
        }
        const std::size_t pending = m_buffer.size() - m_start;
        fill(); // moves the pending bytes to the front
        searchFrom = pending;
    }
    failRead(m_path, "a line is longer than " + std::to_string(maxLength) + " bytes");
}

std::size_t RegularFile::read(char *data, std::size_t size)
{
    while (true) {
        const ssize_t n = ::read(m_fd, data, size);
        if (n >= 0)
            return std::size_t(n);
        if (errno != EINTR)
            failRead(m_path, errnoText(errno));
    }
}

std::string RegularFile::readAt(std::uint64_t offset, std::size_t maxBytes)
{
    // No more memory than the file has past offset now (it may have grown since it was opened).
    struct stat st
    {};
    const std::uint64_t size = ::fstat(m_fd, &st) == 0 ? std::uint64_t(st.st_size) : m_size;
    std::string out(std::size_t(std::min<std::uint64_t>(maxBytes, size > offset ? size - offset : 0)), '\0');
    std::size_t have = 0;
    while (have < out.size()) {
        const ssize_t n = ::pread(m_fd, out.data() + have, out.size() - have, off_t(offset + have));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            failRead(m_path, errnoText(errno));
        if (n == 0)
            break;
        have += std::size_t(n);
    }
    out.resize(have);
    return out;
}

std::string readRegularFile(const std::filesystem::path &path, std::uint64_t maxBytes)
{
    return RegularFile(path).readAll(maxBytes);
}

std::string regularFileProblem(const std::filesystem::path &path)
{
    struct stat st
    {};
    if (::stat(path.c_str(), &st) != 0)
        return errno == ENOENT ? std::string("no such file") : errnoText(errno);
    if (!S_ISREG(st.st_mode))
        return "not a regular file (" + kindOf(st.st_mode) + ")";
    return {};
}

namespace {

// Writes bytes to fd: every write and the fsync checked. Returns 0 or the errno of the failure.
int writeAll(int fd, std::string_view bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : ENOSPC;
        done += std::size_t(n);
    }
    // Space a file system reserves lazily (NFS, some FUSE) is only known to be short at fsync or close.
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        return errno;
    return 0;
}

} // namespace

void writeWholeFile(const std::filesystem::path &path, std::string_view bytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    // A symbolic link keeps pointing where it did: the file it names is the one replaced.
    const fs::path target = fs::is_symlink(path, ec) ? fs::weakly_canonical(path, ec) : path;
    const std::string name = path.string();
    struct stat st
    {};
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        // A FIFO, a terminal, /dev/null, /dev/stdout: written to in place, as they cannot be replaced.
        const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            throw FileError("write", name, errnoText(errno));
        const int code = writeAll(fd, bytes);
        if (::close(fd) != 0 && code == 0)
            throw FileError("write", name, errnoText(errno));
        if (code != 0)
            throw FileError("write", name, errnoText(code));
        return;
    }
    // A regular file (or none yet): the new contents go to a file beside it, which replaces it only once
    // complete, so a full disk or a crash leaves the old file as it was.
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string base = "." + target.filename().string() + ".part-" + std::to_string(::getpid()) + "-";
    int fd = -1;
    fs::path temporary;
    for (unsigned attempt = 0; fd < 0; ++attempt) {
        temporary = dir / (base + std::to_string(attempt));
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                    exists ? (st.st_mode & 07777) : 0666);
        if (fd < 0 && (errno != EEXIST || attempt > 1000))
            throw FileError("write", name, errnoText(errno));
    }
    if (exists)
        (void)::fchmod(fd, st.st_mode & 07777); // the old file's mode, whatever the umask
    int code = writeAll(fd, bytes);
    if (::close(fd) != 0 && code == 0)
        code = errno;
    if (code == 0 && ::rename(temporary.c_str(), target.c_str()) != 0)
        code = errno;
    if (code != 0) {
        ::unlink(temporary.c_str());
        throw FileError("write", name, errnoText(code));
    }
}

} // namespace clscope
