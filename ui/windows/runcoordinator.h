// Ties the workbench's launch (the Workbench context and its launch view), the run controller, the results
// viewer and the run history together: F5 runs off the GUI thread, Stop abandons a run (its late result is
// discarded), and every run lands in the history.
#pragma once

#include "clscope/runner.h"
#include "controllers/devicemanager.h"
#include "widgets/workbenchview.h"

#include <QObject>

#include <functional>
#include <memory>

class QStatusBar;

namespace clscope::ui {

class ResultsViewer;
class RunController;
class RunHistoryPanel;
class DeviceWorkers;
class Workbench;
struct ArgumentsState;

// A view of the window (WorkbenchView): a tab's first good build takes its `// clscope-run:` launch.
class RunCoordinator : public QObject, public WorkbenchView
{
    Q_OBJECT
public:
    RunCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench, DeviceManager *devices,
                   ResultsViewer *results, RunHistoryPanel *history, QStatusBar *statusBar,
                   QObject *parent = nullptr);

    RunController *controller() const { return m_controller; }
    // A tab's first good build takes the source's own `// clscope-run:` launch (the launch view has its
    // kernels already: the Workbench context gave them).
    void onProgramBuilt(const BuildResult &result, const DeviceSnapshot *device) override;
    // F5: runs what the user sees: the current tab's program on the current device, rebuilt first when its
    // text, options or device changed since the last build; a failed build is not run (runRefused says why).
    bool requestRun();
    // Runs what the panel holds; false (with a status message) when it does not describe a run.
    bool runCurrent();
    // Run → Sweep local size: the launch F5 would run (built first, as F5 does) goes to `sweep`; refused
    // (sweepRefused, with the reason in the status bar and the panel) when there is no good build or the
    // panel's launch is not one.
    bool requestSweep(std::function<void(const RunRequest &)> sweep);
    void rerun(const ArgumentsState &state);

signals:
    void runFinished(const clscope::RunResult &result);
    void runFailed(const QString &message);
    // F5 did not run: the build failed, or there is nothing to build on.
    void runRefused(const QString &why);
    // A sweep was not started, and why.
    void sweepRefused(const QString &why);
    // A run on Oclgrind produced Oclgrind's own reports (now in Diagnostics).
    void oclgrindReported(int count);

private:
    void onFinished(const RunResult &result);
    void onFailed(const QString &message);

    void refuse(const QString &why);
    void showOclgrindReports(const QString &device);

    Workbench *m_workbench;
    DeviceManager *m_devices;
    ResultsViewer *m_results;
    RunHistoryPanel *m_history;
    QStatusBar *m_statusBar;
    RunController *m_controller;
    std::unique_ptr<ArgumentsState> m_running;
    QString m_runDevice;            // the device of the latest run
    qint64 m_oclgrindLogOffset = 0; // what of OCLGRIND_LOG was read already
};

} // namespace clscope::ui
