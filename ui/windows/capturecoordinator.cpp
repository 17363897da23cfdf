// Profile application and open capture: the program under the layer, the recorder, and reading the
// capture file into the Capture panel and the timeline (a captured launch's actions: capturelaunches.cpp).
#include "capturecoordinator.h"
#include "display/stdstring.h"

#include "clscope/loaderenv.h"
#include "models/eventtablemodel.h"
#include "widgets/profiledialog.h"
#include "widgets/timelinewidget.h"
#include "workers/deviceworkers.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTimer>

#include <fcntl.h>
#include <sys/wait.h>

namespace clscope::ui {

namespace {} // namespace

CaptureCoordinator::CaptureCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices,
                                       EditorTabs *editors, BuildCoordinator *builds,
                                       ArgumentsPanel *arguments, ResultsViewer *results, CaptureDock *dock,
                                       TimelineDock *timeline, QStatusBar *status, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_devices(devices)
    , m_editors(editors)
    , m_builds(builds)
    , m_arguments(arguments)
    , m_results(results)
    , m_dock(dock)
    , m_timeline(timeline)
    , m_status(status)
    , m_refresh(new QTimer(this))
{
    setObjectName(QStringLiteral("captureCoordinator"));
    m_refresh->setInterval(700);
    connect(m_refresh, &QTimer::timeout, this, &CaptureCoordinator::requestRead);
    connect(m_dock, &CaptureDock::stopRequested, this, &CaptureCoordinator::stop);
    connect(m_dock, &CaptureDock::openInWorkbenchRequested, this, &CaptureCoordinator::openInWorkbench);
    connect(m_dock, &CaptureDock::replayRequested, this, &CaptureCoordinator::replayOnEveryDevice);
    connect(m_dock, &CaptureDock::exportRequested, this, [this](qint64 launch) { exportPyopencl(launch); });
    connect(m_dock, &CaptureDock::debugRequested, this, [this](qint64 launch) { debugLaunch(launch); });
    connect(m_dock, &CaptureDock::debugDifferenceRequested, this, &CaptureCoordinator::debugLaunch);
    connect(m_dock, &CaptureDock::programOpenRequested, this, &CaptureCoordinator::openProgram);
    connect(m_timeline, &TimelineDock::launchRequested, this, &CaptureCoordinator::onLaunchAction);
    // A launch picked in the timeline or its events is the one the panel's actions work on.
    connect(m_timeline, &TimelineDock::recordSelected, this, [this](int record) {
        const auto &records = m_timeline->records();
        if (m_path.isEmpty() || record < 0 || std::size_t(record) >= records.size())
            return;
        const CommandRecord &r = records[std::size_t(record)];
        if (r.launch >= 0)
            m_dock->setCurrentLaunch(r.launch, qs(r.name));
    });
}

CaptureCoordinator::~CaptureCoordinator()
{
    if (m_process) {
        // The window closes while a program runs: it ends, and the recorder with it.
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(3000);
        m_exited->store(true);
        if (m_recording)
            m_recording->stop();
        m_exitStatus.set_value(std::nullopt);
    }
    if (m_recorder.joinable())
        m_recorder.join();
}

void CaptureCoordinator::message(const QString &text, int ms)
{
    m_status->showMessage(text, ms);
}

void CaptureCoordinator::setRefreshInterval(int ms)
{
    m_refresh->setInterval(ms);
}

bool CaptureCoordinator::profile(const ProfileSettings &s)
{
    auto refuse = [this](const QString &why) {
        m_dock->setStatus(tr("Not profiled: %1").arg(why));
        message(tr("Not profiled: %1").arg(why));
        return false;
    };
    if (m_process)
        return refuse(tr("a program is already being profiled (Stop it first)"));
    if (const QString problem = s.problem(); !problem.isEmpty())
        return refuse(problem);
    if (m_recorder.joinable())
        m_recorder.join();

    std::vector<std::string> command{s.program.toStdString()};
    for (const QString &a : s.arguments)
        command.push_back(a.toStdString());
    CaptureContents contents;
    contents.all = s.contents == ProfileSettings::Contents::All;
    if (contents.all)
        contents.budget = s.budgetBytes;
    if (s.contents == ProfileSettings::Contents::Kernels)
        for (const QString &k : s.kernels)
            contents.kernels.push_back(k.toStdString());
    QDir().mkpath(QFileInfo(s.output).absolutePath());
    try {
        const std::string layer = findCaptureLayer(QCoreApplication::applicationDirPath().toStdString());
        m_recording =
            std::make_shared<CaptureRecording>(s.output.toStdString(), layer, joinCommandLine(command),
                                               contents, CaptureTimestamps{s.timestampEvery});
        m_recording->createFile(); // before the program: the timeline opens the file while it runs
    } catch (const std::exception &e) {
        return refuse(qs(e.what()));
    }

    // The program sees OpenCL as the user's machine has it, not as this process arranged it for itself.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const std::string &own : ownVariables())
        env.remove(qs(own));
    for (const QString &line : s.environment) {
        const int eq = int(line.indexOf(u'='));
        env.insert(line.left(eq), line.mid(eq + 1));
    }
    for (const CaptureRecording::Variable &v :
         m_recording->environment(env.value(QStringLiteral("OPENCL_LAYERS")).toStdString())) {
        const QString name = qs(v.name);
        if (!v.value)
            env.remove(name);
        else if (v.overwrite || !env.contains(name))
            env.insert(name, qs(*v.value));
    }
    m_process = new QProcess(this);
    m_process->setProgram(s.program);
    m_process->setArguments(s.arguments);
    if (!s.workingFolder.isEmpty())
        m_process->setWorkingDirectory(s.workingFolder);
    m_process->setProcessEnvironment(env);
    const int fd = m_recording->programFd();
    // The program inherits its end of the stream (created close-on-exec, so nothing else does).
    m_process->setChildProcessModifier([fd] { ::fcntl(fd, F_SETFD, 0); });
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] {
        m_dock->appendConsole(QString::fromLocal8Bit(m_process->readAllStandardOutput()), false);
    });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_dock->appendConsole(QString::fromLocal8Bit(m_process->readAllStandardError()), true);
    });
    connect(m_process, &QProcess::finished, this, &CaptureCoordinator::onProcessFinished);
    m_dock->clearConsole();
    m_dock->clearReplays();
    m_process->start();
    if (!m_process->waitForStarted(5000)) {
        const QString why = m_process->errorString();
        delete m_process;
        m_process = nullptr;
        m_recording.reset(); // the capture file that was there stays as it was
        return refuse(tr("cannot start %1: %2").arg(s.program, why));
    }
    m_recording->programStarted();
    // The capture is written beside the output and renamed into place at the end: followed live there.
    m_path = qs(m_recording->writingPath());
    m_opened = false;
    m_exited = std::make_shared<std::atomic<bool>>(false);
    m_exitStatus = {};
    // The recorder: the stream into the file until the program and its children close it, then the end.
    m_recorder = std::thread([rec = m_recording, exited = m_exited, status = m_exitStatus.get_future(),
                              self = QPointer<CaptureCoordinator>(this)]() mutable {
        rec->record(*exited);
        rec->finish(status.get());
        QMetaObject::invokeMethod(
            qApp,
            [self] {
                if (self)
                    self->onRecorderDone();
            },
            Qt::QueuedConnection);
    });
    m_dock->setStatus(
        tr("Profiling %1 (pid %2)…").arg(QFileInfo(s.program).fileName()).arg(m_process->processId()));
    m_timeline->setLaunchActionsEnabled(true);
    m_refresh->start();
    message(tr("Profiling %1; the capture goes to %2").arg(s.program, s.output));
    return true;
}

void CaptureCoordinator::stop()
{
    if (!m_process)
        return;
    m_dock->setStatus(tr("Stopping the program…"));
    m_process->terminate();
    QPointer<QProcess> p = m_process;
    QTimer::singleShot(3000, this, [p] {
        if (p && p->state() != QProcess::NotRunning)
            p->kill();
    });
}

void CaptureCoordinator::onProcessFinished(int exitCode, QProcess::ExitStatus status)
{
    const int exit = status == QProcess::CrashExit ? 128 + SIGTERM : exitCode;
    m_dock->appendConsole(QString::fromLocal8Bit(m_process->readAllStandardOutput()), false);
    m_dock->appendConsole(QString::fromLocal8Bit(m_process->readAllStandardError()), true);
    m_lastExit = exit;
    m_exited->store(true);
    m_exitStatus.set_value(exit);
    m_process->deleteLater();
    m_process = nullptr;
    m_dock->setStatus(status == QProcess::CrashExit
                          ? tr("The program was stopped or crashed; finishing the capture…")
                          : tr("The program exited with status %1; finishing the capture…").arg(exitCode));
}

void CaptureCoordinator::onRecorderDone()
{
    if (m_recorder.joinable())
        m_recorder.join();
    const QString error = m_recording ? qs(m_recording->error()) : QString();
    if (m_recording)
        m_path = qs(m_recording->output());
    m_recording.reset();
    m_refresh->stop();
    requestRead();
    m_dock->setStatus(error.isEmpty() ? tr("Capture written to %1").arg(m_path)
                                      : tr("The capture stopped early: %1").arg(error));
    emit profileFinished(m_lastExit.value_or(-1));
}

void CaptureCoordinator::openCapture(const QString &path)
{
    if (m_process) {
        message(tr("A program is being profiled: stop it before opening another capture"));
        return;
    }
    m_path = path;
    m_opened = true;
    m_dock->clearReplays();
    m_dock->clearConsole();
    m_dock->setStatus(tr("Reading %1…").arg(path));
    m_timeline->setLaunchActionsEnabled(true);
    requestRead();
}

void CaptureCoordinator::requestRead()
{
    if (m_path.isEmpty())
        return;
    if (m_reading) {
        m_readAgain = true; // one more read after this one: the latest state is never skipped
        return;
    }
    m_reading = true;
    const QString path = m_path;
    m_workers->deviceless().submit<std::shared_ptr<CaptureSnapshot>>(
        QStringLiteral("capture-read"),
        [path](const CancelToken &, const Progress &) {
            return std::make_shared<CaptureSnapshot>(readCapture(path));
        },
        this,
        [this](std::shared_ptr<CaptureSnapshot> s) {
            m_reading = false;
            if (s->path == m_path)
                showSnapshot(std::move(*s));
            if (std::exchange(m_readAgain, false))
                requestRead();
        });
}

void CaptureCoordinator::showSnapshot(CaptureSnapshot s)
{
    const bool live = m_process != nullptr || m_recording != nullptr;
    const CaptureDock::State state = live       ? CaptureDock::State::Live
                                     : m_opened ? CaptureDock::State::Opened
                                                : CaptureDock::State::Finished;
    m_dock->setSnapshot(s, state);
    if (s.error.isEmpty()) {
        // The timeline: the program's commands on its devices' queues, its API calls on host lanes by thread,
        // and its live device memory under them.
        std::vector<PoolSeriesPoint> memory = summedMemory(s.memory);
        m_timeline->setRecords(s.records, std::move(memory));
        m_timeline->timeline()->setCounterTitle(tr("Device memory"));
        if (!live && s.summary.apiCalls > 0) // else the panel says why there is nothing
            m_dock->setStatus(state == CaptureDock::State::Opened ? tr("Opened %1").arg(s.path)
                                                                  : tr("Capture written to %1").arg(s.path));
    } else {
        m_dock->setStatus(tr("Cannot read the capture: %1").arg(s.error));
        message(tr("Cannot read %1: %2").arg(s.path, s.error));
    }
    m_snapshot = std::move(s);
    ++m_snapshots;
    emit snapshotShown();
}

} // namespace clscope::ui
