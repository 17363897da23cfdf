// "Run with memory check": the arguments panel's run again on the Oclgrind simulator with its checks on
// (out-of-bounds and invalid accesses, data races, uninitialised values, barrier divergence, API misuse),
// in a child clscope-cli (check.h says why a child); its findings land in the diagnostics list and as
// markers on the kernel's lines, like build diagnostics. The child is watched through QProcess's signals,
// never waited on by a thread, so builds and runs do not queue behind a check; the session's folder is
// made and the report parsed on the device-less worker.
#pragma once

#include "clscope/check.h"
#include "workers/jobtag.h"

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QProcess;
class QStatusBar;

namespace clscope::ui {

// A child told to stop (a check, a roofline count) gets SIGTERM, then SIGKILL when it has not gone after this
// long (as CheckSession::run).
inline constexpr int kChildKillAfterMs = 2000;
// Tells a child to stop: SIGTERM now, SIGKILL after kChildKillAfterMs if it is still there (timed on
// context).
void terminateChild(QProcess *process, QObject *context);
// A child clscope-cli's last line of stderr without the program's prefix: what it is doing, or why it failed.
QString childStatusLine(const QByteArray &err);

class KernelEditor;

// The text the user sees in a private folder, named as the user's file (userPath, "" for an unsaved
// buffer), for a child clscope-cli to run; includeOption "-I <the user's folder>" (or "") keeps the headers
// beside the user's file found. Nothing, with *error, when the folder or the file cannot be made.
struct WorkbenchSource
{
    std::unique_ptr<QTemporaryDir> folder;
    QString file;
    std::string includeOption;
};
std::optional<WorkbenchSource> writeWorkbenchSource(const KernelEditor &editor, const QString &userPath,
                                                    QString *error);

class Workbench;
class DeviceWorkers;

// What a finished check shows: the diagnostics (as build.h Diagnostics, work-items and counts in the
// message) and one line for the status bar.
struct CheckOutcomeView
{
    std::vector<Diagnostic> diagnostics;
    QString summary;
};
// Pure: the view of a child's result (exit 0 clean, 3 errors found, anything else a failed run whose
// stderr says why) for the source shown to the user.
CheckOutcomeView viewOfCheck(const CheckChildResult &result);

class CheckCoordinator : public QObject
{
    Q_OBJECT
public:
    CheckCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench, QStatusBar *statusBar,
                     QObject *parent = nullptr);

    QAction *checkAction() const { return m_action; }
    // The clscope-cli that runs the check (beside the GUI's executable by default).
    void setCliPath(const QString &path) { m_cli = path; }
    QString cliPath() const { return m_cli; }

    // Checks what the panel holds on the latest build's source; false (with a status message) when the
    // panel does not describe a run.
    bool checkCurrent();
    // Stops the child (SIGTERM, then SIGKILL) and drops its result.
    void abandon();
    bool isBusy() const { return m_busy; }
    const CheckOutcomeView &lastView() const { return m_last; }
    // What the latest check's child clscope-cli was started with (after `clscope-cli`).
    const std::vector<std::string> &lastChildArguments() const { return m_lastArgs; }

signals:
    void checkFinished(const QString &summary, int errors);
    void checkFailed(const QString &message);

private:
    struct Prepared; // the session and the child's arguments, made on the device-less worker
    // group: the check's request (JobTag::newGroup); the child's end is ignored once it is superseded.
    void startChild(const JobGroup &group, const std::shared_ptr<Prepared> &prepared);
    void collect(const JobGroup &group, const std::shared_ptr<Prepared> &prepared, int exitCode,
                 bool crashed);
    void finish(const std::optional<CheckChildResult> &result, const QString &error);
    void stopChild();

    std::shared_ptr<DeviceWorkers> m_workers;
    Workbench *m_workbench;
    QStatusBar *m_statusBar;
    QAction *m_action;
    QString m_cli;
    QProcess *m_process = nullptr; // the running child
    bool m_stopping = false;       // the child was told to stop
    // A check's steps (preparing on the worker, the child, collecting on the worker) form one request; a
    // newer check or abandon() supersedes it.
    JobTag m_tag{QStringLiteral("check")};
    bool m_busy = false;
    CheckOutcomeView m_last;
    std::vector<std::string> m_lastArgs;
};

} // namespace clscope::ui
