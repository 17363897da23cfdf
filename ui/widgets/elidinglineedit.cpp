// Middle elision for long line edit values, painted over the usual frame.
#include "elidinglineedit.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionFrame>
#include <QToolButton>
#include <QToolTip>

#include <algorithm>

namespace clscope::ui {

namespace {
// QLineEdit's own space between the contents' edge and the text (QLineEditPrivate::horizontalMargin).
constexpr int kHorizontalMargin = 2;
} // namespace

ElidingLineEdit::ElidingLineEdit(QWidget *parent)
    : QLineEdit(parent)
{}

ElidingLineEdit::ElidingLineEdit(const QString &text, QWidget *parent)
    : QLineEdit(text, parent)
{}

QRect ElidingLineEdit::textRect() const
{
    QStyleOptionFrame option;
    initStyleOption(&option);
    QRect r = style()->subElementRect(QStyle::SE_LineEditContents, &option, this);
    r = r.marginsRemoved(textMargins());
    r.adjust(kHorizontalMargin, 0, -kHorizontalMargin, 0);
    // The buttons of actions inside the field (addAction) are child tool buttons.
    const QList<QToolButton *> buttons = findChildren<QToolButton *>(Qt::FindDirectChildrenOnly);
    for (const QToolButton *button : buttons) {
        if (!button->isVisible())
            continue;
        if (button->geometry().center().x() > r.center().x())
            r.setRight(std::min(r.right(), button->geometry().left() - 1));
        else
            r.setLeft(std::max(r.left(), button->geometry().right() + 1));
    }
    return r;
}

QString ElidingLineEdit::shownText() const
{
    if (hasFocus() || echoMode() != QLineEdit::Normal)
        return text();
    return fontMetrics().elidedText(text(), Qt::ElideMiddle, textRect().width());
}

void ElidingLineEdit::paintEvent(QPaintEvent *event)
{
    const QString shown = shownText();
    if (shown == text()) {
        QLineEdit::paintEvent(event);
        return;
    }
    QPainter painter(this);
    QStyleOptionFrame option;
    initStyleOption(&option);
    style()->drawPrimitive(QStyle::PE_PanelLineEdit, &option, &painter, this);
    painter.setPen(palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::Text));
    const Qt::Alignment vertical = alignment() & Qt::AlignVertical_Mask;
    painter.drawText(textRect(), Qt::AlignLeft | (vertical ? vertical : Qt::AlignVCenter), shown);
}

bool ElidingLineEdit::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && shownText() != text()) {
        // The whole value first; what the field is for (or why it is wrong) after it, when that differs.
        const QString tip = toolTip();
        const QString whole = tip.isEmpty() || tip == text() ? text() : text() + u'\n' + tip;
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), whole, this);
        return true;
    }
    return QLineEdit::event(event);
}

} // namespace clscope::ui
