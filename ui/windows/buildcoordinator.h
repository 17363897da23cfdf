// Ties the editor, the build options field, the build controller and the log/diagnostics panels
// together: Ctrl+B builds the current buffer on the current device (Ctrl+Shift+B on every device of
// its platform) off the GUI thread, then diagnostics land in the editor, the list and the log tabs.
#pragma once

#include "clscope/build.h"
#include "controllers/devicemanager.h"
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

// What a build was made from: the tab, its text, the options, the device, and when the headers it read
// last changed. F5 runs a build only while its stamp equals what the user sees now.
struct BuildStamp
{
    QPointer<KernelEditor> editor;
    QString path;  // empty for an unsaved buffer
    QString title; // the tab's name
    QString text;
    QString options;
    cl_device_id device = nullptr;
    QStringList headerTimes; // "path@mtime" of the headers the build read
    bool sameInput(const BuildStamp &o) const
    {
        return editor == o.editor && text == o.text && options == o.options && device == o.device &&
               headerTimes == o.headerTimes;
    }
};

class BuildCoordinator : public QObject
{
    Q_OBJECT
public:
    BuildCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices, EditorTabs *editors,
                     BuildLogPanel *log, DiagnosticsPanel *diagnostics, QStatusBar *statusBar,
                     QObject *parent = nullptr);

    QAction *buildAction() const { return m_buildAction; }
    QAction *buildAllAction() const { return m_buildAllAction; }
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
    bool buildThen(std::function<void()> then, std::function<void(const QString &)> refused);
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
    void showRunDiagnostics(const std::vector<Diagnostic> &reports);

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
    void jumpTo(const QString &file, int line, int column);

    DeviceManager *m_devices;
    EditorTabs *m_editors;
    BuildLogPanel *m_log;
    DiagnosticsPanel *m_diagnostics;
    QStatusBar *m_statusBar;
    BuildController *m_controller;
    QAction *m_buildAction;
    QAction *m_buildAllAction;
    QComboBox *m_options;
    QProgressBar *m_busy;
    QToolButton *m_cancel;
    BuildStamp m_pending; // the build in flight
    BuildStamp m_built;   // the latest finished build
    bool m_builtOk = false;
    QStringList m_builtHeaders;
    std::function<void()> m_then;
    std::function<void(const QString &)> m_refused;
    std::vector<Diagnostic> m_shown;               // the diagnostics on screen
    QList<QPointer<KernelEditor>> m_markedEditors; // editors that carry markers of m_shown
};

} // namespace clscope::ui
