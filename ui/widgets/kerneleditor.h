// One OpenCL C source buffer in a QScintilla editor: highlighting, line numbers, folding, brace
// matching, completion of built-ins, and compiler diagnostics as margin markers and inline annotations.
#pragma once

#include <Qsci/qsciscintilla.h>

#include <QString>
#include <QVector>

namespace clscope::ui {

class OpenCLLexer;

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

    // Moves the cursor to a 1-based line and column and makes it visible.
    void goTo(int line, int column);

    // A strip above the text for notices (NoticeBar children); the text moves down while one shows.
    QWidget *noticeArea();

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void layoutNoticeArea();
    int markerFor(EditorDiagnostic::Severity severity) const;

    OpenCLLexer *m_lexer;
    QVector<EditorDiagnostic> m_diagnostics;
    int m_errorMarker = 0;
    int m_warningMarker = 1;
    int m_noteMarker = 2;
    int m_annotationStyleBase = 0;
    QWidget *m_noticeArea = nullptr;
};

} // namespace clscope::ui
