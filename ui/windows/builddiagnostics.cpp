// Build diagnostics -> the Diagnostics list and the editors' markers; the list's activations -> the editor.
#include "builddiagnostics.h"

#include "widgets/buildlogpanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include <QFileInfo>
#include <QHash>

namespace clscope::ui {

namespace {
// What the core names an unnamed source that it compiles on its own (a linked build of an unsaved tab).
const QString kUnnamedCompile = QStringLiteral("source");

EditorDiagnostic::Severity editorSeverity(Severity s)
{
    switch (s) {
    case Severity::Error:
        return EditorDiagnostic::Error;
    case Severity::Warning:
        return EditorDiagnostic::Warning;
    case Severity::Note:
        break;
    }
    return EditorDiagnostic::Note;
}
} // namespace

BuildDiagnostics::BuildDiagnostics(EditorTabs *editors, DiagnosticsPanel *list, QObject *parent)
    : QObject(parent)
    , m_editors(editors)
    , m_list(list)
{
    connect(m_list, &DiagnosticsPanel::diagnosticActivated, this, &BuildDiagnostics::jumpTo);
    connect(m_editors, &EditorTabs::currentDocumentChanged, this, &BuildDiagnostics::markEditors);
}

void BuildDiagnostics::show(const std::vector<Diagnostic> &diagnostics)
{
    m_shown = diagnostics;
    // A linked build names an unsaved main tab's own compile "source": it is the main tab, as a file-less
    // diagnostic is.
    if (m_built.link && m_built.path.isEmpty()) {
        for (Diagnostic &d : m_shown) {
            if (QString::fromStdString(d.file) == kUnnamedCompile)
                d.file.clear();
        }
    }
    const int builtIndex = m_built.editor ? m_editors->indexOf(m_built.editor) : -1;
    m_list->setDiagnostics(m_shown, builtIndex >= 0 ? m_editors->title(builtIndex) : QString());
    markEditors();
}

void BuildDiagnostics::markEditors()
{
    // Every open tab the diagnostics name gets its markers: the main source (no file, or its path), the
    // program's other tabs and headers open in tabs; tabs that had markers of an earlier build lose them.
    QHash<KernelEditor *, QVector<EditorDiagnostic>> marks;
    for (const QPointer<KernelEditor> &e : std::as_const(m_markedEditors)) {
        if (e)
            marks[e.data()];
    }
    for (const Diagnostic &d : m_shown) {
        if (d.line <= 0)
            continue;
        if (KernelEditor *target = editorOf(QString::fromStdString(d.file)))
            marks[target].push_back(
                {d.line, d.column, editorSeverity(d.severity), QString::fromStdString(d.message)});
    }
    m_markedEditors.clear();
    for (auto it = marks.begin(); it != marks.end(); ++it) {
        it.key()->setDiagnostics(it.value());
        if (!it.value().isEmpty())
            m_markedEditors << it.key();
    }
}

KernelEditor *BuildDiagnostics::editorOf(const QString &file) const
{
    if (file.isEmpty() || sameFile(file, m_built.path))
        return m_built.editor;
    for (const BuildStampPart &part : m_built.more) {
        if (file == part.name || sameFile(file, part.name))
            return part.editor;
    }
    const int index = m_editors->indexOfPath(file);
    return index >= 0 ? m_editors->editor(index) : nullptr;
}

void BuildDiagnostics::jumpTo(const QString &file, int line, int column)
{
    if (line <= 0)
        return;
    if (KernelEditor *editor = editorOf(file)) {
        m_editors->setCurrentWidget(editor);
        editor->goTo(line, column);
        return;
    }
    if (file.isEmpty() || !QFileInfo(file).isFile())
        return; // a tab of the build that is closed now, an unsaved one among them
    // A file of the build not open (a header, a closed tab): open it and jump there.
    if (m_editors->openFile(file) && m_editors->currentEditor())
        m_editors->currentEditor()->goTo(line, column);
}

} // namespace clscope::ui
