// Buffer initialisers without a device: zeros, fill patterns, iota, reproducible random values, raw and
// .npy files.
#include "argtest.h"
#include "testhelpers.h"

#include "clscope/kernelargs.h"

#include <QTest>

#include <set>

using namespace clscope;
using namespace argtest;
using testhelpers::components;

namespace {

std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/run/") + name;
}

BoundArg bufferArg(const QString &type, std::size_t count, const QString &init)
{
    BoundArg b;
    b.name.push_back('a'); // not = "a": GCC 12 warns falsely (-Wrestrict) about that assignment
    b.kind = ArgKind::Buffer;
    b.type = *parseElementType(type.toStdString());
    b.count = count;
    b.init = parseBufferInit(init.toStdString(), "a");
    return b;
}

BufferData contentsOf(const BoundArg &arg)
{
    return {arg.name, arg.type, arg.count, initialContents(arg)};
}

} // namespace

class TestArgBuffers : public QObject
{
    Q_OBJECT

private slots:
    // ---- Initialisers -----------------------------------------------------------------------------

    void initialisers_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("init");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zeros") << "float" << 4 << "zeros"
                               << "0 0 0 0";
        QTest::newRow("fill") << "float" << 4 << "fill=2.5"
                              << "2.5 2.5 2.5 2.5";
        QTest::newRow("fill negative int") << "short" << 3 << "fill=-7"
                                           << "-7 -7 -7";
        QTest::newRow("fill vector element") << "int4" << 2 << "fill=1,2,3,4"
                                             << "1 2 3 4 1 2 3 4";
        QTest::newRow("fill broadcast") << "int3" << 2 << "fill=7"
                                        << "7 7 7 7 7 7";
        QTest::newRow("fill half") << "half" << 2 << "fill=0.5"
                                   << "0.5 0.5";
        QTest::newRow("fill raw bytes") << "bytes3" << 2 << "fill=255"
                                        << "255 255 255 255 255 255";
        QTest::newRow("iota") << "float" << 5 << "iota"
                              << "0 1 2 3 4";
        QTest::newRow("iota start step") << "float" << 4 << "iota=1:0.5"
                                         << "1 1.5 2 2.5";
        QTest::newRow("iota negative start") << "int" << 4 << "iota=-2"
                                             << "-2 -1 0 1";
        QTest::newRow("iota down unsigned") << "uint" << 3 << "iota=10:-3"
                                            << "10 7 4";
        QTest::newRow("iota wraps like the kernel") << "uchar" << 4 << "iota=254"
                                                    << "254 255 0 1";
        QTest::newRow("iota over vector components") << "float2" << 2 << "iota"
                                                     << "0 1 2 3";
        QTest::newRow("iota over 3-vectors") << "int3" << 2 << "iota"
                                             << "0 1 2 3 4 5";
        QTest::newRow("iota ulong top") << "ulong" << 2 << "iota=18446744073709551614"
                                        << "18446744073709551614 18446744073709551615";
        QTest::newRow("iota long exact") << "long" << 2 << "iota=9007199254740993:2"
                                         << "9007199254740993 9007199254740995";
        QTest::newRow("iota half") << "half" << 3 << "iota=0.5:0.25"
                                   << "0.5 0.75 1";
        QTest::newRow("iota double") << "double" << 3 << "iota=0:0.25"
                                     << "0 0.25 0.5";
        QTest::newRow("iota hex") << "uint" << 2 << "iota=0x10:0x10"
                                  << "16 32";
        QTest::newRow("iota raw") << "bytes4" << 1 << "iota"
                                  << "0 1 2 3";
    }

    void initialisers()
    {
        QFETCH(QString, type);
        QFETCH(int, count);
        QFETCH(QString, init);
        QFETCH(QString, expected);
        const BoundArg arg = bufferArg(type, std::size_t(count), init);
        const BufferData data = contentsOf(arg);
        QCOMPARE(data.bytes.size(), arg.bufferBytes());
        QCOMPARE(components(data), expected);
    }

    void threeVectorPaddingStaysZero()
    {
        const BufferData data = contentsOf(bufferArg(QStringLiteral("int3"), 2, QStringLiteral("fill=-1")));
        QCOMPARE(hex(data.bytes),
                 QStringLiteral("ffffffffffffffffffffffff00000000ffffffffffffffffffffffff00000000"));
    }

    void fillPatterns()
    {
        QCOMPARE(hex(*fillPattern(bufferArg(QStringLiteral("float"), 4, QStringLiteral("fill=2")))),
                 QStringLiteral("00000040"));
        QCOMPARE(hex(*fillPattern(bufferArg(QStringLiteral("float3"), 4, QStringLiteral("zeros")))),
                 QStringLiteral("00000000000000000000000000000000"));
        QVERIFY(!fillPattern(
            bufferArg(QStringLiteral("bytes12"), 4, QStringLiteral("zeros")))); // not a power of 2
        QVERIFY(!fillPattern(bufferArg(QStringLiteral("float"), 4, QStringLiteral("iota"))));
    }

    void randomIsReproducible_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("init");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<bool>("highIncluded");
        QTest::newRow("float default") << "float"
                                       << "random" << 0.0 << 1.0 << false;
        QTest::newRow("float range") << "float"
                                     << "random=1:2:4" << 2.0 << 4.0 << false;
        QTest::newRow("double range") << "double"
                                      << "random=9:-1:1" << -1.0 << 1.0 << false;
        QTest::newRow("half default") << "half"
                                      << "random=5" << 0.0 << 1.0 << true; // rounding may reach 1
        QTest::newRow("int default") << "int"
                                     << "random=2" << 0.0 << 99.0 << true;
        QTest::newRow("int range") << "int"
                                   << "random=5:-3:3" << -3.0 << 3.0 << true;
        QTest::newRow("uchar full") << "uchar"
                                    << "random=1:0:255" << 0.0 << 255.0 << true;
        QTest::newRow("char full") << "char"
                                   << "random=1:-128:127" << -128.0 << 127.0 << true;
        QTest::newRow("uint4 range") << "uint4"
                                     << "random=8:10:12" << 10.0 << 12.0 << true;
        QTest::newRow("raw bytes") << "bytes4"
                                   << "random=3" << 0.0 << 255.0 << true;
        // -0 as a bound of an unsigned range threw std::bad_variant_access (found by fuzz_argspec).
        QTest::newRow("uint range from -0") << "uint"
                                            << "random=4:-0:9" << 0.0 << 9.0 << true;
        QTest::newRow("raw bytes range from -0") << "bytes8"
                                                 << "random=7:-0:5" << 0.0 << 5.0 << true;
    }

    void randomIsReproducible()
    {
        QFETCH(QString, type);
        QFETCH(QString, init);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(bool, highIncluded);
        const BoundArg arg = bufferArg(type, 4096, init);
        const BufferData first = contentsOf(arg);
        QCOMPARE(contentsOf(arg).bytes, first.bytes); // the same seed gives the same contents
        BoundArg other = arg;
        other.init.seed += 1;
        QVERIFY(contentsOf(other).bytes != first.bytes);
        double seenLow = high, seenHigh = low;
        for (double v : first.toDoubles()) {
            QVERIFY2(v >= low && (highIncluded ? v <= high : v < high), qPrintable(QString::number(v)));
            seenLow = std::min(seenLow, v);
            seenHigh = std::max(seenHigh, v);
        }
        // Uniform: 4096 draws come close to both ends of the range.
        const double span = high - low;
        QVERIFY2(seenLow - low < span * 0.02 && high - seenHigh < span * 0.02,
                 qPrintable(QStringLiteral("%1..%2").arg(seenLow).arg(seenHigh)));
    }

    void randomFullULongRange()
    {
        const BufferData data = contentsOf(
            bufferArg(QStringLiteral("ulong"), 64, QStringLiteral("random=1:0:18446744073709551615")));
        std::set<std::uint64_t> values;
        for (const Number &n : data.numbers())
            values.insert(std::get<std::uint64_t>(n));
        QVERIFY(values.size() > 60);
        QVERIFY(*values.rbegin() > (std::uint64_t(1) << 62)); // the upper half of the range is reached
    }

    // ---- Files ------------------------------------------------------------------------------------

    void files_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected"); // components, or the error message after "a: PATH"
        QTest::newRow("raw bytes as uchar") << "uchar" << 16 << "bytes16.bin"
                                            << "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
        QTest::newRow("raw bytes as int") << "int" << 4 << "bytes16.bin"
                                          << "50462976 117835012 185207048 252579084";
        QTest::newRow("raw size differs") << "float" << 8 << "bytes16.bin"
                                          << "ERROR: file 'PATH' has 16 bytes, the buffer needs 32 (8 float)";
        QTest::newRow("npy float") << "float" << 8 << "iota_f4.npy"
                                   << "0 1 2 3 4 5 6 7";
        QTest::newRow("npy 2D into float4") << "float4" << 2 << "mat_f4.npy"
                                            << "0 1 2 3 4 5 6 7";
        QTest::newRow("npy (4, 3) into float3") << "float3" << 4 << "vec3_f4.npy"
                                                << "0 1 2 3 4 5 6 7 8 9 10 11";
        QTest::newRow("npy long exact") << "long" << 4 << "long_i8.npy"
                                        << "-9223372036854775808 9223372036854775807 9007199254740993 -1";
        QTest::newRow("npy double") << "double" << 8 << "double_f8.npy"
                                    << "0 0.5 1 1.5 2 2.5 3 3.5";
        QTest::newRow("npy as raw bytes")
            << "bytes4" << 8 << "iota_f4.npy"
            << "0 0 0 0 0 0 128 63 0 0 0 64 0 0 64 64 0 0 128 64 0 0 160 64 0 0 192 64 0 0 "
               "224 64";
        QTest::newRow("npy count differs")
            << "float" << 4 << "iota_f4.npy"
            << "ERROR: PATH: shape (8,) holds 8 values, the buffer needs 4 (4 float)";
        QTest::newRow("npy vector count differs")
            << "float4" << 1 << "mat_f4.npy"
            << "ERROR: PATH: shape (2, 4) holds 8 values, the buffer needs 4 (1 float4)";
        QTest::newRow("npy dtype differs") << "double" << 8 << "iota_f4.npy"
                                           << "ERROR: PATH: dtype <f4 does not match double (<f8)";
        QTest::newRow("npy int vs float") << "int" << 8 << "iota_f4.npy"
                                          << "ERROR: PATH: dtype <f4 does not match int (<i4)";
        QTest::newRow("npy Fortran order")
            << "float" << 8 << "fortran_f4.npy"
            << "ERROR: PATH: Fortran-order arrays are not supported (save a C-order copy: "
               "np.ascontiguousarray)";
        QTest::newRow("npy big-endian") << "float" << 8 << "bigendian_f4.npy"
                                        << "ERROR: PATH: big-endian dtype '>f4' is not supported";
    }

    void files()
    {
        QFETCH(QString, type);
        QFETCH(int, count);
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const std::string path = dataPath(file.toLatin1().constData());
        const BoundArg arg = bufferArg(type, std::size_t(count), QStringLiteral("file=") + qs(path));
        if (expected.startsWith(QLatin1String("ERROR: "))) {
            QCOMPARE(errorOf([&] { initialContents(arg); }),
                     QStringLiteral("a: ") + expected.mid(7).replace(QStringLiteral("PATH"), qs(path)));
            return;
        }
        const BufferData data = contentsOf(arg);
        QCOMPARE(data.bytes.size(), arg.bufferBytes());
        QCOMPARE(components(data), expected);
    }
};

QTEST_GUILESS_MAIN(TestArgBuffers)
#include "tst_argbuffers.moc"
