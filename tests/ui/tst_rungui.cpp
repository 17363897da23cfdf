// A run through the real main window, offscreen: a sample kernel is opened, built, its arguments filled
// in the panel, run with F5, and its results read in the viewer; bad input names the argument; the run
// history re-runs; per-kernel values come back; Run → Sweep local size times the tiled matrix multiply's
// shapes, and Use best puts the best one in the panel for the next run.
#include "controllers/devicemanager.h"
#include "controllers/poolmonitor.h"
#include "controllers/runcontroller.h"
#include "models/buffertablemodel.h"
#include "widgets/argumentspanel.h"
#include "widgets/bufferimageview.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/runhistory.h"
#include "widgets/structeditor.h"
#include "widgets/sweepchart.h"
#include "widgets/sweepdialog.h"
#include "widgets/timelinedock.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

class TestRunGui : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    RunResult runWithF5()
    {
        QSignalSpy spy(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        if (!spy.wait(120000))
            return {};
        return spy.at(0).at(0).value<RunResult>();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_dir.path().toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<EditorTabs>(*m_window)->openSample(QStringLiteral("vector_add.cl")));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        QCOMPARE(part<ArgumentsPanel>(*m_window)->kernelNames(), QStringList{QStringLiteral("vector_add")});
    }

    void fillRunAndRead()
    {
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        for (const char *spec : {"a=buffer:float:4096:iota", "b=buffer:float:4096:fill=0.5",
                                 "c=buffer:float:4096:zeros", "n=uint:4000"}) {
            QString error;
            QVERIFY2(panel->applySpec(QString::fromLatin1(spec), &error), qPrintable(error));
        }
        panel->setRange(QStringLiteral("4096"), QStringLiteral("64"));
        panel->setReadBack(QStringLiteral("c"), true);
        const RunResult result = runWithF5();
        QCOMPARE(result.launches().size(), size_t(1));
        const BufferData *c = result.buffer("c");
        QVERIFY(c);
        for (std::size_t i = 0; i < 4096; ++i)
            QCOMPARE(c->value(i), i < 4000 ? double(i) + 0.5 : 0.0);
        // The viewer shows it: one row per element, formatted.
        QVERIFY(part<ResultsViewer>(*m_window)->selectBuffer(QStringLiteral("c")));
        BufferTableModel *model = part<ResultsViewer>(*m_window)->model();
        QCOMPARE(model->rowCount(), 4096);
        QCOMPARE(model->index(10, 0).data().toString(), QStringLiteral("10.5"));
        QVERIFY(part<ResultsViewer>(*m_window)->summaryText().contains(QStringLiteral("max 3999.5")));
        model->setFormat(NumberFormat::Scientific);
        QVERIFY(model->index(10, 0).data().toString().contains(u'e'));
        model->setFormat(NumberFormat::Decimal);
        // Compare a with itself and with c.
        QVERIFY(part<ResultsViewer>(*m_window)
                    ->compareWith(QStringLiteral("c"), 0)
                    .startsWith(QStringLiteral("Equal")));
        // Save and compare with the saved .npy.
        const QString npy = m_dir.filePath(QStringLiteral("c.npy"));
        QCOMPARE(part<ResultsViewer>(*m_window)->saveBuffer(npy), QString());
        QVERIFY(part<ResultsViewer>(*m_window)->compareWith(npy, 1e-6).startsWith(QStringLiteral("Equal")));
        QCOMPARE(part<ResultsViewer>(*m_window)->saveBuffer(m_dir.filePath(QStringLiteral("c.csv"))),
                 QString());
        QCOMPARE(part<RunHistoryPanel>(*m_window)->entries().size(), 1);

        // The run's buffers came from the runner's pool, which the pool dock now shows: three 16 KiB
        // buffers, all back in the pool (held) after the run.
        PoolDock *pool = m_window->findChild<PoolDock *>();
        QVERIFY(pool);
        const std::shared_ptr<const RunPool> runPool = part<RunCoordinator>(*m_window)->controller()->pool();
        const auto shown = [&] {
            bool is = false;
            return runPool->read([&](const MemoryPool &p) { is = pool->monitor()->isShowing(&p); }) && is;
        };
        QTRY_VERIFY_WITH_TIMEOUT(shown(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(pool->monitor()->stats().counters.heldBlocks, std::uint64_t(3), 10000);
        QCOMPARE(pool->monitor()->stats().counters.activeBlocks, std::uint64_t(0));
        QCOMPARE(pool->monitor()->poolLabel(), QStringLiteral("Kernel runs"));
        // The timeline got the run's commands and the pool's samples under them.
        TimelineDock *timeline = m_window->findChild<TimelineDock *>();
        QVERIFY(timeline);
        QVERIFY(timeline->records().size() >= 5); // 3 writes, the kernel, the read
        QVERIFY(!timeline->poolSeries().empty());
    }

    void badInputNamesTheArgument()
    {
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QString error;
        QVERIFY(panel->applySpec(QStringLiteral("n=uint:-5"), &error));
        QVERIFY(!panel->makeRequest(&error));
        QVERIFY2(error.contains(QStringLiteral("n")) && error.contains(QStringLiteral("range")),
                 qPrintable(error));
        QVERIFY(!panel->applySpec(QStringLiteral("nosuch=uint:1"), &error));
        QVERIFY2(error.contains(QStringLiteral("nosuch")), qPrintable(error));
        QVERIFY(panel->applySpec(QStringLiteral("n=uint:4000"), &error));
        // A local size over the device limit is refused by name when the run starts.
        panel->setRange(QStringLiteral("4096"), QStringLiteral("8192"));
        QSignalSpy failed(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(failed.wait(120000));
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("CL_DEVICE_MAX_WORK_GROUP_SIZE")),
                 qPrintable(failed.at(0).at(0).toString()));
        panel->setRange(QStringLiteral("4096"), QStringLiteral("64"));
    }

    void historyRerunsAndValuesPersist()
    {
        RunHistoryPanel *history = part<RunHistoryPanel>(*m_window);
        const qsizetype before = history->entries().size();
        history->list()->setCurrentItem(history->list()->topLevelItem(0));
        QSignalSpy spy(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        emit history->rerunRequested(history->entries().front().state);
        QVERIFY(spy.wait(120000));
        QCOMPARE(history->entries().size(), before + 1);
        QCOMPARE(spy.at(0).at(0).value<RunResult>().buffer("c")->value(1), 1.5);

        // Saved per kernel: a fresh panel on the same build gets the values back.
        ArgumentsPanel fresh;
        fresh.setBuild(part<ArgumentsPanel>(*m_window)->build(),
                       part<DeviceManager>(*m_window)->currentDeviceSnapshot());
        QCOMPARE(fresh.state().specs, part<ArgumentsPanel>(*m_window)->state().specs);
        QCOMPARE(fresh.state().global, QStringLiteral("4096"));
    }

    // A kernel's printf shows under its results (as the driver wrote it to stdout during the run), and a
    // run that prints nothing hides the pane.
    void printfUnderResults()
    {
        const int index = part<EditorTabs>(*m_window)->newDocument();
        KernelEditor *editor = part<EditorTabs>(*m_window)->editor(index);
        QVERIFY(editor);
        editor->setText(QStringLiteral("__kernel void hello(__global int *out)\n{\n"
                                       "    const int i = get_global_id(0);\n"
                                       "    printf(\"item %d\\n\", i);\n    out[i] = i;\n}\n"));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        QString error;
        QVERIFY2(part<ArgumentsPanel>(*m_window)->applySpec(QStringLiteral("out=buffer:int:3:zeros"), &error),
                 qPrintable(error));
        part<ArgumentsPanel>(*m_window)->setRange(QStringLiteral("3"), QString());
        const RunResult result = runWithF5();
        QCOMPARE(result.printed(), std::string("item 0\nitem 1\nitem 2\n"));
        auto *pane =
            part<ResultsViewer>(*m_window)->findChild<QPlainTextEdit *>(QStringLiteral("resultsPrintf"));
        QVERIFY(pane);
        QVERIFY(pane->isVisibleTo(part<ResultsViewer>(*m_window)));
        QCOMPARE(pane->toPlainText(), QStringLiteral("item 0\nitem 1\nitem 2\n"));
        part<ResultsViewer>(*m_window)->showResult(RunResult());
        QVERIFY(!pane->isVisibleTo(part<ResultsViewer>(*m_window)));
    }

    // A struct by value filled in its field editor and a buffer of structs filled with one, run, and the
    // result shown a column per field.
    void structEditorRun()
    {
        const int index = part<EditorTabs>(*m_window)->newDocument();
        KernelEditor *editor = part<EditorTabs>(*m_window)->editor(index);
        QVERIFY(editor);
        editor->setText(QStringLiteral(
            "typedef struct { float x; float4 v; struct { uchar a; int b[3]; } inner; } Params;\n"
            "typedef struct { float3 pos; float mass; } Particle;\n"
            "__kernel void apply(Params p, __global Particle *out)\n{\n"
            "    const int i = get_global_id(0);\n"
            "    out[i].pos = (float3)(p.x + i, p.v.y, p.inner.b[2]);\n"
            "    out[i].mass += p.inner.a * 0.5f + i;\n}\n"));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QCOMPARE(panel->kernelNames(), QStringList{QStringLiteral("apply")});
        // The row's {…} button is there for the struct, and the editor fills the row.
        QVERIFY(panel->findChild<QToolButton *>(QStringLiteral("editStruct_p")));
        std::unique_ptr<StructEditor> fields(panel->structEditor(QStringLiteral("p")));
        QVERIFY(fields);
        fields->item(QStringLiteral("x"))->setText(2, QStringLiteral("1.5"));
        fields->item(QStringLiteral("v"))->setText(2, QStringLiteral("1,2,3,4"));
        fields->item(QStringLiteral("inner.a"))->setText(2, QStringLiteral("7"));
        fields->item(QStringLiteral("inner.b"))->setText(2, QStringLiteral("(4,5,6)"));
        QCOMPARE(fields->error(), QString());
        fields->accept();
        QString error;
        QVERIFY2(panel->applySpec(QStringLiteral("out=buffer:Particle:4:zeros"), &error), qPrintable(error));
        // The fill of the buffer of structs, in the same editor: its action is inside the fill field.
        QAction *fillAction = panel->findChild<QAction *>(QStringLiteral("editStruct_out"));
        QVERIFY(fillAction);
        QVERIFY(!fillAction->isVisible()); // zeros: nothing to edit
        std::unique_ptr<StructEditor> fill(panel->structEditor(QStringLiteral("out")));
        QVERIFY(fill);
        fill->item(QStringLiteral("mass"))->setText(2, QStringLiteral("100"));
        fill->accept();
        QVERIFY(fillAction->isVisible());
        panel->setRange(QStringLiteral("4"), QString());
        panel->setReadBack(QStringLiteral("out"), true);
        QVERIFY(panel->state().specs.contains(
            QStringLiteral("p=struct:x=1.5,v=(1,2,3,4),inner={a=7,b=(4,5,6)}")));
        QVERIFY(panel->state().specs.contains(QStringLiteral("out=buffer:Particle:4:fill={mass=100}")));
        const RunResult result = runWithF5();
        QVERIFY(result.buffer("out"));
        QVERIFY(part<ResultsViewer>(*m_window)->selectBuffer(QStringLiteral("out")));
        BufferTableModel *model = part<ResultsViewer>(*m_window)->model();
        QStringList headers;
        for (int c = 0; c < model->columnCount(); ++c)
            headers << model->headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers.join(u','), QStringLiteral("pos.x,pos.y,pos.z,mass"));
        QCOMPARE(model->rowCount(), 4);
        // Element 2: pos (1.5 + 2, v.y, inner.b[2]), mass 100 + 7 * 0.5 + 2.
        QCOMPARE(model->index(2, 0).data().toString(), QStringLiteral("3.5"));
        QCOMPARE(model->index(2, 1).data().toString(), QStringLiteral("2"));
        QCOMPARE(model->index(2, 2).data().toString(), QStringLiteral("6"));
        QCOMPARE(model->index(2, 3).data().toString(), QStringLiteral("105.5"));
        // A value out of range is named before the run.
        QVERIFY(panel->applySpec(QStringLiteral("p=struct:inner={a=300}"), &error));
        QSignalSpy failed(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(failed.wait(120000));
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("p.inner.a")),
                 qPrintable(failed.at(0).at(0).toString()));
    }

    // An image in from a PNG, one out, read back and shown as a picture.
    void imageRun()
    {
        QVERIFY(part<EditorTabs>(*m_window)->openFile(QStringLiteral(CLSCOPE_TEST_DATA "/images/blur.cl")));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QVERIFY(panel->setCurrentKernel(QStringLiteral("blur_box")));
        QString error;
        for (const QString &spec :
             {QStringLiteral("input_image=image2d:RGBA:UNSIGNED_INT8:file=" CLSCOPE_TEST_DATA
                             "/images/picture.png"),
              QStringLiteral("output_image=image2d:RGBA:UNSIGNED_INT8:40x30:zeros"),
              QStringLiteral("size=int:1")}) {
            QVERIFY2(panel->applySpec(spec, &error), qPrintable(error));
        }
        panel->setRange(QStringLiteral("40,30"), QString());
        panel->setReadBack(QStringLiteral("output_image"), true);
        const RunResult result = runWithF5();
        const BufferData *out = result.buffer("output_image");
        QVERIFY(out && out->image);
        ResultsViewer *viewer = part<ResultsViewer>(*m_window);
        QVERIFY(viewer->selectBuffer(QStringLiteral("output_image")));
        QCOMPARE(viewer->layout(), ResultsViewer::Layout::Image2D);
        QCOMPARE(viewer->imageView()->image().size(), QSize(40, 30));
        QVERIFY(viewer->describePixel(5, 5).startsWith(QStringLiteral("x 5, y 5: RGBA ")));
    }

    // The sweep end to end: an invalid launch is refused with its reason, a good one sweeps the shapes
    // given, Use best fills the panel's local size, and F5 runs with it.
    void sweepUseBestThenRun()
    {
        QVERIFY(part<EditorTabs>(*m_window)->openSample(QStringLiteral("matmul_tiled.cl")));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QCOMPARE(panel->currentKernel(), QStringLiteral("matmul_tiled")); // its clscope-run launch
        QCOMPARE(panel->state().global, QStringLiteral("256,256"));
        auto *action = m_window->findChild<QAction *>(QStringLiteral("sweepAction"));
        QVERIFY(action);
        SweepDialog *dialog = part<SweepDialog>(*m_window);
        QVERIFY(!dialog->isVisible());

        panel->setRange(QStringLiteral("256,x"), QStringLiteral("16,16"));
        QSignalSpy refused(part<RunCoordinator>(*m_window), &RunCoordinator::sweepRefused);
        action->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(refused.size(), 1, 120000);
        QVERIFY2(m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Not swept: global size")),
                 qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(!dialog->isVisible());
        QVERIFY(!dialog->isRunning());

        panel->setRange(QStringLiteral("256,256"), QStringLiteral("16,16"));
        // Every shape the device allows, cancelled once the first has run: the sizes that ran are shown.
        QSignalSpy cancelled(dialog, &SweepDialog::sweepFinished);
        action->trigger();
        QVERIFY(dialog->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->progressBar()->value() >= 1, 120000);
        QVERIFY(dialog->cancelButton()->isEnabled());
        const int total = dialog->progressBar()->maximum();
        dialog->cancelButton()->click();
        QVERIFY(cancelled.wait(120000));
        const SweepResult partial = cancelled.at(0).at(0).value<SweepResult>();
        QVERIFY(partial.cancelled);
        QVERIFY(partial.points.size() < std::size_t(total));
        QCOMPARE(dialog->table()->topLevelItemCount(), int(partial.points.size()));
        QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("Cancelled")),
                 qPrintable(dialog->statusLabel()->text()));

        dialog->candidatesField()->setText(QStringLiteral("8,8;32,4;64,2;4,16;driver"));
        dialog->repeatBox()->setValue(2);
        QSignalSpy finished(dialog, &SweepDialog::sweepFinished);
        action->trigger();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->isRunning());
        QVERIFY(finished.wait(180000));
        const SweepResult result = finished.at(0).at(0).value<SweepResult>();
        QCOMPARE(result.points.size(), std::size_t(6)); // the panel's 16,16 first, then the five
        for (const SweepPoint &p : result.points) {
            QVERIFY2(p.ran, p.error.c_str());
            QVERIFY(p.matches); // every shape gives the same C
        }
        QVERIFY(result.best);
        QCOMPARE(dialog->chart()->kind(), SweepChart::Kind::HeatMap);
        QCOMPARE(dialog->table()->topLevelItemCount(), 6);
        QVERIFY(!dialog->cancelButton()->isEnabled());

        const std::optional<QString> best = dialog->bestLocal();
        QVERIFY(best);
        dialog->useBestButton()->click();
        QCOMPARE(panel->state().local, *best);
        // Use best made the main window active again: F5 runs with the size.
        QTRY_COMPARE_WITH_TIMEOUT(QApplication::activeWindow(), m_window.get(), 10000);
        const RunResult run = runWithF5();
        QCOMPARE(run.launches().size(), size_t(1));
        QCOMPARE(QString::fromStdString(formatSizeList(run.local())), *best);
        const BufferData *c = run.buffer("C");
        QVERIFY(c);
        QCOMPARE(c->value(0), 512.0);
        QCOMPARE(c->value(256 * 256 - 1), 512.0);
        dialog->close();
    }

    void cleanupTestCase()
    {
        part<EditorTabs>(*m_window)->setConfirmCallback(
            [](const QString &) { return EditorTabs::CloseChoice::Discard; });
        m_window.reset();
    }
};

QTEST_MAIN(TestRunGui)
#include "tst_rungui.moc"
