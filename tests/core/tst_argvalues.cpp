// The argument model's types and values, without a device: element types, values of every type with their
// ranges (hex, hex-float, vectors, 3-vectors), 64-bit numbers, and half conversions.
#include "argtest.h"

#include "clscope/kernelargs.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace clscope;
using namespace argtest;

class TestArgValues : public QObject
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
};

QTEST_GUILESS_MAIN(TestArgValues)
#include "tst_argvalues.moc"
