// A non-modal notice above the text of an editor ("a.cl changed on disk", "autosave failed"), with the
// buttons that act on it. The editor makes room for it (KernelEditor::noticeArea).
#pragma once

#include <QFrame>

class QHBoxLayout;
class QLabel;
class QPushButton;

namespace clscope::ui {

class NoticeBar : public QFrame
{
    Q_OBJECT
public:
    explicit NoticeBar(QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const;
    QLabel *label() const { return m_label; }
    // Buttons are found again by object name, so a notice shown twice keeps one of each.
    QPushButton *button(const QString &objectName, const QString &text);

private:
    QLabel *m_label;
    QHBoxLayout *m_buttons;
};

} // namespace clscope::ui
