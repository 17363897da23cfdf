// The pool worker: pools, workloads and every driver call of the pool monitor, on the device's worker.
#include "poolworker.h"

#include "clscope/error.h"
#include "clscope/format.h"
#include "clscope/queue.h"
#include "clscope/version.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace clscope::ui {

QString allocatorName(AllocatorKind kind)
{
    switch (kind) {
    case AllocatorKind::Deferred:
        return QStringLiteral("deferred");
    case AllocatorKind::Immediate:
        return QStringLiteral("immediate");
    case AllocatorKind::Svm:
        return QStringLiteral("SVM");
    }
    return {};
}

namespace {
// A chunk of work ends after this long, so queued requests wait at most about this.
constexpr qint64 kChunkNs = 5'000'000;
constexpr quint64 kMaxOpsPerChunk = quint64(1) << 22;
// The pool's own series ring: large enough that a refresh every 33 ms loses nothing below ~2M changes/s.
constexpr std::size_t kSeriesCapacity = std::size_t(1) << 16;

QString bytesText(std::uint64_t bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

QString countText(quint64 n)
{
    return QLocale().toString(n);
}

} // namespace

PoolWorker::PoolWorker(std::shared_ptr<PoolHandoff> handoff, QObject *parent)
    : QObject(parent)
    , m_handoff(std::move(handoff))
{}

PoolWorker::~PoolWorker()
{
    m_workload.reset();
    m_pool.reset();
    releaseDevice();
}

void PoolWorker::releaseDevice()
{
    m_queue.reset();
    m_context.reset();
    m_device = nullptr;
    m_svm = false;
}

void PoolWorker::publish(std::shared_ptr<MemoryPool> pool, const QString &label)
{
    std::shared_ptr<MemoryPool> old;
    {
        std::lock_guard lock(m_handoff->mutex); // waits for a read of the GUI's to end
        old = std::exchange(m_handoff->pool, pool);
        m_handoff->label = label;
        ++m_handoff->generation;
    }
    m_pool = std::move(pool);
    old.reset(); // here, on the worker: a pool's destructor releases its held blocks
    emit poolPublished();
}

std::shared_ptr<MemoryPool> PoolWorker::makePool(int leadingBits, AllocatorKind kind)
{
    PoolOptions options;
    options.leadingBits = leadingBits;
    options.seriesCapacity = kSeriesCapacity;
    // The immediate allocator makes its memory real on the worker's queue, shared by this device's pools.
    return clscope::makePool(kind, m_context.get(), m_queue.get(), options);
}

void PoolWorker::setDevice(cl_device_id device, const QString &name, int leadingBits, AllocatorKind kind)
{
    finishRun(tr("Stopped: the device changed"), false);
    publish(nullptr, QString());
    releaseDevice();
    if (!device) {
        emit deviceReady(false);
        return;
    }
    m_deviceName = name;
    try {
        cl_int err = CL_SUCCESS;
        m_context.reset(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
        check(err, "clCreateContext");
        m_queue.reset(createCommandQueue(m_context.get(), device, false));
        m_device = device;
        m_svm = SvmAllocator::isSupported(device);
        emit deviceReady(m_svm);
        if (kind == AllocatorKind::Svm && !m_svm)
            kind = AllocatorKind::Immediate;
        newPool(leadingBits, kind);
    } catch (const std::exception &e) {
        releaseDevice();
        emit deviceReady(false);
        emit failed(tr("Cannot use %1 for the pool: %2").arg(name, QString::fromStdString(e.what())));
    }
}

void PoolWorker::newPool(int leadingBits, AllocatorKind kind)
{
    if (!m_context) {
        emit failed(tr("No device: pick one in the Devices panel first"));
        return;
    }
    if (kind == AllocatorKind::Svm && !m_svm) {
        emit failed(tr("%1 has no shared virtual memory: choose the deferred or immediate allocator")
                        .arg(m_deviceName));
        return;
    }
    try {
        checkLeadingBits(leadingBits);
        finishRun(tr("Stopped: the pool was replaced"), false);
        publish(makePool(leadingBits, kind), tr("%1 allocator, %2 leading bits, on %3")
                                                 .arg(allocatorName(kind))
                                                 .arg(leadingBits)
                                                 .arg(m_deviceName));
    } catch (const std::exception &e) {
        emit failed(tr("Cannot make a new pool: %1").arg(QString::fromStdString(e.what())));
    }
}

void PoolWorker::adoptPool(std::shared_ptr<MemoryPool> pool, const QString &label)
{
    finishRun(tr("Stopped: another pool is shown"), false);
    publish(std::move(pool), label);
}

void PoolWorker::freeHeld()
{
    if (!m_pool)
        return;
    try {
        const PoolCounters before = m_pool->counters();
        m_pool->freeHeld();
        const PoolCounters after = m_pool->counters();
        emit actionFinished(tr("Freed %1 held blocks (%2)")
                                .arg(countText(before.heldBlocks - after.heldBlocks),
                                     bytesText(before.heldBytes - after.heldBytes)));
    } catch (const std::exception &e) {
        emit failed(tr("Free held failed: %1").arg(QString::fromStdString(e.what())));
    }
}

void PoolWorker::stopHolding()
{
    if (!m_pool)
        return;
    try {
        const PoolCounters before = m_pool->counters();
        m_pool->stopHolding();
        emit actionFinished(tr("The pool stopped holding: freed %1 held blocks (%2); frees now go back to "
                               "the allocator")
                                .arg(countText(before.heldBlocks), bytesText(before.heldBytes)));
    } catch (const std::exception &e) {
        emit failed(tr("Stop holding failed: %1").arg(QString::fromStdString(e.what())));
    }
}

ChunkStep PoolWorker::startWorkload(const WorkloadSpec &spec, quint64 run)
{
    finishRun(tr("Replaced by a new run"), false);
    if (m_handoff->cancelRuns.load() >= run) {
        // Stopped before it began: still say so, as every run ends with workloadFinished.
        emit workloadFinished(run, tr("%1 stopped before it started").arg(workloadName(spec.kind)), false);
        return {};
    }
    m_run = run;
    if (!m_pool) {
        emit workloadFinished(run, tr("No pool to run on: pick a device first"), true);
        return {};
    }
    QString error;
    m_workload = makeWorkload(spec, &error);
    if (!m_workload) {
        emit workloadFinished(run, error, true);
        return {};
    }
    m_workloadName = workloadName(spec.kind);
    m_handoff->opsDone.store(0);
    m_rateSeen = -1;
    return {true, 0};
}

void PoolWorker::stopWorkload()
{
    finishRun({}, false);
}

void PoolWorker::retire()
{
    finishRun(tr("Stopped: the device changed"), false);
    m_pool.reset(); // the shown pool stays in the handoff until the next PoolWorker publishes its own
    releaseDevice();
}

void PoolWorker::shutdown()
{
    m_handoff->cancelRuns.store(std::numeric_limits<quint64>::max());
    finishRun(tr("Stopped: closing"), false);
    publish(nullptr, QString());
    releaseDevice();
}

void PoolWorker::finishRun(const QString &summary, bool isError)
{
    if (!m_workload)
        return;
    m_workload->releaseAll();
    m_workload.reset();
    const QString ops = countText(m_handoff->opsDone.load());
    QString text;
    if (isError)
        text = tr("%1 failed after %2 operations: %3").arg(m_workloadName, ops, summary);
    else if (summary.isEmpty())
        text = tr("%1 stopped after %2 operations").arg(m_workloadName, ops);
    else
        text = tr("%1: %2 operations. %3").arg(m_workloadName, ops, summary);
    emit workloadFinished(m_run, text, isError);
}

int PoolWorker::nextWaitMs() const
{
    const double rate = m_handoff->rate.load();
    if (rate <= 0)
        return 0;
    const double elapsed = double(m_rateClock.nsecsElapsed()) * 1e-9;
    const double nextAt = double(m_rateOps + 1) / rate;
    // Sleep until the next op is due, but batch slow rates into steps of a few ms: the charts sample
    // at 30 Hz, and a timer per op at 1000 ops/s would only burn wake-ups.
    const double waitMs = (nextAt - elapsed) * 1000;
    return waitMs <= 0 ? 0 : std::clamp(int(std::ceil(waitMs)), 4, 50);
}

ChunkStep PoolWorker::runChunk(quint64 run, const CancelToken &cancel)
{
    if (!m_workload || run != m_run)
        return {};
    if (m_handoff->cancelRuns.load() >= m_run) {
        finishRun({}, false);
        return {};
    }
    if (!m_pool) {
        finishRun(tr("the pool went away"), true);
        return {};
    }
    const double rate = m_handoff->rate.load();
    if (rate != m_rateSeen) {
        m_rateSeen = rate;
        m_rateClock.start();
        m_rateOps = 0;
    }
    quint64 budget = kMaxOpsPerChunk;
    if (rate > 0) {
        const double due = std::floor(double(m_rateClock.nsecsElapsed()) * 1e-9 * rate) - double(m_rateOps);
        if (due < 1)
            return {true, nextWaitMs()};
        budget = quint64(std::min(due, double(kMaxOpsPerChunk)));
    }

    QElapsedTimer chunk;
    chunk.start();
    quint64 done = 0;
    QString error;
    try {
        while (done < budget && !m_workload->isFinished()) {
            m_workload->step(*m_pool);
            ++done;
            // The stop flag after every op (a miss can take milliseconds on a busy device, so 64 of them
            // would make Stop sluggish); the clock, which costs as much as a pool hit, every 16.
            if (m_handoff->cancelRuns.load(std::memory_order_relaxed) >= m_run || cancel.isCancelled() ||
                ((done & 15) == 0 && chunk.nsecsElapsed() > kChunkNs))
                break;
        }
    } catch (const std::exception &e) {
        error = QString::fromStdString(e.what());
    }
    m_rateOps += done;
    m_handoff->opsDone.fetch_add(done, std::memory_order_relaxed);
    if (!error.isEmpty()) {
        finishRun(error, true);
    } else if (m_workload->isFinished()) {
        finishRun(tr("Finished"), false);
    } else if (m_handoff->cancelRuns.load() >= m_run) {
        finishRun({}, false);
    } else {
        return {true, nextWaitMs()};
    }
    return {};
}

} // namespace clscope::ui
