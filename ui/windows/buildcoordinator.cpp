// Build flow between the editor and the build panels.
#include "buildcoordinator.h"

#include "models/buildcontroller.h"
#include "widgets/buildlogpanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>

namespace clscope::ui {

namespace {
const QString kHistoryKey = QStringLiteral("build/optionsHistory");
constexpr int kHistorySize = 20;

EditorDiagnostic::Severity editorSeverity(Severity s)
{
    switch (s) {
    case Severity::Error:
        return EditorDiagnostic::Error;
    case Severity::Warning:
        return EditorDiagnostic::Warning;
    case Severity::Note:
        break;
    }
    return EditorDiagnostic::Note;
}

bool samePath(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    return QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}
} // namespace

BuildCoordinator::BuildCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices,
                                   EditorTabs *editors, BuildLogPanel *log, DiagnosticsPanel *diagnostics,
                                   QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_devices(devices)
    , m_editors(editors)
    , m_log(log)
    , m_diagnostics(diagnostics)
    , m_statusBar(statusBar)
    , m_controller(new BuildController(std::move(workers), this))
    , m_buildAction(new QAction(tr("&Build"), this))
    , m_buildAllAction(new QAction(tr("Build for &all devices of the platform"), this))
    , m_options(new QComboBox)
    , m_busy(new QProgressBar)
{
    m_buildAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_buildAction->setToolTip(tr("Build the current kernel on the current device (Ctrl+B)"));
    m_buildAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    connect(m_buildAction, &QAction::triggered, this, [this] { buildCurrent(false); });
    connect(m_buildAllAction, &QAction::triggered, this, [this] { buildCurrent(true); });

    m_options->setEditable(true);
    m_options->setObjectName(QStringLiteral("buildOptions"));
    m_options->setMinimumContentsLength(40);
    m_options->setInsertPolicy(QComboBox::NoInsert);
    m_options->lineEdit()->setPlaceholderText(
        tr("Build options, e.g. -cl-fast-relaxed-math -D N=1024 -I include"));
    m_options->setToolTip(tr("Options are split like a shell does; -I folders are searched for headers"));
    m_options->addItems(QSettings().value(kHistoryKey).toStringList());
    m_options->setCurrentIndex(0);
    connect(m_options->lineEdit(), &QLineEdit::returnPressed, m_buildAction, &QAction::trigger);

    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setVisible(false);
    m_statusBar->addPermanentWidget(m_busy);

    connect(m_controller, &BuildController::buildFinished, this, &BuildCoordinator::onFinished);
    connect(m_controller, &BuildController::buildFailed, this, &BuildCoordinator::onFailed);
    connect(m_diagnostics, &DiagnosticsPanel::diagnosticActivated, this, &BuildCoordinator::jumpTo);
}

bool BuildCoordinator::buildCurrent(bool allDevicesOfPlatform)
{
    KernelEditor *editor = m_editors->currentEditor();
    if (!editor) {
        m_statusBar->showMessage(tr("Nothing to build: open or write a kernel first"), 5000);
        return false;
    }
    const DeviceSnapshot *device = m_devices->currentDeviceSnapshot();
    if (!device) {
        m_statusBar->showMessage(tr("No device to build on: choose one in the Devices panel"), 5000);
        return false;
    }
    BuildJob job;
    job.source = editor->text();
    job.sourcePath = m_editors->currentPath();
    job.options = m_options->currentText().trimmed();
    if (allDevicesOfPlatform) {
        const auto &platform =
            m_devices->snapshot()->platforms[static_cast<size_t>(m_devices->currentDevice().platform)];
        for (const DeviceSnapshot &d : platform.devices) {
            job.devices.push_back(d.id);
            job.deviceNames << QString::fromStdString(d.name());
        }
    } else {
        job.devices.push_back(device->id);
        job.deviceNames << QString::fromStdString(device->name());
    }
    rememberOptions(job.options);
    m_builtEditor = editor;
    m_builtPath = job.sourcePath;
    setBusy(true);
    m_statusBar->showMessage(
        tr("Building %1 on %2…").arg(m_editors->title(), job.deviceNames.join(QStringLiteral(", "))));
    m_controller->build(job);
    return true;
}

void BuildCoordinator::setBusy(bool busy)
{
    m_busy->setVisible(busy);
    m_buildAction->setEnabled(true); // a new build supersedes the running one; the editor stays usable
}

void BuildCoordinator::rememberOptions(const QString &options)
{
    QStringList history = QSettings().value(kHistoryKey).toStringList();
    history.removeAll(options);
    history.prepend(options);
    while (history.size() > kHistorySize)
        history.removeLast();
    QSettings().setValue(kHistoryKey, history);
    const QString current = m_options->currentText();
    m_options->blockSignals(true);
    m_options->clear();
    m_options->addItems(history);
    m_options->setEditText(current);
    m_options->blockSignals(false);
}

void BuildCoordinator::onFinished(const BuildResult &result)
{
    setBusy(false);
    m_log->showResult(result);
    showDiagnostics(result.diagnostics());
    m_statusBar->showMessage(buildSummary(result));
    emit buildFinished(result);
}

KernelEditor *BuildCoordinator::builtEditor() const
{
    return m_builtEditor;
}

void BuildCoordinator::showDiagnostics(const std::vector<Diagnostic> &diagnostics)
{
    m_diagnostics->setDiagnostics(diagnostics);
    if (!m_builtEditor)
        return;
    QVector<EditorDiagnostic> marks;
    for (const Diagnostic &d : diagnostics) {
        const QString file = QString::fromStdString(d.file);
        // The main source's diagnostics (the driver's temp names are mapped back to it by the core).
        if (d.line > 0 && (file.isEmpty() || file == m_builtPath || samePath(file, m_builtPath)))
            marks.push_back(
                {d.line, d.column, editorSeverity(d.severity), QString::fromStdString(d.message)});
    }
    m_builtEditor->setDiagnostics(marks);
}

void BuildCoordinator::onFailed(const QString &message)
{
    setBusy(false);
    m_log->showFailure(message);
    m_statusBar->showMessage(tr("Build could not start: %1").arg(message));
    emit buildFailed(message);
}

void BuildCoordinator::jumpTo(const QString &file, int line, int column)
{
    if (line <= 0)
        return;
    if (file.isEmpty() || file == m_builtPath || samePath(file, m_builtPath)) {
        if (m_builtEditor) {
            m_editors->setCurrentWidget(m_builtEditor);
            m_builtEditor->goTo(line, column);
        }
        return;
    }
    // A header: open it (or switch to it) and jump there.
    if (m_editors->openFile(file) && m_editors->currentEditor())
        m_editors->currentEditor()->goTo(line, column);
}

} // namespace clscope::ui
