// Kernel runs on PoCL, compared with results computed here: vector_add with iota and fill, a reduction
// with a __local buffer, every scalar and vector type through arguments and buffers, a 2D kernel with an
// offset, structs, copies, seeded random and .npy initialisers, repeats and cancellation, the command
// records, a shared memory pool, concurrent runs, and a run's host profile. The errors that name an
// argument, kernel or limit: tst_runnererrors.cpp.
#include "pooltesthelpers.h"
#include "runnertest.h"
#include "testhelpers.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <future>

using namespace clscope;
using namespace runnertest;
using testhelpers::components;

class TestRunner : public QObject, private runnertest::Fixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUp(); }

    void vectorAdd()
    {
        RunRequest r = request(m_vectorAdd, "vector_add", "1024",
                               QStringLiteral("a=buffer:float:1024:iota=1:0.5 b=buffer:float:1024:fill=2 "
                                              "c=buffer:float:1024 n=uint:1000"),
                               {"c"});
        r.range.local = {64};
        const RunResult result = runKernel(r);
        const BufferData *c = result.buffer("c");
        QVERIFY(c);
        QCOMPARE(c->count, std::size_t(1024));
        const auto values = valuesOf<float>(*c);
        for (std::size_t i = 0; i < values.size(); ++i)
            QCOMPARE(values[i], i < 1000 ? 1.0f + 0.5f * float(i) + 2.0f : 0.0f);
        QVERIFY(!result.buffer("a")); // only what was asked for is read back
        QCOMPARE(result.kernel(), std::string("vector_add"));
        QCOMPARE(result.global(), std::vector<std::size_t>{1024});
        QCOMPARE(result.local(), std::vector<std::size_t>{64});
        QCOMPARE(result.offset(), std::vector<std::size_t>{0});
        QVERIFY(!result.device().empty());
        QVERIFY(result.durationMs() > 0);
        QVERIFY(!result.cancelled());

        // One record per command, in enqueue order, with sane timestamps.
        QStringList names;
        for (const CommandRecord &rec : result.commands()) {
            names << qs(std::string(typeName(rec.type))) + u':' + qs(rec.name) + u':' +
                         QString::number(rec.bytes);
            QVERIFY2(rec.queued > 0 && rec.queued <= rec.submit && rec.submit <= rec.start &&
                         rec.start <= rec.end,
                     qPrintable(qs(rec.name)));
            QVERIFY(rec.hostSubmitNs > 0);
            QCOMPARE(rec.device, result.device());
        }
        QCOMPARE(names.join(u' '), QStringLiteral("write:write a:4096 fill:fill b:4096 fill:fill c:4096 "
                                                  "kernel:vector_add:0 read:read c:4096"));
        QCOMPARE(result.launches().size(), std::size_t(1));
        const CommandRecord &launch = result.launches().front();
        QCOMPARE(launch.dims, 1);
        QCOMPARE(launch.global[0], std::size_t(1024));
        QCOMPARE(launch.local[0], std::size_t(64));
        for (std::size_t i = 1; i < result.commands().size(); ++i)
            QVERIFY(result.commands()[i].hostSubmitNs >= result.commands()[i - 1].hostSubmitNs);
    }

    // A value parsed already (the Arguments panel parses it as the user types) is bound as it was parsed,
    // not parsed again; parsed for another type, the text is parsed for the argument's.
    void parsedValueIsBoundAsParsed()
    {
        const KernelInfo &kernel = *m_vectorAdd.kernel("vector_add");
        const ElementType uintType = *parseElementType("uint");
        const cl_uint seven = 7;
        std::vector<unsigned char> sevenBytes(sizeof seven);
        std::memcpy(sevenBytes.data(), &seven, sizeof seven);
        std::vector<ArgValue> values =
            specs(QStringLiteral("a=buffer:float:8 b=buffer:float:8 c=buffer:float:8"));
        values.push_back({"n", ScalarArg{std::nullopt, "1", uintType, sevenBytes}});
        QCOMPARE(bindArguments(kernel, values).back().value, sevenBytes);
        values.back() = {"n", ScalarArg{std::nullopt, "1", *parseElementType("float"), sevenBytes}};
        QCOMPARE(bindArguments(kernel, values).back().value, parseValue("1", uintType, "n"));
    }

    void reductionWithLocalBuffer()
    {
        const BuildResult b = build(kernelPath("reduction.cl"));
        QVERIFY(b.success());
        RunRequest r = request(b, "reduce_sum", "1024",
                               QStringLiteral("input=buffer:float:1000:random=7:0:1 partial=buffer:float:16 "
                                              "scratch=local:256 n=1000"),
                               {"input", "partial"});
        r.range.local = {64};
        const RunResult result = runKernel(r);
        const auto input = valuesOf<float>(*result.buffer("input"));
        const auto partial = valuesOf<float>(*result.buffer("partial"));
        QCOMPARE(input.size(), std::size_t(1000));
        QCOMPARE(partial.size(), std::size_t(16));
        for (std::size_t g = 0; g < 16; ++g) {
            double sum = 0;
            for (std::size_t i = g * 64; i < std::min<std::size_t>((g + 1) * 64, 1000); ++i)
                sum += input[i];
            QVERIFY2(std::abs(partial[g] - sum) <= 1e-4 * std::max(1.0, sum),
                     qPrintable(QStringLiteral("group %1: %2 vs %3").arg(g).arg(partial[g]).arg(sum)));
        }
    }

    void kernels_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("global");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("print");
        QTest::addColumn<QString>("expected");
        const QString scalars = QStringLiteral(
            "ints=buffer:long:8 floats=buffer:double:2 c=-128 uc=255 s=-32768 us=65535 i=-2147483648 "
            "u=4294967295 l=-9223372036854775808 ul=18446744073709551615 f=0x1.8p1 d=0.1");
        QTest::newRow("every scalar type, integers") << "echo_scalars"
                                                     << "1" << scalars << "ints"
                                                     << "-128 255 -32768 65535 -2147483648 4294967295 "
                                                        "-9223372036854775808 -1";
        QTest::newRow("every scalar type, floats") << "echo_scalars"
                                                   << "1" << scalars << "floats"
                                                   << "3 0.1";
        QTest::newRow("typed scalars")
            << "echo_scalars"
            << "1"
            << "ints=buffer:long:8 floats=buffer:double:2 c=char:0x7f uc=uchar:0 s=short:-1 "
               "us=ushort:0x10 i=int:7 u=uint:8 l=long:9007199254740993 ul=ulong:0xffffffffffffffff "
               "f=float:-2.5 d=double:1e300"
            << "ints"
            << "127 0 -1 16 7 8 9007199254740993 -1";
        QTest::newRow("vectors of every width")
            << "echo_vectors"
            << "1"
            << "out=buffer:int:33 a=1,2 b=3,4,5 c=6,7,8,9 d=10,11,12,13,14,15,16,17 "
               "e=int16:18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33"
            << "out"
            << "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33";
        QTest::newRow("int") << "scale_int"
                             << "8"
                             << "in=buffer:int:8:iota=-4 out=buffer:int:8 k=3 b=-1"
                             << "out"
                             << "-13 -10 -7 -4 -1 2 5 8";
        QTest::newRow("long beyond 2^53")
            << "add_long"
            << "4"
            << "in=buffer:long:4:iota=9007199254740993:2 out=buffer:long:4 k=2"
            << "out"
            << "9007199254740995 9007199254740997 9007199254740999 9007199254741001";
        QTest::newRow("double") << "axpy_double"
                                << "4"
                                << "x=buffer:double:4:iota=0:0.25 y=buffer:double:4:fill=1 a=2"
                                << "y"
                                << "1 1.5 2 2.5";
        QTest::newRow("float4") << "scale_float4"
                                << "2"
                                << "in=buffer:float4:2:iota out=buffer:float4:2 s=1,2,3,4"
                                << "out"
                                << "0 2 6 12 4 10 18 28";
        QTest::newRow("float3 stored as 4") << "add_float3"
                                            << "2"
                                            << "in=buffer:float3:2:iota out=buffer:float3:2 s=10,20,30"
                                            << "out"
                                            << "10 21 32 13 24 35";
        QTest::newRow("half storage") << "twice_half"
                                      << "4"
                                      << "in=buffer:half:4:iota=0.5:0.5 out=buffer:half:4"
                                      << "out"
                                      << "1 2 3 4";
        QTest::newRow("struct by value") << "pair_by_value"
                                         << "1"
                                         << "out=buffer:int:1 v=bytes8:0000803f07000000"
                                         << "out"
                                         << "8";
        QTest::newRow("required work-group size") << "fixed_group"
                                                  << "8"
                                                  << "out=buffer:uint:8"
                                                  << "out"
                                                  << "4 4 4 4 4 4 4 4";
    }

    void kernels()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, global);
        QFETCH(QString, args);
        QFETCH(QString, print);
        QFETCH(QString, expected);
        const std::string name = kernel.toStdString();
        const RunRequest r =
            request(m_types, name.c_str(), global.toLatin1().constData(), args, {print.toStdString()});
        const RunResult result = runKernel(r);
        QCOMPARE(components(*result.buffer(print.toStdString())), expected);
    }

    void twoDimensionsWithOffset()
    {
        RunRequest r =
            request(m_types, "grid", "4,3", QStringLiteral("out=buffer:int:40:fill=-1 width=8"), {"out"});
        r.range.offset = {2, 1};
        r.range.local = {2, 1};
        const RunResult result = runKernel(r);
        QCOMPARE(result.offset(), (std::vector<std::size_t>{2, 1}));
        QCOMPARE(result.launches().front().dims, 2);
        const auto out = valuesOf<int>(*result.buffer("out"));
        for (int y = 0; y < 5; ++y) {
            for (int x = 0; x < 8; ++x) {
                const bool inside = x >= 2 && x < 6 && y >= 1 && y < 4;
                QCOMPARE(out[std::size_t(y * 8 + x)], inside ? y * 1000 + x : -1);
            }
        }
    }

    void structBuffer()
    {
        const RunResult result =
            runKernel(request(m_types, "pairs", "4", QStringLiteral("p=buffer:bytes8:4"), {"p"}));
        const BufferData *p = result.buffer("p");
        QCOMPARE(p->bytes.size(), std::size_t(32));
        for (int i = 0; i < 4; ++i) {
            float x;
            int y;
            std::memcpy(&x, p->bytes.data() + i * 8, 4);
            std::memcpy(&y, p->bytes.data() + i * 8 + 4, 4);
            QCOMPARE(x, float(i));
            QCOMPARE(y, 2 * i);
        }
    }

    void initialisersOnTheDevice()
    {
        // copy= is a device copy after the source's own initialisation; random= is seeded; file= reads .npy.
        const std::string npy = dataPath("iota_f4.npy");
        const QString args =
            QStringLiteral("a=buffer:float:8:random=5:-1:1 b=buffer:float:8:copy=a c=buffer:float:8 n=8");
        const RunResult first = runKernel(request(m_vectorAdd, "vector_add", "8", args, {"a", "c"}));
        const auto a = valuesOf<float>(*first.buffer("a"));
        const auto c = valuesOf<float>(*first.buffer("c"));
        for (std::size_t i = 0; i < 8; ++i) {
            QVERIFY(a[i] >= -1 && a[i] < 1);
            QCOMPARE(c[i], a[i] + a[i]);
        }
        // The host generates the same contents as the device received.
        const BoundArg bound = bindArguments(*m_vectorAdd.kernel("vector_add"), specs(args)).front();
        QCOMPARE(first.buffer("a")->bytes, initialContents(bound));
        const RunResult second = runKernel(request(m_vectorAdd, "vector_add", "8", args, {"c"}));
        QCOMPARE(second.buffer("c")->bytes, first.buffer("c")->bytes);
        QVERIFY(std::any_of(first.commands().begin(), first.commands().end(), [](const CommandRecord &r) {
            return r.type == CommandRecord::Type::Copy && r.name == "copy a to b" && r.bytes == 32;
        }));

        const RunResult fromFile =
            runKernel(request(m_vectorAdd, "vector_add", "8",
                              QStringLiteral("a=buffer:float:8:file=") + qs(npy) +
                                  QStringLiteral(" b=buffer:float:8:fill=0.5 c=buffer:float:8 n=8"),
                              {"c"}));
        QCOMPARE(components(*fromFile.buffer("c")), QStringLiteral("0.5 1.5 2.5 3.5 4.5 5.5 6.5 7.5"));
    }

    void argumentsFromSource()
    {
        // Built without -cl-kernel-arg-info, PoCL has no arg info: the names and types come from the source.
        const BuildResult b = build(kernelPath("vector_add.cl"), false);
        QCOMPARE(b.kernel("vector_add")->argInfo, ArgInfoSource::Source);
        const RunResult result = runKernel(request(
            b, "vector_add", "4", QStringLiteral("a=buffer:4:iota b=buffer:4:iota c=buffer:4 n=4"), {"c"}));
        QCOMPARE(components(*result.buffer("c")), QStringLiteral("0 2 4 6"));
    }

    void repeatAndCancel()
    {
        RunRequest r = request(
            m_vectorAdd, "vector_add", "256",
            QStringLiteral("a=buffer:float:256:iota b=buffer:float:256 c=buffer:float:256 n=256"), {"c"});
        r.repeat = 5;
        const RunResult five = runKernel(r);
        QCOMPARE(five.launches().size(), std::size_t(5));
        QCOMPARE(five.repeat(), 5);
        for (std::size_t i = 1; i < five.launches().size(); ++i)
            QVERIFY(five.launches()[i].queued >= five.launches()[i - 1].queued);

        auto cancel = std::make_shared<std::atomic<bool>>(true);
        RunOptions options;
        options.cancel = cancel;
        const RunResult cancelled = runKernel(r, options);
        QVERIFY(cancelled.cancelled());
        QVERIFY(cancelled.launches().empty());
        QVERIFY(cancelled.buffers().empty());
        QCOMPARE(cancelled.commands().size(), std::size_t(3)); // the initialisations only

        r.repeat = 0;
        QCOMPARE(errorOf([&] { runKernel(r); }), QStringLiteral("repeat count 0 must be at least 1"));
    }

    void sharedPool()
    {
        cl_int err = CL_SUCCESS;
        const ClContext context(clCreateContext(nullptr, 1, &m_device, nullptr, nullptr, &err));
        QCOMPARE(err, CL_SUCCESS);
        const ClQueue queue(clCreateCommandQueueWithProperties(context.get(), m_device, nullptr, &err));
        QCOMPARE(err, CL_SUCCESS);
        auto pool = std::make_shared<MemoryPool>(std::make_shared<ImmediateAllocator>(queue.get()));
        const BuildResult b = build(kernelPath("vector_add.cl"), true, context.get());
        QVERIFY(b.success());
        RunOptions options;
        options.pool = pool;
        const RunRequest r =
            request(b, "vector_add", "64",
                    QStringLiteral("a=buffer:float:64:iota b=buffer:float:64 c=buffer:float:64 n=64"), {"c"});
        runKernel(r, options);
        const PoolStats afterFirst = pool->stats();
        QCOMPARE(afterFirst.counters.activeBlocks, std::uint64_t(0));
        QCOMPARE(afterFirst.counters.heldBlocks, std::uint64_t(3)); // the buffers went back to the pool
        const RunResult second = runKernel(r, options);
        const PoolStats afterSecond = pool->stats();
        QCOMPARE(afterSecond.hits, afterFirst.hits + 3);
        QCOMPARE(afterSecond.misses, afterFirst.misses);
        QCOMPARE(components(*second.buffer("c")).section(u' ', 0, 3), QStringLiteral("0 1 2 3"));

        // A pool of another context cannot serve this program.
        const RunRequest other =
            request(m_vectorAdd, "vector_add", "64",
                    QStringLiteral("a=buffer:float:64 b=buffer:float:64 c=buffer:float:64 n=64"));
        QCOMPARE(errorOf([&] { runKernel(other, options); }),
                 QStringLiteral("the memory pool allocates in another context than the program's"));
    }

    // RunOptions::exactBuffers: buffers of their own, at their size, not the pool's (whose bins would round
    // 4000 bytes up to 4095); probeAddresses: each buffer's pointer value, with its elements and their type.
    void exactBuffersAndTheirAddresses()
    {
        cl_int err = CL_SUCCESS;
        const ClContext context(clCreateContext(nullptr, 1, &m_device, nullptr, nullptr, &err));
        QCOMPARE(err, CL_SUCCESS);
        const ClQueue queue(clCreateCommandQueueWithProperties(context.get(), m_device, nullptr, &err));
        QCOMPARE(err, CL_SUCCESS);
        auto pool = std::make_shared<MemoryPool>(std::make_shared<ImmediateAllocator>(queue.get()));
        const BuildResult b = build(kernelPath("vector_add.cl"), true, context.get());
        QVERIFY(b.success());
        RunOptions options;
        options.pool = pool;
        options.exactBuffers = true;
        options.probeAddresses = true;
        const RunRequest r = request(
            b, "vector_add", "1000",
            QStringLiteral("a=buffer:float:1000:iota b=buffer:float:1000 c=buffer:float:1000 n=1000"), {"c"});
        const RunResult result = runKernel(r, options);
        QCOMPARE(pool->stats().misses, std::uint64_t(0)); // the pool was not asked
        QCOMPARE(components(*result.buffer("c")).section(u' ', 0, 3), QStringLiteral("0 1 2 3"));
        std::vector<std::uint64_t> addresses;
        for (const RunArgument &a : result.arguments()) {
            if (a.kind != ArgKind::Buffer) {
                QVERIFY(!a.address);
                continue;
            }
            QVERIFY2(a.address && *a.address != 0, a.name.c_str());
            QCOMPARE(a.count, std::size_t(1000));
            QCOMPARE(a.element, std::string("float"));
            QCOMPARE(a.bytes, std::uint64_t(4000));
            addresses.push_back(*a.address);
        }
        QCOMPARE(addresses.size(), std::size_t(3));
        std::sort(addresses.begin(), addresses.end());
        QVERIFY(std::adjacent_find(addresses.begin(), addresses.end()) == addresses.end());

        // Without the options: the pool's blocks, and no addresses.
        options.exactBuffers = options.probeAddresses = false;
        const RunResult pooled = runKernel(r, options);
        QCOMPARE(pool->stats().misses, std::uint64_t(3));
        QVERIFY(!pooled.arguments().front().address);
    }

    // clhandle.h: one reference per handle, given back when it goes, moved but not copied.
    void clHandles()
    {
        auto refs = [](cl_context c) {
            cl_uint n = 0;
            clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr);
            return n;
        };
        cl_int err = CL_SUCCESS;
        ClContext owner(clCreateContext(nullptr, 1, &m_device, nullptr, nullptr, &err));
        QCOMPARE(err, CL_SUCCESS);
        const cl_context raw = owner.get();
        QCOMPARE(refs(raw), 1u);
        {
            const ClContext second = ClContext::retain(raw);
            QCOMPARE(second.get(), raw);
            QCOMPARE(refs(raw), 2u);
        }
        QCOMPARE(refs(raw), 1u);
        ClContext moved = std::move(owner);
        QVERIFY(!owner);
        QCOMPARE(moved.get(), raw);
        QCOMPARE(refs(raw), 1u);
        ClContext other = ClContext::retain(raw);
        other = std::move(moved); // gives back the reference other held
        QCOMPARE(refs(raw), 1u);
        const cl_context taken = other.release();
        QVERIFY(!other);
        QCOMPARE(refs(taken), 1u);
        other.reset(taken); // and adopts it again; released when `other` goes
        QVERIFY(!ClContext::retain(nullptr));
    }

    void concurrentRuns()
    {
        // Runs keep no shared state: two threads run the same build at once.
        auto runOne = [this](int n) {
            const QString args =
                QStringLiteral("a=buffer:float:%1:iota b=buffer:float:%1:fill=%2 c=buffer:float:%1 n=%1")
                    .arg(n)
                    .arg(n);
            return runKernel(request(m_vectorAdd, "vector_add", std::to_string(n).c_str(), args, {"c"}));
        };
        auto a = std::async(std::launch::async, runOne, 128);
        auto b = std::async(std::launch::async, runOne, 256);
        const RunResult ra = a.get(), rb = b.get();
        QCOMPARE(valuesOf<float>(*ra.buffer("c"))[100], 228.0f);
        QCOMPARE(valuesOf<float>(*rb.buffer("c"))[200], 456.0f);
    }

    void calibratedClock()
    {
        RunOptions options;
        options.calibrateClock = true;
        const RunResult r =
            runKernel(request(m_vectorAdd, "vector_add", "8",
                              QStringLiteral("a=buffer:float:8 b=buffer:float:8 c=buffer:float:8 n=8")),
                      options);
        QVERIFY(r.clock().has_value());
        QVERIFY(!runKernel(request(m_vectorAdd, "vector_add", "8",
                                   QStringLiteral("a=buffer:float:8 b=buffer:float:8 c=buffer:float:8 n=8")))
                     .clock());
    }

    // A run's commands on the host clock with the samples of its pool that belong to it: from kPoolLeadNs
    // before its first command on (the GUI's timeline and run --trace both take them from hostProfile).
    void hostProfileOfARun()
    {
        auto pool = std::make_shared<MemoryPool>(std::make_shared<pooltest::CountingTestAllocator>());
        const PooledBuffer live = pool->allocate(1000); // a sample now, on the pool's coarse clock
        QCOMPARE(pool->snapshotSeries().size(), std::size_t(1));
        const std::uint64_t now = hostNowNs();
        constexpr std::int64_t kOffset = 5'000'000'000; // the device's clock runs 5 s behind the host's
        auto runAt = [&](std::uint64_t hostNs, bool calibrated) {
            RunResultData d;
            CommandRecord c;
            c.queued = hostNs - kOffset;
            c.submit = c.queued + 10;
            c.start = c.queued + 20;
            c.end = c.queued + 30;
            d.commands = {c};
            if (calibrated)
                d.clock = ClockMapping{ClockMapping::Source::Calibration, kOffset, 0};
            return RunResult(std::move(d));
        };

        // A run that began now: its commands on the host clock, the pool's samples under them.
        RunProfile p = hostProfile(runAt(now, true), pool.get());
        QCOMPARE(p.commands.size(), std::size_t(1));
        QCOMPARE(p.commands[0].queued, now);
        QCOMPARE(p.commands[0].end, now + 30);
        QCOMPARE(p.pool.size(), std::size_t(1));
        QCOMPARE(p.pool[0].activeBytes, std::uint64_t(1000));
        // One that began a second later: the samples are older than the lead, not the run's.
        p = hostProfile(runAt(now + 1'000'000'000, true), pool.get());
        QCOMPARE(p.commands[0].queued, now + 1'000'000'000);
        QVERIFY(p.pool.empty());
        // No clock: the device's timestamps as they are (5 s back, so every sample is after the start).
        p = hostProfile(runAt(now, false), pool.get());
        QCOMPARE(p.commands[0].queued, now - kOffset);
        QCOMPARE(p.pool.size(), std::size_t(1));
        // No pool, no series.
        QVERIFY(hostProfile(runAt(now, true), nullptr).pool.empty());
    }
};

QTEST_GUILESS_MAIN(TestRunner)
#include "tst_runner.moc"
