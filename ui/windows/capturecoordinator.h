// Captures in the window: Profile application (ProgramProfiler) and File → Open give the CaptureSession
// its capture, which the Capture panel, the timeline and the roofline view; this coordinator says in the
// panel and the status bar what happens, and does what a captured launch offers (capturelaunches.cpp): open
// in the workbench (its sources in an editor tab, options, kernel, arguments bound from the captured
// contents, the captured result to compare with), replay on every device, export as a pyopencl script,
// debug. The launches are read through the session's one reader.
#pragma once

#include "clscope/capture.h"
#include "controllers/capturesession.h"
#include "widgets/capturedock.h"
#include "widgets/timelinedock.h"

#include <QObject>

#include <memory>

class QStatusBar;

namespace clscope::ui {

class DeviceManager;
class DeviceWorkers;
class EditorTabs;
class KernelEditor;
class ProgramProfiler;
class ResultsViewer;
class Workbench;
struct ProfileSettings;

class CaptureCoordinator : public QObject
{
    Q_OBJECT
public:
    CaptureCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench, DeviceManager *devices,
                       EditorTabs *editors, ResultsViewer *results, CaptureDock *dock, TimelineDock *timeline,
                       QStatusBar *status, QObject *parent = nullptr);
    ~CaptureCoordinator() override;

    CaptureSession *session() const { return m_session; }
    ProgramProfiler *profiler() const { return m_profiler; }

    // Starts the program under capture; false with the reason in the panel and the status bar (one that
    // cannot be started is told later, there too).
    bool profile(const ProfileSettings &settings);
    bool isProfiling() const;
    // Ends the program being profiled (terminate, then kill after 3 s); what was captured is kept.
    void stop();
    // Opens a .clscope file in the views (read on a worker).
    void openCapture(const QString &path);
    QString capturePath() const { return m_session->path(); }

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

signals:
    void profileFinished(int exitStatus);
    // Open in workbench bound the launch's arguments (or said why it could not).
    void launchBound(qint64 launch, const QString &problem);
    void replayFinished(qint64 launch, int devices);
    void exportFinished(const QString &directory, const QString &error);
    void debugRequested(qint64 launch, const QString &kernel, int programIndex, const QString &watch);

private:
    void onLoaded();
    void onProfileFinished(const QString &path, int exitStatus, const QString &error);
    void onLaunchAction(qint64 launch, const QString &kernel, TimelineDock::LaunchAction action);
    // Reads the launch through the session, then then(launch) on the GUI thread (or says why it cannot).
    void withLaunch(qint64 launch, std::function<void(std::shared_ptr<const CapturedLaunch>)> then);
    void bindLaunch(std::shared_ptr<const CapturedLaunch> launch);
    void message(const QString &text, int ms = 10000);

    std::shared_ptr<DeviceWorkers> m_workers;
    DeviceManager *m_devices;
    EditorTabs *m_editors;
    Workbench *m_workbench;
    ResultsViewer *m_results;
    CaptureDock *m_dock;
    TimelineDock *m_timeline;
    QStatusBar *m_status;
    CaptureSession *m_session;
    ProgramProfiler *m_profiler;

    std::shared_ptr<const CapturedLaunch> m_pending;
    qint64 m_bound = -1;
};

} // namespace clscope::ui
