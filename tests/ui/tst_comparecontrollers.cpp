// The controllers behind Build matrix, Run on all devices and Show generated code, without a window, on
// PoCL and (through a vendors folder of the test's own) Oclgrind: a matrix of two option sets on every
// device with its figures, a matrix cancelled at once, "time it" on the built cells, a run on every device
// with one row per device and the outputs compared (equal ones agree, and a kernel that computes something
// device-specific is caught), and a build's generated code.
#include "controllers/codecontroller.h"
#include "controllers/matrixcontroller.h"
#include "controllers/runallcontroller.h"
#include "workers/deviceworkers.h"

#include "../testicd.h"
#include "workerfence.h"

#include "clscope/devicespec.h"
#include "clscope/kernelargs.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace clscope;
using namespace clscope::ui;

namespace {
const char *const kSource = R"(
__kernel void scale(__global float *out, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n)
        out[i] = (float)i * 0.5f + 1.0f;
}
// Computes something else on Oclgrind on purpose (its builds get -D CLSCOPE_USING_OCLGRIND), as a kernel
// with a device-dependent bug would.
__kernel void devicespecific(__global int *out)
{
#ifdef CLSCOPE_USING_OCLGRIND
    out[get_global_id(0)] = 7;
#else
    out[get_global_id(0)] = 1;
#endif
}
)";
} // namespace

class TestCompareControllers : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    QTemporaryDir m_cache;
    std::shared_ptr<DeviceWorkers> m_workers = std::make_shared<DeviceWorkers>();
    std::vector<DeviceTarget> m_devices;
    bool m_haveOclgrind = false;

    MatrixJob matrixJob() const
    {
        MatrixJob job;
        job.source = QString::fromLatin1(kSource);
        job.sets = {QString(), QStringLiteral("-cl-fast-relaxed-math -DEXTRA=1")};
        job.devices = m_devices;
        return job;
    }

    // out[0] = 1+1+...+1, 100,000 terms: a compiler crash with CLSCOPE_COMPILER_STACK_MIB=16 (the program of
    // tst_cli_driverfaults and tst_buildgui).
    static QString deepSource()
    {
        QByteArray sum = "1";
        for (int i = 1; i < 100000; ++i)
            sum += "+1";
        return QString::fromLatin1("kernel void deep(global int *out)\n{\n    out[0] = " + sum + ";\n}\n");
    }

    RunRequest launch(const char *kernel) const
    {
        RunRequest r;
        r.kernel = kernel;
        r.range.global = {64};
        if (std::string(kernel) == "scale")
            r.args = {parseArgSpec("out=buffer:float:64:zeros"), parseArgSpec("n=uint:64")};
        else
            r.args = {parseArgSpec("out=buffer:int:64:zeros")};
        r.repeat = 2;
        return r;
    }

    std::vector<DeviceWorker *> deviceWorkers() const
    {
        std::vector<DeviceWorker *> workers;
        for (const DeviceTarget &d : m_devices)
            workers.push_back(&m_workers->forDevice(d.id));
        return workers;
    }

private slots:
    void initTestCase()
    {
        m_haveOclgrind = clscope::test::setUpVendors(m_vendors, false);
        qputenv("CLSCOPE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        try {
            for (const SelectedDevice &d : selectDevices(m_haveOclgrind ? "pocl;oclgrind" : "pocl"))
                m_devices.push_back(
                    {d.device, QString::fromStdString(d.deviceName), QString::fromStdString(d.platformName)});
        } catch (const std::exception &e) {
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(e.what())));
        }
        QVERIFY(!m_devices.empty());
    }

    void matrixBuildsEverySetOnEveryDevice()
    {
        MatrixController matrix(m_workers);
        QSignalSpy finished(&matrix, &MatrixController::finished);
        QSignalSpy cells(&matrix, &MatrixController::cellChanged);
        QVERIFY(matrix.start(matrixJob()));
        QVERIFY(matrix.isBusy());
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(matrix.rows(), 2);
        QCOMPARE(matrix.columns(), int(m_devices.size()));
        QCOMPARE(cells.size(), 2 * int(m_devices.size()));
        for (int s = 0; s < 2; ++s) {
            for (int d = 0; d < matrix.columns(); ++d) {
                const MatrixCellResult &c = matrix.cell(s, d);
                QVERIFY(c.done);
                QVERIFY2(c.cell.success, c.cell.log.c_str());
                QCOMPARE(QString::fromStdString(c.cell.options), matrix.job().sets[s]);
                QCOMPARE(QString::fromStdString(c.cell.device), m_devices[std::size_t(d)].name);
                QVERIFY(c.cell.buildMs > 0);
                QVERIFY(c.cell.binaryBytes > 0);
                QCOMPARE(c.cell.kernels.size(), std::size_t(2));
                QCOMPARE(c.cell.kernels.front().workGroups.size(), std::size_t(1));
                QVERIFY(c.build.success());
                // The set's options reached the driver, after the base options.
                if (s == 1)
                    QVERIFY(QString::fromStdString(c.build.options()).contains(QStringLiteral("-DEXTRA=1")));
                // A new program to the driver's own cache, as build --matrix makes it.
                QVERIFY(QString::fromStdString(c.build.options())
                            .contains(QStringLiteral("CLSCOPE_MATRIX_BUILD=")));
            }
        }

        // Time it: the launch with each cell's build on its device.
        QSignalSpy timed(&matrix, &MatrixController::timingFinished);
        QVERIFY(matrix.timeIt(launch("scale")));
        QVERIFY(timed.wait(240000));
        QCOMPARE(timed.at(0).at(0).toBool(), false);
        for (int s = 0; s < 2; ++s) {
            for (int d = 0; d < matrix.columns(); ++d) {
                const MatrixCellResult &c = matrix.cell(s, d);
                QVERIFY2(c.medianNs.has_value(), qPrintable(c.timeError));
                QVERIFY(*c.medianNs > 0);
                QCOMPARE(c.launches, MatrixController::kMinLaunches);
            }
        }
    }

    void matrixWithABadSetShowsTheError()
    {
        MatrixController matrix(m_workers);
        QSignalSpy finished(&matrix, &MatrixController::finished);
        MatrixJob job = matrixJob();
        job.sets = {QStringLiteral("-DBROKEN=\"unterminated")};
        job.devices = {m_devices.front()};
        QVERIFY(matrix.start(job));
        QVERIFY(finished.wait(120000));
        QVERIFY(!matrix.cell(0, 0).cell.success);
        QVERIFY(!matrix.cell(0, 0).cell.firstError.empty());
        QVERIFY(!matrix.timeIt(launch("scale"))); // nothing built
    }

    // A set the compiler crashes on fails its cell; the process lives on.
    void matrixSurvivesACompilerCrash()
    {
        MatrixController matrix(m_workers);
        matrix.setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        QSignalSpy finished(&matrix, &MatrixController::finished);
        MatrixJob job = matrixJob();
        job.source = deepSource();
        job.sets = {QString()};
        job.devices = {m_devices.front()};
        qputenv("CLSCOPE_COMPILER_STACK_MIB", "16");
        QVERIFY(matrix.start(job));
        const bool done = finished.wait(600000);
        qunsetenv("CLSCOPE_COMPILER_STACK_MIB");
        QVERIFY(done);
        QVERIFY(!matrix.cell(0, 0).cell.success);
        QVERIFY2(QString::fromStdString(matrix.cell(0, 0).cell.log)
                     .contains(QStringLiteral("the compiler crashed")),
                 matrix.cell(0, 0).cell.log.c_str());
    }

    void matrixCancelledAtOnce()
    {
        MatrixController matrix(m_workers);
        QSignalSpy finished(&matrix, &MatrixController::finished);
        QSignalSpy cells(&matrix, &MatrixController::cellChanged);
        QVERIFY(matrix.start(matrixJob()));
        matrix.cancel();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!matrix.isBusy());
        // The builds under way finish on their workers; their results never arrive.
        QVERIFY(clscope::test::fence(deviceWorkers()));
        QCOMPARE(cells.size(), 0);
        QCOMPARE(finished.size(), 1);
        QVERIFY(!matrix.start(MatrixJob()));
    }

    void runAllGivesOneRowPerDevice()
    {
        RunAllController runs(m_workers);
        QSignalSpy finished(&runs, &RunAllController::finished);
        RunAllJob job;
        job.source = QString::fromLatin1(kSource);
        job.launch = launch("scale");
        job.devices = m_devices;
        QVERIFY(runs.start(job));
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(runs.rows().size(), m_devices.size());
        for (std::size_t i = 0; i < runs.rows().size(); ++i) {
            const RunAllRow &r = runs.rows()[i];
            QVERIFY2(r.ran, qPrintable(r.error));
            QCOMPARE(r.device.name, m_devices[i].name);
            QCOMPARE(r.reference, i == 0);
            QVERIFY(r.medianNs && *r.medianNs > 0);
            QCOMPARE(r.launches, 2);
            QVERIFY(r.wallMs > 0);
            QVERIFY(r.compared);
            QCOMPARE(r.buffers.size(), std::size_t(1));
            QCOMPARE(r.buffers.front().name, std::string("out"));
            QVERIFY(r.agrees());
        }
    }

    // A compiler that crashes on one device fails that device's row; the process lives on (it ended with
    // "the compiler crashed" when run-all built in the window's process).
    void runAllSurvivesACompilerCrash()
    {
        RunAllController runs(m_workers);
        runs.setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        QSignalSpy finished(&runs, &RunAllController::finished);
        RunAllJob job;
        job.source = deepSource();
        job.launch = launch("deep");
        job.devices = m_devices;
        qputenv("CLSCOPE_COMPILER_STACK_MIB", "16");
        QVERIFY(runs.start(job));
        const bool done = finished.wait(600000);
        qunsetenv("CLSCOPE_COMPILER_STACK_MIB");
        QVERIFY(done);
        int crashed = 0;
        for (const RunAllRow &r : runs.rows()) {
            QVERIFY2(r.ran || !r.error.isEmpty(), qPrintable(r.device.name));
            crashed += r.error.contains(QStringLiteral("the compiler crashed")) ? 1 : 0;
        }
        QVERIFY(crashed >= 1);
    }

    void runAllFlagsOutputsThatDiffer()
    {
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed: one device cannot differ from another");
        RunAllController runs(m_workers);
        QSignalSpy finished(&runs, &RunAllController::finished);
        RunAllJob job;
        job.source = QString::fromLatin1(kSource);
        job.launch = launch("devicespecific");
        job.devices = m_devices;
        QVERIFY(runs.start(job));
        QVERIFY(finished.wait(240000));
        const auto &rows = runs.rows();
        QCOMPARE(rows.size(), std::size_t(2));
        // The first device is the reference; the other computed something else.
        QVERIFY(rows[0].reference);
        QVERIFY(rows[0].agrees());
        QVERIFY(rows[1].compared);
        QVERIFY(!rows[1].agrees());
        QCOMPARE(rows[1].buffers.front().differing, std::size_t(64));
        QVERIFY(rows[1].buffers.front().exact);
    }

    void runAllCancelled()
    {
        RunAllController runs(m_workers);
        QSignalSpy finished(&runs, &RunAllController::finished);
        QSignalSpy rows(&runs, &RunAllController::rowChanged);
        RunAllJob job;
        job.source = QString::fromLatin1(kSource);
        job.launch = launch("scale");
        job.devices = m_devices;
        QVERIFY(runs.start(job));
        runs.cancel();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        // The runs under way finish on their workers; their rows never arrive, nor a comparison (which a
        // delivered run would have queued on the device-less worker).
        QVERIFY(clscope::test::fence(deviceWorkers()));
        QVERIFY(clscope::test::fence({&m_workers->deviceless()}));
        QCOMPARE(rows.size(), 0);
        QCOMPARE(finished.size(), 1);
    }

    void generatedCodeOfABuild()
    {
        MatrixController matrix(m_workers);
        QSignalSpy finished(&matrix, &MatrixController::finished);
        MatrixJob job = matrixJob();
        job.sets = {QString()};
        QVERIFY(matrix.start(job));
        QVERIFY(finished.wait(240000));
        CodeController code(m_workers);
        QSignalSpy ready(&code, &CodeController::codeReady);
        QVERIFY(code.request(QStringLiteral("k"), matrix.cell(0, 0).build));
        QVERIFY(ready.wait(120000));
        QCOMPARE(ready.at(0).at(0).toString(), QStringLiteral("k"));
        const auto list = ready.at(0).at(1).value<GeneratedCodeList>();
        QCOMPARE(list.size(), std::size_t(1));
        // PoCL's binary holds LLVM bitcode: its IR with llvm-dis, else a note that names what to install.
        QCOMPARE(int(list.front().kind), int(CodeKind::LlvmBitcode));
        if (list.front().hasText())
            QVERIFY(QString::fromStdString(list.front().text).contains(QStringLiteral("scale")));
        else
            QVERIFY(QString::fromStdString(list.front().note).contains(QStringLiteral("install")));
        QVERIFY(!code.request(QStringLiteral("failed"), BuildResult()));
    }
};

QTEST_GUILESS_MAIN(TestCompareControllers)
#include "tst_comparecontrollers.moc"
