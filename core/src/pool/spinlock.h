// The pool's lock. Its critical sections are a few dozen instructions, so a test-and-test-and-set lock
// beats std::mutex: unlocking is a plain release store instead of a second atomic read-modify-write,
// which is a third of a pool hit once the process has more than one thread (glibc then stops
// skipping the atomics of its own locks). Waiters spin briefly, then yield, then nap, so eight
// threads on two cores still make progress.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace clscope::detail {

class SpinLock
{
public:
    void lock() noexcept
    {
        if (!m_locked.exchange(true, std::memory_order_acquire))
            return;
        lockContended();
    }
    bool try_lock() noexcept
    {
        return !m_locked.load(std::memory_order_relaxed) &&
               !m_locked.exchange(true, std::memory_order_acquire);
    }
    void unlock() noexcept { m_locked.store(false, std::memory_order_release); }

private:
    static void pause() noexcept
    {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
    }

    void lockContended() noexcept
    {
        for (unsigned attempt = 0;; ++attempt) {
            while (m_locked.load(std::memory_order_relaxed)) {
                if (attempt < 64)
                    pause();
                else if (attempt < 128)
                    std::this_thread::yield();
                else
                    std::this_thread::sleep_for(std::chrono::microseconds(50));
                ++attempt;
            }
            if (!m_locked.exchange(true, std::memory_order_acquire))
                return;
        }
    }

    std::atomic<bool> m_locked{false};
};

} // namespace clscope::detail
