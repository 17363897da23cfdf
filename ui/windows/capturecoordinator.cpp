// Profile application, open capture, and a captured launch into the workbench.
#include "capturecoordinator.h"

#include "buildcoordinator.h"
#include "clscope/loaderenv.h"
#include "controllers/buildcontroller.h"
#include "controllers/devicemanager.h"
#include "display/recordformat.h"
#include "models/eventtablemodel.h"
#include "widgets/argumentspanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/profiledialog.h"
#include "widgets/resultsviewer.h"
#include "widgets/timelinewidget.h"
#include "workers/deviceworkers.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

#include <fcntl.h>
#include <sys/wait.h>

namespace clscope::ui {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Where Open in workbench keeps a launch's contents: .npy files the Arguments panel reads.
QString contentsFolder(const QString &capture, qint64 launch)
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    return QDir(base).filePath(
        QStringLiteral("replay/%1-launch%2").arg(QFileInfo(capture).completeBaseName()).arg(launch));
}

// replayBlocker's reason, with the Profile application choice that keeps what the launch lacks.
QString whyNot(const CapturedLaunch &l)
{
    QString why = qs(replayBlocker(l));
    if (l.programKind == "binary")
        why += QObject::tr(" (any Keep buffer contents choice of File → Profile application… sets "
                           "PYOPENCL_NO_CACHE=1; for other programs, capture where they build from source)");
    if (why.contains(QStringLiteral("contents were not captured")))
        why += QObject::tr(" (in File → Profile application…, Keep buffer contents: \u201cLaunches of these "
                           "kernels\u201d with %1, or \u201cEvery launch\u201d)")
                   .arg(qs(l.kernel));
    return why;
}

} // namespace

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
        m_recording = std::make_shared<CaptureRecording>(s.output.toStdString(), layer,
                                                         joinCommandLine(command), contents);
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
        m_recording.reset();
        QFile::remove(s.output);
        return refuse(tr("cannot start %1: %2").arg(s.program, why));
    }
    m_recording->programStarted();
    m_path = s.output;
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

void CaptureCoordinator::onLaunchAction(qint64 launch, const QString &kernel,
                                        TimelineDock::LaunchAction action)
{
    if (launch < 0) {
        // A kernel's statistics row: its first launch with contents, else its first.
        for (std::size_t i = 0; i < m_snapshot.commandCount; ++i) {
            const CommandRecord &r = (*m_snapshot.records)[i];
            if (r.launch < 0 || qs(r.name) != kernel)
                continue;
            if (launch < 0)
                launch = r.launch;
            if (m_snapshot.launchesWithContents.count(r.launch)) {
                launch = r.launch;
                break;
            }
        }
        if (launch < 0)
            return;
    }
    m_dock->setCurrentLaunch(launch, kernel);
    switch (action) {
    case TimelineDock::LaunchAction::OpenInWorkbench:
        openInWorkbench(launch);
        break;
    case TimelineDock::LaunchAction::ReplayOnEveryDevice:
        replayOnEveryDevice(launch);
        break;
    case TimelineDock::LaunchAction::ExportPyopencl:
        exportPyopencl(launch);
        break;
    }
}

void CaptureCoordinator::withLaunch(qint64 launch,
                                    std::function<void(std::shared_ptr<const CapturedLaunch>)> then)
{
    if (m_path.isEmpty())
        return;
    const QString path = m_path;
    using Result = std::pair<std::shared_ptr<const CapturedLaunch>, QString>;
    m_workers->deviceless().submit<std::shared_ptr<Result>>(
        QStringLiteral("capture-launch"),
        [path, launch](const CancelToken &, const Progress &) {
            auto r = std::make_shared<Result>();
            try {
                r->first =
                    std::make_shared<const CapturedLaunch>(CaptureReader(path.toStdString()).launch(launch));
            } catch (const std::exception &e) {
                r->second = qs(e.what());
            }
            return r;
        },
        this,
        [this, then = std::move(then)](std::shared_ptr<Result> r) {
            if (!r->second.isEmpty()) {
                m_dock->showLaunchProblem(r->second);
                message(r->second);
                return;
            }
            then(r->first);
        });
}

void CaptureCoordinator::openInWorkbench(qint64 launch)
{
    withLaunch(launch, [this](std::shared_ptr<const CapturedLaunch> l) {
        m_dock->showLaunchProblem({});
        m_results->setExpected({}, {});
        if (l->programKind != "source") {
            const QString why = whyNot(*l);
            m_dock->showLaunchProblem(why);
            message(why);
            emit launchBound(l->index, why);
            return;
        }
        QString text;
        for (const std::string &src : l->sources)
            text += qs(src);
        m_editors->newDocument(tr("%1 (launch %2).cl").arg(qs(l->kernel)).arg(l->index), text);
        m_builds->optionsBox()->setCurrentText(qs(l->options));
        if (!replayBlocker(*l).empty()) {
            // The source is there to read and change; what the arguments lack is said, with the option.
            const QString why =
                tr("%1. The source is open in the editor; its arguments are not bound.").arg(whyNot(*l));
            m_dock->showLaunchProblem(why);
            message(why);
            emit launchBound(l->index, why);
            return;
        }
        m_pending = l;
        message(tr("Building launch %1 (%2) to bind its arguments…").arg(l->index).arg(qs(l->kernel)));
        m_builds->buildThen([this, l] { bindLaunch(l); },
                            [this, l](const QString &why) {
                                if (m_pending == l)
                                    m_pending.reset();
                                const QString text =
                                    tr("Launch %1 is open but not bound: %2").arg(l->index).arg(why);
                                m_dock->showLaunchProblem(text);
                                message(text);
                                emit launchBound(l->index, text);
                            });
    });
}

void CaptureCoordinator::bindLaunch(std::shared_ptr<const CapturedLaunch> l)
{
    if (m_pending != l)
        return; // another launch was opened since
    m_pending.reset();
    const BuildResult &build = m_builds->controller()->lastResult();
    const KernelInfo *info = build.kernel(l->kernel);
    if (!info) {
        const QString why = tr("the program built here has no kernel %1").arg(qs(l->kernel));
        m_dock->showLaunchProblem(why);
        emit launchBound(l->index, why);
        return;
    }
    const std::vector<KernelArg> args = info->args;
    const QString dir = contentsFolder(m_path, l->index);
    using Result = std::pair<std::shared_ptr<WorkbenchLaunch>, QString>;
    // The contents go to files on the worker: they can be hundreds of megabytes.
    m_workers->deviceless().submit<std::shared_ptr<Result>>(
        QStringLiteral("capture-bind"),
        [l, args, dir](const CancelToken &, const Progress &) {
            auto r = std::make_shared<Result>();
            try {
                r->first = std::make_shared<WorkbenchLaunch>(workbenchLaunch(*l, args, dir.toStdString()));
            } catch (const std::exception &e) {
                r->second = qs(e.what());
            }
            return r;
        },
        this,
        [this, l](std::shared_ptr<Result> r) {
            QString problem = r->second;
            if (problem.isEmpty()) {
                const WorkbenchLaunch &w = *r->first;
                m_arguments->setCurrentKernel(qs(w.kernel));
                QStringList errors;
                for (const std::string &spec : w.args) {
                    QString error;
                    if (!m_arguments->applySpec(qs(spec), &error))
                        errors << error;
                }
                m_arguments->setRange(qs(w.global), qs(w.local), qs(w.offset));
                m_arguments->setRepeat(1);
                std::vector<ResultsViewer::Expected> expected;
                for (const WorkbenchLaunch::Expected &e : w.expected) {
                    m_arguments->setReadBack(qs(e.buffer), true);
                    expected.push_back({qs(e.buffer), qs(e.path), e.written});
                }
                m_results->setExpected(std::move(expected),
                                       tr("Captured launch %1 (%2)").arg(l->index).arg(qs(l->kernel)));
                problem = errors.join(QStringLiteral("; "));
            }
            if (problem.isEmpty()) {
                m_bound = l->index;
                m_dock->showLaunchProblem({});
                message(
                    tr("Launch %1 (%2) is in the workbench: F5 runs it and compares with the captured result")
                        .arg(l->index)
                        .arg(qs(l->kernel)),
                    15000);
            } else {
                m_dock->showLaunchProblem(problem);
                message(problem);
            }
            emit launchBound(l->index, problem);
        });
}

void CaptureCoordinator::replayOnEveryDevice(qint64 launch)
{
    withLaunch(launch, [this](std::shared_ptr<const CapturedLaunch> l) {
        m_dock->clearReplays();
        m_dock->showTab(tr("Replay"));
        if (!replayBlocker(*l).empty()) {
            m_dock->showLaunchProblem(whyNot(*l));
            emit replayFinished(l->index, 0);
            return;
        }
        const SnapshotPtr snapshot = m_devices->snapshot();
        if (!snapshot)
            return;
        auto remaining = std::make_shared<int>(0);
        for (const auto &p : snapshot->platforms)
            *remaining += int(p.devices.size());
        const int total = *remaining;
        for (const auto &p : snapshot->platforms) {
            for (const auto &d : p.devices) {
                const QString name = qs(d.name()) + QStringLiteral(" — ") + qs(p.name());
                using Result = std::pair<std::optional<ReplayResult>, QString>;
                cl_device_id id = d.id;
                m_workers->forDevice(id).submit<std::shared_ptr<Result>>(
                    QStringLiteral("replay-%1").arg(l->index),
                    [l, id](const CancelToken &, const Progress &) {
                        auto r = std::make_shared<Result>();
                        try {
                            r->first = replayLaunch(*l, id);
                        } catch (const std::exception &e) {
                            r->second = qs(e.what());
                        }
                        return r;
                    },
                    this,
                    [this, name, remaining, total, index = l->index](std::shared_ptr<Result> r) {
                        if (!r->first) {
                            m_dock->addReplay(name, QString(), r->second, false);
                        } else {
                            const ReplayResult &res = *r->first;
                            QString verdict = res.equal() ? tr("equal") : QString();
                            for (const ReplayOutput &o : res.outputs) {
                                if (o.equal)
                                    continue;
                                verdict +=
                                    tr("%1 differs at element %2 (expected %3, got %4) ")
                                        .arg(o.name.empty() ? tr("argument %1").arg(o.arg) : qs(o.name))
                                        .arg(o.firstDifference.value_or(0))
                                        .arg(o.expected)
                                        .arg(o.actual);
                            }
                            if (res.outputs.empty())
                                verdict = tr("ran (no captured result to compare)");
                            m_dock->addReplay(name, durationText(double(res.durationNs)), verdict.trimmed(),
                                              res.equal());
                        }
                        if (--*remaining == 0)
                            emit replayFinished(index, total);
                    });
            }
        }
    });
}

void CaptureCoordinator::exportPyopencl(qint64 launch, const QString &directory)
{
    QString dir = directory;
    if (dir.isEmpty()) {
        dir = QFileDialog::getSaveFileName(nullptr, tr("Export launch %1 as a pyopencl script").arg(launch),
                                           QDir::home().filePath(QStringLiteral("launch%1").arg(launch)),
                                           tr("Folder (*)"), nullptr, QFileDialog::ShowDirsOnly);
        if (dir.isEmpty())
            return;
    }
    withLaunch(launch, [this, dir](std::shared_ptr<const CapturedLaunch> l) {
        m_workers->deviceless().submit<QString>(
            QStringLiteral("capture-export"),
            [l, dir](const CancelToken &, const Progress &) {
                try {
                    clscope::exportPyopencl(*l, dir.toStdString());
                    return QString();
                } catch (const std::exception &e) {
                    return qs(e.what());
                }
            },
            this,
            [this, dir](QString error) {
                if (error.isEmpty())
                    message(tr("Exported to %1: python3 %1/replay.py").arg(dir), 15000);
                else {
                    m_dock->showLaunchProblem(error);
                    message(error);
                }
                emit exportFinished(dir, error);
            });
    });
}

bool CaptureCoordinator::openProgram(int index, bool copy)
{
    if (index < 0 || std::size_t(index) >= m_snapshot.programs.size())
        return false;
    const CapturedProgram &p = m_snapshot.programs[std::size_t(index)];
    if (p.kind != "source")
        return false;
    QString text;
    for (const std::string &s : p.sources)
        text += qs(s);
    const QString name = p.kernels.empty() ? tr("program %1").arg(p.id) : qs(p.kernels.front());
    m_editors->newDocument(copy ? tr("%1 (copy).cl").arg(name) : tr("%1 (captured, read-only).cl").arg(name),
                           text, !copy);
    if (copy && !p.builds.empty())
        m_builds->optionsBox()->setCurrentText(qs(p.builds.back().options));
    return true;
}

} // namespace clscope::ui
