// A line edit for long values (file paths): while it does not have the focus and its text is wider than the
// field, it shows the text elided in the middle ("/tmp/…/input.npy" rather than "/tmp/work/da"), and its
// tooltip shows the whole text. Editing shows the text as it is.
#pragma once

#include <QLineEdit>

namespace clscope::ui {

class ElidingLineEdit : public QLineEdit
{
    Q_OBJECT
public:
    explicit ElidingLineEdit(QWidget *parent = nullptr);
    explicit ElidingLineEdit(const QString &text, QWidget *parent = nullptr);

    // The text as painted now: elided in the middle when it does not fit and the field is not being edited.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    // Where the text goes: the contents less the margins and the buttons of actions inside the field.
    QRect textRect() const;
};

} // namespace clscope::ui
