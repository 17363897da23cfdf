// clscope-cli run with structs and complex numbers (docs/cli.md): `struct:` values by field name, buffers
// of structs filled with `fill={...}` or read from a structured .npy by field name, struct buffers printed
// as objects (JSON) and in the --arg syntax (text), cfloat_t from pyopencl-complex.h (also given as the
// float2 it is), bool fields (numpy's '|b1', true/false), on PoCL and Oclgrind, also under --check; and the
// refusals, one stderr line each with exit 2: an unknown field (listing the struct's fields), a bytesN of
// another size than the argument (naming both sizes), an unknown struct.
#include "clitest.h"
#include "testicd.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <utility>

namespace {

using clitest::Result;

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/structs/") + QLatin1String(name);
}

using clitest::words;

struct Vec4
{
    float v, x, y, z;
};

// lavamd.cl's forces, worked out here: each particle of a box against the particles of that box.
std::vector<Vec4> lavamdForces(float alpha, const std::vector<std::pair<long, long>> &boxes,
                               const std::vector<Vec4> &rv, const std::vector<float> &qv)
{
    std::vector<Vec4> fv(rv.size(), Vec4{0, 0, 0, 0});
    const float a2 = 2.0f * alpha * alpha;
    for (const auto &[number, offset] : boxes) {
        for (long i = offset; i < offset + number; ++i) {
            Vec4 f{0, 0, 0, 0};
            for (long j = offset; j < offset + number; ++j) {
                const float dx = rv[std::size_t(i)].x - rv[std::size_t(j)].x;
                const float dy = rv[std::size_t(i)].y - rv[std::size_t(j)].y;
                const float dz = rv[std::size_t(i)].z - rv[std::size_t(j)].z;
                const float s = qv[std::size_t(j)] * (a2 * (dx * dx + dy * dy + dz * dz) + 1.0f);
                f.v += s;
                f.x += s * dx;
                f.y += s * dy;
                f.z += s * dz;
            }
            fv[std::size_t(i)] = f;
        }
    }
    return fv;
}

// A .npy file of `descr` and `shape` (numpy's header, version 1.0) holding `data`.
QByteArray npy(const QByteArray &descr, const QByteArray &shape, const QByteArray &data)
{
    QByteArray header = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    return out + header + data;
}

template<typename T> void append(QByteArray &to, T value)
{
    to.append(reinterpret_cast<const char *>(&value), sizeof value);
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestCliStructs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;

    Result run(const QStringList &args) const
    {
        const QStringList device = args.contains(QStringLiteral("--device"))
                                       ? QStringList{}
                                       : QStringList{QStringLiteral("--device"), QStringLiteral("pocl")};
        clitest::Options options;
        options.cacheDir = m_cache.path();
        options.unset = clitest::buildVariables();
        options.timeoutMs = 180000;
        return clitest::run(QStringList{QStringLiteral("run")} + args + device, options);
    }

    QJsonObject buffers(const QStringList &args) const
    {
        const Result r = run(args + QStringList{QStringLiteral("--json")});
        if (r.exitCode != 0)
            qWarning("exit %d: %s", r.exitCode, r.err.constData());
        return QJsonDocument::fromJson(r.out).object().value(QLatin1String("buffers")).toObject();
    }

    bool skipDevice(const QString &device) const
    {
        return device == QStringLiteral("oclgrind") && !m_haveOclgrind;
    }

    static QStringList lavamd(const QString &device)
    {
        return QStringList{dataPath("lavamd/lavamd.cl"),
                           QStringLiteral("--kernel"),
                           QStringLiteral("kernel_gpu_opencl"),
                           QStringLiteral("--global"),
                           QStringLiteral("8"),
                           QStringLiteral("--local"),
                           QStringLiteral("4"),
                           QStringLiteral("--device"),
                           device} +
               words("--arg d_par_gpu=struct:alpha=0.5 --arg d_qv_gpu=buffer:float:5:iota=1 --arg "
                     "d_fv_gpu=buffer:5 "
                     "--arg d_dist=buffer:5 --print d_fv_gpu --print d_box_gpu") +
               QStringList{QStringLiteral("--arg"),
                           QStringLiteral("d_box_gpu=buffer:box_str:2:file=") + dataPath("boxes.npy"),
                           QStringLiteral("--arg"),
                           QStringLiteral("d_rv_gpu=buffer:5:file=") + dataPath("rv.npy")};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        const Result probe = run(QStringList{dataPath("arrayfire.cl")} +
                                 words("--kernel echo --global 1 --arg p=struct: --arg out=buffer:long:9"));
        if (probe.exitCode != 0)
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(probe.err)));
    }

    void devices_data() { clitest::deviceRows(); }

    void lavamdJson_data() { devices_data(); }

    // Boxes and positions from numpy's structured arrays (fields in another order, no padding), forces
    // back as objects by field name.
    void lavamdJson()
    {
        QFETCH(QString, device);
        if (skipDevice(device))
            QSKIP("Oclgrind is not installed");
        const QJsonObject b = buffers(lavamd(device));
        const std::vector<Vec4> expected = lavamdForces(
            0.5f, {{2, 0}, {3, 2}}, {{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 2, 0, 1}, {0, 0, 2, 1}},
            {1, 2, 3, 4, 5});
        const QJsonArray fv = b.value(QLatin1String("d_fv_gpu")).toArray();
        QCOMPARE(fv.size(), 5);
        for (int i = 0; i < 5; ++i) {
            const QJsonObject f = fv[i].toObject();
            QCOMPARE(f.keys(), (QStringList{QStringLiteral("v"), QStringLiteral("x"), QStringLiteral("y"),
                                            QStringLiteral("z")}));
            QCOMPARE(float(f.value(QLatin1String("v")).toDouble()), expected[std::size_t(i)].v);
            QCOMPARE(float(f.value(QLatin1String("x")).toDouble()), expected[std::size_t(i)].x);
            QCOMPARE(float(f.value(QLatin1String("y")).toDouble()), expected[std::size_t(i)].y);
            QCOMPARE(float(f.value(QLatin1String("z")).toDouble()), expected[std::size_t(i)].z);
        }
        const QJsonArray boxes = b.value(QLatin1String("d_box_gpu")).toArray();
        QCOMPARE(boxes.size(), 2);
        QCOMPARE(boxes[1].toObject(), (QJsonObject{{QStringLiteral("x"), 4},
                                                   {QStringLiteral("y"), 5},
                                                   {QStringLiteral("z"), 6},
                                                   {QStringLiteral("number"), 3},
                                                   {QStringLiteral("offset"), 2}}));
    }

    void textOutput()
    {
        // Struct buffers print one element each in the --arg syntax, so that a value can be copied back.
        const Result r = run(lavamd(QStringLiteral("pocl")));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("d_box_gpu (2 box_str): {x=1,y=2,z=3,number=2,offset=0} "
                                "{x=4,y=5,z=6,number=3,offset=2}\n"),
                 r.out.constData());
        QVERIFY2(r.out.contains("d_fv_gpu (5 FOUR_VECTOR): {v=4,x=-3,y=0,z=0} {v=3.5,x=1.5,y=0,z=0} "),
                 r.out.constData());
    }

    void byValue_data() { devices_data(); }

    // ArrayFire's KParam, a packed struct, a float3 member, nested, anonymous and union members.
    void byValue()
    {
        QFETCH(QString, device);
        if (skipDevice(device))
            QSKIP("Oclgrind is not installed");
        const QStringList dev{QStringLiteral("--device"), device};
        const QJsonObject k =
            buffers(QStringList{dataPath("arrayfire.cl")} + dev +
                    words("--kernel echo --global 1 --arg out=buffer:long:9 --print out") +
                    QStringList{QStringLiteral("--arg"),
                                QStringLiteral("p=struct:dims=(3,2,1,1),strides=(1,3,6,6),offset=5")});
        QCOMPARE(k.value(QLatin1String("out")).toArray(), (QJsonArray{3, 2, 1, 1, 1, 3, 6, 6, 5}));
        const QJsonObject p =
            buffers(QStringList{dataPath("layouts.cl")} + dev +
                    words("--kernel packed_in --global 1 --arg p=struct:c=-3,i=100000,s=-2 --arg "
                          "out=buffer:int:4 --print out"));
        QCOMPARE(p.value(QLatin1String("out")).toArray(), (QJsonArray{-3, 100000, -2, 7}));
        const QJsonObject n = buffers(
            QStringList{dataPath("layouts.cl")} + dev +
            words(
                "--kernel nested --global 1 --arg in=struct:b=9,c=(10,20,30) --arg word=struct:u=0x01020304 "
                "--arg o=buffer:1 --print o --arg "
                "v=struct:a=5,inner={b=1.5},points=({pos=(1,2,3),w=4},{w=5}),anon={tag=7,d=0.25},v=(1,2,3,"
                "4)"));
        const QJsonObject o = n.value(QLatin1String("o")).toArray().first().toObject();
        QCOMPARE(o.keys(),
                 (QStringList{QStringLiteral("a"), QStringLiteral("anon"), QStringLiteral("asFloat"),
                              QStringLiteral("asInt"), QStringLiteral("inner"), QStringLiteral("points"),
                              QStringLiteral("v")}));
        QCOMPARE(o.value(QLatin1String("inner")).toObject(),
                 (QJsonObject{{QStringLiteral("b"), 1.5}, {QStringLiteral("c"), QJsonArray{0, 0, 60}}}));
        QCOMPARE(o.value(QLatin1String("points")).toArray()[1].toObject(),
                 (QJsonObject{{QStringLiteral("pos"), QJsonArray{0, 9, 0}}, {QStringLiteral("w"), 5}}));
        QCOMPARE(o.value(QLatin1String("anon")).toObject(),
                 (QJsonObject{{QStringLiteral("tag"), 7}, {QStringLiteral("d"), 0.5}}));
        QCOMPARE(o.value(QLatin1String("asInt")).toInteger(), 0x01020304);
        QCOMPARE(o.value(QLatin1String("v")).toArray(), (QJsonArray{1, 2, 3, 4}));
    }

    void complexNumbers_data() { devices_data(); }

    // cfloat_t: pyopencl-complex.h from the installed pyopencl, a complex64 .npy in, values as RE,IM in
    // JSON and 1+2j in text.
    void complexNumbers()
    {
        QFETCH(QString, device);
        if (skipDevice(device))
            QSKIP("Oclgrind is not installed");
        const QStringList args =
            QStringList{dataPath("complex.cl"), QStringLiteral("--device"), device, QStringLiteral("--arg"),
                        QStringLiteral("a=buffer:3:file=") + dataPath("complex64.npy")} +
            words("--kernel scale --global 3 --arg s=0+2j --arg out=buffer:cfloat_t:3 --print out");
        QCOMPARE(buffers(args).value(QLatin1String("out")).toArray(), (QJsonArray{-4, 2, 3, 6, 3, 0}));
        const Result text = run(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("out (3 cfloat_t): -4+2j 3+6j 3+0j\n"), text.out.constData());
    }

    void complexAsFloat2_data() { devices_data(); }

    // cfloat_t is pyopencl-complex.h's typedef of float2, and pyopencl programs pass it as one: a float2
    // value, a float2 buffer and a float32 .npy of shape (N, 2) (real and imaginary parts) are taken.
    void complexAsFloat2()
    {
        QFETCH(QString, device);
        if (skipDevice(device))
            QSKIP("Oclgrind is not installed");
        QTemporaryDir dir;
        QByteArray pairs;
        for (float v : {1.0f, 2.0f, 3.0f, -1.0f, 0.0f, -0.5f})
            append(pairs, v);
        const QString file = dir.filePath(QStringLiteral("pairs.npy"));
        QVERIFY(writeFile(file, npy("'<f4'", "(3, 2)", pairs)));
        for (const char *out : {"out=buffer:cfloat_t:3", "out=buffer:float2:3"}) {
            const QStringList args = QStringList{dataPath("complex.cl"),
                                                 QStringLiteral("--device"),
                                                 device,
                                                 QStringLiteral("--arg"),
                                                 QStringLiteral("a=buffer:3:file=") + file,
                                                 QStringLiteral("--arg"),
                                                 QLatin1String(out)} +
                                     words("--kernel scale --global 3 --arg s=float2:0,2 --print out");
            QCOMPARE(buffers(args).value(QLatin1String("out")).toArray(), (QJsonArray{-4, 2, 3, 6, 3, 0}));
        }
    }

    void boolFields_data() { devices_data(); }

    // Rodinia b+tree's knode has `bool is_leaf`: numpy's '|b1' field in a structured .npy, and true/false
    // in a struct value (fill={...}), are its one byte.
    void boolFields()
    {
        QFETCH(QString, device);
        if (skipDevice(device))
            QSKIP("Oclgrind is not installed");
        QTemporaryDir dir;
        QByteArray nodes;
        const bool leaf[] = {true, false, true};
        for (int i = 0; i < 3; ++i) {
            append(nodes, char(leaf[i]));
            for (int k = 0; k < 3; ++k)
                append(nodes, std::int32_t(10 * (i + 1) + k));
            append(nodes, std::int32_t(i + 1));
        }
        const QString file = dir.filePath(QStringLiteral("knodes.npy"));
        QVERIFY(writeFile(
            file, npy("[('is_leaf', '|b1'), ('keys', '<i4', (3,)), ('num_keys', '<i4')]", "(3,)", nodes)));
        const QStringList base{
            dataPath("btree.cl"),       QStringLiteral("--device"),  device,
            QStringLiteral("--kernel"), QStringLiteral("leaf_keys"), QStringLiteral("--print"),
            QStringLiteral("out")};
        QCOMPARE(buffers(base + QStringList{QStringLiteral("--global"), QStringLiteral("3"),
                                            QStringLiteral("--arg"),
                                            QStringLiteral("nodes=buffer:knode:3:file=") + file,
                                            QStringLiteral("--arg"), QStringLiteral("out=buffer:int:3")})
                     .value(QLatin1String("out"))
                     .toArray(),
                 (QJsonArray{11, -1, 33}));
        for (const auto &[flag, expected] : {std::pair{"true", 7}, std::pair{"false", -1}}) {
            const QStringList args =
                base +
                QStringList{QStringLiteral("--global"),
                            QStringLiteral("2"),
                            QStringLiteral("--arg"),
                            QStringLiteral("nodes=buffer:knode:2:fill={keys=(5,0,0),is_leaf=%1,num_keys=2}")
                                .arg(QLatin1String(flag)),
                            QStringLiteral("--arg"),
                            QStringLiteral("out=buffer:int:2")};
            QCOMPARE(buffers(args).value(QLatin1String("out")).toArray(), (QJsonArray{expected, expected}));
        }
    }

    void underCheck()
    {
        // The checked run (a child on Oclgrind, buffers written rather than filled) takes structs too.
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const Result r = run(QStringList{dataPath("layouts.cl")} +
                             words("--kernel float3_in --global 2 --arg m=struct:pos=(1,2,3),w=4 --arg "
                                   "out=buffer:2:fill={w=1} --print out --check"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("out (2 Float3Member): {pos=(1,2,3),w=4} {pos=(2,4,6),w=5}\n"),
                 r.out.constData());
        QVERIFY2(r.out.contains("Oclgrind check: clean"), r.out.constData());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const auto lavamdWith = [](const char *replacement) {
            QStringList args = lavamd(QStringLiteral("pocl"));
            const QString r = QString::fromLatin1(replacement);
            const QString name = r.section(u'=', 0, 0) + u'=';
            for (QString &a : args) {
                if (a.startsWith(name))
                    a = r;
            }
            return args;
        };
        QTest::newRow("unknown field")
            << lavamdWith("d_par_gpu=struct:alpah=0.5")
            << "clscope-cli: d_par_gpu: par_str has no field 'alpah' (fields: alpha)";
        QTest::newRow("unknown field of a fill")
            << lavamdWith("d_box_gpu=buffer:box_str:2:fill={x=1,w=2}")
            << "clscope-cli: d_box_gpu: box_str has no field 'w' (fields: x, y, z, number, offset)";
        QTest::newRow("bytesN of another size by value")
            << lavamdWith("d_par_gpu=bytes8:0000000000000000")
            << "clscope-cli: d_par_gpu: bytes8 is 8 bytes, but the par_str argument is 4 bytes";
        QTest::newRow("bytesN of another size in a buffer")
            << lavamdWith("d_box_gpu=buffer:bytes28:2")
            << "clscope-cli: d_box_gpu: bytes28 is 28 bytes, but the elements of the __global const box_str* "
               "argument (box_str) are 32 bytes";
        QTest::newRow("unknown struct") << lavamdWith("d_fv_gpu=buffer:Particle:5")
                                        << "clscope-cli: d_fv_gpu: unknown type 'Particle' (types: ";
        QTest::newRow("iota of structs")
            << lavamdWith("d_fv_gpu=buffer:5:iota")
            << "clscope-cli: d_fv_gpu: iota is for numbers; a buffer of FOUR_VECTOR "
               "takes zeros, fill={FIELD=VALUE,...}, file=PATH or copy=NAME";
        QStringList extra = lavamd(QStringLiteral("pocl"));
        extra.replaceInStrings(QStringLiteral("boxes.npy"), QStringLiteral("boxes_extra.npy"));
        QTest::newRow("a file field the struct lacks")
            << extra
            << QString(QStringLiteral("clscope-cli: d_box_gpu: ") + dataPath("boxes_extra.npy") +
                       QStringLiteral(
                           ": the field w of the file is not a field of box_str (fields: x, y, z, number, "
                           "offset)"));
        QTest::newRow("struct syntax")
            << lavamdWith("d_par_gpu=struct:alpha=(0.5") << "clscope-cli: d_par_gpu: expected ')' at ''";
        QTest::newRow("complex of three parts")
            << (QStringList{dataPath("complex.cl")} +
                words("--kernel scale --global 1 --arg a=buffer:1 --arg s=1,2,3 --arg out=buffer:1"))
            << "clscope-cli: s: cfloat_t needs 2 values (RE,IM) or a complex literal like 1+2j, got '1,2,3'";
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result r = run(args);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
        QVERIFY2(!err.contains(u'\n'), qPrintable(err)); // one line
        QVERIFY2(err.startsWith(message), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliStructs)
#include "tst_cli_structs.moc"
