// .npy reading and writing: numpy's exact header bytes, a round trip for every dtype (through memory and
// through a file), version 2.0 and Python 2 headers, buffers to arrays and back (vectors, 3-vectors, raw
// bytes), and every malformed or unsupported file with its message.
#include "clscope/npy.h"
#include "clscope/structs.h"

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

FieldLayout field(const char *name, const char *type, std::size_t offset, std::size_t size,
                  std::vector<std::size_t> dims = {})
{
    FieldLayout f;
    f.name = name;
    f.type = type;
    f.element = parseElementType(type);
    f.offset = offset;
    f.size = size;
    f.dims = std::move(dims);
    return f;
}

// Layouts as a device gives them (x86-64 PoCL's, see tst_structs), made by hand: no device here.
std::shared_ptr<const StructLayout> boxStr()
{
    auto l = std::make_shared<StructLayout>();
    l->name = "box_str";
    l->size = 32;
    l->alignment = 8;
    l->fields = {field("x", "int", 0, 4), field("y", "int", 4, 4), field("z", "int", 8, 4),
                 field("number", "long", 16, 8), field("offset", "long", 24, 8)};
    return l;
}

std::shared_ptr<const StructLayout> outer()
{
    auto inner = std::make_shared<StructLayout>();
    inner->name = "struct Inner";
    inner->size = 12;
    inner->fields = {field("b", "float", 0, 4), field("c", "short", 4, 6, {3})};
    auto f3 = std::make_shared<StructLayout>();
    f3->name = "Float3Member";
    f3->size = 32;
    f3->fields = {field("pos", "float3", 0, 16), field("w", "float", 16, 4)};
    auto l = std::make_shared<StructLayout>();
    l->name = "Outer";
    l->size = 96;
    FieldLayout in = field("inner", "struct Inner", 4, 12);
    in.nested = inner;
    FieldLayout pts = field("pts", "Float3Member", 16, 64, {2});
    pts.nested = f3;
    FieldLayout opaque = field("p", "float *", 88, 4);
    opaque.element = ElementType::bytes(4);
    opaque.opaque = "a pointer";
    l->fields = {field("a", "int", 0, 4), in, pts, field("z", "cfloat_t", 80, 8), opaque};
    return l;
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
        QTest::newRow("strings") << file("{'descr': '|S4', 'fortran_order': False, 'shape': (2,), }",
                                         std::string(8, '\0'))
                                 << "dtype '|S4' is not supported";
        QTest::newRow("structured field of strings")
            << file("{'descr': [('x', '<f4'), ('name', '|S4')], 'fortran_order': False, 'shape': (2,), }",
                    std::string(16, '\0'))
            << "dtype '|S4' of the field 'name' is not supported";
        QTest::newRow("structured body")
            << file("{'descr': [('x', '<f4'), ('', '|V4')], 'fortran_order': False, 'shape': (2,), }",
                    std::string(12, '\0'))
            << "data has 12 bytes, shape (2,) of 8-byte records needs 16";
        QTest::newRow("structured titles")
            << file("{'descr': [(('title', 'x'), '<f4')], 'fortran_order': False, 'shape': (2,), }",
                    std::string(8, '\0'))
            << "malformed header: expected a string at offset 12";
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

    // numpy's bool ('|b1': one byte, 0 or 1; Rodinia b+tree's is_leaf) reads as uchar, alone or as a field.
    void boolsAsBytes()
    {
        const NpyArray plain = parseNpy(
            npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", std::string("\x01\x00", 2)));
        QCOMPARE(plain.dtype, ScalarKind::UChar);
        QCOMPARE(plain.data, (std::vector<unsigned char>{1, 0}));
        const NpyArray record = parseNpy(
            npyFile("{'descr': [('x', '<f4'), ('ok', '|b1')], 'fortran_order': False, 'shape': (2,), }",
                    std::string(10, '\0')));
        QCOMPARE(record.fields.size(), std::size_t(2));
        QCOMPARE(record.fields[1].name, std::string("ok"));
        QCOMPARE(record.fields[1].dtype, ScalarKind::UChar);
        QCOMPARE(record.fields[1].offset, std::size_t(4));
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
        QCOMPARE(c16.descr(), std::string("'<c16'"));
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

    void structuredHeaders_data()
    {
        QTest::addColumn<QString>("descr");
        QTest::addColumn<QString>("fields"); // name@offset+size per field, nested in braces
        QTest::addColumn<int>("recordSize");
        // Each descr byte for byte as numpy 1.24 writes it (np.save of the dtype).
        QTest::newRow("plain") << "[('x', '<f4'), ('y', '<f4')]"
                               << "x@0+4 y@4+4" << 8;
        QTest::newRow("offsets and itemsize") << "[('x', '<f4'), ('', '|V12'), ('v', '<f4', (4,))]"
                                              << "x@0+4 @4+12 v@16+16" << 32;
        QTest::newRow("nested, complex, subarray")
            << "[('a', '<i4'), ('inner', [('b', '<f8'), ('c', '|u1')]), ('z', '<c8'), ('m', '<i8', (2, 3))]"
            << "a@0+4 inner@4+9{b@0+8 c@8+1} z@13+8 m@21+48" << 69;
        QTest::newRow("aligned") << "[('a', '|u1'), ('', '|V7'), ('b', '<f8')]"
                                 << "a@0+1 @1+7 b@8+8" << 16;
        QTest::newRow("leading padding") << "[('', '|V4'), ('x', '<f4')]"
                                         << "@0+4 x@4+4" << 8;
    }

    void structuredHeaders()
    {
        QFETCH(QString, descr);
        QFETCH(QString, fields);
        QFETCH(int, recordSize);
        const std::string dict =
            "{'descr': " + descr.toStdString() + ", 'fortran_order': False, 'shape': (2,), }";
        const std::string file = npyFile(dict, std::string(std::size_t(2 * recordSize), '\x01'));
        const NpyArray a = parseNpy(file);
        QCOMPARE(int(a.recordSize), recordSize);
        const auto describe = [](const auto &self, const std::vector<NpyField> &fs) -> QString {
            QStringList out;
            for (const NpyField &f : fs)
                out << QString::fromStdString(f.name) + u'@' + QString::number(f.offset) + u'+' +
                           QString::number(f.size()) +
                           (f.fields.empty() ? QString() : u'{' + self(self, f.fields) + u'}');
            return out.join(u' ');
        };
        QCOMPARE(describe(describe, a.fields), fields);
        QCOMPARE(QString::fromStdString(a.descr()), descr);
        QCOMPARE(encodeNpy(a), file); // written back as numpy wrote it
    }

    void structsFromNpy()
    {
        // boxes.npy: numpy's own packing, longs first (28 bytes); the device's box_str has 32.
        const NpyArray a = readNpyFile(structsPath("boxes.npy"));
        QCOMPARE(a.recordSize, std::size_t(28));
        const std::vector<unsigned char> bytes = fromNpyStructs(a, *boxStr(), 2);
        QCOMPARE(bytes.size(), std::size_t(64));
        QCOMPARE(formatStruct(*boxStr(), bytes.data()), std::string("{x=1,y=2,z=3,number=2,offset=0}"));
        QCOMPARE(formatStruct(*boxStr(), bytes.data() + 32), std::string("{x=4,y=5,z=6,number=3,offset=2}"));
        QCOMPARE(npyErrorOf([&] { fromNpyStructs(a, *boxStr(), 3); }),
                 QStringLiteral("shape (2,) holds 2 records, the buffer needs 3 (3 box_str)"));
        QCOMPARE(
            npyErrorOf([&] { fromNpyStructs(readNpyFile(structsPath("boxes_extra.npy")), *boxStr(), 2); }),
            QStringLiteral(
                "the field w of the file is not a field of box_str (fields: x, y, z, number, offset)"));
        QCOMPARE(
            npyErrorOf([&] { fromNpyStructs(readNpyFile(structsPath("boxes_double.npy")), *boxStr(), 2); }),
            QStringLiteral("the field x is <f8 in the file, but x of box_str is int (<i4)"));
        QCOMPARE(
            npyErrorOf([&] { fromNpyStructs(readNpyFile(dataPath("iota_f4.npy")), *boxStr(), 1); }),
            QStringLiteral("a buffer of box_str needs a structured dtype with its fields (x, y, z, number, "
                           "offset), or uint8 bytes of its size, not '<f4'"));
        // float3 as (3,) from an aligned numpy dtype: the padding component stays zero.
        auto f3 = outer()->fields[2].nested;
        const std::vector<unsigned char> m =
            fromNpyStructs(readNpyFile(structsPath("float3member.npy")), *f3, 2);
        QCOMPARE(formatStruct(*f3, m.data() + 32), std::string("{pos=(4,5,6),w=8}"));
        float pad = 1;
        std::memcpy(&pad, m.data() + 12, 4);
        QCOMPARE(pad, 0.0f);
    }

    // A buffer of structs written with the device's offsets: numpy reads every field where the device
    // has it, nested ones and arrays of structs too, and the file reads back into the same bytes.
    void structsToNpy()
    {
        const auto layout = outer();
        const ValueTree v = parseStructValue(
            "a=-1,inner={b=1.5,c=(1,2,3)},pts=({pos=(1,2,3),w=4},{pos=(5,6,7),w=8}),z=1-2j,p=0x01020304",
            "o");
        BufferData b;
        b.name.push_back('o');
        b.type = ElementType::bytes(96);
        b.layout = layout;
        b.count = 2;
        b.bytes = encodeStruct(*layout, v, "o");
        b.bytes.resize(192, 0);
        const NpyArray a = toNpy(b);
        QCOMPARE(a.descr(),
                 std::string("[('a', '<i4'), ('inner', [('b', '<f4'), ('c', '<i2', (3,)), ('', '|V2')]), "
                             "('pts', [('pos', '<f4', (3,)), ('', '|V4'), ('w', '<f4'), ('', '|V12')], "
                             "(2,)), ('z', '<c8'), ('p', '|V4'), ('', '|V4')]"));
        QCOMPARE(fromNpyStructs(parseNpy(encodeNpy(a)), *layout, 2), b.bytes);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("o.npy")).toStdString();
        writeNpyFile(path, a);
        QCOMPARE(numpySays(path, "a['a'].tolist(), a['inner']['c'][0].tolist(), a['pts']['pos'][0].tolist(), "
                                 "a['pts']['w'][0].tolist(), a['z'].tolist(), a['p'][0].tobytes().hex()"),
                 QStringLiteral(
                     "96 {a@0 <i4, inner@4 12 {b@0 <f4, c@4 <i2(3,)}, pts@16 32 {pos@0 <f4(3,), w@16 "
                     "<f4}(2,), z@80 <c8, p@88 |V4} (2,) [-1, 0] [1, 2, 3] [[1.0, 2.0, 3.0], [5.0, 6.0, "
                     "7.0]] [4.0, 8.0] [(1-2j), 0j] 01020304"));
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
