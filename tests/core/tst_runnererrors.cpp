// Runs that are refused, each with an error that names the argument, kernel or limit: the launch limits
// of device and kernel, ranges, local memory and buffers beyond them (before PoCL aborts on them or the
// host runs out of memory), wrong arguments, and Oclgrind's strict argument-size check. The runs
// themselves: tst_runner.cpp.
#include "clscope/error.h"
#include "runnertest.h"
#include "testhelpers.h"

#include <QTest>

#include <sys/resource.h>

using namespace clscope;
using namespace runnertest;
using testhelpers::components;

class TestRunnerErrors : public QObject, private runnertest::Fixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUp(); }

    void launchLimits()
    {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(m_vectorAdd.program(), "vector_add", &err);
        QCOMPARE(err, CL_SUCCESS);
        const LaunchLimits l = queryLaunchLimits(m_device, k, m_vectorAdd.options());
        clReleaseKernel(k);
        std::size_t maxGroup = 0;
        clGetDeviceInfo(m_device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxGroup, &maxGroup, nullptr);
        QCOMPARE(l.kernel, std::string("vector_add"));
        QCOMPARE(l.maxWorkGroupSize, maxGroup);
        QCOMPARE(l.maxWorkItemSizes.size(), std::size_t(l.maxWorkItemDimensions));
        QVERIFY(l.kernelWorkGroupSize >= 1 && l.kernelWorkGroupSize <= maxGroup);
        QVERIFY(l.localMemSize > 0);
        QVERIFY(!l.nonUniformWorkGroups); // built without -cl-std=CL2.0
    }

    void errors_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("global");
        QTest::addColumn<QString>("local");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message"); // what() starts with this
        const QString vectorArgs = QStringLiteral("a=buffer:float:8 b=buffer:float:8 c=buffer:float:8 n=8");
        QTest::newRow("unknown kernel")
            << "nope"
            << "8"
            << "" << vectorArgs << "unknown kernel 'nope' (kernels: echo_scalars, echo_vectors, scale_int,";
        QTest::newRow("over CL_DEVICE_MAX_WORK_GROUP_SIZE")
            << "scale_int"
            << "16384"
            << "8192"
            << "in=buffer:int:16384 out=buffer:int:16384 k=1 b=0"
            << "local size 8192 exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (";
        QTest::newRow("not divisible") << "scale_int"
                                       << "10"
                                       << "4"
                                       << "in=buffer:int:10 out=buffer:int:10 k=1 b=0"
                                       << "global size 10 is not a multiple of local size 4 in dimension 0";
        QTest::newRow("required size differs")
            << "fixed_group"
            << "8"
            << "2"
            << "out=buffer:uint:8"
            << "local size 2 differs from the work-group size 4 that kernel fixed_group requires "
               "(CL_KERNEL_COMPILE_WORK_GROUP_SIZE)";
        QTest::newRow("image") << "with_image"
                               << "1"
                               << ""
                               << "out=buffer:int:1"
                               << "missing argument 'img' (read_only image2d_t) of kernel with_image: give "
                                  "img=image2d:RGBA:UNORM_INT8:WxH[:INIT]";
        QTest::newRow("sampler") << "with_sampler"
                                 << "1"
                                 << ""
                                 << "out=buffer:int:1"
                                 << "missing argument 's' (sampler_t) of kernel with_sampler: give "
                                    "s=sampler:normalized|unnormalized,ADDRESSING,nearest|linear";
        QTest::newRow("missing argument")
            << "scale_int"
            << "8"
            << ""
            << "in=buffer:int:8 out=buffer:int:8 k=1"
            << "missing argument 'b' (int) of kernel scale_int: give b=int:VALUE";
    }

    void errors()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, global);
        QFETCH(QString, local);
        QFETCH(QString, args);
        QFETCH(QString, message);
        const std::string name = kernel.toStdString();
        RunRequest r = request(m_types, name.c_str(), global.toLatin1().constData(), args);
        if (!local.isEmpty())
            r.range.local = parseSizeList(local.toStdString(), "local size");
        const QString got = errorOf([&] { runKernel(r); });
        QVERIFY2(got.startsWith(message), qPrintable(got));
    }

    void oclgrind()
    {
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed (packaging/install-deps.sh installs it)");
        const cl_device_id device = selectDevice("oclgrind").device;
        // An OpenCL 1.2 device: the queue comes from clCreateCommandQueue.
        const BuildResult va = build(kernelPath("vector_add.cl"), true, nullptr, device);
        QVERIFY(va.success());
        RunRequest r = request(
            va, "vector_add", "16",
            QStringLiteral("a=buffer:float:16:iota b=buffer:float:16:fill=1 c=buffer:float:16 n=16"), {"c"});
        r.device = device;
        const RunResult result = runKernel(r);
        QCOMPARE(components(*result.buffer("c")), QStringLiteral("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"));
        QCOMPARE(result.launches().size(), std::size_t(1));

        // A bytesN of another size than the struct is refused before the launch (tst_structruns); a program
        // built from a binary has no source to ask the layout with, so the value goes to the driver, and
        // Oclgrind checks argument sizes: the failing call names the argument.
        const BuildResult types = build(dataPath("types.cl"), true, nullptr, device);
        QCOMPARE(errorOf([&] {
                     RunRequest r = request(types, "pair_by_value", "1",
                                            QStringLiteral("out=buffer:int:1 v=bytes4:00000000"));
                     r.device = device;
                     runKernel(r);
                 }),
                 QStringLiteral("v: bytes4 is 4 bytes, but the Pair argument is 8 bytes"));
        BuildRequest fromBinary;
        fromBinary.devices = {device};
        const BuildResult binary =
            buildProgramFromBinaries(fromBinary, programBinaries(types.program(), {device}));
        QVERIFY(binary.success());
        QVERIFY(binary.source().empty());
        RunRequest bad =
            request(binary, "pair_by_value", "1", QStringLiteral("out=buffer:int:1 v=bytes4:00000000"));
        bad.device = device;
        QCOMPARE(errorOf([&] { runKernel(bad); }),
                 QStringLiteral("clSetKernelArg(v) failed: INVALID_ARG_SIZE"));
        try {
            runKernel(bad);
        } catch (const ClError &e) {
            QCOMPARE(e.code(), CL_INVALID_ARG_SIZE);
            QCOMPARE(e.routine(), std::string("clSetKernelArg(v)"));
        }
    }

    void localMemoryLimit()
    {
        const BuildResult b = build(kernelPath("reduction.cl"));
        cl_ulong localMem = 0;
        clGetDeviceInfo(m_device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof localMem, &localMem, nullptr);
        RunRequest r =
            request(b, "reduce_sum", "64",
                    QStringLiteral("input=buffer:float:64 partial=buffer:float:1 scratch=local:%1 n=64")
                        .arg(localMem + 1));
        const QString got = errorOf([&] { runKernel(r); });
        QVERIFY2(got.startsWith(QStringLiteral("local memory of ")) &&
                     got.endsWith(QStringLiteral("exceeds CL_DEVICE_LOCAL_MEM_SIZE (%1)").arg(localMem)),
                 qPrintable(got));
    }

    // Issue 17 item 3: two local:2^63 used to sum to 0, pass the check, and make PoCL abort.
    void localSizesDoNotWrap()
    {
        const BuildResult b = build(dataPath("reliability.cl"));
        QVERIFY(b.success());
        RunRequest r = request(b, "two_locals", "1",
                               QStringLiteral("a=local:9223372036854775808 b=local:9223372036854775808 "
                                              "out=buffer:float:1"));
        const QString got = errorOf([&] { runKernel(r); });
        QVERIFY2(got.startsWith(QStringLiteral("local memory of more than 18446744073709551615 bytes")) &&
                     got.contains(QStringLiteral("CL_DEVICE_LOCAL_MEM_SIZE")),
                 qPrintable(got));
        // 2^64-1 plus the kernel's own local memory wrapped to a small number the same way.
        r.args = specs(QStringLiteral("a=local:18446744073709551615 b=local:1 out=buffer:float:1"));
        QVERIFY2(errorOf([&] { runKernel(r); }).startsWith(QStringLiteral("local memory of more than")),
                 qPrintable(errorOf([&] { runKernel(r); })));
    }

    // Issue 17 item 8: PoCL asserts (aborting the process) on these ranges; they are refused before.
    void absurdRangesAreRefused_data()
    {
        QTest::addColumn<QString>("global");
        QTest::newRow("2^64-1") << "18446744073709551615";
        QTest::newRow("2^63") << "9223372036854775808";
        QTest::newRow("2^32,2^32,2") << "4294967296,4294967296,2";
        QTest::newRow("2^32,2^32") << "4294967296,4294967296";
    }

    void absurdRangesAreRefused()
    {
        QFETCH(QString, global);
        const BuildResult b = build(dataPath("reliability.cl"));
        QVERIFY(b.success());
        RunRequest r = request(b, "mark", "1", QStringLiteral("out=buffer:uint:1"));
        r.range.global = parseSizeList(global.toStdString(), "global size");
        const QString got = errorOf([&] { runKernel(r); });
        QVERIFY2(got.contains(QStringLiteral("(CL_DEVICE_ADDRESS_BITS ")), qPrintable(got));
    }

    // A huge iota buffer is refused by CL_DEVICE_MAX_MEM_ALLOC_SIZE before its contents are made on the
    // host (they used to be made first: 2^40 floats of iota ran the host out of memory).
    void hugeInitialisedBufferRefusedFirst()
    {
        const BuildResult b = build(dataPath("reliability.cl"));
        QVERIFY(b.success());
        cl_ulong maxAlloc = 0;
        clGetDeviceInfo(m_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxAlloc, &maxAlloc, nullptr);
        const auto peakRssMiB = [] {
            rusage usage{};
            getrusage(RUSAGE_SELF, &usage);
            return qint64(usage.ru_maxrss) / 1024; // kilobytes on Linux
        };
        // One element more than the device allocates: the old order made all of it on the host first.
        const cl_ulong count = maxAlloc / sizeof(cl_uint) + 1;
        for (const char *init : {"iota", "random=1"}) {
            const qint64 before = peakRssMiB();
            RunRequest r = request(
                b, "mark", "1", QStringLiteral("out=buffer:uint:%1:%2").arg(count).arg(QLatin1String(init)));
            const QString got = errorOf([&] { runKernel(r); });
            QVERIFY2(got.endsWith(QStringLiteral("exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (%1)").arg(maxAlloc)),
                     qPrintable(got));
            QVERIFY2(peakRssMiB() - before < 256, qPrintable(QStringLiteral("%1: peak memory grew by %2 MiB")
                                                                 .arg(QLatin1String(init))
                                                                 .arg(peakRssMiB() - before)));
        }
    }

    void inputErrors()
    {
        RunRequest r =
            request(m_vectorAdd, "vector_add", "8",
                    QStringLiteral("a=buffer:float:8 b=buffer:float:8 c=buffer:float:8 n=8"), {"zz"});
        QCOMPARE(errorOf([&] { runKernel(r); }),
                 QStringLiteral("cannot read back 'zz': kernel vector_add has no argument of that name"));
        r.readBack = {"n"};
        QCOMPARE(errorOf([&] { runKernel(r); }),
                 QStringLiteral("n: only buffers and images can be read back (n is a value argument)"));
        r.build = BuildResult();
        QCOMPARE(errorOf([&] { runKernel(r); }), QStringLiteral("the program did not build"));
    }
};

QTEST_GUILESS_MAIN(TestRunnerErrors)
#include "tst_runnererrors.moc"
