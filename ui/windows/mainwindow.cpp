// Main window: builds the docks, restores their layout, starts device enumeration after it shows, and
// tells its views (WorkbenchView) the current device, build and run. Its menus: mainwindowmenus.cpp.
#include "mainwindow.h"

#include "buildcoordinator.h"
#include "capturecoordinator.h"
#include "checkcoordinator.h"
#include "comparecoordinator.h"
#include "controllers/buildcontroller.h"
#include "controllers/runcontroller.h"
#include "debugcoordinator.h"
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
#include "widgets/findbar.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/rooflineview.h"
#include "widgets/runhistory.h"
#include "widgets/startpage.h"
#include "widgets/timelinedock.h"
#include "widgets/workbenchview.h"
#include "workers/deviceworkers.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageWriter>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace clscope::ui {

namespace {
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kSessionKey = QStringLiteral("window/openFiles");
const QString kSessionOptionsKey = QStringLiteral("window/openFileOptions");
const QString kSessionCaptureKey = QStringLiteral("window/openCapture");
constexpr int kStateVersion = 1;
// The argument rows the Arguments panel keeps room for whatever the bottom panels show (issue 31).
constexpr int kArgumentRows = 4;
// The lowest the bottom panels go to make that room.
constexpr int kMinBottomHeight = 150;

// The dock of a tab group that shows now, or null. The others of its group count as visible too: Qt keeps
// them outside the window instead of hiding them.
QDockWidget *shownDock(const QList<QDockWidget *> &docks, const QMainWindow &window, Qt::DockWidgetArea area)
{
    for (QDockWidget *dock : docks) {
        if (!dock->isFloating() && dock->isVisible() && window.dockWidgetArea(dock) == area &&
            window.rect().contains(dock->geometry()))
            return dock;
    }
    return nullptr;
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_workers(std::make_shared<DeviceWorkers>())
    , m_devices(new DeviceManager(this))
    , m_editors(new EditorTabs)
    , m_deviceDock(nullptr)
    , m_buildLog(new BuildLogPanel)
    , m_diagnostics(new DiagnosticsPanel)
    , m_builds(nullptr)
    , m_arguments(new ArgumentsPanel)
    , m_results(new ResultsViewer)
    , m_runHistory(new RunHistoryPanel)
    , m_runs(nullptr)
    , m_deviceLabel(new QLabel)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("CLScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/clscope.svg")));
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);

    setAcceptDrops(true);
    m_editors->setObjectName(QStringLiteral("editors"));
    // The centre: the editor, or the start page while no kernel is open.
    m_startPage = new StartPage(EditorTabs::sampleNames());
    m_centre = new QStackedWidget;
    // The start page scrolls rather than set the window's minimum height (ten recent files are taller than
    // a 700-pixel screen).
    auto *startScroll = new QScrollArea;
    startScroll->setWidgetResizable(true);
    startScroll->setFrameShape(QFrame::NoFrame);
    startScroll->setWidget(m_startPage);
    m_centre->addWidget(startScroll);
    m_findBar = new FindBar(m_editors);
    auto *editorArea = new QWidget;
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_editors, 1);
    editorLayout->addWidget(m_findBar);
    m_centre->addWidget(editorArea);
    // A capture's views are the centre while it is looked at: a tab bar over the centre switches between
    // the kernels (start page or editor) and the capture once there is one.
    m_captureDock = new CaptureDock;
    // In a scroll area, as the start page: the capture's tables do not set the window's minimum size.
    auto *captureScroll = new QScrollArea;
    captureScroll->setWidgetResizable(true);
    captureScroll->setFrameShape(QFrame::NoFrame);
    captureScroll->setWidget(m_captureDock);
    m_centre->addWidget(captureScroll);
    m_centreTabs = new QTabBar;
    m_centreTabs->setObjectName(QStringLiteral("centreTabs"));
    m_centreTabs->setDocumentMode(true);
    m_centreTabs->setExpanding(false);
    m_centreTabs->addTab(tr("Kernels"));
    m_centreTabs->addTab(tr("Capture"));
    m_centreTabs->hide();
    auto *centreArea = new QWidget;
    auto *centreLayout = new QVBoxLayout(centreArea);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(m_centreTabs);
    centreLayout->addWidget(m_centre, 1);
    setCentralWidget(centreArea);
    connect(m_centreTabs, &QTabBar::currentChanged, this, [this](int tab) { showCentre(tab == 1); });
    connect(m_editors, &EditorTabs::currentDocumentChanged, this, [this] { showCentre(false); });
    connect(m_startPage, &StartPage::sampleRequested, this,
            [this](const QString &name) { m_editors->openSample(name); });
    connect(m_startPage, &StartPage::newKernelRequested, this, &MainWindow::newKernelFromTemplate);
    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::chooseFilesToOpen);
    connect(m_startPage, &StartPage::recentFileRequested, this,
            [this](const QString &path) { openFiles({path}); });
    connect(m_editors, &EditorTabs::recentFilesChanged, this,
            [this] { m_startPage->setRecentFiles(m_editors->recentFiles()); });
    m_startPage->setRecentFiles(m_editors->recentFiles());
    showCentre(false);
    connect(m_editors, &EditorTabs::errorOccurred, this, [this](const QString &message) {
        statusBar()->showMessage(message, 10000);
        if (m_modalErrors)
            QMessageBox::warning(this, tr("CLScope"), message);
    });

    // Right: Arguments with Devices beside it; bottom: one group of tabs. The editor keeps the rest.
    m_deviceDock = new DeviceDock(m_devices);
    QDockWidget *devicesDock =
        addPanel(m_deviceDock, tr("Devices"), QStringLiteral("devicesDock"), Qt::RightDockWidgetArea);
    QDockWidget *logDock =
        addPanel(m_buildLog, tr("Build log"), QStringLiteral("buildLogDock"), Qt::BottomDockWidgetArea);
    QDockWidget *diagDock = addPanel(m_diagnostics, tr("Diagnostics"), QStringLiteral("diagnosticsDock"),
                                     Qt::BottomDockWidgetArea);
    QDockWidget *argsDock =
        addPanel(m_arguments, tr("Arguments"), QStringLiteral("argumentsDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(argsDock, devicesDock);
    QDockWidget *resultsDock =
        addPanel(m_results, tr("Results"), QStringLiteral("resultsDock"), Qt::BottomDockWidgetArea);
    QDockWidget *historyDock =
        addPanel(m_runHistory, tr("Run history"), QStringLiteral("runHistoryDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(logDock, diagDock);
    QDockWidget *benchDock = addPanel(new BenchmarkDock(m_devices, m_workers), tr("Benchmarks"),
                                      QStringLiteral("benchmarksDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(logDock, benchDock);
    auto *pool = new PoolDock(m_workers);
    QDockWidget *poolDock =
        addPanel(pool, tr("Memory pool"), QStringLiteral("memoryPoolDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(benchDock, poolDock);
    tabifyDockWidget(diagDock, resultsDock);
    tabifyDockWidget(resultsDock, historyDock);
    diagDock->raise();
    devicesDock->raise(); // first the devices there are; a good build brings the Arguments forward

    m_builds =
        new BuildCoordinator(m_workers, m_devices, m_editors, m_buildLog, m_diagnostics, statusBar(), this);
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
    connect(m_builds, &BuildCoordinator::buildFinished, this, [diagDock, logDock](const BuildResult &result) {
        // Errors and warnings first; a clean build shows its log.
        (result.diagnostics().empty() ? logDock : diagDock)->raise();
    });

    m_runs = new RunCoordinator(m_workers, m_devices, m_builds, m_arguments, m_results, m_runHistory,
                                statusBar(), this);
    connect(m_runs, &RunCoordinator::runRefused, this, [diagDock, this] {
        if (m_builds->lastBuilt().editor && !m_builds->controller()->lastResult().success())
            diagDock->raise();
    });
    connect(m_builds, &BuildCoordinator::buildFinished, this, &MainWindow::broadcastBuild);
    connect(m_builds, &BuildCoordinator::buildFinished, this, [argsDock](const BuildResult &result) {
        if (result.success())
            argsDock->raise();
    });
    connect(m_runs, &RunCoordinator::runFinished, this, [resultsDock] { resultsDock->raise(); });
    m_checks = new CheckCoordinator(m_workers, m_arguments, m_builds, statusBar(), this);
    connect(m_checks, &CheckCoordinator::checkFinished, this, [diagDock] { diagDock->raise(); });
    buildBar->addAction(m_checks->checkAction());
    m_compare = new CompareCoordinator(m_workers, m_devices, m_builds, m_arguments, statusBar(), this);
    connect(m_runs->controller(), &RunController::poolCreated, this, &MainWindow::broadcastRunPool);
    connect(m_runs->controller(), &RunController::runStarted, this, &MainWindow::broadcastRunPool);
    auto *timeline = new TimelineDock;
    QDockWidget *timelineDock =
        addPanel(timeline, tr("Timeline"), QStringLiteral("timelineDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(historyDock, timelineDock);
    resultsDock->raise();
    connect(m_runs, &RunCoordinator::runFinished, this, &MainWindow::broadcastRun);
    // Views are told of the current device, the latest build and the latest run, rather than each wired to
    // the component that has the news.
    m_views = {pool, m_runs, timeline};
    // Captures: the Capture panel in the centre, the timeline under it, both views of the capture session.
    m_captures = new CaptureCoordinator(m_workers, m_devices, m_editors, m_builds, m_arguments, m_results,
                                        m_captureDock, timeline, statusBar(), this);
    // The workbench's launch against the device's roofs: a panel of its own beside the capture's.
    auto *launchRoofline = new RooflineView;
    launchRoofline->setObjectName(QStringLiteral("launchRooflineView"));
    QDockWidget *rooflineDock =
        addPanel(launchRoofline, tr("Roofline"), QStringLiteral("rooflineDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(timelineDock, rooflineDock);
    m_rooflines = new RooflineCoordinator(m_captures, m_captureDock->rooflineView(), m_arguments, m_builds,
                                          m_devices, launchRoofline, statusBar(), this);
    connect(m_rooflines->launchAction(), &QAction::triggered, rooflineDock, &QDockWidget::raise);
    // The kernel debugger (issue 29): its panel beside them, raised when a debugged launch starts or stops.
    auto *debugView = new DebugView;
    QDockWidget *debugDock =
        addPanel(debugView, tr("Debugger"), QStringLiteral("debugDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(rooflineDock, debugDock);
    m_debugger =
        new DebugCoordinator(m_arguments, m_builds, m_captures, m_editors, debugView, statusBar(), this);
    connect(m_debugger, &DebugCoordinator::stopped, this, [this, debugDock] {
        debugDock->raise();
        // Variables need room: the bottom panels get nearly half the height, as a capture's do.
        if (!debugDock->isFloating() && debugDock->height() < height() * 2 / 5)
            keepArgumentsRoom(height() * 9 / 20);
    });
    connect(m_debugger->debugAction(), &QAction::triggered, debugDock, &QDockWidget::raise);
    connect(m_debugger, &DebugCoordinator::finished, debugDock, [debugDock](const QString &error) {
        if (!error.isEmpty())
            debugDock->raise();
    });
    connect(m_captures, &CaptureCoordinator::debugRequested, m_debugger,
            &DebugCoordinator::debugCapturedLaunch);
    resultsDock->raise();
    // A capture loaded (opened, or the program's first read) comes to the centre, its timeline under it.
    connect(m_captures->session(), &CaptureSession::loaded, this, [timelineDock, this] {
        m_centreTabs->show();
        showCentre(true);
        timelineDock->raise();
    });
    // A capture shown from its file is a recent file, as a kernel opened is: File → Open recent brings it
    // back.
    connect(m_captures, &CaptureCoordinator::profileFinished, this, [this] {
        if (QFileInfo(m_captures->capturePath()).isFile())
            m_editors->addRecentFile(QFileInfo(m_captures->capturePath()).absoluteFilePath());
    });
    connect(m_editors, &EditorTabs::capturesDropped, this,
            [this](const QStringList &paths) { openFiles(paths); });
    connect(m_captures, &CaptureCoordinator::launchBound, this, [argsDock](qint64, const QString &problem) {
        if (problem.isEmpty())
            argsDock->raise();
    });
    // A failed run shows where the mistake is (the Arguments panel marks the field), not an empty panel.
    connect(m_runs, &RunCoordinator::runFailed, this, [argsDock] { argsDock->raise(); });

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

    m_bottomDock = logDock;
    m_sideDock = argsDock;
    createMenus();
    m_defaultState = saveState(kStateVersion);
    resize(1280, 800);
    if (restoreGeometry(QSettings().value(kGeometryKey).toByteArray()))
        keepOnScreen();
}

void MainWindow::keepOnScreen()
{
    // Qt moves a window back only when it is wholly off screen; a window whose status bar is below the
    // screen's edge (a smaller screen now, a panel at the bottom) is moved up and made to fit.
    const QRect frame = frameGeometry();
    QScreen *onScreen = QGuiApplication::screenAt(frame.center());
    if (!onScreen)
        onScreen = screen();
    if (!onScreen)
        return;
    const QRect available = onScreen->availableGeometry();
    const QRect inner = geometry();
    const QSize decoration = frame.size() - inner.size();
    const QSize size = inner.size().boundedTo(available.size() - decoration).expandedTo(minimumSize());
    QRect fitted(frame.topLeft(), size + decoration);
    fitted.moveRight(std::min(fitted.right(), available.right()));
    fitted.moveBottom(std::min(fitted.bottom(), available.bottom()));
    fitted.moveLeft(std::max(fitted.left(), available.left()));
    fitted.moveTop(std::max(fitted.top(), available.top()));
    if (size != inner.size())
        resize(size);
    if (fitted.topLeft() != frame.topLeft())
        move(fitted.topLeft());
}

void MainWindow::showCentre(bool capture)
{
    const bool haveCapture = m_captures && m_captures->session()->state() != CaptureSession::State::Empty;
    capture = capture && haveCapture;
    m_centre->setCurrentIndex(capture ? 2 : (m_editors->count() > 0 ? 1 : 0));
    const QSignalBlocker block(m_centreTabs);
    m_centreTabs->setCurrentIndex(capture ? 1 : 0);
}

void MainWindow::keepArgumentsRoom(int bottomWanted)
{
    // Measured as laid out now: a restored or resized layout is applied on the next event otherwise.
    if (QLayout *docks = layout())
        docks->activate();
    // The arrangement the window makes: Arguments (with Devices) on the right, above the bottom panels.
    QDockWidget *side = shownDock({m_sideDock, findChild<QDockWidget *>(QStringLiteral("devicesDock"))},
                                  *this, Qt::RightDockWidgetArea);
    QDockWidget *bottom = shownDock(m_docks, *this, Qt::BottomDockWidgetArea);
    if (!side || !bottom || !side->widget())
        return;
    const int titleBar = side->height() - side->widget()->height();
    const int need = titleBar + m_arguments->heightForRows(kArgumentRows, side->widget()->width());
    // What the bottom panels may have: the column is shared, what one gets the other loses.
    const int most = std::max(kMinBottomHeight, bottom->height() + side->height() - need);
    const int wanted = bottomWanted < 0 ? bottom->height() : bottomWanted;
    const int height = std::min(wanted, most);

    if (height != bottom->height())
        resizeDocks({bottom}, {height}, Qt::Vertical);
}

void MainWindow::applyDefaultSizes()
{
    // The editor holds the centre: the side panels about a third of the width, the bottom tabs a quarter of
    // the height.
    resizeDocks({m_sideDock}, {std::clamp(width() * 17 / 50, 320, 520)}, Qt::Horizontal);
    resizeDocks({m_bottomDock}, {std::max(150, height() * 26 / 100)}, Qt::Vertical);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, kStateVersion);
    for (QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->isFloating())
            dock->setFloating(false);
        dock->show();
    }
    findChild<QDockWidget *>(QStringLiteral("devicesDock"))->raise();
    findChild<QDockWidget *>(QStringLiteral("diagnosticsDock"))->raise();
    applyDefaultSizes();
}

void MainWindow::updateDeviceChoice()
{
    m_deviceChoice->clear();
    const SnapshotPtr snapshot = m_devices->snapshot();
    if (!snapshot)
        return;
    const DeviceKey current = m_devices->currentDevice();
    for (const auto &p : snapshot->platforms) {
        for (const auto &d : p.devices) {
            m_deviceChoice->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(d.name()),
                                                                  QString::fromStdString(p.name())),
                                    QPoint(p.index, d.index));
            if (p.index == current.platform && d.index == current.device)
                m_deviceChoice->setCurrentIndex(m_deviceChoice->count() - 1);
        }
    }
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addPanel(QWidget *panel, const QString &title, const QString &objectName,
                                  Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    // No panel may force a minimum window size (charts and forms have large minimums, and tabified docks
    // count even when hidden): below its minimum a panel scrolls inside its dock.
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    scroll->setMinimumSize(120, 80);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    m_docks << dock;
    return dock;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_started) {
        // The layout as the user left it, now that the window has its final size; else the default one.
        if (!restoreState(QSettings().value(kStateKey).toByteArray(), kStateVersion))
            applyDefaultSizes();
        keepOnScreen(); // now with the window manager's frame
        // A layout saved with tall bottom panels (an earlier version let a capture grow them) gives the
        // Arguments panel its rows back, once the docks have their places.
        QTimer::singleShot(0, this, [this] { keepArgumentsRoom(); });
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
    const QSettings settings;
    m_editors->restoreSession(settings.value(kSessionKey).toStringList(),
                              settings.value(kSessionOptionsKey).toMap());
    // The capture shown at the last quit, if its file is still there.
    const QString capture = settings.value(kSessionCaptureKey).toString();
    if (!capture.isEmpty() && QFileInfo(capture).isFile())
        m_captures->openCapture(capture);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    const QStringList session = m_editors->sessionEntries();
    const QVariantMap sessionOptions = m_editors->sessionOptions();
    if (!m_editors->closeAllAsking()) {
        event->ignore(); // the user cancelled: nothing typed may be lost
        return;
    }
    QSettings settings;
    settings.setValue(kSessionKey, session);
    settings.setValue(kSessionOptionsKey, sessionOptions);
    // A capture still being written is not one to open again; a finished or opened one is.
    const QString capture = m_captures->capturePath();
    settings.setValue(kSessionCaptureKey, !m_captures->isProfiling() && QFileInfo(capture).isFile()
                                              ? QFileInfo(capture).absoluteFilePath()
                                              : QString());
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kStateVersion));
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
    const DeviceSnapshot *device = m_devices->deviceSnapshot(m_builds->lastBuilt().device);
    if (!device)
        device = m_devices->currentDeviceSnapshot();
    for (WorkbenchView *view : std::as_const(m_views))
        view->onProgramBuilt(result, device);
}

void MainWindow::broadcastRunPool()
{
    const std::shared_ptr<MemoryPool> &pool = m_runs->controller()->pool();
    for (WorkbenchView *view : std::as_const(m_views))
        view->onRunPoolInUse(pool);
}

void MainWindow::broadcastRun(const RunResult &result)
{
    // The runner's pool under the run's commands, both on the host clock.
    const RunProfile profile = hostProfile(result, m_runs->controller()->pool().get());
    for (WorkbenchView *view : std::as_const(m_views))
        view->onRunFinished(result, profile);
}

QStringList MainWindow::dockNames() const
{
    QStringList names;
    for (QDockWidget *dock : m_docks)
        names << dock->objectName();
    return names;
}

bool MainWindow::showDock(const QString &name)
{
    // The Capture panel is the centre, not a dock: shown when there is a capture.
    if (name.compare(QStringLiteral("capture"), Qt::CaseInsensitive) == 0 ||
        name.compare(QStringLiteral("capturePanel"), Qt::CaseInsensitive) == 0) {
        showCentre(true);
        return m_centre->currentIndex() == 2;
    }
    for (QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->objectName().compare(name, Qt::CaseInsensitive) == 0 ||
            dock->windowTitle().compare(name, Qt::CaseInsensitive) == 0 ||
            dock->objectName().compare(name + QStringLiteral("Dock"), Qt::CaseInsensitive) == 0) {
            dock->show();
            dock->raise();
            return true;
        }
    }
    return false;
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
