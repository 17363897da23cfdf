// See childprocess.h.
#include "childprocess.h"

#include "clscope/error.h"
#include "clscope/fileio.h"

#include <cerrno>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace clscope::detail {
namespace {

// Waits for pid; a set cancel flag sends SIGTERM, then SIGKILL when the child is still there 2 s later.
int waitFor(pid_t pid, const std::shared_ptr<const std::atomic<bool>> &cancel, bool &cancelled)
{
    int status = 0;
    if (!cancel) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return status;
    }
    std::optional<std::chrono::steady_clock::time_point> terminated;
    for (;;) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return status;
        if (cancel->load() && !terminated) {
            cancelled = true;
            kill(pid, SIGTERM);
            terminated = std::chrono::steady_clock::now();
        } else if (terminated && std::chrono::steady_clock::now() - *terminated > std::chrono::seconds(2)) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return status;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

class SpawnActions
{
public:
    SpawnActions() { posix_spawn_file_actions_init(&m_actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&m_actions); }
    SpawnActions(const SpawnActions &) = delete;
    SpawnActions &operator=(const SpawnActions &) = delete;
    posix_spawn_file_actions_t *get() { return &m_actions; }

private:
    posix_spawn_file_actions_t m_actions;
};

} // namespace

TempFolder::TempFolder(const std::string &name, const std::string &what)
{
    std::string pattern = (std::filesystem::temp_directory_path() / ("clscope-" + name + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw Error("cannot make a temporary folder for the " + what + ": " + errnoText(errno));
    m_path = pattern;
}

TempFolder::~TempFolder()
{
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

ChildExit runChild(const std::string &executable, const std::vector<std::string> &args,
                   const std::vector<std::string> &environment, const std::filesystem::path &out,
                   const std::filesystem::path &err, const std::shared_ptr<const std::atomic<bool>> &cancel)
{
    SpawnActions actions;
    posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(actions.get(), 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(actions.get(), 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(executable.c_str()));
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (const std::string &e : environment)
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);

    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, executable.c_str(), actions.get(), nullptr, argv.data(), envp.data());
    if (spawned != 0)
        throw std::runtime_error("cannot start " + executable + ": " +
                                 std::generic_category().message(spawned));

    ChildExit exit;
    const int status = waitFor(pid, cancel, exit.cancelled);
    if (WIFEXITED(status))
        exit.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        exit.signal = WTERMSIG(status);
    return exit;
}

} // namespace clscope::detail
