// The debugger's buffers in the results viewer.
#include "debugresults.h"
#include "display/stdstring.h"

#include "debugcoordinator.h"
#include "models/debugbuffers.h"
#include "widgets/debugview.h"
#include "widgets/resultsviewer.h"

#include <QDockWidget>

namespace clscope::ui {

DebugResults::DebugResults(DebugCoordinator *debugger, DebugView *view, ResultsViewer *results,
                           QObject *parent)
    : QObject(parent)
    , m_debugger(debugger)
    , m_view(view)
    , m_results(results)
{
    setObjectName(QStringLiteral("debugResults"));
    connect(view, &DebugView::showInResultsRequested, this, &DebugResults::show);
    // A step or a continue to the next stop: the viewer follows while it shows a stop's buffers.
    connect(debugger, &DebugCoordinator::stopShown, this, [this] {
        if (m_results->showsSnapshot())
            show(QString());
    });
    // The session is over: its buffers are gone, the last run's results come back.
    connect(debugger, &DebugCoordinator::finished, this, [this] { m_results->showLastRun(); });
}

bool DebugResults::show(const QString &name)
{
    if (!m_debugger->isPaused() || m_view->buffers().empty())
        return false;
    const QString chosen = !name.isEmpty()              ? name
                           : m_results->showsSnapshot() ? m_results->shownBuffer()
                                                        : QString();
    QString label;
    m_results->showSnapshot(contents(&label), label);
    if (!chosen.isEmpty())
        m_results->selectBuffer(chosen);
    // Brought forward: the Results panel shares its place with the Debugger panel.
    for (QWidget *w = m_results; w; w = w->parentWidget()) {
        if (auto *dock = qobject_cast<QDockWidget *>(w)) {
            dock->show();
            dock->raise();
            break;
        }
    }
    return true;
}

RunResult DebugResults::contents(QString *label) const
{
    const DebugStop &stop = m_debugger->lastStop();
    const DebugKernel &kernel = m_debugger->debuggedKernel();
    RunResultData data;
    data.kernel = kernel.name;
    data.device = "Oclgrind (debugger)";
    // The NDRange, so that the 2-D layouts of a 2-D kernel's buffers work as they do for a run.
    for (int d = 0; d < kernel.workDim && d < 3; ++d)
        data.global.push_back(std::size_t(kernel.global[std::size_t(d)]));
    QStringList partial;
    QStringList missing;
    for (const DebugValue &value : m_view->buffers()) {
        DebugBuffer buffer = debugBuffer(value);
        if (!buffer.data) {
            missing << tr("%1 (%2)").arg(qs(value.name), qs(buffer.problem));
            continue;
        }
        if (buffer.partial() && buffer.data->count == 0)
            partial << tr("%1: none of %2 elements").arg(qs(value.name)).arg(buffer.elements);
        else if (buffer.partial())
            partial << tr("%1: elements 0 to %2 of %3")
                           .arg(qs(value.name))
                           .arg(buffer.data->count - 1)
                           .arg(buffer.elements);
        data.argNames.push_back(value.name);
        data.buffers.push_back(std::move(*buffer.data));
    }
    QString text = tr("At the debugger stop, line %1 of %2, work-item %3: the global buffers as they are at "
                      "that moment, not a run's result.")
                       .arg(stop.line)
                       .arg(qs(stop.file), qs(formatWorkItemId(stop.item.global)));
    if (!partial.isEmpty())
        text += u' ' + tr("The debugger sends at most the first 1024 elements of a buffer: only these are "
                          "here (%1).")
                           .arg(partial.join(QStringLiteral("; ")));
    if (!missing.isEmpty())
        text += u' ' + tr("Not shown: %1.").arg(missing.join(QStringLiteral("; ")));
    *label = text;
    return RunResult(std::move(data));
}

} // namespace clscope::ui
