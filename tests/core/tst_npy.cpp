// .npy reading and writing: numpy's exact header bytes, a round trip for every dtype (through memory and
// through a file), version 2.0 and Python 2 headers, buffers to arrays and back (vectors, 3-vectors, raw
// bytes, complex numbers read back by numpy), and every malformed or unsupported file with its message.
#include "clscope/npy.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace clscope;

namespace {

std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/run/") + name;
}

std::string structsPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/structs/") + name;
}

// What numpy makes of a file: its dtype ("ITEMSIZE {name@offset dtype(shape), ...}" for records, nested
// ones spelled out), its shape and `values` (a Python expression of the array a), printed by python3-numpy.
QString numpySays(const std::string &path, const char *values = "a.tolist()")
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"),
            {QStringLiteral("-c"),
             QStringLiteral(
                 "import numpy as np, sys\n"
                 "a = np.load(sys.argv[1])\n"
                 "def d(t): return '%d {' % t.itemsize + ', '.join('%s@%d %s' % (n, t.fields[n][1], "
                 "d(t.fields[n][0].base) if t.fields[n][0].base.names else t.fields[n][0].base.str) + "
                 "(str(t.fields[n][0].shape) if t.fields[n][0].shape else '') for n in t.names) + '}'\n"
                 "print(d(a.dtype) if a.dtype.names else a.dtype.str, a.shape, ") +
                 QString::fromLatin1(values) + u')',
             QString::fromStdString(path)});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return QStringLiteral("python3 failed: ") + QString::fromUtf8(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

template<typename F> QString npyErrorOf(F f)
{
    try {
        f();
    } catch (const NpyError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

// A file as numpy.save writes it, with the header given verbatim (padded like numpy, version 1.0).
std::string npyFile(const std::string &dict, const std::string &body)
{
    std::string header = dict;
    header += std::string(64 - (10 + dict.size() + 1) % 64, ' ') + '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    return out + header + body;
}

std::vector<unsigned char> ramp(std::size_t n)
{
    std::vector<unsigned char> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = static_cast<unsigned char>(i * 7 + 3);
    return out;
}

} // namespace

class TestNpy : public QObject
{
    Q_OBJECT

private slots:
    void numpyHeaderBytes()
    {
        // np.save of np.arange(3, dtype=np.float32): the well-known 'v\0' header length and dict text.
        NpyArray a;
        a.dtype = ScalarKind::Float;
        a.shape = {3};
        a.data.resize(12);
        const float values[] = {0.f, 1.f, 2.f};
        std::memcpy(a.data.data(), values, sizeof values);
        const std::string bytes = encodeNpy(a);
        QCOMPARE(bytes.size(), std::size_t(128 + 12));
        QCOMPARE(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
        QCOMPARE(bytes.substr(10, 59),
                 std::string("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }  "));
        QCOMPARE(bytes[127], '\n');
        // And the fixtures written by tests/data/run/make_npy.py (numpy's layout) read back.
        const NpyArray fixture = readNpyFile(dataPath("iota_f4.npy"));
        QCOMPARE(fixture.dtype, ScalarKind::Float);
        QCOMPARE(fixture.shape, std::vector<std::size_t>{8});
        NpyArray same = fixture;
        same.data.clear();
        for (int i = 0; i < 8; ++i) {
            const float f = float(i);
            same.data.insert(same.data.end(), reinterpret_cast<const unsigned char *>(&f),
                             reinterpret_cast<const unsigned char *>(&f) + 4);
        }
        QVERIFY(fixture == same);
    }

    void roundTrip_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("descr");
        QTest::addColumn<QString>("shape");
        const std::pair<ScalarKind, const char *> kinds[] = {
            {ScalarKind::Float, "<f4"}, {ScalarKind::Double, "<f8"}, {ScalarKind::Int, "<i4"},
            {ScalarKind::UInt, "<u4"},  {ScalarKind::Long, "<i8"},   {ScalarKind::ULong, "<u8"},
            {ScalarKind::Short, "<i2"}, {ScalarKind::UShort, "<u2"}, {ScalarKind::Char, "|i1"},
            {ScalarKind::UChar, "|u1"}, {ScalarKind::Half, "<f2"},
        };
        for (const auto &[kind, descr] : kinds) {
            for (const char *shape : {"", "5", "2,3", "2,3,4", "0"})
                QTest::addRow("%s (%s)", descr, shape) << int(kind) << descr << shape;
        }
    }

    void roundTrip()
    {
        QFETCH(int, kind);
        QFETCH(QString, descr);
        QFETCH(QString, shape);
        NpyArray a;
        a.dtype = ScalarKind(kind);
        for (const QString &d : shape.split(u',', Qt::SkipEmptyParts))
            a.shape.push_back(d.toULongLong());
        a.data = ramp(a.valueCount() * scalarSize(a.dtype));
        QCOMPARE(QString::fromStdString(*npyDescr(a.dtype)), descr);
        QCOMPARE(scalarFromDescr(descr.toStdString()), std::optional(a.dtype));
        const std::string bytes = encodeNpy(a);
        QCOMPARE((bytes.size() - a.data.size()) % 64, std::size_t(0)); // data aligned as numpy aligns it
        QVERIFY(parseNpy(bytes) == a);

        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("a.npy")).toStdString();
        writeNpyFile(path, a);
        QVERIFY(readNpyFile(path) == a);
    }

    void descrs_data()
    {
        QTest::addColumn<QString>("descr");
        QTest::addColumn<int>("kind"); // -1: not accepted
        QTest::newRow("<f4") << "<f4" << int(ScalarKind::Float);
        QTest::newRow("=f4 native") << "=f4" << int(ScalarKind::Float);
        QTest::newRow("<u1") << "<u1" << int(ScalarKind::UChar);
        QTest::newRow("|i1") << "|i1" << int(ScalarKind::Char);
        QTest::newRow("|f4") << "|f4" << -1;
        QTest::newRow(">f4") << ">f4" << -1;
        QTest::newRow("<b1") << "<b1" << -1;
        QTest::newRow("<c8") << "<c8" << -1;
        QTest::newRow("<f16") << "<f16" << -1;
        QTest::newRow("empty") << "" << -1;
    }

    void descrs()
    {
        QFETCH(QString, descr);
        QFETCH(int, kind);
        const auto k = scalarFromDescr(descr.toStdString());
        QCOMPARE(k ? int(*k) : -1, kind);
    }

    void otherHeaders()
    {
        // Version 2.0 (4-byte header length), as numpy writes for headers over 64 KiB.
        const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
        std::string header = dict + std::string(64 - (12 + dict.size() + 1) % 64, ' ') + '\n';
        std::string v2 = std::string("\x93NUMPY\x02\x00", 8);
        for (int i = 0; i < 4; ++i)
            v2 += char((header.size() >> (8 * i)) & 0xff);
        v2 += header + std::string("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
        const NpyArray a = parseNpy(v2);
        QCOMPARE(a.dtype, ScalarKind::Int);
        QCOMPARE(a.shape, std::vector<std::size_t>{2});
        // Python 2 wrote longs with L, keys in any order, double quotes, no trailing comma; a 0-d array.
        const NpyArray b =
            parseNpy(npyFile("{\"shape\": (2L, 1L), \"fortran_order\": False, \"descr\": \"<u2\"}", "abcd"));
        QCOMPARE(b.shape, (std::vector<std::size_t>{2, 1}));
        QCOMPARE(b.dtype, ScalarKind::UShort);
        QCOMPARE(parseNpy(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", "12345678"))
                     .valueCount(),
                 std::size_t(1));
        // Fortran order of a 1-D array is the same bytes: accepted.
        QCOMPARE(parseNpy(npyFile("{'descr': '<u2', 'fortran_order': True, 'shape': (2,), }", "abcd")).shape,
                 std::vector<std::size_t>{2});
        // A large header takes version 2.0 on writing.
        NpyArray big;
        big.dtype = ScalarKind::UChar;
        big.shape = std::vector<std::size_t>(30000, 1); // "1, " each: a header over 65535 bytes
        big.data = {42};
        const std::string bigBytes = encodeNpy(big);
        QCOMPARE(int(bigBytes[6]), 2);
        QVERIFY(parseNpy(bigBytes) == big);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("message");
        auto file = [](const std::string &dict, const std::string &body) {
            const std::string f = npyFile(dict, body);
            return QByteArray(f.data(), qsizetype(f.size()));
        };
        QTest::newRow("not npy") << QByteArray("hello world") << "not an .npy file (no \\x93NUMPY magic)";
        QTest::newRow("empty") << QByteArray() << "not an .npy file (no \\x93NUMPY magic)";
        QTest::newRow("version 4") << QByteArray("\x93NUMPY\x04\x00\x00\x00", 10)
                                   << "unsupported .npy format version 4.0";
        QTest::newRow("truncated header")
            << QByteArray("\x93NUMPY\x01\x00\xff\x00{'descr'", 18) << "truncated .npy header";
        QTest::newRow("Fortran order")
            << file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", std::string(16, '\0'))
            << "Fortran-order arrays are not supported (save a C-order copy: np.ascontiguousarray)";
        QTest::newRow("big-endian") << file("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                                            std::string(8, '\0'))
                                    << "big-endian dtype '>f4' is not supported";
        QTest::newRow("bool") << file("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
                                      std::string(2, '\0'))
                              << "dtype '|b1' is not supported";
        QTest::newRow("structured")
            << file("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                    std::string(8, '\0'))
            << "structured dtypes are not supported (only plain numeric dtypes)";
        QTest::newRow("truncated body")
            << file("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", std::string(12, '\0'))
            << "data has 12 bytes, shape (4,) of <f4 needs 16";
        QTest::newRow("trailing bytes")
            << file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", std::string(20, '\0'))
            << "data has 20 bytes, shape (2, 2) of <f4 needs 16";
        QTest::newRow("missing shape") << file("{'descr': '<f4', 'fortran_order': False, }", "")
                                       << "the header lacks descr, fortran_order or shape";
        QTest::newRow("unknown key") << file("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}",
                                             "")
                                     << "unexpected key 'x' in the header";
        QTest::newRow("bad shape") << file("{'descr': '<f4', 'fortran_order': False, 'shape': (a,), }", "")
                                   << "malformed header: shape is not a tuple of sizes";
        QTest::newRow("bad order") << file("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", "")
                                   << "malformed header: fortran_order is not True or False";
        QTest::newRow("not a dict") << file("['descr']", "") << "malformed header: expected '{' at offset 0";
        QTest::newRow("unterminated string")
            << file("{'descr: '<f4'", "") << "malformed header: expected ':' at offset 10";
        QTest::newRow("huge shape")
            << file("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", "")
            << "shape (99999999999, 99999999999) is too large";
    }

    void errors()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, message);
        QCOMPARE(npyErrorOf([&] { parseNpy(std::string_view(file.constData(), std::size_t(file.size()))); }),
                 message);
    }

    void fileErrors()
    {
        QCOMPARE(npyErrorOf([] { readNpyFile("/nonexistent/a.npy"); }),
                 QStringLiteral("cannot read /nonexistent/a.npy: no such file"));
        QCOMPARE(npyErrorOf([] {
                     writeNpyFile("/nonexistent/a.npy", NpyArray{ScalarKind::UChar, {1}, {1}});
                 }),
                 QStringLiteral("cannot write /nonexistent/a.npy: No such file or directory"));
        QCOMPARE(npyErrorOf([] {
                     encodeNpy(NpyArray{ScalarKind::Float, {2}, {1, 2, 3}});
                 }),
                 QStringLiteral("data has 3 bytes, shape (2,) of <f4 needs 8"));
    }

    void buffers_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("shape");
        QTest::newRow("float") << "float" << 5 << "(5,)";
        QTest::newRow("int4") << "int4" << 3 << "(3, 4)";
        QTest::newRow("float3 without padding") << "float3" << 3 << "(3, 3)";
        QTest::newRow("double16") << "double16" << 2 << "(2, 16)";
        QTest::newRow("half2") << "half2" << 4 << "(4, 2)";
        QTest::newRow("raw bytes") << "bytes6" << 2 << "(2, 6)";
    }

    void buffers()
    {
        QFETCH(QString, type);
        QFETCH(int, count);
        QFETCH(QString, shape);
        BufferData b;
        b.name.push_back('b'); // not = "b": GCC 12 warns falsely (-Wrestrict)
        b.type = *parseElementType(type.toStdString());
        b.count = std::size_t(count);
        b.bytes = ramp(b.count * b.type.size());
        if (b.type.width == 3) { // the padding component holds nothing
            const std::size_t c = scalarSize(b.type.scalar);
            for (std::size_t e = 0; e < b.count; ++e)
                std::memset(b.bytes.data() + e * b.type.size() + 3 * c, 0, c);
        }
        const NpyArray a = toNpy(b);
        QString got = QStringLiteral("(");
        for (std::size_t i = 0; i < a.shape.size(); ++i)
            got += (i ? QStringLiteral(", ") : QString()) + QString::number(a.shape[i]);
        QCOMPARE(got + (a.shape.size() == 1 ? QStringLiteral(",)") : QStringLiteral(")")), shape);
        QCOMPARE(a.valueCount(), b.componentCount());
        // The array's values are the buffer's components, in order.
        BufferData flat{"f", ElementType{a.dtype, 1, 0}, a.valueCount(), a.data};
        QVERIFY(flat.numbers() == b.numbers());
        // And back to the stored layout (3-vectors padded again).
        QCOMPARE(fromNpy(parseNpy(encodeNpy(a)), b.type, b.count), b.bytes);
    }

    void complexNumbers()
    {
        // complex64 and complex128 as numpy writes them (tests/data/structs/make_npy.py).
        const NpyArray c8 = readNpyFile(structsPath("complex64.npy"));
        QVERIFY(c8.complex);
        QCOMPARE(c8.dtype, ScalarKind::Float);
        QCOMPARE(c8.valueSize(), std::size_t(8));
        QCOMPARE(c8.shape, std::vector<std::size_t>{3});
        const ElementType cfloat = *parseElementType("cfloat_t");
        const std::vector<unsigned char> bytes = fromNpy(c8, cfloat, 3);
        std::vector<float> values(6);
        std::memcpy(values.data(), bytes.data(), 24);
        QCOMPARE(values, (std::vector<float>{1, 2, 3, -1, 0, -0.5f}));
        const NpyArray c16 = readNpyFile(structsPath("complex128.npy"));
        QCOMPARE(npyDescr(c16.dtype, c16.complex), std::optional<std::string>("<c16"));
        QCOMPARE(npyErrorOf([&] { fromNpy(c16, cfloat, 1); }),
                 QStringLiteral("dtype <c16 does not match cfloat_t (<c8)"));
        QCOMPARE(npyErrorOf([&] { fromNpy(c8, *parseElementType("float2"), 3); }),
                 QStringLiteral("dtype <c8 does not match float2 (<f4)"));
        QCOMPARE(npyErrorOf([&] { fromNpy(c8, cfloat, 2); }),
                 QStringLiteral("shape (3,) holds 3 values, the buffer needs 2 (2 cfloat_t)"));

        // Out: a cfloat_t buffer is complex64 for numpy.
        BufferData b;
        b.name.push_back('z');
        b.type = cfloat;
        b.count = 3;
        b.bytes = bytes;
        const NpyArray out = toNpy(b);
        QVERIFY(out.complex);
        QCOMPARE(encodeNpy(out), encodeNpy(c8));
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("z.npy")).toStdString();
        writeNpyFile(path, out);
        QCOMPARE(numpySays(path), QStringLiteral("<c8 (3,) [(1+2j), (3-1j), (-0-0.5j)]"));
    }

    void bufferMismatches()
    {
        const NpyArray a = readNpyFile(dataPath("mat_f4.npy")); // float32, (2, 4)
        QCOMPARE(npyErrorOf([&] { fromNpy(a, *parseElementType("float4"), 1); }),
                 QStringLiteral("shape (2, 4) holds 8 values, the buffer needs 4 (1 float4)"));
        QCOMPARE(npyErrorOf([&] { fromNpy(a, *parseElementType("int4"), 2); }),
                 QStringLiteral("dtype <f4 does not match int4 (<i4)"));
        QCOMPARE(npyErrorOf([&] { fromNpy(a, ElementType::bytes(3), 4); }),
                 QStringLiteral("data has 32 bytes, the buffer needs 12 (4 bytes3)"));
        QCOMPARE(fromNpy(a, *parseElementType("float2"), 4), a.data); // any shape with the right count
    }
};

QTEST_GUILESS_MAIN(TestNpy)
#include "tst_npy.moc"
