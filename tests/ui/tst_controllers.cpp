// The device workers' users without a window: builds, runs and benchmarks through their controllers on
// PoCL, a newer build dropping the older one's result, an abandoned run whose late result never arrives,
// a controller destroyed while its build runs, and a benchmark cancelled through its token. Qt Core only
// (no widget, no QtGui call), so it also runs under ThreadSanitizer (the tsan preset), where the hand-over
// of every request and result between the GUI thread and the workers is checked.
#include "controllers/benchmarkrunner.h"
#include "controllers/buildcontroller.h"
#include "controllers/runcontroller.h"
#include "workerfence.h"
#include "workers/deviceworkers.h"

#include "clscope/devicespec.h"
#include "clscope/kernelargs.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>

using namespace clscope;
using namespace clscope::ui;

namespace {
const char *const kKernels = R"(
__kernel void fill(__global float *out, const uint n)
{
    const size_t i = get_global_id(0);
    if (i < n)
        out[i] = (float)i * 2.0f;
}
// About n dependent multiply-adds: float math without fast-math cannot be folded away.
__kernel void spin(__global float *out, const uint n)
{
    float x = 1.0f;
    for (uint i = 0; i < n; ++i)
        x = x * 1.0000001f + 0.0000001f;
    out[0] = x;
}
)";
} // namespace

class TestControllers : public QObject
{
    Q_OBJECT

    BuildJob job(const char *source) const
    {
        BuildJob j;
        j.source = QString::fromLatin1(source);
        j.devices = {m_device};
        j.deviceNames = {QStringLiteral("pocl")};
        return j;
    }

    BuildResult buildNow(BuildController &controller, const char *source)
    {
        QSignalSpy finished(&controller, &BuildController::buildFinished);
        controller.build(job(source));
        if (!finished.wait(120000))
            return {};
        return finished.at(0).at(0).value<BuildResult>();
    }

    static RunRequest request(const BuildResult &build, const char *kernel, const char *n)
    {
        RunRequest r;
        r.build = build;
        r.kernel = kernel;
        r.range.global = {16};
        r.args = {parseArgSpec("out=buffer:float:16:zeros"), parseArgSpec(std::string("n=uint:") + n)};
        r.readBack = {"out"};
        return r;
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
    }

    void buildThenRun()
    {
        BuildController builds(m_workers);
        const BuildResult built = buildNow(builds, kKernels);
        QVERIFY(built.success());
        QVERIFY(built.kernel("fill"));

        RunController runs(m_workers);
        QSignalSpy finished(&runs, &RunController::runFinished);
        QSignalSpy failed(&runs, &RunController::runFailed);
        QSignalSpy pools(&runs, &RunController::poolCreated);
        runs.run(request(built, "fill", "16"));
        QVERIFY(runs.isBusy());
        QVERIFY(finished.wait(120000));
        QVERIFY(failed.isEmpty());
        const RunResult result = finished.at(0).at(0).value<RunResult>();
        const BufferData *out = result.buffer("out");
        QVERIFY(out);
        std::vector<float> values(out->count);
        std::memcpy(values.data(), out->bytes.data(), values.size() * sizeof(float));
        QCOMPARE(values[5], 10.0f);
        QCOMPARE(pools.size(), 1);
        QVERIFY(runs.pool()->read([](const MemoryPool &) {}));
        // The next run on that build's context takes its buffers from the same pool.
        runs.run(request(built, "fill", "16"));
        QVERIFY(finished.wait(120000));
        QCOMPARE(pools.size(), 1);
        std::uint64_t hits = 0;
        QVERIFY(runs.pool()->read([&](const MemoryPool &pool) { hits = pool.stats().hits; }));
        QVERIFY(hits > 0);
    }

    void newerBuildDropsTheOlderResult()
    {
        BuildController builds(m_workers);
        QSignalSpy finished(&builds, &BuildController::buildFinished);
        builds.build(job("__kernel void first(__global int *o) { o[0] = 1; }"));
        builds.build(job("__kernel void second(__global int *o) { o[0] = 2; }"));
        QVERIFY(finished.wait(120000));
        // A third build's result comes after anything the first could still deliver (one worker, in order).
        builds.build(job("__kernel void third(__global int *o) { o[0] = 3; }"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 120000);
        QVERIFY(finished.at(0).at(0).value<BuildResult>().kernel("second"));
        QVERIFY(finished.at(1).at(0).value<BuildResult>().kernel("third"));
        QVERIFY(builds.lastResult().kernel("third"));
    }

    // Cancel: the build in flight reports nothing, the controller is idle at once, and the next build
    // (queued behind the cancelled one on the same worker) is the only result.
    void cancelledBuildNeverReports()
    {
        BuildController builds(m_workers);
        QSignalSpy finished(&builds, &BuildController::buildFinished);
        QSignalSpy cancelled(&builds, &BuildController::buildCancelled);
        builds.build(job("__kernel void dropped(__global int *o) { o[0] = 1; }"));
        QVERIFY(builds.isBusy());
        builds.cancel();
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!builds.isBusy());
        builds.cancel(); // nothing in flight: nothing to say
        QCOMPARE(cancelled.size(), 1);
        builds.build(job("__kernel void kept(__global int *o) { o[0] = 2; }"));
        QVERIFY(finished.wait(120000));
        // Nothing more of either build comes.
        QVERIFY(clscope::test::fence({&m_workers->forDevice(m_device)}));
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.at(0).at(0).value<BuildResult>().kernel("kept"));
        QVERIFY(!builds.lastResult().kernel("dropped"));
    }

    void abandonedRunNeverReports()
    {
        BuildController builds(m_workers);
        const BuildResult built = buildNow(builds, kKernels);
        QVERIFY(built.success());
        RunController runs(m_workers);
        QSignalSpy finished(&runs, &RunController::runFinished);
        QSignalSpy abandoned(&runs, &RunController::runAbandoned);
        runs.run(request(built, "spin", "200000000"));
        runs.abandon();
        QCOMPARE(abandoned.size(), 1);
        QVERIFY(!runs.isBusy());
        runs.run(request(built, "spin", "10"));
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.size(), 1);
        const RunResult r = finished.at(0).at(0).value<RunResult>();
        QVERIFY(r.launches().front().duration() < 100'000'000); // the short one, not the abandoned one
    }

    void controllerDestroyedWhileItsBuildRuns()
    {
        auto *doomed = new BuildController(m_workers);
        QSignalSpy finished(doomed, &BuildController::buildFinished);
        doomed->build(job(kKernels));
        delete doomed;
        BuildController later(m_workers);
        QVERIFY(buildNow(later, "__kernel void after(__global int *o) { o[0] = 4; }").success());
        QCoreApplication::sendPostedEvents();
        QCOMPARE(finished.size(), 0);
    }

    void benchmarkRunsAndCancels()
    {
        BenchmarkRunner runner(m_workers);
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        QSignalSpy cancelled(&runner, &BenchmarkRunner::cancelled);
        QSignalSpy progress(&runner, &BenchmarkRunner::progressChanged);
        QVERIFY(runner.start(m_device, {QStringLiteral("launch")}, BenchEffort::Tiny));
        QVERIFY(!runner.start(m_device, {QStringLiteral("launch")}, BenchEffort::Tiny)); // one at a time
        QVERIFY(finished.wait(120000));
        QCOMPARE(progress.last().at(0).toInt(), 1000);
        QCOMPARE(finished.at(0).at(0).value<BenchDocument>().results.size(), std::size_t(1));

        QVERIFY(runner.start(m_device, {QStringLiteral("all")}, BenchEffort::Quick));
        runner.cancel();
        QVERIFY(cancelled.wait(120000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(!runner.isRunning());
    }

    void cleanupTestCase()
    {
        // Every thread ends within the bound (nothing here hangs).
        QVERIFY(m_workers->shutdown());
    }

private:
    QTemporaryDir m_cache;
    cl_device_id m_device = nullptr;
    std::shared_ptr<DeviceWorkers> m_workers = std::make_shared<DeviceWorkers>();
};

QTEST_GUILESS_MAIN(TestControllers)
#include "tst_controllers.moc"
