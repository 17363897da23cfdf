// Compiler threads with a large stack, and the report of a compiler that crashes all the same.
#include "clscope/compilerthread.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace clscope {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;
// Below this, a compiler thread is no better than the calling thread: the work runs there.
constexpr std::size_t kSmallestStack = 8 * kMiB;
constexpr std::size_t kAltStackBytes = 64 * 1024;
constexpr std::array kFatalSignals{SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

// Everything the signal handler writes, formatted before the compiler starts (a handler may not allocate).
struct CrashNote
{
    std::string head;     // "clscope-cli: the compiler crashed ("
    std::string subject;  // ") building big.cl (3 source lines)"
    std::string overflow; // ": its thread's stack of 1024 MiB overflowed ..."
    std::string other;    // ": nothing was built"
    std::uintptr_t stackLow = 0;
};

thread_local const CrashNote *t_note = nullptr;
std::atomic<bool> g_reporting{false};
std::string g_prefix; // written once, before g_reporting is set
std::array<struct sigaction, kFatalSignals.size()> g_previous{};

const char *signalName(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGILL:
        return "SIGILL";
    case SIGFPE:
        return "SIGFPE";
    case SIGABRT:
        return "SIGABRT";
    default:
        return "a fatal signal";
    }
}

void writeAll(const char *text, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(STDERR_FILENO, text, size);
        if (n <= 0)
            return;
        text += n;
        size -= std::size_t(n);
    }
}

void writeAll(const std::string &text)
{
    writeAll(text.data(), text.size());
}

// Hands the signal to whoever had it before: their handler, or the default action (the process dies of
// the signal as it would have without us).
void forward(int sig, siginfo_t *info, void *context)
{
    const auto at = std::find(kFatalSignals.begin(), kFatalSignals.end(), sig);
    const struct sigaction &previous = g_previous[std::size_t(at - kFatalSignals.begin())];
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(sig, info, context);
        return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    // Blocked while this handler runs: delivered, with the default action, once it returns.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void onFatalSignal(int sig, siginfo_t *info, void *context)
{
    const CrashNote *note = t_note;
    if (!note) {
        forward(sig, info, context);
        return;
    }
    const char *name = signalName(sig);
    writeAll(note->head);
    writeAll(name, std::strlen(name));
    writeAll(note->subject);
    // A fault just below the lowest address of the thread's stack is the stack running out.
    const auto fault = reinterpret_cast<std::uintptr_t>(info ? info->si_addr : nullptr);
    const bool overflow = (sig == SIGSEGV || sig == SIGBUS) && note->stackLow &&
                          fault + kMiB >= note->stackLow && fault < note->stackLow + kAltStackBytes;
    writeAll(overflow ? note->overflow : note->other);
    ::_exit(1);
}

struct Job
{
    const std::function<void()> *work = nullptr;
    const CrashNote *note = nullptr;
    std::exception_ptr error;
};

// The thread's own alternate signal stack, so that the handler can run when the stack is used up.
class AltStack
{
public:
    AltStack()
        : m_memory(new char[kAltStackBytes])
    {
        stack_t s{};
        s.ss_sp = m_memory.get();
        s.ss_size = kAltStackBytes;
        m_installed = ::sigaltstack(&s, nullptr) == 0;
    }
    ~AltStack()
    {
        if (!m_installed)
            return;
        stack_t s{};
        s.ss_flags = SS_DISABLE;
        ::sigaltstack(&s, nullptr);
    }
    AltStack(const AltStack &) = delete;
    AltStack &operator=(const AltStack &) = delete;

private:
    std::unique_ptr<char[]> m_memory;
    bool m_installed = false;
};

void runJob(Job &job, std::uintptr_t stackLow, std::size_t stackBytes)
{
    CrashNote note = *job.note;
    note.stackLow = stackLow;
    if (stackLow)
        note.overflow = ": its thread's stack of " + std::to_string(stackBytes / kMiB) +
                        " MiB overflowed (an expression or a nesting too deep for the driver's compiler); "
                        "nothing was built\n";
    t_note = &note;
    try {
        (*job.work)();
    } catch (...) {
        job.error = std::current_exception();
    }
    t_note = nullptr;
}

void *threadMain(void *arg)
{
    Job &job = *static_cast<Job *>(arg);
    std::uintptr_t low = 0;
    std::size_t size = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *address = nullptr;
        if (pthread_attr_getstack(&attr, &address, &size) == 0)
            low = reinterpret_cast<std::uintptr_t>(address);
        pthread_attr_destroy(&attr);
    }
    const AltStack alt;
    runJob(job, low, size);
    return nullptr;
}

bool startThread(Job &job, std::size_t stackBytes, pthread_t &thread)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    const bool ok = pthread_attr_setstacksize(&attr, stackBytes) == 0 &&
                    pthread_create(&thread, &attr, threadMain, &job) == 0;
    pthread_attr_destroy(&attr);
    return ok;
}

} // namespace

std::size_t compilerStackBytes()
{
    if (const char *env = std::getenv("CLSCOPE_COMPILER_STACK_MIB")) {
        const std::string_view text(env);
        std::size_t mib = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), mib);
        if (ec == std::errc() && end == text.data() + text.size() && mib >= 1 && mib <= 65536)
            return mib * kMiB;
    }
    return kCompilerStackBytes;
}

std::string compileSubject(const std::string &path, const std::string &source)
{
    std::size_t lines = std::size_t(std::count(source.begin(), source.end(), '\n'));
    if (!source.empty() && source.back() != '\n')
        ++lines;
    return (path.empty() ? std::string("the program") : path) + " (" + std::to_string(lines) +
           (lines == 1 ? " source line)" : " source lines)");
}

std::string compileSubject(const std::string &path, const char *what, std::size_t bytes)
{
    return (path.empty() ? std::string("the program") : path) + " (" + what + ", " + std::to_string(bytes) +
           (bytes == 1 ? " byte)" : " bytes)");
}

void onCompilerThread(const std::function<void()> &work, const std::string &subject)
{
    const std::size_t wanted = compilerStackBytes();
    CrashNote note;
    note.head = (g_reporting ? g_prefix + ": " : std::string()) + "the compiler crashed (";
    note.subject = ") building " + subject;
    note.other = ": nothing was built\n";
    note.overflow = note.other;
    Job job{&work, &note, nullptr};
    pthread_t thread{};
    bool started = false;
    for (std::size_t size = wanted; !started && size >= std::min(wanted, kSmallestStack); size /= 2)
        started = startThread(job, size, thread);
    if (started) {
        pthread_join(thread, nullptr);
    } else {
        // No thread at all (the system is out of threads): the caller's stack is what there is.
        runJob(job, 0, 0);
    }
    if (job.error)
        std::rethrow_exception(job.error);
}

void reportCompilerCrashes(const std::string &prefix)
{
    static std::once_flag once;
    std::call_once(once, [&] {
        g_prefix = prefix;
        for (std::size_t i = 0; i < kFatalSignals.size(); ++i) {
            struct sigaction action
            {};
            action.sa_sigaction = onFatalSignal;
            action.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigemptyset(&action.sa_mask);
            ::sigaction(kFatalSignals[i], &action, &g_previous[i]);
        }
        g_reporting = true;
    });
}

} // namespace clscope
