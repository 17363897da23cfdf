// Kernel editor setup and the diagnostics overlay.
#include "kerneleditor.h"

#include "display/rooflinedoc.h"
#include "opencllexer.h"

#include <Qsci/qscistyle.h>

#include <QContextMenuEvent>
#include <QCursor>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QInputDialog>
#include <QLineEdit>
#include <QPainter>
#include <QSignalBlocker>
#include <QToolTip>

#include <algorithm>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {
enum Margin { LineNumberMargin = 0, MarkerMargin = 1, FoldMargin = 2, HeatMargin = 3 };

// Cold to hot: pale yellow to deep red, dark text on the pale, white on the deep.
QColor heatColour(int level)
{
    static const QColor colours[] = {QColor(0xff, 0xff, 0xff), QColor(0xff, 0xf3, 0xc4),
                                     QColor(0xfd, 0xd4, 0x8a), QColor(0xf8, 0xa1, 0x5c),
                                     QColor(0xe8, 0x5d, 0x3c), QColor(0xb8, 0x1d, 0x22)};
    return colours[std::clamp(level, 0, kHeatLevels)];
}

// A margin mark: a filled circle with a white sign in it (x for an error, ! for a warning), the size of the
// marker margin's other symbols.
QImage diagnosticMark(const QColor &colour, QChar sign)
{
    QImage image(14, 14, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(colour.darker(160));
    p.setBrush(colour);
    p.drawEllipse(QRectF(0.5, 0.5, 13, 13));
    p.setPen(QPen(Qt::white, 2, Qt::SolidLine, Qt::RoundCap));
    if (sign == u'x') {
        p.drawLine(QPointF(4.5, 4.5), QPointF(9.5, 9.5));
        p.drawLine(QPointF(9.5, 4.5), QPointF(4.5, 9.5));
    } else {
        p.drawLine(QPointF(7, 3.5), QPointF(7, 8));
        p.drawPoint(QPointF(7, 10.5));
    }
    return image;
}

} // namespace

KernelEditor::KernelEditor(QWidget *parent)
    : QsciScintilla(parent)
    , m_lexer(new OpenCLLexer(this))
{
    setLexer(m_lexer);
    setUtf8(true);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    setMarginsFont(mono);

    setMarginType(LineNumberMargin, NumberMargin);
    setMarginWidth(LineNumberMargin, QFontMetrics(mono).horizontalAdvance(QStringLiteral("00000")) + 6);
    setMarginLineNumbers(LineNumberMargin, true);
    setMarginType(MarkerMargin, SymbolMargin);
    setMarginWidth(MarkerMargin, 16);
    setMarginSensitivity(MarkerMargin, true);
    setFolding(BoxedTreeFoldStyle, FoldMargin);
    setMarginType(HeatMargin, TextMarginRightJustified);
    setMarginWidth(HeatMargin, 0); // shown with a line profile
    connect(this, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        showHeatDetails(margin, line);
        if (margin == MarkerMargin)
            toggleBreakpoint(line + 1);
    });
    // A right click on the margin: the breakpoint's own condition.
    connect(this, &QsciScintilla::marginRightClicked, this,
            [this](int margin, int line, Qt::KeyboardModifiers) {
                if (margin != MarkerMargin)
                    return;
                bool ok = false;
                const QString condition = QInputDialog::getText(
                    this, tr("Breakpoint condition"),
                    tr("Stop at line %1 only for a work-item and/or when a value holds: item X[,Y[,Z]] (its "
                       "global id), VARIABLE OP NUMBER (OP one of == != < <= > >=; the variable may be a[2], "
                       "p.x, "
                       "v.y), or both: item 5 if i == 3. Empty: as the Debugger panel says.")
                        .arg(line + 1),
                    QLineEdit::Normal, breakpointCondition(line + 1), &ok);
                if (ok)
                    setBreakpointCondition(line + 1, condition);
            });
    // The heat is of the text that was counted: an edit makes it stale.
    connect(this, &QsciScintilla::textChanged, this, [this] {
        if (hasLineHeat())
            clearLineHeat();
    });

    setBraceMatching(SloppyBraceMatch);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf4, 0xf7, 0xfb));
    setEdgeMode(EdgeNone);

    setAutoCompletionSource(AcsAll);
    setAutoCompletionThreshold(3);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionReplaceWord(false);
    setCallTipsStyle(CallTipsNoContext);

    // Errors and warnings carry a sign (x, !) so that they do not look like a breakpoint's plain circle.
    m_errorMarker = markerDefine(diagnosticMark(QColor(0xd0, 0x30, 0x30), u'x'), 0);
    m_warningMarker = markerDefine(diagnosticMark(QColor(0xe0, 0x9c, 0x10), u'!'), 1);
    m_noteMarker = markerDefine(RightTriangle, 2);
    setMarkerBackgroundColor(QColor(0x40, 0x80, 0xd0), m_noteMarker);
    m_breakpointMarker = markerDefine(Circle, 3);
    setMarkerBackgroundColor(QColor(0xc0, 0x10, 0x40), m_breakpointMarker);
    setMarkerForegroundColor(QColor(0x70, 0x00, 0x20), m_breakpointMarker);
    m_executionMarker = markerDefine(RightArrow, 4);
    setMarkerBackgroundColor(QColor(0xf0, 0xd0, 0x20), m_executionMarker);
    setMarkerForegroundColor(QColor(0x60, 0x50, 0x00), m_executionMarker);
    m_conditionMarker = markerDefine(Invisible, 6);
    m_executionTint = markerDefine(Background, 5);
    setMarkerBackgroundColor(QColor(0xff, 0xf4, 0xb0), m_executionTint);
    setAnnotationDisplay(AnnotationBoxed);
}

int KernelEditor::markerFor(EditorDiagnostic::Severity severity) const
{
    switch (severity) {
    case EditorDiagnostic::Error:
        return m_errorMarker;
    case EditorDiagnostic::Warning:
        return m_warningMarker;
    case EditorDiagnostic::Note:
        break;
    }
    return m_noteMarker;
}

void KernelEditor::clearDiagnostics()
{
    m_diagnostics.clear();
    markerDeleteAll(-1);
    clearAnnotations(-1);
}

void KernelEditor::setDiagnostics(const QVector<EditorDiagnostic> &diagnostics)
{
    clearDiagnostics();
    m_diagnostics = diagnostics;
    // Several messages on one line become one annotation, worst first.
    QMap<int, QStringList> perLine;
    QMap<int, EditorDiagnostic::Severity> worst;
    for (const EditorDiagnostic &d : diagnostics) {
        const int line = qBound(0, d.line - 1, qMax(0, lines() - 1));
        markerAdd(line, markerFor(d.severity));
        static const char *kWords[] = {"error", "warning", "note"};
        perLine[line] << QStringLiteral("%1: %2  (column %3)")
                             .arg(QString::fromLatin1(kWords[d.severity]), d.message)
                             .arg(d.column);
        worst[line] = worst.contains(line) ? std::min(worst[line], d.severity) : d.severity;
    }
    for (auto it = perLine.cbegin(); it != perLine.cend(); ++it) {
        QsciStyle style(
            -1, QStringLiteral("diagnostic"),
            worst[it.key()] == EditorDiagnostic::Error ? QColor(0x90, 0x10, 0x10) : QColor(0x70, 0x50, 0x00),
            worst[it.key()] == EditorDiagnostic::Error ? QColor(0xfd, 0xe8, 0xe8) : QColor(0xfd, 0xf6, 0xe0),
            QFontDatabase::systemFont(QFontDatabase::FixedFont));
        annotate(it.key(), it.value().join(u'\n'), style);
    }
}

QVector<int> KernelEditor::markedLines(EditorDiagnostic::Severity severity) const
{
    QVector<int> out;
    const unsigned mask = 1u << markerFor(severity);
    int line = -1;
    while ((line = markerFindNext(line + 1, mask)) >= 0)
        out << line + 1;
    return out;
}

const QsciStyle &KernelEditor::heatStyle(int level)
{
    if (m_heatStyles.empty()) {
        const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        for (int l = 0; l <= kHeatLevels; ++l)
            m_heatStyles.emplace_back(-1, QStringLiteral("heat %1").arg(l),
                                      l >= 4 ? QColor(Qt::white) : QColor(0x30, 0x30, 0x30), heatColour(l),
                                      mono);
    }
    return m_heatStyles[std::size_t(std::clamp(level, 0, kHeatLevels))];
}

void KernelEditor::setLineHeat(const std::vector<LineHeat> &heat)
{
    clearLineHeat();
    m_heatLevels = QVector<int>(lines(), 0);
    m_heatTexts = QVector<QString>(lines());
    m_heatDetails = QVector<QString>(lines());
    for (const LineHeat &h : heat) {
        if (h.line < 1 || h.line > lines())
            continue;
        m_heatLevels[h.line - 1] = h.level;
        m_heatTexts[h.line - 1] = heatText(h);
        m_heatDetails[h.line - 1] = heatDetails(h);
        setMarginText(h.line - 1, m_heatTexts[h.line - 1], heatStyle(h.level));
    }
    setMarginWidth(HeatMargin, QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont))
                                       .horizontalAdvance(QStringLiteral("100.0%")) +
                                   8);
    setMarginSensitivity(HeatMargin, true);
}

void KernelEditor::clearLineHeat()
{
    clearMarginText(-1);
    setMarginWidth(HeatMargin, 0);
    m_heatLevels.clear();
    m_heatTexts.clear();
    m_heatDetails.clear();
}

QString KernelEditor::heatTextAt(int line) const
{
    return line >= 1 && line <= m_heatTexts.size() ? m_heatTexts[line - 1] : QString();
}

QString KernelEditor::heatDetailsAt(int line) const
{
    return line >= 1 && line <= m_heatDetails.size() ? m_heatDetails[line - 1] : QString();
}

void KernelEditor::showHeatDetails(int margin, int line)
{
    if (margin == HeatMargin && !heatDetailsAt(line + 1).isEmpty())
        QToolTip::showText(QCursor::pos(), heatDetailsAt(line + 1), this);
}

int KernelEditor::heatLevelAt(int line) const
{
    return line >= 1 && line <= m_heatLevels.size() ? m_heatLevels[line - 1] : 0;
}

void KernelEditor::contextMenuEvent(QContextMenuEvent *event)
{
    int width = 0;
    for (int m = 0; m <= HeatMargin; ++m)
        width += marginWidth(m);
    if (event->pos().x() < width) {
        event->accept();
        return;
    }
    QsciScintilla::contextMenuEvent(event);
}

void KernelEditor::toggleBreakpoint(int line)
{
    if (line < 1 || line > lines())
        return;
    setBreakpoint(line, !(markersAtLine(line - 1) & (1u << m_breakpointMarker)));
}

void KernelEditor::setBreakpoint(int line, bool on)
{
    if (line < 1 || line > lines())
        return;
    const bool was = markersAtLine(line - 1) & (1u << m_breakpointMarker);
    if (was == on)
        return;
    if (on) {
        markerAdd(line - 1, m_breakpointMarker);
    } else {
        markerDelete(line - 1, m_breakpointMarker);
        // Its condition goes with it (the markers of deleted lines are gone too).
        for (auto it = m_conditions.begin(); it != m_conditions.end();) {
            const int at = markerLine(it.key());
            if (at < 0 || at == line - 1) {
                markerDeleteHandle(it.key());
                it = m_conditions.erase(it);
            } else {
                ++it;
            }
        }
    }
    emit breakpointsChanged();
}

void KernelEditor::setBreakpointCondition(int line, const QString &condition)
{
    if (line < 1 || line > lines())
        return;
    const QSignalBlocker quiet(this); // one breakpointsChanged for both changes
    setBreakpoint(line, true);
    // The condition rides on an invisible marker of its own, which moves with the line as the text changes.
    for (auto it = m_conditions.begin(); it != m_conditions.end();) {
        if (markerLine(it.key()) == line - 1 || markerLine(it.key()) < 0) {
            markerDeleteHandle(it.key());
            it = m_conditions.erase(it);
        } else {
            ++it;
        }
    }
    if (!condition.trimmed().isEmpty())
        m_conditions.insert(markerAdd(line - 1, m_conditionMarker), condition.trimmed());
    QMetaObject::invokeMethod(this, &KernelEditor::breakpointsChanged, Qt::QueuedConnection);
}

QString KernelEditor::breakpointCondition(int line) const
{
    for (auto it = m_conditions.begin(); it != m_conditions.end(); ++it) {
        if (markerLine(it.key()) == line - 1)
            return it.value();
    }
    return {};
}

QVector<int> KernelEditor::breakpointLines() const
{
    QVector<int> out;
    for (int line = markerFindNext(0, 1u << m_breakpointMarker); line >= 0;
         line = markerFindNext(line + 1, 1u << m_breakpointMarker))
        out.append(line + 1);
    return out;
}

void KernelEditor::setExecutionLine(int line)
{
    markerDeleteAll(m_executionMarker);
    markerDeleteAll(m_executionTint);
    m_executionLine = line >= 1 && line <= lines() ? line : 0;
    if (m_executionLine == 0)
        return;
    markerAdd(m_executionLine - 1, m_executionMarker);
    markerAdd(m_executionLine - 1, m_executionTint);
    ensureLineVisible(m_executionLine - 1);
}

void KernelEditor::goTo(int line, int column)
{
    const int l = qMax(0, line - 1);
    setCursorPosition(l, qMax(0, column - 1));
    ensureLineVisible(l);
    setFocus();
}

// ---- notices above the text ------------------------------------------------------------------

QWidget *KernelEditor::noticeArea()
{
    if (!m_noticeArea) {
        m_noticeArea = new QWidget(this);
        m_noticeArea->setObjectName(QStringLiteral("noticeArea"));
        auto *layout = new QVBoxLayout(m_noticeArea);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        // Notices shown, hidden, added or reworded make the area ask for a new layout.
        m_noticeArea->installEventFilter(this);
        layoutNoticeArea();
    }
    return m_noticeArea;
}

void KernelEditor::resizeEvent(QResizeEvent *event)
{
    QsciScintilla::resizeEvent(event);
    layoutNoticeArea();
}

bool KernelEditor::eventFilter(QObject *watched, QEvent *event)
{
    // A notice shown or hidden while the area itself is hidden makes no layout request of its own:
    // each notice is watched for that too.
    const QEvent::Type type = event->type();
    if (watched == m_noticeArea) {
        if (type == QEvent::ChildAdded) {
            if (auto *child = qobject_cast<QWidget *>(static_cast<QChildEvent *>(event)->child()))
                child->installEventFilter(this);
        }
        if (type == QEvent::LayoutRequest || type == QEvent::ChildAdded || type == QEvent::ChildRemoved)
            layoutNoticeArea();
    } else if (m_noticeArea && watched->parent() == m_noticeArea &&
               (type == QEvent::ShowToParent || type == QEvent::HideToParent)) {
        layoutNoticeArea();
    }
    return QsciScintilla::eventFilter(watched, event);
}

void KernelEditor::layoutNoticeArea()
{
    if (!m_noticeArea)
        return;
    bool any = false;
    for (const QWidget *w : m_noticeArea->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
        any = any || !w->isHidden();
    const int frame = frameWidth();
    const int width = qMax(0, this->width() - 2 * frame);
    QLayout *layout = m_noticeArea->layout();
    const int height = !any                          ? 0
                       : layout->hasHeightForWidth() ? layout->heightForWidth(width)
                                                     : layout->sizeHint().height();
    setViewportMargins(0, height, 0, 0);
    m_noticeArea->setGeometry(frame, frame, width, height);
    m_noticeArea->setVisible(height > 0);
    m_noticeArea->raise();
}

} // namespace clscope::ui
