// Tests of the Benchmarks page: a tiny benchmark runs through the dock off the GUI thread with progress,
// fills the figure list and the charts, Cancel stops a run, and a loaded baseline shows each figure's
// ratio coloured better or worse with its bars beside the run's. Offscreen; a PNG of the page is saved
// to /tmp for a look.
#include "controllers/benchmarkrunner.h"
#include "controllers/devicemanager.h"
#include "widgets/benchmarkdock.h"
#include "windows/mainwindow.h"
#include "workers/deviceworkers.h"

#include "widgets/qcustomplotinclude.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest/QtTest>

using namespace clscope;
using namespace clscope::ui;

namespace {
QTreeWidgetItem *findItem(QTreeWidget *tree, const QString &kind, const QString &key)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *top = tree->topLevelItem(i);
        if (top->text(0) != kind)
            continue;
        for (int c = 0; c < top->childCount(); ++c) {
            if (top->child(c)->text(0) == key)
                return top->child(c);
        }
    }
    return nullptr;
}

BenchDocument scaled(const BenchDocument &doc, double factor)
{
    BenchDocument out = doc;
    for (BenchResult &r : out.results) {
        for (BenchFigure &f : r.report.figures)
            f.value *= factor;
        for (BenchSeries &s : r.series) {
            for (double &v : s.values)
                v *= factor;
        }
    }
    return out;
}
} // namespace

class TestBenchmarkDock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_manager = new DeviceManager(this);
        QSignalSpy available(m_manager, &DeviceManager::devicesAvailable);
        m_manager->refresh();
        QVERIFY(available.wait(60000));
        if (!m_manager->currentDeviceSnapshot())
            QSKIP("no OpenCL device");
        m_dock = new BenchmarkDock(m_manager, std::make_shared<DeviceWorkers>());
        m_dock->resize(1100, 820);
        m_dock->show();
    }

    void cleanupTestCase() { delete m_dock; }

    void runsATinyBenchmark()
    {
        BenchmarkRunner *runner = m_dock->runner();
        QSignalSpy progress(runner, &BenchmarkRunner::progressChanged);
        QSignalSpy kinds(runner, &BenchmarkRunner::kindFinished);
        QSignalSpy finished(runner, &BenchmarkRunner::finished);
        QVERIFY(m_dock->start(QStringLiteral("local"), BenchEffort::Tiny));
        QVERIFY(!m_dock->runButton()->isEnabled());
        QVERIFY(m_dock->cancelButton()->isEnabled());
        QVERIFY(!m_dock->start(QStringLiteral("local"), BenchEffort::Tiny)); // one run at a time
        QVERIFY(finished.wait(120000));
        QCOMPARE(kinds.count(), 1);
        QVERIFY(progress.count() >= 2);
        QCOMPARE(progress.last().at(0).toInt(), 1000);
        QCOMPARE(m_dock->progressBar()->value(), 1000);
        QVERIFY(m_dock->runButton()->isEnabled());
        QVERIFY(!m_dock->cancelButton()->isEnabled());
        QVERIFY(m_dock->statusLabel()->text().startsWith(QLatin1String("Done")));

        QTreeWidgetItem *figure =
            findItem(m_dock->figureTree(), QStringLiteral("local"), QStringLiteral("local_bandwidth_gbps"));
        QVERIFY(figure);
        QVERIFY(figure->text(1).endsWith(QLatin1String("GB/s")));
        QVERIFY(figure->text(3).isEmpty()); // no baseline yet

        QCustomPlot *chart = m_dock->chart(QStringLiteral("local"));
        QVERIFY(chart);
        QCOMPARE(chart->plottableCount(), 1);
        auto *bars = qobject_cast<QCPBars *>(chart->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 5); // float .. float16
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            QVERIFY(it->value > 0);
        QCOMPARE(m_dock->chart(QStringLiteral("bandwidth"))->plottableCount(), 0); // not measured
    }

    void cancelStopsARun()
    {
        BenchmarkRunner *runner = m_dock->runner();
        QSignalSpy progress(runner, &BenchmarkRunner::progressChanged);
        QSignalSpy cancelled(runner, &BenchmarkRunner::cancelled);
        QSignalSpy finished(runner, &BenchmarkRunner::finished);
        QVERIFY(m_dock->start(QStringLiteral("all"), BenchEffort::Quick));
        QVERIFY(progress.wait(60000));
        m_dock->cancelButton()->click();
        QVERIFY(cancelled.wait(120000));
        QCOMPARE(finished.count(), 0);
        QVERIFY(m_dock->runButton()->isEnabled());
        QVERIFY(!m_dock->cancelButton()->isEnabled());
        QVERIFY(m_dock->statusLabel()->text().startsWith(QLatin1String("Cancelled")));
        QVERIFY(m_dock->document().results.size() < benchKinds().size());
    }

    void comparesWithABaseline()
    {
        BenchmarkRunner *runner = m_dock->runner();
        QSignalSpy finished(runner, &BenchmarkRunner::finished);
        QVERIFY(m_dock->start(QStringLiteral("bandwidth"), BenchEffort::Tiny));
        QVERIFY(finished.wait(120000));
        const BenchDocument run = m_dock->document();
        QVERIFY(run.findFigure("global_bandwidth_gbps"));

        QTemporaryDir dir;
        const QString slower = dir.filePath(QStringLiteral("slower.json"));
        saveBenchFile(slower.toStdString(), scaled(run, 0.5));
        QCOMPARE(m_dock->loadBaseline(slower), QString());
        QVERIFY(m_dock->baseline().has_value());
        QVERIFY(m_dock->baselineLabel()->text().contains(QLatin1String("slower.json")));
        QTreeWidgetItem *item = findItem(m_dock->figureTree(), QStringLiteral("bandwidth"),
                                         QStringLiteral("global_bandwidth_gbps"));
        QVERIFY(item);
        QCOMPARE(item->text(3), QStringLiteral("×2.00"));
        QCOMPARE(item->data(3, Qt::UserRole + 1).toString(), QStringLiteral("better"));
        QVERIFY(item->foreground(3).color().green() > item->foreground(3).color().red());
        QVERIFY(!item->text(2).isEmpty());
        // The baseline's bars stand beside the run's: three series, each twice.
        QCOMPARE(m_dock->chart(QStringLiteral("bandwidth"))->plottableCount(), 6);

        const QString faster = dir.filePath(QStringLiteral("faster.json"));
        saveBenchFile(faster.toStdString(), scaled(run, 2.0));
        QCOMPARE(m_dock->loadBaseline(faster), QString());
        item = findItem(m_dock->figureTree(), QStringLiteral("bandwidth"),
                        QStringLiteral("global_bandwidth_gbps"));
        QCOMPARE(item->text(3), QStringLiteral("×0.50"));
        QCOMPARE(item->data(3, Qt::UserRole + 1).toString(), QStringLiteral("worse"));
        QVERIFY(item->foreground(3).color().red() > item->foreground(3).color().green());

        QVERIFY(!m_dock->loadBaseline(dir.filePath(QStringLiteral("missing.json"))).isEmpty());
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QCOMPARE(m_dock->saveResults(saved), QString());
        QVERIFY(loadBenchFile(saved.toStdString()).findFigure("global_read_gbps"));

        // A look at the page: bandwidth bars against a baseline (the test's own, at 80 %).
        m_dock->setBaseline(scaled(run, 0.8), QStringLiteral("earlier-run.json"));
        m_dock->chartTabs()->setCurrentWidget(m_dock->chart(QStringLiteral("bandwidth")));
        m_dock->chart(QStringLiteral("bandwidth"))->replot();
        QVERIFY(m_dock->grab().save(QStringLiteral("/tmp/clscope-benchmarkdock.png")));
        m_dock->clearBaseline();
        QVERIFY(!m_dock->baseline());
        QCOMPARE(m_dock->chart(QStringLiteral("bandwidth"))->plottableCount(), 3);
    }

    void mainWindowHasTheBenchmarksPage()
    {
        MainWindow window;
        QVERIFY(window.dockNames().contains(QStringLiteral("benchmarksDock")));
        QVERIFY(window.showDock(QStringLiteral("benchmarks")));
        QVERIFY(window.findChild<BenchmarkDock *>());
    }

private:
    DeviceManager *m_manager = nullptr;
    BenchmarkDock *m_dock = nullptr;
};

QTEST_MAIN(TestBenchmarkDock)
#include "tst_benchmarkdock.moc"
