// Editor breakpoints -> DebugConnection (the child on Oclgrind) -> Debugger panel and editor markers.
#include "debugcoordinator.h"

#include "debugconnection.h"
#include "debuglaunch.h"
#include "display/stdstring.h"
#include "widgets/debugview.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include <QAction>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

namespace clscope::ui {

namespace {
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
    , m_connection(new DebugConnection(this))
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
        if (m_connection->arguments().value(0) != QLatin1String("run")) {
            m_statusBar->showMessage(tr("Debugger: a captured launch is built with its captured options"),
                                     10000);
            return;
        }
        m_restartUnoptimised = true;
        stop();
    });
    connect(m_view, &DebugView::itemRequested, this, &DebugCoordinator::selectItem);
    connect(m_view, &DebugView::conditionsChanged, this, [this] {
        if (m_connection->isDebugging())
            sendBreakpoints();
    });
    connect(m_view, &DebugView::frameActivated, this, [this](const QString &file, int line) {
        if (m_editor && file.toStdString() == m_mainFile && line > 0)
            m_editor->goTo(line, 1);
    });
    connect(m_connection, &DebugConnection::kernelStarted, this, &DebugCoordinator::onKernelStarted);
    connect(m_connection, &DebugConnection::progress, this, [this](quint64 started, quint64 groups) {
        m_view->setProgress(started, groups);
        if (groups > 0 && !m_paused)
            m_statusBar->showMessage(tr("Debugger: %1 of %2 work-groups started").arg(started).arg(groups));
    });
    connect(m_connection, &DebugConnection::stopped, this, &DebugCoordinator::onStopped);
    connect(m_connection, &DebugConnection::kernelEnded, this, [this] {
        m_paused = false;
        if (m_editor)
            m_editor->setExecutionLine(0);
        m_view->setState(DebugView::State::Running,
                         tr("%1 ran to its end; the launch finishes…").arg(m_kernel));
    });
    connect(m_connection, &DebugConnection::replied, this, &DebugCoordinator::onReply);
    connect(m_connection, &DebugConnection::stopping, this,
            [this] { m_view->setState(DebugView::State::Running, tr("Stopping…")); });
    connect(m_connection, &DebugConnection::finished, this, &DebugCoordinator::onFinished);
    updateActions();
}

DebugCoordinator::~DebugCoordinator()
{
    // The connection kills a child still running; it goes before the child's source folder (m_folder).
    delete m_connection;
}

void DebugCoordinator::setCliPath(const QString &path)
{
    m_connection->setCliPath(path);
}

bool DebugCoordinator::isActive() const
{
    return m_connection->isActive();
}

QStringList DebugCoordinator::lastArguments() const
{
    return m_connection->arguments();
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
    if (isActive())
        return refuse(tr("a launch is already being debugged (Shift+F6 stops it)"));
    QString why;
    std::optional<DebugLaunch> launch =
        DebugLaunch::fromWorkbench(*m_workbench, *m_editors, m_unoptimised, &why);
    if (!launch)
        return refuse(why);
    return start(std::move(*launch));
}

bool DebugCoordinator::debugCapturedLaunch(qint64 launch, const QString &kernel, int programIndex,
                                           const QString &watch)
{
    if (isActive())
        return refuse(tr("a launch is already being debugged (Shift+F6 stops it)"));
    QString why;
    std::optional<DebugLaunch> replay =
        DebugLaunch::fromCapture(*m_captures, launch, kernel, programIndex, watch, &why);
    if (!replay)
        return refuse(why);
    return start(std::move(*replay));
}

bool DebugCoordinator::start(DebugLaunch launch)
{
    QString why;
    if (!m_connection->listen(launch.args, launch.kernel, launch.mainFile, &why))
        return refuse(why);
    m_folder = std::move(launch.folder);
    m_editor = launch.editor;
    m_kernel = launch.kernel;
    m_watch = launch.watch;
    m_mainFile = launch.mainFile.toStdString();
    m_paused = false;
    connect(m_editor, &KernelEditor::breakpointsChanged, this, [this] {
        if (m_connection->isDebugging())
            sendBreakpoints();
    });
    m_view->setState(DebugView::State::Running, launch.what);
    m_statusBar->showMessage(tr("Debugger: %1").arg(launch.what));
    m_resumed.start();
    m_connection->launch();
    updateActions();
    return true;
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
    m_connection->send(debugBreakRequest(list, m_mainFile), "break");
}

void DebugCoordinator::onKernelStarted(const DebugKernel &kernel)
{
    m_debuggedKernel = kernel;
    sendBreakpoints();
    const auto element = parseWatchSpec(m_watch.toStdString());
    if (element)
        m_connection->send(debugWatchRequest(element->first, element->second), "watch");
    const bool none = (!m_editor || m_editor->breakpointLines().isEmpty()) && !element;
    // No breakpoint: stop at the first line of the chosen work-item, or of the first.
    bool ok = true;
    m_connection->send(debugRunRequest(none, m_view->onlyItem(&ok)));
    const quint64 items = quint64(kernel.global[0]) * kernel.global[1] * kernel.global[2];
    m_view->setState(DebugView::State::Running,
                     none ? tr("%1 of %2 work-items runs to its first line…").arg(m_kernel).arg(items)
                          : tr("%1 of %2 work-items runs to a breakpoint…").arg(m_kernel).arg(items));
}

void DebugCoordinator::onStopped(const DebugStop &stop)
{
    m_resumeToStopMs = m_resumed.elapsed();
    m_paused = true;
    m_stop = stop;
    m_selected = stop.item;
    QString source;
    if (m_editor && stop.file == m_mainFile && stop.line > 0) {
        m_editor->setExecutionLine(stop.line);
        source = m_editor->text(stop.line - 1).trimmed();
    } else if (m_editor) {
        m_editor->setExecutionLine(0);
    }
    m_view->setStop(stop, source);
    m_statusBar->showMessage(tr("Debugger: stopped at line %1 (%2), work-item %3")
                                 .arg(stop.line)
                                 .arg(qs(stop.reason), qs(formatWorkItemId(stop.item.global))),
                             10000);
    requestStopViews();
    updateActions();
    emit stopped(stop);
}

void DebugCoordinator::onReply(const std::string &due, const DebugMessage &m)
{
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
            m_connection->send(debugSimpleRequest("variables"), "variables");
            m_connection->send(debugSimpleRequest("stack"), "stack");
            m_connection->send(debugSimpleRequest("items"), "items");
        }
    } else if (due == "watch" && !error.isEmpty()) {
        m_connection->fail(tr("cannot watch %1: %2").arg(m_watch, error));
    } else if (due == "break" && !error.isEmpty()) {
        m_statusBar->showMessage(tr("Debugger: breakpoints not set: %1").arg(error), 10000);
    }
    if (!m_connection->isReplyDue() && m_paused)
        emit stopShown();
}

void DebugCoordinator::requestStopViews()
{
    for (const char *view : {"variables", "stack", "items", "locals", "buffers"})
        m_connection->send(debugSimpleRequest(view), view);
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
    m_connection->send(request);
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
    m_connection->send(debugSelectRequest(global), "select");
}

void DebugCoordinator::pause()
{
    if (m_connection->isDebugging() && !m_paused)
        m_connection->send(debugSimpleRequest("pause"));
}

void DebugCoordinator::stop()
{
    m_connection->stop();
}

void DebugCoordinator::onFinished(const QString &error, bool stopped)
{
    if (m_editor) {
        m_editor->setExecutionLine(0);
        m_editor->disconnect(this);
    }
    m_folder.reset();
    m_paused = false;
    const QString text = !error.isEmpty() ? tr("Not debugged: %1").arg(error)
                         : stopped        ? tr("Stopped; the launch was ended.")
                                          : tr("The launch ran to its end on Oclgrind.");
    m_view->setState(DebugView::State::Idle, text);
    m_statusBar->showMessage(tr("Debugger: %1").arg(text), 10000);
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
