// The device side of the pool monitor: owns the OpenCL context, queue and pools of one device, and runs
// workloads in short chunks. Every call of it runs on that device's DeviceWorker (the monitor submits
// them), so every call that can reach the driver (creating pools, clReleaseMemObject in free_held and
// stop_holding, allocations) happens there, never on the GUI thread. A workload is one job per chunk:
// builds, runs and the monitor's requests (Stop, Free held) take their turn between two chunks. Its
// signals are emitted on the worker and arrive queued at the monitor. A new device gets a new PoolWorker.
#pragma once

#include "poolworkload.h"

#include "clscope/pool.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include "workers/canceltoken.h"

#include <CL/cl.h>

#include <atomic>
#include <memory>
#include <mutex>

namespace clscope::ui {

// clscope::AllocatorKind (pool.h) for the user: "deferred", "immediate", "SVM".
QString allocatorName(AllocatorKind kind);

// The pool the GUI should show, owned here and replaced only by the worker, so a pool (its OpenCL
// buffers, allocator and context) is always destroyed on a worker thread. The GUI keeps no reference:
// it reads the pool's statistics and series through read(), under the mutex, which the worker needs to
// replace the pool, so the pool outlives every read. generation counts the replacements; the GUI reads
// only the pool it was told about. It also holds what the GUI reads and writes without a round trip,
// shared by the PoolWorkers of every device the monitor used.
struct PoolHandoff
{
    mutable std::mutex mutex;
    std::shared_ptr<MemoryPool> pool; // written by the worker only
    QString label;
    quint64 generation = 0;

    // f(pool) with the pool of that generation, under the mutex; false (f not called) when the pool
    // was replaced since (the notification is on its way) or there is none. f must only read: stats(),
    // counters(), snapshotSeries() (the pool's own lock, for microseconds), never a driver call.
    template<typename F> bool read(quint64 shown, F &&f) const
    {
        const std::lock_guard lock(mutex);
        if (generation != shown || !pool)
            return false;
        f(static_cast<const MemoryPool &>(*pool));
        return true;
    }

    std::atomic<double> rate{10000};    // ops per second; 0: as fast as possible
    std::atomic<quint64> opsDone{0};    // of the current run
    std::atomic<quint64> cancelRuns{0}; // bumped by Stop: ends the runs started before
};

// What a chunk of a workload leaves to do: whether to go on, and after how long (the rate).
struct ChunkStep
{
    bool more = false;
    int waitMs = 0;
};

class PoolWorker : public QObject
{
    Q_OBJECT
public:
    explicit PoolWorker(std::shared_ptr<PoolHandoff> handoff, QObject *parent = nullptr);
    ~PoolWorker() override;

    // The requests; called on the device's worker (submitted by the monitor).
    void setDevice(cl_device_id device, const QString &name, int leadingBits, clscope::AllocatorKind kind);
    void newPool(int leadingBits, clscope::AllocatorKind kind);
    void adoptPool(std::shared_ptr<MemoryPool> pool, const QString &label);
    void freeHeld();
    void stopHolding();
    ChunkStep startWorkload(const clscope::ui::WorkloadSpec &spec, quint64 run);
    // The next chunk of the run (nothing when it is no longer the current one); stops early when the
    // token is cancelled.
    ChunkStep runChunk(quint64 run, const CancelToken &cancel);
    void stopWorkload();
    // When the monitor moves to another device: ends the run and drops this device's pools, context and
    // queue, leaving the shown pool to the next PoolWorker.
    void retire();
    void shutdown(); // last call: ends the run, unpublishes the pool, drops context and queue

signals:
    void poolPublished(); // the handoff holds another pool (or none)
    void deviceReady(bool svmSupported);
    void failed(const QString &message);
    void workloadFinished(quint64 run, const QString &summary, bool isError);
    void actionFinished(const QString &message);

private:
    int nextWaitMs() const;
    void finishRun(const QString &summary, bool isError);
    void publish(std::shared_ptr<MemoryPool> pool, const QString &label);
    std::shared_ptr<MemoryPool> makePool(int leadingBits, AllocatorKind kind);
    void releaseDevice();

    std::shared_ptr<PoolHandoff> m_handoff;
    cl_device_id m_device = nullptr;
    QString m_deviceName;
    ClContext m_context;
    ClQueue m_queue;
    bool m_svm = false;
    std::shared_ptr<MemoryPool> m_pool;

    std::unique_ptr<PoolWorkload> m_workload;
    QString m_workloadName;
    quint64 m_run = 0;
    // The rate is kept against a baseline that restarts when the rate changes, so a change never
    // makes up for (or bursts through) the time before it.
    double m_rateSeen = -1;
    QElapsedTimer m_rateClock;
    quint64 m_rateOps = 0;
};

} // namespace clscope::ui
