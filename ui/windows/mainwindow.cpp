// Main window: makes the centre, the docks, the coordinators and the menus and ties them together, starts
// device enumeration after it shows, and tells its views (WorkbenchView) the current device, build and run.
#include "mainwindow.h"

#include "buildcoordinator.h"
#include "capturecoordinator.h"
#include "checkcoordinator.h"
#include "clscope/devicespec.h"
#include "comparecoordinator.h"
#include "controllers/buildcontroller.h"
#include "controllers/runcontroller.h"
#include "controllers/workbench.h"
#include "debugcoordinator.h"
#include "debugresults.h"
#include "docklayout.h"
#include "files/safewrite.h"
#include "rooflinecoordinator.h"
#include "runcoordinator.h"
#include "widgets/argumentspanel.h"
#include "widgets/benchmarkdock.h"
#include "widgets/buildlogpanel.h"
#include "widgets/capturedock.h"
#include "widgets/debugview.h"
#include "widgets/devicedock.h"
#include "widgets/editortabs.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/rooflineview.h"
#include "widgets/runhistory.h"
#include "widgets/startpage.h"
#include "widgets/timelinedock.h"
#include "widgets/workbenchview.h"
#include "windowcentre.h"
#include "windowmenus.h"
#include "windowsession.h"
#include "workers/deviceworkers.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace clscope::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_workers(std::make_shared<DeviceWorkers>())
    , m_devices(new DeviceManager(this))
    , m_workbench(new Workbench(this))
    , m_editors(new EditorTabs)
    , m_buildLog(new BuildLogPanel)
    , m_diagnostics(new DiagnosticsPanel)
    , m_arguments(new ArgumentsPanel)
    , m_results(new ResultsViewer)
    , m_runHistory(new RunHistoryPanel)
    , m_deviceLabel(new QLabel)
    , m_centre(nullptr)
    , m_layout(new DockLayout(this, m_arguments))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("CLScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/clscope.svg")));
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    setAcceptDrops(true);
    m_editors->setObjectName(QStringLiteral("editors"));
    m_arguments->setWorkbench(m_workbench); // the launch view, first to hear of a build
    m_centre = new WindowCentre(m_editors);
    setCentralWidget(m_centre);
    connect(m_editors, &EditorTabs::errorOccurred, this, [this](const QString &message) {
        statusBar()->showMessage(message, 10000);
        if (m_modalErrors)
            QMessageBox::warning(this, tr("CLScope"), message);
    });

    createDocks();
    createCoordinators();
    createToolBar();
    raiseDocksOnNews();
    createStatusBar();
    createMenus();
    m_layout->setDefault(m_dock.arguments, m_dock.log);
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    // Right: Arguments with Devices beside it; bottom: one group of tabs. The editor keeps the rest.
    m_deviceDock = new DeviceDock(m_devices);
    m_dock.devices = m_layout->addPanel(m_deviceDock, tr("Devices"), QStringLiteral("devicesDock"),
                                        Qt::RightDockWidgetArea);
    m_dock.log = m_layout->addPanel(m_buildLog, tr("Build log"), QStringLiteral("buildLogDock"),
                                    Qt::BottomDockWidgetArea);
    m_dock.diagnostics = m_layout->addPanel(m_diagnostics, tr("Diagnostics"),
                                            QStringLiteral("diagnosticsDock"), Qt::BottomDockWidgetArea);
    m_dock.arguments = m_layout->addPanel(m_arguments, tr("Arguments"), QStringLiteral("argumentsDock"),
                                          Qt::RightDockWidgetArea);
    tabifyDockWidget(m_dock.arguments, m_dock.devices);
    m_dock.results =
        m_layout->addPanel(m_results, tr("Results"), QStringLiteral("resultsDock"), Qt::BottomDockWidgetArea);
    QDockWidget *history = m_layout->addPanel(m_runHistory, tr("Run history"),
                                              QStringLiteral("runHistoryDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_dock.log, m_dock.diagnostics);
    QDockWidget *bench = m_layout->addPanel(new BenchmarkDock(m_devices, m_workers), tr("Benchmarks"),
                                            QStringLiteral("benchmarksDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_dock.log, bench);
    m_pool = new PoolDock(m_workers);
    QDockWidget *pool = m_layout->addPanel(m_pool, tr("Memory pool"), QStringLiteral("memoryPoolDock"),
                                           Qt::BottomDockWidgetArea);
    tabifyDockWidget(bench, pool);
    tabifyDockWidget(m_dock.diagnostics, m_dock.results);
    tabifyDockWidget(m_dock.results, history);
    m_timeline = new TimelineDock;
    m_dock.timeline = m_layout->addPanel(m_timeline, tr("Timeline"), QStringLiteral("timelineDock"),
                                         Qt::BottomDockWidgetArea);
    tabifyDockWidget(history, m_dock.timeline);
    // The workbench's launch against the device's roofs: a panel of its own beside the capture's.
    m_launchRoofline = new RooflineView;
    m_launchRoofline->setObjectName(QStringLiteral("launchRooflineView"));
    m_dock.roofline = m_layout->addPanel(m_launchRoofline, tr("Roofline"), QStringLiteral("rooflineDock"),
                                         Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_dock.timeline, m_dock.roofline);
    // The kernel debugger (issue 29): its panel beside them.
    m_debugView = new DebugView;
    m_dock.debug = m_layout->addPanel(m_debugView, tr("Debugger"), QStringLiteral("debugDock"),
                                      Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_dock.roofline, m_dock.debug);
    m_dock.diagnostics->raise();
    m_dock.devices->raise(); // first the devices there are; a good build brings the Arguments forward
    m_dock.results->raise();
}

void MainWindow::createCoordinators()
{
    // Coordinators reach the program, the launch, the builder and the launch view through the Workbench
    // context only (docs/architecture.md, "The workbench context").
    m_builds = new BuildCoordinator(m_workers, m_workbench, m_devices, m_editors, m_buildLog, m_diagnostics,
                                    statusBar(), this);
    m_workbench->setBuilder(m_builds);
    m_runs =
        new RunCoordinator(m_workers, m_workbench, m_devices, m_results, m_runHistory, statusBar(), this);
    connect(m_builds, &BuildCoordinator::buildFinished, this, &MainWindow::broadcastBuild);
    m_checks = new CheckCoordinator(m_workers, m_workbench, statusBar(), this);
    m_compare = new CompareCoordinator(m_workers, m_devices, m_workbench, statusBar(), this);
    connect(m_runs->controller(), &RunController::poolCreated, this, &MainWindow::broadcastRunPool);
    connect(m_runs->controller(), &RunController::runStarted, this, &MainWindow::broadcastRunPool);
    connect(m_runs, &RunCoordinator::runFinished, this, &MainWindow::broadcastRun);
    // Views are told of the current device, the latest build and the latest run, rather than each wired to
    // the component that has the news.
    m_views = {m_pool, m_runs, m_timeline};
    // Captures: the Capture panel in the centre, the timeline under it, both views of the capture session.
    m_captures = new CaptureCoordinator(m_workers, m_workbench, m_devices, m_editors, m_results,
                                        m_centre->captureDock(), m_timeline, statusBar(), this);
    m_rooflines = new RooflineCoordinator(m_captures, m_centre->captureDock()->rooflineView(), m_workbench,
                                          m_devices, m_launchRoofline, statusBar(), this);
    m_debugger = new DebugCoordinator(m_workbench, m_captures, m_editors, m_debugView, statusBar(), this);
    // The global buffers at a stop in the results viewer (the Debugger panel's Show in results).
    new DebugResults(m_debugger, m_debugView, m_results, this);
    connect(m_captures, &CaptureCoordinator::debugRequested, m_debugger,
            &DebugCoordinator::debugCapturedLaunch);
    m_centre->setCaptureSession(m_captures->session());
    // A capture shown from its file is a recent file, as a kernel opened is: File → Open recent brings it
    // back.
    connect(m_captures, &CaptureCoordinator::profileFinished, this, [this] {
        if (QFileInfo(m_captures->capturePath()).isFile())
            m_editors->addRecentFile(QFileInfo(m_captures->capturePath()).absoluteFilePath());
    });
    connect(m_editors, &EditorTabs::capturesDropped, this,
            [this](const QStringList &paths) { openFiles(paths); });
}

void MainWindow::createToolBar()
{
    auto *buildBar = addToolBar(tr("Build"));
    buildBar->setObjectName(QStringLiteral("buildToolBar"));
    buildBar->addWidget(new QLabel(tr(" Options: ")));
    buildBar->addWidget(m_builds->optionsBox());
    buildBar->addAction(m_builds->buildAction());
    buildBar->addAction(m_builds->buildAllAction());
    buildBar->addSeparator();
    buildBar->addWidget(new QLabel(tr(" Device: ")));
    m_deviceChoice = new QComboBox;
    m_deviceChoice->setObjectName(QStringLiteral("deviceChoice"));
    m_deviceChoice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_deviceChoice->setMinimumContentsLength(12);
    m_deviceChoice->setToolTip(tr("The device that builds and runs (also chosen by a click in Devices)"));
    buildBar->addWidget(m_deviceChoice);
    connect(m_deviceChoice, &QComboBox::activated, this, [this](int index) {
        const QPoint key = m_deviceChoice->itemData(index).toPoint();
        m_devices->setCurrentDevice({key.x(), key.y()});
    });
    buildBar->addAction(m_checks->checkAction());
}

void MainWindow::raiseDocksOnNews()
{
    QDockWidget *diagnostics = m_dock.diagnostics;
    QDockWidget *arguments = m_dock.arguments;
    connect(m_builds, &BuildCoordinator::buildFinished, this,
            [diagnostics, log = m_dock.log](const BuildResult &result) {
                // Errors and warnings first; a clean build shows its log.
                (result.diagnostics().empty() ? log : diagnostics)->raise();
            });
    connect(m_runs, &RunCoordinator::runRefused, this, [diagnostics, this] {
        if (m_workbench->program().editor && !m_workbench->program().result.success())
            diagnostics->raise();
    });
    connect(m_builds, &BuildCoordinator::buildFinished, this, [arguments](const BuildResult &result) {
        if (result.success())
            arguments->raise();
    });
    connect(m_runs, &RunCoordinator::runFinished, this, [results = m_dock.results] { results->raise(); });
    // A failed run shows where the mistake is (the Arguments panel marks the field), not an empty panel.
    connect(m_runs, &RunCoordinator::runFailed, this, [arguments] { arguments->raise(); });
    connect(m_checks, &CheckCoordinator::checkFinished, this, [diagnostics] { diagnostics->raise(); });
    connect(m_rooflines->launchAction(), &QAction::triggered, m_dock.roofline, &QDockWidget::raise);
    // The debugger's panel when a debugged launch starts or stops.
    QDockWidget *debug = m_dock.debug;
    connect(m_debugger, &DebugCoordinator::stopped, this, [this, debug] {
        debug->raise();
        // Variables need room: the bottom panels get nearly half the height, as a capture's do.
        if (!debug->isFloating() && debug->height() < height() * 2 / 5)
            m_layout->keepArgumentsRoom(height() * 9 / 20);
    });
    connect(m_debugger->debugAction(), &QAction::triggered, debug, &QDockWidget::raise);
    connect(m_debugger, &DebugCoordinator::finished, debug, [debug](const QString &error) {
        if (!error.isEmpty())
            debug->raise();
    });
    // A capture loaded comes to the centre (WindowCentre), its timeline under it.
    connect(m_captures->session(), &CaptureSession::loaded, m_dock.timeline, &QDockWidget::raise);
    connect(m_captures, &CaptureCoordinator::launchBound, this, [arguments](qint64, const QString &problem) {
        if (problem.isEmpty())
            arguments->raise();
    });
}

void MainWindow::createStatusBar()
{
    m_deviceLabel->setObjectName(QStringLiteral("deviceStatus"));
    m_deviceLabel->setText(tr("Looking for OpenCL devices…"));
    statusBar()->addPermanentWidget(m_deviceLabel);

    connect(m_devices, &DeviceManager::currentDeviceChanged, this, &MainWindow::onCurrentDeviceChanged);
    connect(m_devices, &DeviceManager::currentDeviceChanged, this, &MainWindow::updateDeviceChoice);
    connect(m_devices, &DeviceManager::devicesAvailable, this, &MainWindow::updateDeviceChoice);
    connect(m_devices, &DeviceManager::devicesAvailable, this, [this](const SnapshotPtr &snapshot) {
        if (snapshot && snapshot->platforms.empty())
            m_deviceLabel->setText(tr("No OpenCL platform"));
        if (!m_ready) {
            m_ready = true;
            // Let the tree lay itself out before anyone grabs the window.
            QTimer::singleShot(0, this, &MainWindow::ready);
        }
    });
}

void MainWindow::createMenus()
{
    m_menus = new WindowMenus({this, m_workers, m_devices, m_editors, m_centre->findBar(), m_deviceDock,
                               m_arguments, m_builds, m_runs, m_checks, m_compare, m_rooflines, m_debugger,
                               m_captures, m_layout->docks()});
    StartPage *start = m_centre->startPage();
    connect(start, &StartPage::newKernelRequested, m_menus, &WindowMenus::newKernelFromTemplate);
    connect(start, &StartPage::openFileRequested, m_menus, &WindowMenus::chooseFilesToOpen);
    connect(start, &StartPage::recentFileRequested, this, [this](const QString &path) { openFiles({path}); });
}

void MainWindow::resetLayout()
{
    m_layout->reset();
}

void MainWindow::updateDeviceChoice()
{
    m_deviceChoice->clear();
    const SnapshotPtr snapshot = m_devices->snapshot();
    if (!snapshot)
        return;
    const DeviceKey current = m_devices->currentDevice();
    for (const DeviceCandidate &c : deviceCandidates(*snapshot)) {
        m_deviceChoice->addItem(QString::fromStdString(candidateLabel(c)),
                                QPoint(c.platformIndex, c.deviceIndex));
        if (c.platformIndex == current.platform && c.deviceIndex == current.device)
            m_deviceChoice->setCurrentIndex(m_deviceChoice->count() - 1);
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_started) {
        m_layout->restore();
        // Enumerate after the window is up: drivers can take seconds, the window must not.
        m_started = true;
        QTimer::singleShot(0, m_devices, &DeviceManager::refresh);
    }
}
bool MainWindow::openFiles(const QStringList &paths)
{
    bool ok = true;
    for (const QString &path : paths) {
        if (path.endsWith(QStringLiteral(".clscope"), Qt::CaseInsensitive)) {
            if (!QFileInfo(path).isFile()) {
                statusBar()->showMessage(tr("Cannot open %1: the file does not exist").arg(path), 10000);
                ok = false;
                continue;
            }
            m_captures->openCapture(path);
            m_editors->addRecentFile(QFileInfo(path).absoluteFilePath());
        } else {
            ok &= m_editors->openFile(path);
        }
    }
    return ok;
}

void MainWindow::offerRecovery()
{
    const auto pending = m_editors->pendingRecoveries();
    if (pending.isEmpty())
        return;
    const auto answer =
        QMessageBox::question(this, tr("Recover unsaved kernels"),
                              tr("CLScope stopped without saving %n buffer(s) last time. Restore them?",
                                 nullptr, int(pending.size())),
                              QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        m_editors->restoreRecoveries();
    else
        m_editors->discardRecoveries();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!EditorTabs::openableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList files = EditorTabs::openableFiles(event->mimeData());
    if (files.isEmpty())
        return;
    openFiles(files);
    event->acceptProposedAction();
}

void MainWindow::restoreSession()
{
    windowsession::restore(*m_editors, *m_captures);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    if (!windowsession::closeAndSave(*m_editors, *m_captures, settings)) {
        event->ignore();
        return;
    }
    m_layout->save(settings);
    event->accept();
}

void MainWindow::onCurrentDeviceChanged(DeviceKey key)
{
    const DeviceSnapshot *dev = m_devices->currentDeviceSnapshot();
    for (WorkbenchView *view : std::as_const(m_views))
        view->onCurrentDeviceChanged(dev);
    if (!dev) {
        const bool none = m_devices->snapshot() && m_devices->snapshot()->platforms.empty();
        m_deviceLabel->setText(none ? tr("No OpenCL platform") : tr("No device selected"));
        return;
    }
    const auto &platform = m_devices->snapshot()->platforms[static_cast<size_t>(key.platform)];
    m_deviceLabel->setText(
        tr("Device %1:%2  %3 (%4)")
            .arg(key.platform)
            .arg(key.device)
            .arg(QString::fromStdString(dev->name()), QString::fromStdString(platform.name())));
}

void MainWindow::broadcastBuild(const BuildResult &result)
{
    // The build's own device, for the limits a view shows; the current one when a refresh lost it.
    const DeviceSnapshot *device = m_devices->deviceSnapshot(m_workbench->program().device);
    if (!device)
        device = m_devices->currentDeviceSnapshot();
    for (WorkbenchView *view : std::as_const(m_views))
        view->onProgramBuilt(result, device);
}

void MainWindow::broadcastRunPool()
{
    const std::shared_ptr<const RunPool> pool = m_runs->controller()->pool();
    for (WorkbenchView *view : std::as_const(m_views))
        view->onRunPoolInUse(pool);
}

void MainWindow::broadcastRun(const RunResult &result)
{
    // The runner's pool under the run's commands, both on the host clock (read in place: see RunPool).
    RunProfile profile;
    if (!m_runs->controller()->pool()->read(
            [&](const MemoryPool &pool) { profile = hostProfile(result, &pool); }))
        profile = hostProfile(result, nullptr);
    for (WorkbenchView *view : std::as_const(m_views))
        view->onRunFinished(result, profile);
}

QStringList MainWindow::dockNames() const
{
    return m_layout->dockNames();
}

bool MainWindow::showDock(const QString &name)
{
    // The Capture panel is the centre, not a dock: shown when there is a capture.
    if (name.compare(QStringLiteral("capture"), Qt::CaseInsensitive) == 0 ||
        name.compare(QStringLiteral("capturePanel"), Qt::CaseInsensitive) == 0)
        return m_centre->showCapture();
    return m_layout->showDock(name);
}

QString MainWindow::saveScreenshot(const QString &path)
{
    const QPixmap pixmap = grab();
    if (pixmap.isNull())
        return tr("Could not capture the window");
    if (const QString error = writeImageSafely(path, pixmap.toImage()); !error.isEmpty())
        return tr("Cannot write %1: %2").arg(path, error);
    return {};
}

} // namespace clscope::ui
