// The worker thread behind WorkQueue.
#include "workqueue.h"

namespace clscope::ui {

WorkQueue::WorkQueue(QObject *parent)
    : QObject(parent)
    , m_pool(new QThreadPool)
{
    m_pool->setMaxThreadCount(1);
    m_pool->setExpiryTimeout(-1);
}

WorkQueue::~WorkQueue()
{
    for (auto &latest : m_latest)
        latest->store(0); // whatever still waits is skipped
    // A kernel that runs for minutes must not hold the application's exit hostage: wait a little, then
    // leave the pool (and the driver call inside it) to the process teardown.
    if (m_pool->waitForDone(3000))
        delete m_pool;
}

std::shared_ptr<std::atomic<quint64>> WorkQueue::latestCounter(const QString &tag)
{
    auto &slot = m_latest[tag];
    if (!slot)
        slot = std::make_shared<std::atomic<quint64>>(0);
    return slot;
}

void WorkQueue::cancel(const QString &tag)
{
    const quint64 generation = ++m_generations[tag];
    latestCounter(tag)->store(generation);
}

bool WorkQueue::isCurrent(const QString &tag, quint64 generation) const
{
    const auto it = m_latest.constFind(tag);
    return it != m_latest.cend() && (*it)->load() == generation;
}

} // namespace clscope::ui
