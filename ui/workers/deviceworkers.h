// The registry of device workers: one DeviceWorker per device (keyed by the device's cl_device_id, or any
// opaque pointer that names one), made at the first request, and one for work that needs no device (a
// check's report, files). Destroying the registry shuts every worker down together: all are cancelled
// first, then each is waited for within one shared deadline, so a hung driver delays the exit by that
// deadline at most, whatever the number of devices.
#pragma once

#include "deviceworker.h"

#include <QString>

#include <chrono>
#include <map>
#include <memory>

namespace clscope::ui {

class DeviceWorkers
{
public:
    using DeviceId = const void *;

    explicit DeviceWorkers(std::chrono::milliseconds shutdownWait = DeviceWorker::kShutdownWait);
    ~DeviceWorkers();
    DeviceWorkers(const DeviceWorkers &) = delete;
    DeviceWorkers &operator=(const DeviceWorkers &) = delete;

    // The worker of the device; a null device gets the device-less worker. Call from one thread (the
    // GUI's); the worker itself may then be used from any.
    DeviceWorker &forDevice(DeviceId device);
    DeviceWorker &deviceless() { return *m_deviceless; }
    std::size_t deviceCount() const { return m_workers.size(); }

    // What the destructor does; true when every thread ended in time. Idempotent.
    bool shutdown();

private:
    std::chrono::milliseconds m_wait;
    std::unique_ptr<DeviceWorker> m_deviceless;
    std::map<DeviceId, std::unique_ptr<DeviceWorker>> m_workers;
    bool m_shutDown = false;
};

} // namespace clscope::ui
