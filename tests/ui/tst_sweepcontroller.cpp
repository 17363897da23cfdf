// The local-size sweep through its controller on PoCL, without a window: progress as whole counts and the
// result arrive as signals on the test's thread, a flagged size is never the best, Cancel stops the sweep
// early with what ran, a bad launch fails by name, and a controller destroyed while its sweep runs hears
// nothing (and the worker goes on with the next job). Qt Core only, so it also runs under the tsan preset.
#include "controllers/sweepcontroller.h"
#include "workers/deviceworkers.h"

#include "clscope/devicespec.h"
#include "clscope/kernelargs.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace clscope;
using namespace clscope::ui;

class TestSweepController : public QObject
{
    Q_OBJECT

    BuildResult build(const std::string &path) const
    {
        BuildRequest r;
        r.devices = {m_device};
        r.sourcePath = path;
        r.environmentOptions = false;
        return buildProgram(r, BinaryCache());
    }

    // The tiled matrix multiply of the samples: the same C for every shape.
    SweepRequest matmul(std::size_t n, std::vector<std::vector<std::size_t>> candidates, int repeat) const
    {
        SweepRequest s;
        s.run.build = m_matmul;
        s.run.kernel = "matmul_tiled";
        s.run.range.global = {n, n};
        s.run.range.local = {16, 16};
        const std::string count = std::to_string(n * n);
        s.run.args = {parseArgSpec("A=buffer:float:" + count + ":random=1:0:1"),
                      parseArgSpec("B=buffer:float:" + count + ":random=2:0:1"),
                      parseArgSpec("C=buffer:float:" + count), parseArgSpec("N=int:" + std::to_string(n))};
        s.candidates = std::move(candidates);
        s.repeat = repeat;
        return s;
    }

private slots:
    void initTestCase()
    {
        qputenv("CLSCOPE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        try {
            m_device = selectDevice("pocl").device;
        } catch (const std::exception &e) {
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(e.what())));
        }
        m_matmul = build(CLSCOPE_TEST_DATA "/../../resources/kernels/matmul_tiled.cl");
        QVERIFY(m_matmul.success());
        m_sweep = build(CLSCOPE_TEST_DATA "/run/sweep.cl");
        QVERIFY(m_sweep.success());
    }

    void progressThenResult()
    {
        SweepController controller(m_workers);
        QSignalSpy started(&controller, &SweepController::started);
        QSignalSpy progress(&controller, &SweepController::progressChanged);
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        controller.start(matmul(64, {{8, 8}, {32, 2}, {}, {64, 1}}, 2));
        QVERIFY(controller.isRunning());
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.at(0).at(0).toString(), QStringLiteral("matmul_tiled"));
        QVERIFY(finished.wait(120000));
        QVERIFY(failed.isEmpty());
        QVERIFY(!controller.isRunning());
        // Counts, not fractions: 0 of unknown at the start, then up to 5 of 5 (the reference and four).
        QCOMPARE(progress.first().at(0).toInt(), 0);
        QCOMPARE(progress.first().at(1).toInt(), 0);
        QCOMPARE(progress.last().at(0).toInt(), 5);
        QCOMPARE(progress.last().at(1).toInt(), 5);
        for (const QList<QVariant> &p : std::as_const(progress))
            QVERIFY(p.at(0).toInt() <= p.at(1).toInt());
        const SweepResult result = finished.at(0).at(0).value<SweepResult>();
        QCOMPARE(result.kernel, std::string("matmul_tiled"));
        QCOMPARE(result.points.size(), std::size_t(5));
        QCOMPARE(result.points[0].local, (std::vector<std::size_t>{16, 16}));
        QVERIFY(result.points[3].local.empty()); // the driver's choice
        QCOMPARE(result.reference, std::optional<std::size_t>(0));
        QVERIFY(result.best.has_value());
        QVERIFY(!result.cancelled);
        for (const SweepPoint &p : result.points) {
            QVERIFY2(p.ran, p.error.c_str());
            QVERIFY(p.matches);
            QCOMPARE(p.stats.count, std::size_t(2));
        }
    }

    // A kernel that writes its work-group's size: every size but the reference differs, so the reference
    // is the only one that can be best.
    void differingSizeIsNeverBest()
    {
        SweepController controller(m_workers);
        QSignalSpy finished(&controller, &SweepController::finished);
        SweepRequest s;
        s.run.build = m_sweep;
        s.run.kernel = "local_size_shows";
        s.run.range.global = {256};
        s.run.range.local = {8};
        s.run.args = {parseArgSpec("out=buffer:int:256")};
        s.candidates = {{16}, {32}};
        s.repeat = 1;
        controller.start(s);
        QVERIFY(finished.wait(120000));
        const SweepResult result = finished.at(0).at(0).value<SweepResult>();
        QCOMPARE(result.points.size(), std::size_t(3));
        QVERIFY(!result.points[1].matches);
        QCOMPARE(result.points[1].differing, std::vector<std::string>{"out"});
        QCOMPARE(result.best, std::optional<std::size_t>(0));
    }

    void badLaunchFails()
    {
        SweepController controller(m_workers);
        QSignalSpy finished(&controller, &SweepController::finished);
        QSignalSpy failed(&controller, &SweepController::failed);
        SweepRequest s = matmul(64, {{8, 8}}, 1);
        s.run.kernel = "no_such_kernel";
        controller.start(s);
        QVERIFY(failed.wait(120000));
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("no_such_kernel")),
                 qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(finished.isEmpty());
        QVERIFY(!controller.isRunning());
    }

    // Cancel after the first size: the sweep stops at its next check and still reports what ran.
    void cancelStopsEarly()
    {
        SweepController controller(m_workers);
        QSignalSpy finished(&controller, &SweepController::finished);
        std::vector<std::vector<std::size_t>> many;
        for (std::size_t x : {1, 2, 4, 8, 16, 32, 64}) {
            for (std::size_t y : {1, 2, 4, 8, 16})
                many.push_back({x, y});
        }
        connect(&controller, &SweepController::progressChanged, &controller, [&controller](int done, int) {
            if (done >= 1)
                controller.cancel();
        });
        controller.start(matmul(128, many, 20));
        QVERIFY(finished.wait(180000));
        const SweepResult result = finished.at(0).at(0).value<SweepResult>();
        QVERIFY(result.cancelled);
        QVERIFY2(result.points.size() < many.size() / 2, qPrintable(QString::number(result.points.size())));
        QVERIFY(!result.points.empty());
        QVERIFY(result.points.front().ran);
        QVERIFY(!controller.isRunning());
    }

    void destroyedControllerHearsNothing()
    {
        auto *doomed = new SweepController(m_workers);
        QSignalSpy finished(doomed, &SweepController::finished);
        QSignalSpy progress(doomed, &SweepController::progressChanged);
        doomed->start(matmul(128, {{8, 8}, {16, 8}, {32, 8}, {64, 4}}, 20));
        const qsizetype progressBefore = progress.size(); // the (0, 0) of start()
        delete doomed;
        // The next sweep on the same worker runs once the doomed one has stopped (or finished).
        SweepController later(m_workers);
        QSignalSpy laterFinished(&later, &SweepController::finished);
        later.start(matmul(64, {{8, 8}}, 1));
        QVERIFY(laterFinished.wait(180000));
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QCOMPARE(finished.size(), 0);
        QCOMPARE(progress.size(), progressBefore);
        QCOMPARE(laterFinished.at(0).at(0).value<SweepResult>().points.size(), std::size_t(2));
    }

    void cleanupTestCase() { QVERIFY(m_workers->shutdown()); }

private:
    QTemporaryDir m_cache;
    cl_device_id m_device = nullptr;
    BuildResult m_matmul;
    BuildResult m_sweep;
    std::shared_ptr<DeviceWorkers> m_workers = std::make_shared<DeviceWorkers>();
};

QTEST_GUILESS_MAIN(TestSweepController)
#include "tst_sweepcontroller.moc"
