// Profile application and File → Open into the CaptureSession, and what the Capture panel and the status
// bar say of them (a captured launch's actions: capturelaunches.cpp).
#include "capturecoordinator.h"
#include "display/stdstring.h"

#include "controllers/programprofiler.h"
#include "widgets/profiledialog.h"

#include <QFileInfo>
#include <QStatusBar>

namespace clscope::ui {

CaptureCoordinator::CaptureCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench,
                                       DeviceManager *devices, EditorTabs *editors, ResultsViewer *results,
                                       CaptureDock *dock, TimelineDock *timeline, QStatusBar *status,
                                       QObject *parent)
    : QObject(parent)
    , m_workers(workers)
    , m_devices(devices)
    , m_editors(editors)
    , m_workbench(workbench)
    , m_results(results)
    , m_dock(dock)
    , m_timeline(timeline)
    , m_status(status)
    , m_session(new CaptureSession(std::move(workers), this))
    , m_profiler(new ProgramProfiler(m_session, this))
{
    setObjectName(QStringLiteral("captureCoordinator"));
    m_session->addViewer(m_dock);
    m_session->addViewer(m_timeline);
    connect(m_session, &CaptureSession::loaded, this, &CaptureCoordinator::onLoaded);

    connect(m_profiler, &ProgramProfiler::started, this, [this](const QString &program, qint64 pid) {
        m_dock->setStatus(tr("Profiling %1 (pid %2)…").arg(QFileInfo(program).fileName()).arg(pid));
    });
    connect(m_profiler, &ProgramProfiler::failedToStart, this, [this](const QString &why) {
        m_dock->setStatus(tr("Not profiled: %1").arg(why));
        message(tr("Not profiled: %1").arg(why));
    });
    connect(m_profiler, &ProgramProfiler::output, m_dock, &CaptureDock::appendConsole);
    connect(m_profiler, &ProgramProfiler::programEnded, this, [this](int exit, bool crashed) {
        const QString text = crashed
                                 ? tr("The profiled program was stopped or crashed; finishing the capture…")
                                 : tr("The profiled program ended with exit status %1; finishing the "
                                      "capture…")
                                       .arg(exit);
        m_dock->setStatus(text);
        message(text, 0); // until the capture is written
    });
    connect(m_profiler, &ProgramProfiler::finished, this, &CaptureCoordinator::onProfileFinished);

    connect(m_dock, &CaptureDock::stopRequested, this, &CaptureCoordinator::stop);
    connect(m_dock, &CaptureDock::openInWorkbenchRequested, this, &CaptureCoordinator::openInWorkbench);
    connect(m_dock, &CaptureDock::replayRequested, this, &CaptureCoordinator::replayOnEveryDevice);
    connect(m_dock, &CaptureDock::exportRequested, this, [this](qint64 launch) { exportPyopencl(launch); });
    connect(m_dock, &CaptureDock::debugRequested, this, [this](qint64 launch) { debugLaunch(launch); });
    connect(m_dock, &CaptureDock::debugDifferenceRequested, this, &CaptureCoordinator::debugLaunch);
    connect(m_dock, &CaptureDock::programOpenRequested, this, &CaptureCoordinator::openProgram);
    connect(m_dock, &CaptureDock::currentLaunchChanged, m_session, &CaptureSession::selectLaunch);
    connect(m_timeline, &TimelineDock::launchRequested, this, &CaptureCoordinator::onLaunchAction);
    // A launch picked in the timeline or its events is the one the panel's actions work on.
    connect(m_timeline, &TimelineDock::recordSelected, this, [this](int record) {
        const auto &records = m_timeline->records();
        if (m_session->state() == CaptureSession::State::Empty || record < 0 ||
            std::size_t(record) >= records.size())
            return;
        const CommandRecord &r = records[std::size_t(record)];
        if (r.launch >= 0 && !r.hostSpan)
            m_session->selectLaunch(r.launch, qs(r.name));
    });
}

CaptureCoordinator::~CaptureCoordinator()
{
    m_session->removeViewer(m_dock);
    m_session->removeViewer(m_timeline);
}

void CaptureCoordinator::message(const QString &text, int ms)
{
    m_status->showMessage(text, ms);
}

bool CaptureCoordinator::isProfiling() const
{
    return m_profiler->isProfiling();
}

bool CaptureCoordinator::profile(const ProfileSettings &s)
{
    const QString why = m_profiler->profile(s);
    if (!why.isEmpty()) {
        m_dock->setStatus(tr("Not profiled: %1").arg(why));
        message(tr("Not profiled: %1").arg(why));
        return false;
    }
    m_dock->clearConsole();
    m_dock->clearReplays();
    m_dock->setStatus(tr("Starting %1…").arg(QFileInfo(s.program).fileName()));
    m_timeline->setLaunchActionsEnabled(true);
    message(tr("Profiling %1; the capture goes to %2").arg(s.program, s.output));
    return true;
}

void CaptureCoordinator::stop()
{
    if (!m_profiler->isRunning())
        return;
    m_dock->setStatus(tr("Stopping the program…"));
    m_profiler->stop();
}

void CaptureCoordinator::onProfileFinished(const QString &path, int exitStatus, const QString &error)
{
    const QString text = error.isEmpty() ? tr("Capture written to %1").arg(path)
                                         : tr("The capture stopped early: %1").arg(error);
    m_dock->setStatus(text);
    message(text);
    emit profileFinished(exitStatus);
}

void CaptureCoordinator::openCapture(const QString &path)
{
    if (m_profiler->isProfiling()) {
        message(tr("A program is being profiled: stop it before opening another capture"));
        return;
    }
    m_dock->clearReplays();
    m_dock->clearConsole();
    m_dock->setStatus(tr("Reading %1…").arg(path));
    m_timeline->setLaunchActionsEnabled(true);
    m_session->open(path);
}

void CaptureCoordinator::onLoaded()
{
    const CaptureData &d = m_session->data();
    if (!d.error.isEmpty()) {
        m_dock->setStatus(d.errorText());
        message(d.errorText());
        return;
    }
    const CaptureSession::State state = m_session->state();
    if (state != CaptureSession::State::Live && d.summary.apiCalls > 0) // else the panel says why not
        m_dock->setStatus(state == CaptureSession::State::Opened ? tr("Opened %1").arg(d.path)
                                                                 : tr("Capture written to %1").arg(d.path));
}

} // namespace clscope::ui
