// What a captured launch offers (the Capture panel's and the timeline's launch actions): open in the
// workbench (sources in an editor tab, arguments bound from the captured contents once the build is done),
// replay on every device, export as a pyopencl script, and a captured program's sources in a tab.
#include "capturecoordinator.h"
#include "display/stdstring.h"

#include "controllers/devicemanager.h"
#include "controllers/workbench.h"
#include "display/recordformat.h"
#include "widgets/editortabs.h"
#include "widgets/resultsviewer.h"
#include "workers/deviceworkers.h"

#include "clscope/devicespec.h"
#include "clscope/programsource.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>

namespace clscope::ui {

namespace {

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
    if (parseProgramKind(l.programKind) == ProgramKind::Binary)
        why += QObject::tr(" (any Keep buffer contents choice of File → Profile application… sets "
                           "PYOPENCL_NO_CACHE=1; for other programs, capture where they build from source)");
    if (why.contains(QStringLiteral("contents were not captured")))
        why += QObject::tr(" (in File → Profile application…, Keep buffer contents: \u201cLaunches of these "
                           "kernels\u201d with %1, or \u201cEvery launch\u201d)")
                   .arg(qs(l.kernel));
    return why;
}

} // namespace

void CaptureCoordinator::onLaunchAction(qint64 launch, const QString &kernel,
                                        TimelineDock::LaunchAction action)
{
    if (launch < 0) {
        // A kernel's statistics row: its first launch with contents, else its first.
        const CaptureData &d = m_session->data();
        for (const CommandRecord &r : *d.records) {
            if (r.hostSpan || r.launch < 0 || qs(r.name) != kernel)
                continue;
            if (launch < 0)
                launch = r.launch;
            if (d.launchesWithContents.count(r.launch)) {
                launch = r.launch;
                break;
            }
        }
        if (launch < 0)
            return;
    }
    m_session->selectLaunch(launch, kernel);
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
    case TimelineDock::LaunchAction::Debug:
        debugLaunch(launch);
        break;
    }
}

void CaptureCoordinator::withLaunch(qint64 launch,
                                    std::function<void(std::shared_ptr<const CapturedLaunch>)> then)
{
    m_session->withLaunch(
        launch, this,
        [this, then = std::move(then)](std::shared_ptr<const CapturedLaunch> l, const QString &error) {
            if (!error.isEmpty()) {
                m_dock->showLaunchProblem(error);
                message(error);
                return;
            }
            then(std::move(l));
        });
}

void CaptureCoordinator::openInWorkbench(qint64 launch)
{
    withLaunch(launch, [this](std::shared_ptr<const CapturedLaunch> l) {
        m_dock->showLaunchProblem({});
        m_results->setExpected({}, {});
        if (parseProgramKind(l->programKind) != ProgramKind::Source) {
            const QString why = whyNot(*l);
            m_dock->showLaunchProblem(why);
            message(why);
            emit launchBound(l->index, why);
            return;
        }
        QString text;
        for (const std::string &src : l->sources)
            text += qs(src);
        // The launch's options belong to its tab: they build it and no other program.
        const int tab =
            m_editors->newDocument(tr("%1 (launch %2).cl").arg(qs(l->kernel)).arg(l->index), text);
        m_editors->setBuildOptions(qs(l->options), tab);
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
        m_workbench->builder()->buildThen(
            [this, l] { bindLaunch(l); },
            [this, l](const QString &why) {
                if (m_pending == l)
                    m_pending.reset();
                const QString text = tr("Launch %1 is open but not bound: %2").arg(l->index).arg(why);
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
    const BuildResult &build = m_workbench->program().result;
    const KernelInfo *info = build.kernel(l->kernel);
    if (!info) {
        const QString why = tr("the program built here has no kernel %1").arg(qs(l->kernel));
        m_dock->showLaunchProblem(why);
        emit launchBound(l->index, why);
        return;
    }
    const std::vector<KernelArg> args = info->args;
    const QString dir = contentsFolder(m_session->path(), l->index);
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
                // The workbench's launch view opens it (kernel, arguments, range, the captured buffers read
                // back); the results viewer compares the run with what the capture wrote.
                ArgumentsState open;
                open.kernel = qs(w.kernel);
                for (const std::string &spec : w.args)
                    open.specs << qs(spec);
                open.global = qs(w.global);
                open.local = qs(w.local);
                open.offset = qs(w.offset);
                open.repeat = 1;
                std::vector<ResultsViewer::Expected> expected;
                for (const WorkbenchLaunch::Expected &e : w.expected) {
                    open.readBack << qs(e.buffer);
                    expected.push_back({qs(e.buffer), qs(e.path), e.written});
                }
                const QStringList errors = m_workbench->openLaunch(open);
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
        const std::vector<DeviceCandidate> devices = deviceCandidates(*snapshot);
        auto remaining = std::make_shared<int>(int(devices.size()));
        const int total = *remaining;
        for (const DeviceCandidate &device : devices) {
            const QString name = qs(candidateLabel(device));
            using Result = std::pair<std::optional<ReplayResult>, QString>;
            cl_device_id id = device.id;
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
                        for (const ReplayOutput &o : res.outputs) {
                            if (!o.equal && o.firstDifference)
                                m_dock->setFirstDifference(
                                    index, QStringLiteral("%1[%2]").arg(o.arg).arg(*o.firstDifference));
                        }
                        // The CLI's words (replayVerdict in core), so a row reads as `clscope-cli replay`
                        // says.
                        m_dock->addReplay(name, durationText(double(res.durationNs)), qs(replayVerdict(res)),
                                          res.equal());
                    }
                    if (--*remaining == 0)
                        emit replayFinished(index, total);
                });
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

void CaptureCoordinator::debugLaunch(qint64 launch, const QString &watch)
{
    withLaunch(launch, [this, watch](std::shared_ptr<const CapturedLaunch> l) {
        if (const std::string why = replayBlocker(*l); !why.empty()) {
            message(tr("Launch %1 cannot be debugged: %2").arg(l->index).arg(whyNot(*l)), 15000);
            return;
        }
        // Its program: the first of the capture's with the same sources.
        for (std::size_t i = 0; i < m_session->data().programs.size(); ++i) {
            const CapturedProgram &p = m_session->data().programs[i];
            if (p.kind == "source" && p.sources == l->sources) {
                emit debugRequested(l->index, qs(l->kernel), int(i), watch);
                return;
            }
        }
        message(tr("Launch %1's program has no sources in the capture to debug").arg(l->index), 15000);
    });
}

KernelEditor *CaptureCoordinator::openProgram(int index, bool copy)
{
    if (index < 0 || std::size_t(index) >= m_session->data().programs.size())
        return nullptr;
    const CapturedProgram &p = m_session->data().programs[std::size_t(index)];
    if (p.kind != "source")
        return nullptr;
    QString text;
    for (const std::string &s : p.sources)
        text += qs(s);
    const QString name = p.kernels.empty() ? tr("program %1").arg(p.id) : qs(p.kernels.front());
    const int tab = m_editors->newDocument(
        copy ? tr("%1 (copy).cl").arg(name) : tr("%1 (captured, read-only).cl").arg(name), text, !copy);
    if (!p.builds.empty())
        m_editors->setBuildOptions(qs(p.builds.back().options), tab);
    return m_editors->editor(tab);
}

} // namespace clscope::ui
