// The memory pool (shared/POOL.md) under pressure: out-of-memory recovery (held blocks given back, the
// last retry, errors that are not out of memory, sizes past the device maximum), a hit path that makes no
// heap allocation, and eight threads at once. The rest of the pool: tst_pool.cpp.
#include "pooltesthelpers.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <random>
#include <thread>

// Every heap allocation of the test binary passes here, so a test can prove a code path makes none.
static std::atomic<std::uint64_t> g_newCalls{0};

static void *countedAlloc(std::size_t n, std::size_t align)
{
    ++g_newCalls;
    n = n ? n : 1;
    void *p = align <= alignof(std::max_align_t) ? std::malloc(n)
                                                 : std::aligned_alloc(align, (n + align - 1) / align * align);
    if (!p)
        throw std::bad_alloc();
    return p;
}
void *operator new(std::size_t n)
{
    return countedAlloc(n, 0);
}
void *operator new[](std::size_t n)
{
    return countedAlloc(n, 0);
}
void *operator new(std::size_t n, std::align_val_t a)
{
    return countedAlloc(n, static_cast<std::size_t>(a));
}
void *operator new[](std::size_t n, std::align_val_t a)
{
    return countedAlloc(n, static_cast<std::size_t>(a));
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete[](void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept
{
    std::free(p);
}

using namespace clscope;

using namespace pooltest;

class TestPoolPressure : public QObject
{
    Q_OBJECT

private slots:
    // Held blocks go back one at a time, the highest bin first, and only as many as needed.
    void oomGivesBackHighestBinFirst()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        for (std::size_t s : {1000, 100, 5000}) // alloc sizes 1023, 103, 5119: 6245 held
            pool->allocate(s).release();
        alloc->setCapacity(4100);
        alloc->takeLog();
        const PoolBlock big = pool->allocateBlock(3000); // 3071 bytes: 5119 and 1023 must go
        QCOMPARE(big.allocSize, std::size_t{3071});
        const auto log = alloc->takeLog();
        QCOMPARE(log.size(), std::size_t{5});
        QVERIFY(!log[0].release && log[0].error == CL_MEM_OBJECT_ALLOCATION_FAILURE);
        QVERIFY(log[1].release && log[1].size == 5119);
        QVERIFY(!log[2].release && log[2].error == CL_MEM_OBJECT_ALLOCATION_FAILURE);
        QVERIFY(log[3].release && log[3].size == 1023);
        QVERIFY(!log[4].release && log[4].error == CL_SUCCESS);
        const PoolStats s = pool->stats();
        QCOMPARE(s.oomRecoveries, 1u);
        QCOMPARE(s.oomFreedBlocks, 2u);
        QCOMPARE(s.counters.heldBlocks, 1u);
        QCOMPARE(s.counters.heldBytes, 103u);
    }

    void oomFailure_data()
    {
        QTest::addColumn<int>("code");
        QTest::newRow("MEM_OBJECT_ALLOCATION_FAILURE") << int(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        QTest::newRow("OUT_OF_RESOURCES") << int(CL_OUT_OF_RESOURCES);
        QTest::newRow("OUT_OF_HOST_MEMORY") << int(CL_OUT_OF_HOST_MEMORY);
    }
    // Every held block goes, then one more try (pyopencl skips it), then a clear error.
    void oomFailure()
    {
        QFETCH(int, code);
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PooledBuffer keep = pool->allocate(64);
        for (std::size_t s : {10, 300, 7000})
            pool->allocate(s).release();
        alloc->takeLog();
        alloc->failNext(100, code);
        try {
            pool->allocate(123456);
            QFAIL("allocation succeeded");
        } catch (const PoolOutOfMemoryError &e) {
            QCOMPARE(e.code(), code);
            QCOMPARE(e.requestedSize(), std::size_t{123456});
            const QByteArray what = e.what();
            QVERIFY2(what.contains("request of 123456 bytes"), what.constData());
            QVERIFY2(what.contains("after giving back 3 held blocks"), what.constData());
            QVERIFY2(what.contains("held_blocks 0, active_blocks 1, managed_bytes 67, active_bytes 64"),
                     what.constData());
        }
        const auto log = alloc->takeLog();
        QCOMPARE(std::count_if(log.begin(), log.end(), [](auto &c) { return !c.release; }), 5); // 1 + 3 + 1
        QCOMPARE(std::count_if(log.begin(), log.end(), [](auto &c) { return c.release; }), 3);
        QVERIFY(log[1].release && log[1].size == 7167); // highest bin first
        const PoolStats s = pool->stats();
        QCOMPARE(s.oomFailures, 1u);
        QCOMPARE(s.allocatorFailures, 5u);
        QCOMPARE(text(s.counters), QByteArray("0/1/67/64/0"));
    }

    void lastRetrySucceeds()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        alloc->failNext(1, CL_OUT_OF_RESOURCES);
        PooledBuffer b = pool->allocate(100); // nothing held: the extra retry is what saves it
        QVERIFY(b);
        QCOMPARE(pool->stats().oomRecoveries, 1u);
        QCOMPARE(pool->stats().allocatorCalls, 2u);
    }

    void otherErrorsPassThrough_data()
    {
        QTest::addColumn<int>("code");
        QTest::newRow("INVALID_VALUE") << int(CL_INVALID_VALUE);
        QTest::newRow("INVALID_BUFFER_SIZE") << int(CL_INVALID_BUFFER_SIZE);
        QTest::newRow("INVALID_CONTEXT") << int(CL_INVALID_CONTEXT);
    }
    void otherErrorsPassThrough()
    {
        QFETCH(int, code);
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        pool->allocate(5000).release();
        alloc->failNext(1, code);
        try {
            pool->allocate(100);
            QFAIL("allocation succeeded");
        } catch (const PoolOutOfMemoryError &) {
            QFAIL("reported as out of memory");
        } catch (const ClError &e) {
            QCOMPARE(e.code(), code);
            QCOMPARE(e.routine(), std::string("testAllocate"));
        }
        QCOMPARE(pool->counters().heldBlocks, 1u); // nothing given back
        QCOMPARE(pool->stats().allocatorCalls, 2u);
    }

    // Rounded past the device maximum but the exact size fits: served unrounded (pyopencl fails it).
    void unroundedOversize()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        alloc->setMaxAlloc(1000);
        auto pool = makePool(alloc);
        PooledBuffer a = pool->allocate(1000), b = pool->allocate(999);
        QCOMPARE(a.allocSize(), std::size_t{1000});
        QCOMPARE(b.allocSize(), std::size_t{999});
        QCOMPARE(text(pool->counters()), QByteArray("0/2/1999/1999/0"));
        QCOMPARE(pool->stats().unroundedAllocs, 2u);
        a.release(); // smaller than its bin's size, so never held
        QCOMPARE(text(pool->counters()), QByteArray("0/1/999/999/0"));
        QVERIFY_THROWS_EXCEPTION(ClError, pool->allocate(1001)); // exact size too big: the allocator says so
        PooledBuffer small = pool->allocate(500);                // rounds to 511: normal
        QCOMPARE(pool->stats().unroundedAllocs, 2u);
    }

    void hitPathAllocatesNothing_data()
    {
        QTest::addColumn<int>("bits");
        QTest::newRow("B=4 (flat bins)") << 4;
        QTest::newRow("B=12 (hashed bins)") << 12;
    }
    void hitPathAllocatesNothing()
    {
        QFETCH(int, bits);
        auto alloc = std::make_shared<CountingTestAllocator>();
        alloc->setLogging(false);
        PoolOptions o;
        o.leadingBits = bits;
        MemoryPool pool(alloc, o); // time series on: its samples must cost nothing either
        const std::size_t sizes[] = {0, 1, 100, 1000, 4096, 65536, 1 << 20};
        for (std::size_t s : sizes) { // two held blocks per bin: the loop holds two at once
            PooledBuffer first = pool.allocate(s);
            pool.allocate(s).release();
        }
        const PoolStats before = pool.stats();
        const std::uint64_t news = g_newCalls.load();
        for (int i = 0; i < 10000; ++i) {
            const std::size_t s = sizes[i % std::size(sizes)];
            PooledBuffer b = pool.allocate(s);
            const PoolBlock m = pool.allocateBlock(s);
            pool.freeBlock(m.id);
            b.release();
        }
        const std::uint64_t newsDuring = g_newCalls.load() - news;
        const PoolStats after = pool.stats();
        QCOMPARE(newsDuring, 0u);
        QCOMPARE(after.allocatorCalls, before.allocatorCalls);
        QCOMPARE(after.hits - before.hits, 20000u);
    }

    void eightThreads_data()
    {
        QTest::addColumn<quint64>("capacity");
        QTest::newRow("plenty of memory") << quint64(0);
        QTest::newRow("out of memory often") << quint64(1 << 18); // recovery races with hits and frees
    }
    void eightThreads()
    {
        QFETCH(quint64, capacity);
        auto alloc = std::make_shared<CountingTestAllocator>();
        alloc->setLogging(false);
        if (capacity)
            alloc->setCapacity(capacity);
        auto pool = makePool(alloc);
        std::atomic<std::uint64_t> allocations{0}, failures{0};
        std::atomic<bool> done{false};
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t) {
            threads.emplace_back([&, t] {
                std::mt19937 rng(t);
                std::vector<PooledBuffer> mine(16);
                std::vector<PoolBlock> manual;
                for (int i = 0; i < 20000; ++i) {
                    const std::size_t size = (std::size_t{1} << (rng() % 16)) + rng() % 64;
                    try {
                        if (rng() % 2) {
                            mine[rng() % mine.size()] = pool->allocate(size);
                        } else if (manual.size() < 8) {
                            manual.push_back(pool->allocateBlock(size));
                        } else {
                            pool->freeBlock(manual.back().id);
                            manual.pop_back();
                            continue;
                        }
                        ++allocations;
                    } catch (const PoolOutOfMemoryError &) {
                        ++failures;
                    }
                    if (i % 5000 == 4999)
                        pool->freeHeld();
                }
                for (const PoolBlock &b : manual)
                    pool->freeBlock(b.id);
            });
        }
        std::thread observer([&] {
            while (!done) {
                const PoolStats s = pool->stats();
                const auto &c = s.counters;
                std::uint64_t held = 0, active = 0;
                for (const PoolBinStats &b : s.bins) {
                    held += b.heldBlocks;
                    active += b.activeBlocks;
                }
                if (held != c.heldBlocks || active != c.activeBlocks || c.managedBytes < c.heldBytes)
                    qFatal("inconsistent stats while running");
                pool->sampleNow();
            }
        });
        for (auto &t : threads)
            t.join();
        done = true;
        observer.join();
        const PoolStats s = pool->stats();
        QCOMPARE(s.hits + s.misses, allocations.load() + failures.load());
        QCOMPARE(s.oomFailures, failures.load());
        if (capacity)
            QVERIFY(s.oomRecoveries > 0);
        QCOMPARE(s.counters.activeBlocks, 0u);
        QCOMPARE(s.counters.activeBytes, 0u);
        QCOMPARE(s.counters.managedBytes, s.counters.heldBytes);
        QCOMPARE(std::uint64_t(alloc->liveBytes()), s.counters.managedBytes);
        QCOMPARE(std::uint64_t(alloc->liveCount()), s.counters.heldBlocks);
        QCOMPARE(s.allocatorCalls - s.allocatorFailures - s.allocatorReleases, s.counters.heldBlocks);
        pool->freeHeld();
        QCOMPARE(alloc->liveCount(), std::size_t{0});
        QCOMPARE(alloc->badReleases(), 0);
    }
};

QTEST_APPLESS_MAIN(TestPoolPressure)
#include "tst_poolpressure.moc"
