// The memory check flow: panel -> session (device-less worker) -> child (QProcess) -> report (worker) ->
// diagnostics.
#include "checkcoordinator.h"

#include "controllers/workbench.h"
#include "files/safewrite.h"
#include "widgets/kerneleditor.h"
#include "workers/deviceworkers.h"

#include "clscope/fileio.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStatusBar>
#include <QTimer>

#include <filesystem>
#include <optional>

namespace clscope::ui {

namespace {

struct Outcome
{
    std::optional<CheckChildResult> result;
    QString error; // the check could not run at all
};

// The checked child's stdout or stderr, in the session's folder; what went wrong instead when it cannot be
// read (it is shown where the output would be).
std::string readAll(const std::filesystem::path &path)
{
    try {
        return readRegularFile(path, kMaxDocumentBytes);
    } catch (const FileError &e) {
        return std::string(e.what()) + '\n';
    }
}

// "... (vector_add, Global(8,0,0) Local(0,0,0) Group(1,0,0); 24 work-items)".
std::string describe(const CheckDiagnostic &d)
{
    std::string text = d.diagnostic.message;
    // An invalid access names its first work-item and how many more itself (and its buffer when known).
    if (d.kind == CheckKind::InvalidRead || d.kind == CheckKind::InvalidWrite)
        return d.kernel.empty() ? text : text + " (" + d.kernel + ")";
    std::string where = d.kernel;
    if (!d.sites.empty() && !d.sites.front().entity.empty())
        where += (where.empty() ? "" : ", ") + d.sites.front().entity;
    if (d.occurrences > 1)
        where += (where.empty() ? "" : "; ") + std::to_string(d.occurrences) + " reports";
    if (!where.empty())
        text += " (" + where + ")";
    return text;
}

std::string firstLine(const std::string &text)
{
    const auto end = text.find('\n');
    return text.substr(0, end);
}
} // namespace

CheckOutcomeView viewOfCheck(const CheckChildResult &result)
{
    CheckOutcomeView view;
    for (const CheckDiagnostic &d : result.report.diagnostics) {
        Diagnostic shown = d.diagnostic;
        shown.message = describe(d);
        view.diagnostics.push_back(std::move(shown));
    }
    const auto errors = result.report.errorCount();
    if (result.exitCode == 0 || result.exitCode == 3) {
        if (errors == 0)
            view.summary = QCoreApplication::translate("CheckCoordinator", "Memory check (Oclgrind): clean");
        else if (errors == 1)
            view.summary =
                QCoreApplication::translate("CheckCoordinator", "Memory check (Oclgrind): 1 error");
        else
            view.summary =
                QCoreApplication::translate("CheckCoordinator", "Memory check (Oclgrind): %1 errors")
                    .arg(errors);
        return view;
    }
    // The run itself failed under Oclgrind: its stderr has the one line that says why.
    QString why = QString::fromStdString(firstLine(result.err)).trimmed();
    if (why.startsWith(QLatin1String("clscope-cli: ")))
        why = why.mid(13);
    if (why.isEmpty())
        why = result.signal
                  ? QCoreApplication::translate("CheckCoordinator", "the checked run ended by signal %1")
                        .arg(result.signal)
                  : QCoreApplication::translate("CheckCoordinator", "the checked run exited with %1")
                        .arg(result.exitCode);
    view.summary = QCoreApplication::translate("CheckCoordinator", "Memory check failed: %1").arg(why);
    return view;
}

struct CheckCoordinator::Prepared
{
    std::shared_ptr<const CheckSession> session;
    std::vector<std::string> args;
    CheckSources sources;
    QString error; // the session could not be made
};

CheckCoordinator::CheckCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench,
                                   QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_workbench(workbench)
    , m_statusBar(statusBar)
    , m_action(new QAction(tr("Run with &memory check"), this))
    , m_cli(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("clscope-cli")))
{
    setObjectName(QStringLiteral("checkCoordinator"));
    m_action->setObjectName(QStringLiteral("memoryCheckAction"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    m_action->setToolTip(
        tr("Run the kernel on Oclgrind with its checks on: out-of-bounds accesses, data races, "
           "uninitialised values and barrier divergence appear at their lines (Ctrl+F5)"));
    connect(m_action, &QAction::triggered, this, &CheckCoordinator::checkCurrent);
}

bool CheckCoordinator::checkCurrent()
{
    QString error;
    auto request = m_workbench->launchView()->makeRequest(&error);
    if (!request) {
        m_statusBar->showMessage(tr("Cannot check: %1").arg(error), 10000);
        emit checkFailed(error);
        return false;
    }
    // The child builds one file: a program of several tabs (Build → Build open tabs as one program) would
    // lose all but its first there, and its reports would name the session's copies, not the tabs.
    const WorkbenchProgram &built = m_workbench->program();
    if (!built.more.isEmpty()) {
        const QString why = tr("the memory check runs a program of one tab; turn off Build > Build open tabs "
                               "as one program and build again");
        m_statusBar->showMessage(tr("Cannot check: %1").arg(why), 10000);
        emit checkFailed(why);
        return false;
    }
    // The text of the built editor (what the user sees), written into the session's folder; headers are
    // still found next to the user's file through -I.
    const KernelEditor *editor = qobject_cast<const KernelEditor *>(built.editor.data());
    const QString userPath = built.path;
    const std::string source = editor ? editor->text().toStdString() : std::string();
    if (!editor && userPath.isEmpty()) {
        m_statusBar->showMessage(tr("Cannot check: the built kernel's tab is closed"), 10000);
        emit checkFailed(tr("the built kernel's tab is closed"));
        return false;
    }
    // An unsaved buffer's reports name no file: they belong to its tab, not to the session's copy.
    const std::string shownName = userPath.toStdString();
    const std::string fileName =
        userPath.isEmpty() ? std::string("untitled.cl") : QFileInfo(userPath).fileName().toStdString();
    // The user's options, not the build's effective ones: the child's build adds Oclgrind's own defaults, its
    // source's folder and CLSCOPE_BUILD_OPTIONS itself.
    std::string options = request->build.userOptions();
    const QString folder = userPath.isEmpty() ? QString() : QFileInfo(userPath).absolutePath();
    if (!folder.isEmpty() && !folder.contains(u' '))
        options += (options.empty() ? "-I " : " -I ") + folder.toStdString();

    stopChild(); // a newer check supersedes one still running
    const JobGroup group = m_tag.newGroup();
    m_busy = true;
    m_action->setEnabled(true);
    m_statusBar->showMessage(
        tr("Checking %1 on Oclgrind (%2)…")
            .arg(QString::fromStdString(request->kernel), m_workbench->launchView()->rangeText()));

    std::vector<std::string> environment;
    for (const QString &entry : QProcessEnvironment::systemEnvironment().toStringList())
        environment.push_back(entry.toStdString());
    // The session's folder and the source file are made off the GUI thread, on the device-less worker.
    m_workers->deviceless().submit<std::shared_ptr<Prepared>>(
        group,
        [request = std::move(*request), environment, source, shownName, fileName,
         options](const CancelToken &, const Progress &) {
            auto prepared = std::make_shared<Prepared>();
            try {
                auto session = std::make_shared<const CheckSession>(environment);
                const std::filesystem::path file = session->directory() / fileName;
                if (const QString error = writeFileSafely(QString::fromStdString(file.string()),
                                                          QByteArray::fromStdString(source));
                    !error.isEmpty()) {
                    prepared->error =
                        QStringLiteral("cannot write %1: %2").arg(QString::fromStdString(file), error);
                    return prepared;
                }
                prepared->sources.sourceFile = shownName;
                prepared->sources.texts[shownName] = source;
                prepared->args = checkRunArguments(request, file.string(), options);
                prepared->session = std::move(session);
            } catch (const std::exception &e) {
                prepared->error = QString::fromStdString(e.what());
            }
            return prepared;
        },
        this,
        [this, group](std::shared_ptr<Prepared> prepared) {
            if (!prepared->session) {
                finish(std::nullopt, prepared->error);
                return;
            }
            startChild(group, prepared);
        });
    return true;
}

void CheckCoordinator::startChild(const JobGroup &group, const std::shared_ptr<Prepared> &prepared)
{
    const CheckSession &session = *prepared->session;
    auto *process = new QProcess(this);
    m_process = process;
    m_stopping = false;
    QStringList env;
    for (const std::string &e : session.environment())
        env << QString::fromStdString(e);
    process->setEnvironment(env);
    process->setStandardInputFile(QProcess::nullDevice());
    process->setStandardOutputFile(QString::fromStdString((session.directory() / "stdout").string()));
    process->setStandardErrorFile(QString::fromStdString((session.directory() / "stderr").string()));
    m_lastArgs = prepared->args;
    QStringList args;
    for (const std::string &a : prepared->args)
        args << QString::fromStdString(a);
    connect(process, &QProcess::finished, this,
            [this, process, group, prepared](int exitCode, QProcess::ExitStatus status) {
                process->deleteLater();
                if (m_process == process)
                    m_process = nullptr;
                if (group.isCurrent())
                    collect(group, prepared, exitCode, status == QProcess::CrashExit);
            });
    connect(process, &QProcess::errorOccurred, this,
            [this, process, group, prepared](QProcess::ProcessError e) {
                if (e != QProcess::FailedToStart)
                    return; // the others end in finished()
                process->deleteLater();
                if (m_process == process)
                    m_process = nullptr;
                if (group.isCurrent())
                    finish(std::nullopt, tr("cannot start %1: %2").arg(m_cli, process->errorString()));
            });
    process->start(m_cli, args);
}

void CheckCoordinator::collect(const JobGroup &group, const std::shared_ptr<Prepared> &prepared, int exitCode,
                               bool crashed)
{
    // Oclgrind's log and the child's output are read and parsed on the worker: a report can be long.
    m_workers->deviceless().submit<Outcome>(
        group,
        [prepared, exitCode, crashed](const CancelToken &, const Progress &) -> Outcome {
            try {
                const CheckSession &session = *prepared->session;
                CheckChildResult result;
                if (crashed)
                    result.signal = exitCode; // QProcess gives the signal as the exit code of a crash
                else
                    result.exitCode = exitCode;
                result.out = readAll(session.directory() / "stdout");
                result.report =
                    session.collect(readAll(session.directory() / "stderr"), prepared->sources, &result.err);
                return {std::move(result), {}};
            } catch (const std::exception &e) {
                return {std::nullopt, QString::fromStdString(e.what())};
            }
        },
        this, [this](Outcome outcome) { finish(outcome.result, outcome.error); });
}

void CheckCoordinator::finish(const std::optional<CheckChildResult> &result, const QString &error)
{
    m_busy = false;
    if (!result) {
        m_statusBar->showMessage(tr("Memory check could not run: %1").arg(error));
        emit checkFailed(error);
        return;
    }
    m_last = viewOfCheck(*result);
    m_workbench->builder()->showRunDiagnostics(m_last.diagnostics);
    m_statusBar->showMessage(m_last.summary);
    const int code = result->exitCode;
    if (code == 0 || code == 3)
        emit checkFinished(m_last.summary, int(result->report.errorCount()));
    else
        emit checkFailed(m_last.summary);
}

QString childStatusLine(const QByteArray &err)
{
    const QList<QByteArray> lines = err.trimmed().split('\n');
    QString line = lines.isEmpty() ? QString() : QString::fromUtf8(lines.back()).trimmed();
    if (line.startsWith(QLatin1String("clscope-cli: ")))
        line = line.mid(13);
    return line;
}

std::optional<WorkbenchSource> writeWorkbenchSource(const KernelEditor &editor, const QString &userPath,
                                                    QString *error)
{
    WorkbenchSource out;
    out.folder = std::make_unique<QTemporaryDir>();
    if (!out.folder->isValid()) {
        *error = QObject::tr("cannot make a folder for the source: %1").arg(out.folder->errorString());
        return std::nullopt;
    }
    out.file = out.folder->filePath(userPath.isEmpty() ? QStringLiteral("untitled.cl")
                                                       : QFileInfo(userPath).fileName());
    if (const QString why = writeFileSafely(out.file, editor.text().toUtf8()); !why.isEmpty()) {
        *error = QObject::tr("cannot write %1: %2").arg(out.file, why);
        return std::nullopt;
    }
    const QString userFolder = userPath.isEmpty() ? QString() : QFileInfo(userPath).absolutePath();
    if (!userFolder.isEmpty() && !userFolder.contains(u' '))
        out.includeOption = "-I " + userFolder.toStdString();
    return out;
}

void terminateChild(QProcess *process, QObject *context)
{
    process->terminate();
    const QPointer<QProcess> watched(process);
    QTimer::singleShot(kChildKillAfterMs, context, [watched] {
        if (watched && watched->state() != QProcess::NotRunning)
            watched->kill();
    });
}

void CheckCoordinator::stopChild()
{
    if (!m_process || m_stopping)
        return;
    m_stopping = true;
    terminateChild(m_process, this);
}

void CheckCoordinator::abandon()
{
    if (!m_busy)
        return;
    m_tag.discard();
    stopChild();
    m_busy = false;
    m_statusBar->showMessage(tr("Memory check stopped"));
}

} // namespace clscope::ui
