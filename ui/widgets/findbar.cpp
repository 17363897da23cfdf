// Find/replace on the current editor with QsciScintilla::findFirst/findNext/replace.
#include "findbar.h"

#include "editortabs.h"
#include "kerneleditor.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace clscope::ui {

FindBar::FindBar(EditorTabs *editors, QWidget *parent)
    : FindBar([editors]() -> QsciScintilla * { return editors->currentEditor(); }, true, parent)
{}

FindBar::FindBar(std::function<QsciScintilla *()> target, QWidget *parent)
    : FindBar(std::move(target), false, parent)
{}

FindBar::FindBar(std::function<QsciScintilla *()> target, bool canReplace, QWidget *parent)
    : QWidget(parent)
    , m_target(std::move(target))
    , m_canReplace(canReplace)
    , m_find(new QLineEdit)
    , m_replace(new QLineEdit)
    , m_case(new QCheckBox(tr("Case")))
    , m_word(new QCheckBox(tr("Whole words")))
    , m_regex(new QCheckBox(tr("Regex")))
    , m_status(new QLabel)
    , m_replaceRow(new QWidget)
{
    setObjectName(QStringLiteral("findBar"));
    m_find->setObjectName(QStringLiteral("findText"));
    m_find->setPlaceholderText(tr("Find"));
    m_replace->setObjectName(QStringLiteral("replaceText"));
    m_replace->setPlaceholderText(tr("Replace with"));
    auto *next = new QPushButton(tr("Next"));
    auto *previous = new QPushButton(tr("Previous"));
    auto *replace = new QPushButton(tr("Replace"));
    auto *all = new QPushButton(tr("Replace all"));
    auto *close = new QToolButton;
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Close (Esc)"));

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(4, 2, 4, 2);
    grid->addWidget(m_find, 0, 0);
    grid->addWidget(next, 0, 1);
    grid->addWidget(previous, 0, 2);
    grid->addWidget(m_case, 0, 3);
    grid->addWidget(m_word, 0, 4);
    grid->addWidget(m_regex, 0, 5);
    grid->addWidget(m_status, 0, 6);
    grid->addWidget(close, 0, 7);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(6, 1);
    auto *replaceLayout = new QHBoxLayout(m_replaceRow);
    replaceLayout->setContentsMargins(0, 0, 0, 0);
    replaceLayout->addWidget(m_replace, 1);
    replaceLayout->addWidget(replace);
    replaceLayout->addWidget(all);
    grid->addWidget(m_replaceRow, 1, 0, 1, 3);

    connect(m_find, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(m_replace, &QLineEdit::returnPressed, this, &FindBar::replaceCurrent);
    connect(next, &QPushButton::clicked, this, [this] { findNext(true); });
    connect(previous, &QPushButton::clicked, this, [this] { findNext(false); });
    connect(replace, &QPushButton::clicked, this, &FindBar::replaceCurrent);
    connect(all, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    m_replaceRow->setVisible(false);
    hide();
}

void FindBar::start(bool replace)
{
    if (QsciScintilla *editor = m_target()) {
        const QString selected = editor->selectedText();
        if (!selected.isEmpty() && !selected.contains(u'\n'))
            m_find->setText(selected);
        else if (m_find->text().isEmpty()) {
            int line = 0, index = 0;
            editor->getCursorPosition(&line, &index);
            m_find->setText(editor->wordAtLineIndex(line, index));
        }
    }
    m_replaceRow->setVisible(replace && m_canReplace);
    m_status->clear();
    show();
    m_find->setFocus();
    m_find->selectAll();
}

bool FindBar::findNext(bool forward)
{
    QsciScintilla *editor = m_target();
    const QString text = m_find->text();
    if (!editor || text.isEmpty())
        return false;
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    if (!forward && editor->hasSelectedText()) {
        // Backwards from the start of the current match, not from its end.
        int l1 = 0, i1 = 0, l2 = 0, i2 = 0;
        editor->getSelection(&l1, &i1, &l2, &i2);
        line = l1;
        index = i1;
    }
    const bool found = editor->findFirst(text, m_regex->isChecked(), m_case->isChecked(), m_word->isChecked(),
                                         /*wrap*/ true, forward, line, index);
    m_status->setText(found ? QString() : tr("“%1” not found").arg(text));
    return found;
}

bool FindBar::replaceCurrent()
{
    QsciScintilla *editor = m_target();
    if (!editor || !m_canReplace || editor->isReadOnly())
        return false;
    // The current selection is replaced when it is a match; then the next match is selected.
    if (editor->hasSelectedText() &&
        (m_case->isChecked() ? editor->selectedText() == m_find->text()
                             : editor->selectedText().compare(m_find->text(), Qt::CaseInsensitive) == 0 ||
                                   m_regex->isChecked()))
        editor->replace(m_replace->text());
    return findNext(true);
}

int FindBar::replaceAll()
{
    QsciScintilla *editor = m_target();
    const QString text = m_find->text();
    if (!editor || text.isEmpty() || !m_canReplace || editor->isReadOnly())
        return 0;
    int replaced = 0;
    editor->beginUndoAction();
    // From the top, no wrap, so that each match is visited once even when the replacement contains it.
    bool found = editor->findFirst(text, m_regex->isChecked(), m_case->isChecked(), m_word->isChecked(),
                                   /*wrap*/ false, true, 0, 0);
    while (found) {
        editor->replace(m_replace->text());
        ++replaced;
        found = editor->findNext();
    }
    editor->endUndoAction();
    m_status->setText(tr("%n replaced", nullptr, replaced));
    return replaced;
}

void FindBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (QsciScintilla *editor = m_target())
            editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace clscope::ui
