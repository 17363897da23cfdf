// A QScintilla lexer for OpenCL C: C with address spaces, vector types, built-in functions and their
// completion list.
#pragma once

#include <Qsci/qscilexercpp.h>

class QsciAPIs;

namespace clscope::ui {

class OpenCLLexer : public QsciLexerCPP
{
    Q_OBJECT
public:
    explicit OpenCLLexer(QObject *parent = nullptr);
    // The completion list is prepared on a QsciAPIs worker thread that calls back into this lexer:
    // it must be stopped before the lexer is half destroyed.
    ~OpenCLLexer() override;

    const char *language() const override { return "OpenCL C"; }
    const char *keywords(int set) const override;
    QString description(int style) const override;

    // Every built-in function, type and constant, for auto-completion.
    static QStringList completionWords();

private:
    QsciAPIs *m_apis;
};

} // namespace clscope::ui
