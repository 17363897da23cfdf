// The device memory pool of shared/POOL.md: pyopencl-compatible bins and counters, its allocators,
// statistics, a sampled time series of the counters, and the trace format that `pool replay` runs.
#pragma once

#include "clscope/clhandle.h"
#include "clscope/error.h"

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace clscope {

// ---- Bins -------------------------------------------------------------------------------------------

// Bin numbers fit 32 bits for every accepted leading-bit count: the largest is (64 << 26) - 1.
using BinNumber = std::uint32_t;

inline constexpr int kDefaultLeadingBits = 4;
inline constexpr int kMaxLeadingBits = 26;

// Throws std::invalid_argument naming the accepted range unless 0 <= leadingBits <= 26.
void checkLeadingBits(int leadingBits);

// pyopencl's bin_number: the bin of a request of `size` bytes.
BinNumber binNumber(std::uint64_t size, int leadingBits);

// pyopencl's alloc_size: the bytes really allocated for a bin (the largest size that maps to it).
// Throws std::out_of_range for a bin no size maps to (exponent above 63).
std::uint64_t allocSize(BinNumber bin, int leadingBits);

// ---- Allocators -------------------------------------------------------------------------------------

struct AllocResult
{
    void *handle = nullptr;        // a cl_mem for buffer allocators, an SVM pointer for SvmAllocator
    cl_int error = CL_SUCCESS;     // CL_SUCCESS exactly when handle is set
    const char *routine = nullptr; // the OpenCL call that failed, for messages ("clCreateBuffer")
};

// Where a pool gets its memory. allocate() and release() may be called from several threads at once
// (the pool calls them outside its lock so that one slow allocation does not stall the hit path).
class Allocator
{
public:
    virtual ~Allocator() = default;
    // Reports failure as a cl_int so the pool can tell out-of-memory from everything else.
    virtual AllocResult allocate(std::size_t size) = 0;
    virtual void release(void *handle) noexcept = 0;
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE (the smallest over the context's devices); 0 means no limit known.
    virtual std::size_t maxAllocSize() const = 0;
    // True when release() frees at once even if enqueued commands still use the memory (clSVMFree): the
    // pool then finishes the block's queue, when it knows one, before releasing.
    virtual bool releaseIsImmediate() const { return false; }
};

// clCreateBuffer only: memory may appear on first use, so an out-of-memory may show up later, in a kernel.
class DeferredAllocator : public Allocator
{
public:
    explicit DeferredAllocator(cl_context context, cl_mem_flags flags = CL_MEM_READ_WRITE);
    ~DeferredAllocator() override;
    DeferredAllocator(const DeferredAllocator &) = delete;
    DeferredAllocator &operator=(const DeferredAllocator &) = delete;

    AllocResult allocate(std::size_t size) override;
    void release(void *handle) noexcept override;
    std::size_t maxAllocSize() const override { return m_maxAllocSize; }

protected:
    ClContext m_context;
    cl_mem_flags m_flags;
    std::size_t m_maxAllocSize;
};

// clCreateBuffer, then makes the memory real at once on the queue's device, so that out-of-memory is
// reported here, where the pool can recover, rather than by a later kernel launch.
class ImmediateAllocator : public DeferredAllocator
{
public:
    explicit ImmediateAllocator(cl_command_queue queue, cl_mem_flags flags = CL_MEM_READ_WRITE);
    ~ImmediateAllocator() override;

    AllocResult allocate(std::size_t size) override;

private:
    ClQueue m_queue;
    bool m_canMigrate; // device is OpenCL >= 1.2: clEnqueueMigrateMemObjects exists
};

// Coarse-grained SVM through clSVMAlloc; handles are SVM pointers.
class SvmAllocator : public Allocator
{
public:
    // Throws ClError(CL_INVALID_OPERATION) when no device of the context reports SVM capabilities.
    explicit SvmAllocator(cl_context context, cl_svm_mem_flags flags = CL_MEM_READ_WRITE);
    ~SvmAllocator() override;
    SvmAllocator(const SvmAllocator &) = delete;
    SvmAllocator &operator=(const SvmAllocator &) = delete;

    static bool isSupported(cl_device_id device);

    AllocResult allocate(std::size_t size) override;
    void release(void *handle) noexcept override;
    std::size_t maxAllocSize() const override { return m_maxAllocSize; }
    bool releaseIsImmediate() const override { return true; }

private:
    ClContext m_context;
    cl_svm_mem_flags m_flags;
    std::size_t m_maxAllocSize;
};

// ---- Statistics -------------------------------------------------------------------------------------

// The five counters, cheap to read (no per-bin data). Names follow pyopencl: held_blocks, active_blocks,
// managed_bytes, active_bytes; held_bytes is CLScope's own.
struct PoolCounters
{
    std::uint64_t heldBlocks = 0;
    std::uint64_t activeBlocks = 0;
    std::uint64_t managedBytes = 0; // alloc sizes of active and held blocks
    std::uint64_t activeBytes = 0;  // requested sizes of active blocks
    std::uint64_t heldBytes = 0;    // alloc sizes of held blocks

    bool operator==(const PoolCounters &) const = default;
};

struct PoolBinStats
{
    BinNumber bin = 0;
    std::uint64_t allocSize = 0;
    std::uint64_t heldBlocks = 0;
    std::uint64_t activeBlocks = 0;
};

// A snapshot taken under the pool's lock; a value that never changes after it is returned.
struct PoolStats
{
    int leadingBits = kDefaultLeadingBits;
    bool holding = true;
    PoolCounters counters;
    std::uint64_t hits = 0;              // requests served from a held block
    std::uint64_t misses = 0;            // requests that had to ask the allocator
    std::uint64_t allocatorCalls = 0;    // Allocator::allocate calls, failed ones included
    std::uint64_t allocatorFailures = 0; // of which failed
    std::uint64_t allocatorReleases = 0; // Allocator::release calls
    std::uint64_t oomRecoveries = 0;     // requests that hit out-of-memory and then succeeded
    std::uint64_t oomFailures = 0;       // requests that stayed out of memory
    std::uint64_t oomFreedBlocks = 0;    // held blocks given back to recover from out-of-memory
    std::uint64_t unroundedAllocs = 0;   // served at the exact size: the rounded one passed the maximum
    std::uint64_t peakManagedBytes = 0;
    std::uint64_t peakActiveBytes = 0;
    std::vector<PoolBinStats> bins; // bins with a held or active block, by increasing bin number
};

// One point of the time series.
struct PoolSample
{
    // std::chrono::steady_clock nanoseconds. Samples on change read the coarse monotonic clock (a few ms
    // resolution, a tenth of the cost); sampleNow() reads the precise one. Never decreasing.
    std::int64_t timestampNs = 0;
    std::uint64_t sequence = 0; // 0, 1, 2... over the pool's life; a gap means the ring overwrote samples
    std::uint64_t heldBytes = 0;
    std::uint64_t activeBytes = 0;
    std::uint64_t managedBytes = 0;
    std::uint64_t heldBlocks = 0;
    std::uint64_t activeBlocks = 0;
};

// ---- The pool ---------------------------------------------------------------------------------------

// Identifies a block of the manual API: slot index and a generation, so that a stale id (a block
// freed and its slot reused) is caught rather than freeing someone else's block. 0 is never valid.
enum class BlockId : std::uint64_t { None = 0 };

struct PoolBlock
{
    BlockId id = BlockId::None;
    void *handle = nullptr;
    std::size_t size = 0;      // as requested
    std::size_t allocSize = 0; // as allocated
    cl_mem mem() const { return static_cast<cl_mem>(handle); }
};

struct PoolOptions
{
    int leadingBits = kDefaultLeadingBits;
    std::size_t seriesCapacity = 8192; // samples kept; 0 turns the time series off
    bool sampleOnChange = true;        // a sample after every change (else only sampleNow())
    std::size_t reserveBlocks = 1024;  // block records reserved up front
};

// The pool ran out of memory even after giving back every held block and retrying once more.
class PoolOutOfMemoryError : public ClError
{
public:
    PoolOutOfMemoryError(const char *routine, cl_int code, std::size_t requested, std::string detail);
    std::size_t requestedSize() const { return m_requested; }

private:
    std::size_t m_requested;
};

namespace detail {
class PoolState;
}

// A block handed out by MemoryPool::allocate(); goes back to the pool when destroyed or released.
// It keeps the pool's state alive, so it may outlive the MemoryPool object.
class PooledBuffer
{
public:
    PooledBuffer() = default;
    ~PooledBuffer() { reset(); }
    PooledBuffer(PooledBuffer &&other) noexcept;
    PooledBuffer &operator=(PooledBuffer &&other) noexcept;
    PooledBuffer(const PooledBuffer &) = delete;
    PooledBuffer &operator=(const PooledBuffer &) = delete;

    // Returns the block to the pool now; the buffer is empty afterwards. A second call does nothing.
    void release();

    explicit operator bool() const { return m_state != nullptr; }
    void *handle() const { return m_block.handle; }
    cl_mem mem() const { return m_block.mem(); }
    std::size_t size() const { return m_block.size; }
    std::size_t allocSize() const { return m_block.allocSize; }
    BlockId id() const { return m_block.id; }

private:
    friend class MemoryPool;
    PooledBuffer(std::shared_ptr<detail::PoolState> state, PoolBlock block);
    void reset() noexcept;

    std::shared_ptr<detail::PoolState> m_state;
    PoolBlock m_block;
};

// Thread-safe: one mutex guards the bins, counters and time series; allocator calls happen outside it.
// The hit path (a request whose bin holds a block, and a free back into a bin) makes no allocator call
// and allocates no heap memory.
class MemoryPool
{
public:
    // Throws std::invalid_argument for leading bits outside 0..26 or a null allocator.
    explicit MemoryPool(std::shared_ptr<Allocator> allocator, PoolOptions options = {});
    // Gives back the held blocks and stops holding: live blocks return to the allocator when released.
    ~MemoryPool();
    MemoryPool(const MemoryPool &) = delete;
    MemoryPool &operator=(const MemoryPool &) = delete;

    // RAII form. The queue, when given, is where the block will be used: reusing a block last used on
    // another queue first waits for that queue (clFinish), as POOL.md asks of SVM blocks.
    PooledBuffer allocate(std::size_t size, cl_command_queue queue = nullptr);

    // Manual form (replay, bindings). Blocks never freed are released when the pool's state goes.
    PoolBlock allocateBlock(std::size_t size, cl_command_queue queue = nullptr);
    // Throws std::invalid_argument for an id that is not active (freed twice, or not from this pool).
    void freeBlock(BlockId id);

    void freeHeld();
    void stopHolding(); // permanent; implies freeHeld()
    bool isHolding() const;

    int leadingBits() const;
    PoolCounters counters() const;
    PoolStats stats() const;

    // Adds a sample now (for a caller that samples at a fixed rate), whether or not anything changed.
    void sampleNow();
    // The kept samples with sequence >= fromSequence, oldest first.
    std::vector<PoolSample> snapshotSeries(std::uint64_t fromSequence = 0) const;

    const std::shared_ptr<Allocator> &allocator() const;

private:
    std::shared_ptr<detail::PoolState> m_state;
};

// ---- Pools by allocator kind ------------------------------------------------------------------------

// The allocators a user picks between: clscope-cli pool replay --allocator, the pool dock's choice.
enum class AllocatorKind : std::uint8_t { Deferred, Immediate, Svm };

// "deferred", "immediate", "svm": the names --allocator takes.
std::string_view allocatorKindName(AllocatorKind kind);
// The kind of one of those names; nothing for any other text.
std::optional<AllocatorKind> parseAllocatorKind(std::string_view name);

// An allocator of `kind` in `context`. Immediate makes memory real on `queue` (a queue of that context), or,
// when none is given, on a queue of its own on the context's first device; the others ignore `queue`.
// Throws std::invalid_argument for a null context (and no queue), ClError as the allocators do (an SVM
// allocator on a context without SVM: CL_INVALID_OPERATION).
std::shared_ptr<Allocator> makeAllocator(AllocatorKind kind, cl_context context,
                                         cl_command_queue queue = nullptr);
// A pool on makeAllocator(kind, context, queue).
std::shared_ptr<MemoryPool> makePool(AllocatorKind kind, cl_context context, cl_command_queue queue = nullptr,
                                     PoolOptions options = {});

// ---- Traces (`clscope-cli pool replay`) -------------------------------------------------------------

enum class PoolOpKind : std::uint8_t { Alloc, Free, FreeHeld, StopHolding };

struct PoolOp
{
    PoolOpKind kind = PoolOpKind::Alloc;
    std::string id;         // Alloc and Free
    std::uint64_t size = 0; // Alloc
    int line = 0;           // 1-based line in the trace

    bool operator==(const PoolOp &) const = default;
};

// "alloc a 1000", "free a", "free_held", "stop_holding".
std::string toString(const PoolOp &op);

// A trace that cannot be parsed or replayed; what() starts with "line N: ". A Failure: pool replay exits 1.
class PoolTraceError : public Error
{
public:
    PoolTraceError(int line, const std::string &message);
    int line() const { return m_line; }

private:
    int m_line;
};

// One op per line: `alloc ID SIZE`, `free ID`, `free_held`, `stop_holding`; `#` starts a comment, blank
// lines are skipped. Ids are checked as a replay would use them: a free of an id never allocated or
// already freed, and an alloc of an id still live, are errors. An id may be allocated again after
// its free (traces of Python programs reuse object ids). Never crashes: every problem is a PoolTraceError.
std::vector<PoolOp> parsePoolTrace(std::string_view text);

// parsePoolTrace one line at a time, for traces streamed from a file: memory grows with the ids a trace
// uses, never with its ops.
class PoolTraceParser
{
public:
    // The op on the next line; nothing for a blank or comment line. Throws PoolTraceError.
    std::optional<PoolOp> parseLine(std::string_view line);
    int lines() const { return m_line; } // lines read so far

private:
    struct IdState
    {
        bool live = false;
        int line = 0; // of the alloc while live, of the free after
    };
    std::unordered_map<std::string, IdState> m_ids;
    int m_line = 0;
};

// A trace replayed on one pool, an op per step: the replayer's own ops, parsed beforehand (the pool dock's
// workload runs a chunk of steps per job), or ops handed to it one by one as they are read (clscope-cli
// pool replay streams them from the file). Blocks the trace leaves allocated stay active in the pool.
class PoolTraceReplayer
{
public:
    explicit PoolTraceReplayer(MemoryPool &pool, std::vector<PoolOp> ops = {})
        : m_pool(pool)
        , m_ops(std::move(ops))
    {}
    // Runs the next of the replayer's own ops and returns the counters after it; nothing once they are all
    // done. Throws PoolTraceError naming the op's line (the op counts as done).
    std::optional<PoolCounters> step();
    // Runs op on the pool and returns the counters after it; throws PoolTraceError naming the op's line.
    PoolCounters step(const PoolOp &op);
    bool finished() const { return m_next >= m_ops.size(); }
    std::size_t stepsDone() const { return m_next; } // of the replayer's own ops
    MemoryPool &pool() const { return m_pool; }

private:
    MemoryPool &m_pool;
    std::vector<PoolOp> m_ops;
    std::size_t m_next = 0;
    std::unordered_map<std::string, BlockId> m_live;
};

// Runs ops on the pool through its manual API, calling onStep after each with the counters. A failure
// of the pool (out of memory, an OpenCL error) is rethrown as PoolTraceError naming the op's line.
void replayPoolTrace(MemoryPool &pool, const std::vector<PoolOp> &ops,
                     const std::function<void(const PoolOp &, const PoolCounters &)> &onStep);

} // namespace clscope
