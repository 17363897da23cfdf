// The argument model without a device: element types, values of every type with their ranges (hex,
// hex-float, vectors, 3-vectors), half conversions, --arg specs, binding to a kernel's signature, and the
// buffer initialisers (zeros, fill, iota, random, raw and .npy files).
#include "clscope/kernelargs.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

using namespace clscope;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString hex(const std::vector<unsigned char> &bytes)
{
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(bytes.data()), qsizetype(bytes.size())).toHex());
}

std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/run/") + name;
}

// The message of the RunInputError that f throws, or "no error".
template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const RunInputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

// A kernel whose arguments come from its source, as when the driver has no arg info.
KernelInfo kernelFrom(const char *source, const char *name)
{
    for (const KernelSignature &s : parseKernelSignatures(source)) {
        if (s.name == name)
            return {s.name, s.args, ArgInfoSource::Source, {}};
    }
    return {};
}

const char *kKernels = R"(
typedef struct { float x; int y; } Pair;
kernel void k(global const float *a, global float *b, local float *scratch, const uint n, float3 v,
              global Pair *pairs, global void *raw, global uchar *bytes) {}
kernel void withImage(read_only image2d_t img, global int *o) {}
kernel void withSampler(global int *o, sampler_t s) {}
kernel void withPipe(read_only pipe int p) {}
)";

std::vector<ArgValue> specs(const QString &text)
{
    std::vector<ArgValue> out;
    for (const QString &s : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(parseArgSpec(s.toStdString()));
    return out;
}

// "name kind type detail" per bound argument, "; " between.
QString describe(const std::vector<BoundArg> &bound)
{
    QStringList parts;
    for (const BoundArg &b : bound) {
        QString p = qs(b.name) + u' ' + qs(std::string(argKindName(b.kind)));
        if (b.kind == ArgKind::Value)
            p += u' ' + qs(b.type.name()) + u' ' + hex(b.value);
        else if (b.kind == ArgKind::Buffer)
            p += u' ' + qs(b.type.name()) + u' ' + QString::number(b.count) + u' ' + qs(toString(b.init));
        else
            p += u' ' + QString::number(b.localBytes);
        parts << p;
    }
    return parts.join(QStringLiteral("; "));
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

QString components(const BufferData &data)
{
    QStringList out;
    const ScalarKind kind = data.type.isRaw() ? ScalarKind::UChar : data.type.scalar;
    for (const Number &n : data.numbers())
        out << qs(formatNumber(n, kind));
    return out.join(u' ');
}

BufferData contentsOf(const BoundArg &arg)
{
    return {arg.name, arg.type, arg.count, initialContents(arg)};
}

} // namespace

class TestArgParse : public QObject
{
    Q_OBJECT

private slots:
    // ---- Types ------------------------------------------------------------------------------------

    void elementTypes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name"); // "" when invalid
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("width");
        QTest::newRow("char") << "char"
                              << "char" << 1 << 1;
        QTest::newRow("uchar16") << "uchar16"
                                 << "uchar16" << 16 << 16;
        QTest::newRow("short2") << "short2"
                                << "short2" << 4 << 2;
        QTest::newRow("ushort8") << "ushort8"
                                 << "ushort8" << 16 << 8;
        QTest::newRow("int") << "int"
                             << "int" << 4 << 1;
        QTest::newRow("uint4") << "uint4"
                               << "uint4" << 16 << 4;
        QTest::newRow("long16") << "long16"
                                << "long16" << 128 << 16;
        QTest::newRow("ulong") << "ulong"
                               << "ulong" << 8 << 1;
        QTest::newRow("half4") << "half4"
                               << "half4" << 8 << 4;
        QTest::newRow("float3 is stored as 4") << "float3"
                                               << "float3" << 16 << 3;
        QTest::newRow("double3 is stored as 4") << "double3"
                                                << "double3" << 32 << 3;
        QTest::newRow("char3") << "char3"
                               << "char3" << 4 << 3;
        QTest::newRow("unsigned int") << "unsigned int"
                                      << "uint" << 4 << 1;
        QTest::newRow("unsigned char") << "unsigned char"
                                       << "uchar" << 1 << 1;
        QTest::newRow("signed char") << "signed char"
                                     << "char" << 1 << 1;
        QTest::newRow("spaces") << " float "
                                << "float" << 4 << 1;
        QTest::newRow("bytes12") << "bytes12"
                                 << "bytes12" << 12 << 12;
        QTest::newRow("cfloat_t") << "cfloat_t"
                                  << "cfloat_t" << 8 << 2;
        QTest::newRow("cdouble_t") << "cdouble_t"
                                   << "cdouble_t" << 16 << 2;
        QTest::newRow("cfloat") << "cfloat"
                                << "" << 0 << 0;
        QTest::newRow("float5") << "float5"
                                << "" << 0 << 0;
        QTest::newRow("float1") << "float1"
                                << "" << 0 << 0;
        QTest::newRow("float04") << "float04"
                                 << "" << 0 << 0;
        QTest::newRow("int32") << "int32"
                               << "" << 0 << 0;
        QTest::newRow("struct") << "Pair"
                                << "" << 0 << 0;
        QTest::newRow("size_t") << "size_t"
                                << "" << 0 << 0;
        QTest::newRow("bytes0") << "bytes0"
                                << "" << 0 << 0;
        QTest::newRow("bytes") << "bytes"
                               << "" << 0 << 0;
        QTest::newRow("image") << "image2d_t"
                               << "" << 0 << 0;
        QTest::newRow("empty") << ""
                               << "" << 0 << 0;
    }

    void elementTypes()
    {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(int, size);
        QFETCH(int, width);
        const auto type = parseElementType(text.toStdString());
        QCOMPARE(type.has_value(), !name.isEmpty());
        if (!type)
            return;
        QCOMPARE(qs(type->name()), name);
        QCOMPARE(int(type->size()), size);
        QCOMPARE(type->width, width);
        QVERIFY(parseElementType(type->name()) == type); // names read back
    }

    // ---- Values -----------------------------------------------------------------------------------

    void values_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("bytes"); // little-endian hex
        QTest::newRow("char min") << "char"
                                  << "-128"
                                  << "80";
        QTest::newRow("char max") << "char"
                                  << "127"
                                  << "7f";
        QTest::newRow("char hex") << "char"
                                  << "0x7f"
                                  << "7f";
        QTest::newRow("char negative hex") << "char"
                                           << "-0x80"
                                           << "80";
        QTest::newRow("uchar max") << "uchar"
                                   << "255"
                                   << "ff";
        QTest::newRow("uchar hex upper") << "uchar"
                                         << "0XFF"
                                         << "ff";
        QTest::newRow("uchar plus") << "uchar"
                                    << "+7"
                                    << "07";
        QTest::newRow("uchar minus zero") << "uchar"
                                          << "-0"
                                          << "00";
        QTest::newRow("short min") << "short"
                                   << "-32768"
                                   << "0080";
        QTest::newRow("ushort max") << "ushort"
                                    << "65535"
                                    << "ffff";
        QTest::newRow("int min") << "int"
                                 << "-2147483648"
                                 << "00000080";
        QTest::newRow("int max") << "int"
                                 << "2147483647"
                                 << "ffffff7f";
        QTest::newRow("int -1") << "int"
                                << "-1"
                                << "ffffffff";
        QTest::newRow("uint max") << "uint"
                                  << "4294967295"
                                  << "ffffffff";
        QTest::newRow("uint hex") << "uint"
                                  << "0x10"
                                  << "10000000";
        QTest::newRow("uint leading zeros are decimal") << "uint"
                                                        << "010"
                                                        << "0a000000";
        QTest::newRow("long min") << "long"
                                  << "-9223372036854775808"
                                  << "0000000000000080";
        QTest::newRow("long max") << "long"
                                  << "9223372036854775807"
                                  << "ffffffffffffff7f";
        QTest::newRow("long 2^53+1") << "long"
                                     << "9007199254740993"
                                     << "0100000000002000";
        QTest::newRow("ulong max") << "ulong"
                                   << "18446744073709551615"
                                   << "ffffffffffffffff";
        QTest::newRow("ulong hex max") << "ulong"
                                       << "0xffffffffffffffff"
                                       << "ffffffffffffffff";
        QTest::newRow("float") << "float"
                               << "1.5"
                               << "0000c03f";
        QTest::newRow("float hex-float") << "float"
                                         << "0x1.8p1"
                                         << "00004040";
        QTest::newRow("float negative hex-float") << "float"
                                                  << "-0x1p-1"
                                                  << "000000bf";
        QTest::newRow("float hex-float without integer part") << "float"
                                                              << "0x.8p1"
                                                              << "0000803f";
        QTest::newRow("float integer") << "float"
                                       << "+2"
                                       << "00000040";
        QTest::newRow("float exponent") << "float"
                                        << "1e3"
                                        << "00007a44";
        QTest::newRow("float -inf") << "float"
                                    << "-inf"
                                    << "000080ff";
        QTest::newRow("float underflow") << "float"
                                         << "1e-50"
                                         << "00000000";
        QTest::newRow("float max") << "float"
                                   << "3.4028235e38"
                                   << "ffff7f7f";
        QTest::newRow("double") << "double"
                                << "0.1"
                                << "9a9999999999b93f";
        QTest::newRow("double smallest") << "double"
                                         << "0x1p-1074"
                                         << "0100000000000000";
        QTest::newRow("double underflow") << "double"
                                          << "1e-400"
                                          << "0000000000000000";
        QTest::newRow("half one") << "half"
                                  << "1"
                                  << "003c";
        QTest::newRow("half max") << "half"
                                  << "65504"
                                  << "ff7b";
        QTest::newRow("half -2") << "half"
                                 << "-2"
                                 << "00c0";
        QTest::newRow("half subnormal") << "half"
                                        << "0x1p-24"
                                        << "0100";
        QTest::newRow("half 0.1") << "half"
                                  << "0.1"
                                  << "662e";
        QTest::newRow("int2") << "int2"
                              << "1,-1"
                              << "01000000ffffffff";
        QTest::newRow("int2 spaces") << "int2"
                                     << " 1 , 2 "
                                     << "0100000002000000";
        QTest::newRow("int3 takes 3, stores 4") << "int3"
                                                << "1,2,3"
                                                << "01000000020000000300000000000000";
        QTest::newRow("float4") << "float4"
                                << "1,2,3,4"
                                << "0000803f000000400000404000008040";
        QTest::newRow("uchar8") << "uchar8"
                                << "0,1,2,3,4,5,6,0xff"
                                << "00010203040506ff";
        QTest::newRow("uchar16") << "uchar16"
                                 << "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
                                 << "000102030405060708090a0b0c0d0e0f";
        QTest::newRow("short3") << "short3"
                                << "-1,0,1"
                                << "ffff000001000000";
        QTest::newRow("double2") << "double2"
                                 << "1,-2"
                                 << "000000000000f03f00000000000000c0";
        QTest::newRow("bytes4") << "bytes4"
                                << "0a0b0c0d"
                                << "0a0b0c0d";
        QTest::newRow("bytes2 with 0x") << "bytes2"
                                        << "0xffEE"
                                        << "ffee";
        // pyopencl-complex.h's cfloat_t and cdouble_t: real part, then imaginary part.
        QTest::newRow("cfloat_t literal") << "cfloat_t"
                                          << "1+2j"
                                          << "0000803f00000040";
        QTest::newRow("cfloat_t RE,IM") << "cfloat_t"
                                        << "1,2"
                                        << "0000803f00000040";
        QTest::newRow("cfloat_t in parentheses") << "cfloat_t"
                                                 << "(1-2J)"
                                                 << "0000803f000000c0";
        QTest::newRow("cfloat_t imaginary") << "cfloat_t"
                                            << "-0.5j"
                                            << "00000000000000bf";
        QTest::newRow("cfloat_t real") << "cfloat_t"
                                       << "3"
                                       << "0000404000000000";
        QTest::newRow("cfloat_t exponents") << "cfloat_t"
                                            << "1e1-1e-1j"
                                            << "00002041cdccccbd";
        QTest::newRow("cdouble_t") << "cdouble_t"
                                   << "1+2j"
                                   << "000000000000f03f0000000000000040";
    }

    void values()
    {
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, bytes);
        const auto t = parseElementType(type.toStdString());
        QVERIFY(t);
        QCOMPARE(hex(parseValue(text.toStdString(), *t, "n")), bytes);
    }

    void badValues_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("uchar 300") << "uchar"
                                   << "300"
                                   << "n: 300 is out of range for uchar (0..255)";
        QTest::newRow("uchar -1") << "uchar"
                                  << "-1"
                                  << "n: -1 is out of range for uchar (0..255)";
        QTest::newRow("char 128") << "char"
                                  << "128"
                                  << "n: 128 is out of range for char (-128..127)";
        QTest::newRow("char -129") << "char"
                                   << "-129"
                                   << "n: -129 is out of range for char (-128..127)";
        QTest::newRow("char hex 0x80") << "char"
                                       << "0x80"
                                       << "n: 0x80 is out of range for char (-128..127)";
        QTest::newRow("short") << "short"
                               << "40000"
                               << "n: 40000 is out of range for short (-32768..32767)";
        QTest::newRow("ushort") << "ushort"
                                << "65536"
                                << "n: 65536 is out of range for ushort (0..65535)";
        QTest::newRow("int") << "int"
                             << "2147483648"
                             << "n: 2147483648 is out of range for int (-2147483648..2147483647)";
        QTest::newRow("uint -1") << "uint"
                                 << "-1"
                                 << "n: -1 is out of range for uint (0..4294967295)";
        QTest::newRow("uint 2^32") << "uint"
                                   << "4294967296"
                                   << "n: 4294967296 is out of range for uint (0..4294967295)";
        QTest::newRow("long") << "long"
                              << "9223372036854775808"
                              << "n: 9223372036854775808 is out of range for long "
                                 "(-9223372036854775808..9223372036854775807)";
        QTest::newRow("long -2^63-1") << "long"
                                      << "-9223372036854775809"
                                      << "n: -9223372036854775809 is out of range for long "
                                         "(-9223372036854775808..9223372036854775807)";
        QTest::newRow("ulong 2^64")
            << "ulong"
            << "18446744073709551616"
            << "n: 18446744073709551616 is out of range for ulong (0..18446744073709551615)";
        QTest::newRow("ulong hex 17 digits") << "ulong"
                                             << "0x10000000000000000"
                                             << "n: 0x10000000000000000 is out of range for ulong "
                                                "(0..18446744073709551615)";
        QTest::newRow("int 1.5") << "int"
                                 << "1.5"
                                 << "n: 1.5 is not an integer (int)";
        QTest::newRow("int 1e3") << "int"
                                 << "1e3"
                                 << "n: 1e3 is not an integer (int)";
        QTest::newRow("int hex-float") << "int"
                                       << "0x1p3"
                                       << "n: 0x1p3 is not an integer (int)";
        QTest::newRow("int abc") << "int"
                                 << "abc"
                                 << "n: 'abc' is not a valid int";
        QTest::newRow("int empty") << "int"
                                   << ""
                                   << "n: empty value for int";
        QTest::newRow("int 0x") << "int"
                                << "0x"
                                << "n: '0x' is not a valid int";
        QTest::newRow("int 0xg1") << "int"
                                  << "0xg1"
                                  << "n: '0xg1' is not a valid int";
        QTest::newRow("int --1") << "int"
                                 << "--1"
                                 << "n: '--1' is not a valid int";
        QTest::newRow("int 1 2") << "int"
                                 << "1 2"
                                 << "n: '1 2' is not a valid int";
        QTest::newRow("float 1e39") << "float"
                                    << "1e39"
                                    << "n: 1e39 is out of range for float (largest 3.4028235e+38)";
        QTest::newRow("float -1e39") << "float"
                                     << "-1e39"
                                     << "n: -1e39 is out of range for float (largest 3.4028235e+38)";
        QTest::newRow("double 1e400") << "double"
                                      << "1e400"
                                      << "n: 1e400 is out of range for double";
        QTest::newRow("half 70000") << "half"
                                    << "70000"
                                    << "n: 70000 is out of range for half (largest 65504)";
        QTest::newRow("float x1") << "float"
                                  << "x1"
                                  << "n: 'x1' is not a valid float";
        QTest::newRow("float suffix") << "float"
                                      << "1.5f"
                                      << "n: '1.5f' is not a valid float";
        QTest::newRow("float two signs") << "float"
                                         << "+-1"
                                         << "n: '+-1' is not a valid float";
        // from_chars took a sign, inf or nan after the stripped 0x (found by fuzz_argspec).
        QTest::newRow("double sign after 0x") << "double"
                                              << "0x-1"
                                              << "n: '0x-1' is not a valid double";
        QTest::newRow("double two signs around 0x") << "double"
                                                    << "-0x-1.8p1"
                                                    << "n: '-0x-1.8p1' is not a valid double";
        QTest::newRow("float 0xinf") << "float"
                                     << "0xinf"
                                     << "n: '0xinf' is not a valid float";
        QTest::newRow("half 0xnan") << "half"
                                    << "0xnan"
                                    << "n: '0xnan' is not a valid half";
        QTest::newRow("int 0xinf") << "int"
                                   << "0xinf"
                                   << "n: '0xinf' is not a valid int";
        QTest::newRow("float4 with 3") << "float4"
                                       << "1,2,3"
                                       << "n: float4 needs 4 values, got 3 ('1,2,3')";
        QTest::newRow("float3 with 4") << "float3"
                                       << "1,2,3,4"
                                       << "n: float3 needs 3 values, got 4 ('1,2,3,4')";
        QTest::newRow("float3 with 1") << "float3"
                                       << "1"
                                       << "n: float3 needs 3 values, got 1 ('1')";
        QTest::newRow("int2 empty middle") << "int2"
                                           << "1,,2"
                                           << "n: int2 needs 2 values, got 3 ('1,,2')";
        QTest::newRow("int2 empty last") << "int2"
                                         << "1,"
                                         << "n: empty value for int";
        QTest::newRow("uchar4 range") << "uchar4"
                                      << "1,2,3,256"
                                      << "n: 256 is out of range for uchar (0..255)";
        QTest::newRow("float with 2") << "float"
                                      << "1,2"
                                      << "n: float needs 1 value, got 2 ('1,2')";
        QTest::newRow("bytes4 short") << "bytes4"
                                      << "0a0b"
                                      << "n: bytes4 needs 8 hex digits, got 4";
        QTest::newRow("bytes2 not hex") << "bytes2"
                                        << "zz00"
                                        << "n: 'zz00' is not hex bytes for bytes2";
        QTest::newRow("cfloat_t with 3")
            << "cfloat_t"
            << "1,2,3"
            << "n: cfloat_t needs 2 values (RE,IM) or a complex literal like 1+2j, "
               "got '1,2,3'";
        QTest::newRow("cfloat_t not a number") << "cfloat_t"
                                               << "x+2j"
                                               << "n: 'x' is not a valid float";
        QTest::newRow("cfloat_t range") << "cfloat_t"
                                        << "1e39j"
                                        << "n: 1e39 is out of range for float (largest 3.4028235e+38)";
    }

    void badValues()
    {
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto t = parseElementType(type.toStdString());
        QVERIFY(t);
        QCOMPARE(errorOf([&] { parseValue(text.toStdString(), *t, "n"); }), message);
        try {
            parseValue(text.toStdString(), *t, "n");
        } catch (const RunInputError &e) {
            QCOMPARE(e.argument(), std::string("n"));
        }
    }

    void numbersKeep64Bits()
    {
        QCOMPARE(std::get<std::uint64_t>(parseNumber("18446744073709551615", ScalarKind::ULong, "n")),
                 std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(std::get<std::int64_t>(parseNumber("-9223372036854775808", ScalarKind::Long, "n")),
                 std::numeric_limits<std::int64_t>::min());
        // -0 keeps the variant of its kind: unsigned for unsigned kinds and bytes, signed for signed ones.
        QCOMPARE(std::get<std::uint64_t>(parseNumber("-0", ScalarKind::UInt, "n")), std::uint64_t(0));
        QCOMPARE(std::get<std::uint64_t>(parseNumber("-0x0", ScalarKind::Bytes, "n")), std::uint64_t(0));
        QCOMPARE(std::get<std::int64_t>(parseNumber("-0", ScalarKind::Int, "n")), std::int64_t(0));
        QCOMPARE(formatNumber(std::uint64_t(18446744073709551615ull), ScalarKind::ULong),
                 std::string("18446744073709551615"));
        QCOMPARE(formatNumber(0.1, ScalarKind::Float), std::string("0.1")); // shortest as float
        QCOMPARE(formatNumber(double(0.1f), ScalarKind::Double), std::string("0.10000000149011612"));
        unsigned char bytes[8];
        encodeNumber(std::int64_t(-2), ScalarKind::Short, bytes, "n");
        QCOMPARE(std::get<std::int64_t>(decodeNumber(ScalarKind::Short, bytes)), std::int64_t(-2));
        QCOMPARE(errorOf([&] { encodeNumber(1.5, ScalarKind::Int, bytes, "n"); }),
                 QStringLiteral("n: 1.5 is out of range for int (-2147483648..2147483647)"));
    }

    // ---- Half -------------------------------------------------------------------------------------

    void half_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("bits");
        QTest::newRow("one") << 1.0f << 0x3c00;
        QTest::newRow("minus zero") << -0.0f << 0x8000;
        QTest::newRow("max") << 65504.0f << 0x7bff;
        QTest::newRow("below rounding to inf") << 65519.99f << 0x7bff;
        QTest::newRow("rounds to inf") << 65520.0f << 0x7c00;
        QTest::newRow("inf") << std::numeric_limits<float>::infinity() << 0x7c00;
        QTest::newRow("smallest normal") << std::ldexp(1.0f, -14) << 0x0400;
        QTest::newRow("smallest subnormal") << std::ldexp(1.0f, -24) << 0x0001;
        QTest::newRow("half of smallest: tie to even 0") << std::ldexp(1.0f, -25) << 0x0000;
        QTest::newRow("above half of smallest") << std::ldexp(1.5f, -25) << 0x0001;
        QTest::newRow("tie to even down") << 1.0f + std::ldexp(1.0f, -11) << 0x3c00;
        QTest::newRow("tie to even up") << 1.0f + 3 * std::ldexp(1.0f, -11) << 0x3c02;
        QTest::newRow("subnormal tie up") << std::ldexp(3.0f, -25) << 0x0002;
        QTest::newRow("carry into exponent") << 2047.9f << 0x6800;
    }

    void half()
    {
        QFETCH(float, value);
        QFETCH(int, bits);
        QCOMPARE(int(floatToHalf(value)), bits);
    }

    void halfRoundTripsEveryValue()
    {
        for (unsigned h = 0; h < 0x10000; ++h) {
            const float f = halfToFloat(std::uint16_t(h));
            if (std::isnan(f)) {
                QVERIFY(std::isnan(halfToFloat(floatToHalf(f))));
                continue;
            }
            QCOMPARE(unsigned(floatToHalf(f)), h);
        }
    }

    // ---- Specs ------------------------------------------------------------------------------------

    void argSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("scalar") << "n=uint:1024"
                                << "n=uint:1024";
        QTest::newRow("vector") << "v=float4:1,2,3,4"
                                << "v=float4:1,2,3,4";
        QTest::newRow("untyped") << "n=1024"
                                 << "n=1024";
        QTest::newRow("untyped hex-float") << "x=0x1.8p1"
                                           << "x=0x1.8p1";
        QTest::newRow("raw value") << "p=bytes8:0000803f07000000"
                                   << "p=bytes8:0000803f07000000";
        QTest::newRow("buffer iota") << "a=buffer:float:1024:iota"
                                     << "a=buffer:float:1024:iota";
        QTest::newRow("buffer default zeros") << "a=buffer:float:1024"
                                              << "a=buffer:float:1024:zeros";
        QTest::newRow("buffer untyped") << "a=buffer:1024:fill=2"
                                        << "a=buffer:1024:fill=2";
        QTest::newRow("buffer untyped no init") << "a=buffer:16"
                                                << "a=buffer:16:zeros";
        QTest::newRow("iota start") << "a=buffer:int:16:iota=-3"
                                    << "a=buffer:int:16:iota=-3";
        QTest::newRow("iota start step") << "a=buffer:float:16:iota=1:0.5"
                                         << "a=buffer:float:16:iota=1:0.5";
        QTest::newRow("random") << "a=buffer:float:16:random"
                                << "a=buffer:float:16:random";
        QTest::newRow("random seed") << "a=buffer:float:16:random=3"
                                     << "a=buffer:float:16:random=3";
        QTest::newRow("random range") << "a=buffer:int:16:random=7:-5:5"
                                      << "a=buffer:int:16:random=7:-5:5";
        QTest::newRow("vector fill") << "a=buffer:int4:2:fill=1,2,3,4"
                                     << "a=buffer:int4:2:fill=1,2,3,4";
        QTest::newRow("file with colon") << "a=buffer:float:16:file=/tmp/a:b.npy"
                                         << "a=buffer:float:16:file=/tmp/a:b.npy";
        QTest::newRow("copy") << "b=buffer:float:16:copy=a"
                              << "b=buffer:float:16:copy=a";
        QTest::newRow("local") << "s=local:4096"
                               << "s=local:4096";
        QTest::newRow("struct by value") << "p=struct:x=1,y=2.5,v=(1,2,3,4),inner={a=3}"
                                         << "p=struct:x=1,y=2.5,v=(1,2,3,4),inner={a=3}";
        QTest::newRow("struct of a named type") << "p=struct:par_str:alpha=1"
                                                << "p=struct:par_str:alpha=1";
        QTest::newRow("struct of a tagged type") << "p=struct:struct Tagged:{a=1}"
                                                 << "p=struct:struct Tagged:{a=1}";
        QTest::newRow("struct of zeros") << "p=struct:"
                                         << "p=struct:";
        QTest::newRow("buffer of structs") << "b=buffer:Particle:1024:fill={x=1,y=2}"
                                           << "b=buffer:Particle:1024:fill={x=1,y=2}";
        QTest::newRow("buffer of structs from a file") << "b=buffer:box_str:2:file=boxes.npy"
                                                       << "b=buffer:box_str:2:file=boxes.npy";
        QTest::newRow("buffer of complex numbers") << "z=buffer:cfloat_t:4:fill=1+2j"
                                                   << "z=buffer:cfloat_t:4:fill=1+2j";
    }

    void argSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, canonical);
        const ArgValue v = parseArgSpec(spec.toStdString());
        QCOMPARE(qs(toString(v)), canonical);
        QVERIFY(parseArgSpec(toString(v)) == v);
    }

    void badSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("no =") << "n"
                              << "argument 'n' needs the form NAME=VALUE";
        QTest::newRow("no name") << "=uint:5"
                                 << "argument '=uint:5' has no valid name before '='";
        QTest::newRow("bad name") << "1n=uint:5"
                                  << "argument '1n=uint:5' has no valid name before '='";
        QTest::newRow("no value") << "n="
                                  << "n: no value after '='";
        QTest::newRow("unknown type")
            << "n=uint32:5"
            << QStringLiteral("n: unknown type 'uint32' (types: ") + qs(elementTypeNames()) + u')';
        QTest::newRow("buffer alone") << "a=buffer"
                                      << "a: a buffer needs buffer:TYPE:COUNT[:INIT]";
        QTest::newRow("buffer without count") << "a=buffer:float"
                                              << "a: a buffer needs buffer:TYPE:COUNT[:INIT]";
        QTest::newRow("buffer count 0") << "a=buffer:float:0"
                                        << "a: buffer count must be at least 1";
        QTest::newRow("buffer count x") << "a=buffer:float:x"
                                        << "a: buffer count 'x' is not a whole number";
        QTest::newRow("buffer count negative") << "a=buffer:float:-4"
                                               << "a: buffer count '-4' is not a whole number";
        QTest::newRow("buffer bad type")
            << "a=buffer:fl-ot:16"
            << QStringLiteral("a: unknown type 'fl-ot' (types: ") + qs(elementTypeNames()) + u')';
        QTest::newRow("struct without fields") << "p=struct"
                                               << "p: a struct needs struct:FIELD=VALUE,... (fields by name)";
        QTest::newRow("struct syntax") << "p=struct:x=(1,2"
                                       << "p: expected ')' at ''";
        QTest::newRow("unknown init") << "a=buffer:float:16:ones"
                                      << "a: unknown initialiser 'ones' (zeros, fill=V, iota[=START[:STEP]], "
                                         "random[=SEED[:LO:HI]], file=PATH, copy=NAME)";
        QTest::newRow("fill without value") << "a=buffer:float:16:fill"
                                            << "a: initialiser fill needs a value (fill=V)";
        QTest::newRow("zeros with value") << "a=buffer:float:16:zeros=1"
                                          << "a: initialiser zeros takes no value";
        QTest::newRow("random bad seed") << "a=buffer:float:16:random=x"
                                         << "a: random seed 'x' is not a whole number";
        QTest::newRow("random half range")
            << "a=buffer:float:16:random=1:2"
            << "a: initialiser random takes random, random=SEED or random=SEED:LO:HI";
        QTest::newRow("iota empty") << "a=buffer:float:16:iota="
                                    << "a: initialiser iota takes iota, iota=START or iota=START:STEP";
        QTest::newRow("file without path") << "a=buffer:float:16:file="
                                           << "a: initialiser file needs a value (file=PATH)";
        QTest::newRow("copy without name") << "a=buffer:float:16:copy"
                                           << "a: initialiser copy needs a value (copy=NAME)";
        QTest::newRow("local alone") << "s=local"
                                     << "s: a local argument needs local:BYTES";
        QTest::newRow("local 0") << "s=local:0"
                                 << "s: local size must be at least 1";
        QTest::newRow("local negative") << "s=local:-4"
                                        << "s: local size '-4' is not a whole number";
    }

    void badSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        QCOMPARE(errorOf([&] { parseArgSpec(spec.toStdString()); }), message);
    }

    // ---- Binding ----------------------------------------------------------------------------------

    void kernelSlots()
    {
        const auto s = argSlots(kernelFrom(kKernels, "k"));
        QStringList got;
        for (const ArgSlot &slot : s)
            got << qs(slot.name) + u' ' + qs(std::string(argKindName(slot.kind))) + u' ' +
                       qs(slot.declaration()) + u' ' +
                       (slot.type ? qs(slot.type->name()) : QStringLiteral("?"));
        QCOMPARE(
            got.join(QStringLiteral("; ")),
            QStringLiteral(
                "a buffer __global const float* float; b buffer __global float* float; scratch local __local "
                "float* float; n value uint uint; v value float3 float3; pairs buffer __global Pair* ?; "
                "raw buffer __global void* ?; bytes buffer __global uchar* uchar"));
        QCOMPARE(qs(argSlots(kernelFrom(kKernels, "withImage")).front().unsupported),
                 QStringLiteral("image arguments (image2d_t) are not supported yet"));
    }

    void bind_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("specs");
        QTest::addColumn<QString>("expected");
        const QString rest = QStringLiteral(" pairs=buffer:bytes8:2 raw=buffer:uint:3:iota bytes=buffer:4");
        const QString restBound = QStringLiteral(
            "; pairs buffer bytes8 2 zeros; raw buffer uint 3 iota; bytes buffer uchar 4 zeros");
        QTest::newRow("typed")
            << "k"
            << QStringLiteral(
                   "a=buffer:float:4:iota b=buffer:float:4 scratch=local:64 n=uint:4 v=float3:1,2,3") +
                   rest
            << QStringLiteral(
                   "a buffer float 4 iota; b buffer float 4 zeros; scratch local 64; n value uint 04000000; "
                   "v value float3 0000803f000000400000404000000000") +
                   restBound;
        QTest::newRow("types from the kernel, any order")
            << "k"
            << QStringLiteral("v=1,2,3 n=0x10 scratch=local:8 b=buffer:4:fill=-1.5 a=buffer:4:random=3:1:2") +
                   rest
            << QStringLiteral(
                   "a buffer float 4 random=3:1:2; b buffer float 4 fill=-1.5; scratch local 8; n value "
                   "uint 10000000; v value float3 0000803f000000400000404000000000") +
                   restBound;
        QTest::newRow("copy")
            << "k"
            << QStringLiteral("a=buffer:float:4:iota b=buffer:float:4:copy=a scratch=local:4 n=1 v=0,0,0") +
                   rest
            << QStringLiteral("a buffer float 4 iota; b buffer float 4 copy=a; scratch local 4; n value uint "
                              "01000000; v value float3 00000000000000000000000000000000") +
                   restBound;
        QTest::newRow("raw buffer of a struct takes any type")
            << "k"
            << "a=buffer:float:1 b=buffer:float:1 scratch=local:4 n=1 v=0,0,0 pairs=buffer:int2:2 "
               "raw=buffer:bytes3:5:fill=7 bytes=buffer:uchar:2:iota=254"
            << "a buffer float 1 zeros; b buffer float 1 zeros; scratch local 4; n value uint 01000000; v "
               "value "
               "float3 00000000000000000000000000000000; pairs buffer int2 2 zeros; raw buffer bytes3 5 "
               "fill=7; "
               "bytes buffer uchar 2 iota=254";
    }

    void bind()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, specs);
        QFETCH(QString, expected);
        QCOMPARE(describe(bindArguments(kernelFrom(kKernels, kernel.toLatin1().constData()), ::specs(specs))),
                 expected);
    }

    void badBind_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("specs");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("argument");
        const QString ok = QStringLiteral(
            "a=buffer:float:4 b=buffer:float:4 scratch=local:4 n=1 v=1,2,3 pairs=buffer:bytes8:1 "
            "raw=buffer:uchar:1 bytes=buffer:1");
        auto replace = [&](const char *name, const char *spec) {
            QStringList out;
            for (const QString &s : ok.split(u' ')) {
                if (!s.startsWith(QLatin1String(name) + u'='))
                    out << s;
            }
            if (*spec)
                out << QString::fromLatin1(spec);
            return out.join(u' ');
        };
        QTest::newRow("unknown name")
            << "k" << ok + QStringLiteral(" x=int:1")
            << "kernel k has no argument 'x' (arguments: a, b, scratch, n, v, pairs, raw, bytes)"
            << "x";
        QTest::newRow("duplicate") << "k" << ok + QStringLiteral(" n=uint:2")
                                   << "n: the argument is given twice"
                                   << "n";
        QTest::newRow("missing") << "k" << replace("n", "")
                                 << "missing argument 'n' (uint) of kernel k: give n=uint:VALUE"
                                 << "n";
        QTest::newRow("missing buffer") << "k" << replace("b", "")
                                        << "missing argument 'b' (__global float*) of kernel k: give "
                                           "b=buffer:float:COUNT[:INIT]"
                                        << "b";
        QTest::newRow("scalar for a pointer")
            << "k" << replace("a", "a=float:1")
            << "a: a value was given for the __global const float* argument (use "
               "a=buffer:float:COUNT[:INIT])"
            << "a";
        QTest::newRow("buffer for a value")
            << "k" << replace("n", "n=buffer:uint:4")
            << "n: a buffer was given for the uint argument (use n=uint:VALUE)"
            << "n";
        QTest::newRow("local for a buffer")
            << "k" << replace("a", "a=local:16")
            << "a: a local size was given for the __global const float* argument (use "
               "a=buffer:float:COUNT[:INIT])"
            << "a";
        QTest::newRow("buffer for local")
            << "k" << replace("scratch", "scratch=buffer:float:4")
            << "scratch: a buffer was given for the __local float* argument (use "
               "scratch=local:BYTES)"
            << "scratch";
        QTest::newRow("buffer type") << "k" << replace("a", "a=buffer:int:4")
                                     << "a: a buffer of int was given for the __global const float* argument"
                                     << "a";
        QTest::newRow("value type") << "k" << replace("n", "n=int:4")
                                    << "n: int was given for the uint argument"
                                    << "n";
        QTest::newRow("value range") << "k" << replace("n", "n=4294967296")
                                     << "n: 4294967296 is out of range for uint (0..4294967295)"
                                     << "n";
        QTest::newRow("3-vector count")
            << "k" << replace("v", "v=1,2,3,4") << "v: float3 needs 3 values, got 4 ('1,2,3,4')"
            << "v";
        // A name that is not an element type may be a struct of the program: only its layouts tell, and
        // without them (binding with no device) it is an unknown type.
        QTest::newRow("buffer of an unknown type")
            << "k" << replace("a", "a=buffer:flot:16")
            << QStringLiteral("a: unknown type 'flot' (types: ") + qs(elementTypeNames()) +
                   QStringLiteral("; structs of the program need the device's layouts)")
            << "a";
        QTest::newRow("struct value for a number")
            << "k" << replace("n", "n=struct:x=1")
            << "n: a struct value was given for the uint argument (use "
               "n=uint:VALUE)"
            << "n";
        QTest::newRow("struct without a type") << "k" << replace("pairs", "pairs=buffer:2")
                                               << "pairs: the element type Pair* is not one CLScope knows; "
                                                  "give one (pairs=buffer:bytesN:COUNT for a "
                                                  "struct of N bytes)"
                                               << "pairs";
        QTest::newRow("fill range") << "k" << replace("bytes", "bytes=buffer:4:fill=300")
                                    << "bytes: 300 is out of range for uchar (0..255)"
                                    << "bytes";
        QTest::newRow("vector fill count") << "k" << replace("raw", "raw=buffer:int4:2:fill=1,2,3")
                                           << "raw: int4 needs 4 values, got 3 ('1,2,3')"
                                           << "raw";
        QTest::newRow("iota range") << "k" << replace("a", "a=buffer:float:4:iota=3e38:1e38")
                                    << "a: 6e+38 is out of range for float"
                                    << "a";
        QTest::newRow("iota step") << "k" << replace("a", "a=buffer:float:4:iota=0:x")
                                   << "a: 'x' is not a valid float"
                                   << "a";
        QTest::newRow("random range") << "k" << replace("a", "a=buffer:float:4:random=1:5:2")
                                      << "a: random range 5:2 is empty (LO must not exceed HI)"
                                      << "a";
        QTest::newRow("random value") << "k" << replace("bytes", "bytes=buffer:4:random=1:0:256")
                                      << "bytes: 256 is out of range for uchar (0..255)"
                                      << "bytes";
        QTest::newRow("file not found") << "k" << replace("a", "a=buffer:float:4:file=/nonexistent/x.npy")
                                        << "a: file '/nonexistent/x.npy' not found"
                                        << "a";
        QTest::newRow("file is a folder")
            << "k" << replace("a", "a=buffer:float:4:file=/") << "a: '/' is not a regular file"
            << "a";
        QTest::newRow("copy unknown")
            << "k" << replace("b", "b=buffer:float:4:copy=zz") << "b: copy=zz names no argument of the kernel"
            << "b";
        QTest::newRow("copy self") << "k" << replace("b", "b=buffer:float:4:copy=b")
                                   << "b: copy=b copies the buffer onto itself"
                                   << "b";
        QTest::newRow("copy a value")
            << "k" << replace("b", "b=buffer:float:4:copy=n") << "b: copy=n is not a buffer"
            << "b";
        QTest::newRow("copy size") << "k" << replace("b", "b=buffer:float:8:copy=a")
                                   << "b: copy=a has 16 bytes, this buffer 32"
                                   << "b";
        QTest::newRow("copy cycle") << "k"
                                    << replace("a", "a=buffer:float:4:copy=b")
                                           .replace(QStringLiteral("b=buffer:float:4"),
                                                    QStringLiteral("b=buffer:float:4:copy=a"))
                                    << "a: copy=b forms a cycle (a, b, a)"
                                    << "a";
        QTest::newRow("image") << "withImage"
                               << "o=buffer:int:1"
                               << "img: image arguments (image2d_t) are not supported yet"
                               << "img";
        QTest::newRow("image given") << "withImage"
                                     << "img=1 o=buffer:int:1"
                                     << "img: image arguments (image2d_t) are not supported yet"
                                     << "img";
        QTest::newRow("sampler") << "withSampler"
                                 << "o=buffer:int:1 s=1"
                                 << "s: sampler arguments are not supported yet"
                                 << "s";
        QTest::newRow("pipe") << "withPipe"
                              << ""
                              << "p: pipe arguments are not supported yet"
                              << "p";
    }

    void badBind()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, specs);
        QFETCH(QString, message);
        QFETCH(QString, argument);
        const KernelInfo info = kernelFrom(kKernels, kernel.toLatin1().constData());
        QCOMPARE(errorOf([&] { bindArguments(info, ::specs(specs)); }), message);
        try {
            bindArguments(info, ::specs(specs));
        } catch (const RunInputError &e) {
            QCOMPARE(qs(e.argument()), argument);
        }
    }

    void noArgInfo()
    {
        KernelInfo info{"k", {KernelArg{}, KernelArg{}}, ArgInfoSource::None, {}};
        QCOMPARE(
            errorOf([&] { argSlots(info); }),
            QStringLiteral("kernel k has no argument info (the driver gives none and the source does not "
                           "declare it)"));
    }

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

QTEST_GUILESS_MAIN(TestArgParse)
#include "tst_argparse.moc"
