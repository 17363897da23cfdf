// Main window: builds the docks, restores their layout, and starts device enumeration after it shows.
#include "mainwindow.h"

#include "widgets/devicedock.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QImageWriter>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace clscope::ui {

namespace {
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
constexpr int kStateVersion = 1;
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_devices(new DeviceManager(this))
    , m_deviceDock(nullptr)
    , m_deviceLabel(new QLabel)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("CLScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/clscope.svg")));
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);

    m_deviceDock = new DeviceDock(m_devices);
    addPanel(m_deviceDock, tr("Devices"), QStringLiteral("devicesDock"), Qt::LeftDockWidgetArea);

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
    restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
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

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Export devices as &JSON…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export devices as JSON"),
                                                          QStringLiteral("clscope-devices.json"), tr("JSON (*.json)"));
        if (path.isEmpty())
            return;
        const QString error = m_deviceDock->exportJson(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    file->addAction(tr("Save &screenshot…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save screenshot"), QStringLiteral("clscope.png"),
                                                          tr("PNG images (*.png)"));
        if (path.isEmpty())
            return;
        const QString error = saveScreenshot(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Screenshot failed"), error);
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *device = menuBar()->addMenu(tr("&Device"));
    QAction *refresh = device->addAction(tr("&Refresh devices"), m_devices, &DeviceManager::refresh);
    refresh->setShortcut(QKeySequence::Refresh);

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

void MainWindow::closeEvent(QCloseEvent *event)
{
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
    m_deviceLabel->setText(tr("Device %1:%2  %3 (%4)")
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
