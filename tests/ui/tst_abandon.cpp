// A kernel that runs for seconds never freezes the window: offscreen, a spinning kernel is started with
// F5, the event loop keeps its pace while it runs, Stop abandons it, its late result never arrives, and
// the next run works.
#include "controllers/runcontroller.h"
#include "widgets/argumentspanel.h"
#include "widgets/editortabs.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include <QElapsedTimer>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

namespace {
// About n dependent multiply-adds: float math without fast-math cannot be folded away.
const char *const kSpin = R"(__kernel void spin(__global float *out, const uint n)
{
    float acc = 0.0f;
    for (uint k = 0; k < n; ++k)
        acc = acc * 0.999f + 1.0f;
    out[get_global_id(0)] = acc;
}
)";
} // namespace

class TestAbandon : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_dir.path().toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        const QString path = m_dir.filePath(QStringLiteral("spin.cl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kSpin);
        f.close();
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<EditorTabs>(*m_window)->openFile(path));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        QString error;
        QVERIFY2(
            part<ArgumentsPanel>(*m_window)->applySpec(QStringLiteral("out=buffer:float:1:zeros"), &error),
            qPrintable(error));
        part<ArgumentsPanel>(*m_window)->setRange(QStringLiteral("1"), QString());
    }

    void longRunStaysResponsiveAndIsAbandoned()
    {
        QString error;
        // Billions of iterations: many seconds on PoCL here.
        QVERIFY(part<ArgumentsPanel>(*m_window)->applySpec(QStringLiteral("n=uint:3000000000"), &error));
        RunController *controller = part<RunCoordinator>(*m_window)->controller();
        QSignalSpy finished(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QSignalSpy failed(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QSignalSpy abandoned(controller, &RunController::runAbandoned);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(controller->isBusy());
        QVERIFY(part<ArgumentsPanel>(*m_window)->stopButton()->isEnabled());

        // While the kernel runs, the event loop keeps its pace: ten 50 ms waits take about 0.5 s.
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 10; ++i)
            QTest::qWait(50);
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(controller->isBusy()); // still running: the kernel is long enough for the test

        part<ArgumentsPanel>(*m_window)->stopButton()->click();
        QCOMPARE(abandoned.size(), 1);
        QVERIFY(!controller->isBusy());
        QVERIFY(part<ArgumentsPanel>(*m_window)->runButton()->isEnabled());

        // The late result is dropped: no finished (or failed) signal while the kernel ends in the
        // background; a short run after it completes normally.
        QVERIFY(part<ArgumentsPanel>(*m_window)->applySpec(QStringLiteral("n=uint:10"), &error));
        QVERIFY(controller->abandonedStillRunning());
        QVERIFY(part<RunCoordinator>(*m_window)->runCurrent());
        // The next run says what it waits for.
        QVERIFY2(m_window->statusBar()->currentMessage().startsWith(
                     QStringLiteral("Waiting for the stopped kernel")),
                 qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(finished.wait(180000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(failed.isEmpty());
        const RunResult r = finished.at(0).at(0).value<RunResult>();
        QCOMPARE(r.launches().size(), std::size_t(1));
        // The short run's kernel is short: the first, abandoned one never reported.
        QVERIFY(r.launches().front().duration() < 1'000'000'000);
        QTest::qWait(200);
        QCOMPARE(finished.size(), 1);
    }
};

QTEST_MAIN(TestAbandon)
#include "tst_abandon.moc"
