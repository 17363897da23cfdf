// Build → Build matrix: option sets ("-O0|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32") × devices, one
// table cell per build with its figures (built or FAILED, build time, warnings, binary size, each kernel's
// work-group size, local and private memory, registers and spills where the driver reports them), the log
// of the selected cell below, its generated code a click away, and "Time it": the current launch run with
// every cell's build, its median kernel time added to the cell. The work is MatrixController's.
#pragma once

#include "controllers/devicetarget.h"

#include "clscope/build.h"

#include <QDialog>

#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace clscope::ui {

class MatrixController;
struct MatrixCellResult;

// The text of a cell: what the CLI prints for it, a line per figure.
QString matrixCellText(const MatrixCellResult &cell);

class BuildMatrixDialog : public QDialog
{
    Q_OBJECT
public:
    explicit BuildMatrixDialog(MatrixController *controller, QWidget *parent = nullptr);

    // The devices offered (all devices of every platform); those checked before stay checked, new ones are
    // checked.
    void setDevices(const std::vector<DeviceTarget> &devices);
    std::vector<DeviceTarget> checkedDevices() const;
    void setOptionSets(const QString &text);
    QString optionSetsText() const;
    // Shows a line under the buttons (why Build or Time it cannot start, what was built from).
    void showStatus(const QString &text);

    QTableWidget *table() const { return m_table; }
    QPushButton *buildButton() const { return m_build; }
    QPushButton *timeButton() const { return m_time; }
    QPushButton *cancelButton() const { return m_cancel; }
    QString logText() const;
    // The label a cell's build has in the generated-code dialog: "-O0 (matrix)".
    static QString cellLabel(const QString &set);

signals:
    // Build was pressed with these sets (parsed: none empty twice) on these devices.
    void buildRequested(const QStringList &sets, const std::vector<clscope::ui::DeviceTarget> &devices);
    void timeRequested();
    void codeRequested(const QString &label, const clscope::BuildResult &build, const QString &device);
    void diffRequested(const QString &leftLabel, const clscope::BuildResult &left, const QString &leftDevice,
                       const QString &rightLabel, const clscope::BuildResult &right,
                       const QString &rightDevice);

private:
    void startBuild();
    void onStarted(int sets, int devices);
    void onCellChanged(int set, int device);
    void onProgress(int done, int total);
    void onDone(bool cancelled, bool timing);
    void showSelected();
    void updateButtons();

    MatrixController *m_controller;
    std::vector<DeviceTarget> m_targets; // what the device list offers, in its order
    QLineEdit *m_sets;
    QListWidget *m_devices;
    QPushButton *m_build;
    QPushButton *m_cancel;
    QPushButton *m_time;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_table;
    QPlainTextEdit *m_log;
    QPushButton *m_code;
    QPushButton *m_diff;
};

} // namespace clscope::ui
