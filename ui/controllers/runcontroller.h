// Runs kernels on the worker of the run's device. A run can be abandoned: its cancel token stops it between
// launches and its late result is discarded, so the user keeps working while a long kernel finishes.
// Runs take their buffers from one memory pool per build context, made on the worker at the first run
// on that context and kept for the next runs, so buffers are reused and the pool can be watched live. The
// pool is kept in a RunPool, which only the workers change: the GUI reads it, and never owns it.
#pragma once

#include "clscope/runner.h"
#include "runpool.h"
#include "workers/jobtag.h"

#include <QObject>

#include <atomic>
#include <QString>

#include <memory>

namespace clscope::ui {

class DeviceWorker;
class DeviceWorkers;

class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    ~RunController() override;

    // Runs with the controller's pool for the build's context (made on the first run there).
    void run(const RunRequest &request);
    // The pool of the latest run's context (RunPool::read: none before the first run).
    std::shared_ptr<const RunPool> pool() const { return m_pool; }
    // Stops waiting for the current run: its result will be dropped when it arrives.
    void abandon();
    bool isBusy() const { return m_busy; }
    // Takes the kernel's printf from the process's stdout during each run (RunOptions::capturePrintf). Off
    // by default: the window turns it on; a process whose other threads print meanwhile would lose that.
    void setCapturePrintf(bool on) { m_capturePrintf = on; }
    // True while a run abandoned with abandon() is still on its worker: the next run there waits for it.
    bool abandonedStillRunning() const { return m_abandoned && m_abandoned->load(); }

signals:
    void runStarted(const QString &kernel);
    void runFinished(const clscope::RunResult &result);
    void runFailed(const QString &message);
    void runAbandoned();
    // A run made a new pool (the first run on a build's context): pool() holds another one.
    void poolCreated();

private:
    std::shared_ptr<DeviceWorkers> m_workers;
    JobTag m_tag{QStringLiteral("run")}; // a newer run supersedes an older one, on any device
    bool m_busy = false;
    bool m_capturePrintf = false;
    std::shared_ptr<std::atomic<bool>> m_running;   // the latest run's "still on the worker"
    std::shared_ptr<std::atomic<bool>> m_abandoned; // the abandoned run's
    const std::shared_ptr<RunPool> m_pool = std::make_shared<RunPool>();
    DeviceWorker *m_lastWorker = nullptr; // of the latest run: drops the pool when the controller goes
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::RunResult)
