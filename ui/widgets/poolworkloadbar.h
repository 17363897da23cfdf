// The memory pool panel's workload generator (PoolDock): a row to choose a workload (or a trace to replay)
// and a rate, Run and Stop, and a status line that says how far a running workload has got and at what rate
// it achieves, measured as it runs, so a rate the device cannot keep up with shows as such. The workload
// runs on the panel's PoolMonitor.
#pragma once

#include "controllers/poolmonitor.h"

#include <QElapsedTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;

namespace clscope::ui {

class PoolWorkloadBar : public QWidget
{
    Q_OBJECT
public:
    explicit PoolWorkloadBar(PoolMonitor *monitor, QWidget *parent = nullptr);

    // Chooses the workload, its rate (one the list lacks is added) and, when not null, the trace file.
    void setWorkload(WorkloadKind kind, double opsPerSecond, const QString &tracePath = {});
    // Starts the chosen workload on the monitor's pool.
    void start();
    // Run and Stop as the pool and a running workload allow.
    void setActionsEnabled(bool hasPool, bool running);
    // While a workload runs: its operations so far and the rate it achieves.
    void updateRunStatus();
    void setStatus(const QString &text);
    QString statusText() const;

signals:
    void runRequested(); // the Run button

private:
    void chooseTrace();

    PoolMonitor *m_monitor;
    QComboBox *m_workload;
    QLineEdit *m_tracePath;
    QToolButton *m_browse;
    QComboBox *m_rate;
    QPushButton *m_run;
    QPushButton *m_stop;
    QLabel *m_status;

    // Achieved rate, measured over the last half second.
    QElapsedTimer m_rateClock;
    quint64 m_rateOps = 0;
    double m_achievedRate = 0;
};

} // namespace clscope::ui
