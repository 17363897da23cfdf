// Test-side helpers of the pool suites: a fake allocator that counts, fails on demand and logs, and
// POOL.md's example trace with the counters after each op.
#pragma once

#include "clscope/pool.h"

#include <QtCore/QByteArray>

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pooltest {
using namespace clscope;

// A fake allocator: unique fake handles, a byte capacity beyond which it reports out of memory, failures
// on demand, and a log of calls. Thread-safe, as the pool calls it outside its lock.
class CountingTestAllocator : public Allocator
{
public:
    struct Call
    {
        bool release = false;
        std::size_t size = 0;
        cl_int error = CL_SUCCESS;
    };

    AllocResult allocate(std::size_t size) override
    {
        std::lock_guard lock(m_mutex);
        cl_int error = CL_SUCCESS;
        if (m_failNext > 0) {
            --m_failNext;
            error = m_failCode;
        } else if (m_maxAlloc != 0 && size > m_maxAlloc) {
            error = CL_INVALID_BUFFER_SIZE;
        } else if (m_liveBytes + size > m_capacity) {
            error = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        }
        if (m_logging)
            m_log.push_back({false, size, error});
        if (error != CL_SUCCESS)
            return {nullptr, error, "testAllocate"};
        void *handle = reinterpret_cast<void *>(++m_nextHandle * 16);
        m_live.emplace(handle, size);
        m_liveBytes += size;
        return {handle, CL_SUCCESS, nullptr};
    }
    void release(void *handle) noexcept override
    {
        std::lock_guard lock(m_mutex);
        auto it = m_live.find(handle);
        if (it == m_live.end()) {
            ++m_badReleases;
            return;
        }
        if (m_logging)
            m_log.push_back({true, it->second, CL_SUCCESS});
        m_liveBytes -= it->second;
        m_live.erase(it);
    }
    std::size_t maxAllocSize() const override { return m_maxAlloc; }

    void setCapacity(std::size_t bytes) { m_capacity = bytes; }
    void setMaxAlloc(std::size_t bytes) { m_maxAlloc = bytes; }
    void failNext(int count, cl_int code)
    {
        m_failNext = count;
        m_failCode = code;
    }
    void setLogging(bool on) { m_logging = on; }
    std::vector<Call> takeLog() { return std::exchange(m_log, {}); }
    std::size_t liveBytes() const { return m_liveBytes; }
    std::size_t liveCount() const { return m_live.size(); }
    int badReleases() const { return m_badReleases; }

private:
    std::mutex m_mutex;
    std::unordered_map<void *, std::size_t> m_live;
    std::uintptr_t m_nextHandle = 0;
    std::size_t m_liveBytes = 0;
    std::size_t m_capacity = SIZE_MAX;
    std::size_t m_maxAlloc = 0;
    int m_failNext = 0;
    cl_int m_failCode = CL_SUCCESS;
    int m_badReleases = 0;
    bool m_logging = true;
    std::vector<Call> m_log;
};

inline std::unique_ptr<MemoryPool> makePool(const std::shared_ptr<CountingTestAllocator> &alloc, int bits = 4)
{
    PoolOptions o;
    o.leadingBits = bits;
    return std::make_unique<MemoryPool>(alloc, o);
}

inline QByteArray text(const PoolCounters &c)
{
    // "held/active/managed/active_bytes/held_bytes", the way POOL.md writes its example.
    QByteArray out = QByteArray::number(c.heldBlocks);
    for (std::uint64_t v : {c.activeBlocks, c.managedBytes, c.activeBytes, c.heldBytes})
        out.append('/').append(QByteArray::number(v));
    return out;
}

inline const char *const kExampleTrace = "# POOL.md example\n"
                                         "alloc a 1000\n"
                                         "alloc b 1024\n"
                                         "free a\n"
                                         "alloc c 1010   # same bin as a: reuses it\n"
                                         "free_held\n"
                                         "free b\n"
                                         "stop_holding\n";
// held/active/managed/active_bytes/held_bytes after each op of kExampleTrace (POOL.md, plus held_bytes).
inline const char *const kExampleCounters[] = {"0/1/1023/1000/0", "0/2/2110/2024/0", "1/1/2110/1024/1023",
                                               "0/2/2110/2034/0", "0/2/2110/2034/0", "1/1/2110/1010/1087",
                                               "0/1/1023/1010/0"};
} // namespace pooltest
