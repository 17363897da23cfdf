// The results viewer's comparison: the shown buffer against another read-back buffer of the run or a file
// (.npy or raw .bin) within a tolerance, the differing elements coloured in the table (BufferTableModel),
// the target kept and compared again after the next run; and the expected contents of a captured launch,
// checked after every run. The controls are a row of their own; the verdict lines (resultLabel,
// expectedLabel) are placed by the viewer.
#pragma once

#include "clscope/runner.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace clscope::ui {

class BufferTableModel;

class BufferCompareBar : public QWidget
{
    Q_OBJECT
public:
    // Expected contents of a buffer (a captured launch's "after" contents, .npy).
    struct Expected
    {
        QString buffer;
        QString path;
        bool written = false; // the captured launch changed it: shown first
    };

    // `model` is the viewer's: what is shown is compared, and the differences are coloured there.
    explicit BufferCompareBar(BufferTableModel *model, QWidget *parent = nullptr);

    // The run whose buffers can be compared with (the viewer's, which outlives this): they are offered as
    // targets, and the target typed in is kept.
    void setRun(const RunResult *result);

    // Compares and keeps the target (when it could be compared) for the next run. Returns the verdict.
    QString compareWith(const QString &bufferOrPath, double tolerance);
    // After a run: compares again with the kept target, if any.
    void compareAgain();
    // Another buffer is shown: its comparison is not made yet.
    void clearResult();
    // Another buffer was chosen by hand: the kept target may not fit it.
    void forgetTarget() { m_target.clear(); }
    QString compareText() const;
    QString compareTarget() const { return m_target; }

    void setExpected(std::vector<Expected> expected, const QString &label);
    const std::vector<Expected> &expected() const { return m_expected; }
    QString expectedText() const;
    bool expectedEqual() const { return m_expectedEqual; }
    // Compares every expected buffer with the run's and shows the verdict; returns the one to show (the
    // first that differs, else the first written, else the first), or null.
    const Expected *checkExpected();
    // Compares the shown buffer (the viewer has selected e.buffer) with its expected contents.
    void showExpected(const Expected &e);

    QLabel *resultLabel() const { return m_result; }
    QLabel *expectedLabel() const { return m_expectedResult; }

signals:
    // A comparison coloured differing elements: the viewer brings the first into view.
    void differencesShown();
    void firstDifferenceRequested();

private:
    QString compare(const QString &bufferOrPath, double tolerance, bool *compared);

    BufferTableModel *m_model;
    const RunResult *m_run = nullptr;
    QComboBox *m_with;
    QDoubleSpinBox *m_tolerance;
    QPushButton *m_firstDifference;
    QLabel *m_result;
    QLabel *m_expectedResult;
    std::vector<Expected> m_expected;
    QString m_expectedLabel;
    bool m_expectedEqual = false;
    QString m_target; // what the last Compare compared with, compared again after the next run
};

} // namespace clscope::ui
