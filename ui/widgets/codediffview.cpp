// The side-by-side diff of two listings.
#include "codediffview.h"

#include "codelexer.h"
#include "codeview.h"

#include <Qsci/qsciscintilla.h>

#include <QFontMetrics>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>

namespace clscope::ui {

namespace {
const QColor kRemoved(0xfb, 0xd8, 0xd8);
const QColor kAdded(0xd4, 0xf4, 0xd4);
const QColor kChanged(0xfb, 0xf0, 0xc8);
const QColor kFiller(0xdc, 0xdc, 0xdc);
} // namespace

CodeDiffView::CodeDiffView(QWidget *parent)
    : QWidget(parent)
    , m_leftTitle(new QLabel)
    , m_rightTitle(new QLabel)
    , m_summary(new QLabel)
    , m_leftLexer(new CodeLexer(this))
    , m_rightLexer(new CodeLexer(this))
    , m_left(makeCodeEditor(m_leftLexer))
    , m_right(makeCodeEditor(m_rightLexer))
{
    setObjectName(QStringLiteral("codeDiffView"));
    m_left->setObjectName(QStringLiteral("diffLeft"));
    m_right->setObjectName(QStringLiteral("diffRight"));
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    for (QLabel *title : {m_leftTitle, m_rightTitle}) {
        title->setTextFormat(Qt::RichText);
        title->setWordWrap(true);
    }
    for (QsciScintilla *side : {m_left, m_right}) {
        side->setMarginType(0, QsciScintilla::TextMargin);
        m_removedMarker = side->markerDefine(QsciScintilla::Background, 0);
        m_addedMarker = side->markerDefine(QsciScintilla::Background, 1);
        m_changedMarker = side->markerDefine(QsciScintilla::Background, 2);
        m_fillerMarker = side->markerDefine(QsciScintilla::Background, 3);
        side->setMarkerBackgroundColor(kRemoved, m_removedMarker);
        side->setMarkerBackgroundColor(kAdded, m_addedMarker);
        side->setMarkerBackgroundColor(kChanged, m_changedMarker);
        side->setMarkerBackgroundColor(kFiller, m_fillerMarker);
    }
    auto *previous = new QPushButton(tr("Previous change"));
    auto *next = new QPushButton(tr("Next change"));
    connect(previous, &QPushButton::clicked, this, [this] { goToChange(false); });
    connect(next, &QPushButton::clicked, this, [this] { goToChange(true); });

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    grid->addLayout(bar, 0, 0, 1, 2);
    grid->addWidget(m_leftTitle, 1, 0);
    grid->addWidget(m_rightTitle, 1, 1);
    grid->addWidget(m_left, 2, 0);
    grid->addWidget(m_right, 2, 1);
    grid->setRowStretch(2, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);

    // The two sides scroll together (rows line up, so the same first line is the same row).
    auto follow = [](QsciScintilla *from, QsciScintilla *to) {
        connect(from->verticalScrollBar(), &QScrollBar::valueChanged, to,
                [to](int value) { to->verticalScrollBar()->setValue(value); });
        connect(from->horizontalScrollBar(), &QScrollBar::valueChanged, to,
                [to](int value) { to->horizontalScrollBar()->setValue(value); });
    };
    follow(m_left, m_right);
    follow(m_right, m_left);
}

void CodeDiffView::setCode(const QString &leftTitle, const GeneratedCode &left, const QString &rightTitle,
                           const GeneratedCode &right)
{
    m_leftLexer->setLanguage(languageOf(left.kind));
    m_rightLexer->setLanguage(languageOf(right.kind));
    auto title = [](const QString &name, const GeneratedCode &code) {
        QString text =
            QStringLiteral("<b>%1</b><br>%2").arg(name.toHtmlEscaped(), codeSummary(code).toHtmlEscaped());
        if (!code.hasText() && !code.note.empty())
            text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(code.note).toHtmlEscaped());
        return text;
    };
    m_leftTitle->setText(title(leftTitle, left));
    m_rightTitle->setText(title(rightTitle, right));
    fill(QString::fromStdString(left.text), QString::fromStdString(right.text));
}

void CodeDiffView::setTexts(const QString &leftTitle, const QString &left, const QString &rightTitle,
                            const QString &right)
{
    m_leftTitle->setText(QStringLiteral("<b>%1</b>").arg(leftTitle.toHtmlEscaped()));
    m_rightTitle->setText(QStringLiteral("<b>%1</b>").arg(rightTitle.toHtmlEscaped()));
    fill(left, right);
}

void CodeDiffView::fill(const QString &leftText, const QString &rightText)
{
    auto linesOf = [](const QString &text) {
        QStringList lines = text.split(u'\n');
        if (!lines.isEmpty() && lines.back().isEmpty())
            lines.removeLast(); // the final newline ends the last line, it does not start another
        return lines;
    };
    const QStringList a = linesOf(leftText);
    const QStringList b = linesOf(rightText);
    const std::vector<DiffLine> script = diffLines(a, b);
    m_counts = countDiff(script);
    m_rows = sideBySide(script);
    m_blocks.clear();

    QStringList leftRows, rightRows;
    leftRows.reserve(qsizetype(m_rows.size()));
    rightRows.reserve(qsizetype(m_rows.size()));
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const DiffRow &r = m_rows[i];
        leftRows << (r.left >= 0 ? a[r.left] : QString());
        rightRows << (r.right >= 0 ? b[r.right] : QString());
        if (r.kind != RowKind::Same && (i == 0 || m_rows[i - 1].kind == RowKind::Same))
            m_blocks.push_back(int(i));
    }
    m_left->setText(leftRows.join(u'\n'));
    m_right->setText(rightRows.join(u'\n'));
    for (QsciScintilla *side : {m_left, m_right}) {
        side->markerDeleteAll();
        side->clearMarginText();
    }
    int widest = 1;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const DiffRow &r = m_rows[i];
        const int line = int(i);
        if (r.left >= 0)
            m_left->setMarginText(line, QString::number(r.left + 1), 0);
        if (r.right >= 0)
            m_right->setMarginText(line, QString::number(r.right + 1), 0);
        widest = std::max({widest, r.left + 1, r.right + 1});
        switch (r.kind) {
        case RowKind::Same:
            break;
        case RowKind::Changed:
            m_left->markerAdd(line, m_changedMarker);
            m_right->markerAdd(line, m_changedMarker);
            break;
        case RowKind::Removed:
            m_left->markerAdd(line, m_removedMarker);
            m_right->markerAdd(line, m_fillerMarker);
            break;
        case RowKind::Added:
            m_left->markerAdd(line, m_fillerMarker);
            m_right->markerAdd(line, m_addedMarker);
            break;
        }
    }
    const int margin =
        QFontMetrics(m_left->font()).horizontalAdvance(QString(QString::number(widest).size() + 1, u'0')) + 6;
    m_left->setMarginWidth(0, margin);
    m_right->setMarginWidth(0, margin);
    m_summary->setText(summaryText());
    // Start at the first difference that is more than a comment (LLVM's "; ModuleID = '/tmp/...'" differs
    // between any two builds).
    auto commentOnly = [&a, &b](const DiffRow &r) {
        auto comment = [](const QString &line) {
            const QString t = line.trimmed();
            return t.isEmpty() || t.startsWith(u';') || t.startsWith(QStringLiteral("//"));
        };
        return (r.left < 0 || comment(a[r.left])) && (r.right < 0 || comment(b[r.right]));
    };
    int start = m_blocks.empty() ? -1 : m_blocks.front();
    for (int block : m_blocks) {
        if (!commentOnly(m_rows[std::size_t(block)])) {
            start = block;
            break;
        }
    }
    if (start >= 0) {
        for (QsciScintilla *side : {m_left, m_right}) {
            side->setCursorPosition(start, 0);
            side->setFirstVisibleLine(std::max(0, start - 3));
        }
    }
}

QString CodeDiffView::summaryText() const
{
    if (m_blocks.empty())
        return tr("The two listings are the same (%n line(s))", nullptr, m_counts.same);
    return tr("%1 block(s) of differences: %2 line(s) only on the left, %3 only on the right, %4 in common")
        .arg(m_blocks.size())
        .arg(m_counts.removed)
        .arg(m_counts.added)
        .arg(m_counts.same);
}

bool CodeDiffView::goToChange(bool forward)
{
    if (m_blocks.empty())
        return false;
    int line = 0, index = 0;
    m_left->getCursorPosition(&line, &index);
    int to = -1;
    if (forward) {
        auto it = std::upper_bound(m_blocks.begin(), m_blocks.end(), line);
        to = it != m_blocks.end() ? *it : m_blocks.front();
    } else {
        auto it = std::lower_bound(m_blocks.begin(), m_blocks.end(), line);
        to = it != m_blocks.begin() ? *std::prev(it) : m_blocks.back();
    }
    for (QsciScintilla *side : {m_left, m_right}) {
        side->setCursorPosition(to, 0);
        side->setFirstVisibleLine(std::max(0, to - 3));
    }
    return true;
}

} // namespace clscope::ui
