// Starting a child process and waiting for it, as the memory check's child and the build's child need it:
// posix_spawn (which takes the environment as an argument, so the caller's is never changed), stdin from
// /dev/null, stdout and stderr to files, and a wait that a cancel flag can cut short; and the private folder
// such a child's files go to.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace clscope::detail {

// A private folder under the temporary directory ("clscope-NAME-XXXXXX"), removed with everything in it.
class TempFolder
{
public:
    // Throws Error("cannot make a temporary folder for the WHAT: ...").
    TempFolder(const std::string &name, const std::string &what);
    ~TempFolder();
    TempFolder(const TempFolder &) = delete;
    TempFolder &operator=(const TempFolder &) = delete;
    const std::filesystem::path &path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

struct ChildExit
{
    int exitCode = -1; // -1 when the child did not exit (a signal ended it)
    int signal = 0;    // the signal that ended the child, 0 when it exited
    bool cancelled = false;
};

// Starts executable with args (argv[1..]) and environment ("NAME=VALUE" entries), its stdout and stderr
// written to out and err, and waits for it; setting *cancel stops it (SIGTERM, then SIGKILL after 2 s).
// Throws std::runtime_error("cannot start X: No such file or directory") when it cannot be started.
ChildExit runChild(const std::string &executable, const std::vector<std::string> &args,
                   const std::vector<std::string> &environment, const std::filesystem::path &out,
                   const std::filesystem::path &err, const std::shared_ptr<const std::atomic<bool>> &cancel);

} // namespace clscope::detail
