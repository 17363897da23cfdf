// Runs a work-group size sweep (clscope/sweep.h) on the worker of the launch's device, never the GUI thread:
// how many local sizes are done arrives as progressChanged, the sweep as finished, both queued to the
// controller's thread and only while it lives. cancel() sets the job's cancel token, which the sweep checks
// between two launches: finished() then brings the local sizes that ran (SweepResult::cancelled).
#pragma once

#include "clscope/sweep.h"
#include "workers/jobtag.h"

#include <QObject>
#include <QString>

#include <memory>

namespace clscope::ui {

class DeviceWorkers;

class SweepController : public QObject
{
    Q_OBJECT
public:
    explicit SweepController(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    // A sweep still going is discarded: it stops at its next check and reports nothing.
    ~SweepController() override;

    // Sweeps on the worker of request.run's device (its build's first device when it names none). A sweep
    // still going is discarded first, on whatever device it runs.
    void start(const SweepRequest &request);
    // Asks the sweep to stop between two launches; finished() follows with what ran.
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void started(const QString &kernel);
    // After each local size; total is 0 until the candidates are known.
    void progressChanged(int done, int total);
    void finished(const clscope::SweepResult &result);
    // The launch itself is wrong (unknown kernel, bad arguments, the same error for every size).
    void failed(const QString &message);

private:
    std::shared_ptr<DeviceWorkers> m_workers;
    JobTag m_tag{QStringLiteral("sweep")}; // a newer sweep supersedes an older one, on any device
    bool m_running = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::SweepResult)
