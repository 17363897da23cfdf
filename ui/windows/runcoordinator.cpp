// Run flow between the arguments panel, the worker and the results.
#include "runcoordinator.h"

#include "models/runcontroller.h"
#include "widgets/argumentspanel.h"
#include "widgets/resultsviewer.h"
#include "widgets/runhistory.h"

#include <QStatusBar>

namespace clscope::ui {

RunCoordinator::RunCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices,
                               ArgumentsPanel *panel, ResultsViewer *results, RunHistoryPanel *history,
                               QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_devices(devices)
    , m_panel(panel)
    , m_results(results)
    , m_history(history)
    , m_statusBar(statusBar)
    , m_controller(new RunController(std::move(workers), this))
{
    connect(m_panel, &ArgumentsPanel::runRequested, this, &RunCoordinator::runCurrent);
    connect(m_panel, &ArgumentsPanel::stopRequested, this, [this] {
        m_controller->abandon();
        m_panel->setRunning(false);
        m_statusBar->showMessage(
            tr("Run abandoned: the kernel finishes in the background and its result is discarded"));
    });
    connect(m_controller, &RunController::runFinished, this, &RunCoordinator::onFinished);
    connect(m_controller, &RunController::runFailed, this, &RunCoordinator::onFailed);
    connect(m_history, &RunHistoryPanel::rerunRequested, this, &RunCoordinator::rerun);
}

void RunCoordinator::onBuildFinished(const BuildResult &result)
{
    if (result.success())
        m_panel->setBuild(result, m_devices->currentDeviceSnapshot());
}

bool RunCoordinator::runCurrent()
{
    QString error;
    auto request = m_panel->makeRequest(&error);
    if (!request) {
        m_statusBar->showMessage(tr("Cannot run: %1").arg(error), 10000);
        emit runFailed(error);
        return false;
    }
    m_running = std::make_unique<ArgumentsState>(m_panel->state());
    m_panel->setRunning(true);
    m_statusBar->showMessage(tr("Running %1 (%2)…").arg(m_running->kernel, m_panel->rangeText()));
    m_controller->run(*request);
    return true;
}

void RunCoordinator::rerun(const ArgumentsState &state)
{
    QString error;
    if (!m_panel->applyState(state, &error)) {
        m_statusBar->showMessage(tr("Cannot re-run: %1").arg(error), 10000);
        return;
    }
    runCurrent();
}

void RunCoordinator::onFinished(const RunResult &result)
{
    m_panel->setRunning(false);
    m_results->showResult(result);
    double kernelNs = 0;
    for (const auto &launch : result.launches())
        kernelNs += double(launch.duration());
    RunHistoryEntry entry;
    entry.when = QDateTime::currentDateTime();
    entry.state = m_running ? *m_running : m_panel->state();
    entry.device = QString::fromStdString(result.device());
    entry.kernelUs = result.launches().empty() ? 0 : kernelNs / 1e3 / double(result.launches().size());
    entry.wallMs = result.durationMs();
    entry.outcome = result.cancelled() ? tr("stopped") : tr("ok");
    m_history->add(entry);
    m_statusBar->showMessage(tr("Ran %1 on %2 in %3 ms (kernel %4 us)")
                                 .arg(QString::fromStdString(result.kernel()), entry.device)
                                 .arg(result.durationMs(), 0, 'f', 1)
                                 .arg(entry.kernelUs, 0, 'f', 1));
    emit runFinished(result);
}

void RunCoordinator::onFailed(const QString &message)
{
    m_panel->setRunning(false);
    RunHistoryEntry entry;
    entry.when = QDateTime::currentDateTime();
    entry.state = m_running ? *m_running : m_panel->state();
    entry.outcome = message;
    m_history->add(entry);
    m_statusBar->showMessage(tr("Run failed: %1").arg(message));
    emit runFailed(message);
}

} // namespace clscope::ui
