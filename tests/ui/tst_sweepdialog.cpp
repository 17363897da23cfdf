// The local-size sweep window fed with made-up sweeps (no device needed): 1-D sizes as points with error
// bars, the differing size flagged, the one that did not run crossed, the best marked and the driver's
// choice as a line; 2-D shapes as a heat map with one cell per shape tried; 3-D and mixed lists by label;
// the table's rows; and "Use best" filling the Arguments panel's local size (empty for the driver's choice).
#include "widgets/argumentspanel.h"
#include "widgets/qcustomplotinclude.h"
#include "widgets/sweepchart.h"
#include "widgets/sweepdialog.h"
#include "workers/deviceworkers.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>
#include <utility>

#include <sys/stat.h>

using namespace clscope;
using namespace clscope::ui;

namespace {

SweepPoint ran(std::vector<std::size_t> local, double medianUs, double stddevUs = 1)
{
    SweepPoint p;
    p.local = std::move(local);
    p.ran = true;
    p.stats.count = 10;
    p.stats.medianNs = medianUs * 1e3;
    p.stats.meanNs = medianUs * 1e3 + 100;
    p.stats.minNs = std::uint64_t(medianUs * 1e3 - 500);
    p.stats.maxNs = std::uint64_t(medianUs * 1e3 + 900);
    p.stats.stddevNs = stddevUs * 1e3;
    return p;
}

SweepPoint differs(std::vector<std::size_t> local, double medianUs)
{
    SweepPoint p = ran(std::move(local), medianUs);
    p.matches = false;
    p.differing = {"c"};
    return p;
}

SweepPoint notRun(std::vector<std::size_t> local)
{
    SweepPoint p;
    p.local = std::move(local);
    p.error = "clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE";
    return p;
}

SweepResult sweep(std::vector<SweepPoint> points, std::optional<std::size_t> best)
{
    SweepResult r;
    r.kernel = "k";
    r.device = "cpu";
    r.global = {1024};
    r.repeat = 10;
    r.warmup = 1;
    r.points = std::move(points);
    r.reference = 0;
    r.best = best;
    return r;
}

QList<QPointF> points(const QCPGraph *graph)
{
    QList<QPointF> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        out << QPointF(it->key, it->value);
    return out;
}

int rowWith(const QTreeWidget *table, const QString &local)
{
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        if (table->topLevelItem(i)->text(SweepDialog::LocalColumn) == local)
            return i;
    }
    return -1;
}

} // namespace

class TestSweepDialog : public QObject
{
    Q_OBJECT
    std::shared_ptr<DeviceWorkers> m_workers = std::make_shared<DeviceWorkers>();

private slots:
    void oneDimension()
    {
        SweepDialog dialog(m_workers);
        // Reference 64, then 32 (best), 128 (faster, but its outputs differ), 256 (refused), the driver's.
        dialog.showResult(sweep(
            {ran({64}, 200, 4), ran({32}, 150, 3), differs({128}, 100), notRun({256}), ran({}, 180)}, 1));
        SweepChart *chart = dialog.chart();
        QCOMPARE(chart->kind(), SweepChart::Kind::Sizes);
        // Every 1-D size that ran, in size order, with its error bar.
        QCOMPARE(points(chart->timesGraph()),
                 (QList<QPointF>{QPointF(32, 150), QPointF(64, 200), QPointF(128, 100)}));
        QCOMPARE(chart->errorBars()->dataCount(), 3);
        QCOMPARE(chart->errorBars()->data()->at(1).errorPlus, 4.0);
        QCOMPARE(points(chart->differGraph()).size(), 1);
        QCOMPARE(points(chart->differGraph()).front().x(), 128.0);
        QCOMPARE(points(chart->failedGraph()).size(), 1);
        QCOMPARE(points(chart->failedGraph()).front().x(), 256.0);
        QCOMPARE(points(chart->bestGraph()), QList<QPointF>{QPointF(32, 150)});
        QVERIFY(chart->driverGraph());
        QCOMPARE(chart->driverGraph()->data()->at(0)->value, 180.0);
        // Powers of two over a wide span: a log2 axis.
        QCOMPARE(chart->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        // The differing colour is not the series' colour.
        QVERIFY(chart->differGraph()->scatterStyle().brush().color() !=
                chart->timesGraph()->scatterStyle().pen().color());
        // Hovering the best point names it.
        chart->resize(600, 400);
        chart->plot()->replot();
        const QPointF best(chart->plot()->xAxis->coordToPixel(32), chart->plot()->yAxis->coordToPixel(150));
        QCOMPARE(chart->pointAt(best), 1);
        QVERIFY(chart->describe(1).contains(QStringLiteral("Best")));

        QTreeWidget *table = dialog.table();
        QCOMPARE(table->topLevelItemCount(), 5);
        QCOMPARE(table->topLevelItem(rowWith(table, QStringLiteral("64")))->text(SweepDialog::OutputsColumn),
                 QStringLiteral("reference"));
        QCOMPARE(table->topLevelItem(rowWith(table, QStringLiteral("32")))->text(SweepDialog::OutputsColumn),
                 QStringLiteral("equal — best"));
        QCOMPARE(table->topLevelItem(rowWith(table, QStringLiteral("128")))->text(SweepDialog::OutputsColumn),
                 QStringLiteral("DIFFER: c"));
        QVERIFY(table->topLevelItem(rowWith(table, QStringLiteral("256")))
                    ->text(SweepDialog::OutputsColumn)
                    .startsWith(QStringLiteral("did not run: clEnqueueNDRangeKernel")));
        QCOMPARE(table->topLevelItem(rowWith(table, QStringLiteral("32")))->text(SweepDialog::MedianColumn),
                 QStringLiteral("150.0"));
        QVERIFY(rowWith(table, QStringLiteral("driver")) >= 0);
        // Sorted by median, a size that did not run comes last.
        table->sortByColumn(SweepDialog::MedianColumn, Qt::AscendingOrder);
        QCOMPARE(table->topLevelItem(0)->text(SweepDialog::LocalColumn), QStringLiteral("128"));
        QCOMPARE(table->topLevelItem(4)->text(SweepDialog::LocalColumn), QStringLiteral("256"));
        QVERIFY(dialog.statusLabel()->text().startsWith(QStringLiteral("Best: local 32")));

        // Use best puts 32 in the panel's local size field.
        ArgumentsPanel panel;
        panel.setRange(QStringLiteral("1024"), QStringLiteral("64"));
        connect(&dialog, &SweepDialog::useLocalSize, &panel, &ArgumentsPanel::setLocalSize);
        QSignalSpy use(&dialog, &SweepDialog::useLocalSize);
        QVERIFY(dialog.useBestButton()->isEnabled());
        QVERIFY(dialog.useBestButton()->text().contains(QStringLiteral("32")));
        QTest::mouseClick(dialog.useBestButton(), Qt::LeftButton);
        QCOMPARE(use.size(), 1);
        QCOMPARE(use.at(0).at(0).toString(), QStringLiteral("32"));
        QCOMPARE(panel.state().local, QStringLiteral("32"));
        QCOMPARE(panel.state().global, QStringLiteral("1024"));
    }

    void twoDimensionsAsHeatMap()
    {
        SweepDialog dialog(m_workers);
        SweepResult r = sweep({ran({16, 16}, 300), ran({8, 4}, 500), ran({8, 8}, 400), ran({16, 8}, 250),
                               ran({32, 4}, 350), differs({32, 8}, 200), notRun({8, 16}), ran({}, 320)},
                              3);
        r.global = {256, 256};
        dialog.showResult(r);
        SweepChart *chart = dialog.chart();
        QCOMPARE(chart->kind(), SweepChart::Kind::HeatMap);
        QCPColorMap *map = chart->heatMap();
        QVERIFY(map);
        // Widths 8, 16, 32 by heights 4, 8, 16: one cell per shape, the six that ran with their median.
        QCOMPARE(map->data()->keySize(), 3);
        QCOMPARE(map->data()->valueSize(), 3);
        int filled = 0;
        for (int x = 0; x < 3; ++x) {
            for (int y = 0; y < 3; ++y)
                filled += std::isnan(map->data()->cell(x, y)) ? 0 : 1;
        }
        QCOMPARE(filled, 6);
        QCOMPARE(map->data()->cell(1, 1), 250.0);     // 16,8
        QCOMPARE(map->data()->cell(2, 1), 200.0);     // 32,8
        QVERIFY(std::isnan(map->data()->cell(0, 2))); // 8,16 did not run
        QVERIFY(std::isnan(map->data()->cell(1, 0))); // 16,4 was not tried
        QCOMPARE(map->dataRange().lower, 200.0);
        QCOMPARE(map->dataRange().upper, 500.0);
        // The marks in the left part of their cells (column 2, row 1 is 32,8).
        auto cellOf = [](const QCPGraph *graph) {
            QList<QPoint> cells;
            for (const QPointF &p : points(graph))
                cells << QPoint(int(std::lround(p.x())), int(std::lround(p.y())));
            return cells;
        };
        QCOMPARE(cellOf(chart->differGraph()), QList<QPoint>{QPoint(2, 1)});
        QCOMPARE(cellOf(chart->failedGraph()), QList<QPoint>{QPoint(0, 2)});
        QCOMPARE(cellOf(chart->bestGraph()), QList<QPoint>{QPoint(1, 1)});
        QVERIFY(!chart->timesGraph());
        chart->resize(600, 400);
        chart->plot()->replot();
        const QPointF cell(chart->plot()->xAxis->coordToPixel(1.2), chart->plot()->yAxis->coordToPixel(0.9));
        QCOMPARE(chart->pointAt(cell), 3);

        QCOMPARE(dialog.table()->topLevelItemCount(), 8);
        QCOMPARE(dialog.bestLocal(), std::optional<QString>(QStringLiteral("16,8")));
        QSignalSpy use(&dialog, &SweepDialog::useLocalSize);
        dialog.useBestButton()->click();
        QCOMPARE(use.at(0).at(0).toString(), QStringLiteral("16,8"));
    }

    // One row of shapes has no area to colour, and 3-D or mixed lists have no common axes: by label.
    void otherShapesByLabel()
    {
        SweepDialog dialog(m_workers);
        dialog.showResult(
            sweep({ran({4, 4, 4}, 90), ran({8, 8, 1}, 80), ran({64}, 85), notRun({4, 4, 8})}, 1));
        QCOMPARE(dialog.chart()->kind(), SweepChart::Kind::Labels);
        QCOMPARE(points(dialog.chart()->timesGraph()).size(), 3);
        QCOMPARE(points(dialog.chart()->bestGraph()), QList<QPointF>{QPointF(1, 80)});
        QCOMPARE(points(dialog.chart()->failedGraph()).size(), 1);

        dialog.showResult(sweep({ran({16, 16}, 90), ran({16, 8}, 80)}, 1));
        QCOMPARE(dialog.chart()->kind(), SweepChart::Kind::Labels);
    }

    // The driver's choice as the best: a line in the best colour, and Use best empties the field.
    void driverIsBest()
    {
        SweepDialog dialog(m_workers);
        dialog.showResult(sweep({ran({64}, 200), ran({}, 100), ran({128}, 150)}, 1));
        QCOMPARE(dialog.chart()->kind(), SweepChart::Kind::Sizes);
        QVERIFY(dialog.chart()->bestGraph()->data()->isEmpty());
        QVERIFY(dialog.chart()->driverGraph()->name().contains(QStringLiteral("best")));
        QCOMPARE(dialog.bestLocal(), std::optional<QString>(QString()));
        ArgumentsPanel panel;
        panel.setRange(QStringLiteral("1024"), QStringLiteral("64"));
        connect(&dialog, &SweepDialog::useLocalSize, &panel, &ArgumentsPanel::setLocalSize);
        dialog.useBestButton()->click();
        QCOMPARE(panel.state().local, QString());
    }

    void noBestDisablesUseBest()
    {
        SweepDialog dialog(m_workers);
        QVERIFY(!dialog.useBestButton()->isEnabled());
        dialog.showResult(sweep({notRun({64}), notRun({128})}, std::nullopt));
        QVERIFY(!dialog.useBestButton()->isEnabled());
        QVERIFY(!dialog.bestLocal());
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("No local size ran")));
    }

    // A sweep saved by clscope-cli sweep --json (here: written by the same core function) opens in the window
    // as it was made; a file that is no sweep document is refused with the reason.
    void openSavedResults()
    {
        QTemporaryDir dir;
        const SweepResult made =
            sweep({ran({64}, 200, 4), ran({32}, 150, 3), differs({128}, 100), notRun({256})}, 1);
        const QString good = dir.filePath(QStringLiteral("sweep.json"));
        QFile f(good);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(sweepResultToJson(made)));
        f.close();
        SweepDialog dialog(m_workers);
        QVERIFY(dialog.openButton()->isEnabled());
        QString error;
        QVERIFY2(dialog.openResults(good, &error), qPrintable(error));
        QCOMPARE(dialog.result().points.size(), std::size_t(4));
        QCOMPARE(dialog.bestLocal(), std::optional<QString>(QStringLiteral("32")));
        QCOMPARE(dialog.table()->topLevelItemCount(), 4);
        QVERIFY(dialog.statusLabel()->text().contains(QStringLiteral("sweep.json")));

        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("{\"kernel\": \"k\"}");
        b.close();
        QVERIFY(!dialog.openResults(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("results")), qPrintable(error));
        QVERIFY(!dialog.openResults(dir.filePath(QStringLiteral("missing.json")), &error));
        QCOMPARE(dialog.result().points.size(), std::size_t(4)); // what was shown stays
    }

    // Issue 27: a FIFO as the results file blocked the window, /dev/zero was read until bad_alloc.
    void openResultsRefusesFilesThatAreNotRegular()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("sweep.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        SweepDialog dialog(m_workers);
        for (const auto &[path, reason] :
             {std::pair{fifo, QStringLiteral("not a regular file (a FIFO)")},
              std::pair{QStringLiteral("/dev/zero"),
                        QStringLiteral("not a regular file (a character device)")}}) {
            QString error;
            QVERIFY(!dialog.openResults(path, &error));
            QCOMPARE(error, reason);
            QVERIFY2(dialog.statusLabel()->text().contains(reason), qPrintable(dialog.statusLabel()->text()));
        }
    }

    void badCandidateListIsRefused()
    {
        SweepDialog dialog(m_workers);
        QSignalSpy failed(&dialog, &SweepDialog::sweepFailed);
        dialog.candidatesField()->setText(QStringLiteral("16,16;banana"));
        QVERIFY(!dialog.start(RunRequest{}));
        QCOMPARE(failed.size(), 1);
        QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("banana")),
                 qPrintable(dialog.statusLabel()->text()));
        QVERIFY(!dialog.isRunning());
        QVERIFY(dialog.sweepButton()->isEnabled());
    }
};

QTEST_MAIN(TestSweepDialog)
#include "tst_sweepdialog.moc"
