// Generated code, build matrix and run on all devices: from the window's state to the controllers, and the
// results into their dialogs.
#include "comparecoordinator.h"

#include "controllers/codecontroller.h"
#include "controllers/devicemanager.h"
#include "controllers/matrixcontroller.h"
#include "controllers/runallcontroller.h"
#include "controllers/workbench.h"
#include "widgets/buildmatrixdialog.h"
#include "widgets/generatedcodedialog.h"
#include "widgets/runalldialog.h"

#include "clscope/devicespec.h"

#include <QAction>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

namespace clscope::ui {

namespace {
const QString kSetsKey = QStringLiteral("matrix/optionSets");
const QString kCurrentBuild = QStringLiteral("Current build");
} // namespace

CompareCoordinator::CompareCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices,
                                       Workbench *workbench, QStatusBar *statusBar, QWidget *window)
    : QObject(window)
    , m_workers(workers)
    , m_devices(devices)
    , m_workbench(workbench)
    , m_statusBar(statusBar)
    , m_window(window)
    , m_code(new CodeController(workers, this))
    , m_matrix(new MatrixController(workers, this))
    , m_runAll(new RunAllController(workers, this))
    , m_codeAction(new QAction(tr("Show &generated code"), this))
    , m_matrixAction(new QAction(tr("Build &matrix…"), this))
    , m_runAllAction(new QAction(tr("Run on &all devices"), this))
{
    setObjectName(QStringLiteral("compareCoordinator"));
    m_codeAction->setObjectName(QStringLiteral("showCodeAction"));
    m_codeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    m_codeAction->setToolTip(
        tr("The code each device generated for the current build: PTX, LLVM IR or SPIR-V"));
    m_matrixAction->setObjectName(QStringLiteral("buildMatrixAction"));
    m_matrixAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    m_matrixAction->setToolTip(tr("Build with several option sets on several devices and compare"));
    m_runAllAction->setObjectName(QStringLiteral("runAllAction"));
    m_runAllAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_runAllAction->setToolTip(tr("Run the current launch on every device and compare times and outputs"));
    connect(m_codeAction, &QAction::triggered, this, &CompareCoordinator::showCode);
    connect(m_matrixAction, &QAction::triggered, this, [this] { showMatrix(); });
    connect(m_runAllAction, &QAction::triggered, this, &CompareCoordinator::runOnAllDevices);
    // A new build of the program replaces the "Current build" entries of an open code dialog.
    connect(m_workbench, &Workbench::programChanged, this, [this] {
        const BuildResult &result = m_workbench->program().result;
        if (m_codeDialog && m_codeDialog->isVisible() && result.success())
            m_codeDialog->addBuild(kCurrentBuild, result);
    });
    connect(m_devices, &DeviceManager::devicesAvailable, this, [this] {
        if (m_matrixDialog)
            m_matrixDialog->setDevices(allDevices());
    });
}

std::vector<DeviceTarget> CompareCoordinator::allDevices() const
{
    std::vector<DeviceTarget> out;
    const SnapshotPtr snapshot = m_devices->snapshot();
    if (!snapshot)
        return out;
    for (const DeviceCandidate &c : deviceCandidates(*snapshot))
        out.push_back({c.id, QString::fromStdString(c.deviceName), QString::fromStdString(c.platformName)});
    return out;
}

void CompareCoordinator::present(QWidget *dialog)
{
    // Most of the window, centred on it: listings and the matrix need the room; a run on every device has
    // a row per device, and a table that tall would be mostly empty.
    // Placed once: where the user moves or sizes it afterwards, it stays.
    if (!dialog->property("clscope.placed").toBool()) {
        const QSize room = m_window->size() * 9 / 10;
        const bool rows = qobject_cast<RunAllDialog *>(dialog);
        const int devices = int(allDevices().size());
        dialog->resize(rows ? QSize(room.width(), std::min(room.height(), 260 + 30 * devices)) : room);
        dialog->move(m_window->geometry().center() - dialog->rect().center());
        dialog->setProperty("clscope.placed", true);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

GeneratedCodeDialog *CompareCoordinator::codeDialog()
{
    if (!m_codeDialog)
        m_codeDialog = new GeneratedCodeDialog(m_code, m_window);
    return m_codeDialog;
}

BuildMatrixDialog *CompareCoordinator::matrixDialog()
{
    if (!m_matrixDialog) {
        m_matrixDialog = new BuildMatrixDialog(m_matrix, m_window);
        m_matrixDialog->setOptionSets(
            QSettings()
                .value(kSetsKey, QStringLiteral("-cl-opt-disable|-cl-fast-relaxed-math|-cl-mad-enable"))
                .toString());
        connect(m_matrixDialog, &BuildMatrixDialog::buildRequested, this, &CompareCoordinator::buildMatrix);
        connect(m_matrixDialog, &BuildMatrixDialog::timeRequested, this, &CompareCoordinator::timeMatrix);
        connect(m_matrixDialog, &BuildMatrixDialog::codeRequested, this,
                [this](const QString &label, const BuildResult &build, const QString &device) {
                    GeneratedCodeDialog *dialog = codeDialog();
                    dialog->addBuild(label, build);
                    dialog->showEntry(label + QStringLiteral(" — ") + device);
                    present(dialog);
                });
        connect(m_matrixDialog, &BuildMatrixDialog::diffRequested, this,
                [this](const QString &leftLabel, const BuildResult &left, const QString &leftDevice,
                       const QString &rightLabel, const BuildResult &right, const QString &rightDevice) {
                    GeneratedCodeDialog *dialog = codeDialog();
                    dialog->addBuild(leftLabel, left);
                    if (rightLabel != leftLabel)
                        dialog->addBuild(rightLabel, right);
                    dialog->showDiff(leftLabel + QStringLiteral(" — ") + leftDevice,
                                     rightLabel + QStringLiteral(" — ") + rightDevice);
                    present(dialog);
                });
    }
    return m_matrixDialog;
}

RunAllDialog *CompareCoordinator::runAllDialog()
{
    if (!m_runAllDialog) {
        m_runAllDialog = new RunAllDialog(m_runAll, m_window);
        // After the dialog's own update, which makes the summary.
        connect(m_runAll, &RunAllController::finished, this, [this](bool cancelled) {
            if (!cancelled && m_runAllDialog)
                m_statusBar->showMessage(tr("Run on all devices: %1").arg(m_runAllDialog->summaryText()),
                                         15000);
        });
        connect(m_runAllDialog, &RunAllDialog::runRequested, this, &CompareCoordinator::runOnAllDevices);
    }
    return m_runAllDialog;
}

bool CompareCoordinator::showCode()
{
    GeneratedCodeDialog *dialog = codeDialog();
    return m_workbench->builder()->buildThen(
        [this, dialog] {
            dialog->addBuild(kCurrentBuild, m_workbench->program().result);
            const QStringList names = dialog->entryNames();
            for (const QString &name : names) {
                if (name.startsWith(kCurrentBuild)) {
                    if (!dialog->diffMode())
                        dialog->showEntry(name);
                    break;
                }
            }
            present(dialog);
        },
        [this](const QString &why) {
            m_statusBar->showMessage(tr("No generated code: %1").arg(why), 10000);
        });
}

BuildMatrixDialog *CompareCoordinator::showMatrix(const QString &sets, bool build)
{
    BuildMatrixDialog *dialog = matrixDialog();
    dialog->setDevices(allDevices());
    if (!sets.isNull())
        dialog->setOptionSets(sets);
    present(dialog);
    if (build)
        dialog->buildButton()->click();
    return dialog;
}

void CompareCoordinator::buildMatrix(const QStringList &sets, const std::vector<DeviceTarget> &devices)
{
    const WorkbenchProgram stamp = m_workbench->builder()->programNow();
    if (!stamp.editor) {
        m_matrixDialog->showStatus(tr("Nothing to build: open a kernel first"));
        return;
    }
    QSettings().setValue(kSetsKey, m_matrixDialog->optionSetsText());
    MatrixJob job;
    job.source = stamp.text;
    job.sourcePath = stamp.path;
    job.baseOptions = stamp.options;
    job.moreSources = stamp.more;
    job.link = stamp.link;
    job.sets = sets;
    job.devices = devices;
    QString error;
    if (!m_matrix->start(job, &error)) {
        m_matrixDialog->showStatus(tr("Cannot build: %1").arg(error));
        return;
    }
    m_matrixDialog->showStatus(
        stamp.options.isEmpty() ? tr("Building %1 with each set…").arg(stamp.title)
                                : tr("Building %1 with “%2” and each set…").arg(stamp.title, stamp.options));
}

void CompareCoordinator::timeMatrix()
{
    QString error;
    const auto request = m_workbench->launchView()->makeRequest(&error);
    if (!request) {
        m_matrixDialog->showStatus(
            tr("Cannot time: %1. Time it runs the Arguments panel's launch: build the kernel and fill it in.")
                .arg(error));
        return;
    }
    if (!m_matrix->timeIt(*request)) {
        m_matrixDialog->showStatus(tr("Cannot time: no cell is built"));
        return;
    }
    m_matrixDialog->showStatus(
        tr("Timing %1 (%2) in every built cell…")
            .arg(QString::fromStdString(request->kernel), m_workbench->launchView()->rangeText()));
}

bool CompareCoordinator::runOnAllDevices()
{
    return m_workbench->builder()->buildThen([this] { startRunAll(); },
                                             [this](const QString &why) {
                                                 m_statusBar->showMessage(
                                                     tr("Not run on all devices: %1").arg(why), 10000);
                                                 emit runAllRefused(why);
                                             });
}

void CompareCoordinator::startRunAll()
{
    LaunchView *panel = m_workbench->launchView();
    QString error;
    const auto request = panel->makeRequest(&error);
    if (!request) {
        m_statusBar->showMessage(tr("Cannot run on all devices: %1").arg(error), 10000);
        panel->showError(error);
        emit runAllRefused(error);
        return;
    }
    const WorkbenchProgram &built = m_workbench->program();
    RunAllJob job;
    job.source = built.text;
    job.sourcePath = built.path;
    job.options = built.options;
    job.moreSources = built.more;
    job.link = built.link;
    job.launch = *request;
    // The device the user works on first: the others are compared with it.
    job.devices = allDevices();
    std::stable_partition(job.devices.begin(), job.devices.end(),
                          [current = built.device](const DeviceTarget &d) { return d.id == current; });
    if (!m_runAll->start(job, &error)) {
        m_statusBar->showMessage(tr("Cannot run on all devices: %1").arg(error), 10000);
        emit runAllRefused(error);
        return;
    }
    panel->saveValues();
    RunAllDialog *dialog = runAllDialog();
    dialog->setLaunchText(
        tr("<b>%1</b> of %2 · %3 · %n launch(es) on each device%4", nullptr, request->repeat)
            .arg(QString::fromStdString(request->kernel).toHtmlEscaped(), built.title.toHtmlEscaped(),
                 panel->rangeText().section(QStringLiteral(", ×"), 0, 0).toHtmlEscaped(),
                 built.options.isEmpty() ? QString()
                                         : tr(" · options “%1”").arg(built.options.toHtmlEscaped())));
    present(dialog);
    m_statusBar->showMessage(tr("Running %1 on %n device(s)…", nullptr, int(job.devices.size()))
                                 .arg(QString::fromStdString(request->kernel)));
}

} // namespace clscope::ui
