// Captures in the window: Profile application runs a program under CLScope's layer (QProcess, with the
// recorder on its own thread) while the Capture panel and the timeline fill from the capture file; a
// .clscope file opens the same views. A captured launch opens in the workbench (its sources in an editor
// tab, options, kernel, arguments bound from the captured contents, the captured result to compare with),
// replays on every device, or exports as a pyopencl script. Reads of the file run on the device-less worker.
#pragma once

#include "clscope/capture.h"
#include "widgets/capturedock.h"
#include "widgets/timelinedock.h"

#include <QObject>
#include <QPointer>
#include <QProcess>

#include <atomic>
#include <future>
#include <memory>
#include <thread>

class QStatusBar;
class QTimer;

namespace clscope::ui {

class ArgumentsPanel;
class BuildCoordinator;
class DeviceManager;
class DeviceWorkers;
class EditorTabs;
class KernelEditor;
class ResultsViewer;
struct ProfileSettings;

class CaptureCoordinator : public QObject
{
    Q_OBJECT
public:
    CaptureCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices, EditorTabs *editors,
                       BuildCoordinator *builds, ArgumentsPanel *arguments, ResultsViewer *results,
                       CaptureDock *dock, TimelineDock *timeline, QStatusBar *status,
                       QObject *parent = nullptr);
    ~CaptureCoordinator() override;

    // Starts the program under capture; false with the reason in the panel and the status bar.
    bool profile(const ProfileSettings &settings);
    bool isProfiling() const { return m_process != nullptr; }
    // Ends the program being profiled (terminate, then kill after 3 s); what was captured is kept.
    void stop();
    // Reads a .clscope file into the views (on a worker).
    void openCapture(const QString &path);
    QString capturePath() const { return m_path; }
    const CaptureSnapshot &snapshot() const { return m_snapshot; }
    quint64 snapshotCount() const { return m_snapshots; }
    // A read of the file is under way (or one more is due).
    bool isReading() const { return m_reading || m_readAgain; }

    void openInWorkbench(qint64 launch);
    void replayOnEveryDevice(qint64 launch);
    void exportPyopencl(qint64 launch, const QString &directory = {});
    // Debug this launch: finds its program and asks the debugger (debugRequested), or says why not.
    // watch: "ARGNO[INDEX]", an element whose writer the debugger stops ("" none: its first line).
    void debugLaunch(qint64 launch, const QString &watch = {});
    // A captured program's sources into an editor tab, read-only or as an unsaved copy; its editor, or null
    // when the program has no sources (a binary) or there is none of that index.
    KernelEditor *openProgram(int index, bool copy);

    // The launch opened in the workbench whose arguments wait for its build, or -1.
    qint64 pendingLaunch() const { return m_pending ? m_pending->index : -1; }
    // The launch bound in the Arguments panel by the last Open in workbench, or -1.
    qint64 boundLaunch() const { return m_bound; }

    // For tests: the live refresh interval (ms).
    void setRefreshInterval(int ms);

signals:
    void snapshotShown();
    void profileFinished(int exitStatus);
    // Open in workbench bound the launch's arguments (or said why it could not).
    void launchBound(qint64 launch, const QString &problem);
    void replayFinished(qint64 launch, int devices);
    void exportFinished(const QString &directory, const QString &error);
    void debugRequested(qint64 launch, const QString &kernel, int programIndex, const QString &watch);

private:
    void requestRead();
    void showSnapshot(CaptureSnapshot snapshot);
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void onRecorderDone();
    void onLaunchAction(qint64 launch, const QString &kernel, TimelineDock::LaunchAction action);
    // Reads the launch on the worker, then then(launch) on the GUI thread (or says why it cannot).
    void withLaunch(qint64 launch, std::function<void(std::shared_ptr<const CapturedLaunch>)> then);
    void bindLaunch(std::shared_ptr<const CapturedLaunch> launch);
    void message(const QString &text, int ms = 10000);

    std::shared_ptr<DeviceWorkers> m_workers;
    DeviceManager *m_devices;
    EditorTabs *m_editors;
    BuildCoordinator *m_builds;
    ArgumentsPanel *m_arguments;
    ResultsViewer *m_results;
    CaptureDock *m_dock;
    TimelineDock *m_timeline;
    QStatusBar *m_status;
    QTimer *m_refresh;

    QString m_path;
    CaptureSnapshot m_snapshot;
    quint64 m_snapshots = 0;
    bool m_reading = false;
    bool m_readAgain = false;

    // The program being profiled.
    QProcess *m_process = nullptr;
    std::shared_ptr<CaptureRecording> m_recording;
    std::shared_ptr<std::atomic<bool>> m_exited;
    std::promise<std::optional<int>> m_exitStatus;
    std::thread m_recorder;
    std::optional<int> m_lastExit;
    bool m_opened = false; // the capture shown was opened from a file, not profiled here

    std::shared_ptr<const CapturedLaunch> m_pending;
    qint64 m_bound = -1;
};

} // namespace clscope::ui
