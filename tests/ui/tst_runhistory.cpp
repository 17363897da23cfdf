// The run history offscreen: a Device column, times in adaptive units, a failure with the device it was
// started on and the time it took, Clear, and Re-run after Clear.
#include "widgets/runhistory.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace clscope::ui;
using Column = RunHistoryPanel::Column;

namespace {

ArgumentsState state(const QString &kernel)
{
    ArgumentsState s;
    s.kernel = kernel;
    s.global = QStringLiteral("512,512");
    s.specs = {QStringLiteral("n=uint:4")};
    return s;
}

} // namespace

class TestRunHistory : public QObject
{
    Q_OBJECT
private slots:
    void columns()
    {
        RunHistoryPanel panel;
        QTreeWidget *list = panel.list();
        QCOMPARE(list->headerItem()->text(Column::DeviceColumn), QStringLiteral("Device"));
        RunHistoryEntry ok;
        ok.when = QDateTime::currentDateTime();
        ok.state = state(QStringLiteral("mandelbrot"));
        ok.device = QStringLiteral("cpu-haswell-AMD EPYC");
        ok.kernelUs = 1234.567;
        ok.wallMs = 12.345;
        ok.outcome = QStringLiteral("ok");
        panel.add(ok);
        QTreeWidgetItem *row = list->topLevelItem(0);
        QCOMPARE(row->text(Column::KernelColumn), QStringLiteral("mandelbrot"));
        QCOMPARE(row->text(Column::DeviceColumn), QStringLiteral("cpu-haswell-AMD EPYC"));
        QCOMPARE(row->text(Column::KernelTimeColumn), QStringLiteral("1.23 ms"));
        QCOMPARE(row->text(Column::RunColumn), QStringLiteral("12.3 ms"));
        QCOMPARE(row->text(Column::ResultColumn), QStringLiteral("ok"));
    }

    void failureHasDeviceAndDuration()
    {
        RunHistoryPanel panel;
        // Started 1.5 s ago on Oclgrind (a start in the past instead of a wait).
        panel.runStarted(QStringLiteral("Oclgrind Simulator"),
                         std::chrono::steady_clock::now() - std::chrono::milliseconds(1500));
        panel.addFailure(state(QStringLiteral("k")),
                         QStringLiteral("clEnqueueNDRangeKernel failed: OUT_OF_RESOURCES"));
        QCOMPARE(panel.entries().size(), 1);
        const RunHistoryEntry &e = panel.entries().front();
        QCOMPARE(e.device, QStringLiteral("Oclgrind Simulator"));
        QVERIFY2(e.wallMs >= 1500 && e.wallMs < 60'000, qPrintable(QString::number(e.wallMs)));
        QVERIFY(e.failed);
        QTreeWidgetItem *row = panel.list()->topLevelItem(0);
        QCOMPARE(row->text(Column::DeviceColumn), QStringLiteral("Oclgrind Simulator"));
        QVERIFY2(row->text(Column::RunColumn).endsWith(QStringLiteral(" s")),
                 qPrintable(row->text(Column::RunColumn)));
        QVERIFY(row->text(Column::ResultColumn).contains(QStringLiteral("OUT_OF_RESOURCES")));
        QVERIFY(row->text(Column::KernelTimeColumn).isEmpty());

        // The pending start is used once: a later entry without runStarted() has no invented duration.
        RunHistoryEntry plain;
        plain.state = state(QStringLiteral("k"));
        plain.outcome = QStringLiteral("bad");
        panel.add(plain);
        QCOMPARE(panel.entries().at(1).wallMs, 0.0);
        QVERIFY(panel.entries().at(1).device.isEmpty());

        // A successful run keeps its own device and time.
        panel.runStarted(QStringLiteral("Oclgrind Simulator"), std::chrono::steady_clock::now());
        RunHistoryEntry ok;
        ok.state = state(QStringLiteral("k"));
        ok.device = QStringLiteral("pthread");
        ok.wallMs = 0.5;
        panel.add(ok);
        QCOMPARE(panel.entries().at(2).device, QStringLiteral("pthread"));
        QCOMPARE(panel.entries().at(2).wallMs, 0.5);
        QCOMPARE(panel.list()->topLevelItem(2)->text(Column::RunColumn), QStringLiteral("500 \u00b5s"));
    }

    void clearEmptiesAndRerunStillWorks()
    {
        RunHistoryPanel panel;
        QVERIFY(!panel.clearButton()->isEnabled());
        for (const QString &k : {QStringLiteral("a"), QStringLiteral("b")}) {
            RunHistoryEntry e;
            e.state = state(k);
            e.outcome = QStringLiteral("ok");
            panel.add(e);
        }
        QVERIFY(panel.clearButton()->isEnabled());
        panel.clearButton()->click();
        QCOMPARE(panel.entries().size(), 0);
        QCOMPARE(panel.list()->topLevelItemCount(), 0);
        QVERIFY(!panel.clearButton()->isEnabled());

        RunHistoryEntry e;
        e.state = state(QStringLiteral("c"));
        panel.add(e);
        QCOMPARE(panel.list()->topLevelItem(0)->text(Column::NumberColumn), QStringLiteral("1"));
        QSignalSpy rerun(&panel, &RunHistoryPanel::rerunRequested);
        panel.list()->setCurrentItem(panel.list()->topLevelItem(0));
        emit panel.list()->itemDoubleClicked(panel.list()->topLevelItem(0), 0);
        QCOMPARE(rerun.count(), 1);
        QCOMPARE(rerun.at(0).at(0).value<ArgumentsState>().kernel, QStringLiteral("c"));
    }

    void screenshot()
    {
        RunHistoryPanel panel;
        panel.resize(1100, 180);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        RunHistoryEntry ok;
        ok.when = QDateTime::currentDateTime();
        ok.state = state(QStringLiteral("mandelbrot"));
        ok.device = QStringLiteral("cpu-haswell-AMD EPYC 7B13");
        ok.kernelUs = 48'200;
        ok.wallMs = 61.7;
        ok.outcome = QStringLiteral("ok");
        panel.add(ok);
        panel.runStarted(QStringLiteral("Oclgrind Simulator"),
                         std::chrono::steady_clock::now() - std::chrono::milliseconds(2300));
        panel.addFailure(state(QStringLiteral("mandelbrot")),
                         QStringLiteral("clEnqueueNDRangeKernel(mandelbrot) failed: OUT_OF_RESOURCES"));
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/clscope-run-history.png")));
    }
};

QTEST_MAIN(TestRunHistory)
#include "tst_runhistory.moc"
