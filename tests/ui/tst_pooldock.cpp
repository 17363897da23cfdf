// End-to-end tests of the memory pool panel on a real device (PoCL, offscreen): a churn workload feeds
// the chart and the counters, the pool actions reach the pool, traces replay or fail clearly, exports
// write files, and destroying the panel mid-run is clean. Saves three grabs of the panel while a
// workload runs (QDir::tempPath()/clscope-pooldock-N.png) for people to look at.
#include "controllers/poolmonitor.h"
#include "widgets/poolbinchart.h"
#include "widgets/poolchart.h"
#include "widgets/pooldock.h"
#include "workers/deviceworkers.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <memory>
#include <utility>

#include <sys/stat.h>

using namespace clscope;
using namespace clscope::ui;

namespace {
struct Device
{
    cl_device_id id = nullptr;
    QString name;
};

Device firstDevice()
{
    cl_platform_id platform = nullptr;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0)
        return {};
    Device d;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d.id, &n) != CL_SUCCESS || n == 0)
        return {};
    char name[256] = {};
    clGetDeviceInfo(d.id, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
    d.name = QString::fromUtf8(name);
    return d;
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(text);
    return path;
}

// A dock with a pool on the device, shown so that the chart draws.
std::unique_ptr<PoolDock> makeDock(const Device &device)
{
    auto dock = std::make_unique<PoolDock>(std::make_shared<DeviceWorkers>());
    dock->resize(1100, 720);
    dock->show();
    dock->setDevice(device.id, device.name);
    return dock;
}
} // namespace

class TestPoolDock : public QObject
{
    Q_OBJECT

private:
    Device m_device;

private slots:
    void initTestCase()
    {
        m_device = firstDevice();
        if (!m_device.id)
            QSKIP("no OpenCL device");
    }

    void noDeviceYet()
    {
        PoolDock dock(std::make_shared<DeviceWorkers>());
        dock.show();
        dock.setDevice(nullptr, QString()); // safe before any device is known
        QVERIFY(!dock.monitor()->hasPool());
        QVERIFY(!dock.findChild<QPushButton *>(QStringLiteral("poolRun"))->isEnabled());
        QVERIFY(dock.findChild<QLabel *>(QStringLiteral("poolLabel"))
                    ->text()
                    .contains(QStringLiteral("No device")));
        QCOMPARE(dock.counterText(QStringLiteral("hits")), QStringLiteral("–"));
        dock.runWorkload(); // nothing to run on: an error, no crash
        QTRY_VERIFY(!dock.errorText().isEmpty());
        QVERIFY(!dock.monitor()->isWorkloadRunning());
    }

    // SVM is offered only once the device says it has it (it never was: the handler enabled the item and
    // then disabled it again), and taken back from a device without it.
    void svmOfferedWhereTheDeviceHasIt()
    {
        PoolDock dock(std::make_shared<DeviceWorkers>());
        auto *allocator = dock.findChild<QComboBox *>(QStringLiteral("poolAllocator"));
        auto *model = qobject_cast<QStandardItemModel *>(allocator->model());
        QVERIFY(model);
        const int svm = int(AllocatorKind::Svm);
        QVERIFY(!model->item(svm)->isEnabled());
        emit dock.monitor()->deviceReady(true);
        QVERIFY(model->item(svm)->isEnabled());
        allocator->setCurrentIndex(svm);
        emit dock.monitor()->deviceReady(false);
        QVERIFY(!model->item(svm)->isEnabled());
        QCOMPARE(allocator->currentIndex(), int(AllocatorKind::Immediate));
    }

    void churnFeedsChartAndCounters()
    {
        auto dock = makeDock(m_device);
        PoolMonitor *monitor = dock->monitor();
        QTRY_VERIFY(monitor->hasPool());
        QVERIFY(dock->findChild<QLabel *>(QStringLiteral("poolLabel"))->text().contains(m_device.name));
        QVERIFY(!dock->counterKeys().isEmpty());

        dock->setWorkload(WorkloadKind::Churn, 20000);
        dock->chart()->setWindowSeconds(10);
        QSignalSpy finished(monitor, &PoolMonitor::workloadFinished);
        dock->runWorkload();
        QVERIFY(monitor->isWorkloadRunning());
        const QString shots = QDir::tempPath() + QStringLiteral("/clscope-pooldock-%1.png");
        // Three grabs while it runs, at growing sample counts.
        for (int shot = 1; shot <= 3; ++shot) {
            const quint64 target = quint64(shot) * quint64(shot) * 5000; // 5k, 20k, 45k
            QTRY_VERIFY_WITH_TIMEOUT(monitor->history().sampleCount() >= target, 20000);
            QTRY_VERIFY(dock->chart()->redrawCount() > 0);
            QVERIFY(dock->grab().save(shots.arg(shot)));
        }
        QTRY_VERIFY(monitor->stats().hits > 0);
        QTRY_VERIFY(dock->counterText(QStringLiteral("hits")) != QStringLiteral("0"));
        QVERIFY(dock->counterText(QStringLiteral("hitRate")).endsWith(QStringLiteral("%")));
        QVERIFY(monitor->stats().misses > 0);
        QVERIFY(!dock->binChart()->labels().isEmpty());
        QVERIFY(dock->chart()->pointsDrawn() > 0);
        QVERIFY(dock->chart()->pointsDrawn() <= 2 * PoolChart::kMaxBuckets + 2);
        QVERIFY(monitor->refreshCount() > 3);
        QVERIFY(dock->statusText().startsWith(QStringLiteral("Running")));

        QElapsedTimer stopping;
        stopping.start();
        dock->stopWorkload();
        QVERIFY(!monitor->isWorkloadRunning()); // the panel says so at once...
        QVERIFY(finished.wait(5000));           // ...and the worker confirms promptly
        QVERIFY2(stopping.elapsed() < 2000, qPrintable(QString::number(stopping.elapsed())));
        QVERIFY(finished.last().at(0).toString().contains(QStringLiteral("stopped")));
        const quint64 ops = monitor->workloadOps();
        QVERIFY(ops > 0);
        // The run's live blocks went back to the pool: it holds them now.
        QTRY_COMPARE(monitor->stats().counters.activeBlocks, std::uint64_t(0));
        QVERIFY(monitor->stats().counters.heldBlocks > 0);
        QCOMPARE(monitor->workloadOps(), ops);
    }

    void poolActions()
    {
        auto dock = makeDock(m_device);
        PoolMonitor *monitor = dock->monitor();
        QTRY_VERIFY(monitor->hasPool());
        dock->setWorkload(WorkloadKind::FragmentationStorm, 0);
        QSignalSpy finished(monitor, &PoolMonitor::workloadFinished);
        dock->runWorkload();
        QTRY_VERIFY(monitor->stats().counters.heldBlocks > 0);
        dock->stopWorkload();
        QVERIFY(finished.wait(5000));
        QTRY_VERIFY(monitor->stats().counters.heldBlocks > 0 && monitor->stats().counters.activeBlocks == 0);

        QSignalSpy action(monitor, &PoolMonitor::actionFinished);
        dock->findChild<QPushButton *>(QStringLiteral("poolFreeHeld"))->click();
        QVERIFY(action.wait(5000));
        QVERIFY(action.last().at(0).toString().startsWith(QStringLiteral("Freed")));
        QTRY_COMPARE(monitor->stats().counters.heldBlocks, std::uint64_t(0));
        QTRY_COMPARE(dock->counterText(QStringLiteral("heldBlocks")), QStringLiteral("0"));
        QCOMPARE(monitor->stats().counters.managedBytes, std::uint64_t(0));

        // Stop holding: permanent, and the button knows it.
        auto *stopHolding = dock->findChild<QPushButton *>(QStringLiteral("poolStopHolding"));
        QVERIFY(stopHolding->isEnabled());
        stopHolding->click();
        QTRY_VERIFY(!monitor->stats().holding);
        QTRY_VERIFY(!stopHolding->isEnabled());
        QVERIFY(dock->counterText(QStringLiteral("holding")).startsWith(QStringLiteral("no")));
        const std::uint64_t missesBefore = monitor->stats().misses;
        dock->setWorkload(WorkloadKind::Churn, 0);
        dock->runWorkload();
        QTRY_VERIFY(monitor->stats().misses > missesBefore + 100); // every allocation is a miss now
        QVERIFY2(monitor->isWorkloadRunning(), qPrintable(dock->errorText()));
        const qsizetype ended = finished.count();
        dock->stopWorkload();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() > ended, 10000);
        QTRY_COMPARE(monitor->stats().counters.heldBlocks, std::uint64_t(0)); // nothing is held any more

        // A new pool with 8 leading bits (and the deferred allocator) replaces it, fresh.
        QSignalSpy changed(monitor, &PoolMonitor::poolChanged);
        dock->requestNewPool(8, AllocatorKind::Deferred);
        QVERIFY(changed.wait(5000));
        QCOMPARE(monitor->stats().leadingBits, 8);
        QVERIFY(monitor->stats().holding);
        QCOMPARE(monitor->stats().hits + monitor->stats().misses, std::uint64_t(0));
        QVERIFY(monitor->poolLabel().contains(QStringLiteral("8 leading bits")));
        QVERIFY(monitor->poolLabel().contains(QStringLiteral("deferred")));
        QCOMPARE(dock->counterText(QStringLiteral("hits")), QStringLiteral("0"));

        // Out of range leading bits: a clear error, the pool stays.
        monitor->newPool(27, AllocatorKind::Deferred);
        QTRY_VERIFY(dock->errorText().contains(QStringLiteral("0..26")));
        QCOMPARE(monitor->stats().leadingBits, 8);
    }

    void replay_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QString>("error"); // empty: replays to the end
        QTest::newRow("POOL.md example")
            << QByteArray("# POOL.md\nalloc a 1000\nalloc b 1024\nfree a\nalloc c 1010\nfree_held\nfree b\n"
                          "stop_holding\n")
            << QString();
        QTest::newRow("bad op") << QByteArray("alloc a 10\nfrobnicate\n") << QStringLiteral("line 2");
        QTest::newRow("free of unknown id") << QByteArray("alloc a 10\nfree b\n") << QStringLiteral("line 2");
        QTest::newRow("empty") << QByteArray("# nothing\n") << QStringLiteral("no operations");
        // Core's replayer says it, in the words of clscope-cli pool replay.
        QTest::newRow("too big for the device")
            << QByteArray("alloc a 100\nalloc huge 18446744073709551615\n")
            << QStringLiteral("line 2: alloc huge 18446744073709551615: ");
    }

    void replay()
    {
        QFETCH(QByteArray, trace);
        QFETCH(QString, error);
        QTemporaryDir dir;
        auto dock = makeDock(m_device);
        PoolMonitor *monitor = dock->monitor();
        QTRY_VERIFY(monitor->hasPool());
        QSignalSpy finished(monitor, &PoolMonitor::workloadFinished);
        dock->setWorkload(WorkloadKind::Replay, 0, writeFile(dir, QStringLiteral("trace.txt"), trace));
        dock->runWorkload();
        QVERIFY(finished.wait(10000));
        QVERIFY(!monitor->isWorkloadRunning());
        if (error.isEmpty()) {
            QVERIFY(dock->errorText().isEmpty());
            QVERIFY(!finished.last().at(1).toBool());
            // The counters clscope-cli pool replay prints last (POOL.md): 0/1/1023/1010.
            QTRY_COMPARE(monitor->stats().counters.activeBlocks, std::uint64_t(1));
            const PoolCounters c = monitor->stats().counters;
            QCOMPARE(c.heldBlocks, std::uint64_t(0));
            QCOMPARE(c.managedBytes, std::uint64_t(1023));
            QCOMPARE(c.activeBytes, std::uint64_t(1010));
        } else {
            QVERIFY(finished.last().at(1).toBool());
            QVERIFY2(dock->errorText().contains(error), qPrintable(dock->errorText()));
            QVERIFY(dock->errorText().contains(QStringLiteral("trace.txt")) ||
                    dock->errorText().contains(QStringLiteral("Replay")));
        }
    }

    void replayMissingFile()
    {
        auto dock = makeDock(m_device);
        QTRY_VERIFY(dock->monitor()->hasPool());
        dock->setWorkload(WorkloadKind::Replay, 0, QStringLiteral("/nonexistent/trace.txt"));
        dock->runWorkload();
        QTRY_VERIFY(dock->errorText().contains(QStringLiteral("Cannot read trace")));
        QVERIFY(!dock->monitor()->isWorkloadRunning());
    }

    // Issue 27: /dev/zero as the trace was read until bad_alloc, a FIFO blocked the pool's worker. Both
    // are refused before a byte is read.
    void replayRefusesFilesThatAreNotRegular()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("trace.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        for (const auto &[trace, kind] :
             {std::pair{QStringLiteral("/dev/zero"), QStringLiteral("a character device")},
              std::pair{fifo, QStringLiteral("a FIFO")}}) {
            auto dock = makeDock(m_device);
            QTRY_VERIFY(dock->monitor()->hasPool());
            dock->setWorkload(WorkloadKind::Replay, 0, trace);
            dock->runWorkload();
            const QString expected =
                QStringLiteral("Cannot read trace %1: not a regular file (%2)").arg(trace, kind);
            QTRY_VERIFY2(dock->errorText().contains(expected), qPrintable(dock->errorText()));
            QVERIFY(!dock->monitor()->isWorkloadRunning());
        }
    }

    void exports()
    {
        QTemporaryDir dir;
        auto dock = makeDock(m_device);
        PoolMonitor *monitor = dock->monitor();
        QTRY_VERIFY(monitor->hasPool());
        dock->setWorkload(WorkloadKind::GrowingSet, 100000);
        dock->runWorkload();
        QTRY_VERIFY(monitor->history().sampleCount() > 500);
        dock->stopWorkload();
        QTRY_VERIFY(dock->chart()->redrawCount() > 0);
        const QString png = dir.filePath(QStringLiteral("pool.png"));
        const QString pdf = dir.filePath(QStringLiteral("pool.pdf"));
        const QString csv = dir.filePath(QStringLiteral("pool.csv"));
        QCOMPARE(dock->chart()->exportPng(png), QString());
        QCOMPARE(dock->chart()->exportPdf(pdf), QString());
        QCOMPARE(dock->chart()->exportCsv(csv), QString());
        QVERIFY(!QImage(png).isNull());
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
        QVERIFY(lines.first().startsWith("time_first_s,time_last_s,samples,held_bytes_min"));
        QCOMPARE(lines.size() - 1, monitor->history().bucketCount()); // the full series, not the view
        QVERIFY(!dock->chart()->exportCsv(QStringLiteral("/nonexistent/dir/pool.csv")).isEmpty());
    }

    void chartWindowAndPause()
    {
        auto dock = makeDock(m_device);
        PoolChart *chart = dock->chart();
        QTRY_VERIFY(dock->monitor()->hasPool());
        chart->setWindowSeconds(10);
        QTRY_VERIFY(chart->redrawCount() > 1);
        QCOMPARE(chart->plot()->xAxis->range().size(), 10.0);
        // Panning by hand pauses the view; picking a window follows again.
        QSignalSpy paused(chart, &PoolChart::pausedChanged);
        chart->plot()->xAxis->moveRange(-5);
        QVERIFY(chart->isPaused());
        QCOMPARE(paused.count(), 1);
        const QCPRange held = chart->plot()->xAxis->range();
        QTRY_VERIFY(dock->monitor()->refreshCount() > 5);
        QCOMPARE(chart->plot()->xAxis->range(), held);
        chart->setPaused(false);
        chart->setWindowSeconds(0); // all: from the first sample (about 0) on
        QTRY_VERIFY(chart->plot()->xAxis->range().lower > held.lower);
        QVERIFY(!chart->isPaused());
    }

    void attachedPool()
    {
        // A pool made elsewhere, as the kernel runner will make one.
        cl_int err = CL_SUCCESS;
        cl_context context = clCreateContext(nullptr, 1, &m_device.id, nullptr, nullptr, &err);
        QCOMPARE(err, CL_SUCCESS);
        auto pool = std::make_shared<MemoryPool>(std::make_shared<DeferredAllocator>(context));
        clReleaseContext(context); // the allocator holds it
        for (int i = 0; i < 10; ++i)
            pool->allocate(4096).release(); // 1 miss, 9 hits
        {
            auto dock = makeDock(m_device);
            QTRY_VERIFY(dock->monitor()->hasPool());
            dock->attachPool(pool, QStringLiteral("Runner's pool"));
            QTRY_COMPARE(dock->monitor()->poolLabel(), QStringLiteral("Runner's pool"));
            QTRY_COMPARE(dock->counterText(QStringLiteral("hits")), QStringLiteral("9"));
            QVERIFY(dock->monitor()->history().sampleCount() >= 20); // its earlier samples too
            PooledBuffer kept = pool->allocate(100);
            QTRY_COMPARE(dock->counterText(QStringLiteral("activeBlocks")), QStringLiteral("1"));
        }
        // The panel let go of it; the owner's pool is intact.
        QCOMPARE(pool.use_count(), 1);
        QCOMPARE(pool->stats().hits, std::uint64_t(9));
    }

    void destroyMidRun_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("rate");
        QTest::newRow("storm, as fast as possible") << int(WorkloadKind::FragmentationStorm) << 0.0;
        QTest::newRow("churn, as fast as possible") << int(WorkloadKind::Churn) << 0.0;
        QTest::newRow("growing, 100/s") << int(WorkloadKind::GrowingSet) << 100.0;
    }

    void destroyMidRun()
    {
        QFETCH(int, kind);
        QFETCH(double, rate);
        auto dock = makeDock(m_device);
        QTRY_VERIFY(dock->monitor()->hasPool());
        dock->setWorkload(WorkloadKind(kind), rate);
        dock->runWorkload();
        QTRY_VERIFY(dock->monitor()->workloadOps() > 5);
        QElapsedTimer closing;
        closing.start();
        dock.reset(); // joins the worker; the pool and context go on its thread
        QVERIFY2(closing.elapsed() < 3000, qPrintable(QString::number(closing.elapsed())));
    }

    void deviceChangeMidRun()
    {
        auto dock = makeDock(m_device);
        PoolMonitor *monitor = dock->monitor();
        QTRY_VERIFY(monitor->hasPool());
        dock->setWorkload(WorkloadKind::Churn, 0);
        dock->runWorkload();
        QTRY_VERIFY(monitor->workloadOps() > 100);
        dock->setDevice(nullptr, QString());
        QTRY_VERIFY(!monitor->hasPool());
        QTRY_VERIFY(!monitor->isWorkloadRunning());
        dock->setDevice(m_device.id, m_device.name);
        QTRY_VERIFY(monitor->hasPool());
        QCOMPARE(monitor->stats().hits, std::uint64_t(0));
    }
};

QTEST_MAIN(TestPoolDock)
#include "tst_pooldock.moc"
