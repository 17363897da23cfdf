// The main window's menu bar (File, Edit, Build, Debug, Device, View, Help) and what only its actions
// start: a new kernel from the template, the open and profile dialogs, go to line and to the next
// diagnostic, the built-in kernels' build, and the local-size sweep window.
#pragma once

#include <QList>
#include <QObject>

#include <memory>
#include <utility>

class QDockWidget;
class QMenu;

namespace clscope::ui {

class ArgumentsPanel;
class BuildCoordinator;
class CaptureCoordinator;
class CheckCoordinator;
class CompareCoordinator;
class DebugCoordinator;
class DeviceDock;
class DeviceManager;
class DeviceWorkers;
class EditorTabs;
class FindBar;
class MainWindow;
class RooflineCoordinator;
class RunCoordinator;
class SweepDialog;

class WindowMenus : public QObject
{
    Q_OBJECT
public:
    // What the menus act on.
    struct Parts
    {
        MainWindow *window;
        std::shared_ptr<DeviceWorkers> workers;
        DeviceManager *devices;
        EditorTabs *editors;
        FindBar *findBar;
        DeviceDock *deviceDock;
        ArgumentsPanel *arguments;
        BuildCoordinator *builds;
        RunCoordinator *runs;
        CheckCoordinator *checks;
        CompareCoordinator *compare;
        RooflineCoordinator *rooflines;
        DebugCoordinator *debugger;
        CaptureCoordinator *captures;
        QList<QDockWidget *> docks; // View: a toggle for each
    };

    // Fills the window's menu bar.
    explicit WindowMenus(Parts parts);

    void newKernelFromTemplate();
    void chooseFilesToOpen();

private:
    void createFileMenu();
    void createEditMenu();
    void createBuildMenu();
    void createOtherMenus();
    void chooseProgramToProfile();
    void buildBuiltInKernels();
    void rebuildRecentMenu();
    // F8 / Shift+F8: the next or previous diagnostic of the current tab (wrapping); false when it has none.
    bool goToDiagnostic(bool forward);
    // Run → Sweep local size and its window.
    void createSweepAction(QMenu *menu);
    void startSweep();

    Parts m_parts;
    MainWindow *m_window;
    EditorTabs *m_editors;
    QMenu *m_recentMenu = nullptr;
    SweepDialog *m_sweepDialog = nullptr;
};

} // namespace clscope::ui
