// The memory pool panel: a live chart of the pool of the current device, its counters and bin
// histogram, the pool's actions (free held, stop holding, new pool) and a workload generator to watch
// it work (PoolWorkloadBar). It can also show a pool made elsewhere (the kernel runner's) through
// attachPool().
#pragma once

#include "controllers/poolmonitor.h"
#include "workbenchview.h"

#include <QHash>
#include <QWidget>

#include <CL/cl.h>

#include <memory>

class QComboBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace clscope::ui {

class DeviceWorkers;

class PoolBinChart;
class PoolChart;
class PoolWorkloadBar;

// A view of the window (WorkbenchView): the current device's pool, or the pool runs take their buffers
// from.
class PoolDock : public QWidget, public WorkbenchView
{
    Q_OBJECT
public:
    explicit PoolDock(std::shared_ptr<DeviceWorkers> workers, QWidget *parent = nullptr);
    ~PoolDock() override;

    // A fresh pool on the window's current device (setDevice).
    void onCurrentDeviceChanged(const DeviceSnapshot *device) override;
    // Shows the runs' pool, unless the user is watching a workload of their own here.
    void onRunPoolInUse(const std::shared_ptr<const RunPool> &pool) override;

    // The main window's current device; nullptr (or never called) shows that there is none yet. A fresh
    // pool is made on the device, off the GUI thread.
    void setDevice(cl_device_id device, const QString &name);
    // Shows another component's pool instead (until the next setDevice or New pool).
    void attachPool(std::shared_ptr<MemoryPool> pool, const QString &label);

    PoolMonitor *monitor() const { return m_monitor; }
    PoolChart *chart() const { return m_chart; }
    PoolBinChart *binChart() const { return m_bins; }

    // What the controls do, for tests and scripts.
    void setWorkload(WorkloadKind kind, double opsPerSecond, const QString &tracePath = {});
    void runWorkload();
    void stopWorkload();
    void requestNewPool(int leadingBits, AllocatorKind kind);

    // A counter as shown ("hits", "misses", "hitRate", "heldBlocks", "heldBytes", "activeBlocks",
    // "activeBytes", "managedBytes", "peakManaged", "peakActive", "allocatorCalls", "allocatorReleases",
    // "oomRecoveries", "holding"); empty for an unknown key.
    QString counterText(const QString &key) const;
    QStringList counterKeys() const;
    // The error banner's message; empty when it is hidden.
    QString errorText() const;
    QString statusText() const;

private:
    QWidget *createPoolBar();
    QWidget *createCounters();
    void onUpdated();
    void onPoolChanged();
    void updateActions();
    void showError(const QString &message);

    PoolMonitor *m_monitor;
    PoolChart *m_chart;
    PoolBinChart *m_bins;

    QLabel *m_poolLabel = nullptr;
    QPushButton *m_freeHeld = nullptr;
    QPushButton *m_stopHolding = nullptr;
    QSpinBox *m_leadingBits = nullptr;
    QComboBox *m_allocator = nullptr;
    QPushButton *m_newPool = nullptr;

    PoolWorkloadBar *m_workloadBar = nullptr;

    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QHash<QString, QLabel *> m_counters;
    QStringList m_counterOrder;
};

} // namespace clscope::ui
