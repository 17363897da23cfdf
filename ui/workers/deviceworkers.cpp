// Device workers by device, and their shutdown together.
#include "deviceworkers.h"

#include <algorithm>

namespace clscope::ui {

DeviceWorkers::DeviceWorkers(std::chrono::milliseconds shutdownWait)
    : m_wait(shutdownWait)
    , m_deviceless(std::make_unique<DeviceWorker>(QStringLiteral("host")))
{}

DeviceWorkers::~DeviceWorkers()
{
    shutdown();
}

DeviceWorker &DeviceWorkers::forDevice(DeviceId device)
{
    if (!device || m_shutDown)
        return *m_deviceless; // after shutdown: a worker that runs nothing
    auto &slot = m_workers[device];
    if (!slot)
        slot = std::make_unique<DeviceWorker>(QStringLiteral("dev%1").arg(m_workers.size() - 1));
    return *slot;
}

bool DeviceWorkers::shutdown()
{
    if (m_shutDown)
        return true;
    m_shutDown = true;
    m_deviceless->beginShutdown();
    for (auto &[device, worker] : m_workers)
        worker->beginShutdown();
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + m_wait;
    const auto left = [&] {
        return std::max(std::chrono::milliseconds(0),
                        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    };
    bool all = true;
    for (auto &[device, worker] : m_workers)
        all = worker->shutdown(left()) && all;
    return m_deviceless->shutdown(left()) && all;
}

} // namespace clscope::ui
