// The cancel side of a DeviceWorker job: the work polls it between steps (OpenCL cannot stop a call in
// flight, so a job stops at its next check). It turns true when the job's tag is cancelled or discarded,
// when a newer request with the same tag is submitted, and when the worker shuts down.
#pragma once

#include <atomic>
#include <memory>

namespace clscope::ui {

class CancelToken
{
public:
    // A token that nobody cancels (for calling a job's work directly, as tests do).
    CancelToken()
        : m_flag(std::make_shared<std::atomic<bool>>(false))
    {}
    explicit CancelToken(std::shared_ptr<std::atomic<bool>> flag)
        : m_flag(std::move(flag))
    {}

    bool isCancelled() const { return m_flag->load(std::memory_order_acquire); }
    // The same flag for the core APIs that take one (RunOptions::cancel, CheckSession::run).
    std::shared_ptr<const std::atomic<bool>> flag() const { return m_flag; }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace clscope::ui
