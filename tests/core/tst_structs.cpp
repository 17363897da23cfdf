// pyopencl's complex numbers on PoCL and Oclgrind: complex.cl includes pyopencl-complex.h from the
// installed pyopencl's folder (added to the build as pyopencl adds it), cfloat_t by value, in buffers and
// from a complex64 .npy file, results compared with values worked out here.
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/runner.h"
#include "testicd.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace clscope;

namespace {

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

    void complexNumbers_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("pocl") << "pocl";
        QTest::newRow("oclgrind") << "oclgrind";
    }

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
};

QTEST_GUILESS_MAIN(TestStructs)
#include "tst_structs.moc"
