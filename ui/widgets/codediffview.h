// Two listings of generated code side by side (two devices of a build, or two cells of a build matrix),
// line against line: lines only on the left are red, only on the right green, changed pairs tinted on both
// sides, with blank filler lines where the other side has more. The margins keep each side's own line
// numbers, the two sides scroll together, and Next/Previous change jump between blocks of differences.
#pragma once

#include "display/linediff.h"

#include "clscope/disassemble.h"

#include <QWidget>

#include <vector>

class QLabel;
class QsciScintilla;

namespace clscope::ui {

class CodeLexer;

class CodeDiffView : public QWidget
{
    Q_OBJECT
public:
    explicit CodeDiffView(QWidget *parent = nullptr);

    void setCode(const QString &leftTitle, const GeneratedCode &left, const QString &rightTitle,
                 const GeneratedCode &right);
    // Compares two texts as they are (tests, and listings that are not GeneratedCode).
    void setTexts(const QString &leftTitle, const QString &left, const QString &rightTitle,
                  const QString &right);

    QsciScintilla *left() const { return m_left; }
    QsciScintilla *right() const { return m_right; }
    const std::vector<DiffRow> &rows() const { return m_rows; }
    DiffCounts counts() const { return m_counts; }
    QString summaryText() const;
    // Moves both sides to the next (or previous) block of differences; false when there is none.
    bool goToChange(bool forward);

private:
    void fill(const QString &left, const QString &right);

    QLabel *m_leftTitle;
    QLabel *m_rightTitle;
    QLabel *m_summary;
    CodeLexer *m_leftLexer;
    CodeLexer *m_rightLexer;
    QsciScintilla *m_left;
    QsciScintilla *m_right;
    std::vector<DiffRow> m_rows;
    std::vector<int> m_blocks; // the first row of each block of differences
    DiffCounts m_counts;
    int m_removedMarker = 0;
    int m_addedMarker = 1;
    int m_changedMarker = 2;
    int m_fillerMarker = 3;
};

} // namespace clscope::ui
