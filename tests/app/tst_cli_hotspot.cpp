// A Rodinia-shaped workload from one clscope-cli run line (issue 14): tests/data/hotspot/hotspot.cl, a
// kernel of the shape of Rodinia's OpenCL hotspot (a 2-D thermal stencil on a __local 16x16 tile, a
// pyramid of two time steps per launch, thirteen arguments, one of them `step`, which PoCL reports as
// `_cl_step`), run on a 64x64 grid from .npy inputs on PoCL and Oclgrind with the same arguments, and its
// temp_dst saved with --save equal byte for byte to pyopencl's run of the same kernel on the same device
// (pyopencl_hotspot.py, which also checks its result against a numpy model of the two steps).
#include "clitest.h"
#include "testicd.h"

#include "clscope/npy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

namespace {

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/hotspot/") + QLatin1String(name);
}

using clitest::words;

// The scalars of the launch, as given to clscope-cli (--arg NAME=VALUE) and to the reference script, the
// same text for both: Rodinia's host's values for a 64x64 grid of its 16 mm chip, two steps a launch.
const char *const kScalars = "iteration=2 grid_cols=64 grid_rows=64 border_cols=2 border_rows=2 "
                             "Cap=2.734375e-5 Rx=10 Ry=10 Rz=80 step=1.4583333e-7";

// The one run line, the same on every device but for --device: global = ceil(64 / (16 - 2 * 2)) * 16 per
// axis, as Rodinia's host computes it.
QStringList hotspot(const QString &device)
{
    QStringList args{dataPath("hotspot.cl"), QStringLiteral("--device"), device};
    args << words("--kernel hotspot --global 96,96 --local 16,16");
    args << QStringLiteral("--arg")
         << QStringLiteral("power=buffer:float:4096:file=") + dataPath("power_64.npy");
    args << QStringLiteral("--arg")
         << QStringLiteral("temp_src=buffer:float:4096:file=") + dataPath("temp_64.npy");
    args << QStringLiteral("--arg") << QStringLiteral("temp_dst=buffer:float:4096");
    for (const QString &scalar : words(kScalars))
        args << QStringLiteral("--arg") << scalar;
    return args;
}

// Where two float32 arrays of one size differ: the count and the first cell, as a failure message.
QByteArray firstDifference(const std::vector<unsigned char> &got, const std::vector<unsigned char> &want)
{
    int count = 0;
    QByteArray first;
    for (std::size_t i = 0; i + 4 <= got.size(); i += 4) {
        if (std::memcmp(&got[i], &want[i], 4) == 0)
            continue;
        if (count++ == 0) {
            float a = 0, b = 0;
            std::memcpy(&a, &got[i], 4);
            std::memcpy(&b, &want[i], 4);
            first = QByteArray("first at cell ") + QByteArray::number(qulonglong(i / 4)) + ": clscope-cli " +
                    QByteArray::number(a, 'g', 9) + ", pyopencl " + QByteArray::number(b, 'g', 9);
        }
    }
    return QByteArray::number(count) + " cells differ from pyopencl's; " + first;
}

} // namespace

class TestCliHotspot : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_vendors;
    QTemporaryDir m_out;
    bool m_haveOclgrind = false;

    clitest::Result cli(const QStringList &args) const { return clitest::run(args, m_cache.path()); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid() && m_out.isValid());
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        const clitest::Result probe =
            cli(QStringList{QStringLiteral("run")} + hotspot(QStringLiteral("pocl")));
        if (probe.exitCode != 0)
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(probe.err)));
    }

    void devices_data() { clitest::deviceRows(); }

    // The kernel's arguments under the source's names on both devices, `step` too, though PoCL's
    // clGetKernelArgInfo answers `_cl_step` for it.
    void argumentNames_data() { devices_data(); }
    void argumentNames()
    {
        QFETCH(QString, device);
        if (device == QStringLiteral("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const clitest::Result r = cli({QStringLiteral("build"), dataPath("hotspot.cl"),
                                       QStringLiteral("--device"), device, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray kernels =
            QJsonDocument::fromJson(r.out).object().value(QLatin1String("kernels")).toArray();
        QCOMPARE(kernels.size(), 1);
        QStringList names;
        for (const QJsonValue &arg : kernels[0].toObject().value(QLatin1String("args")).toArray())
            names << arg.toObject().value(QLatin1String("name")).toString();
        QCOMPARE(names,
                 words("iteration power temp_src temp_dst grid_cols grid_rows border_cols border_rows Cap "
                       "Rx Ry Rz step"));
    }

    // One run line gives pyopencl's temp_dst exactly.
    void againstPyopencl_data() { devices_data(); }
    void againstPyopencl()
    {
        QFETCH(QString, device);
        if (device == QStringLiteral("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QString dir = m_out.filePath(device);
        QVERIFY(QDir().mkpath(dir));
        QByteArray missing;
        const clitest::Result py = clitest::python(
            QStringList{dataPath("pyopencl_hotspot.py"), device, dir} + words(kScalars), &missing);
        if (!missing.isEmpty())
            QFAIL(missing.constData());
        QVERIFY2(py.exitCode == 0, py.err.constData());
        QVERIFY2(py.out.contains("\nglobal 96,96\n"), "the script's sizes differ from ours");

        const QString ours = dir + QStringLiteral("/temp_dst-clscope.npy");
        const clitest::Result r = cli(QStringList{QStringLiteral("run")} + hotspot(device)
                                      << QStringLiteral("--save") << QStringLiteral("temp_dst=") + ours);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("Kernel hotspot on "), r.out.constData());
        const clscope::NpyArray got = clscope::readNpyFile(ours.toStdString());
        const clscope::NpyArray want =
            clscope::readNpyFile(QString(dir + QStringLiteral("/temp_dst.npy")).toStdString());
        QVERIFY(got.dtype == clscope::ScalarKind::Float);
        QCOMPARE(got.shape, (std::vector<std::size_t>{4096}));
        QVERIFY(got.dtype == want.dtype && got.shape == want.shape);
        QVERIFY2(got.data == want.data, firstDifference(got.data, want.data).constData());
    }

    // The same line with --check: Oclgrind finds no race on the __local tile, no read past the grid and no
    // divergence at the barriers of the pyramid's loop.
    void oclgrindCheckClean()
    {
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const clitest::Result r = cli(QStringList{QStringLiteral("run")} + hotspot(QStringLiteral("oclgrind"))
                                      << QStringLiteral("--check"));
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains("\nOclgrind check: clean\n"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliHotspot)
#include "tst_cli_hotspot.moc"
