// Build → Run on all devices: the current launch on every device, side by side: one row per device with its
// kernel time (median of the launches), the launches, wall and build time, and whether its buffers agree
// with the first device's (exact for integers, a tolerance for floats, with the largest differences). Rows
// that differ or failed are flagged in red; the reference row says so. The work is RunAllController's.
#pragma once

#include "controllers/runallcontroller.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace clscope::ui {

class RunAllDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column {
        DeviceColumn,
        KernelColumn,
        LaunchesColumn,
        WallColumn,
        BuildColumn,
        OutputsColumn,
        DetailsColumn,
        ColumnCount
    };

    explicit RunAllDialog(RunAllController *controller, QWidget *parent = nullptr);

    // Shows rows as they stand (the controller's, or any, for tests).
    void showRows(const std::vector<RunAllRow> &rows, bool finished);
    void setLaunchText(const QString &text);
    void showStatus(const QString &text);

    QTableWidget *table() const { return m_table; }
    QString summaryText() const;
    // Whether a row is flagged (it failed, or its outputs differ from the reference).
    bool isFlagged(int row) const;

signals:
    void runRequested();

private:
    RunAllController *m_controller;
    QLabel *m_launch;
    QLabel *m_summary;
    QTableWidget *m_table;
    QPushButton *m_again;
    QPushButton *m_cancel;
    std::vector<bool> m_flagged;
};

} // namespace clscope::ui
