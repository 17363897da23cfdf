// Structs on PoCL and Oclgrind, with kernels after the patterns of real projects (tests/data/structs):
// Rodinia lavaMD's THREE_VECTOR, FOUR_VECTOR, box_str and par_str (structs in a header, fp a macro),
// ArrayFire's KParam, packed and aligned structs, a float3 member, nested, anonymous and union members.
// Layouts are the device's, compared with values worked out by hand, kept with the build and in the
// binary cache; and pyopencl's cfloat_t in runs.
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/runner.h"
#include "clscope/structs.h"
#include "testicd.h"

#include <QDir>
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

    void complexNumbers_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("pocl") << "pocl";
        QTest::newRow("oclgrind") << "oclgrind";
    }

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
};

QTEST_GUILESS_MAIN(TestStructs)
#include "tst_structs.moc"
