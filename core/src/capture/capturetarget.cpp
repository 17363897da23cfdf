// The capture file's target, its lock, its temporary file and its reserve of disk space (capturetarget.h).
#include "capturetarget.h"

#include "clscope/capture.h"

#include "sqlite.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clscope::capture {

namespace {

namespace fs = std::filesystem;

constexpr off_t kReserveBytes = off_t(1) << 20;

std::string errnoText(int err)
{
    return std::strerror(err);
}

// The pid written in a lock file by the capture that holds it.
std::string lockHolder(int fd)
{
    char buf[32] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, std::size_t(n)) : std::string();
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
        pid.pop_back();
    return pid.empty() ? std::string("unknown") : pid;
}

} // namespace

bool isCaptureFile(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    char header[16] = {};
    const ssize_t n = ::read(fd, header, sizeof header);
    ::close(fd);
    if (n != ssize_t(sizeof header) || std::memcmp(header, "SQLite format 3", 16) != 0)
        return false;
    try {
        Db db(path, SQLITE_OPEN_READONLY);
        Stmt s(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'commands', "
                   "'processes')");
        return s.step() && s.i64(0) == 3;
    } catch (const CaptureError &) {
        return false;
    }
}

CaptureTarget::CaptureTarget(const std::string &target, bool force)
{
    std::error_code ec;
    // A link to a capture: the capture it names is replaced, not the link.
    fs::path path = fs::is_symlink(target, ec) ? fs::weakly_canonical(target, ec) : fs::path(target);
    if (ec)
        path = target;
    m_target = path.string();
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    const std::string name = path.filename().string();
    if (name.empty() || name == "." || name == "..")
        throw CaptureError(target + " is a folder: name a file for the capture (-o FOLDER/NAME.clscope)");

    // The lock first: what is checked next cannot change under a capture that holds it.
    m_lockPath = m_target + ".lock";
    for (int attempt = 0;; ++attempt) {
        m_lockFd = ::open(m_lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (m_lockFd < 0) {
            const int err = errno;
            throw CaptureError("cannot write the capture file " + target + ": " + errnoText(err));
        }
        if (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            const std::string holder = lockHolder(m_lockFd);
            ::close(m_lockFd);
            m_lockFd = -1;
            if (err == EWOULDBLOCK)
                throw CaptureError(target + " is being written by another capture (pid " + holder + ")");
            throw CaptureError("cannot lock the capture file " + target + ": " + errnoText(err));
        }
        // The capture that held it may have removed it between our open and our lock: the lock is then on a
        // file nobody else will find. Take the one at the path.
        struct stat mine
        {
        }, there{};
        if (::fstat(m_lockFd, &mine) == 0 && ::stat(m_lockPath.c_str(), &there) == 0 &&
            mine.st_ino == there.st_ino && mine.st_dev == there.st_dev)
            break;
        ::close(m_lockFd);
        m_lockFd = -1;
        if (attempt == 10)
            throw CaptureError("cannot lock the capture file " + target + ": its lock file keeps changing");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(m_lockFd, 0) != 0 ||
        ::pwrite(m_lockFd, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
        // The lock holds without the pid: another capture then says "pid unknown".
    }

    const auto refuse = [this](const std::string &why) {
        ::unlink(m_lockPath.c_str());
        ::close(m_lockFd);
        m_lockFd = -1;
        throw CaptureError(why);
    };
    struct stat st
    {};
    if (::stat(m_target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            refuse(target + " is a folder: name a file for the capture (-o FOLDER/NAME.clscope)");
        if (!S_ISREG(st.st_mode))
            refuse(target + " is not a regular file: it is not replaced by a capture");
        if (!force && st.st_size > 0 && !isCaptureFile(m_target))
            refuse(target + " is not a CLScope capture: it is left as it is (--force replaces it)");
    } else if (errno != ENOENT) {
        const int err = errno;
        refuse("cannot write the capture file " + target + ": " + errnoText(err));
    }

    const std::string stem = (dir / ("." + name + "." + std::to_string(::getpid()))).string();
    m_temp = stem + ".capturing";
    m_reserve = stem + ".reserve";
    removeDatabase(m_temp);
    const int fd = ::open(m_temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int err = errno;
        refuse("cannot write the capture file " + target + ": " + errnoText(err));
    }
    ::close(fd);
    // The reserve: a capture that runs onto a full disk gives it back to write its last transaction, the
    // totals and the end, so that the file it leaves is complete up to where the disk filled.
    const int r = ::open(m_reserve.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (r >= 0) {
        const bool ok = ::posix_fallocate(r, 0, kReserveBytes) == 0;
        ::close(r);
        if (!ok)
            ::unlink(m_reserve.c_str());
    }
}

CaptureTarget::~CaptureTarget()
{
    if (!m_keepTemp && !m_temp.empty())
        removeDatabase(m_temp);
    if (!m_reserve.empty())
        ::unlink(m_reserve.c_str());
    if (m_lockFd >= 0) {
        ::unlink(m_lockPath.c_str()); // while it is held: a capture that opened it finds it gone and retries
        ::close(m_lockFd);
    }
}

void CaptureTarget::releaseReserve()
{
    ::unlink(m_reserve.c_str());
}

void CaptureTarget::place()
{
    releaseReserve();
    // What SQLite kept beside the old file would be read as part of the new one.
    for (const char *suffix : {"-wal", "-shm", "-journal"})
        ::unlink((m_target + suffix).c_str());
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0) {
        const int err = errno;
        m_keepTemp = true;
        throw CaptureError("cannot put the capture in place as " + m_target + ": " + errnoText(err) +
                           " (it is in " + m_temp + ")");
    }
    // A reader that had the file open kept it in WAL mode: its WAL and index go with it.
    for (const char *suffix : {"-wal", "-shm"})
        if (::access((m_temp + suffix).c_str(), F_OK) == 0)
            ::rename((m_temp + suffix).c_str(), (m_target + suffix).c_str());
    m_temp.clear();
}

} // namespace clscope::capture
