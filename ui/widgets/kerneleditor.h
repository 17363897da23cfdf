// One OpenCL C source buffer in a QScintilla editor: highlighting, line numbers, folding, brace
// matching, completion of built-ins, and compiler diagnostics as margin markers and inline annotations.
#pragma once

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <QHash>
#include <QString>
#include <QVector>

#include <vector>

namespace clscope::ui {

class OpenCLLexer;
struct LineHeat;

struct EditorDiagnostic
{
    enum Severity { Error, Warning, Note };
    int line = 0;   // 1-based, as compilers print them
    int column = 0; // 1-based
    Severity severity = Error;
    QString message;
};

class KernelEditor : public QsciScintilla
{
    Q_OBJECT
public:
    explicit KernelEditor(QWidget *parent = nullptr);

    // Replaces the shown diagnostics (markers in the margin, annotations under the lines).
    void setDiagnostics(const QVector<EditorDiagnostic> &diagnostics);
    void clearDiagnostics();
    const QVector<EditorDiagnostic> &diagnostics() const { return m_diagnostics; }
    // Lines (1-based) that carry a marker of the severity, for tests and navigation.
    QVector<int> markedLines(EditorDiagnostic::Severity severity) const;

    // The heat gutter: each line's share of the kernel's instructions (a line profile of this text), coloured
    // from cold to the hottest line, with its counts as a tooltip. Lines beyond the text are left out.
    void setLineHeat(const std::vector<LineHeat> &lines);
    void clearLineHeat();
    bool hasLineHeat() const { return !m_heatLevels.isEmpty(); }
    // The gutter's text of a 1-based line ("" when it has none), its heat level (0: none), and its counts in
    // words (shown when the gutter is clicked).
    QString heatTextAt(int line) const;
    int heatLevelAt(int line) const;
    QString heatDetailsAt(int line) const;

    // Breakpoints (the debugger's): a click in the marker margin toggles one; they move with the text.
    void toggleBreakpoint(int line);
    void setBreakpoint(int line, bool on);
    QVector<int> breakpointLines() const; // 1-based, in order
    // A breakpoint's own condition, "VARIABLE OP NUMBER" (a right click on the margin asks for it); "" none.
    // Setting one sets the breakpoint; it moves with the line.
    void setBreakpointCondition(int line, const QString &condition);
    QString breakpointCondition(int line) const;
    // The line a debugged work-item stops before: an arrow in the margin and a tint; 0 clears it.
    void setExecutionLine(int line);
    int executionLine() const { return m_executionLine; }

    // Moves the cursor to a 1-based line and column and makes it visible.
    void goTo(int line, int column);

    // A strip above the text for notices (NoticeBar children); the text moves down while one shows.
    QWidget *noticeArea();

signals:
    void breakpointsChanged();

protected:
    void resizeEvent(QResizeEvent *event) override;
    // Not over the margins: a right click there is the breakpoint's condition, not the text's menu.
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void layoutNoticeArea();
    int markerFor(EditorDiagnostic::Severity severity) const;
    const QsciStyle &heatStyle(int level);
    void showHeatDetails(int margin, int line);

    OpenCLLexer *m_lexer;
    QVector<EditorDiagnostic> m_diagnostics;
    int m_errorMarker = 0;
    int m_warningMarker = 1;
    int m_noteMarker = 2;
    int m_breakpointMarker = 3;
    int m_executionMarker = 4;
    int m_executionTint = 5;
    int m_executionLine = 0;
    int m_conditionMarker = 6;
    QHash<int, QString> m_conditions; // by marker handle
    int m_annotationStyleBase = 0;
    QWidget *m_noticeArea = nullptr;
    std::vector<QsciStyle> m_heatStyles; // by level, made when first shown
    QVector<int> m_heatLevels;           // by 0-based line; empty while no heat is shown
    QVector<QString> m_heatTexts;        // by 0-based line: the gutter's text
    QVector<QString> m_heatDetails;      // by 0-based line: the counts in words
};

} // namespace clscope::ui
