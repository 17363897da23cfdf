// The pool monitor: GUI-side state (the shown pool, its statistics and history) and the requests it
// forwards to the pool worker's thread.
#include "poolmonitor.h"

#include <QThread>
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

PoolMonitor::PoolMonitor(QObject *parent)
    : QObject(parent)
    , m_handoff(std::make_shared<PoolHandoff>())
    , m_thread(new QThread(this))
    , m_worker(new PoolWorker(m_handoff))
    , m_timer(new QTimer(this))
{
    m_thread->setObjectName(QStringLiteral("clscope-pool-worker"));
    m_worker->moveToThread(m_thread);
    // Deleted on its own thread as the thread ends, after shutdown() dropped pools and context.
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &PoolWorker::poolPublished, this, &PoolMonitor::takePublishedPool);
    connect(m_worker, &PoolWorker::deviceReady, this, [this](bool svm) {
        m_svm = svm;
        emit deviceReady(svm);
    });
    connect(m_worker, &PoolWorker::failed, this, &PoolMonitor::errorOccurred);
    connect(m_worker, &PoolWorker::actionFinished, this, &PoolMonitor::actionFinished);
    connect(m_worker, &PoolWorker::workloadFinished, this, &PoolMonitor::onWorkloadFinished);
    m_thread->start();

    m_timer->setTimerType(Qt::PreciseTimer);
    m_busyInterval = kDefaultRefreshMs;
    m_timer->setInterval(m_busyInterval);
    connect(m_timer, &QTimer::timeout, this, &PoolMonitor::refresh);
}

PoolMonitor::~PoolMonitor()
{
    m_timer->stop();
    m_worker->cancelRuns().store(std::numeric_limits<quint64>::max()); // a running chunk sees it at once
    if (m_pool)
        post([old = std::move(m_pool)]() mutable { old.reset(); });
    post([worker = m_worker] {
        worker->shutdown();
        QThread::currentThread()->quit();
    });
    m_thread->wait();
}

template<typename F> void PoolMonitor::post(F &&f)
{
    QMetaObject::invokeMethod(m_worker, std::forward<F>(f), Qt::QueuedConnection);
}

void PoolMonitor::setDevice(cl_device_id device, const QString &name)
{
    if (device == m_device)
        return;
    m_device = device;
    m_deviceName = name;
    m_svm = false;
    post([worker = m_worker, device, name, bits = m_leadingBits, kind = m_allocator] {
        worker->setDevice(device, name, bits, kind);
    });
}

void PoolMonitor::newPool(int leadingBits, AllocatorKind kind)
{
    if (leadingBits >= 0 && leadingBits <= kMaxLeadingBits) { // the worker reports a bad value
        m_leadingBits = leadingBits;
        m_allocator = kind;
    }
    post([worker = m_worker, leadingBits, kind] { worker->newPool(leadingBits, kind); });
}

void PoolMonitor::attachPool(std::shared_ptr<MemoryPool> pool, const QString &label)
{
    post([worker = m_worker, pool = std::move(pool), label]() mutable {
        worker->adoptPool(std::move(pool), label);
    });
}

void PoolMonitor::freeHeld()
{
    post([worker = m_worker] { worker->freeHeld(); });
}

void PoolMonitor::stopHolding()
{
    post([worker = m_worker] { worker->stopHolding(); });
}

void PoolMonitor::startWorkload(const WorkloadSpec &spec)
{
    const quint64 run = ++m_run;
    m_worker->rate().store(spec.opsPerSecond);
    setRunning(true);
    post([worker = m_worker, spec, run] { worker->startWorkload(spec, run); });
}

void PoolMonitor::stopWorkload()
{
    if (!m_running)
        return;
    // The flag stops a chunk in progress after its current operation; the request then ends the run.
    m_worker->cancelRuns().store(m_run);
    post([worker = m_worker] { worker->stopWorkload(); });
    setRunning(false);
}

void PoolMonitor::setRate(double opsPerSecond)
{
    m_worker->rate().store(opsPerSecond);
}

double PoolMonitor::rate() const
{
    return m_worker->rate().load();
}

quint64 PoolMonitor::workloadOps() const
{
    return m_worker->opsDone().load(std::memory_order_relaxed);
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

void PoolMonitor::takePublishedPool(quint64 generation)
{
    Q_UNUSED(generation); // the handoff holds the newest; older notifications find nothing new
    std::shared_ptr<MemoryPool> pool;
    {
        std::lock_guard lock(m_handoff->mutex);
        if (m_handoff->generation == m_generation)
            return;
        m_generation = m_handoff->generation;
        pool = m_handoff->pool;
        m_label = m_handoff->label;
    }
    // The worker may have dropped its references already: ours must not be the last one to go here.
    if (auto old = std::exchange(m_pool, std::move(pool)))
        post([old = std::move(old)]() mutable { old.reset(); });
    m_history.clear();
    m_stats = PoolStats{};
    m_nextSequence = 0;
    m_dropped = 0;
    m_originNs = steadyNs();
    noteActivity(true);
    if (m_pool) {
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
    if (!m_pool)
        return;
    ++m_refreshes;
    const std::vector<PoolSample> samples = m_pool->snapshotSeries(m_nextSequence);
    m_stats = m_pool->stats();
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
