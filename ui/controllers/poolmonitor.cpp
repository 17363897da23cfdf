// The pool monitor: GUI-side state (the shown pool, its statistics and history) and the requests it
// submits to the pool worker of the device.
#include "poolmonitor.h"

#include "workers/deviceworkers.h"

#include <QTimer>

#include <algorithm>
#include <chrono>
#include <limits>

namespace clscope::ui {

namespace {
// 40 Hz while the pool changes: comfortably above the 30 Hz the charts promise, with room for a late
// timer. An idle pool only scrolls the chart, which 10 Hz does as well at a quarter of the cost.
constexpr int kDefaultRefreshMs = 25;
constexpr int kIdleRefreshMs = 100;
constexpr int kIdleTicksBeforeSlowing = 10;

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

PoolValues valuesOf(const PoolCounters &c)
{
    return {double(c.heldBytes), double(c.activeBytes), double(c.managedBytes), double(c.heldBlocks),
            double(c.activeBlocks)};
}
} // namespace

namespace {
const QString kWorkloadTag = QStringLiteral("pool-workload");
} // namespace

PoolMonitor::PoolMonitor(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_handoff(std::make_shared<PoolHandoff>())
    , m_timer(new QTimer(this))
{
    newSession(nullptr); // attached pools are shown before any device is chosen
    m_timer->setTimerType(Qt::PreciseTimer);
    m_busyInterval = kDefaultRefreshMs;
    m_timer->setInterval(m_busyInterval);
    connect(m_timer, &QTimer::timeout, this, &PoolMonitor::refresh);
}

PoolMonitor::~PoolMonitor()
{
    m_timer->stop();
    m_handoff->cancelRuns.store(std::numeric_limits<quint64>::max()); // a running chunk sees it at once
    m_deviceWorker->cancel(kWorkloadTag);
    post([](PoolWorker &worker) { worker.shutdown(); }); // drops the shown pool, there
}

template<typename F> void PoolMonitor::post(F &&f)
{
    m_deviceWorker->post([worker = m_worker, f = std::forward<F>(f)]() mutable { f(*worker); });
}

void PoolMonitor::newSession(cl_device_id device)
{
    if (m_worker) {
        m_deviceWorker->cancel(kWorkloadTag);
        post([](PoolWorker &worker) { worker.retire(); });
    }
    // No thread of its own: its signals, emitted on the worker, arrive queued here.
    auto *worker = new PoolWorker(m_handoff);
    worker->moveToThread(nullptr);
    connect(worker, &PoolWorker::poolPublished, this, &PoolMonitor::takePublishedPool);
    connect(worker, &PoolWorker::deviceReady, this, [this](bool svm) {
        m_svm = svm;
        emit deviceReady(svm);
    });
    connect(worker, &PoolWorker::failed, this, &PoolMonitor::errorOccurred);
    connect(worker, &PoolWorker::actionFinished, this, &PoolMonitor::actionFinished);
    connect(worker, &PoolWorker::workloadFinished, this, &PoolMonitor::onWorkloadFinished);
    // The last reference goes on the worker (a posted request holds one), never while a request runs.
    m_worker = std::shared_ptr<PoolWorker>(worker);
    m_deviceWorker = &m_workers->forDevice(device);
    ++m_session;
}

void PoolMonitor::setDevice(cl_device_id device, const QString &name)
{
    if (device == m_device)
        return;
    m_device = device;
    m_deviceName = name;
    m_svm = false;
    newSession(device);
    post([device, name, bits = m_leadingBits, kind = m_allocator](PoolWorker &worker) {
        worker.setDevice(device, name, bits, kind);
    });
}

void PoolMonitor::newPool(int leadingBits, AllocatorKind kind)
{
    if (leadingBits >= 0 && leadingBits <= kMaxLeadingBits) { // the worker reports a bad value
        m_leadingBits = leadingBits;
        m_allocator = kind;
    }
    post([leadingBits, kind](PoolWorker &worker) { worker.newPool(leadingBits, kind); });
}

void PoolMonitor::attachPool(std::shared_ptr<MemoryPool> pool, const QString &label)
{
    post([pool = std::move(pool), label](PoolWorker &worker) mutable {
        worker.adoptPool(std::move(pool), label);
    });
}

void PoolMonitor::attachRunPool(std::shared_ptr<const RunPool> pool, const QString &label)
{
    post([pool = std::move(pool), label](PoolWorker &worker) { worker.adoptPool(pool->share(), label); });
}

void PoolMonitor::freeHeld()
{
    post([](PoolWorker &worker) { worker.freeHeld(); });
}

void PoolMonitor::stopHolding()
{
    post([](PoolWorker &worker) { worker.stopHolding(); });
}

void PoolMonitor::startWorkload(const WorkloadSpec &spec)
{
    const quint64 run = ++m_run;
    m_handoff->rate.store(spec.opsPerSecond);
    setRunning(true);
    m_deviceWorker->submit<ChunkStep>(
        kWorkloadTag,
        [worker = m_worker, spec, run](const CancelToken &, const Progress &) {
            return worker->startWorkload(spec, run);
        },
        this,
        [this, run](ChunkStep step) {
            if (step.more)
                submitChunk(run, step.waitMs);
        });
}

void PoolMonitor::submitChunk(quint64 run, int waitMs)
{
    // Chunk after chunk, each a job of its own, so that the device's other work takes its turn; the
    // wait keeps the rate.
    QTimer::singleShot(waitMs, this, [this, run, session = m_session] {
        if (run != m_run || !m_running || session != m_session)
            return; // stopped, replaced, or the device changed
        m_deviceWorker->submit<ChunkStep>(
            kWorkloadTag,
            [worker = m_worker, run](const CancelToken &cancel, const Progress &) {
                return worker->runChunk(run, cancel);
            },
            this,
            [this, run](ChunkStep step) {
                if (step.more)
                    submitChunk(run, step.waitMs);
            });
    });
}

void PoolMonitor::stopWorkload()
{
    if (!m_running)
        return;
    // The flag stops a chunk in progress after its current operation; the request then ends the run.
    m_handoff->cancelRuns.store(m_run);
    m_deviceWorker->cancel(kWorkloadTag);
    post([](PoolWorker &worker) { worker.stopWorkload(); });
    setRunning(false);
}

void PoolMonitor::setRate(double opsPerSecond)
{
    m_handoff->rate.store(opsPerSecond);
}

double PoolMonitor::rate() const
{
    return m_handoff->rate.load();
}

quint64 PoolMonitor::workloadOps() const
{
    return m_handoff->opsDone.load(std::memory_order_relaxed);
}

void PoolMonitor::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    emit workloadRunningChanged(running);
}

void PoolMonitor::onWorkloadFinished(quint64 run, const QString &summary, bool isError)
{
    if (run != m_run)
        return; // a run that a newer one replaced
    setRunning(false);
    emit workloadFinished(summary, isError);
    if (isError)
        emit errorOccurred(summary);
}

bool PoolMonitor::isShowing(const MemoryPool *pool) const
{
    const std::lock_guard lock(m_handoff->mutex);
    return pool && m_handoff->pool.get() == pool;
}

void PoolMonitor::takePublishedPool()
{
    // The handoff holds the newest; older notifications find nothing new.
    {
        const std::lock_guard lock(m_handoff->mutex);
        if (m_handoff->generation == m_shown)
            return;
        m_shown = m_handoff->generation;
        m_hasPool = m_handoff->pool != nullptr;
        m_label = m_handoff->label;
    }
    m_history.clear();
    m_stats = PoolStats{};
    m_nextSequence = 0;
    m_dropped = 0;
    m_originNs = steadyNs();
    noteActivity(true);
    if (m_hasPool) {
        m_timer->start();
    } else {
        m_timer->stop();
        m_label.clear();
    }
    emit poolChanged();
    refresh();
}

double PoolMonitor::now() const
{
    return double(steadyNs() - m_originNs) * 1e-9;
}

void PoolMonitor::setRefreshInterval(int ms)
{
    m_busyInterval = std::max(ms, 1);
    m_idleTicks = 0;
    m_timer->setInterval(m_busyInterval);
}

int PoolMonitor::refreshInterval() const
{
    return m_busyInterval;
}

void PoolMonitor::noteActivity(bool changed)
{
    m_idleTicks = changed ? 0 : m_idleTicks + 1;
    const int interval =
        m_idleTicks > kIdleTicksBeforeSlowing ? std::max(kIdleRefreshMs, m_busyInterval) : m_busyInterval;
    if (m_timer->interval() != interval)
        m_timer->setInterval(interval);
}

void PoolMonitor::refresh()
{
    std::vector<PoolSample> samples;
    // A pool replaced meanwhile is not read: its successor's notification clears the history first.
    if (!m_hasPool || !m_handoff->read(m_shown, [&](const MemoryPool &pool) {
            samples = pool.snapshotSeries(m_nextSequence);
            m_stats = pool.stats();
        }))
        return;
    ++m_refreshes;
    if (!samples.empty()) {
        if (samples.front().sequence > m_nextSequence)
            m_dropped += samples.front().sequence - m_nextSequence;
        for (const PoolSample &s : samples) {
            m_history.append(double(s.timestampNs - m_originNs) * 1e-9,
                             {double(s.heldBytes), double(s.activeBytes), double(s.managedBytes),
                              double(s.heldBlocks), double(s.activeBlocks)});
        }
        m_nextSequence = samples.back().sequence + 1;
        noteActivity(true);
    } else {
        noteActivity(valuesOf(m_stats.counters) != m_history.lastValues());
        // Idle, or a pool without a series (an attached one may have it off): the counters as of now.
        m_history.extendTo(now(), valuesOf(m_stats.counters));
    }
    emit updated();
}

} // namespace clscope::ui
