// Ties the editor, the build options field, the build controller and the log/diagnostics panels
// together: Ctrl+B builds the current buffer on the current device (Ctrl+Shift+B on every device of
// its platform) off the GUI thread, then diagnostics land in the editor, the list and the log tabs.
#pragma once

#include "clscope/build.h"
#include "models/devicemanager.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QAction;
class QComboBox;
class QProgressBar;
class QStatusBar;

namespace clscope::ui {

class BuildController;
class BuildLogPanel;
class DiagnosticsPanel;
class EditorTabs;
class KernelEditor;
class DeviceWorkers;

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

    // Builds the current document; false (with a status message) when there is nothing to build on.
    bool buildCurrent(bool allDevicesOfPlatform = false);

    // The editor and file of the latest build (null / empty before one, or once the tab is closed).
    KernelEditor *builtEditor() const;
    QString builtPath() const { return m_builtPath; }
    // Shows diagnostics in the list and, for the built file's lines, in the built editor (a build's, or
    // a memory check's of the built kernel).
    void showDiagnostics(const std::vector<Diagnostic> &diagnostics);

signals:
    void buildFinished(const clscope::BuildResult &result);
    void buildFailed(const QString &message);

private:
    void onFinished(const BuildResult &result);
    void onFailed(const QString &message);
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
    QPointer<KernelEditor> m_builtEditor;
    QString m_builtPath;
};

} // namespace clscope::ui
