// Runs kernels off the GUI thread. A run can be abandoned: the cooperative cancel flag stops it between
// launches and its late result is discarded, so the user keeps working while a long kernel finishes.
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

    void run(const RunRequest &request, std::shared_ptr<MemoryPool> pool = {});
    // Stops waiting for the current run: its result will be dropped when it arrives.
    void abandon();
    bool isBusy() const { return m_busy; }

signals:
    void runStarted(const QString &kernel);
    void runFinished(const clscope::RunResult &result);
    void runFailed(const QString &message);
    void runAbandoned();

private:
    WorkQueue *m_queue;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_busy = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::RunResult)
