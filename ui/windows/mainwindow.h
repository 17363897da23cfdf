// The CLScope main window: dockable panels whose layout persists, menus, and the status bar that names
// the current device.
#pragma once

#include "controllers/devicemanager.h"

#include <QMainWindow>

#include <memory>

class QComboBox;
class QDockWidget;
class QLabel;
class QStackedWidget;
class QTabBar;

namespace clscope {
class BuildResult;
class RunResult;
} // namespace clscope

namespace clscope::ui {

class ArgumentsPanel;
class CaptureCoordinator;
class CaptureDock;
class BuildCoordinator;
class ResultsViewer;
class RunCoordinator;
class CheckCoordinator;
class RooflineCoordinator;
class DebugCoordinator;
class CompareCoordinator;
class RunHistoryPanel;
class BuildLogPanel;
class DeviceDock;
class DiagnosticsPanel;
class EditorTabs;
class FindBar;
class StartPage;
class SweepDialog;
class DeviceWorkers;
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
    void applyDefaultSizes();
    // Moves and shrinks the window so that all of it, status bar included, is on its screen.
    void keepOnScreen();
    // Gives the bottom panels `bottomWanted` pixels of height (-1: what they have), less where the Arguments
    // panel beside them would show fewer than four argument rows.
    void keepArgumentsRoom(int bottomWanted = -1);
    // The centre: the capture's views (when there is a capture), else the editor or the start page.
    void showCentre(bool capture);
    void newKernelFromTemplate();
    void chooseFilesToOpen();
    void chooseProgramToProfile();
    void updateDeviceChoice();
    void createMenus();
    void createEditMenu();
    // F8 / Shift+F8: the next or previous diagnostic of the current tab (wrapping); false when it has none.
    bool goToDiagnostic(bool forward);
    void createFileMenu();
    // Run → Sweep local size and its window.
    void createSweepAction(QMenu *menu);
    void startSweep();
    void rebuildRecentMenu();
    void onCurrentDeviceChanged(DeviceKey key);
    // What every view is told (WorkbenchView): the latest build, the runs' pool, the latest run.
    void broadcastBuild(const BuildResult &result);
    void broadcastRunPool();
    void broadcastRun(const RunResult &result);
    QDockWidget *addPanel(QWidget *panel, const QString &title, const QString &objectName,
                          Qt::DockWidgetArea area);

    // Shared with the controllers and docks: the workers shut down after the last of them, so what they
    // release at the end still goes to a worker.
    std::shared_ptr<DeviceWorkers> m_workers;
    DeviceManager *m_devices;
    EditorTabs *m_editors;
    DeviceDock *m_deviceDock;
    BuildLogPanel *m_buildLog;
    DiagnosticsPanel *m_diagnostics;
    BuildCoordinator *m_builds;
    ArgumentsPanel *m_arguments;
    ResultsViewer *m_results;
    RunHistoryPanel *m_runHistory;
    RunCoordinator *m_runs;
    CheckCoordinator *m_checks;
    CompareCoordinator *m_compare = nullptr;
    CaptureDock *m_captureDock = nullptr;
    CaptureCoordinator *m_captures = nullptr;
    RooflineCoordinator *m_rooflines = nullptr;
    DebugCoordinator *m_debugger = nullptr;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_deviceLabel;
    QComboBox *m_deviceChoice = nullptr;
    StartPage *m_startPage = nullptr;
    FindBar *m_findBar = nullptr;
    SweepDialog *m_sweepDialog = nullptr;
    QStackedWidget *m_centre = nullptr;
    QTabBar *m_centreTabs = nullptr;
    QDockWidget *m_bottomDock = nullptr;
    QDockWidget *m_sideDock = nullptr;
    QByteArray m_defaultState;
    QList<QDockWidget *> m_docks;
    // The panels (and the run coordinator) told of the current device, build and run, in this order.
    QList<WorkbenchView *> m_views;
    bool m_ready = false;
    bool m_started = false;
    bool m_modalErrors = true;
};

} // namespace clscope::ui
