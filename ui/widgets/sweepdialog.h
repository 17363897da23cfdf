// Run → Sweep local size: a window beside the main one (not modal) that sweeps the launch the Arguments panel
// describes over work-group sizes (clscope/sweep.h) on the device's worker, with a progress bar and Cancel,
// then shows the time of every size in a chart (SweepChart) and a table, and puts the best size in the
// panel on "Use best". The window makes the launch (as F5 does) and calls start(); the dialog asks for it
// again with sweepRequested().
#pragma once

#include "clscope/sweep.h"
#include "sweeptable.h"

#include <QDialog>

#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;

namespace clscope::ui {

class DeviceWorkers;
class SweepChart;
class SweepController;

class SweepDialog : public QDialog
{
    Q_OBJECT
public:
    using enum SweepTable::Column; // SweepDialog::MedianColumn, as the table's were before it had a class

    explicit SweepDialog(std::shared_ptr<DeviceWorkers> workers, QWidget *parent = nullptr);
    ~SweepDialog() override;

    // Sweeps the launch (its local size is the reference, the one the others' outputs are compared with)
    // over the local sizes and with the launch count the dialog shows. False, with the reason shown, when
    // the list of local sizes is not one.
    bool start(const RunRequest &launch);
    // Stops the sweep between two launches; the sizes that ran are shown.
    void cancel();
    bool isRunning() const;

    // Shows a finished sweep (the controller's, or one a test or a saved run gives).
    void showResult(const SweepResult &result);
    // Shows the sweep of a `clscope-cli sweep --json` document (one made on another machine, say). False,
    // with the reason in *error and in the window, when the file cannot be read or is no such document.
    bool openResults(const QString &path, QString *error = nullptr);
    const SweepResult &result() const { return m_result; }
    // What "Use best" puts in the panel's local size: the best size, empty for the driver's choice;
    // nothing when no size ran with the reference's outputs.
    std::optional<QString> bestLocal() const;
    void useBest();

    SweepController *controller() const { return m_controller; }
    SweepChart *chart() const { return m_chart; }
    SweepTable *table() const { return m_table; }
    QLineEdit *candidatesField() const { return m_candidates; }
    QSpinBox *repeatBox() const { return m_repeat; }
    QPushButton *sweepButton() const { return m_sweep; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *useBestButton() const { return m_useBest; }
    QPushButton *openButton() const { return m_open; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }

signals:
    // Sweep pressed: the window makes the launch from the panel again (building first when needed) and
    // calls start().
    void sweepRequested();
    // Use best: the local size for the Arguments panel, empty for "the driver chooses".
    void useLocalSize(const QString &local);
    void sweepFinished(const clscope::SweepResult &result);
    void sweepFailed(const QString &message);

public slots:
    // Closing the window stops a sweep that is still going.
    void reject() override;

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void setRunning(bool running);
    void onProgress(int done, int total);
    void onFinished(const SweepResult &result);
    void onFailed(const QString &message);
    void fitTable();
    QString summary() const;

    SweepController *m_controller;
    QLabel *m_header;
    QLineEdit *m_candidates;
    QSpinBox *m_repeat;
    QPushButton *m_sweep;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QLabel *m_status;
    SweepChart *m_chart;
    SweepTable *m_table;
    QSplitter *m_splitter;
    QPushButton *m_useBest;
    QPushButton *m_open;
    SweepResult m_result;
    QString m_kernel; // of the sweep under way
    bool m_sized = false;
    bool m_splitMoved = false; // by the user: the table keeps the height given
};

} // namespace clscope::ui
