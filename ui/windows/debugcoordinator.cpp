// Editor breakpoints -> child clscope-cli on Oclgrind with the plugin -> local socket -> Debugger panel.
#include "debugcoordinator.h"

#include "capturecoordinator.h"
#include "checkcoordinator.h"
#include "controllers/workbench.h"
#include "display/stdstring.h"
#include "widgets/debugview.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include "clscope/lineprofile.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcessEnvironment>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

#include <stdexcept>

namespace clscope::ui {

namespace {
constexpr qsizetype kMaxMessageBytes = 64 * 1024 * 1024; // a line longer than this is not the plugin's
constexpr qsizetype kMaxStderrBytes = 1024 * 1024;

QAction *makeAction(QObject *parent, const QString &text, const char *name, const QKeySequence &key,
                    const QString &tip)
{
    auto *a = new QAction(text, parent);
    a->setObjectName(QLatin1String(name));
    a->setShortcut(key);
    a->setToolTip(tip);
    return a;
}
} // namespace

DebugCoordinator::DebugCoordinator(Workbench *workbench, CaptureCoordinator *captures, EditorTabs *editors,
                                   DebugView *view, QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_workbench(workbench)
    , m_captures(captures)
    , m_editors(editors)
    , m_view(view)
    , m_statusBar(statusBar)
    , m_debugAction(makeAction(this, tr("&Debug launch"), "debugAction", QKeySequence(Qt::Key_F6),
                               tr("Run the launch on the Oclgrind simulator to its first breakpoint, or on "
                                  "from where it stopped (F6)")))
    , m_stepOverAction(makeAction(this, tr("Step &over"), "debugStepOverAction", QKeySequence(Qt::Key_F10),
                                  tr("The work-item's next line, over calls (F10)")))
    , m_stepIntoAction(makeAction(this, tr("Step &into"), "debugStepIntoAction", QKeySequence(Qt::Key_F11),
                                  tr("The work-item's next line, into calls (F11)")))
    , m_stepOutAction(makeAction(this, tr("Step o&ut"), "debugStepOutAction",
                                 QKeySequence(Qt::SHIFT | Qt::Key_F11),
                                 tr("Until the work-item's function returns (Shift+F11)")))
    , m_runToCursorAction(makeAction(this, tr("Run to &cursor"), "debugRunToCursorAction",
                                     QKeySequence(Qt::CTRL | Qt::Key_F10),
                                     tr("Run until a work-item reaches the cursor's line (Ctrl+F10)")))
    , m_stopAction(makeAction(this, tr("Stop debu&gging"), "debugStopAction",
                              QKeySequence(Qt::SHIFT | Qt::Key_F6), tr("End the debugged launch (Shift+F6)")))
    , m_breakpointAction(makeAction(this, tr("Toggle &breakpoint"), "breakpointAction",
                                    QKeySequence(Qt::Key_F9),
                                    tr("A breakpoint on the cursor's line, or none (F9)")))
    , m_cli(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("clscope-cli")))
{
    setObjectName(QStringLiteral("debugCoordinator"));
    connect(m_debugAction, &QAction::triggered, this, [this] {
        if (m_paused)
            continueRun();
        else if (!isActive())
            debugLaunch();
    });
    connect(m_stepOverAction, &QAction::triggered, this, [this] { step(QStringLiteral("over")); });
    connect(m_stepIntoAction, &QAction::triggered, this, [this] { step(QStringLiteral("into")); });
    connect(m_stepOutAction, &QAction::triggered, this, [this] { step(QStringLiteral("out")); });
    connect(m_runToCursorAction, &QAction::triggered, this, &DebugCoordinator::runToCursor);
    connect(m_stopAction, &QAction::triggered, this, &DebugCoordinator::stop);
    connect(m_breakpointAction, &QAction::triggered, this, [this] {
        if (KernelEditor *editor = m_editors->currentEditor()) {
            int line = 0, column = 0;
            editor->getCursorPosition(&line, &column);
            editor->toggleBreakpoint(line + 1);
        }
    });
    connect(m_view, &DebugView::continueRequested, this, &DebugCoordinator::continueRun);
    connect(m_view, &DebugView::stepRequested, this, &DebugCoordinator::step);
    connect(m_view, &DebugView::stopRequested, this, &DebugCoordinator::stop);
    connect(m_view, &DebugView::pauseRequested, this, &DebugCoordinator::pause);
    connect(m_view, &DebugView::unoptimisedRequested, this, [this] {
        if (m_lastArgs.value(0) != QLatin1String("run")) {
            m_statusBar->showMessage(tr("Debugger: a captured launch is built with its captured options"),
                                     10000);
            return;
        }
        m_restartUnoptimised = true;
        stop();
    });
    connect(m_view, &DebugView::itemRequested, this, &DebugCoordinator::selectItem);
    connect(m_view, &DebugView::conditionsChanged, this, [this] {
        if (m_debugging)
            sendBreakpoints();
    });
    connect(m_view, &DebugView::frameActivated, this, [this](const QString &file, int line) {
        if (m_editor && file.toStdString() == m_mainFile && line > 0)
            m_editor->goTo(line, 1);
    });
    updateActions();
}

DebugCoordinator::~DebugCoordinator()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

bool DebugCoordinator::refuse(const QString &why)
{
    m_view->setState(DebugView::State::Idle, tr("Cannot debug: %1").arg(why));
    m_statusBar->showMessage(tr("Debugger: cannot debug: %1").arg(why), 10000);
    emit finished(why);
    return false;
}

bool DebugCoordinator::debugLaunch()
{
    m_watch.clear();
    if (isActive())
        return refuse(tr("a launch is already being debugged (Shift+F6 stops it)"));
    QString error;
    std::optional<RunRequest> request = m_workbench->launchView()->makeRequest(&error);
    if (!request)
        return refuse(error);
    const WorkbenchProgram &built = m_workbench->program();
    if (!built.more.isEmpty())
        return refuse(tr("the debugger runs a program of one tab; turn off Build > Build open tabs as one "
                         "program and build again"));
    KernelEditor *editor = qobject_cast<KernelEditor *>(built.editor.data());
    if (!editor)
        return refuse(tr("the built kernel's tab is closed; build it again"));
    const QString userPath = built.path;
    QString why;
    std::optional<WorkbenchSource> source = writeWorkbenchSource(*editor, userPath, &why);
    if (!source)
        return refuse(why);
    const QString file = source->file;
    std::string options = withoutDebugOption(request->build.userOptions());
    if (m_unoptimised)
        options += options.empty() ? "-cl-opt-disable" : " -cl-opt-disable";
    if (!source->includeOption.empty())
        options += (options.empty() ? "" : " ") + source->includeOption;
    request->repeat = 1;
    request->readBack.clear();
    request->readBackAll = false;
    QStringList args;
    for (const std::string &a : checkRunArguments(*request, file.toStdString(), options)) {
        if (a != "--check" && a != "--json")
            args << qs(a);
    }
    m_folder = std::move(source->folder);
    // Stops name the source as its tab does.
    QString shown = QFileInfo(userPath).fileName();
    for (int i = 0; shown.isEmpty() && i < m_editors->count(); ++i) {
        if (m_editors->editor(i) == editor)
            shown = m_editors->tabText(i).remove(u'&').remove(u'*').trimmed();
    }
    return start(args, qs(request->kernel), editor, shown.isEmpty() ? QFileInfo(file).fileName() : shown,
                 tr("Running %1 on Oclgrind to its first breakpoint…").arg(qs(request->kernel)));
}

bool DebugCoordinator::debugCapturedLaunch(qint64 launch, const QString &kernel, int programIndex,
                                           const QString &watch)
{
    if (isActive())
        return refuse(tr("a launch is already being debugged (Shift+F6 stops it)"));
    const QString path = m_captures->capturePath();
    if (path.isEmpty())
        return refuse(tr("open a capture first"));
    KernelEditor *editor = m_captures->openProgram(programIndex, false);
    if (!editor)
        return refuse(tr("launch %1's program has no sources to show (built from a binary)").arg(launch));
    const auto element = parseWatchSpec(watch.toStdString());
    if (!watch.isEmpty() && !element)
        return refuse(tr("%1 is not an element of a buffer argument").arg(watch));
    m_watch = watch;
    if (element)
        return start({QStringLiteral("replay"), path, QStringLiteral("--launch"), QString::number(launch)},
                     kernel, editor, QStringLiteral("program"),
                     tr("Replaying launch %1 (%2) on Oclgrind to the work-item that writes %3…")
                         .arg(launch)
                         .arg(kernel, watch));
    return start({QStringLiteral("replay"), path, QStringLiteral("--launch"), QString::number(launch)},
                 kernel, editor, QStringLiteral("program"),
                 tr("Replaying launch %1 (%2) on Oclgrind: it stops at its first line; breakpoints go in its "
                    "source's margin")
                     .arg(launch)
                     .arg(kernel));
}

bool DebugCoordinator::start(const QStringList &args, const QString &kernel, KernelEditor *editor,
                             const QString &mainFile, const QString &what)
{
    std::unique_ptr<DebugSession> session;
    try {
        // The plugin beside the clscope-cli that runs the launch (a build tree's app folder, or the
        // package's).
        const std::string plugin = findLineProfiler(QFileInfo(m_cli).absolutePath().toStdString());
        std::vector<std::string> environment;
        for (const QString &e : QProcessEnvironment::systemEnvironment().toStringList())
            environment.push_back(e.toStdString());
        session = std::make_unique<DebugSession>(environment, plugin);
    } catch (const std::exception &e) {
        m_folder.reset();
        return refuse(qs(e.what()));
    }
    auto *server = new QLocalServer(this);
    if (!server->listen(qs(session->socketPath().string()))) {
        const QString why = server->errorString();
        delete server;
        m_folder.reset();
        return refuse(tr("cannot listen for the debugger: %1").arg(why));
    }
    m_session = std::move(session);
    m_server = server;
    m_editor = editor;
    m_kernel = kernel;
    m_mainFile = mainFile.toStdString();
    m_buffer.clear();
    m_err.clear();
    m_expected.clear();
    m_helloSeen = m_debugging = m_paused = m_stopping = false;
    m_error.clear();
    m_lastArgs = args;
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        QLocalSocket *socket = m_server->nextPendingConnection();
        if (!socket || m_socket) {
            delete socket;
            return;
        }
        m_socket = socket;
        connect(m_socket, &QLocalSocket::readyRead, this, &DebugCoordinator::onReadyRead);
    });
    connect(editor, &KernelEditor::breakpointsChanged, this, [this] {
        if (m_debugging)
            sendBreakpoints();
    });

    auto *process = new QProcess(this);
    m_process = process;
    QProcessEnvironment env;
    for (const std::string &e : m_session->environment()) {
        const QString entry = qs(e);
        const qsizetype eq = entry.indexOf(u'=');
        if (eq > 0)
            env.insert(entry.left(eq), entry.mid(eq + 1));
    }
    process->setProcessEnvironment(env);
    process->setStandardInputFile(QProcess::nullDevice());
    process->setStandardOutputFile(QProcess::nullDevice()); // the run's printout; the debugger shows its own
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        m_err += process->readAllStandardError();
        if (m_err.size() > kMaxStderrBytes)
            m_err = m_err.right(kMaxStderrBytes / 2);
    });
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        if (m_process != process)
            return;
        m_err += process->readAllStandardError();
        if (m_socket)
            onReadyRead(); // what the plugin said last
        QString error = m_error;
        if (error.isEmpty() && !m_stopping) {
            if (status == QProcess::CrashExit)
                error = tr("the debugged launch ended by a signal");
            else if (!m_helloSeen)
                error = tr("the launch ended before the debugger could stop it: %1")
                            .arg(childStatusLine(m_err).isEmpty() ? tr("the plugin did not load")
                                                                  : childStatusLine(m_err));
            else if (!m_debugging)
                error = tr("the launch never ran %1 on Oclgrind: %2").arg(m_kernel, childStatusLine(m_err));
            else if (exitCode != 0 && !(m_lastArgs.value(0) == QLatin1String("replay") && exitCode == 1))
                error = tr("the launch failed: %1").arg(childStatusLine(m_err));
        }
        end(error);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && m_process == process)
            end(tr("cannot start %1: %2").arg(m_cli, process->errorString()));
    });
    m_view->setState(DebugView::State::Running, what);
    m_statusBar->showMessage(tr("Debugger: %1").arg(what));
    m_resumed.start();
    process->start(m_cli, args);
    updateActions();
    return true;
}

void DebugCoordinator::onReadyRead()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    for (;;) {
        const qsizetype end = m_buffer.indexOf('\n');
        if (end < 0) {
            if (m_buffer.size() > kMaxMessageBytes) {
                m_error = tr("the debugger plugin sent a line longer than 64 MB");
                stop();
            }
            return;
        }
        const QByteArray line = m_buffer.left(end);
        m_buffer.remove(0, end + 1);
        try {
            const DebugMessage m =
                parseDebugMessage(std::string_view(line.constData(), std::size_t(line.size())), m_mainFile);
            if (!m_helloSeen && m.kind != DebugMessage::Kind::Hello)
                throw std::runtime_error("the debugger plugin did not say hello first");
            handle(m);
        } catch (const std::exception &e) {
            m_error = qs(e.what());
            m_buffer.clear();
            stop();
            return;
        }
    }
}

void DebugCoordinator::send(const std::string &request, const char *expectedReply)
{
    if (!m_socket)
        return;
    if (expectedReply)
        m_expected.emplace_back(expectedReply);
    m_socket->write(request.data(), qint64(request.size()));
}

void DebugCoordinator::sendBreakpoints()
{
    std::vector<DebugBreakpoint> list;
    bool ok = true;
    const std::optional<WorkItemId> item = m_view->onlyItem(&ok);
    if (!ok)
        m_statusBar->showMessage(
            tr("Debugger: a work-item is X[,Y[,Z]], its global id; breakpoints stop any"), 10000);
    if (m_editor) {
        // A breakpoint's own work-item and condition, else the panel's for all of them.
        for (int line : m_editor->breakpointLines()) {
            const std::optional<BreakpointCondition> own =
                parseBreakpointCondition(m_editor->breakpointCondition(line).toStdString());
            if (!own)
                m_statusBar->showMessage(
                    tr("Debugger: the breakpoint at line %1 names no work-item (item X[,Y[,Z]] [if VARIABLE "
                       "OP NUMBER]); it stops as the panel says")
                        .arg(line),
                    10000);
            const BreakpointCondition mine = own.value_or(BreakpointCondition{});
            list.push_back({m_mainFile, line, mine.item ? mine.item : item,
                            mine.condition.empty() ? m_view->onlyWhen().toStdString() : mine.condition});
        }
    }
    send(debugBreakRequest(list, m_mainFile), "break");
}

void DebugCoordinator::handle(const DebugMessage &m)
{
    switch (m.kind) {
    case DebugMessage::Kind::Hello:
        m_helloSeen = true;
        return;
    case DebugMessage::Kind::Kernel: {
        if (m_debugging || qs(m.kernel.name) != m_kernel) {
            send(debugSimpleRequest("skip"));
            return;
        }
        m_debugging = true;
        m_debuggedKernel = m.kernel;
        sendBreakpoints();
        const auto element = parseWatchSpec(m_watch.toStdString());
        if (element)
            send(debugWatchRequest(element->first, element->second), "watch");
        const bool none = (!m_editor || m_editor->breakpointLines().isEmpty()) && !element;
        // No breakpoint: stop at the first line of the chosen work-item, or of the first.
        bool ok = true;
        send(debugRunRequest(none, m_view->onlyItem(&ok)));
        const quint64 items = quint64(m.kernel.global[0]) * m.kernel.global[1] * m.kernel.global[2];
        m_view->setState(DebugView::State::Running,
                         none ? tr("%1 of %2 work-items runs to its first line…").arg(m_kernel).arg(items)
                              : tr("%1 of %2 work-items runs to a breakpoint…").arg(m_kernel).arg(items));
        return;
    }
    case DebugMessage::Kind::Progress:
        m_view->setProgress(m.groupsStarted, m.groups);
        if (m.groups > 0 && !m_paused)
            m_statusBar->showMessage(
                tr("Debugger: %1 of %2 work-groups started").arg(m.groupsStarted).arg(m.groups));
        return;
    case DebugMessage::Kind::Stopped: {
        m_resumeToStopMs = m_resumed.elapsed();
        m_paused = true;
        m_stop = m.stop;
        m_selected = m.stop.item;
        QString source;
        if (m_editor && m.stop.file == m_mainFile && m.stop.line > 0) {
            m_editor->setExecutionLine(m.stop.line);
            source = m_editor->text(m.stop.line - 1).trimmed();
        } else if (m_editor) {
            m_editor->setExecutionLine(0);
        }
        m_view->setStop(m.stop, source);
        m_statusBar->showMessage(tr("Debugger: stopped at line %1 (%2), work-item %3")
                                     .arg(m.stop.line)
                                     .arg(qs(m.stop.reason), qs(formatWorkItemId(m.stop.item.global))),
                                 10000);
        requestStopViews();
        updateActions();
        emit stopped(m.stop);
        return;
    }
    case DebugMessage::Kind::KernelEnd:
        if (m_debugging && qs(m.kernel.name) == m_kernel) {
            m_paused = false;
            if (m_editor)
                m_editor->setExecutionLine(0);
            m_view->setState(DebugView::State::Running,
                             tr("%1 ran to its end; the launch finishes…").arg(m_kernel));
        }
        return;
    case DebugMessage::Kind::Reply:
        break;
    }
    // A reply: the next one due.
    if (m_expected.empty())
        return;
    const std::string due = m_expected.front();
    m_expected.pop_front();
    const QString error = qs(m.error);
    if (due == "variables") {
        m_view->setVariables(m.item.value_or(m_selected), m.values, error);
    } else if (due == "stack") {
        m_view->setFrames(m.frames);
    } else if (due == "items") {
        m_view->setItems(m.items, m_selected.global);
    } else if (due == "locals") {
        m_view->setLocalArrays(m.values);
    } else if (due == "buffers") {
        m_view->setBuffers(m.values);
    } else if (due == "select") {
        if (!error.isEmpty()) {
            m_statusBar->showMessage(tr("Debugger: %1").arg(error), 10000);
            m_view->setVariables(m_selected, {}, error);
        } else if (m.item) {
            m_selected = *m.item;
            send(debugSimpleRequest("variables"), "variables");
            send(debugSimpleRequest("stack"), "stack");
            send(debugSimpleRequest("items"), "items");
        }
    } else if (due == "watch" && !error.isEmpty()) {
        m_error = tr("cannot watch %1: %2").arg(m_watch, error);
        stop();
    } else if (due == "break" && !error.isEmpty()) {
        m_statusBar->showMessage(tr("Debugger: breakpoints not set: %1").arg(error), 10000);
    }
    if (m_expected.empty() && m_paused)
        emit stopShown();
}

void DebugCoordinator::requestStopViews()
{
    send(debugSimpleRequest("variables"), "variables");
    send(debugSimpleRequest("stack"), "stack");
    send(debugSimpleRequest("items"), "items");
    send(debugSimpleRequest("locals"), "locals");
    send(debugSimpleRequest("buffers"), "buffers");
}

void DebugCoordinator::resume(const std::string &request, const QString &what)
{
    if (!m_paused)
        return;
    m_paused = false;
    if (m_editor)
        m_editor->setExecutionLine(0);
    m_view->setState(DebugView::State::Running, what);
    m_resumed.start();
    send(request);
    updateActions();
}

void DebugCoordinator::continueRun()
{
    resume(debugSimpleRequest("continue"), tr("Running to the next breakpoint…"));
}

void DebugCoordinator::step(const QString &kind)
{
    resume(debugStepRequest(kind.toStdString()),
           tr("Stepping %1 in work-item %2…").arg(kind, qs(formatWorkItemId(m_selected.global))));
}

void DebugCoordinator::runToCursor()
{
    if (!m_paused || !m_editor)
        return;
    int line = 0, column = 0;
    m_editor->getCursorPosition(&line, &column);
    resume(debugRunToRequest(m_mainFile, line + 1, m_mainFile), tr("Running to line %1…").arg(line + 1));
}

void DebugCoordinator::selectItem(const WorkItemId &global)
{
    if (!m_paused)
        return;
    send(debugSelectRequest(global), "select");
}

void DebugCoordinator::pause()
{
    if (m_debugging && !m_paused)
        send(debugSimpleRequest("pause"));
}

void DebugCoordinator::stop()
{
    if (!m_process || m_stopping)
        return;
    m_stopping = true;
    m_view->setState(DebugView::State::Running, tr("Stopping…"));
    terminateChild(m_process, this);
}

void DebugCoordinator::end(const QString &error)
{
    QProcess *process = m_process;
    m_process = nullptr;
    if (process)
        process->deleteLater();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    if (m_server) {
        m_server->close();
        m_server->deleteLater();
        m_server = nullptr;
    }
    if (m_editor) {
        m_editor->setExecutionLine(0);
        m_editor->disconnect(this);
    }
    m_session.reset();
    m_folder.reset();
    m_paused = false;
    const QString text = !error.isEmpty() ? tr("Not debugged: %1").arg(error)
                         : m_stopping     ? tr("Stopped; the launch was ended.")
                                          : tr("The launch ran to its end on Oclgrind.");
    m_view->setState(DebugView::State::Idle, text);
    m_statusBar->showMessage(tr("Debugger: %1").arg(text), 10000);
    m_stopping = false;
    updateActions();
    emit finished(error);
    if (m_restartUnoptimised) {
        // Debug again, built without optimisation (the breakpoints stay in the editor).
        m_restartUnoptimised = false;
        QTimer::singleShot(0, this, [this] {
            m_unoptimised = true;
            debugLaunch();
            m_unoptimised = false;
        });
    }
}

void DebugCoordinator::updateActions()
{
    for (QAction *a : {m_stepOverAction, m_stepIntoAction, m_stepOutAction, m_runToCursorAction})
        a->setEnabled(m_paused);
    m_stopAction->setEnabled(isActive());
    m_debugAction->setText(m_paused ? tr("&Continue debugging") : tr("&Debug launch"));
}

} // namespace clscope::ui
