// What the process writes to its standard output while a kernel runs: the kernel's printf, which OpenCL
// drivers write there themselves (PoCL when the command completes, Oclgrind while the kernel runs). The
// CLI takes it apart from its own output, so that it never lands in front of a JSON document.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace clscope {

// Redirects file descriptor 1 into a pipe from construction to finish() (or destruction), drained by a
// thread of its own so that a kernel that prints more than a pipe holds never blocks. One capture at a time
// in a process: a second waits in its constructor until the first is finished (the GUI runs on several
// devices at once). What other threads write to stdout meanwhile is taken too.
class StdoutCapture
{
public:
    // Keeps at most `limit` bytes and counts the rest. Throws Error (a Failure) when the descriptor cannot
    // be redirected (no pipe, no descriptor left); stdout is then as it was.
    explicit StdoutCapture(std::size_t limit = std::size_t(64) << 20);
    ~StdoutCapture();
    StdoutCapture(const StdoutCapture &) = delete;
    StdoutCapture &operator=(const StdoutCapture &) = delete;

    // Flushes C and C++ stdio, puts stdout back and returns what was written (once; later calls return
    // the same text).
    const std::string &finish();
    // Bytes written past the limit (left out of finish()'s text).
    std::size_t dropped() const { return m_dropped; }

private:
    void restore();

    std::unique_lock<std::mutex> m_lock; // the process's one capture
    std::size_t m_limit;
    int m_saved = -1;
    int m_readEnd = -1;
    bool m_finished = false;
    std::string m_text;
    std::size_t m_dropped = 0;
    std::thread m_reader;
};

} // namespace clscope
