// The kernel runs' memory pool (one per build context, see RunController), held where the GUI thread
// never owns it: a run's job makes, replaces and hands out the pool on its worker, so the pool's buffers,
// allocator and context are released on a worker thread, and nothing has to be sent back there. The GUI
// reads the pool's statistics and series through read(), under the mutex that the worker needs to replace
// the pool, so the pool outlives every read.
#pragma once

#include "clscope/pool.h"

#include <CL/cl.h>

#include <memory>
#include <mutex>

namespace clscope::ui {

class RunPool
{
public:
    // Worker side. The pool for the context: the kept one when it is of that context; else a new one
    // (*made set), and the one it replaces dies here.
    std::shared_ptr<MemoryPool> forContext(cl_context context, bool *made);
    // Worker side: another reference, to show the pool elsewhere (the pool dock adopts it on its worker).
    std::shared_ptr<MemoryPool> share() const;
    // Worker side: drops the pool (the controller is going).
    void drop();

    // GUI side: f(pool) under the mutex; false (f not called) when there is no pool yet. f must only
    // read (stats(), snapshotSeries(): the pool's own lock, for microseconds), never call the driver.
    template<typename F> bool read(F &&f) const
    {
        const std::lock_guard lock(m_mutex);
        if (!m_pool)
            return false;
        f(static_cast<const MemoryPool &>(*m_pool));
        return true;
    }

private:
    mutable std::mutex m_mutex;
    std::shared_ptr<MemoryPool> m_pool;
    cl_context m_context = nullptr; // retained by m_pool's allocator, so it cannot be reused meanwhile
};

} // namespace clscope::ui
