// NDRange parsing and validation against a fake device (a LaunchLimits value), so every limit and its
// message is checked without OpenCL: work-group and work-item sizes, the kernel's work-group size and
// required size, divisibility and non-uniform work-groups, dimensions, offsets, local memory.
#include "clscope/runner.h"

#include <QTest>

using namespace clscope;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const RunInputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

std::vector<std::size_t> sizes(const QString &text)
{
    return text.isEmpty() ? std::vector<std::size_t>{} : parseSizeList(text.toStdString(), "size");
}

// A GPU-like device: 1024 work-items per group, 64 in the third dimension, a kernel limited to 256.
LaunchLimits fakeLimits()
{
    LaunchLimits l;
    l.kernel.push_back('k'); // not = "k": GCC 12 warns falsely (-Wrestrict) about that assignment
    l.maxWorkItemDimensions = 3;
    l.maxWorkItemSizes = {1024, 1024, 64};
    l.maxWorkGroupSize = 1024;
    l.kernelWorkGroupSize = 256;
    l.localMemSize = 65536;
    l.kernelLocalMemSize = 1024;
    return l;
}

} // namespace

class TestNDRange : public QObject
{
    Q_OBJECT

private slots:
    void parseSizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // the sizes joined by ',' or the error
        QTest::newRow("1D") << "1024"
                            << "1024";
        QTest::newRow("2D") << "64,64"
                            << "64,64";
        QTest::newRow("3D with spaces") << " 8 , 8 ,1 "
                                        << "8,8,1";
        QTest::newRow("zero parses (validation rejects it)") << "0"
                                                             << "0";
        QTest::newRow("empty") << ""
                               << "global size '' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("letters") << "a"
                                 << "global size 'a' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("empty part") << "1,,2"
                                    << "global size '1,,2' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("negative") << "-1"
                                  << "global size '-1' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("fraction") << "1.5"
                                  << "global size '1.5' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("hex") << "0x10"
                             << "global size '0x10' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("x separator") << "64x64"
                                     << "global size '64x64' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("4D") << "1,2,3,4"
                            << "global size '1,2,3,4' has 4 dimensions (1 to 3)";
        QTest::newRow("too large") << "99999999999999999999"
                                   << "global size '99999999999999999999' is not a list of sizes (X[,Y[,Z]])";
    }

    void parseSizes()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QString got;
        try {
            got = qs(formatSizeList(parseSizeList(text.toStdString(), "global size")));
        } catch (const RunInputError &e) {
            got = QString::fromUtf8(e.what());
        }
        QCOMPARE(got, expected);
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("global");
        QTest::addColumn<QString>("local");
        QTest::addColumn<QString>("offset");
        QTest::addColumn<QString>("compiled"); // CL_KERNEL_COMPILE_WORK_GROUP_SIZE, "" for none
        QTest::addColumn<bool>("nonUniform");
        QTest::addColumn<int>("maxDims");
        QTest::addColumn<QString>("expected"); // "global|local|offset" ("-" for no local) or the error

        QTest::newRow("1D, driver's local") << "1024"
                                            << ""
                                            << ""
                                            << "" << false << 3 << "1024|-|0";
        QTest::newRow("1D with local") << "1024"
                                       << "64"
                                       << ""
                                       << "" << false << 3 << "1024|64|0";
        QTest::newRow("2D with offset") << "64,64"
                                        << "8,8"
                                        << "1,2"
                                        << "" << false << 3 << "64,64|8,8|1,2";
        QTest::newRow("3D") << "8,8,8"
                            << "2,2,2"
                            << ""
                            << "" << false << 3 << "8,8,8|2,2,2|0,0,0";
        QTest::newRow("offset without local") << "16"
                                              << ""
                                              << "5"
                                              << "" << false << 3 << "16|-|5";
        QTest::newRow("at the kernel's limit") << "1024"
                                               << "256"
                                               << ""
                                               << "" << false << 3 << "1024|256|0";

        QTest::newRow("over CL_DEVICE_MAX_WORK_GROUP_SIZE")
            << "8192"
            << "8192"
            << ""
            << "" << false << 3 << "local size 8192 exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (1024)";
        QTest::newRow("2D over CL_DEVICE_MAX_WORK_GROUP_SIZE")
            << "64,64"
            << "64,64"
            << ""
            << "" << false << 3
            << "local size 64,64 (4096 work-items) exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (1024)";
        QTest::newRow("over CL_DEVICE_MAX_WORK_ITEM_SIZES")
            << "64,64,128"
            << "1,1,128"
            << ""
            << "" << false << 3
            << "local size 128 in dimension 2 exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[2] (64)";
        QTest::newRow("over CL_KERNEL_WORK_GROUP_SIZE")
            << "1024"
            << "512"
            << ""
            << "" << false << 3 << "local size 512 exceeds CL_KERNEL_WORK_GROUP_SIZE (256) of kernel k";
        QTest::newRow("2D over CL_KERNEL_WORK_GROUP_SIZE")
            << "64,64"
            << "32,16"
            << ""
            << "" << false << 3
            << "local size 32,16 (512 work-items) exceeds CL_KERNEL_WORK_GROUP_SIZE (256) of kernel k";
        QTest::newRow("not divisible")
            << "1000"
            << "64"
            << ""
            << "" << false << 3
            << "global size 1000 is not a multiple of local size 64 in dimension 0 (non-uniform work-groups "
               "need "
               "CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT and -cl-std=CL2.0 or later)";
        QTest::newRow("not divisible in dimension 1")
            << "64,30"
            << "8,8"
            << ""
            << "" << false << 3
            << "global size 30 is not a multiple of local size 8 in dimension 1 (non-uniform work-groups "
               "need "
               "CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT and -cl-std=CL2.0 or later)";
        QTest::newRow("local above global")
            << "10"
            << "64"
            << ""
            << "" << false << 3
            << "global size 10 is not a multiple of local size 64 in dimension 0 "
               "(non-uniform work-groups need CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT "
               "and -cl-std=CL2.0 or later)";
        QTest::newRow("non-uniform allowed") << "1000"
                                             << "64"
                                             << ""
                                             << "" << true << 3 << "1000|64|0";
        QTest::newRow("non-uniform still bounded")
            << "1000"
            << "2048"
            << ""
            << "" << true << 3 << "local size 2048 exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (1024)";

        QTest::newRow("local dimensions")
            << "64"
            << "8,8"
            << ""
            << "" << false << 3 << "local size 8,8 has 2 dimensions, global size 64 has 1";
        QTest::newRow("offset dimensions")
            << "64,64"
            << ""
            << "1"
            << "" << false << 3 << "offset 1 has 1 dimensions, global size 64,64 has 2";
        QTest::newRow("global 0")
            << "0"
            << ""
            << ""
            << "" << false << 3
            << "global size 0 is 0 in dimension 0 (every dimension needs at least 1 work-item)";
        QTest::newRow("global 0 in dimension 1")
            << "4,0"
            << ""
            << ""
            << "" << false << 3
            << "global size 4,0 is 0 in dimension 1 (every dimension needs at least 1 work-item)";
        QTest::newRow("local 0")
            << "64"
            << "0"
            << ""
            << "" << false << 3
            << "local size 0 is 0 in dimension 0 (every dimension needs at least 1 work-item)";
        QTest::newRow("over CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS")
            << "4,4,4"
            << ""
            << ""
            << "" << false << 2
            << "global size 4,4,4 has 3 dimensions, more than CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (2)";
        QTest::newRow("offset overflows")
            << "16"
            << ""
            << "18446744073709551615"
            << "" << false << 3
            << "offset 18446744073709551615 plus global size 16 passes the largest "
               "size_t in dimension 0";

        QTest::newRow("required size is the default") << "64"
                                                      << ""
                                                      << ""
                                                      << "8,1,1" << false << 3 << "64|8|0";
        QTest::newRow("required size given") << "64"
                                             << "8"
                                             << ""
                                             << "8,1,1" << false << 3 << "64|8|0";
        QTest::newRow("required 2D") << "16,16"
                                     << ""
                                     << ""
                                     << "4,4,1" << false << 3 << "16,16|4,4|0,0";
        QTest::newRow("required differs")
            << "64"
            << "16"
            << ""
            << "8,1,1" << false << 3
            << "local size 16 differs from the work-group size 8 that kernel k requires "
               "(CL_KERNEL_COMPILE_WORK_GROUP_SIZE)";
        QTest::newRow("required has more dimensions")
            << "64"
            << ""
            << ""
            << "8,8,1" << false << 3
            << "kernel k requires work-groups of 8,8,1 (CL_KERNEL_COMPILE_WORK_GROUP_SIZE), more dimensions "
               "than "
               "global size 64";
        QTest::newRow("required must divide")
            << "60"
            << ""
            << ""
            << "8,1,1" << false << 3
            << "global size 60 is not a multiple of local size 8 in dimension 0 "
               "(non-uniform work-groups need CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT "
               "and -cl-std=CL2.0 or later)";
    }

    void resolve()
    {
        QFETCH(QString, global);
        QFETCH(QString, local);
        QFETCH(QString, offset);
        QFETCH(QString, compiled);
        QFETCH(bool, nonUniform);
        QFETCH(int, maxDims);
        QFETCH(QString, expected);
        LaunchLimits limits = fakeLimits();
        limits.nonUniformWorkGroups = nonUniform;
        limits.maxWorkItemDimensions = std::uint32_t(maxDims);
        const auto c = sizes(compiled);
        for (std::size_t i = 0; i < c.size(); ++i)
            limits.compileWorkGroupSize[i] = c[i];
        const NDRange range{sizes(global), sizes(local), sizes(offset)};
        QString got;
        try {
            const NDRange r = resolveNDRange(range, limits);
            got = qs(formatSizeList(r.global)) + u'|' +
                  (r.local.empty() ? QStringLiteral("-") : qs(formatSizeList(r.local))) + u'|' +
                  qs(formatSizeList(r.offset));
        } catch (const RunInputError &e) {
            got = QString::fromUtf8(e.what());
        }
        QCOMPARE(got, expected);
    }

    void noDimensions()
    {
        QCOMPARE(errorOf([] { resolveNDRange(NDRange{}, fakeLimits()); }),
                 QStringLiteral("global size needs 1 to 3 dimensions, got 0"));
    }

    void unknownLimitsAreNotChecked()
    {
        LaunchLimits limits; // all 0: a driver that reported nothing
        limits.maxWorkItemDimensions = 3;
        const NDRange r = resolveNDRange(NDRange{{1 << 20}, {1 << 16}, {}}, limits);
        QCOMPARE(r.local, std::vector<std::size_t>{1 << 16});
    }

    void localMemory_data()
    {
        QTest::addColumn<qulonglong>("argBytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fits") << qulonglong(1024) << "no error";
        QTest::newRow("exactly fits") << qulonglong(65536 - 1024) << "no error";
        QTest::newRow("too much")
            << qulonglong(70000)
            << "local memory of 71024 bytes (__local arguments 70000 + kernel 1024) exceeds "
               "CL_DEVICE_LOCAL_MEM_SIZE (65536)";
    }

    void localMemory()
    {
        QFETCH(qulonglong, argBytes);
        QFETCH(QString, expected);
        QCOMPARE(errorOf([&] { checkLocalMemory(argBytes, fakeLimits()); }), expected);
    }

    // Issue 17 item 3: sums that wrap past 2^64 must not pass the check as a small number.
    void localMemoryOverflow()
    {
        QCOMPARE(
            errorOf([] { checkLocalMemory(UINT64_MAX, fakeLimits()); }),
            QStringLiteral("local memory of more than 18446744073709551615 bytes (__local arguments "
                           "18446744073709551615 + kernel 1024) exceeds CL_DEVICE_LOCAL_MEM_SIZE (65536)"));
        // Two __local arguments of 2^63 bytes each sum to 0 in 64 bits.
        const std::vector<std::uint64_t> halves{std::uint64_t(1) << 63, std::uint64_t(1) << 63};
        QCOMPARE(errorOf([&] { checkLocalMemory(halves, fakeLimits()); }),
                 QStringLiteral("local memory of more than 18446744073709551615 bytes (the __local arguments "
                                "together) exceeds CL_DEVICE_LOCAL_MEM_SIZE (65536)"));
        QCOMPARE(errorOf([] {
                     checkLocalMemory(std::vector<std::uint64_t>{100, 200}, fakeLimits());
                 }),
                 QStringLiteral("no error"));
    }

    // count * element size saturates: a count no device holds reads as the largest size, never a small one.
    void bufferBytesSaturate()
    {
        BoundArg a;
        a.kind = ArgKind::Buffer;
        a.type = *parseElementType("float4");
        a.count = (SIZE_MAX / 16) + 2; // * 16 wraps to 16 in 64 bits
        QCOMPARE(a.bufferBytes(), std::size_t(SIZE_MAX));
        a.count = 4;
        QCOMPARE(a.bufferBytes(), std::size_t(64));
        QCOMPARE(checkedMul<std::uint64_t>(UINT64_MAX / 2 + 1, 2), std::optional<std::uint64_t>());
        QCOMPARE(checkedAdd<std::uint64_t>(UINT64_MAX, 1), std::optional<std::uint64_t>());
        QCOMPARE(checkedProduct<std::uint64_t>(std::vector<std::uint64_t>{4294967296, 4294967296, 2}),
                 std::optional<std::uint64_t>());
        QCOMPARE(checkedSum<std::uint64_t>(std::vector<std::uint64_t>{1, 2, 3}),
                 std::optional<std::uint64_t>(6));
    }

    void bufferSizesOverflow()
    {
        LaunchLimits limits = fakeLimits();
        limits.maxMemAllocSize = UINT64_MAX;
        limits.globalMemSize = 4 << 20;
        // Each fits CL_DEVICE_MAX_MEM_ALLOC_SIZE; together they wrap to 1 byte.
        QCOMPARE(errorOf([&] {
                     checkBufferSizes({"a", "b"}, {UINT64_MAX, 2}, limits);
                 }),
                 QStringLiteral("the buffers take 18446744073709551615 or more bytes together, more than "
                                "CL_DEVICE_GLOBAL_MEM_SIZE (4194304)"));
    }

    // Issue 17 item 8: ranges a driver aborts on (PoCL) or never finishes are refused, naming the limit.
    void absurdRanges_data()
    {
        QTest::addColumn<QString>("global");
        QTest::addColumn<QString>("local");
        QTest::addColumn<QString>("offset");
        QTest::addColumn<uint>("addressBits");
        QTest::addColumn<QString>("expected");
        const std::string of64 = " of a device with 64 address bits (CL_DEVICE_ADDRESS_BITS 64)";
        const auto text = [](const std::string &s) { return QString::fromStdString(s); };
        QTest::newRow("2^64-1")
            << "18446744073709551615"
            << ""
            << "" << 64u
            << text("global size 18446744073709551615 is 18446744073709551615 work-items, more "
                    "than the 9223372036854775807 (2^63-1)" +
                    of64 + " can count");
        QTest::newRow("2^32,2^32,2 wraps to 0")
            << "4294967296,4294967296,2"
            << ""
            << "" << 64u
            << text("global size 4294967296,4294967296,2 is more than 2^64 work-items, more than the "
                    "9223372036854775807 (2^63-1)" +
                    of64 + " can count");
        QTest::newRow("2^63")
            << "9223372036854775808"
            << ""
            << "" << 0u
            << text("global size 9223372036854775808 is 9223372036854775808 work-items, more than "
                    "the 9223372036854775807 (2^63-1)" +
                    of64 + " can count");
        // Countable as work-items, but not as work-groups: PoCL never returned on it (issue 27).
        QTest::newRow("2^63-1, driver's groups")
            << "9223372036854775807"
            << ""
            << "" << 64u
            << "global size 9223372036854775807 is 9007199254740992 work-groups of the largest size, "
               "CL_DEVICE_MAX_WORK_GROUP_SIZE (1024), more than the 2147483647 (2^31-1) work-groups a driver "
               "counts";
        QTest::newRow("2^62, groups of 1") << "4611686018427387904"
                                           << "1"
                                           << "" << 64u
                                           << "global size 4611686018427387904 is 4611686018427387904 "
                                              "work-groups of local size 1, more than "
                                              "the 2147483647 (2^31-1) work-groups a driver counts";
        QTest::newRow("2^31-1 groups of 1 fit") << "2147483647"
                                                << "1"
                                                << "" << 64u << "no error";
        QTest::newRow("2^31 groups of 1")
            << "2147483648"
            << "1"
            << "" << 64u
            << "global size 2147483648 is 2147483648 work-groups of local size 1, more than the 2147483647 "
               "(2^31-1) work-groups a driver counts";
        QTest::newRow("2^40 in the largest groups fits") << "1099511627776"
                                                         << ""
                                                         << "" << 64u << "no error";
        QTest::newRow("2^32 fits") << "4294967296"
                                   << ""
                                   << "" << 64u << "no error";
        QTest::newRow("32-bit device, one dimension")
            << "4294967296"
            << ""
            << "" << 32u
            << "offset 0 plus global size 4294967296 passes the largest size_t (4294967295) of a device with "
               "32 address bits (CL_DEVICE_ADDRESS_BITS 32) in dimension 0";
        QTest::newRow("32-bit device, product")
            << "65536,65536"
            << ""
            << "" << 32u
            << "global size 65536,65536 is 4294967296 work-items, more than the 2147483647 (2^31-1) of a "
               "device with 32 address bits (CL_DEVICE_ADDRESS_BITS 32) can count";
        QTest::newRow("offset wraps")
            << "16"
            << ""
            << "18446744073709551610" << 64u
            << "offset 18446744073709551610 plus global size 16 passes the largest size_t in dimension 0";
        QTest::newRow("work-groups rounded up past the limit")
            << "9223372036854775807"
            << "256"
            << "" << 64u
            << text("global size 9223372036854775807 in work-groups of 256 is 36028797018963968 "
                    "work-groups of 256 work-items, more than the 9223372036854775807 work-items" +
                    of64 + " can count");
    }

    void absurdRanges()
    {
        QFETCH(QString, global);
        QFETCH(QString, local);
        QFETCH(QString, offset);
        QFETCH(uint, addressBits);
        QFETCH(QString, expected);
        LaunchLimits limits = fakeLimits();
        limits.addressBits = addressBits;
        limits.kernelWorkGroupSize = 0;
        limits.nonUniformWorkGroups = true; // so that the rounding of the last group is what is checked
        const NDRange range{sizes(global), sizes(local), sizes(offset)};
        QCOMPARE(errorOf([&] { resolveNDRange(range, limits); }), expected);
    }

    void bufferSizes_data()
    {
        QTest::addColumn<QList<qulonglong>>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fits") << QList<qulonglong>{1000, 1000} << "no error";
        QTest::newRow("exactly the largest allocation") << QList<qulonglong>{1 << 20} << "no error";
        QTest::newRow("one too large")
            << QList<qulonglong>{10, (1 << 20) + 1}
            << "buffer b1 of 1048577 bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (1048576)";
        QTest::newRow("all together too large")
            << QList<qulonglong>{1 << 20, 1 << 20, 1 << 20, 1 << 20, 1}
            << "the buffers take 4194305 bytes together, more than CL_DEVICE_GLOBAL_MEM_SIZE (4194304)";
    }

    void bufferSizes()
    {
        QFETCH(QList<qulonglong>, bytes);
        QFETCH(QString, expected);
        LaunchLimits limits = fakeLimits();
        limits.maxMemAllocSize = 1 << 20;
        limits.globalMemSize = 4 << 20;
        std::vector<std::string> names;
        std::vector<std::uint64_t> sizes;
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            names.push_back("b" + std::to_string(i));
            sizes.push_back(bytes[i]);
        }
        QCOMPARE(errorOf([&] { checkBufferSizes(names, sizes, limits); }), expected);
        // A driver that reported no limits: nothing to check against.
        QCOMPARE(errorOf([&] { checkBufferSizes(names, sizes, LaunchLimits{}); }),
                 QStringLiteral("no error"));
    }

    void nonUniformOptions_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("none") << "" << false;
        QTest::newRow("CL2.0") << "-cl-std=CL2.0" << true;
        QTest::newRow("CL3.0 among others") << "-D X=1 -cl-std=CL3.0 -cl-kernel-arg-info" << true;
        QTest::newRow("CL1.2") << "-cl-std=CL1.2" << false;
        QTest::newRow("uniform asked for") << "-cl-std=CL2.0 -cl-uniform-work-group-size" << false;
        QTest::newRow("C++ for OpenCL (conservative)") << "-cl-std=CLC++" << false;
        QTest::newRow("malformed options") << "-cl-std=CL2.0 \"unterminated" << false;
    }

    void nonUniformOptions()
    {
        QFETCH(QString, options);
        QFETCH(bool, allowed);
        QCOMPARE(optionsAllowNonUniform(options.toStdString()), allowed);
    }
};

QTEST_GUILESS_MAIN(TestNDRange)
#include "tst_ndrange.moc"
