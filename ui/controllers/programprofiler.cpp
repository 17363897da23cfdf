// The profiled program and its recorder (programprofiler.h).
#include "programprofiler.h"

#include "capturesession.h"
#include "clscope/loaderenv.h"
#include "display/stdstring.h"
#include "workers/deviceworker.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>

#include <csignal>
#include <fcntl.h>

namespace clscope::ui {

ProgramProfiler::ProgramProfiler(CaptureSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_recorder(std::make_unique<DeviceWorker>(QStringLiteral("recorder")))
{
    setObjectName(QStringLiteral("programProfiler"));
}

ProgramProfiler::~ProgramProfiler()
{
    if (m_process) {
        // The window closes while the program runs: it ends (SIGKILL: QProcess reaps it at once), and the
        // recorder with it.
        m_process->disconnect(this);
        m_process->kill();
    }
    if (m_recording && m_exited) {
        m_exited->store(true);
        m_recording->stop();
        if (!m_exitGiven)
            m_exitStatus->set_value(m_lastExit);
    }
    // The recorder's thread finishes the file (its shutdown waits a bounded time).
}

QString ProgramProfiler::profile(const ProfileSettings &s)
{
    if (m_recording)
        return tr("a program is already being profiled (Stop it first)");
    if (const QString problem = s.problem(); !problem.isEmpty())
        return problem;

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
    std::shared_ptr<CaptureRecording> recording;
    try {
        const std::string layer = findCaptureLayer(QCoreApplication::applicationDirPath().toStdString());
        recording =
            std::make_shared<CaptureRecording>(s.output.toStdString(), layer, joinCommandLine(command),
                                               contents, CaptureTimestamps{s.timestampEvery});
        recording->createFile(); // before the program: the views open the file while it runs
    } catch (const std::exception &e) {
        return qs(e.what());
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
         recording->environment(env.value(QStringLiteral("OPENCL_LAYERS")).toStdString())) {
        const QString name = qs(v.name);
        if (!v.value)
            env.remove(name);
        else if (v.overwrite || !env.contains(name))
            env.insert(name, qs(*v.value));
    }
    m_recording = std::move(recording);
    m_program = s.program;
    m_lastExit.reset();
    m_process = new QProcess(this);
    m_process->setProgram(s.program);
    m_process->setArguments(s.arguments);
    if (!s.workingFolder.isEmpty())
        m_process->setWorkingDirectory(s.workingFolder);
    m_process->setProcessEnvironment(env);
    const int fd = m_recording->programFd();
    // The program inherits its end of the stream (created close-on-exec, so nothing else does).
    m_process->setChildProcessModifier([fd] { ::fcntl(fd, F_SETFD, 0); });
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { emit output(QString::fromLocal8Bit(m_process->readAllStandardOutput()), false); });
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { emit output(QString::fromLocal8Bit(m_process->readAllStandardError()), true); });
    connect(m_process, &QProcess::started, this, &ProgramProfiler::onStarted);
    connect(m_process, &QProcess::errorOccurred, this, &ProgramProfiler::onError);
    connect(m_process, &QProcess::finished, this, &ProgramProfiler::onProcessFinished);
    m_process->start();
    return {};
}

void ProgramProfiler::onStarted()
{
    m_recording->programStarted();
    // The capture is written beside the output and renamed into place at the end: followed live there.
    m_session->follow(qs(m_recording->writingPath()));
    m_exited = std::make_shared<std::atomic<bool>>(false);
    m_exitStatus = std::make_shared<std::promise<std::optional<int>>>();
    m_exitGiven = false;
    // The recorder: the stream into the file until the program and its children close it, then the end
    // with the exit status (which the program's end gives, on this thread).
    m_recorder->submit<QString>(
        QStringLiteral("record"),
        [rec = m_recording, exited = m_exited,
         status = m_exitStatus->get_future().share()](const CancelToken &, const Progress &) {
            rec->record(*exited);
            rec->finish(status.get());
            return qs(rec->error());
        },
        this, [this](QString error) { onRecorderDone(error); });
    emit started(m_program, m_process->processId());
}

void ProgramProfiler::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_process)
        return;
    const QString why = tr("cannot start %1: %2").arg(m_program, m_process->errorString());
    m_process->deleteLater();
    m_process = nullptr;
    m_recording.reset(); // the capture file that was there stays as it was
    emit failedToStart(why);
}

void ProgramProfiler::stop()
{
    if (!m_process)
        return;
    m_process->terminate();
    QPointer<QProcess> p = m_process;
    QTimer::singleShot(3000, this, [p] {
        if (p && p->state() != QProcess::NotRunning)
            p->kill();
    });
}

void ProgramProfiler::onProcessFinished(int exitCode, QProcess::ExitStatus status)
{
    const bool crashed = status == QProcess::CrashExit;
    const int exit = crashed ? 128 + SIGTERM : exitCode;
    emit output(QString::fromLocal8Bit(m_process->readAllStandardOutput()), false);
    emit output(QString::fromLocal8Bit(m_process->readAllStandardError()), true);
    m_lastExit = exit;
    if (m_exited) {
        m_exited->store(true);
        m_exitStatus->set_value(exit);
        m_exitGiven = true;
    }
    m_process->deleteLater();
    m_process = nullptr;
    emit programEnded(exit, crashed);
}

void ProgramProfiler::onRecorderDone(const QString &error)
{
    const QString path = m_recording ? qs(m_recording->output()) : QString();
    m_recording.reset();
    m_session->finish(path);
    emit finished(path, m_lastExit.value_or(-1), error);
}

} // namespace clscope::ui
