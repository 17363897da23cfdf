// Ties the editor, the build options field, the build controller and the log/diagnostics panels
// together: Ctrl+B builds the current buffer on the current device (Ctrl+Shift+B on every device of
// its platform) off the GUI thread, then diagnostics land in the editor, the list and the log tabs.
#pragma once

#include "clscope/build.h"
#include "controllers/buildjobsource.h"
#include "controllers/devicemanager.h"
#include "controllers/workbench.h"
#include "widgets/kerneleditor.h"

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
class BuildLogPanel;
class DiagnosticsPanel;
class EditorTabs;
class DeviceWorkers;

// Another open tab of a program built from every open tab (Build → Build open tabs as one program).
struct BuildStampPart
{
    QPointer<KernelEditor> editor;
    QString name; // its file, or for an unsaved tab its title (made unique): the diagnostics' file
    QString text;
    bool operator==(const BuildStampPart &o) const
    {
        return editor == o.editor && name == o.name && text == o.text;
    }
};

// What a build was made from: the tab, its text, the other tabs of the program, the options, the device,
// and when the headers it read last changed. F5 runs a build only while its stamp equals what the user sees
// now, so an edit in any tab of the program makes it stale.
struct BuildStamp
{
    QPointer<KernelEditor> editor;
    QString path;  // empty for an unsaved buffer
    QString title; // the tab's name
    QString text;
    QList<BuildStampPart> more; // the other tabs, in tab order, after this one; empty for one tab
    bool link = false;          // each tab compiled apart, the objects linked
    QString options;
    cl_device_id device = nullptr;
    QStringList headerTimes; // "path@mtime" of the headers the build read (a program file's own)
    // A tab of a program that is not OpenCL C (EditorTabs::openProgramFile): "binary", "il", "built-in"
    // (programsource.h's words), and its file (the names for built-ins); empty for a source.
    QString programKind;
    QString programFile;
    bool sameInput(const BuildStamp &o) const
    {
        return editor == o.editor && text == o.text && more == o.more && link == o.link &&
               options == o.options && device == o.device && headerTimes == o.headerTimes &&
               programKind == o.programKind && programFile == o.programFile;
    }
    // The other tabs as a build takes them.
    QList<BuildJobSource> moreSources() const;
    // What the Workbench context keeps of it (no result, no device snapshot).
    WorkbenchProgram program() const;
};

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
    QComboBox *optionsBox() const { return m_options; }
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
    // Shows diagnostics in the list and, for the built file's lines, in the built editor (a build's, or
    // a memory check's of the built kernel).
    void showDiagnostics(const std::vector<Diagnostic> &diagnostics);
    // A memory check's or an Oclgrind run's reports, shown with the latest build's own warnings and notes
    // (which a check must not wipe from the editor).
    void showRunDiagnostics(const std::vector<Diagnostic> &reports) override;

signals:
    void buildFinished(const clscope::BuildResult &result);
    void buildFailed(const QString &message);

private:
    QStringList headerTimes(const QStringList &headers) const;
    bool startBuild(const BuildStamp &stamp, bool allDevicesOfPlatform);
    void markEditors();
    void onFinished(const BuildResult &result);
    void onFailed(const QString &message);
    void onCancelled();
    void setBusy(bool busy);
    void rememberOptions(const QString &options);
    // The options field shows the options of the current tab's program (programEditor()).
    void showProgramOptions();
    void jumpTo(const QString &file, int line, int column);
    // The open tab a diagnostic of the latest build names: its main tab, another tab of its program, or a
    // header open in a tab; null when none is open.
    KernelEditor *editorOf(const QString &file) const;

    Workbench *m_workbench;
    DeviceManager *m_devices;
    EditorTabs *m_editors;
    BuildLogPanel *m_log;
    DiagnosticsPanel *m_diagnostics;
    QStatusBar *m_statusBar;
    BuildController *m_controller;
    QAction *m_buildAction;
    QAction *m_buildAllAction;
    QAction *m_allTabsAction;
    QAction *m_linkAction;
    QComboBox *m_options;
    QProgressBar *m_busy;
    QToolButton *m_cancel;
    BuildStamp m_pending; // the build in flight
    BuildStamp m_built;   // the latest finished build
    bool m_builtOk = false;
    bool m_showingOptions = false; // the field is being set from a tab, not typed into
    QStringList m_builtHeaders;
    std::function<void()> m_then;
    std::function<void(const QString &)> m_refused;
    std::vector<Diagnostic> m_shown;               // the diagnostics on screen
    QList<QPointer<KernelEditor>> m_markedEditors; // editors that carry markers of m_shown
};

} // namespace clscope::ui
