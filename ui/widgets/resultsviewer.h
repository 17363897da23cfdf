// The results viewer: each read-back buffer in a table on a virtual model (a column per vector
// component), decimal/hex/scientific formats, a summary (min, max, mean, NaN and Inf counts), comparison
// with another buffer or a file within a tolerance, and save as .npy, .bin or .csv.
#pragma once

#include "clscope/runner.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableView;

namespace clscope::ui {

class BufferTableModel;

class ResultsViewer : public QWidget
{
    Q_OBJECT
public:
    explicit ResultsViewer(QWidget *parent = nullptr);

    void showResult(const RunResult &result);
    const RunResult &result() const { return m_result; }
    bool selectBuffer(const QString &name);
    BufferTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString summaryText() const;
    // Compares the shown buffer with another read-back buffer, or with a file (.npy or raw .bin).
    QString compareWith(const QString &bufferOrPath, double tolerance);
    // Saves the shown buffer; the format follows the extension (.npy, .bin, .csv). Returns an error.
    QString saveBuffer(const QString &path) const;

private:
    void onBufferChosen(int index);
    void updateSummary();

    RunResult m_result;
    BufferTableModel *m_model;
    QComboBox *m_buffer;
    QComboBox *m_format;
    QTableView *m_table;
    QLabel *m_header;
    QLabel *m_summary;
    QComboBox *m_compareWith;
    QDoubleSpinBox *m_tolerance;
    QLabel *m_compareResult;
};

} // namespace clscope::ui
