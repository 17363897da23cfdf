// The record buffer, the writer thread, and the crash path that sends what is buffered when the program
// dies of a fatal signal.
#include "stream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace clscope::layer {

const cl_icd_dispatch *g_next = nullptr;

namespace {

// Beyond this many buffered bytes records are dropped (and counted); CLSCOPE_CAPTURE_BUFFER sets it.
std::size_t g_maxBuffered = std::size_t(256) << 20;
constexpr std::size_t kWakeWriter = std::size_t(1) << 20; // wake the writer early past this
// How long contents wait for room in the buffer while the writer sends nothing (emitContents).
constexpr auto kContentsPatience = std::chrono::seconds(10);
constexpr auto kWriterPeriod = std::chrono::milliseconds(2);
// The signals that end a program by default, which the layer catches to send what it holds first.
constexpr int kTerminateSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
// The layer's own events are read (status, four timestamps, release) while the program is not enqueueing:
// a driver answers those calls on the writer's thread while the program's thread enqueues, and on NVIDIA's
// the two contend (+9 us per launch in a tight loop, docs/benchmarks.md). So the writer reads them once no
// launch or transfer came for kQuietNs (the program waits in clFinish, computes, or ended), and at the
// latest when kMaxHeldEvents are held, so that a program that never pauses does not pile events up.
constexpr std::uint64_t kQuietNs = 1'000'000;
constexpr std::size_t kMaxHeldEvents = 262144;
std::atomic<std::uint64_t> g_lastWatchedNs{0};

struct PendingEvent
{
    cl_event event;
    std::uint64_t command;
    std::uint64_t queue;
};

struct Stream
{
    std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable room; // the writer took the buffer (emitContents waits for it)
    std::uint64_t swaps = 0;      // times it did
    std::vector<unsigned char> active;
    // Bytes of `active` that are buffer contents. Contents wait for room instead of being dropped, and one
    // piece may hold more than the limit: they are left out of the room that other records are given, so a
    // launch record that comes while a piece waits to be sent is not dropped for the piece's sake.
    std::size_t activeContents = 0;
    std::vector<PendingEvent> newEvents;
    std::uint64_t droppedRecords = 0;
    std::uint64_t droppedBytes = 0;
    bool stop = false;
    std::thread writer;
};

int g_fd = -1;
std::atomic<bool> g_recording{false};
std::atomic<bool> g_broken{false};
Stream *g_stream = nullptr; // leaked on purpose: hooks may run during and after static destruction

// The crash path reads these without the lock (best effort: the program is dying).
std::atomic<const unsigned char *> g_activeData{nullptr};
std::atomic<std::size_t> g_activeSize{0};
std::atomic<const unsigned char *> g_flightData{nullptr};
std::atomic<std::size_t> g_flightSize{0};
std::atomic<std::size_t> g_flightSent{0};
std::atomic<bool> g_dying{false};
std::atomic<bool> g_writerBusy{false};
// The writer runs, and (once the crash path began) has stopped for good, touching no buffer again.
std::atomic<bool> g_writerRunning{false};
std::atomic<bool> g_writerParked{false};

// The crash path sends what is left from the writer's buffers: once it began, the writer stops where it
// is, for the process's last moments (returning freed a buffer under the handler's send: ASan's
// heap-use-after-free in onFatalSignal, exit 1 instead of the program's SIGABRT).
void parkIfDying()
{
    if (!g_dying.load())
        return;
    g_writerParked.store(true);
    for (;;)
        pause();
}

void guardCrashHandlerNow() noexcept;

bool sendAll(const unsigned char *data, std::size_t size, std::atomic<std::size_t> *progress)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::send(g_fd, data + done, size - done, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        done += std::size_t(n);
        if (progress)
            progress->store(done);
    }
    return true;
}

// Polls the events the layer holds; sends the timestamps of finished ones and releases them. Per queue,
// polling stops at the first command still running: later ones on an in-order queue cannot be done yet,
// and the writer must not spend the program's CPU asking about every one of a long backlog.
using PendingQueues = std::unordered_map<std::uint64_t, std::deque<PendingEvent>>;

bool finished(const PendingEvent &p)
{
    cl_int status = CL_QUEUED;
    if (g_next->clGetEventInfo(p.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) !=
        CL_SUCCESS)
        status = -1;
    if (status > CL_COMPLETE)
        return false;
    cl_ulong t[4] = {};
    if (status == CL_COMPLETE) {
        const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                            CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
        for (int i = 0; i < 4; ++i)
            if (g_next->clGetEventProfilingInfo(p.event, names[i], sizeof t[i], &t[i], nullptr) != CL_SUCCESS)
                t[i] = 0;
    }
    const std::uint64_t command = p.command;
    emit(wire::Kind::CommandTimes, 8 + 4 + 32, [&](wire::Encoder &e) {
        e.put<std::uint64_t>(command);
        e.put<std::int32_t>(status);
        for (cl_ulong v : t)
            e.put<std::uint64_t>(v);
    });
    g_next->clReleaseEvent(p.event);
    return true;
}

// The events the layer holds, by queue. Polled by the writer (after a quiet spell) and by the program's
// thread when a call that waits for commands returns (clFinish, clWaitForEvents), so that a program that
// crashes right after waiting keeps its device times. g_pollMutex is taken before the stream's mutex.
std::mutex g_pollMutex;
PendingQueues *g_pending = nullptr; // leaked with the stream

// Under g_pollMutex: the events handed over since the last poll join their queues.
void takeNewEvents()
{
    std::lock_guard lock(g_stream->mutex);
    for (const PendingEvent &p : g_stream->newEvents)
        (*g_pending)[p.queue].push_back(p);
    g_stream->newEvents.clear();
}

void pollEvents(PendingQueues &pending, bool final)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(final ? 2 : 0);
    for (;;) {
        bool any = false;
        for (auto &[queue, events] : pending) {
            while (!events.empty() && finished(events.front()))
                events.pop_front();
            any |= !events.empty();
        }
        if (!final || !any || std::chrono::steady_clock::now() >= deadline)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (final) // commands that never finished: give the events back all the same
        for (auto &[queue, events] : pending) {
            for (const PendingEvent &p : events)
                g_next->clReleaseEvent(p.event);
            events.clear();
        }
}

template<typename F>
void appendRecord(std::vector<unsigned char> &out, wire::Kind kind, std::size_t payload, F &&f)
{
    const std::size_t at = out.size();
    out.resize(at + wire::kHeaderSize + payload);
    wire::Encoder e(out.data() + at + wire::kHeaderSize, payload);
    f(e);
    wire::putHeader(out.data() + at, kind, wire::kHeaderSize + e.size());
    out.resize(at + wire::kHeaderSize + e.size());
}

void writerLoopBody()
{
    // SIGPIPE cannot come from send(MSG_NOSIGNAL); a terminating signal sent to the process must reach one of
    // the program's threads, whose handler waits for this thread to stop before it sends what is buffered.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    for (int sig : kTerminateSignals)
        sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);

    std::vector<unsigned char> flight;
    std::uint64_t reportedRecords = 0, reportedBytes = 0;
    bool finishing = false;
    for (;;) {
        {
            std::unique_lock lock(g_stream->mutex);
            if (!g_stream->stop)
                g_stream->wake.wait_for(lock, kWriterPeriod);
            finishing = g_stream->stop;
        }
        parkIfDying();
        // A handler installed after ours (PoCL's LLVM installs its own when it first compiles) would run
        // instead of the crash path: ours goes back on top, and calls it afterwards.
        guardCrashHandlerNow();
        {
            std::lock_guard poll(g_pollMutex);
            takeNewEvents();
            std::size_t held = 0;
            for (const auto &[queue, events] : *g_pending)
                held += events.size();
            if (finishing || held >= kMaxHeldEvents ||
                nowNs() - g_lastWatchedNs.load(std::memory_order_relaxed) >= kQuietNs)
                pollEvents(*g_pending, finishing);
        }
        std::uint64_t dropsNow = 0, dropBytesNow = 0;
        {
            std::lock_guard lock(g_stream->mutex);
            flight.swap(g_stream->active);
            g_stream->active.clear();
            g_stream->activeContents = 0;
            ++g_stream->swaps;
            g_activeData.store(g_stream->active.data());
            g_activeSize.store(0);
            dropsNow = g_stream->droppedRecords;
            dropBytesNow = g_stream->droppedBytes;
        }
        g_stream->room.notify_all();
        // The writer's own records go at the end of what it sends, past the buffer's limit: the count of
        // dropped records must never be dropped itself.
        if (dropsNow != reportedRecords) {
            const std::uint64_t records = dropsNow - reportedRecords, bytes = dropBytesNow - reportedBytes;
            reportedRecords = dropsNow;
            reportedBytes = dropBytesNow;
            const std::uint64_t ts = nowNs();
            appendRecord(flight, wire::Kind::Drops, 24,
                         [&](wire::Encoder &e) { e.put(records), e.put(bytes), e.put(ts); });
        }
        if (finishing) {
            const std::uint64_t ts = nowNs();
            appendRecord(flight, wire::Kind::End, 8, [&](wire::Encoder &e) { e.put(ts); });
        }
        if (!flight.empty() && !g_broken.load()) {
            g_flightData.store(flight.data());
            g_flightSent.store(0);
            g_flightSize.store(flight.size());
            g_writerBusy.store(true);
            if (g_dying.load()) {
                g_writerBusy.store(false);
                parkIfDying(); // the crash path sends this very buffer
            }
            const bool ok = sendAll(flight.data(), flight.size(), &g_flightSent);
            g_flightSize.store(0);
            g_writerBusy.store(false);
            parkIfDying();
            if (!ok) {
                // The recorder is gone: the program runs on without it.
                g_broken.store(true);
                g_recording.store(false);
            }
        }
        flight.clear();
        if (finishing)
            return;
    }
}

// An exception (out of memory) must not end the program: the stream stops, the program runs on.
void writerLoop()
{
    try {
        writerLoopBody();
    } catch (...) {
        g_broken.store(true);
        g_recording.store(false);
    }
    g_writerRunning.store(false);
}

// ---- Fatal signals: send what is buffered, then let the program die as it would have ----------------

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr std::size_t kFatalCount = sizeof kFatalSignals / sizeof kFatalSignals[0];
struct sigaction g_previous[kFatalCount];
std::atomic<bool> g_handlerInstalled{false};
// The same fault again and again: a handler below ours that put ours back and returned expects the default
// action. Counted per signal and faulting address.
std::atomic<int> g_repeatSignal{0};
std::atomic<void *> g_repeatAddress{nullptr};
std::atomic<int> g_repeats{0};

// Sends what is buffered, once, from a thread that is about to die with the whole program.
void sendBufferedBeforeDying()
{
    if (!g_dying.exchange(true) && !g_broken.load()) {
        // Wait for the writer to stop where it is (after the send it is in), then send the rest ourselves.
        // The recorder may be slow to read on a loaded machine (a clean-clone CI run lost a crashed program's
        // 50 launches when this waited 200 ms): up to 5 s, which only a dying program waits. A writer that
        // never stops (blocked on a lock the crashed thread held) leaves its buffers alone: nothing is sent
        // then rather than a torn record.
        for (int i = 0; i < 50000 && g_writerRunning.load() && !g_writerParked.load(); ++i) {
            const timespec ms{0, 100000};
            nanosleep(&ms, nullptr);
        }
        if (!g_writerRunning.load() || g_writerParked.load()) {
            const unsigned char *flight = g_flightData.load();
            const std::size_t size = g_flightSize.load(), sent = g_flightSent.load();
            if (flight && size > sent)
                sendAll(flight + sent, size - sent, nullptr);
            const unsigned char *active = g_activeData.load();
            if (active)
                sendAll(active, g_activeSize.load(), nullptr);
        }
    }
}

void onFatalSignal(int sig, siginfo_t *info, void *context)
{
    void *const address = info ? info->si_addr : nullptr;
    if (g_repeatSignal.exchange(sig) == sig && g_repeatAddress.exchange(address) == address) {
        if (g_repeats.fetch_add(1) >= 1) {
            struct sigaction dfl;
            std::memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            sigaction(sig, &dfl, nullptr);
            if (sig == SIGABRT || info == nullptr || info->si_code <= 0)
                raise(sig);
            return;
        }
    } else {
        g_repeatAddress.store(address);
        g_repeats.store(0);
    }
    sendBufferedBeforeDying();
    for (std::size_t i = 0; i < kFatalCount; ++i) {
        if (kFatalSignals[i] != sig)
            continue;
        const struct sigaction &old = g_previous[i];
        if (old.sa_flags & SA_SIGINFO) {
            if (old.sa_sigaction) {
                old.sa_sigaction(sig, info, context);
                return;
            }
        } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
            old.sa_handler(sig);
            return;
        }
        sigaction(sig, &old, nullptr); // back to the default: returning re-executes the fault, or raise
        if (sig == SIGABRT || info == nullptr || info->si_code <= 0)
            raise(sig);
        return;
    }
}

// A terminating signal whose action was the default: send what is buffered, then die of it as the program
// would have (SA_RESETHAND put the default back before this ran).
void onTerminateSignal(int sig)
{
    sendBufferedBeforeDying();
    raise(sig);
}

void installCrashHandler()
{
    for (std::size_t i = 0; i < kFatalCount; ++i) {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = onFatalSignal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(kFatalSignals[i], &sa, &g_previous[i]);
    }
    // The signals that end a program by default: a program that chose no handler for them dies there with
    // its records sent (the recorder forwards SIGTERM and SIGINT to it). One that chose a handler keeps it
    // untouched: its handler decides whether it ends, and an ending through exit() sends them anyway.
    for (int sig : kTerminateSignals) {
        struct sigaction now;
        if (sigaction(sig, nullptr, &now) != 0 || (now.sa_flags & SA_SIGINFO) || now.sa_handler != SIG_DFL)
            continue;
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_handler = onTerminateSignal;
        sa.sa_flags = SA_ONSTACK | SA_RESETHAND; // the handler runs once: the default action comes next
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, nullptr);
    }
    g_handlerInstalled.store(true);
}

// Puts the crash path back on top of a handler installed after it (the program's, or a library's such as
// LLVM's inside PoCL), keeping that handler as the one it calls next. Whatever handler came last, the
// records buffered when the program dies of a fatal signal are sent. One sigaction read per signal.
void guardCrashHandlerNow() noexcept
{
    if (!g_handlerInstalled.load() || g_dying.load())
        return;
    for (std::size_t i = 0; i < kFatalCount; ++i) {
        struct sigaction now;
        if (sigaction(kFatalSignals[i], nullptr, &now) != 0)
            continue;
        const bool ours = (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == onFatalSignal;
        // SIG_DFL and SIG_IGN as they were set by someone after us are theirs to choose; a handler is
        // chained.
        if (ours ||
            (!(now.sa_flags & SA_SIGINFO) && (now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN)))
            continue;
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = onFatalSignal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        g_previous[i] = now;
        sigaction(kFatalSignals[i], &sa, nullptr);
    }
}

void stopStream()
{
    if (!g_stream || !g_stream->writer.joinable())
        return;
    {
        std::lock_guard lock(g_stream->mutex);
        g_stream->stop = true;
    }
    g_stream->wake.notify_one();
    if (g_dying.load())
        g_stream->writer.detach(); // parked for the crash path's send (writerLoopBody): never returns
    else
        g_stream->writer.join();
    g_recording.store(false);
}

void onForkChild()
{
    // The writer thread does not exist in the child; the child forwards only.
    g_recording.store(false);
    g_broken.store(true);
    g_writerRunning.store(false);
    g_stream = nullptr;
}

// Joins the writer when the program exits normally, so that the last records and timestamps are sent.
struct Shutdown
{
    ~Shutdown() { stopStream(); }
} g_shutdown;

} // namespace

std::uint64_t nowNs()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::uint64_t(ts.tv_sec) * 1000000000u + std::uint64_t(ts.tv_nsec);
}

std::uint32_t threadId()
{
    thread_local const std::uint32_t id = static_cast<std::uint32_t>(::syscall(SYS_gettid));
    return id;
}

bool recording()
{
    return g_recording.load(std::memory_order_relaxed);
}

void startStream()
{
    const char *env = std::getenv(wire::kEnvFd);
    if (!env || !g_next)
        return;
    char *end = nullptr;
    const long fd = std::strtol(env, &end, 10);
    if (end == env || *end != ':' || fd < 0)
        return;
    const unsigned long long inode = std::strtoull(end + 1, nullptr, 10);
    struct stat st;
    // The number must name the recorder's socket: a child that inherited the variable but not the
    // descriptor may have that number on something else.
    if (fstat(int(fd), &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_ino != inode)
        return;
    g_fd = int(fd);
    fcntl(g_fd, F_SETFD, fcntl(g_fd, F_GETFD) | FD_CLOEXEC);
    if (const char *cap = std::getenv(wire::kEnvBuffer))
        if (const unsigned long long bytes = std::strtoull(cap, nullptr, 10))
            g_maxBuffered = std::size_t(bytes);
    try {
        g_pending = new PendingQueues;
        g_stream = new Stream;
        g_stream->active.reserve(std::size_t(4) << 20);
        g_activeData.store(g_stream->active.data());
        g_recording.store(true);
        g_writerRunning.store(true); // before it starts: a crash right now waits for it to park
        g_stream->writer = std::thread(writerLoop);
    } catch (...) {
        g_writerRunning.store(false);
        g_recording.store(false);
        return;
    }
    pthread_atfork(nullptr, nullptr, onForkChild);
    installCrashHandler();
}

namespace {

// Under the stream's lock: the record into the buffer, or counted as dropped past `limit` bytes.
void appendLocked(Stream *s, wire::Kind kind, std::size_t payload, const RecordSink &sink,
                  std::size_t limit) noexcept
{
    const std::size_t total = wire::kHeaderSize + payload;
    const std::size_t at = s->active.size();
    if (at + total > limit || total > UINT32_MAX) {
        ++s->droppedRecords;
        s->droppedBytes += total;
        return;
    }
    try {
        s->active.resize(at + total);
    } catch (...) {
        ++s->droppedRecords;
        s->droppedBytes += total;
        return;
    }
    wire::Encoder e(s->active.data() + at + wire::kHeaderSize, payload);
    try {
        sink.encode(e);
    } catch (...) {
        s->active.resize(at);
        ++s->droppedRecords;
        s->droppedBytes += total;
        return;
    }
    wire::putHeader(s->active.data() + at, kind, wire::kHeaderSize + e.size());
    s->active.resize(at + wire::kHeaderSize + e.size());
    g_activeData.store(s->active.data(), std::memory_order_relaxed);
    g_activeSize.store(s->active.size(), std::memory_order_release);
    if (s->active.size() > kWakeWriter && at <= kWakeWriter)
        s->wake.notify_one();
}

} // namespace

void emitRecord(wire::Kind kind, std::size_t payload, const RecordSink &sink) noexcept
{
    Stream *s = g_stream;
    if (!s || g_broken.load(std::memory_order_relaxed))
        return;
    std::lock_guard lock(s->mutex);
    appendLocked(s, kind, payload, sink, g_maxBuffered + s->activeContents);
}

void emitContents(wire::Kind kind, std::size_t payload, const RecordSink &sink) noexcept
{
    Stream *s = g_stream;
    if (!s || g_broken.load(std::memory_order_relaxed))
        return;
    const std::size_t total = wire::kHeaderSize + payload;
    try {
        std::unique_lock lock(s->mutex);
        std::uint64_t seen = s->swaps;
        auto progress = std::chrono::steady_clock::now();
        // A record always fits a buffer the writer has emptied, whatever the limit.
        while (!s->active.empty() && s->active.size() + total > g_maxBuffered && !g_broken.load() &&
               !g_dying.load()) {
            s->wake.notify_one();
            s->room.wait_for(lock, std::chrono::milliseconds(100));
            if (s->swaps != seen) {
                seen = s->swaps;
                progress = std::chrono::steady_clock::now();
            } else if (std::chrono::steady_clock::now() - progress > kContentsPatience) {
                break; // the recorder stopped reading: dropped and counted, as any record
            }
        }
        const std::size_t before = s->active.size();
        appendLocked(s, kind, payload, sink, std::max(g_maxBuffered, total));
        s->activeContents += s->active.size() - before;
    } catch (...) {
    }
}

void watchEvent(cl_event event, std::uint64_t command, std::uint64_t queue, std::uint64_t enqueuedNs) noexcept
{
    g_lastWatchedNs.store(enqueuedNs, std::memory_order_relaxed);
    Stream *s = g_stream;
    if (!s || g_broken.load(std::memory_order_relaxed)) {
        g_next->clReleaseEvent(event);
        return;
    }
    std::lock_guard lock(s->mutex);
    try {
        s->newEvents.push_back({event, command, queue});
    } catch (...) {
        ++s->droppedRecords;
        g_next->clReleaseEvent(event);
    }
}

void guardCrashHandler() noexcept
{
    guardCrashHandlerNow();
}

void readFinishedEvents(std::optional<std::uint64_t> finishedQueue) noexcept
{
    Stream *s = g_stream;
    if (!s || !g_pending || g_broken.load(std::memory_order_relaxed))
        return;
    try {
        std::lock_guard poll(g_pollMutex);
        takeNewEvents();
        pollEvents(*g_pending, false);
        // After clFinish every command of the queue has finished, but a driver may set its events' status a
        // moment later (PoCL on a loaded machine: a program that aborted right after clFinish kept none of
        // its device times): wait for them, a little.
        if (finishedQueue) {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
            for (auto q = g_pending->find(*finishedQueue);
                 q != g_pending->end() && !q->second.empty() && std::chrono::steady_clock::now() < deadline;
                 q = g_pending->find(*finishedQueue)) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                pollEvents(*g_pending, false);
            }
        }
    } catch (...) {
        return; // the writer reads them later
    }
    guardCrashHandlerNow();
    s->wake.notify_one(); // and sends them now
}

} // namespace clscope::layer
