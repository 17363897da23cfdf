// The main window's menus, and what only they start: a new kernel from the template, the open and
// profile dialogs, go to line and to the next diagnostic, the local-size sweep window.
#include "mainwindow.h"

#include "buildcoordinator.h"
#include "capturecoordinator.h"
#include "checkcoordinator.h"
#include "comparecoordinator.h"
#include "debugcoordinator.h"
#include "rooflinecoordinator.h"
#include "runcoordinator.h"
#include "widgets/argumentspanel.h"
#include "widgets/devicedock.h"
#include "widgets/editortabs.h"
#include "widgets/findbar.h"
#include "widgets/kerneleditor.h"
#include "widgets/profiledialog.h"
#include "widgets/startpage.h"
#include "widgets/sweepdialog.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>
#include <vector>

namespace clscope::ui {

void MainWindow::newKernelFromTemplate()
{
    const int index = m_editors->newDocument();
    if (KernelEditor *editor = m_editors->editor(index)) {
        editor->setText(StartPage::kernelTemplate());
        editor->setCursorPosition(3, 0);
    }
}

void MainWindow::chooseFilesToOpen()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open kernel sources or a capture"), QString(),
        tr("OpenCL sources and captures (*.cl *.clh *.h *.clscope);;OpenCL sources (*.cl *.clh *.h);;CLScope "
           "captures (*.clscope);;All files (*)"));
    openFiles(paths);
}

void MainWindow::chooseProgramToProfile()
{
    ProfileDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        m_captures->profile(dialog.settings());
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New kernel"), QKeySequence::New, this, &MainWindow::newKernelFromTemplate);
    file->addAction(tr("New &empty file"), this, [this] { m_editors->newDocument(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseFilesToOpen);
    file->addAction(tr("Open &binary or SPIR-V…"), this, [this] {
        // A device binary (pyopencl's program.binaries, clGetProgramInfo(CL_PROGRAM_BINARIES); NVIDIA's is
        // PTX text) or SPIR-V: built as such, whatever its bytes look like.
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a program binary or SPIR-V"), QString(),
            tr("Program binaries and SPIR-V (*.bin *.spv *.ptx *.elf *.o);;All files (*)"));
        if (path.isEmpty())
            return;
        if (m_editors->openProgramFile(path) >= 0)
            m_builds->buildCurrent();
    });
    file->addAction(tr("&Profile application…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this,
                    &MainWindow::chooseProgramToProfile);
    QMenu *samples = file->addMenu(tr("Open &sample"));
    for (const QString &name : EditorTabs::sampleNames())
        samples->addAction(name, this, [this, name] { m_editors->openSample(name); });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_editors, &EditorTabs::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { m_editors->save(); });
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save kernel as"), m_editors->title(),
                                                          tr("OpenCL sources (*.cl);;All files (*)"));
        if (!path.isEmpty())
            m_editors->saveAs(path);
    });
    file->addAction(tr("Save a&ll"), this, [this] { m_editors->saveAll(); });
    file->addAction(tr("&Close tab"), QKeySequence::Close, this,
                    [this] { m_editors->closeTab(m_editors->currentIndex()); });
    file->addSeparator();
    file->addAction(tr("Export devices as &JSON…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export devices as JSON"), QStringLiteral("clscope-devices.json"), tr("JSON (*.json)"));
        if (path.isEmpty())
            return;
        const QString error = m_deviceDock->exportJson(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    file->addAction(tr("Save &screenshot…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save screenshot"), QStringLiteral("clscope.png"), tr("PNG images (*.png)"));
        if (path.isEmpty())
            return;
        const QString error = saveScreenshot(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Screenshot failed"), error);
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_editors->recentFiles();
    for (const QString &path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openFiles({path}); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::createEditMenu()
{
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    auto onEditor = [this](auto call) {
        return [this, call] {
            if (KernelEditor *e = m_editors->currentEditor())
                call(e);
        };
    };
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this, onEditor([](KernelEditor *e) { e->undo(); }));
    edit->addAction(tr("&Redo"), QKeySequence::Redo, this, onEditor([](KernelEditor *e) { e->redo(); }));
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] { m_findBar->start(false); });
    edit->addAction(tr("Find and &replace…"), QKeySequence(Qt::CTRL | Qt::Key_H), this,
                    [this] { m_findBar->start(true); });
    edit->addAction(tr("Find &next"), QKeySequence::FindNext, this, [this] { m_findBar->findNext(true); });
    edit->addAction(tr("Find pre&vious"), QKeySequence::FindPrevious, this,
                    [this] { m_findBar->findNext(false); });
    edit->addSeparator();
    edit->addAction(tr("&Go to line…"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        KernelEditor *e = m_editors->currentEditor();
        if (!e)
            return;
        int line = 0, index = 0;
        e->getCursorPosition(&line, &index);
        bool ok = false;
        const int to = QInputDialog::getInt(this, tr("Go to line"), tr("Line (1–%1):").arg(e->lines()),
                                            line + 1, 1, std::max(1, e->lines()), 1, &ok);
        if (ok)
            e->goTo(to, 1);
    });
    edit->addAction(tr("Next &diagnostic"), QKeySequence(Qt::Key_F8), this, [this] { goToDiagnostic(true); });
    edit->addAction(tr("Previous d&iagnostic"), QKeySequence(Qt::SHIFT | Qt::Key_F8), this,
                    [this] { goToDiagnostic(false); });
}

bool MainWindow::goToDiagnostic(bool forward)
{
    KernelEditor *e = m_editors->currentEditor();
    if (!e || e->diagnostics().isEmpty()) {
        statusBar()->showMessage(tr("No diagnostics in this tab"), 3000);
        return false;
    }
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);
    const int here = line + 1; // 1-based, as diagnostics count
    std::vector<const EditorDiagnostic *> sorted;
    for (const EditorDiagnostic &d : e->diagnostics())
        sorted.push_back(&d);
    std::sort(sorted.begin(), sorted.end(), [](auto *a, auto *b) { return a->line < b->line; });
    const EditorDiagnostic *to = nullptr;
    if (forward) {
        auto it = std::find_if(sorted.begin(), sorted.end(), [&](auto *d) { return d->line > here; });
        to = it != sorted.end() ? *it : sorted.front(); // wraps
    } else {
        auto it = std::find_if(sorted.rbegin(), sorted.rend(), [&](auto *d) { return d->line < here; });
        to = it != sorted.rend() ? *it : sorted.back();
    }
    e->goTo(to->line, std::max(1, to->column));
    statusBar()->showMessage(tr("Line %1: %2").arg(to->line).arg(to->message), 8000);
    return true;
}

void MainWindow::createSweepAction(QMenu *menu)
{
    // Made with the window (hidden), so that a script or a test can set its local sizes before the first
    // sweep; it stays beside the window, not modal, and keeps the last sweep between two openings.
    m_sweepDialog = new SweepDialog(m_workers, this);
    connect(m_sweepDialog, &SweepDialog::sweepRequested, this, &MainWindow::startSweep);
    connect(m_runs, &RunCoordinator::sweepRefused, m_sweepDialog, [this](const QString &why) {
        if (m_sweepDialog->isVisible())
            m_sweepDialog->statusLabel()->setText(tr("Not swept: %1").arg(why));
    });
    connect(m_sweepDialog, &SweepDialog::useLocalSize, this, [this](const QString &local) {
        m_arguments->setLocalSize(local);
        showDock(QStringLiteral("argumentsDock"));
        activateWindow(); // F5 is the window's: the next run is a key away (the dialog stays open beside it)
        statusBar()->showMessage(
            local.isEmpty()
                ? tr("Local size cleared: the driver chooses, the best of the sweep; F5 runs it")
                : tr("Local size %1, the best of the sweep, is in the Arguments panel; F5 runs it")
                      .arg(local),
            10000);
    });
    QAction *sweep = menu->addAction(tr("S&weep local size…"), this, &MainWindow::startSweep);
    sweep->setObjectName(QStringLiteral("sweepAction"));
    sweep->setStatusTip(tr("Time the Arguments panel's launch with every work-group size the device allows"));
}

void MainWindow::startSweep()
{
    m_runs->requestSweep([this](const RunRequest &launch) {
        m_sweepDialog->show();
        m_sweepDialog->raise();
        m_sweepDialog->activateWindow();
        m_sweepDialog->start(launch);
    });
}

void MainWindow::createMenus()
{
    createFileMenu();
    createEditMenu();

    QMenu *build = menuBar()->addMenu(tr("&Build"));
    build->addAction(m_builds->buildAction());
    build->addAction(m_builds->buildAllAction());
    build->addAction(m_builds->allTabsAction());
    build->addAction(m_builds->linkAction());
    build->addAction(tr("Build b&uilt-in kernels of the device…"), this, [this] {
        const DeviceSnapshot *device = m_devices->currentDeviceSnapshot();
        if (!device) {
            statusBar()->showMessage(tr("No device: choose one in the Devices panel"), 5000);
            return;
        }
        const InfoValue *listed = device->find("CL_DEVICE_BUILT_IN_KERNELS");
        const auto *text = listed ? std::get_if<std::string>(&listed->value) : nullptr;
        const QString all = text ? QString::fromStdString(*text).trimmed() : QString();
        const QString name = QString::fromStdString(device->name());
        if (all.isEmpty()) {
            QMessageBox::information(
                this, tr("Built-in kernels"),
                tr("%1 has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).").arg(name));
            return;
        }
        bool ok = false;
        const QString names = QInputDialog::getText(
            this, tr("Built-in kernels"),
            tr("Built-in kernels of %1 to build, ';'-separated (it lists: %2):").arg(name, all),
            QLineEdit::Normal, all, &ok);
        if (!ok || names.trimmed().isEmpty())
            return;
        if (m_editors->openBuiltIns(names.trimmed(), name) >= 0)
            m_builds->buildCurrent();
    });
    build->addAction(m_compare->matrixAction());
    build->addAction(m_compare->codeAction());
    build->addSeparator();
    build->addAction(tr("&Run kernel"), QKeySequence(Qt::Key_F5), this, [this] { m_runs->requestRun(); });
    build->addAction(m_compare->runAllAction());
    build->addAction(m_checks->checkAction());
    build->addAction(m_rooflines->launchAction());
    createSweepAction(build);

    QMenu *debug = menuBar()->addMenu(tr("De&bug"));
    debug->addAction(m_debugger->debugAction());
    debug->addAction(m_debugger->stepOverAction());
    debug->addAction(m_debugger->stepIntoAction());
    debug->addAction(m_debugger->stepOutAction());
    debug->addAction(m_debugger->runToCursorAction());
    debug->addAction(m_debugger->stopAction());
    debug->addSeparator();
    debug->addAction(m_debugger->breakpointAction());

    QMenu *device = menuBar()->addMenu(tr("&Device"));
    QAction *refresh = device->addAction(tr("&Refresh devices"), m_devices, &DeviceManager::refresh);
    refresh->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)); // F5 is Run, as in IDEs

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : std::as_const(m_docks))
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About CLScope"), this, [this] {
        QMessageBox::about(this, tr("About CLScope"),
                           tr("<h3>CLScope %1</h3><p>A desktop workbench for OpenCL: devices, kernels, runs, "
                              "profiles and memory.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

} // namespace clscope::ui
