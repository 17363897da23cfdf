// Enumerates OpenCL platforms and devices off the GUI thread, on a worker thread of its own (a hang in a
// broken driver there cannot keep the application from exiting), and remembers the current device.
// Results arrive as an immutable snapshot through devicesAvailable(); a refresh supersedes one still going.
#pragma once

#include "clscope/deviceinfo.h"
#include "workers/jobtag.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace clscope::ui {

class DeviceWorker;

using SnapshotPtr = std::shared_ptr<const SystemSnapshot>;

struct DeviceKey
{
    int platform = -1;
    int device = -1;
    bool isValid() const { return platform >= 0 && device >= 0; }
    bool operator==(const DeviceKey &) const = default;
};

class DeviceManager : public QObject
{
    Q_OBJECT
public:
    explicit DeviceManager(QObject *parent = nullptr);
    ~DeviceManager() override;

    // Starts a new enumeration; returns at once.
    void refresh();
    bool isBusy() const { return m_busy; }

    SnapshotPtr snapshot() const { return m_snapshot; }
    DeviceKey currentDevice() const { return m_current; }
    const DeviceSnapshot *currentDeviceSnapshot() const;
    // The device of the current snapshot with this id, or null.
    const DeviceSnapshot *deviceSnapshot(cl_device_id id) const;
    QString currentDeviceName() const;
    // The OpenCL drivers this process skipped because their probe crashed, hung or failed (the snapshot's
    // skippedIcds, from the loader setup in main), one sentence each; empty when none was.
    QStringList skippedDrivers() const;

    // Makes a device current and remembers it (by platform and device name) in QSettings.
    void setCurrentDevice(DeviceKey key);

signals:
    void enumerationStarted();
    void devicesAvailable(clscope::ui::SnapshotPtr snapshot);
    void currentDeviceChanged(clscope::ui::DeviceKey key);

private:
    void onFinished(SnapshotPtr snapshot);
    DeviceKey restoreRemembered() const;
    void applyCurrent(DeviceKey key, bool remember);

    std::unique_ptr<DeviceWorker> m_enumerator;
    JobTag m_tag{QStringLiteral("enumerate")}; // a newer refresh supersedes one still on its way
    SnapshotPtr m_snapshot;
    DeviceKey m_current;
    bool m_busy = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::ui::SnapshotPtr)
Q_DECLARE_METATYPE(clscope::ui::DeviceKey)
