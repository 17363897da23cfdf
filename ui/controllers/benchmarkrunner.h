// Runs device benchmarks (clscope/devicebench.h) on the device's worker, never the GUI thread: progress
// and each kind's result arrive as signals on the runner's thread, Cancel (the job's cancel token) stops
// the run between two steps (a kernel already running is waited for: OpenCL cannot stop it), and nothing
// reaches a runner that is gone. Each kind is a job of its own, so builds and runs on the same device
// take their turn between two kinds.
#pragma once

#include "clscope/devicebench.h"

#include <QObject>
#include <QStringList>

#include <CL/cl.h>

#include <memory>
#include <string>
#include <vector>

namespace clscope::ui {

class DeviceWorker;
class DeviceWorkers;

class BenchmarkRunner : public QObject
{
    Q_OBJECT
public:
    explicit BenchmarkRunner(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    // Cancels a run; its worker finishes the step in flight and delivers nothing.
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
    // One kind after another: the next is submitted when the previous one's result arrives.
    void runKind(std::size_t index);
    void end();

    std::shared_ptr<DeviceWorkers> m_workers;
    DeviceWorker *m_worker = nullptr;
    cl_device_id m_device = nullptr;
    std::vector<std::string> m_kinds;
    BenchEffort m_effort = BenchEffort::Quick;
    BenchDocument m_doc;
    bool m_running = false;
    bool m_cancelled = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::BenchResult)
Q_DECLARE_METATYPE(clscope::BenchDocument)
