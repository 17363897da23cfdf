// The kernel debugger in the window (issue 29). A launch runs on Oclgrind in a child clscope-cli (`run` of
// the built source with the Arguments panel's launch, or `replay` of a captured launch) with CLScope's
// plugin, which connects to a local socket the coordinator's DebugConnection listens on
// (docs/debug-protocol.md). Everything is asynchronous: QProcess and QLocalSocket signals, never a wait, so
// the window stays live while a launch of a million work-items runs to its breakpoint (progress and Stop in
// the Debugger panel).
//
// The breakpoints are the editor's (a click left of a line number, F9); Debug launch (F6) starts and, when
// paused, continues; F10, F11 and Shift+F11 step over, into and out; Ctrl+F10 runs to the cursor's line;
// Shift+F6 stops. At each stop the editor marks the line, and the Debugger panel shows the work-item's
// variables, the group's __local arrays, the call stack and the group's work-items (choosing one shows its
// variables; steps then act on it).
//
// This class is what the user sees of a session: the actions, the Debugger panel and the editor's markers.
// The child and its socket are DebugConnection's, and what a launch runs is made ready by DebugLaunch.
#pragma once

#include "clscope/debug.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <string>

class QAction;
class QStatusBar;
class QTemporaryDir;

namespace clscope::ui {

class CaptureCoordinator;
class DebugConnection;
class DebugLaunch;
class DebugView;
class EditorTabs;
class KernelEditor;
class Workbench;

class DebugCoordinator : public QObject
{
    Q_OBJECT
public:
    DebugCoordinator(Workbench *workbench, CaptureCoordinator *captures, EditorTabs *editors, DebugView *view,
                     QStatusBar *statusBar, QObject *parent = nullptr);
    ~DebugCoordinator() override;

    QAction *debugAction() const { return m_debugAction; } // F6: start, or continue when paused
    QAction *stepOverAction() const { return m_stepOverAction; }
    QAction *stepIntoAction() const { return m_stepIntoAction; }
    QAction *stepOutAction() const { return m_stepOutAction; }
    QAction *runToCursorAction() const { return m_runToCursorAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *breakpointAction() const { return m_breakpointAction; } // F9 at the cursor

    // The clscope-cli that runs the launch (beside the GUI's executable by default).
    void setCliPath(const QString &path);

    // Debugs the workbench's launch (the built source, the Arguments panel's launch); false with the reason
    // in the panel when there is none.
    bool debugLaunch();
    // Debugs a captured launch (its program's sources open read-only; its breakpoints are that editor's).
    // watch "ARGNO[INDEX]": it stops the work-item that writes that element, instead of at the first line.
    bool debugCapturedLaunch(qint64 launch, const QString &kernel, int programIndex,
                             const QString &watch = {});
    void continueRun();
    void step(const QString &kind);
    void runToCursor();
    void selectItem(const WorkItemId &global);
    void pause(); // a running launch stops at the next line any work-item starts
    void stop();

    bool isActive() const;
    bool isPaused() const { return m_paused; }
    const DebugStop &lastStop() const { return m_stop; }
    // The invocation being debugged (its name and NDRange), as the plugin announced it.
    const DebugKernel &debuggedKernel() const { return m_debuggedKernel; }
    KernelEditor *debuggedEditor() const { return m_editor; }
    QStringList lastArguments() const;
    // Milliseconds from the last step or continue request to its stop.
    qint64 lastResumeToStopMs() const { return m_resumeToStopMs; }

signals:
    void stopped(const clscope::DebugStop &stop);
    // The panel's views of the stop are filled (variables, local memory, stack, work-items).
    void stopShown();
    void finished(const QString &error); // the launch ended, or could not start; error "" when it ran out

private:
    bool start(DebugLaunch launch);
    bool refuse(const QString &why);
    void onKernelStarted(const DebugKernel &kernel);
    void onStopped(const DebugStop &stop);
    void onReply(const std::string &due, const DebugMessage &reply);
    void onFinished(const QString &error, bool stopped);
    void sendBreakpoints();
    void resume(const std::string &request, const QString &what);
    void requestStopViews();
    void updateActions();

    Workbench *m_workbench;
    CaptureCoordinator *m_captures;
    EditorTabs *m_editors;
    DebugView *m_view;
    QStatusBar *m_statusBar;
    DebugConnection *m_connection;
    QAction *m_debugAction;
    QAction *m_stepOverAction;
    QAction *m_stepIntoAction;
    QAction *m_stepOutAction;
    QAction *m_runToCursorAction;
    QAction *m_stopAction;
    QAction *m_breakpointAction;

    std::unique_ptr<QTemporaryDir> m_folder; // the debugged source of the workbench's launch
    QPointer<KernelEditor> m_editor;
    QString m_kernel;
    QString m_watch;
    bool m_unoptimised = false; // the next workbench launch builds with -cl-opt-disable
    bool m_restartUnoptimised = false;
    std::string m_mainFile;
    bool m_paused = false;
    DebugStop m_stop;
    DebugKernel m_debuggedKernel;
    DebugItem m_selected;
    QElapsedTimer m_resumed;
    qint64 m_resumeToStopMs = -1;
};

} // namespace clscope::ui
