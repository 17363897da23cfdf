// Runs kernels off the GUI thread. A run can be abandoned: the cooperative cancel flag stops it between
// launches and its late result is discarded, so the user keeps working while a long kernel finishes.
// Runs take their buffers from one memory pool per build context, made on the worker at the first run
// on that context and kept for the next runs, so buffers are reused and the pool can be watched live.
#pragma once

#include "clscope/runner.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace clscope::ui {

class WorkQueue;

class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(WorkQueue *queue, QObject *parent = nullptr);

    // Runs with the controller's pool for the build's context (made on the first run there).
    void run(const RunRequest &request);
    // The pool of the latest run's context; null before the first run.
    const std::shared_ptr<MemoryPool> &pool() const { return m_pool; }
    // Stops waiting for the current run: its result will be dropped when it arrives.
    void abandon();
    bool isBusy() const { return m_busy; }

signals:
    void runStarted(const QString &kernel);
    void runFinished(const clscope::RunResult &result);
    void runFailed(const QString &message);
    void runAbandoned();
    // A run made a new pool (the first run on a build's context); `label` names it for a pool view.
    void poolCreated(std::shared_ptr<clscope::MemoryPool> pool, const QString &label);

private:
    WorkQueue *m_queue;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_busy = false;
    std::shared_ptr<MemoryPool> m_pool;
    cl_context m_poolContext = nullptr; // retained by m_pool's allocator, so it cannot be reused meanwhile
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::RunResult)
