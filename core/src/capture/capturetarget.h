// Where a recording goes (issue 27): a capture file is the user's data. The recorder writes a temporary
// file beside the target and renames it into place at the end, so that a program that cannot be started,
// a capture that is abandoned, or a second capture of the same file never destroys the one that is there;
// a lock beside the target refuses a second capture while one writes it; a folder, or a file that is not a
// CLScope capture, is never replaced (unless forced); and a reserve of disk space, given back at the end,
// lets a capture that ran onto a full disk still finish the file with what fitted.
#pragma once

#include <string>

namespace clscope::capture {

class CaptureTarget
{
public:
    // Checks the target, takes its lock, and creates the temporary file. Throws CaptureError naming the
    // target: a folder, not a regular file, not a capture (unless `force`), written by another capture (with
    // its pid), or a folder that cannot be written.
    CaptureTarget(const std::string &target, bool force);
    // Removes the temporary file (unless placed, or kept because it could not be), the reserve and the lock.
    ~CaptureTarget();
    CaptureTarget(const CaptureTarget &) = delete;
    CaptureTarget &operator=(const CaptureTarget &) = delete;

    const std::string &target() const { return m_target; }
    const std::string &temporary() const { return m_temp; } // the SQLite file being written
    // Gives the reserved disk space back (before the last writes of a capture that met a full disk).
    void releaseReserve();
    // Renames the temporary file (and a -wal/-shm a reader kept open) over the target. Throws CaptureError;
    // the temporary file is then kept, and the message names it.
    void place();

private:
    std::string m_target;
    std::string m_temp;
    std::string m_reserve;
    std::string m_lockPath;
    int m_lockFd = -1;
    bool m_keepTemp = false;
};

// True when `path` is an SQLite file with a capture's tables (any schema version): what a capture may
// replace without being forced.
bool isCaptureFile(const std::string &path);

} // namespace clscope::capture
