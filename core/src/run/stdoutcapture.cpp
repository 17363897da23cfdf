#include "clscope/stdoutcapture.h"

#include "clscope/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace clscope {
namespace {

std::string systemError(const char *what)
{
    return std::string("cannot capture the kernel's printf output: ") + what + ": " + std::strerror(errno);
}

std::mutex &captureMutex()
{
    static std::mutex mutex;
    return mutex;
}

void flushStdio()
{
    std::cout.flush();
    std::fflush(stdout);
}

} // namespace

StdoutCapture::StdoutCapture(std::size_t limit)
    : m_lock(captureMutex())
    , m_limit(limit)
{
    int fds[2];
    if (pipe(fds) != 0)
        throw Error(systemError("pipe"));
    flushStdio();
    m_saved = dup(STDOUT_FILENO);
    if (m_saved < 0 || dup2(fds[1], STDOUT_FILENO) < 0) {
        const std::string message = systemError("dup");
        if (m_saved >= 0)
            close(m_saved);
        close(fds[0]);
        close(fds[1]);
        throw Error(message);
    }
    close(fds[1]); // descriptor 1 is now the only write end: the reader sees the end when it is put back
    m_readEnd = fds[0];
    m_reader = std::thread([this] {
        char buffer[65536];
        for (;;) {
            const ssize_t n = read(m_readEnd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            const std::size_t room = m_limit > m_text.size() ? m_limit - m_text.size() : 0;
            const std::size_t keep = std::min(room, std::size_t(n));
            m_text.append(buffer, keep);
            m_dropped += std::size_t(n) - keep;
        }
    });
}

StdoutCapture::~StdoutCapture()
{
    restore();
}

void StdoutCapture::restore()
{
    if (m_finished)
        return;
    m_finished = true;
    flushStdio();
    dup2(m_saved, STDOUT_FILENO); // closes the pipe's last write end: the reader reads to its end
    close(m_saved);
    if (m_reader.joinable())
        m_reader.join();
    close(m_readEnd);
    m_lock.unlock();
}

const std::string &StdoutCapture::finish()
{
    restore();
    return m_text;
}

} // namespace clscope
