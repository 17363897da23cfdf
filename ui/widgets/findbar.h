// The editor's find and replace bar (Ctrl+F, Ctrl+H): under the editor, non-modal, acting on the current
// tab through QScintilla's own search. A read-only view (the generated code) gets one without replace,
// acting on whichever editor it names.
#pragma once

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace clscope::ui {

class EditorTabs;

class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(EditorTabs *editors, QWidget *parent = nullptr);
    // Find only (no replace row), in the editor target() gives at the time.
    explicit FindBar(std::function<QsciScintilla *()> target, QWidget *parent = nullptr);

    // Shows the bar with the selection (or the word under the cursor) as the text to find.
    void start(bool replace);
    // Next or previous match of the text, wrapping; false (and says so) when there is none.
    bool findNext(bool forward = true);
    bool replaceCurrent();
    int replaceAll();
    QLineEdit *findField() const { return m_find; }
    QLineEdit *replaceField() const { return m_replace; }

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    FindBar(std::function<QsciScintilla *()> target, bool canReplace, QWidget *parent);

    std::function<QsciScintilla *()> m_target;
    bool m_canReplace = true;
    QLineEdit *m_find;
    QLineEdit *m_replace;
    QCheckBox *m_case;
    QCheckBox *m_word;
    QCheckBox *m_regex;
    QLabel *m_status;
    QWidget *m_replaceRow;
};

} // namespace clscope::ui
