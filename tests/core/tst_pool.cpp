// Tests of the memory pool (shared/POOL.md): bins, counters, reuse, the lifetime of blocks and of the
// pool, the time series and per-bin stats. Out of memory, the allocation-free hit path and threads:
// tst_poolpressure.cpp. Traces and devices: tst_pooltrace.cpp.
#include "pooltesthelpers.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <random>

using namespace clscope;

using namespace pooltest;

class TestPool : public QObject
{
    Q_OBJECT

private slots:

    void bins_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<quint64>("size");
        QTest::addColumn<uint>("bin");
        QTest::addColumn<quint64>("allocSize");
        // Measured from pyopencl 2022.3.1 (POOL.md).
        const struct
        {
            int bits;
            quint64 size;
            uint bin;
            quint64 alloc;
        } rows[] = {{4, 0, 0, 1},
                    {4, 1, 0, 1},
                    {4, 2, 16, 2},
                    {4, 3, 24, 3},
                    {4, 17, 65, 17},
                    {4, 31, 79, 31},
                    {4, 32, 80, 33},
                    {4, 34, 81, 35},
                    {4, 64, 96, 67},
                    {4, 100, 105, 103},
                    {4, 256, 128, 271},
                    {4, 1000, 159, 1023},
                    {4, 1024, 160, 1087},
                    {4, 1088, 161, 1151},
                    {4, 4096, 192, 4351},
                    {4, 1048576, 320, 1114111},
                    {4, quint64(1) << 31, 496, 2281701375u},
                    {4, quint64(1) << 32, 512, 4563402751u},
                    {4, ~quint64(0), 1023, ~quint64(0)},
                    {0, 1024, 10, 2047},
                    {2, 1024, 40, 1279},
                    {8, 1024, 2560, 1027}};
        for (const auto &r : rows)
            QTest::addRow("B=%d size=%llu", r.bits, static_cast<unsigned long long>(r.size))
                << r.bits << r.size << r.bin << r.alloc;
    }
    void bins()
    {
        QFETCH(int, bits);
        QFETCH(quint64, size);
        QFETCH(uint, bin);
        QFETCH(quint64, allocSize);
        QCOMPARE(binNumber(size, bits), bin);
        QCOMPARE(clscope::allocSize(bin, bits), allocSize);
    }

    void closedForm_data()
    {
        QTest::addColumn<int>("bits");
        for (int b : {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 25, 26})
            QTest::addRow("B=%d", b) << b;
    }
    // alloc_size(bin_number(s)) = s | (2^max(0, l - B) - 1), and an alloc size lies in its own bin.
    void closedForm()
    {
        QFETCH(int, bits);
        std::vector<std::uint64_t> sizes;
        for (std::uint64_t s = 0; s < 600; ++s)
            sizes.push_back(s);
        for (int e = 0; e < 64; ++e) {
            const std::uint64_t p = std::uint64_t{1} << e;
            sizes.insert(sizes.end(), {p - 1, p, p + 1, p | (p >> 1)});
        }
        std::mt19937_64 rng(42);
        for (int i = 0; i < 20000; ++i)
            sizes.push_back(rng() >> (rng() % 64));
        sizes.push_back(~std::uint64_t{0});
        std::sort(sizes.begin(), sizes.end());
        BinNumber previous = 0;
        for (std::uint64_t s : sizes) {
            const BinNumber bin = binNumber(s, bits);
            const int l = s == 0 ? 0 : std::bit_width(s) - 1;
            const std::uint64_t low = l > bits ? (std::uint64_t{1} << (l - bits)) - 1 : 0;
            const std::uint64_t a = allocSize(bin, bits);
            const std::uint64_t expected = s == 0 ? 1 : s | low; // 0 bytes get a real 1-byte block
            if (a != expected || binNumber(a, bits) != bin || bin < previous)
                QFAIL(qPrintable(QStringLiteral("size %1: bin %2, alloc size %3").arg(s).arg(bin).arg(a)));
            previous = bin;
        }
    }

    void leadingBitsRejected_data()
    {
        QTest::addColumn<int>("bits");
        QTest::newRow("-1") << -1;
        QTest::newRow("27") << 27;
        QTest::newRow("64") << 64;
        QTest::newRow("INT_MIN") << std::numeric_limits<int>::min();
    }
    void leadingBitsRejected()
    {
        QFETCH(int, bits);
        const QByteArray expected = "leading bits must be 0..26, got " + QByteArray::number(bits);
        try {
            binNumber(1, bits);
            QFAIL("binNumber accepted it");
        } catch (const std::invalid_argument &e) {
            QVERIFY2(QByteArray(e.what()).contains(expected), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allocSize(0, bits));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 makePool(std::make_shared<CountingTestAllocator>(), bits));
    }

    void binBeyondLastRejected()
    {
        QCOMPARE(allocSize(1023, 4), ~std::uint64_t{0});
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, allocSize(1024, 4));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, allocSize(std::numeric_limits<BinNumber>::max(), 0));
        QCOMPARE(allocSize(std::numeric_limits<BinNumber>::max(), 26), ~std::uint64_t{0});
    }

    // POOL.md's example, step by step, through the manual API.
    void counterExample()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        const PoolBlock a = pool->allocateBlock(1000);
        QCOMPARE(text(pool->counters()), kExampleCounters[0]);
        const PoolBlock b = pool->allocateBlock(1024);
        QCOMPARE(text(pool->counters()), kExampleCounters[1]);
        pool->freeBlock(a.id);
        QCOMPARE(text(pool->counters()), kExampleCounters[2]);
        const PoolBlock c = pool->allocateBlock(1010);
        QCOMPARE(text(pool->counters()), kExampleCounters[3]);
        QCOMPARE(c.handle, a.handle);
        QCOMPARE(c.allocSize, std::size_t{1023});
        pool->freeHeld();
        QCOMPARE(text(pool->counters()), kExampleCounters[4]);
        pool->freeBlock(b.id);
        QCOMPARE(text(pool->counters()), kExampleCounters[5]);
        pool->stopHolding();
        QCOMPARE(text(pool->counters()), kExampleCounters[6]);
        const PoolStats s = pool->stats();
        QCOMPARE(s.hits, 1u);
        QCOMPARE(s.misses, 2u);
        QCOMPARE(s.allocatorCalls, 2u);
        QCOMPARE(s.allocatorReleases, 1u);
        QCOMPARE(s.peakManagedBytes, 2110u);
        QCOMPARE(s.peakActiveBytes, 2034u);
        QCOMPARE(alloc->liveBytes(), std::size_t{1023});
        pool.reset(); // c was never freed: the pool's state gives it back when it goes
        QCOMPARE(alloc->liveCount(), std::size_t{0});
        QCOMPARE(alloc->badReleases(), 0);
    }

    void lifoWithinBin()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PooledBuffer x = pool->allocate(1000), y = pool->allocate(1001), z = pool->allocate(1010);
        PooledBuffer other = pool->allocate(2000);
        void *hx = x.handle(), *hy = y.handle(), *hz = z.handle();
        x.release();
        z.release();
        y.release();
        QVERIFY(!x && !y && !z);
        QCOMPARE(pool->counters().heldBlocks, 3u);
        PooledBuffer big = pool->allocate(1024); // another bin: no reuse
        QVERIFY(big.handle() != hx && big.handle() != hy && big.handle() != hz);
        QCOMPARE(pool->allocate(1000).handle(), hy); // last freed first; freed again at once
        PooledBuffer r1 = pool->allocate(1000), r2 = pool->allocate(1000), r3 = pool->allocate(1000);
        QCOMPARE(r1.handle(), hy);
        QCOMPARE(r2.handle(), hz);
        QCOMPARE(r3.handle(), hx);
        QCOMPARE(pool->stats().misses, 5u);
    }

    void zeroBytes()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PooledBuffer z = pool->allocate(0);
        QVERIFY(z.handle());
        QCOMPARE(z.allocSize(), std::size_t{1});
        QCOMPARE(alloc->takeLog().front().size, std::size_t{1});
        QCOMPARE(text(pool->counters()), QByteArray("0/1/1/0/0"));
        void *h = z.handle();
        z.release();
        PooledBuffer one = pool->allocate(1); // same bin 0
        QCOMPARE(one.handle(), h);
        QCOMPARE(text(pool->counters()), QByteArray("0/1/1/1/0"));
    }

    void doubleFree()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        const PoolBlock a = pool->allocateBlock(100);
        pool->freeBlock(a.id);
        const PoolCounters before = pool->counters();
        try {
            pool->freeBlock(a.id);
            QFAIL("second free accepted");
        } catch (const std::invalid_argument &e) {
            QVERIFY2(QByteArray(e.what()).contains("freed twice"), e.what());
        }
        QCOMPARE(pool->counters(), before);
        const PoolBlock again = pool->allocateBlock(100); // reuses a's memory under a new id
        QCOMPARE(again.handle, a.handle);
        QVERIFY(again.id != a.id);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pool->freeBlock(a.id)); // stale id
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pool->freeBlock(BlockId::None));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pool->freeBlock(static_cast<BlockId>(~0ull)));
        pool->freeBlock(again.id);
        PooledBuffer p = pool->allocate(5);
        p.release();
        p.release();                                                   // an empty buffer: nothing happens
        QCOMPARE(text(pool->counters()), QByteArray("2/0/108/0/108")); // 103 + 5
    }

    void stopHolding()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PooledBuffer a = pool->allocate(1000), b = pool->allocate(3000);
        a.release();
        QVERIFY(pool->isHolding());
        pool->stopHolding();
        QVERIFY(!pool->isHolding());
        QCOMPARE(text(pool->counters()), QByteArray("0/1/3071/3000/0"));
        b.release(); // not holding: straight back to the allocator
        QCOMPARE(text(pool->counters()), QByteArray("0/0/0/0/0"));
        QCOMPARE(alloc->liveCount(), std::size_t{0});
        pool->freeHeld();
        PooledBuffer c = pool->allocate(10);
        c.release();
        QCOMPARE(pool->counters().heldBlocks, 0u);
        QVERIFY(!pool->isHolding()); // permanent
    }

    void lifetime()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PooledBuffer live = pool->allocate(100);
        pool->allocate(5000).release(); // held
        QCOMPARE(alloc->liveCount(), std::size_t{2});
        pool.reset(); // frees what it holds; `live` keeps the state alive
        QCOMPARE(alloc->liveCount(), std::size_t{1});
        PooledBuffer moved = std::move(live);
        QVERIFY(!live);
        QVERIFY(moved);
        moved = PooledBuffer(); // move-assign releases the old block, back to the allocator
        QCOMPARE(alloc->liveCount(), std::size_t{0});
        QCOMPARE(alloc->badReleases(), 0);
    }

    void timeSeries()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        PoolOptions o;
        o.seriesCapacity = 4;
        MemoryPool pool(alloc, o);
        QVERIFY(pool.snapshotSeries().empty());
        PooledBuffer a = pool.allocate(1000); // sample 0
        PooledBuffer b = pool.allocate(1024); // 1
        a.release();                          // 2
        PooledBuffer c = pool.allocate(1010); // 3
        pool.freeHeld();                      // nothing freed: no change, no sample
        b.release();                          // 4
        pool.stopHolding();                   // 5
        auto series = pool.snapshotSeries();
        QCOMPARE(series.size(), std::size_t{4}); // the ring kept the newest four
        QCOMPARE(series.front().sequence, 2u);
        QCOMPARE(series.back().sequence, 5u);
        for (std::size_t i = 1; i < series.size(); ++i)
            QVERIFY(series[i].timestampNs >= series[i - 1].timestampNs);
        const PoolSample &last = series.back();
        const PoolCounters now = pool.counters();
        QCOMPARE(PoolCounters({last.heldBlocks, last.activeBlocks, last.managedBytes, last.activeBytes,
                               last.heldBytes}),
                 now);
        QCOMPARE(series[0].heldBytes, 1023u); // after "free a"
        const auto steadyNs = [] {
            return std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                .count();
        };
        // On-change samples read a coarse clock of the same epoch: close to steady_clock, never ahead.
        QVERIFY(last.timestampNs <= steadyNs());
        QVERIFY(steadyNs() - last.timestampNs < 1'000'000'000);
        const std::int64_t before = steadyNs();
        pool.sampleNow();
        series = pool.snapshotSeries(6);
        QCOMPARE(series.size(), std::size_t{1});
        QCOMPARE(series[0].sequence, 6u);
        QVERIFY(series[0].timestampNs >= before); // sampleNow() reads the precise clock
        QVERIFY(series[0].timestampNs <= steadyNs());
        QVERIFY(pool.snapshotSeries(7).empty());

        o.seriesCapacity = 0;
        MemoryPool off(alloc, o);
        off.allocate(10).release();
        off.sampleNow();
        QVERIFY(off.snapshotSeries().empty());
        o.seriesCapacity = 16;
        o.sampleOnChange = false;
        MemoryPool timed(alloc, o);
        timed.allocate(10).release();
        QVERIFY(timed.snapshotSeries().empty());
        timed.sampleNow();
        QCOMPARE(timed.snapshotSeries().size(), std::size_t{1});
    }

    void statsPerBin()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PooledBuffer a = pool->allocate(1000), b = pool->allocate(1010), c = pool->allocate(5000);
        b.release();
        const PoolStats s = pool->stats();
        QCOMPARE(s.leadingBits, 4);
        QVERIFY(s.holding);
        QCOMPARE(s.bins.size(), std::size_t{2});
        QCOMPARE(s.bins[0].bin, 159u);
        QCOMPARE(s.bins[0].allocSize, 1023u);
        QCOMPARE(s.bins[0].heldBlocks, 1u);
        QCOMPARE(s.bins[0].activeBlocks, 1u);
        QCOMPARE(s.bins[1].bin, 195u);
        QCOMPARE(s.bins[1].activeBlocks, 1u);
    }

    // The names clscope-cli pool replay --allocator takes, and the factory's refusals before any driver call.
    void allocatorKinds()
    {
        for (AllocatorKind kind : {AllocatorKind::Deferred, AllocatorKind::Immediate, AllocatorKind::Svm})
            QVERIFY(parseAllocatorKind(allocatorKindName(kind)) == kind);
        QCOMPARE(allocatorKindName(AllocatorKind::Deferred), std::string_view("deferred"));
        QCOMPARE(allocatorKindName(AllocatorKind::Immediate), std::string_view("immediate"));
        QCOMPARE(allocatorKindName(AllocatorKind::Svm), std::string_view("svm"));
        QVERIFY(!parseAllocatorKind("SVM"));
        QVERIFY(!parseAllocatorKind(""));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clscope::makePool(AllocatorKind::Deferred, nullptr));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeAllocator(AllocatorKind::Immediate, nullptr));
    }
};

QTEST_APPLESS_MAIN(TestPool)
#include "tst_pool.moc"
