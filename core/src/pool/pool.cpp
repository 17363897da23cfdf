// The memory pool: pyopencl's bins and counters, out-of-memory recovery, statistics and the time series.
#include "clscope/pool.h"

#include "bins.h"
#include "spinlock.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <limits>
#include <mutex>
#include <utility>

namespace clscope {

// ---- Bins -------------------------------------------------------------------------------------------

void checkLeadingBits(int leadingBits)
{
    if (leadingBits < 0 || leadingBits > kMaxLeadingBits)
        throw std::invalid_argument("memory pool: leading bits must be 0.." +
                                    std::to_string(kMaxLeadingBits) + ", got " + std::to_string(leadingBits));
}

BinNumber binNumber(std::uint64_t size, int leadingBits)
{
    checkLeadingBits(leadingBits);
    return detail::binOf(size, static_cast<unsigned>(leadingBits));
}

std::uint64_t allocSize(BinNumber bin, int leadingBits)
{
    checkLeadingBits(leadingBits);
    const unsigned b = static_cast<unsigned>(leadingBits);
    if ((bin >> b) > 63)
        throw std::out_of_range("memory pool: bin " + std::to_string(bin) + " is beyond the last bin (" +
                                std::to_string(detail::binOf(std::numeric_limits<std::uint64_t>::max(), b)) +
                                ") for " + std::to_string(leadingBits) + " leading bits");
    return detail::sizeOf(bin, b);
}

PoolOutOfMemoryError::PoolOutOfMemoryError(const char *routine, cl_int code, std::size_t requested,
                                           std::string detail)
    : ClError(routine, code, std::move(detail))
    , m_requested(requested)
{}

// ---- State ------------------------------------------------------------------------------------------

namespace detail {
namespace {
enum class SlotState : std::uint8_t { Free, Active, Held };

// One block record. Records live in one vector and link into per-bin stacks of held blocks (or the
// list of free records) through `next`, so returning a block to its bin needs no allocation.
struct Slot
{
    void *handle = nullptr;
    std::size_t size = 0;
    std::size_t allocSize = 0;
    cl_command_queue queue = nullptr; // retained while set
    BinNumber bin = 0;
    std::uint32_t generation = 0;
    std::uint32_t next = kNoSlot;
    SlotState state = SlotState::Free;
    bool unrounded = false;
};

struct Released
{
    void *handle = nullptr;
    cl_command_queue queue = nullptr;
};

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// For samples on change. steady_clock is CLOCK_MONOTONIC on Linux; the coarse variant shares its epoch,
// ticks every few ms (plenty for a chart) and costs ~4 ns where a precise read costs ~45 ns under
// kvm-clock, as much as a whole hit. Elsewhere the precise clock it is.
std::int64_t coarseNowNs()
{
#if defined(__linux__) && defined(CLOCK_MONOTONIC_COARSE)
    timespec ts{};
    if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0)
        return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
#endif
    return nowNs();
}

BlockId makeId(std::uint32_t index, std::uint32_t generation)
{
    return static_cast<BlockId>((std::uint64_t{generation} << 32) | index);
}

std::string countersText(const PoolCounters &c)
{
    return "held_blocks " + std::to_string(c.heldBlocks) + ", active_blocks " +
           std::to_string(c.activeBlocks) + ", managed_bytes " + std::to_string(c.managedBytes) +
           ", active_bytes " + std::to_string(c.activeBytes) + ", held_bytes " + std::to_string(c.heldBytes);
}
} // namespace

class PoolState
{
public:
    PoolState(std::shared_ptr<Allocator> allocator, const PoolOptions &options)
        : m_allocator(std::move(allocator))
        , m_bits(static_cast<unsigned>(options.leadingBits))
        , m_bins(m_bits)
        , m_sampleOnChange(options.sampleOnChange)
    {
        m_stats.leadingBits = options.leadingBits;
        m_slots.reserve(options.reserveBlocks);
        m_ring.resize(options.seriesCapacity);
    }

    ~PoolState()
    {
        // Nobody can free any more: give back held blocks and manual-API blocks never freed.
        for (Slot &s : m_slots) {
            if (s.state != SlotState::Free)
                releaseOutside({s.handle, s.queue});
        }
    }

    PoolState(const PoolState &) = delete;
    PoolState &operator=(const PoolState &) = delete;

    PoolBlock allocate(std::size_t size, cl_command_queue queue)
    {
        const BinNumber bin = binOf(size, m_bits);
        {
            std::unique_lock lock(m_mutex);
            BinState *bs = m_bins.find(bin);
            if (bs && bs->heldHead != kNoSlot)
                return takeHeld(lock, *bs, size, queue);
            ++m_stats.misses;
        }
        return allocateNew(size, bin, queue);
    }

    void free(BlockId id)
    {
        Released out;
        {
            std::lock_guard lock(m_mutex);
            const auto raw = static_cast<std::uint64_t>(id);
            const auto index = static_cast<std::uint32_t>(raw & 0xffffffffu);
            const auto generation = static_cast<std::uint32_t>(raw >> 32);
            if (index >= m_slots.size() || m_slots[index].generation != generation ||
                m_slots[index].state != SlotState::Active)
                throw std::invalid_argument("memory pool: free of block " + std::to_string(raw) +
                                            ", which is not active: freed twice, or not from this pool");
            Slot &s = m_slots[index];
            BinState &bs = m_bins.get(s.bin); // exists: the block is active in it
            --bs.active;
            --m_stats.counters.activeBlocks;
            m_stats.counters.activeBytes -= s.size;
            // An unrounded block is smaller than its bin's size, so it must not serve the bin's requests.
            if (m_stats.holding && !s.unrounded) {
                s.state = SlotState::Held;
                s.next = bs.heldHead;
                bs.heldHead = index;
                ++bs.held;
                ++m_stats.counters.heldBlocks;
                m_stats.counters.heldBytes += s.allocSize;
                changedLocked();
                return;
            }
            out = retireLocked(index);
            m_bins.dropIfUnused(s.bin);
            changedLocked();
        }
        releaseOutside(out);
    }

    void freeHeld()
    {
        std::vector<Released> out;
        {
            std::lock_guard lock(m_mutex);
            out.reserve(m_stats.counters.heldBlocks);
            std::vector<BinNumber> bins;
            m_bins.forEach([&](BinNumber bin, const BinState &s) {
                if (s.held > 0)
                    bins.push_back(bin);
            });
            for (BinNumber bin : bins) {
                while (m_bins.get(bin).heldHead != kNoSlot)
                    out.push_back(popHeldLocked(bin));
                m_bins.dropIfUnused(bin);
            }
            if (!out.empty())
                changedLocked();
        }
        for (const Released &r : out)
            releaseOutside(r);
    }

    void stopHolding()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stats.holding = false;
        }
        freeHeld();
    }

    bool isHolding() const
    {
        std::lock_guard lock(m_mutex);
        return m_stats.holding;
    }
    int leadingBits() const { return static_cast<int>(m_bits); }
    PoolCounters counters() const
    {
        std::lock_guard lock(m_mutex);
        return m_stats.counters;
    }
    PoolStats stats() const
    {
        std::lock_guard lock(m_mutex);
        PoolStats copy = m_stats;
        m_bins.forEach([&](BinNumber bin, const BinState &s) {
            if (s.held > 0 || s.active > 0)
                copy.bins.push_back({bin, sizeOf(bin, m_bits), s.held, s.active});
        });
        std::sort(copy.bins.begin(), copy.bins.end(),
                  [](const PoolBinStats &a, const PoolBinStats &b) { return a.bin < b.bin; });
        return copy;
    }

    void sampleNow()
    {
        std::lock_guard lock(m_mutex);
        recordLocked(nowNs());
    }
    std::vector<PoolSample> snapshotSeries(std::uint64_t fromSequence) const
    {
        std::lock_guard lock(m_mutex);
        std::vector<PoolSample> out;
        const std::uint64_t cap = m_ring.size();
        if (cap == 0)
            return out;
        const std::uint64_t oldest = m_sampleCount > cap ? m_sampleCount - cap : 0;
        const std::uint64_t first = std::max(oldest, fromSequence);
        if (first >= m_sampleCount)
            return out;
        out.reserve(m_sampleCount - first);
        for (std::uint64_t seq = first; seq < m_sampleCount; ++seq)
            out.push_back(m_ring[seq % cap]);
        return out;
    }

    const std::shared_ptr<Allocator> &allocator() const { return m_allocator; }

private:
    // The hit path: no allocator call, no heap allocation.
    PoolBlock takeHeld(std::unique_lock<SpinLock> &lock, BinState &bs, std::size_t size,
                       cl_command_queue queue)
    {
        const std::uint32_t index = bs.heldHead;
        Slot &s = m_slots[index];
        bs.heldHead = s.next;
        --bs.held;
        ++bs.active;
        s.next = kNoSlot;
        s.state = SlotState::Active;
        s.size = size;
        s.generation = s.generation == std::numeric_limits<std::uint32_t>::max() ? 1 : s.generation + 1;
        auto &c = m_stats.counters;
        --c.heldBlocks;
        c.heldBytes -= s.allocSize;
        ++c.activeBlocks;
        c.activeBytes += size;
        ++m_stats.hits;
        changedLocked();
        const bool switchQueue = queue && s.queue != queue;
        cl_command_queue oldQueue = nullptr;
        if (switchQueue) {
            oldQueue = s.queue;
            s.queue = queue;
        }
        const PoolBlock block{makeId(index, s.generation), s.handle, size, s.allocSize};
        lock.unlock();
        // The block is ours now, so its queue can be switched outside the lock. Work enqueued on the old
        // queue may still use the memory: wait for it before the new queue can touch it.
        if (switchQueue) {
            clRetainCommandQueue(queue);
            if (oldQueue) {
                clFinish(oldQueue);
                clReleaseCommandQueue(oldQueue);
            }
        }
        return block;
    }

    AllocResult callAllocator(std::size_t bytes, std::uint64_t &calls, std::uint64_t &failures)
    {
        ++calls;
        AllocResult r = m_allocator->allocate(bytes);
        if (r.error == CL_SUCCESS && !r.handle)
            r.error = CL_MEM_OBJECT_ALLOCATION_FAILURE; // an allocator that broke its contract
        if (r.error != CL_SUCCESS)
            ++failures;
        return r;
    }

    PoolBlock allocateNew(std::size_t size, BinNumber bin, cl_command_queue queue)
    {
        std::size_t bytes = sizeOf(bin, m_bits);
        const std::size_t maxSize = m_allocator->maxAllocSize();
        const bool unrounded = maxSize != 0 && bytes > maxSize && size <= maxSize;
        if (unrounded)
            bytes = size; // pyopencl would fail here although the exact size fits

        std::uint64_t calls = 0, failures = 0, freedForOom = 0;
        AllocResult r = callAllocator(bytes, calls, failures);
        bool hitOom = false;
        if (r.error != CL_SUCCESS && isOutOfMemory(r.error)) {
            hitOom = true;
            // Give back held blocks one at a time, the biggest first, retrying after each.
            for (;;) {
                Released victim;
                {
                    std::lock_guard lock(m_mutex);
                    BinNumber top = 0;
                    if (!m_bins.highestHeld(top))
                        break;
                    victim = popHeldLocked(top);
                    m_bins.dropIfUnused(top);
                    ++m_stats.oomFreedBlocks;
                    changedLocked();
                }
                releaseOutside(victim);
                ++freedForOom;
                r = callAllocator(bytes, calls, failures);
                if (r.error == CL_SUCCESS || !isOutOfMemory(r.error))
                    break;
            }
            // Nothing left to give back: memory may have been freed elsewhere meanwhile, so one more try.
            if (r.error != CL_SUCCESS && isOutOfMemory(r.error))
                r = callAllocator(bytes, calls, failures);
        }

        std::unique_lock lock(m_mutex);
        m_stats.allocatorCalls += calls;
        m_stats.allocatorFailures += failures;
        if (r.error != CL_SUCCESS) {
            const char *routine = r.routine ? r.routine : "Allocator::allocate";
            if (!isOutOfMemory(r.error))
                throw ClError(routine, r.error,
                              "memory pool: allocating " + std::to_string(bytes) +
                                  " bytes for a request of " + std::to_string(size));
            ++m_stats.oomFailures;
            const std::string detail = "memory pool out of memory for a request of " + std::to_string(size) +
                                       " bytes (" + std::to_string(bytes) +
                                       " to allocate) after giving back " + std::to_string(freedForOom) +
                                       " held blocks and retrying; " + countersText(m_stats.counters);
            throw PoolOutOfMemoryError(routine, r.error, size, detail);
        }
        if (hitOom)
            ++m_stats.oomRecoveries;
        if (unrounded)
            ++m_stats.unroundedAllocs;

        std::uint32_t index = m_freeSlotHead;
        if (index != kNoSlot) {
            m_freeSlotHead = m_slots[index].next;
        } else {
            index = static_cast<std::uint32_t>(m_slots.size());
            m_slots.emplace_back();
        }
        Slot &s = m_slots[index];
        s.handle = r.handle;
        s.size = size;
        s.allocSize = bytes;
        s.queue = queue;
        s.bin = bin;
        s.generation = s.generation == std::numeric_limits<std::uint32_t>::max() ? 1 : s.generation + 1;
        s.next = kNoSlot;
        s.state = SlotState::Active;
        s.unrounded = unrounded;
        ++m_bins.get(bin).active;
        auto &c = m_stats.counters;
        ++c.activeBlocks;
        c.activeBytes += size;
        c.managedBytes += bytes;
        changedLocked();
        const PoolBlock block{makeId(index, s.generation), s.handle, size, bytes};
        lock.unlock();
        if (queue)
            clRetainCommandQueue(queue);
        return block;
    }

    // Takes the last freed block of a bin out of the pool; the caller releases it outside the lock.
    Released popHeldLocked(BinNumber bin)
    {
        BinState &bs = m_bins.get(bin);
        const std::uint32_t index = bs.heldHead;
        Slot &s = m_slots[index];
        bs.heldHead = s.next;
        --bs.held;
        --m_stats.counters.heldBlocks;
        m_stats.counters.heldBytes -= s.allocSize;
        return retireLocked(index);
    }

    // The block goes back to the allocator: it stops being managed, its record becomes free.
    Released retireLocked(std::uint32_t index)
    {
        Slot &s = m_slots[index];
        const Released out{s.handle, s.queue};
        m_stats.counters.managedBytes -= s.allocSize;
        ++m_stats.allocatorReleases;
        s.handle = nullptr;
        s.queue = nullptr;
        s.state = SlotState::Free;
        s.next = m_freeSlotHead;
        m_freeSlotHead = index;
        return out;
    }

    void releaseOutside(const Released &r) noexcept
    {
        if (r.handle) {
            if (r.queue && m_allocator->releaseIsImmediate())
                clFinish(r.queue);
            m_allocator->release(r.handle);
        }
        if (r.queue)
            clReleaseCommandQueue(r.queue);
    }

    void changedLocked()
    {
        auto &c = m_stats.counters;
        m_stats.peakManagedBytes = std::max(m_stats.peakManagedBytes, c.managedBytes);
        m_stats.peakActiveBytes = std::max(m_stats.peakActiveBytes, c.activeBytes);
        if (m_sampleOnChange && !m_ring.empty())
            recordLocked(coarseNowNs());
    }

    void recordLocked(std::int64_t timestampNs)
    {
        if (m_ring.empty())
            return;
        // A coarse reading may lag a precise one taken just before: keep the series monotonic.
        m_lastSampleNs = std::max(m_lastSampleNs, timestampNs);
        const auto &c = m_stats.counters;
        m_ring[m_ringNext] = PoolSample{m_lastSampleNs, m_sampleCount, c.heldBytes,   c.activeBytes,
                                        c.managedBytes, c.heldBlocks,  c.activeBlocks};
        ++m_sampleCount;
        if (++m_ringNext == m_ring.size())
            m_ringNext = 0;
    }

    const std::shared_ptr<Allocator> m_allocator;
    const unsigned m_bits;
    mutable SpinLock m_mutex;
    BinTable m_bins;
    std::vector<Slot> m_slots;
    std::uint32_t m_freeSlotHead = kNoSlot;
    PoolStats m_stats; // bins stays empty here; stats() fills a copy
    std::vector<PoolSample> m_ring;
    std::size_t m_ringNext = 0; // m_sampleCount % size, without a division on the hit path
    std::uint64_t m_sampleCount = 0;
    std::int64_t m_lastSampleNs = 0;
    const bool m_sampleOnChange;
};
} // namespace detail

// ---- Public faces -----------------------------------------------------------------------------------

PooledBuffer::PooledBuffer(std::shared_ptr<detail::PoolState> state, PoolBlock block)
    : m_state(std::move(state))
    , m_block(block)
{}

PooledBuffer::PooledBuffer(PooledBuffer &&other) noexcept
    : m_state(std::move(other.m_state))
    , m_block(std::exchange(other.m_block, PoolBlock{}))
{}

PooledBuffer &PooledBuffer::operator=(PooledBuffer &&other) noexcept
{
    if (this != &other) {
        reset();
        m_state = std::move(other.m_state);
        m_block = std::exchange(other.m_block, PoolBlock{});
    }
    return *this;
}

void PooledBuffer::release()
{
    if (!m_state)
        return;
    // Clear first so that a throw (which only a broken pool could cause) leaves no second free behind.
    auto state = std::move(m_state);
    const BlockId id = std::exchange(m_block, PoolBlock{}).id;
    state->free(id);
}

void PooledBuffer::reset() noexcept
{
    try {
        release();
    } catch (...) {
        // A destructor must not throw; the block was ours, so this cannot happen short of a broken mutex.
    }
}

MemoryPool::MemoryPool(std::shared_ptr<Allocator> allocator, PoolOptions options)
{
    checkLeadingBits(options.leadingBits);
    if (!allocator)
        throw std::invalid_argument("memory pool: no allocator given");
    m_state = std::make_shared<detail::PoolState>(std::move(allocator), options);
}

MemoryPool::~MemoryPool()
{
    try {
        m_state->stopHolding();
    } catch (...) {
        // freeHeld can only throw std::bad_alloc building its list; the state's destructor still frees.
    }
}

PooledBuffer MemoryPool::allocate(std::size_t size, cl_command_queue queue)
{
    return PooledBuffer(m_state, m_state->allocate(size, queue));
}

PoolBlock MemoryPool::allocateBlock(std::size_t size, cl_command_queue queue)
{
    return m_state->allocate(size, queue);
}

void MemoryPool::freeBlock(BlockId id)
{
    m_state->free(id);
}

void MemoryPool::freeHeld()
{
    m_state->freeHeld();
}

void MemoryPool::stopHolding()
{
    m_state->stopHolding();
}

bool MemoryPool::isHolding() const
{
    return m_state->isHolding();
}

int MemoryPool::leadingBits() const
{
    return m_state->leadingBits();
}

PoolCounters MemoryPool::counters() const
{
    return m_state->counters();
}

PoolStats MemoryPool::stats() const
{
    return m_state->stats();
}

void MemoryPool::sampleNow()
{
    m_state->sampleNow();
}

std::vector<PoolSample> MemoryPool::snapshotSeries(std::uint64_t fromSequence) const
{
    return m_state->snapshotSeries(fromSequence);
}

const std::shared_ptr<Allocator> &MemoryPool::allocator() const
{
    return m_state->allocator();
}

} // namespace clscope
