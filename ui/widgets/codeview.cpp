// The generated-code view: header, note, highlighted listing and find bar.
#include "codeview.h"

#include "codelexer.h"
#include "display/recordformat.h"
#include "findbar.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

namespace {
const QString kWarningStyle = QStringLiteral(
    "QLabel { background: #fff6d5; border: 1px solid #e0c060; border-radius: 3px; padding: 6px; }");
const QString kRemarkStyle =
    QStringLiteral("QLabel { color: palette(dark); font-style: italic; padding: 0 2px; }");
} // namespace

QsciScintilla *makeCodeEditor(CodeLexer *lexer, QWidget *parent)
{
    auto *editor = new QsciScintilla(parent);
    editor->setUtf8(true);
    editor->setLexer(lexer);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    editor->setFont(mono);
    editor->setMarginsFont(mono);
    editor->setMarginType(0, QsciScintilla::NumberMargin);
    editor->setMarginLineNumbers(0, true);
    editor->setMarginWidth(0, QFontMetrics(mono).horizontalAdvance(QStringLiteral("000000")) + 6);
    editor->setMarginWidth(1, 0);
    editor->setFolding(QsciScintilla::NoFoldStyle);
    editor->setCaretLineVisible(true);
    editor->setCaretLineBackgroundColor(QColor(0xf4, 0xf7, 0xfb));
    editor->setWrapMode(QsciScintilla::WrapNone);
    editor->setReadOnly(true);
    return editor;
}

CodeLanguage languageOf(CodeKind kind)
{
    switch (kind) {
    case CodeKind::Ptx:
        return CodeLanguage::Ptx;
    case CodeKind::LlvmBitcode:
        return CodeLanguage::LlvmIr;
    case CodeKind::SpirV:
        return CodeLanguage::SpirV;
    default:
        return CodeLanguage::Plain;
    }
}

QString codeSummary(const GeneratedCode &code)
{
    QString text = QString::fromUtf8(codeKindName(code.kind));
    if (code.kind == CodeKind::LlvmBitcode && !code.hasText())
        text = QStringLiteral("LLVM bitcode");
    if (!code.tool.empty())
        text += QObject::tr(" by %1").arg(QString::fromStdString(code.tool));
    text += QObject::tr(" · binary %1").arg(bytesText(code.binaryBytes));
    if (code.hasText())
        text +=
            QObject::tr(" · %n line(s)", nullptr, int(std::count(code.text.begin(), code.text.end(), '\n')));
    return text;
}

CodeView::CodeView(QWidget *parent)
    : QWidget(parent)
    , m_header(new QLabel)
    , m_note(new QLabel)
    , m_lexer(new CodeLexer(this))
    , m_editor(makeCodeEditor(m_lexer))
{
    setObjectName(QStringLiteral("codeView"));
    m_header->setObjectName(QStringLiteral("codeHeader"));
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setObjectName(QStringLiteral("codeNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->hide();
    m_editor->setObjectName(QStringLiteral("codeText"));
    m_find = new FindBar([this] { return m_editor; }, this);
    m_find->setObjectName(QStringLiteral("codeFindBar")); // the window's own is "findBar"
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_header);
    layout->addWidget(m_note);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_find);

    auto *find = new QAction(this);
    find->setShortcuts(QKeySequence::Find);
    find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QAction::triggered, m_find, [this] { m_find->start(false); });
    auto *next = new QAction(this);
    next->setShortcuts(QKeySequence::FindNext);
    next->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(next, &QAction::triggered, m_find, [this] { m_find->findNext(true); });
    auto *previous = new QAction(this);
    previous->setShortcuts(QKeySequence::FindPrevious);
    previous->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(previous, &QAction::triggered, m_find, [this] { m_find->findNext(false); });
    addActions({find, next, previous});
}

void CodeView::setCode(const QString &title, const GeneratedCode &code)
{
    m_header->setText(
        QStringLiteral("<b>%1</b> &nbsp; %2").arg(title.toHtmlEscaped(), codeSummary(code).toHtmlEscaped()));
    QString note = QString::fromStdString(code.note);
    if (!code.hasText() && note.isEmpty())
        note = tr("The driver gave a binary that no installed tool shows as text.");
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    // Why there is no text is a warning; where the text came from is a remark.
    m_note->setStyleSheet(code.hasText() ? kRemarkStyle : kWarningStyle);
    m_lexer->setLanguage(languageOf(code.kind));
    const QString text = QString::fromStdString(code.text);
    m_editor->setText(text);
    // The first kernel or function at the top: the module's preamble (globals, target) is rarely the point.
    static const QRegularExpression entry(
        QStringLiteral("^(define |\\.visible \\.entry |\\.entry |\\s*%\\S+ = OpFunction )"),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch first = entry.match(text);
    const int line = first.hasMatch() ? int(text.left(first.capturedStart()).count(u'\n')) : 0;
    m_editor->setCursorPosition(line, 0);
    m_editor->setFirstVisibleLine(std::max(0, line - 2));
    const int digits = QString::number(std::max(1, m_editor->lines())).size();
    m_editor->setMarginWidth(
        0, QFontMetrics(m_editor->font()).horizontalAdvance(QString(std::max(4, digits) + 1, u'0')) + 6);
}

void CodeView::setMessage(const QString &title, const QString &message)
{
    m_header->setText(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    m_note->setText(message);
    m_note->setVisible(!message.isEmpty());
    m_note->setStyleSheet(kWarningStyle);
    m_lexer->setLanguage(CodeLanguage::Plain);
    m_editor->clear();
}

QString CodeView::headerText() const
{
    return m_header->text();
}

QString CodeView::noteText() const
{
    return m_note->isVisibleTo(this) ? m_note->text() : QString();
}

} // namespace clscope::ui
