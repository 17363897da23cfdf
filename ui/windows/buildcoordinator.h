// Ties the editor, the build options field, the build controller and the log/diagnostics panels
// together: Ctrl+B builds the current buffer on the current device (Ctrl+Shift+B on every device of
// its platform) off the GUI thread, then diagnostics land in the editor, the list and the log tabs.
// This class keeps the build flow (the actions, the build in flight, what F5 may run); the options field is a
// BuildOptionsField, the diagnostics on screen a BuildDiagnostics, what a build was made from a BuildStamp.
#pragma once

#include "buildstamp.h"
#include "clscope/build.h"
#include "controllers/devicemanager.h"
#include "controllers/workbench.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>

#include <memory>

class QAction;
class QComboBox;
class QProgressBar;
class QStatusBar;
class QToolButton;

namespace clscope::ui {

class BuildController;
class BuildDiagnostics;
class BuildLogPanel;
class BuildOptionsField;
class DiagnosticsPanel;
class EditorTabs;
class DeviceWorkers;

// The workbench's builder (ProgramBuilder): each finished build goes into the Workbench context, with what
// it was made from, before anyone else hears of it.
class BuildCoordinator : public QObject, public ProgramBuilder
{
    Q_OBJECT
public:
    BuildCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench, DeviceManager *devices,
                     EditorTabs *editors, BuildLogPanel *log, DiagnosticsPanel *diagnostics,
                     QStatusBar *statusBar, QObject *parent = nullptr);

    QAction *buildAction() const { return m_buildAction; }
    QAction *buildAllAction() const { return m_buildAllAction; }
    // Checkable: Build and Run take the current tab's text and then every other open OpenCL C tab's, in tab
    // order, as one program (the strings of one clCreateProgramWithSource). Remembered across restarts.
    QAction *allTabsAction() const { return m_allTabsAction; }
    // Checkable, enabled while allTabsAction is on: each tab compiled apart (clCompileProgram) and the
    // objects linked (clLinkProgram), as hosts that build libraries do.
    QAction *linkAction() const { return m_linkAction; }
    // The build options field: it shows and edits the options of the current tab's program (each tab has
    // its own: EditorTabs::buildOptions).
    QComboBox *optionsBox() const;
    BuildController *controller() const { return m_controller; }

    // Builds the current document's program (a header's includer when the current tab is a header of the
    // latest build); false (with a status message) when there is nothing to build on.
    bool buildCurrent(bool allDevicesOfPlatform = false);
    // Gives up the build in flight (the status bar's Cancel): the editor, the log and the
    // diagnostics stay as they were, a run that waited for it is refused.
    void cancelBuild();
    // Calls then() once the current program is built on the current device from what the editor shows:
    // at once when the latest build is of exactly that, else after a new build succeeds. A failed build
    // calls refused(why) instead, and so does a build that cannot start. Returns false when refused at once.
    bool buildThen(std::function<void()> then, std::function<void(const QString &)> refused) override;
    WorkbenchProgram programNow() const override { return currentStamp().program(); }
    // The editor whose program the current tab belongs to.
    KernelEditor *programEditor() const;
    // The stamp of the latest finished build (editor null before one).
    const BuildStamp &lastBuilt() const { return m_built; }
    // What a build now would build: the current program's tab, text and options, the current device.
    BuildStamp currentStamp() const;

    // The editor and file of the latest build (null / empty before one, or once the tab is closed).
    KernelEditor *builtEditor() const;
    QString builtPath() const { return m_built.path; }
    // A memory check's or an Oclgrind run's reports, shown with the latest build's own warnings and notes
    // (which a check must not wipe from the editor).
    void showRunDiagnostics(const std::vector<Diagnostic> &reports) override;

signals:
    void buildFinished(const clscope::BuildResult &result);
    void buildFailed(const QString &message);

private:
    QStringList headerTimes(const QStringList &headers) const;
    bool startBuild(const BuildStamp &stamp, bool allDevicesOfPlatform);
    void onFinished(const BuildResult &result);
    void onFailed(const QString &message);
    void onCancelled();
    void setBusy(bool busy);

    Workbench *m_workbench;
    DeviceManager *m_devices;
    EditorTabs *m_editors;
    BuildLogPanel *m_log;
    QStatusBar *m_statusBar;
    BuildController *m_controller;
    QAction *m_buildAction;
    QAction *m_buildAllAction;
    QAction *m_allTabsAction;
    QAction *m_linkAction;
    BuildOptionsField *m_options = nullptr;
    BuildDiagnostics *m_shown = nullptr; // the diagnostics in the list and the editors
    QProgressBar *m_busy;
    QToolButton *m_cancel;
    BuildStamp m_pending; // the build in flight
    BuildStamp m_built;   // the latest finished build
    bool m_builtOk = false;
    QStringList m_builtHeaders;
    std::function<void()> m_then;
    std::function<void(const QString &)> m_refused;
};

} // namespace clscope::ui
