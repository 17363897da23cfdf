// Watches a memory pool for the GUI: owns the pool of the current device (or shows one attached from
// elsewhere, such as the kernel runner's), runs workloads on it through the device's worker (a PoolWorker
// per device, one job per chunk), and refreshes its statistics and history on the GUI thread at 30+ Hz.
// The refresh only copies (stats() and the new samples of snapshotSeries(), under the pool's lock for
// microseconds); everything that can reach the driver is submitted to the worker.
#pragma once

#include "display/poolhistory.h"
#include "poolworker.h"
#include "poolworkload.h"
#include "runpool.h"

#include "clscope/pool.h"

#include <QObject>
#include <QString>

#include <CL/cl.h>

#include <memory>

class QTimer;

namespace clscope::ui {

class DeviceWorker;
class DeviceWorkers;

class PoolMonitor : public QObject
{
    Q_OBJECT
public:
    explicit PoolMonitor(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    // Stops a running workload; pools are dropped on the worker.
    ~PoolMonitor() override;

    // Makes a fresh pool (with the last leading bits and allocator chosen) on the device; nullptr drops
    // the pool. Calling it again with the same device does nothing.
    void setDevice(cl_device_id device, const QString &name);
    cl_device_id device() const { return m_device; }
    QString deviceName() const { return m_deviceName; }
    // Known once deviceReady() arrived.
    bool isSvmSupported() const { return m_svm; }

    // Replaces the shown pool with a new one on the current device.
    void newPool(int leadingBits, AllocatorKind kind);
    // Shows a pool made elsewhere (it keeps its own device and allocator); the monitor shares ownership
    // until another pool replaces it.
    void attachPool(std::shared_ptr<MemoryPool> pool, const QString &label);
    // Shows the runs' pool: its reference is taken on the worker, so the GUI never holds one.
    void attachRunPool(std::shared_ptr<const RunPool> pool, const QString &label);
    int leadingBits() const { return m_leadingBits; }
    AllocatorKind allocatorKind() const { return m_allocator; }

    void freeHeld();
    void stopHolding();

    void startWorkload(const WorkloadSpec &spec);
    void stopWorkload();
    bool isWorkloadRunning() const { return m_running; }
    void setRate(double opsPerSecond); // 0: as fast as possible; applies to the running workload too
    double rate() const;
    quint64 workloadOps() const; // operations of the current (or last) run

    bool hasPool() const { return m_hasPool; }
    // Whether pool is the one shown (the monitor keeps no reference to it: see PoolHandoff).
    bool isShowing(const MemoryPool *pool) const;
    QString poolLabel() const { return m_label; }
    // The latest statistics and the history since the pool was shown; valid after updated().
    const PoolStats &stats() const { return m_stats; }
    const PoolHistory &history() const { return m_history; }
    // Samples the pool's ring overwrote before a refresh could copy them (counters stay exact; only the
    // chart misses the changes in between).
    quint64 droppedSamples() const { return m_dropped; }
    // Seconds on the history's clock (0 when the pool was shown).
    double now() const;

    // While the pool changes; an idle pool is refreshed at 10 Hz until it changes again.
    void setRefreshInterval(int ms);
    int refreshInterval() const;
    quint64 refreshCount() const { return m_refreshes; }
    // Copies new samples and the statistics now (the timer calls this).
    void refresh();

signals:
    void updated();
    void poolChanged(); // another pool is shown (or none); the history restarted
    void deviceReady(bool svmSupported);
    void errorOccurred(const QString &message);
    void actionFinished(const QString &message);
    void workloadRunningChanged(bool running);
    void workloadFinished(const QString &summary, bool isError);

private:
    void takePublishedPool();
    void onWorkloadFinished(quint64 run, const QString &summary, bool isError);
    void setRunning(bool running);
    void noteActivity(bool changed);
    // Runs f(worker) on the device's worker, after what was submitted before.
    template<typename F> void post(F &&f);
    void newSession(cl_device_id device);
    void submitChunk(quint64 run, int waitMs);

    std::shared_ptr<DeviceWorkers> m_workers;
    std::shared_ptr<PoolHandoff> m_handoff;
    std::shared_ptr<PoolWorker> m_worker; // of the current device
    DeviceWorker *m_deviceWorker = nullptr;
    quint64 m_session = 0; // bumped with every new PoolWorker
    QTimer *m_timer;

    cl_device_id m_device = nullptr;
    QString m_deviceName;
    bool m_svm = false;
    int m_leadingBits = kDefaultLeadingBits;
    AllocatorKind m_allocator = AllocatorKind::Immediate;

    bool m_hasPool = false;
    quint64 m_shown = 0; // the handoff's generation that the history is of
    QString m_label;
    qint64 m_originNs = 0; // steady_clock time of the history's 0
    std::uint64_t m_nextSequence = 0;
    quint64 m_dropped = 0;
    quint64 m_refreshes = 0;
    int m_busyInterval = 25;
    int m_idleTicks = 0;
    PoolStats m_stats;
    PoolHistory m_history;

    quint64 m_run = 0;
    bool m_running = false;
};

} // namespace clscope::ui
