// Struct layouts on PoCL and Oclgrind, with the structs of real projects (tests/data/structs): Rodinia
// lavaMD's THREE_VECTOR, FOUR_VECTOR, box_str and par_str (structs in a header, fp a macro), ArrayFire's
// KParam, packed and aligned structs, a float3 member, nested, anonymous and union members, typedefs. Layouts
// are the device's, compared with values worked out by hand and with what pyopencl's
// match_dtype_to_c_struct asks the same device (and a lavaMD run with pyopencl's), kept with the build and in
// the binary cache; a probe that does not build is refused with the compiler's reason. Runs with structs:
// tst_structruns.cpp.
#include "structtest.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope;
using namespace structtest;

namespace {

// "b@0+4 float", an inner struct without a name spelled out in braces.
QString describe(const StructLayout &l);

QString describeField(const FieldLayout &f)
{
    QString out = qs(f.name) + u'@' + QString::number(f.offset) + u'+' + QString::number(f.size) + u' ';
    if (f.nested && f.nested->name.empty())
        return out + u'{' + describe(*f.nested) + u'}';
    return out + qs(f.declaration());
}

QString describe(const StructLayout &l)
{
    QStringList fields;
    for (const FieldLayout &f : l.fields)
        fields << describeField(f);
    return fields.join(QStringLiteral(", "));
}

// "Name: CNAME SIZE/ALIGN {fields}", union marked.
QString describe(const TypeTable &t, const std::string &name)
{
    const auto l = t.findStruct(name);
    if (!l)
        return qs(name) + QStringLiteral(": not a struct");
    return qs(name) + QStringLiteral(": ") + (l->isUnion ? QStringLiteral("union ") : QString()) +
           qs(l->name) + u' ' + QString::number(l->size) + u'/' + QString::number(l->alignment) +
           QStringLiteral(" {") + describe(*l) + u'}';
}

} // namespace

class TestStructs : public QObject, private structtest::Fixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUp(); }

    void layouts_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("expected");
        const QString lavamd =
            QStringLiteral("par_str: par_str 4/4 {alpha@0+4 float}\n"
                           "box_str: box_str 32/8 {x@0+4 int, y@4+4 int, z@8+4 int, "
                           "number@16+8 long, offset@24+8 long}\n"
                           "FOUR_VECTOR: FOUR_VECTOR 16/4 {v@0+4 float, x@4+4 float, y@8+4 "
                           "float, z@12+4 float}\n"
                           "THREE_VECTOR: THREE_VECTOR 12/4 {x@0+4 float, y@4+4 float, z@8+4 "
                           "float}");
        const QString kparam =
            QStringLiteral("KParam: KParam 72/8 {dims@0+32 long[4], strides@32+32 long[4], "
                           "offset@64+8 long}");
        const QString layouts = QStringLiteral(
            "Packed: Packed 7/1 {c@0+1 char, i@1+4 int, s@5+2 short}\n"
            "Aligned16: Aligned16 16/16 {k@0+4 int}\n"
            "Float3Member: Float3Member 32/16 {pos@0+16 float3, w@16+4 float}\n"
            "Outer: Outer 128/16 {a@0+4 int, inner@4+12 struct Inner, points@16+64 Float3Member[2], "
            "anon@80+16 {tag@0+1 uchar, d@8+8 double}, asInt@96+4 int, asFloat@96+4 float, v@112+16 float4}\n"
            "Inner_t: struct Inner 12/4 {b@0+4 float, c@4+6 short[3]}\n"
            "Word: union Word 4/4 {u@0+4 uint, bytes@0+4 uchar[4]}\n"
            "NotAnArgument: NotAnArgument 16/8 {id@0+8 ulong, value@8+4 float}");
        for (const char *device : {"pocl", "oclgrind"}) {
            QTest::addRow("lavaMD on %s", device)
                << device << "lavamd/lavamd.cl" << list({"par_str", "box_str", "FOUR_VECTOR", "THREE_VECTOR"})
                << lavamd;
            QTest::addRow("ArrayFire on %s", device)
                << device << "arrayfire.cl" << list({"KParam"}) << kparam;
            QTest::addRow("attributes, float3, nested on %s", device)
                << device << "layouts.cl"
                << list({"Packed", "Aligned16", "Float3Member", "Outer", "Inner_t", "Word", "NotAnArgument"})
                << layouts;
        }
    }

    void layouts()
    {
        QFETCH(QString, device);
        QFETCH(QString, file);
        QFETCH(QStringList, names);
        QFETCH(QString, expected);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath(file.toLatin1().constData()), d);
        QVERIFY(b.success());
        std::vector<std::string> asked;
        for (const QString &n : names)
            asked.push_back(n.toStdString());
        const TypeTable t = probeTypes(b, d, asked);
        QStringList got;
        for (const std::string &n : asked)
            got << describe(t, n);
        QCOMPARE(got.join(u'\n'), expected);
    }

    void typedefsAndOtherTypes()
    {
        const cl_device_id d = device(QStringLiteral("pocl"));
        const BuildResult b = build(dataPath("arrayfire.cl"), d);
        const TypeTable t = probeTypes(b, d, {"dim_t", "KParam", "struct nope", "float"});
        QCOMPARE(t.aliases.at("dim_t"), (ElementType{ScalarKind::Long, 1, 0}));
        QCOMPARE(t.sizeOf("dim_t"), std::optional<std::size_t>(8));
        QCOMPARE(t.sizeOf("KParam"), std::optional<std::size_t>(72));
        QVERIFY(!t.sizeOf("struct nope")); // not a type of the program: never sent to the compiler
        QCOMPARE(qs(t.knownStructs), QStringLiteral("KParam"));
    }

    void againstPyopencl_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("pocl") << "pocl";
        QTest::newRow("oclgrind") << "oclgrind";
    }

    // pyopencl asks the device the same question its own way (match_dtype_to_c_struct): both answers must
    // agree, and so must a lavaMD run on numpy arrays of pyopencl's dtypes and ours on the same inputs.
    void againstPyopencl()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"),
                {QString::fromStdString(dataPath("pyopencl_check.py")), device});
        QVERIFY(p.waitForFinished(180000));
        if (p.exitCode() != 0 && p.readAllStandardError().contains("No module named"))
            QFAIL("python3-pyopencl is missing: packaging/install-deps.sh installs it");
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject py = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonObject layouts = py.value(QLatin1String("layouts")).toObject();
        QCOMPARE(layouts.size(), 6);

        const BuildResult lavamd = build(dataPath("lavamd/lavamd.cl"), d);
        const BuildResult arrayfire = build(dataPath("arrayfire.cl"), d);
        const BuildResult others = build(dataPath("layouts.cl"), d);
        const TypeTable t1 = probeTypes(lavamd, d, {"THREE_VECTOR", "FOUR_VECTOR", "box_str", "par_str"});
        const TypeTable t2 = probeTypes(arrayfire, d, {"KParam"});
        const TypeTable t3 = probeTypes(others, d, {"Float3Member"});
        for (auto it = layouts.begin(); it != layouts.end(); ++it) {
            const std::string name = it.key().toStdString();
            auto ours = t1.findStruct(name);
            if (!ours)
                ours = t2.findStruct(name);
            if (!ours)
                ours = t3.findStruct(name);
            QVERIFY2(ours, name.c_str());
            const QJsonObject theirs = it.value().toObject();
            QCOMPARE(qint64(ours->size), theirs.value(QLatin1String("size")).toInteger());
            const QJsonObject offsets = theirs.value(QLatin1String("offsets")).toObject();
            QCOMPARE(qsizetype(ours->fields.size()), offsets.size());
            for (const FieldLayout &f : ours->fields)
                QCOMPARE(qint64(f.offset), offsets.value(qs(f.name)).toInteger(-1));
        }

        const RunResult r =
            run(lavamd, d, "kernel_gpu_opencl", {8},
                {"d_par_gpu=struct:alpha=0.5", "d_box_gpu=buffer:box_str:2:file=" + dataPath("boxes.npy"),
                 "d_rv_gpu=buffer:5:file=" + dataPath("rv.npy"), "d_qv_gpu=buffer:float:5:iota=1",
                 "d_fv_gpu=buffer:5", "d_dist=buffer:5"},
                {"d_fv_gpu"}, {4});
        const std::vector<float> fv = valuesOf<float>(*r.buffer("d_fv_gpu"));
        const QJsonArray expected = py.value(QLatin1String("lavamd_fv")).toArray();
        QCOMPARE(expected.size(), 5);
        for (int i = 0; i < 5; ++i) {
            for (int c = 0; c < 4; ++c)
                QCOMPARE(fv[std::size_t(i * 4 + c)], float(expected[i].toArray()[c].toDouble()));
        }
    }

    // One probe per build and device: every copy of the result shares the answer, and the answer is in the
    // binary cache next to the program, where a later build of the same program finds it.
    void keptWithTheBuild()
    {
        const cl_device_id d = device(QStringLiteral("pocl"));
        QTemporaryDir dir;
        const BinaryCache cache(dir.path().toStdString());
        const BuildResult b = build(dataPath("lavamd/lavamd.cl"), d, cache);
        QCOMPARE(b.cache(), CacheState::Miss);
        const std::vector<std::string> names = unknownArgumentTypes(*b.kernel("kernel_gpu_opencl"));
        QCOMPARE(names, (std::vector<std::string>{"par_str", "box_str", "FOUR_VECTOR", "THREE_VECTOR"}));
        QCOMPARE(b.memo().size(), std::size_t(0));
        const TypeTable first = probeTypes(b, d, names);
        QCOMPARE(b.memo().size(), std::size_t(1));
        const BuildResult copy = b;
        probeTypes(copy, d, {"box_str"});
        QCOMPARE(copy.memo().size(), std::size_t(1)); // the same probe: every argument type of the program
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2); // the binary and the layouts

        // Change the answer on disk (par_str's alignment, the second value) and a new build reads it back.
        const CacheKey key = layoutCacheKey(*b.cacheKey(d), layoutProbeKernel(buildSourceTypes(b, d), names));
        const auto entry = cache.load(key);
        QVERIFY(entry);
        QStringList values = QString::fromLatin1(reinterpret_cast<const char *>(entry->binary.data()),
                                                 qsizetype(entry->binary.size()))
                                 .split(u' ');
        QCOMPARE(values.mid(0, 6), (list({"clscope", "struct", "layout", "1", "4", "4"})));
        values[5] = QStringLiteral("64");
        const QByteArray changed = values.join(u' ').toLatin1();
        QVERIFY(cache.store(key, {std::vector<unsigned char>(changed.begin(), changed.end()), {}}));
        const BuildResult again = build(dataPath("lavamd/lavamd.cl"), d, cache);
        QCOMPARE(again.cache(), CacheState::Hit);
        QCOMPARE(again.memo().size(), std::size_t(0));
        QCOMPARE(probeTypes(again, d, names).findStruct("par_str")->alignment, std::size_t(64));
        QCOMPARE(first.findStruct("par_str")->alignment, std::size_t(4));
    }

    // The reader takes the #else branch (it cannot know the compiler is clang): the probe does not build,
    // a bytesN value still runs, a struct value is refused with the compiler's reason.
    void probeThatDoesNotBuild()
    {
        const cl_device_id d = device(QStringLiteral("pocl"));
        const BuildResult b = build(dataPath("unreadable.cl"), d);
        QVERIFY(b.success());
        const QString e = errorOf([&] { probeTypes(b, d, {"Hidden"}); });
        QVERIFY2(
            e.startsWith(QStringLiteral("ClError: layout probe failed: BUILD_PROGRAM_FAILURE: the probe did "
                                        "not build: no member named 'other' in 'Hidden'")),
            qPrintable(e));
        const RunResult r = run(b, d, "k", {1}, {"h=bytes4:05000000", "out=buffer:int:1"}, {"out"});
        QCOMPARE(valuesOf<int>(*r.buffer("out")), std::vector<int>{5});
        const QString refused = errorOf([&] {
            run(b, d, "k", {1}, {"h=struct:seen=5", "out=buffer:int:1"}, {"out"});
        });
        QVERIFY2(
            refused.startsWith(QStringLiteral("h: the layout of Hidden could not be asked of the device: the "
                                              "probe did not build: no member named 'other' in 'Hidden'")),
            qPrintable(refused));
    }
};

QTEST_GUILESS_MAIN(TestStructs)
#include "tst_structs.moc"
