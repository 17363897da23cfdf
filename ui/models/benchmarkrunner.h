// Runs device benchmarks (clscope/devicebench.h) on a thread of its own, never the GUI's: progress and
// each kind's result arrive as signals on the runner's thread, Cancel stops the run between two steps
// (a kernel already running is waited for: OpenCL cannot stop it), and a run superseded by a newer one
// delivers nothing (generation ids, as hotspot's job tracker).
#pragma once

#include "clscope/devicebench.h"

#include <QObject>
#include <QStringList>

#include <CL/cl.h>

#include <atomic>
#include <memory>
#include <mutex>

class QThreadPool;

namespace clscope::ui {

class BenchmarkRunner : public QObject
{
    Q_OBJECT
public:
    explicit BenchmarkRunner(QObject *parent = nullptr);
    // Cancels a run and waits a few seconds for it; a kernel that runs longer is left to the process.
    ~BenchmarkRunner() override;

    bool isRunning() const { return m_running; }

    // Runs the kinds in order on the device; false (and nothing happens) while a run is going on or when
    // a kind is unknown.
    bool start(cl_device_id device, const QStringList &kinds, clscope::BenchEffort effort);
    // Asks the run to stop; cancelled() follows once it has.
    void cancel();

    // Each kind's figures, series and traits, as they finish, then the whole document.
signals:
    void started(const QStringList &kinds);
    void progressChanged(int permille, const QString &stage); // 0..1000 over the whole run
    void kindFinished(const clscope::BenchResult &result);
    void finished(const clscope::BenchDocument &document);
    void cancelled(const clscope::BenchDocument &partial);
    void failed(const QString &message);

private:
    // What the run's thread shares with the runner: the cancel flag, and the runner itself under a mutex,
    // so that once the destructor has cleared it no report can reach a runner that is gone.
    struct Shared
    {
        std::atomic<bool> cancel{false};
        std::mutex mutex;
        BenchmarkRunner *owner = nullptr;
    };

    QThreadPool *m_pool;
    std::shared_ptr<Shared> m_shared;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::BenchResult)
Q_DECLARE_METATYPE(clscope::BenchDocument)
