// The diagnostics of the latest build where the user sees them: the Diagnostics list, and markers in every
// open tab they name (the built tab, the program's other tabs, headers open in tabs). Activating one in the
// list goes to its line, opening its file when no tab shows it.
#pragma once

#include "buildstamp.h"
#include "clscope/build.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <vector>

namespace clscope::ui {

class DiagnosticsPanel;
class EditorTabs;
class KernelEditor;

class BuildDiagnostics : public QObject
{
    Q_OBJECT
public:
    BuildDiagnostics(EditorTabs *editors, DiagnosticsPanel *list, QObject *parent = nullptr);

    // The build the diagnostics shown from now on belong to (its tabs are where they go).
    void setBuild(const BuildStamp &built) { m_built = built; }
    // Shows diagnostics in the list and, for the build's lines, in its editors (a build's, or a memory
    // check's of the built kernel).
    void show(const std::vector<Diagnostic> &diagnostics);

private:
    void markEditors();
    void jumpTo(const QString &file, int line, int column);
    // The open tab a diagnostic of the latest build names: its main tab, another tab of its program, or a
    // header open in a tab; null when none is open.
    KernelEditor *editorOf(const QString &file) const;

    EditorTabs *m_editors;
    DiagnosticsPanel *m_list;
    BuildStamp m_built;
    std::vector<Diagnostic> m_shown;               // the diagnostics on screen
    QList<QPointer<KernelEditor>> m_markedEditors; // editors that carry markers of m_shown
};

} // namespace clscope::ui
