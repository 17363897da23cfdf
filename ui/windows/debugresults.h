// The global buffers at a debugger stop in the results viewer (issue 29: "Buffers: the global buffers at
// that moment (in the existing results viewer)"). The Debugger panel's Show in results puts the buffers the
// plugin sent at this stop into the results viewer, with its table, number formats and picture, labelled
// as the contents at the stop (the line and the work-item), not a run's result, and saying which elements
// were sent (the plugin sends the first 1024 of each buffer). While they are shown, each new stop shows its
// own; the end of the debug session (or the viewer's Back to the last run) brings the last run's results
// back.
#pragma once

#include "clscope/runner.h"

#include <QObject>
#include <QString>

namespace clscope::ui {

class DebugCoordinator;
class DebugView;
class ResultsViewer;

class DebugResults : public QObject
{
    Q_OBJECT
public:
    DebugResults(DebugCoordinator *debugger, DebugView *view, ResultsViewer *results,
                 QObject *parent = nullptr);

    // Shows the buffers of the current stop in the results viewer, `name` chosen (else the one shown, else
    // the first), and brings the viewer forward; false when the debugger has not stopped.
    bool show(const QString &name);

private:
    // The buffers of the stop as a run result of their own, and the viewer's label for them.
    RunResult contents(QString *label) const;

    DebugCoordinator *m_debugger;
    DebugView *m_view;
    ResultsViewer *m_results;
};

} // namespace clscope::ui
