// Tests of pool traces: the parser's accepted forms and its errors (with line numbers), and replay, on
// a fake allocator and on a real device (PoCL) with each allocator.
#include "pooltesthelpers.h"
#include "testhelpers.h"

#include <QtTest/QtTest>

using namespace clscope;
using namespace testhelpers;
using namespace pooltest;

namespace {
cl_uint queueRefs(cl_command_queue queue)
{
    cl_uint refs = 0;
    clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, sizeof(refs), &refs, nullptr);
    return refs;
}

} // namespace

class TestPoolTrace : public QObject
{
    Q_OBJECT

private slots:
    void traceParses()
    {
        const auto ops = parsePoolTrace(kExampleTrace);
        QCOMPARE(ops.size(), std::size_t{7});
        QVERIFY((ops[0] == PoolOp{PoolOpKind::Alloc, "a", 1000, 2}));
        QVERIFY((ops[3] == PoolOp{PoolOpKind::Alloc, "c", 1010, 5}));
        QVERIFY((ops[4] == PoolOp{PoolOpKind::FreeHeld, "", 0, 6}));
        QCOMPARE(toString(ops[2]), std::string("free a"));
        QCOMPARE(toString(ops[6]), std::string("stop_holding"));
        // CRLF, tabs, no final newline, an id reused after its free, the largest size.
        const auto more = parsePoolTrace("alloc\tx 1\r\nfree x\r\n\r\nalloc x 18446744073709551615");
        QCOMPARE(more.size(), std::size_t{3});
        QCOMPARE(more[2].size, ~std::uint64_t{0});
        QCOMPARE(more[2].line, 4);
        QVERIFY(parsePoolTrace("").empty());
        QVERIFY(parsePoolTrace("\n  # nothing\n\n").empty());
    }

    void traceErrors_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QByteArray>("message");
        const auto row = [](const char *name, const char *trace, const char *message) {
            QTest::newRow(name) << QByteArray(trace) << QByteArray(message);
        };
        row("unknown op", "alloc a 1\nallocate b 2\n",
            "line 2: unknown operation 'allocate' (expected alloc, free, free_held or stop_holding)");
        row("unknown id", "alloc a 1\n# c\n\nalloc c 2\nfree a\n\nfree b\n",
            "line 7: free of unknown id 'b'");
        row("reused id", "alloc a 1\nalloc a 2\n",
            "line 2: alloc of id 'a', which is still allocated (line 1)");
        row("double free", "alloc a 1\nfree a\nfree a\n", "line 3: double free of id 'a' (freed on line 2)");
        row("bad size", "alloc a 12x\n", "line 1: bad size '12x' (expected a whole number of bytes)");
        row("negative size", "alloc a -1\n", "line 1: bad size '-1' (expected a whole number of bytes)");
        row("plus size", "alloc a +1\n", "line 1: bad size '+1' (expected a whole number of bytes)");
        row("huge size", "alloc a 18446744073709551616\n",
            "line 1: size '18446744073709551616' is larger than 18446744073709551615");
        row("alloc no fields", "\nalloc\n", "line 2: alloc needs an ID and a SIZE");
        row("alloc no size", "alloc a # 12\n", "line 1: alloc 'a' needs a SIZE");
        row("free no id", "free\n", "line 1: free needs an ID");
        row("alloc junk", "alloc a 1 2\n", "line 1: unexpected '2' after 'alloc a 1'");
        row("free junk", "alloc a 1\nfree a a\n", "line 2: unexpected 'a' after 'free a'");
        row("free_held junk", "free_held now\n", "line 1: unexpected 'now' after 'free_held'");
        row("stop_holding junk", "stop_holding 1 2 3 4 5\n", "line 1: unexpected '1' after 'stop_holding'");
        row("control bytes", "alloc a\x01 1\nfree a\n", "line 2: free of unknown id 'a'");
        row("escaped", "free \x01\xff'\n", "line 1: free of unknown id '\\x01\\xff\\x27'");
    }
    void traceErrors()
    {
        QFETCH(QByteArray, trace);
        QFETCH(QByteArray, message);
        try {
            parsePoolTrace(std::string_view(trace.constData(), std::size_t(trace.size())));
            QFAIL("parsed");
        } catch (const PoolTraceError &e) {
            QCOMPARE(QByteArray(e.what()), message);
            QCOMPARE(e.line(), message.mid(5, message.indexOf(':') - 5).toInt());
        }
    }

    void replayCounters()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        QByteArrayList seen;
        replayPoolTrace(*pool, parsePoolTrace(kExampleTrace),
                        [&](const PoolOp &, const PoolCounters &c) { seen << text(c); });
        QCOMPARE(seen.size(), 7);
        for (int i = 0; i < seen.size(); ++i)
            QCOMPARE(seen[i], kExampleCounters[i]);

        alloc->setCapacity(alloc->liveBytes());
        try {
            replayPoolTrace(*pool, parsePoolTrace("\nalloc big 4096\n"), {});
            QFAIL("replayed");
        } catch (const PoolTraceError &e) {
            QCOMPARE(e.line(), 2);
            QVERIFY2(QByteArray(e.what()).startsWith("line 2: alloc big 4096: testAllocate failed: "),
                     e.what());
        }
    }

    // The replayer's own ops one step at a time (the pool dock's workload): the counters of every op, then
    // nothing; a failing op names its line and counts as done.
    void replaySteps()
    {
        auto alloc = std::make_shared<CountingTestAllocator>();
        auto pool = makePool(alloc);
        PoolTraceReplayer replayer(*pool, parsePoolTrace(kExampleTrace));
        for (int i = 0; i < 7; ++i) {
            QVERIFY(!replayer.finished());
            const std::optional<PoolCounters> c = replayer.step();
            QVERIFY(c);
            QCOMPARE(text(*c), kExampleCounters[i]);
            QCOMPARE(replayer.stepsDone(), std::size_t(i + 1));
        }
        QVERIFY(replayer.finished());
        QVERIFY(!replayer.step());

        alloc->setCapacity(alloc->liveBytes());
        auto full = makePool(alloc);
        PoolTraceReplayer failing(*full, parsePoolTrace("alloc big 4096\nalloc small 1\n"));
        try {
            failing.step();
            QFAIL("replayed");
        } catch (const PoolTraceError &e) {
            QCOMPARE(e.line(), 1);
            QVERIFY2(QByteArray(e.what()).startsWith("line 1: alloc big 4096: testAllocate failed: "),
                     e.what());
        }
        QCOMPARE(failing.stepsDone(), std::size_t(1));
        QVERIFY(!failing.finished());
    }

    void replayOnDevice_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::newRow("deferred") << QByteArray("deferred");
        QTest::newRow("immediate") << QByteArray("immediate");
        QTest::newRow("svm") << QByteArray("svm");
    }
    void replayOnDevice()
    {
        QFETCH(QByteArray, kind);
        cl_device_id device = firstDevice();
        if (!device)
            QSKIP("no OpenCL device");
        cl_int err = CL_SUCCESS;
        cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        QCOMPARE(err, CL_SUCCESS);
        cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
        QCOMPARE(err, CL_SUCCESS);
        cl_command_queue queue2 = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
        QCOMPARE(err, CL_SUCCESS);
        {
            // The factory's allocator of each kind (clscope-cli pool replay --allocator, the pool dock).
            const std::optional<AllocatorKind> k = parseAllocatorKind(kind.toStdString());
            QVERIFY(k);
            if (*k == AllocatorKind::Svm && !SvmAllocator::isSupported(device)) {
                clReleaseCommandQueue(queue2);
                clReleaseCommandQueue(queue);
                clReleaseContext(ctx);
                QSKIP("device has no SVM");
            }
            // Immediate on a queue of its own: PoCL's events hold references to their queue for a while
            // after release, which would blur the reference counts checked below.
            const std::shared_ptr<Allocator> alloc = makeAllocator(*k, ctx);
            const Allocator &a = *alloc;
            QCOMPARE(typeid(a) == typeid(DeferredAllocator), *k == AllocatorKind::Deferred);
            QCOMPARE(typeid(a) == typeid(ImmediateAllocator), *k == AllocatorKind::Immediate);
            QCOMPARE(typeid(a) == typeid(SvmAllocator), *k == AllocatorKind::Svm);
            cl_ulong maxAlloc = 0;
            clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(maxAlloc), &maxAlloc, nullptr);
            QCOMPARE(std::uint64_t(alloc->maxAllocSize()), std::uint64_t(maxAlloc));
            MemoryPool pool(alloc);
            QByteArrayList seen;
            replayPoolTrace(pool, parsePoolTrace(kExampleTrace),
                            [&](const PoolOp &, const PoolCounters &c) { seen << text(c); });
            for (int i = 0; i < seen.size(); ++i)
                QCOMPARE(seen[i], kExampleCounters[i]);
            // A block used on one queue and reused on another: the pool retains, waits and releases.
            MemoryPool queued(alloc);
            PooledBuffer b = queued.allocate(4096, queue);
            void *h = b.handle();
            b.release();
            b = queued.allocate(4096, queue2);
            QCOMPARE(b.handle(), h);
            QCOMPARE(queueRefs(queue), 1u);  // the pool let go of the old queue...
            QCOMPARE(queueRefs(queue2), 2u); // ...and holds the new one while the block is bound to it
            b.release();
            // The maximum itself rounds past the maximum: served unrounded.
            if (kind != "immediate") { // PoCL really commits immediate memory; keep the test light
                PooledBuffer huge = queued.allocate(std::size_t(maxAlloc));
                QCOMPARE(std::uint64_t(huge.allocSize()), std::uint64_t(maxAlloc));
            }
            QVERIFY_THROWS_EXCEPTION(ClError, queued.allocate(~std::size_t{0}));
            QCOMPARE(queued.stats().oomFreedBlocks, 0u); // a size error, not out of memory
        }
        for (cl_command_queue q : {queue, queue2}) {
            QCOMPARE(queueRefs(q), 1u);
            clReleaseCommandQueue(q);
        }
        clReleaseContext(ctx);
    }
};

QTEST_APPLESS_MAIN(TestPoolTrace)
#include "tst_pooltrace.moc"
