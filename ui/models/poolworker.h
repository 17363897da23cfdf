// The thread side of the pool monitor: owns the OpenCL context, queue and pools of the current device,
// and runs workloads in short chunks on its own thread. Every call that can reach the driver (creating
// pools, clReleaseMemObject in free_held and stop_holding, allocations) happens here, never on the GUI
// thread. Between chunks its event loop takes the monitor's requests, so Stop and Free held are prompt.
#pragma once

#include "poolworkload.h"

#include "clscope/pool.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <CL/cl.h>

#include <atomic>
#include <memory>
#include <mutex>

class QTimer;

namespace clscope::ui {

enum class AllocatorKind : int { Deferred, Immediate, Svm };
QString allocatorName(AllocatorKind kind);

// The pool the GUI should show, handed over under a mutex: the GUI copies the pointer when told that
// the generation changed. The worker changes it, so the last reference to a replaced pool is dropped
// on the worker thread (the GUI sends its own copy back there to be dropped).
struct PoolHandoff
{
    std::mutex mutex;
    std::shared_ptr<MemoryPool> pool;
    QString label;
    quint64 generation = 0;
};

class PoolWorker : public QObject
{
    Q_OBJECT
public:
    explicit PoolWorker(std::shared_ptr<PoolHandoff> handoff, QObject *parent = nullptr);
    ~PoolWorker() override;

    // Read and written from the GUI thread without a round trip.
    std::atomic<double> &rate() { return m_rate; }          // ops per second; 0: as fast as possible
    std::atomic<quint64> &opsDone() { return m_opsDone; }   // of the current run
    std::atomic<quint64> &cancelRuns() { return m_cancel; } // bumped by Stop: ends the runs started before

    // The requests; called on the worker thread (queued by the monitor).
    void setDevice(cl_device_id device, const QString &name, int leadingBits,
                   clscope::ui::AllocatorKind kind);
    void newPool(int leadingBits, clscope::ui::AllocatorKind kind);
    void adoptPool(std::shared_ptr<MemoryPool> pool, const QString &label);
    void freeHeld();
    void stopHolding();
    void startWorkload(const clscope::ui::WorkloadSpec &spec, quint64 run);
    void stopWorkload();
    void shutdown(); // last call: ends the run, drops pools, context and queue

signals:
    void poolPublished(quint64 generation);
    void deviceReady(bool svmSupported);
    void failed(const QString &message);
    void workloadFinished(quint64 run, const QString &summary, bool isError);
    void actionFinished(const QString &message);

private:
    void runChunk();
    void scheduleChunk();
    void finishRun(const QString &summary, bool isError);
    void publish(std::shared_ptr<MemoryPool> pool, const QString &label);
    std::shared_ptr<MemoryPool> makePool(int leadingBits, AllocatorKind kind);
    void releaseDevice();

    std::shared_ptr<PoolHandoff> m_handoff;
    QTimer *m_chunkTimer;
    cl_device_id m_device = nullptr;
    QString m_deviceName;
    cl_context m_context = nullptr;
    cl_command_queue m_queue = nullptr;
    bool m_svm = false;
    std::shared_ptr<MemoryPool> m_pool;

    std::unique_ptr<PoolWorkload> m_workload;
    QString m_workloadName;
    quint64 m_run = 0;
    std::atomic<double> m_rate{10000};
    std::atomic<quint64> m_opsDone{0};
    std::atomic<quint64> m_cancel{0};
    // The rate is kept against a baseline that restarts when the rate changes, so a change never
    // makes up for (or bursts through) the time before it.
    double m_rateSeen = -1;
    QElapsedTimer m_rateClock;
    quint64 m_rateOps = 0;
};

} // namespace clscope::ui
