// The runs' pool, made and dropped on the workers (see runpool.h).
#include "runpool.h"

#include <utility>

namespace clscope::ui {

std::shared_ptr<MemoryPool> RunPool::forContext(cl_context context, bool *made)
{
    std::shared_ptr<MemoryPool> replaced;
    {
        const std::lock_guard lock(m_mutex);
        if (m_pool && m_context == context)
            return m_pool;
    }
    // Made outside the lock (it calls the driver); only runs of this controller make pools, one at a time
    // per worker, and the last one made wins.
    // Deferred: each run has its own queue, and the run writes its buffers anyway.
    std::shared_ptr<MemoryPool> pool = makePool(AllocatorKind::Deferred, context);
    {
        const std::lock_guard lock(m_mutex);
        replaced = std::exchange(m_pool, pool);
        m_context = context;
    }
    *made = true;
    return pool; // replaced goes here, on the worker
}

std::shared_ptr<MemoryPool> RunPool::share() const
{
    const std::lock_guard lock(m_mutex);
    return m_pool;
}

void RunPool::drop()
{
    std::shared_ptr<MemoryPool> old;
    const std::lock_guard lock(m_mutex);
    old = std::move(m_pool);
    m_context = nullptr;
}

} // namespace clscope::ui
