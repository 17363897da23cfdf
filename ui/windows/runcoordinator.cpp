// Run flow between the workbench's launch, the worker and the results.
#include "runcoordinator.h"

#include "clscope/check.h"
#include "clscope/rundirective.h"
#include "controllers/runcontroller.h"
#include "controllers/workbench.h"
#include "display/recordformat.h"
#include "files/readfile.h"
#include "models/eventtablemodel.h"
#include "widgets/resultsviewer.h"
#include "widgets/runhistory.h"

#include <QStatusBar>

namespace clscope::ui {

RunCoordinator::RunCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench,
                               DeviceManager *devices, ResultsViewer *results, RunHistoryPanel *history,
                               QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_workbench(workbench)
    , m_devices(devices)
    , m_results(results)
    , m_history(history)
    , m_statusBar(statusBar)
    , m_controller(new RunController(std::move(workers), this))
{
    setObjectName(QStringLiteral("runCoordinator"));
    connect(m_workbench, &Workbench::runRequested, this, &RunCoordinator::requestRun);
    connect(m_workbench, &Workbench::stopRequested, this, [this] {
        m_controller->abandon();
        m_workbench->launchView()->setRunning(false);
        m_statusBar->showMessage(
            tr("Run abandoned: the kernel finishes in the background and its result is discarded"));
    });
    m_controller->setCapturePrintf(true); // the kernel's printf shows beside its results
    connect(m_controller, &RunController::runFinished, this, &RunCoordinator::onFinished);
    connect(m_controller, &RunController::runFailed, this, &RunCoordinator::onFailed);
    connect(m_history, &RunHistoryPanel::rerunRequested, this, &RunCoordinator::rerun);
}

void RunCoordinator::onProgramBuilt(const BuildResult &result, const DeviceSnapshot * /*device*/)
{
    if (!result.success())
        return;
    const WorkbenchProgram &built = m_workbench->program();
    LaunchView *panel = m_workbench->launchView();
    // The first good build of a tab fills the panel from the source's own `// clscope-run:` launch (the
    // samples carry one; a program of several tabs, any of them); later builds keep what the user typed.
    QObject *editor = built.editor;
    if (!editor || editor->property("clscope.launchApplied").toBool())
        return;
    editor->setProperty("clscope.launchApplied", true);
    try {
        const std::vector<RunDirective> directives = parseRunDirectives(built.allText().toStdString());
        if (directives.empty())
            return;
        const RunDirective *d = findRunDirective(directives, m_workbench->launch().kernel.toStdString());
        QString error;
        if (!panel->applyDirective(d ? *d : directives.front(), &error))
            m_statusBar->showMessage(
                tr("The clscope-run launch of %1 does not fit: %2").arg(built.title, error), 10000);
    } catch (const std::exception &e) {
        m_statusBar->showMessage(tr("%1: %2").arg(built.title, QString::fromStdString(e.what())), 10000);
    }
}

bool RunCoordinator::requestRun()
{
    return m_workbench->builder()->buildThen([this] { runCurrent(); },
                                             [this](const QString &why) { refuse(why); });
}

void RunCoordinator::refuse(const QString &why)
{
    const QString text = tr("Not run: %1").arg(why);
    m_statusBar->showMessage(text, 15000);
    m_workbench->launchView()->showMessage(text);
    emit runRefused(why);
}

bool RunCoordinator::runCurrent()
{
    LaunchView *panel = m_workbench->launchView();
    QString error;
    auto request = panel->makeRequest(&error);
    if (!request) {
        m_statusBar->showMessage(tr("Cannot run: %1").arg(error), 10000);
        panel->showError(error);
        emit runFailed(error);
        return false;
    }
    panel->saveValues();
    panel->showMessage({});
    m_running = std::make_unique<ArgumentsState>(m_workbench->launch());
    panel->setRunning(true);
    const DeviceSnapshot *runDevice = m_devices->deviceSnapshot(request->device);
    const QString device = runDevice ? QString::fromStdString(runDevice->name()) : QString();
    m_history->runStarted(device);
    m_runDevice = device;
    if (m_controller->abandonedStillRunning())
        m_statusBar->showMessage(tr("Waiting for the stopped kernel to finish on %1, then running %2 (%3)…")
                                     .arg(device, m_running->kernel, panel->rangeText()));
    else
        m_statusBar->showMessage(
            tr("Running %1 on %2 (%3)…").arg(m_running->kernel, device, panel->rangeText()));
    m_controller->run(*request);
    return true;
}

bool RunCoordinator::requestSweep(std::function<void(const RunRequest &)> sweep)
{
    auto refuse = [this](const QString &why) {
        const QString text = tr("Not swept: %1").arg(why);
        m_statusBar->showMessage(text, 15000);
        m_workbench->launchView()->showMessage(text);
        emit sweepRefused(why);
    };
    return m_workbench->builder()->buildThen(
        [this, sweep = std::move(sweep), refuse] {
            LaunchView *panel = m_workbench->launchView();
            QString error;
            const auto request = panel->makeRequest(&error);
            if (!request) {
                refuse(error);
                panel->showError(error);
                return;
            }
            panel->saveValues();
            panel->showMessage({});
            sweep(*request);
        },
        refuse);
}

void RunCoordinator::rerun(const ArgumentsState &state)
{
    QString error;
    if (!m_workbench->launchView()->applyState(state, &error)) {
        m_statusBar->showMessage(tr("Cannot re-run: %1").arg(error), 10000);
        return;
    }
    runCurrent();
}

void RunCoordinator::showOclgrindReports(const QString &device)
{
    // A run on Oclgrind: its own reports (invalid accesses, API misuse), from the log named by
    // OCLGRIND_LOG (app/gui/main.cpp), shown where the build's diagnostics are.
    const QString log = qEnvironmentVariable("OCLGRIND_LOG");
    if (log.isEmpty() || !device.contains(QStringLiteral("Oclgrind"), Qt::CaseInsensitive))
        return;
    // Checked: OCLGRIND_LOG may name a FIFO or a device (the user's variable), which must not block or
    // be read without end. What the run added, at most 16 MiB of it.
    const FileRead read = readCheckedFileAt(log, m_oclgrindLogOffset, 16 * 1024 * 1024);
    const QByteArray &text = read.bytes;
    if (text.isEmpty())
        return;
    m_oclgrindLogOffset += text.size();
    const WorkbenchProgram &built = m_workbench->program();
    CheckSources sources;
    sources.sourceFile = built.path.toStdString();
    sources.texts[sources.sourceFile] = built.text.toStdString();
    for (const BuildJobSource &part : built.more) // the program's other tabs, by their names
        sources.texts[part.path.toStdString()] = part.text.toStdString();
    const auto reports = mergeCheckDiagnostics(parseOclgrindOutput(text.toStdString(), sources).diagnostics);
    if (reports.empty())
        return;
    std::vector<Diagnostic> diagnostics;
    for (const CheckDiagnostic &r : reports)
        diagnostics.push_back(r.diagnostic);
    m_workbench->builder()->showRunDiagnostics(diagnostics);
    m_statusBar->showMessage(
        tr("Oclgrind reported %n problem(s) in the run: see Diagnostics", nullptr, int(reports.size())),
        15000);
    emit oclgrindReported(int(reports.size()));
}

void RunCoordinator::onFinished(const RunResult &result)
{
    m_workbench->launchView()->setRunning(false);
    m_results->showResult(result);
    double kernelNs = 0;
    for (const auto &launch : result.launches())
        kernelNs += double(launch.duration());
    RunHistoryEntry entry;
    entry.when = QDateTime::currentDateTime();
    entry.state = m_running ? *m_running : m_workbench->launch();
    entry.device = QString::fromStdString(result.device());
    entry.kernelUs = result.launches().empty() ? 0 : kernelNs / 1e3 / double(result.launches().size());
    entry.wallMs = result.durationMs();
    entry.outcome = result.cancelled() ? tr("stopped") : tr("ok");
    m_history->add(entry);
    m_statusBar->showMessage(tr("Ran %1 on %2 in %3 (kernel %4)")
                                 .arg(QString::fromStdString(result.kernel()), entry.device,
                                      durationText(result.durationMs() * 1e6),
                                      durationText(entry.kernelUs * 1e3)));
    emit runFinished(result);
    showOclgrindReports(entry.device);
}

void RunCoordinator::onFailed(const QString &message)
{
    m_workbench->launchView()->setRunning(false);
    m_workbench->launchView()->showError(message);
    m_history->addFailure(m_running ? *m_running : m_workbench->launch(), message);
    showOclgrindReports(m_runDevice);
    m_statusBar->showMessage(tr("Run failed: %1").arg(message));
    emit runFailed(message);
}

} // namespace clscope::ui
