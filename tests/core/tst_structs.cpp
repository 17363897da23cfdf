// Structs on PoCL and Oclgrind, with kernels after the patterns of real projects (tests/data/structs):
// Rodinia lavaMD's THREE_VECTOR, FOUR_VECTOR, box_str in buffers and par_str by value (structs in a header,
// fp a macro), ArrayFire's KParam by value, packed and aligned structs, a float3 member, nested, anonymous
// and union members, pyopencl's cfloat_t. Layouts are the device's (compared with values worked out by
// hand and with what pyopencl's match_dtype_to_c_struct asks the same device), kept with the build and in
// the binary cache; runs are compared with results computed here and with pyopencl's run of lavaMD; a
// bytesN of the wrong size, an unknown field and the other mistakes are refused naming what is wrong.
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/runner.h"
#include "clscope/structs.h"
#include "testicd.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace clscope;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/structs/") + name;
}

std::vector<ArgValue> specs(const std::vector<std::string> &texts)
{
    std::vector<ArgValue> out;
    for (const std::string &s : texts)
        out.push_back(parseArgSpec(s));
    return out;
}

QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out << QString::fromLatin1(i);
    return out;
}

std::vector<std::string> strings(const QStringList &items)
{
    std::vector<std::string> out;
    for (const QString &i : items)
        out.push_back(i.toStdString());
    return out;
}

template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const RunInputError &e) {
        return QString::fromUtf8(e.what());
    } catch (const ClError &e) {
        return QStringLiteral("ClError: ") + QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

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

template<typename T> std::vector<T> valuesOf(const BufferData &data)
{
    std::vector<T> out(data.bytes.size() / sizeof(T));
    std::memcpy(out.data(), data.bytes.data(), out.size() * sizeof(T));
    return out;
}

} // namespace

class TestStructs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    QTemporaryDir m_cacheDir;
    bool m_haveOclgrind = false;

    cl_device_id device(const QString &name) const
    {
        if (name == QStringLiteral("oclgrind") && !m_haveOclgrind)
            return nullptr;
        return selectDevice(name.toStdString()).device;
    }

    static BuildResult build(const std::string &path, cl_device_id device, const BinaryCache &cache = {})
    {
        BuildRequest r;
        r.devices = {device};
        r.sourcePath = path;
        return buildProgram(r, cache);
    }

    static RunResult run(const BuildResult &b, cl_device_id device, const char *kernel,
                         std::vector<std::size_t> global, const std::vector<std::string> &args,
                         std::vector<std::string> readBack, std::vector<std::size_t> local = {})
    {
        RunRequest r;
        r.build = b;
        r.device = device;
        r.kernel = kernel;
        r.range.global = std::move(global);
        r.range.local = std::move(local);
        r.args = specs(args);
        r.readBack = std::move(readBack);
        return runKernel(r);
    }

    static QString structs(const BufferData &b)
    {
        QStringList out;
        for (std::size_t i = 0; i < b.count; ++i)
            out << qs(formatStruct(*b.layout, b.bytes.data() + i * b.type.size()));
        return out.join(u' ');
    }

private slots:
    void initTestCase()
    {
        // Oclgrind as a second platform, through a vendors folder of our own; the build cache in a folder
        // of this suite, so that nothing from another run is a hit.
        m_haveOclgrind = m_vendors.isValid() && test::setUpVendors(m_vendors, false);
        qputenv("CLSCOPE_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
        qunsetenv("CLSCOPE_NO_CACHE");
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        try {
            selectDevice("pocl");
        } catch (const std::exception &e) {
            QSKIP(e.what());
        }
    }

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

    void lavamd_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("pocl") << "pocl";
        QTest::newRow("oclgrind") << "oclgrind";
    }

    // The forces worked out here from the same inputs: each particle against the particles of its box.
    void lavamd()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath("lavamd/lavamd.cl"), d);
        QVERIFY(b.success());
        const RunResult r = run(
            b, d, "kernel_gpu_opencl", {8},
            {"d_par_gpu=struct:alpha=0.5", "d_box_gpu=buffer:box_str:2:fill={x=0,y=0,z=0,number=2,offset=0}",
             "d_rv_gpu=buffer:FOUR_VECTOR:5:file=" + dataPath("rv.npy"), "d_qv_gpu=buffer:float:5:iota=1",
             "d_fv_gpu=buffer:5", "d_dist=buffer:THREE_VECTOR:5:fill={x=-1,y=-1,z=-1}"},
            {"d_fv_gpu", "d_dist", "d_box_gpu"}, {4});
        // Both boxes hold particles 0 and 1: (0,0,0) with charge 1 and (1,0,0) with charge 2.
        const float pos[2][3] = {{0, 0, 0}, {1, 0, 0}};
        const float q[2] = {1, 2};
        const float a2 = 2 * 0.5f * 0.5f;
        QString expected;
        for (int i = 0; i < 2; ++i) {
            float f[4] = {0, 0, 0, 0};
            for (int j = 0; j < 2; ++j) {
                const float dx = pos[i][0] - pos[j][0], dy = pos[i][1] - pos[j][1],
                            dz = pos[i][2] - pos[j][2];
                const float s = q[j] * (a2 * (dx * dx + dy * dy + dz * dz) + 1);
                f[0] += s;
                f[1] += s * dx;
                f[2] += s * dy;
                f[3] += s * dz;
            }
            expected += QStringLiteral("{v=%1,x=%2,y=%3,z=%4} ").arg(f[0]).arg(f[1]).arg(f[2]).arg(f[3]);
        }
        QCOMPARE(structs(*r.buffer("d_fv_gpu")),
                 expected + QStringLiteral("{v=0,x=0,y=0,z=0} {v=0,x=0,y=0,z=0} {v=0,x=0,y=0,z=0}"));
        QCOMPARE(
            structs(*r.buffer("d_dist")),
            QStringLiteral("{x=0,y=0,z=0} {x=0,y=0,z=0} {x=-1,y=-1,z=-1} {x=-1,y=-1,z=-1} {x=-1,y=-1,z=-1}"));
        QCOMPARE(r.buffer("d_box_gpu")->layout->name, std::string("box_str"));
        QCOMPARE(r.buffer("d_box_gpu")->bytes.size(), std::size_t(64));
    }

    void arrayfire_data() { lavamd_data(); }

    void arrayfire()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath("arrayfire.cl"), d);
        // A 3x2 matrix (x fastest) transposed into a 2x3 one.
        const RunResult t =
            run(b, d, "transpose", {3, 2},
                {"out=buffer:float:6", "oInfo=struct:dims=(2,3,1,1),strides=(1,2,6,6),offset=0",
                 "in=buffer:float:6:iota", "iInfo=struct:dims=(3,2,1,1),strides=(1,3,6,6)"},
                {"out"});
        QCOMPARE(valuesOf<float>(*t.buffer("out")), (std::vector<float>{0, 3, 1, 4, 2, 5}));
        // Every field comes back where the device put it, nested or flat, longs past 2^32.
        const RunResult e = run(
            b, d, "echo", {1},
            {"p=struct:dims=((1),(2),(3),(4)),strides=(-1,0,4294967296,9),offset=77", "out=buffer:long:9"},
            {"out"});
        QCOMPARE(valuesOf<std::int64_t>(*e.buffer("out")),
                 (std::vector<std::int64_t>{1, 2, 3, 4, -1, 0, 4294967296, 9, 77}));
    }

    void shapes_data() { lavamd_data(); }

    // Packed, aligned, float3, nested, anonymous and union members by value and in buffers, and a struct no
    // kernel names, asked by name for a void pointer.
    void shapes()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath("layouts.cl"), d);
        QVERIFY(b.success());
        const RunResult packed =
            run(b, d, "packed_in", {1}, {"p=struct:c=-3,i=100000,s=-2", "out=buffer:int:4"}, {"out"});
        QCOMPARE(valuesOf<int>(*packed.buffer("out")), (std::vector<int>{-3, 100000, -2, 7}));
        const RunResult aligned =
            run(b, d, "aligned_in", {1}, {"a=struct:k=5", "p=struct:i=9", "out=buffer:int:2"}, {"out"});
        QCOMPARE(valuesOf<int>(*aligned.buffer("out")), (std::vector<int>{5, 9}));
        const RunResult f3 =
            run(b, d, "float3_in", {2}, {"m=struct:pos=(1,2,3),w=4", "out=buffer:2"}, {"out"});
        QCOMPARE(structs(*f3.buffer("out")), QStringLiteral("{pos=(1,2,3),w=4} {pos=(2,4,6),w=5}"));
        const RunResult nested =
            run(b, d, "nested", {2},
                {"v=struct:a=5,inner={b=1.5,c=(1,2,3)},points=({pos=(1,2,3),w=4},{w=5}),"
                 "anon={tag=7,d=0.25},asFloat=1.5,v=(1,2,3,4)",
                 "in=struct:b=9,c=(10,20,30)", "word=struct:bytes=(1,2,3,4)", "o=buffer:2"},
                {"o"});
        const QString element =
            QStringLiteral("inner={b=1.5,c=(1,2,60)},points=({pos=(1,2,3),w=4},{pos=(0,9,0),"
                           "w=5}),anon={tag=7,d=0.5},asInt=67305985,asFloat=1.5399896e-36,"
                           "v=(1,2,3,4)}");
        QCOMPARE(structs(*nested.buffer("o")), u"{a=5," + element + u" {a=6," + element);
        const RunResult raw =
            run(b, d, "raw_words", {4},
                {"data=buffer:NotAnArgument:2:fill={id=0x0102030405060708,value=1}", "out=buffer:uint:4"},
                {"out", "data"});
        QCOMPARE(valuesOf<std::uint32_t>(*raw.buffer("out")),
                 (std::vector<std::uint32_t>{0x05060708u, 0x01020304u, 0x3f800000u, 0}));
        QCOMPARE(raw.buffer("data")->layout->name, std::string("NotAnArgument"));
    }

    void complexNumbers_data() { lavamd_data(); }

    // pyopencl-complex.h comes from the installed pyopencl's folder; cfloat_t by value, in buffers, from a
    // complex64 .npy file.
    void complexNumbers()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        if (pyopenclIncludeDirectory().empty())
            QFAIL("python3-pyopencl is missing: packaging/install-deps.sh installs it");
        const BuildResult b = build(dataPath("complex.cl"), d);
        QVERIFY2(b.success(), b.logs().front().log.c_str());
        QVERIFY(b.options().find("-I " + pyopenclIncludeDirectory()) != std::string::npos);
        const RunResult r =
            run(b, d, "scale", {3},
                {"a=buffer:cfloat_t:3:file=" + dataPath("complex64.npy"), "s=0+2j", "out=buffer:3"}, {"out"});
        // (1+2j, 3-1j, -0.5j) * 2j + i
        QCOMPARE(r.buffer("out")->type, ElementType::complexOf(ScalarKind::Float));
        QCOMPARE(valuesOf<float>(*r.buffer("out")), (std::vector<float>{-4, 2, 3, 6, 3, 0}));
        const RunResult m =
            run(b, d, "magnitude", {2}, {"a=buffer:2:fill=3-4j", "out=buffer:float:2"}, {"out"});
        QCOMPARE(valuesOf<float>(*m.buffer("out")), (std::vector<float>{5, 5}));
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

    void refused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("argument");
        const QStringList lavamd =
            list({"d_par_gpu=struct:alpha=1", "d_box_gpu=buffer:box_str:2", "d_rv_gpu=buffer:5",
                  "d_qv_gpu=buffer:float:5", "d_fv_gpu=buffer:5", "d_dist=buffer:5"});
        const auto with = [&](const QString &replacement) {
            QStringList out = lavamd;
            const QString name = replacement.section(u'=', 0, 0);
            for (QString &a : out) {
                if (a.section(u'=', 0, 0) == name)
                    a = replacement;
            }
            return out;
        };
        const QString structs = QStringLiteral("THREE_VECTOR, FOUR_VECTOR, box_str, par_str");
        QTest::newRow("unknown field")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=struct:alpah=1"))
            << "d_par_gpu: par_str has no field 'alpah' (fields: alpha)"
            << "d_par_gpu";
        QTest::newRow("unknown field inside")
            << "layouts.cl"
            << "nested" << list({"v=struct:inner={bb=1}", "in=struct:", "word=struct:", "o=buffer:1"})
            << "v.inner: struct Inner has no field 'bb' (fields: b, c)"
            << "v";
        QTest::newRow("bytesN of another size by value")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=bytes8:0000000000000000"))
            << "d_par_gpu: bytes8 is 8 bytes, but the par_str argument is 4 bytes"
            << "d_par_gpu";
        QTest::newRow("bytesN of another size in a buffer")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:bytes24:2"))
            << "d_box_gpu: bytes24 is 24 bytes, but the elements of the __global const box_str* argument "
               "(box_str) are 32 bytes"
            << "d_box_gpu";
        QTest::newRow("another struct's buffer")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:FOUR_VECTOR:2"))
            << "d_box_gpu: a buffer of FOUR_VECTOR was given for the __global const box_str* argument"
            << "d_box_gpu";
        QTest::newRow("a struct buffer for floats")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_qv_gpu=buffer:box_str:5"))
            << "d_qv_gpu: a buffer of box_str was given for the __global const float* argument"
            << "d_qv_gpu";
        QTest::newRow("unknown struct")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:Particle:2"))
            << QStringLiteral("d_box_gpu: unknown type 'Particle' (types: ") + qs(elementTypeNames()) +
                   QStringLiteral("; structs of the program: ") + structs + u')'
            << "d_box_gpu";
        QTest::newRow("iota of structs")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:box_str:2:iota"))
            << "d_box_gpu: iota is for numbers; a buffer of box_str takes zeros, fill={FIELD=VALUE,...}, "
               "file=PATH or copy=NAME"
            << "d_box_gpu";
        QTest::newRow("a number for a struct")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=0.5"))
            << "d_par_gpu: the par_str argument is a struct: give d_par_gpu=struct:FIELD=VALUE,..."
            << "d_par_gpu";
        QTest::newRow("a struct for a number") << "layouts.cl"
                                               << "packed_in" << list({"p=struct:c=1", "out=struct:x=1"})
                                               << "out: a struct value was given for the __global int* "
                                                  "argument (use out=buffer:int:COUNT[:INIT])"
                                               << "out";
        QTest::newRow("field out of range") << "layouts.cl"
                                            << "packed_in" << list({"p=struct:c=300", "out=buffer:int:4"})
                                            << "p.c: 300 is out of range for char (-128..127)"
                                            << "p";
        QTest::newRow("vector field count") << "layouts.cl"
                                            << "float3_in" << list({"m=struct:pos=(1,2)", "out=buffer:1"})
                                            << "m.pos: float3 needs 3 values, got 2 ('1,2')"
                                            << "m";
        QTest::newRow("array field count") << "arrayfire.cl"
                                           << "echo" << list({"p=struct:dims=(1,2,3)", "out=buffer:long:9"})
                                           << "p.dims: long[4] needs 4 elements, got 3"
                                           << "p";
        QTest::newRow("struct fill field")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:2:fill={w=1}"))
            << "d_box_gpu: box_str has no field 'w' (fields: x, y, z, number, offset)"
            << "d_box_gpu";
        QTest::newRow("missing struct argument")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << lavamd.mid(1)
            << "missing argument 'd_par_gpu' (par_str) of kernel kernel_gpu_opencl: give "
               "d_par_gpu=struct:FIELD=VALUE,..."
            << "d_par_gpu";
        QTest::newRow("struct of another type")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=struct:box_str:x=1"))
            << "d_par_gpu: struct box_str was given for the par_str argument"
            << "d_par_gpu";
    }

    void refused()
    {
        QFETCH(QString, file);
        QFETCH(QString, kernel);
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QFETCH(QString, argument);
        const cl_device_id d = device(QStringLiteral("pocl"));
        const BuildResult b = build(dataPath(file.toLatin1().constData()), d);
        QVERIFY(b.success());
        const QByteArray k = kernel.toLatin1();
        QCOMPARE(errorOf([&] { run(b, d, k.constData(), {1}, strings(args), {}); }), message);
        try {
            run(b, d, k.constData(), {1}, strings(args), {});
        } catch (const RunInputError &e) {
            QCOMPARE(qs(e.argument()), argument);
        }
    }
};

QTEST_GUILESS_MAIN(TestStructs)
#include "tst_structs.moc"
