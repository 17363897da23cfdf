// The main window's menus, and what only they start.
#include "windowmenus.h"

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

WindowMenus::WindowMenus(Parts parts)
    : QObject(parts.window)
    , m_parts(std::move(parts))
    , m_window(m_parts.window)
    , m_editors(m_parts.editors)
{
    createFileMenu();
    createEditMenu();
    createBuildMenu();
    createOtherMenus();
}

void WindowMenus::newKernelFromTemplate()
{
    const int index = m_editors->newDocument();
    if (KernelEditor *editor = m_editors->editor(index)) {
        editor->setText(StartPage::kernelTemplate());
        editor->setCursorPosition(3, 0);
    }
}

void WindowMenus::chooseFilesToOpen()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        m_window, tr("Open kernel sources or a capture"), QString(),
        tr("OpenCL sources and captures (*.cl *.clh *.h *.clscope);;OpenCL sources (*.cl *.clh *.h);;CLScope "
           "captures (*.clscope);;All files (*)"));
    m_window->openFiles(paths);
}

void WindowMenus::chooseProgramToProfile()
{
    ProfileDialog dialog(m_window);
    if (dialog.exec() == QDialog::Accepted)
        m_parts.captures->profile(dialog.settings());
}

void WindowMenus::createFileMenu()
{
    QMenu *file = m_window->menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New kernel"), QKeySequence::New, this, &WindowMenus::newKernelFromTemplate);
    file->addAction(tr("New &empty file"), this, [this] { m_editors->newDocument(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &WindowMenus::chooseFilesToOpen);
    file->addAction(tr("Open &binary or SPIR-V…"), this, [this] {
        // A device binary (pyopencl's program.binaries, clGetProgramInfo(CL_PROGRAM_BINARIES); NVIDIA's is
        // PTX text) or SPIR-V: built as such, whatever its bytes look like.
        const QString path = QFileDialog::getOpenFileName(
            m_window, tr("Open a program binary or SPIR-V"), QString(),
            tr("Program binaries and SPIR-V (*.bin *.spv *.ptx *.elf *.o);;All files (*)"));
        if (path.isEmpty())
            return;
        if (m_editors->openProgramFile(path) >= 0)
            m_parts.builds->buildCurrent();
    });
    file->addAction(tr("&Profile application…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this,
                    &WindowMenus::chooseProgramToProfile);
    QMenu *samples = file->addMenu(tr("Open &sample"));
    for (const QString &name : EditorTabs::sampleNames())
        samples->addAction(name, this, [this, name] { m_editors->openSample(name); });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_editors, &EditorTabs::recentFilesChanged, this, &WindowMenus::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { m_editors->save(); });
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(m_window, tr("Save kernel as"), m_editors->title(),
                                                          tr("OpenCL sources (*.cl);;All files (*)"));
        if (!path.isEmpty())
            m_editors->saveAs(path);
    });
    file->addAction(tr("Save a&ll"), this, [this] { m_editors->saveAll(); });
    file->addAction(tr("&Close tab"), QKeySequence::Close, this,
                    [this] { m_editors->closeTab(m_editors->currentIndex()); });
    file->addSeparator();
    file->addAction(tr("Export devices as &JSON…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(m_window, tr("Export devices as JSON"),
                                         QStringLiteral("clscope-devices.json"), tr("JSON (*.json)"));
        if (path.isEmpty())
            return;
        const QString error = m_parts.deviceDock->exportJson(path);
        if (!error.isEmpty())
            QMessageBox::warning(m_window, tr("Export failed"), error);
    });
    file->addAction(tr("Save &screenshot…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            m_window, tr("Save screenshot"), QStringLiteral("clscope.png"), tr("PNG images (*.png)"));
        if (path.isEmpty())
            return;
        const QString error = m_window->saveScreenshot(path);
        if (!error.isEmpty())
            QMessageBox::warning(m_window, tr("Screenshot failed"), error);
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), m_window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void WindowMenus::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_editors->recentFiles();
    for (const QString &path : recent)
        m_recentMenu->addAction(path, this, [this, path] { m_window->openFiles({path}); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void WindowMenus::createEditMenu()
{
    QMenu *edit = m_window->menuBar()->addMenu(tr("&Edit"));
    auto onEditor = [this](auto call) {
        return [this, call] {
            if (KernelEditor *e = m_editors->currentEditor())
                call(e);
        };
    };
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this, onEditor([](KernelEditor *e) { e->undo(); }));
    edit->addAction(tr("&Redo"), QKeySequence::Redo, this, onEditor([](KernelEditor *e) { e->redo(); }));
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] { m_parts.findBar->start(false); });
    edit->addAction(tr("Find and &replace…"), QKeySequence(Qt::CTRL | Qt::Key_H), this,
                    [this] { m_parts.findBar->start(true); });
    edit->addAction(tr("Find &next"), QKeySequence::FindNext, this,
                    [this] { m_parts.findBar->findNext(true); });
    edit->addAction(tr("Find pre&vious"), QKeySequence::FindPrevious, this,
                    [this] { m_parts.findBar->findNext(false); });
    edit->addSeparator();
    edit->addAction(tr("&Go to line…"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        KernelEditor *e = m_editors->currentEditor();
        if (!e)
            return;
        int line = 0, index = 0;
        e->getCursorPosition(&line, &index);
        bool ok = false;
        const int to = QInputDialog::getInt(m_window, tr("Go to line"), tr("Line (1–%1):").arg(e->lines()),
                                            line + 1, 1, std::max(1, e->lines()), 1, &ok);
        if (ok)
            e->goTo(to, 1);
    });
    edit->addAction(tr("Next &diagnostic"), QKeySequence(Qt::Key_F8), this, [this] { goToDiagnostic(true); });
    edit->addAction(tr("Previous d&iagnostic"), QKeySequence(Qt::SHIFT | Qt::Key_F8), this,
                    [this] { goToDiagnostic(false); });
}

bool WindowMenus::goToDiagnostic(bool forward)
{
    KernelEditor *e = m_editors->currentEditor();
    if (!e || e->diagnostics().isEmpty()) {
        m_window->statusBar()->showMessage(tr("No diagnostics in this tab"), 3000);
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
    m_window->statusBar()->showMessage(tr("Line %1: %2").arg(to->line).arg(to->message), 8000);
    return true;
}

void WindowMenus::createSweepAction(QMenu *menu)
{
    // Made with the window (hidden), so that a script or a test can set its local sizes before the first
    // sweep; it stays beside the window, not modal, and keeps the last sweep between two openings.
    m_sweepDialog = new SweepDialog(m_parts.workers, m_window);
    connect(m_sweepDialog, &SweepDialog::sweepRequested, this, &WindowMenus::startSweep);
    connect(m_parts.runs, &RunCoordinator::sweepRefused, m_sweepDialog, [this](const QString &why) {
        if (m_sweepDialog->isVisible())
            m_sweepDialog->statusLabel()->setText(tr("Not swept: %1").arg(why));
    });
    connect(m_sweepDialog, &SweepDialog::useLocalSize, this, [this](const QString &local) {
        m_parts.arguments->setLocalSize(local);
        m_window->showDock(QStringLiteral("argumentsDock"));
        m_window->activateWindow(); // F5 is the window's: the next run is a key away (the dialog stays open
                                    // beside it)
        m_window->statusBar()->showMessage(
            local.isEmpty()
                ? tr("Local size cleared: the driver chooses, the best of the sweep; F5 runs it")
                : tr("Local size %1, the best of the sweep, is in the Arguments panel; F5 runs it")
                      .arg(local),
            10000);
    });
    QAction *sweep = menu->addAction(tr("S&weep local size…"), this, &WindowMenus::startSweep);
    sweep->setObjectName(QStringLiteral("sweepAction"));
    sweep->setStatusTip(tr("Time the Arguments panel's launch with every work-group size the device allows"));
}

void WindowMenus::startSweep()
{
    m_parts.runs->requestSweep([this](const RunRequest &launch) {
        m_sweepDialog->show();
        m_sweepDialog->raise();
        m_sweepDialog->activateWindow();
        m_sweepDialog->start(launch);
    });
}

void WindowMenus::buildBuiltInKernels()
{
    const DeviceSnapshot *device = m_parts.devices->currentDeviceSnapshot();
    if (!device) {
        m_window->statusBar()->showMessage(tr("No device: choose one in the Devices panel"), 5000);
        return;
    }
    const InfoValue *listed = device->find("CL_DEVICE_BUILT_IN_KERNELS");
    const auto *text = listed ? std::get_if<std::string>(&listed->value) : nullptr;
    const QString all = text ? QString::fromStdString(*text).trimmed() : QString();
    const QString name = QString::fromStdString(device->name());
    if (all.isEmpty()) {
        QMessageBox::information(
            m_window, tr("Built-in kernels"),
            tr("%1 has no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).").arg(name));
        return;
    }
    bool ok = false;
    const QString names = QInputDialog::getText(
        m_window, tr("Built-in kernels"),
        tr("Built-in kernels of %1 to build, ';'-separated (it lists: %2):").arg(name, all),
        QLineEdit::Normal, all, &ok);
    if (!ok || names.trimmed().isEmpty())
        return;
    if (m_editors->openBuiltIns(names.trimmed(), name) >= 0)
        m_parts.builds->buildCurrent();
}

void WindowMenus::createBuildMenu()
{
    QMenu *build = m_window->menuBar()->addMenu(tr("&Build"));
    build->addAction(m_parts.builds->buildAction());
    build->addAction(m_parts.builds->buildAllAction());
    build->addAction(m_parts.builds->allTabsAction());
    build->addAction(m_parts.builds->linkAction());
    build->addAction(tr("Build b&uilt-in kernels of the device…"), this, &WindowMenus::buildBuiltInKernels);
    build->addAction(m_parts.compare->matrixAction());
    build->addAction(m_parts.compare->codeAction());
    build->addSeparator();
    build->addAction(tr("&Run kernel"), QKeySequence(Qt::Key_F5), this,
                     [this] { m_parts.runs->requestRun(); });
    build->addAction(m_parts.compare->runAllAction());
    build->addAction(m_parts.checks->checkAction());
    build->addAction(m_parts.rooflines->launchAction());
    createSweepAction(build);
}

void WindowMenus::createOtherMenus()
{
    QMenu *debug = m_window->menuBar()->addMenu(tr("De&bug"));
    debug->addAction(m_parts.debugger->debugAction());
    debug->addAction(m_parts.debugger->stepOverAction());
    debug->addAction(m_parts.debugger->stepIntoAction());
    debug->addAction(m_parts.debugger->stepOutAction());
    debug->addAction(m_parts.debugger->runToCursorAction());
    debug->addAction(m_parts.debugger->stopAction());
    debug->addSeparator();
    debug->addAction(m_parts.debugger->breakpointAction());

    QMenu *device = m_window->menuBar()->addMenu(tr("&Device"));
    QAction *refresh = device->addAction(tr("&Refresh devices"), m_parts.devices, &DeviceManager::refresh);
    refresh->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)); // F5 is Run, as in IDEs

    QMenu *view = m_window->menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : std::as_const(m_parts.docks))
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset layout"), m_window, &MainWindow::resetLayout);

    QMenu *help = m_window->menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About CLScope"), this, [this] {
        QMessageBox::about(m_window, tr("About CLScope"),
                           tr("<h3>CLScope %1</h3><p>A desktop workbench for OpenCL: devices, kernels, runs, "
                              "profiles and memory.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

} // namespace clscope::ui
