// One device's generated code, read-only: a header that says what it is (PTX, LLVM IR, SPIR-V, and the tool
// that made the text), the note when there is no text (which package to install), the listing highlighted
// (CodeLexer) with line numbers, and a find bar (Ctrl+F, F3).
#pragma once

#include "clscope/disassemble.h"

#include <QWidget>

class QLabel;
class QsciScintilla;

namespace clscope::ui {

class CodeLexer;
class FindBar;
enum class CodeLanguage;

// A read-only QScintilla editor set up for listings (monospace, line numbers, no folding), with its lexer.
QsciScintilla *makeCodeEditor(CodeLexer *lexer, QWidget *parent = nullptr);
CodeLanguage languageOf(CodeKind kind);
// "LLVM IR by llvm-dis-15 · binary 12.5 KiB (PoCL binary)".
QString codeSummary(const GeneratedCode &code);

class CodeView : public QWidget
{
    Q_OBJECT
public:
    explicit CodeView(QWidget *parent = nullptr);

    void setCode(const QString &title, const GeneratedCode &code);
    // No code to show (yet): a line instead, such as "Disassembling…" or why it failed.
    void setMessage(const QString &title, const QString &message);

    QsciScintilla *editor() const { return m_editor; }
    FindBar *findBar() const { return m_find; }
    QString headerText() const;
    QString noteText() const;

private:
    QLabel *m_header;
    QLabel *m_note;
    CodeLexer *m_lexer;
    QsciScintilla *m_editor;
    FindBar *m_find;
};

} // namespace clscope::ui
