// A small QScintilla lexer for generated code: PTX, LLVM IR and SPIR-V assembly. Comments, instructions,
// types, registers and values (%r1, %5), globals and metadata (@f, !3), numbers and strings, each in its
// colour; anything else is plain text. Lines are styled on their own (none of these languages has a
// construct that spans lines, bar PTX's rare block comments, which are left plain).
#pragma once

#include <Qsci/qscilexercustom.h>

namespace clscope::ui {

enum class CodeLanguage { Plain, Ptx, LlvmIr, SpirV };

class CodeLexer : public QsciLexerCustom
{
    Q_OBJECT
public:
    enum Style {
        Default = 0,
        Comment,
        Keyword,
        Type,
        Register,
        Global,
        Number,
        String,
        Directive,
        StyleCount
    };

    explicit CodeLexer(QObject *parent = nullptr);

    void setLanguage(CodeLanguage language);
    CodeLanguage codeLanguage() const { return m_language; }

    const char *language() const override;
    QString description(int style) const override;
    void styleText(int start, int end) override;

    // The style of each byte of one line (for tests).
    QByteArray styleLine(const QByteArray &line) const;

private:
    CodeLanguage m_language = CodeLanguage::Plain;
};

} // namespace clscope::ui
