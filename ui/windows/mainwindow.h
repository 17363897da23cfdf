// The CLScope main window: it makes the centre (WindowCentre), the docks (DockLayout) and the menus
// (WindowMenus), creates the coordinators that tie panels to controllers, tells its views (WorkbenchView)
// the current device, build and run, and names the current device in the status bar and the toolbar.
#pragma once

#include "controllers/devicemanager.h"

#include <QMainWindow>

#include <memory>

class QComboBox;
class QDockWidget;
class QLabel;

namespace clscope {
class BuildResult;
class RunResult;
} // namespace clscope

namespace clscope::ui {

class ArgumentsPanel;
class CaptureCoordinator;
class BuildCoordinator;
class ResultsViewer;
class RunCoordinator;
class CheckCoordinator;
class RooflineCoordinator;
class RooflineView;
class DebugCoordinator;
class DebugView;
class CompareCoordinator;
class RunHistoryPanel;
class BuildLogPanel;
class DeviceDock;
class DiagnosticsPanel;
class DockLayout;
class EditorTabs;
class PoolDock;
class TimelineDock;
class DeviceWorkers;
class WindowCentre;
class WindowMenus;
class Workbench;
class WorkbenchView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // No accessors for the panels: a script or a test reaches them as a user of the window would, with
    // findChild (each has an objectName; tests/ui/windowparts.h).

    // Opens files given on the command line or dropped on the window (kernel sources in the editor, .clscope
    // captures in the Capture panel); false if any failed.
    bool openFiles(const QStringList &paths);
    // Offers the buffers an earlier instance left behind (crash, kill -9) back to the user.
    void offerRecovery();
    // Reopens the tabs that were open at the last normal quit.
    void restoreSession();

    // Raises the dock whose object name or title matches (case-insensitive); false when none does.
    bool showDock(const QString &name);
    QStringList dockNames() const;

    // Off for scripted sessions: errors from the editor then only reach the status bar (and whoever
    // else listens), never a modal message box nobody is there to close.
    void setModalErrors(bool modal) { m_modalErrors = modal; }

    // Saves the window as it looks now. Returns an error message, or empty on success.
    QString saveScreenshot(const QString &path);

    // Emitted once the first enumeration has been shown (what --screenshot waits for).
    bool isReady() const { return m_ready; }

signals:
    void ready();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

public slots:
    // The panels where a first start puts them, at the default sizes (View → Reset layout).
    void resetLayout();

private:
    // The steps of the constructor, in order.
    void createDocks();
    void createCoordinators();
    void createToolBar();
    // Each piece of news brings forward the dock that shows it.
    void raiseDocksOnNews();
    void createStatusBar();
    void createMenus();

    void updateDeviceChoice();
    void onCurrentDeviceChanged(DeviceKey key);
    // What every view is told (WorkbenchView): the latest build, the runs' pool, the latest run.
    void broadcastBuild(const BuildResult &result);
    void broadcastRunPool();
    void broadcastRun(const RunResult &result);

    // The docks that the window raises or sizes.
    struct Docks
    {
        QDockWidget *devices = nullptr;
        QDockWidget *log = nullptr;
        QDockWidget *diagnostics = nullptr;
        QDockWidget *arguments = nullptr;
        QDockWidget *results = nullptr;
        QDockWidget *timeline = nullptr;
        QDockWidget *roofline = nullptr;
        QDockWidget *debug = nullptr;
    };

    // Shared with the controllers and docks: the workers shut down after the last of them, so what they
    // release at the end still goes to a worker.
    std::shared_ptr<DeviceWorkers> m_workers;
    DeviceManager *m_devices;
    // The current program and launch that the coordinators read, and the builder and launch view behind it.
    Workbench *m_workbench;
    EditorTabs *m_editors;
    BuildLogPanel *m_buildLog;
    DiagnosticsPanel *m_diagnostics;
    ArgumentsPanel *m_arguments;
    ResultsViewer *m_results;
    RunHistoryPanel *m_runHistory;
    QLabel *m_deviceLabel;
    WindowCentre *m_centre;
    DockLayout *m_layout;
    Docks m_dock;
    DeviceDock *m_deviceDock = nullptr;
    PoolDock *m_pool = nullptr;
    TimelineDock *m_timeline = nullptr;
    RooflineView *m_launchRoofline = nullptr;
    DebugView *m_debugView = nullptr;
    BuildCoordinator *m_builds = nullptr;
    RunCoordinator *m_runs = nullptr;
    CheckCoordinator *m_checks = nullptr;
    CompareCoordinator *m_compare = nullptr;
    CaptureCoordinator *m_captures = nullptr;
    RooflineCoordinator *m_rooflines = nullptr;
    DebugCoordinator *m_debugger = nullptr;
    WindowMenus *m_menus = nullptr;
    QComboBox *m_deviceChoice = nullptr;
    // The panels (and the run coordinator) told of the current device, build and run, in this order.
    QList<WorkbenchView *> m_views;
    bool m_ready = false;
    bool m_started = false;
    bool m_modalErrors = true;
};

} // namespace clscope::ui
