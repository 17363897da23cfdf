// NoticeBar: a label and buttons on a warning-coloured strip.
#include "noticebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace clscope::ui {

NoticeBar::NoticeBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel)
    , m_buttons(new QHBoxLayout)
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // A warning colour that reads on light and dark palettes alike: amber mixed into the window colour.
    QPalette p = palette();
    const QColor window = p.color(QPalette::Window);
    const QColor amber(255, 193, 7);
    p.setColor(QPalette::Window,
               QColor((window.red() + amber.red()) / 2, (window.green() + amber.green()) / 2,
                      (window.blue() + amber.blue()) / 2));
    p.setColor(QPalette::WindowText, window.lightness() > 128 ? QColor(40, 30, 0) : QColor(255, 245, 220));
    setPalette(p);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_label, 1);
    layout->addLayout(m_buttons);
}

void NoticeBar::setText(const QString &text)
{
    m_label->setText(text);
}

QString NoticeBar::text() const
{
    return m_label->text();
}

QPushButton *NoticeBar::button(const QString &objectName, const QString &text)
{
    auto *b = findChild<QPushButton *>(objectName);
    if (!b) {
        b = new QPushButton(text);
        b->setObjectName(objectName);
        m_buttons->addWidget(b);
    }
    return b;
}

} // namespace clscope::ui
