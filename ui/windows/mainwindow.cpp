// Main window: builds the docks, restores their layout, and starts device enumeration after it shows.
#include "mainwindow.h"

#include "buildcoordinator.h"
#include "checkcoordinator.h"
#include "models/runcontroller.h"
#include "runcoordinator.h"
#include "widgets/argumentspanel.h"
#include "widgets/benchmarkdock.h"
#include "widgets/buildlogpanel.h"
#include "widgets/devicedock.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/runhistory.h"
#include "widgets/timelinedock.h"
#include "workers/deviceworkers.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QImageWriter>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <limits>

namespace clscope::ui {

namespace {
// Pool samples this long before a run's first command still belong to it: buffers are taken from the pool
// before anything is enqueued, and the pool's clock is coarse (a few milliseconds).
constexpr std::uint64_t kPoolLeadNs = 20'000'000;

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
constexpr int kStateVersion = 1;
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
    setCentralWidget(m_editors);
    connect(m_editors, &EditorTabs::errorOccurred, this, [this](const QString &message) {
        statusBar()->showMessage(message, 10000);
        QMessageBox::warning(this, tr("CLScope"), message);
    });

    m_deviceDock = new DeviceDock(m_devices);
    addPanel(m_deviceDock, tr("Devices"), QStringLiteral("devicesDock"), Qt::LeftDockWidgetArea);
    QDockWidget *logDock =
        addPanel(m_buildLog, tr("Build log"), QStringLiteral("buildLogDock"), Qt::BottomDockWidgetArea);
    QDockWidget *diagDock = addPanel(m_diagnostics, tr("Diagnostics"), QStringLiteral("diagnosticsDock"),
                                     Qt::BottomDockWidgetArea);
    QDockWidget *argsDock =
        addPanel(m_arguments, tr("Arguments"), QStringLiteral("argumentsDock"), Qt::RightDockWidgetArea);
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
    connect(m_devices, &DeviceManager::currentDeviceChanged, pool, [this, pool] {
        const DeviceSnapshot *dev = m_devices->currentDeviceSnapshot();
        pool->setDevice(dev ? dev->id : nullptr, dev ? QString::fromStdString(dev->name()) : QString());
    });
    tabifyDockWidget(diagDock, resultsDock);
    tabifyDockWidget(resultsDock, historyDock);
    diagDock->raise();

    m_builds =
        new BuildCoordinator(m_workers, m_devices, m_editors, m_buildLog, m_diagnostics, statusBar(), this);
    auto *buildBar = addToolBar(tr("Build"));
    buildBar->setObjectName(QStringLiteral("buildToolBar"));
    buildBar->addWidget(new QLabel(tr(" Options: ")));
    buildBar->addWidget(m_builds->optionsBox());
    buildBar->addAction(m_builds->buildAction());
    buildBar->addAction(m_builds->buildAllAction());
    connect(m_builds, &BuildCoordinator::buildFinished, this, [diagDock, logDock](const BuildResult &result) {
        // Errors and warnings first; a clean build shows its log.
        (result.diagnostics().empty() ? logDock : diagDock)->raise();
    });

    m_runs =
        new RunCoordinator(m_workers, m_devices, m_arguments, m_results, m_runHistory, statusBar(), this);
    connect(m_builds, &BuildCoordinator::buildFinished, m_runs, &RunCoordinator::onBuildFinished);
    connect(m_builds, &BuildCoordinator::buildFinished, this, [argsDock](const BuildResult &result) {
        if (result.success())
            argsDock->raise();
    });
    connect(m_runs, &RunCoordinator::runFinished, this, [resultsDock] { resultsDock->raise(); });
    m_checks = new CheckCoordinator(m_workers, m_arguments, m_builds, statusBar(), this);
    connect(m_checks, &CheckCoordinator::checkFinished, this, [diagDock] { diagDock->raise(); });
    buildBar->addAction(m_checks->checkAction());
    // Runs' buffers come from the runner's pool: the pool dock follows it, unless the user is watching a
    // workload of their own there.
    auto showRunnerPool = [this, pool] {
        const std::shared_ptr<MemoryPool> &runnerPool = m_runs->controller()->pool();
        PoolMonitor *monitor = pool->monitor();
        if (runnerPool && monitor->pool() != runnerPool && !monitor->isWorkloadRunning())
            pool->attachPool(runnerPool, tr("Kernel runs"));
    };
    connect(m_runs->controller(), &RunController::poolCreated, this, showRunnerPool);
    connect(m_runs->controller(), &RunController::runStarted, this, showRunnerPool);
    auto *timeline = new TimelineDock;
    QDockWidget *timelineDock =
        addPanel(timeline, tr("Timeline"), QStringLiteral("timelineDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(historyDock, timelineDock);
    resultsDock->raise();
    connect(m_runs, &RunCoordinator::runFinished, timeline, [this, timeline](const RunResult &result) {
        // The runner's pool under the run's commands: its samples from the run's first command on.
        std::vector<PoolSeriesPoint> series;
        std::vector<CommandRecord> commands = result.commands();
        if (result.clock())
            mapToHost(commands, *result.clock()); // device clock -> steady_clock, the pool's clock
        if (const auto &runnerPool = m_runs->controller()->pool(); runnerPool && !commands.empty()) {
            std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
            for (const CommandRecord &c : commands)
                first = std::min(first, c.queued ? c.queued : c.start);
            for (const PoolSeriesPoint &p : toPoolSeries(runnerPool->snapshotSeries(0)))
                if (p.timestampNs + kPoolLeadNs >= first)
                    series.push_back(p);
        }
        timeline->appendRecords(std::move(commands), std::move(series));
    });
    connect(m_runs, &RunCoordinator::runFailed, this, [historyDock] { historyDock->raise(); });

    m_deviceLabel->setObjectName(QStringLiteral("deviceStatus"));
    m_deviceLabel->setText(tr("Looking for OpenCL devices…"));
    statusBar()->addPermanentWidget(m_deviceLabel);

    connect(m_devices, &DeviceManager::currentDeviceChanged, this, &MainWindow::onCurrentDeviceChanged);
    connect(m_devices, &DeviceManager::devicesAvailable, this, [this](const SnapshotPtr &snapshot) {
        if (snapshot && snapshot->platforms.empty())
            m_deviceLabel->setText(tr("No OpenCL platform"));
        if (!m_ready) {
            m_ready = true;
            // Let the tree lay itself out before anyone grabs the window.
            QTimer::singleShot(0, this, &MainWindow::ready);
        }
    });

    createMenus();
    resize(1280, 800);
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    if (!restoreState(settings.value(kStateKey).toByteArray(), kStateVersion)) {
        // First start: the editor gets the room, the panels a sensible share of it.
        resizeDocks({logDock}, {240}, Qt::Vertical);
        resizeDocks({argsDock}, {520}, Qt::Horizontal);
        resizeDocks({findChild<QDockWidget *>(QStringLiteral("devicesDock"))}, {420}, Qt::Horizontal);
    }
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addPanel(QWidget *panel, const QString &title, const QString &objectName,
                                  Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    m_docks << dock;
    return dock;
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New kernel"), QKeySequence::New, m_editors, [this] { m_editors->newDocument(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open kernel sources"), QString(), tr("OpenCL sources (*.cl *.clh *.h);;All files (*)"));
        openFiles(paths);
    });
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
        m_recentMenu->addAction(path, this, [this, path] { m_editors->openFile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::createMenus()
{
    createFileMenu();

    QMenu *build = menuBar()->addMenu(tr("&Build"));
    build->addAction(m_builds->buildAction());
    build->addAction(m_builds->buildAllAction());
    build->addSeparator();
    build->addAction(tr("&Run kernel"), QKeySequence(Qt::Key_F5), this,
                     [this] { m_arguments->runButton()->click(); });
    build->addAction(m_checks->checkAction());

    QMenu *device = menuBar()->addMenu(tr("&Device"));
    QAction *refresh = device->addAction(tr("&Refresh devices"), m_devices, &DeviceManager::refresh);
    refresh->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)); // F5 is Run, as in IDEs

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : std::as_const(m_docks))
        view->addAction(dock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About CLScope"), this, [this] {
        QMessageBox::about(this, tr("About CLScope"),
                           tr("<h3>CLScope %1</h3><p>A desktop workbench for OpenCL: devices, kernels, runs, "
                              "profiles and memory.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_started) {
        // Enumerate after the window is up: drivers can take seconds, the window must not.
        m_started = true;
        QTimer::singleShot(0, m_devices, &DeviceManager::refresh);
    }
}

bool MainWindow::openFiles(const QStringList &paths)
{
    bool ok = true;
    for (const QString &path : paths)
        ok &= m_editors->openFile(path);
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_editors->closeAll()) {
        event->ignore(); // the user cancelled: nothing typed may be lost
        return;
    }
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState(kStateVersion));
    event->accept();
}

void MainWindow::onCurrentDeviceChanged(DeviceKey key)
{
    const DeviceSnapshot *dev = m_devices->currentDeviceSnapshot();
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

QStringList MainWindow::dockNames() const
{
    QStringList names;
    for (QDockWidget *dock : m_docks)
        names << dock->objectName();
    return names;
}

bool MainWindow::showDock(const QString &name)
{
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
    QImageWriter writer(path);
    if (!writer.write(pixmap.toImage()))
        return tr("Cannot write %1: %2").arg(path, writer.errorString());
    return {};
}

} // namespace clscope::ui
