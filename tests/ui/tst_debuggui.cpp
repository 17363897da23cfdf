// The kernel debugger through the real main window, offscreen (issue 29's "done when"): the reduction sample
// is built on PoCL, a breakpoint set in the editor's margin for work-item 5 only, Debug (F6) runs the launch
// on Oclgrind in a child and stops there (the line marked, the work-item's variables in the Debugger panel),
// F10 steps over and across the barrier (the whole group arrived: the local sum has everyone's element),
// work-item 6 is chosen and read, F6 continues to the end; a breakpoint on a line no work-item reaches lets
// the launch end and says so; Stop ends a paused launch. At a stop, Show in results puts the global buffers
// (the elements the plugin sent) in the results viewer, said to be the stop's, and the last run's result
// comes back at the end of the session.
#include "models/buffertablemodel.h"
#include "widgets/argumentspanel.h"
#include "widgets/debugview.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/resultsviewer.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/debugcoordinator.h"
#include "windows/mainwindow.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

namespace {
int lineOf(const KernelEditor *editor, const char *text)
{
    for (int i = 0; i < editor->lines(); ++i) {
        if (editor->text(i).contains(QLatin1String(text)))
            return i + 1;
    }
    return 0;
}
} // namespace

class TestDebugGui : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    KernelEditor *m_editor = nullptr;

    DebugCoordinator *debugger() { return part<DebugCoordinator>(*m_window); }
    DebugView *view() { return m_window->findChild<DebugView *>(QStringLiteral("debugView")); }

    // Presses key and waits until the stop's views are filled.
    bool stopAfter(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QSignalSpy shown(debugger(), &DebugCoordinator::stopShown);
        QTest::keyClick(m_window.get(), key, modifiers);
        return shown.wait(120000);
    }

private slots:
    void initTestCase()
    {
        if (!QFile::exists(QStringLiteral("/usr/bin/oclgrind")))
            QSKIP("Oclgrind is not installed (packaging/install-deps.sh installs it)");
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_dir.path().toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        m_window = std::make_unique<MainWindow>();
        debugger()->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        m_window->resize(1280, 800);
        m_window->show();
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<EditorTabs>(*m_window)->openSample(QStringLiteral("reduction.cl")));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        m_editor = part<BuildCoordinator>(*m_window)->builtEditor();
        QVERIFY(m_editor);
    }

    void breakStepAcrossBarrierSwitchContinue()
    {
        const int store = lineOf(m_editor, "scratch[lid] = gid < n");
        const int barrier = lineOf(m_editor, "barrier(CLK_LOCAL_MEM_FENCE);");
        const int loop = lineOf(m_editor, "for (size_t stride");
        QVERIFY(store > 0 && barrier == store + 1 && loop > barrier);
        // A click in the margin left of the line numbers sets a breakpoint.
        QSignalSpy changed(m_editor, &KernelEditor::breakpointsChanged);
        emit m_editor->marginClicked(1, store - 1, Qt::NoModifier);
        QCOMPARE(m_editor->breakpointLines(), QVector<int>{store});
        QCOMPARE(changed.size(), 1);
        view()->onlyItemEdit()->setText(QStringLiteral("5"));
        // A last run's result in the results viewer, which the debugger's buffers must not lose.
        ResultsViewer *results = part<ResultsViewer>(*m_window);
        {
            RunResultData run;
            run.kernel = "earlier";
            run.device = "a device";
            BufferData kept;
            kept.name = "kept";
            kept.type = ElementType{ScalarKind::Int, 1};
            kept.count = 3;
            kept.bytes.assign(12, 0);
            kept.bytes[4] = 7;
            run.buffers.push_back(kept);
            results->showResult(RunResult(std::move(run)));
        }
        const QString runHeader = results->headerText();
        QVERIFY(runHeader.startsWith(QStringLiteral("earlier on a device")));

        QVERIFY(stopAfter(Qt::Key_F6));
        QCOMPARE(debugger()->lastStop().reason, std::string("breakpoint"));
        QCOMPARE(debugger()->lastStop().line, store);
        QCOMPARE(debugger()->lastStop().item.global, (WorkItemId{5, 0, 0}));
        QCOMPARE(m_editor->executionLine(), store);
        QCOMPARE(view()->valueOf({QStringLiteral("gid")}), QStringLiteral("5"));
        QCOMPARE(view()->valueOf({QStringLiteral("lid")}), QStringLiteral("5"));
        QCOMPARE(view()->valueOf({QStringLiteral("n")}), QStringLiteral("4096"));
        QVERIFY(view()->statusText().contains(QStringLiteral("reduction.cl")));
        // The group's work-items with where each is: 0-4 wait at the barrier, 5 stopped, the rest not
        // started.
        QComboBox *chooser = view()->itemChooser();
        QCOMPARE(chooser->count(), 256);
        QVERIFY2(chooser->itemText(0).contains(QStringLiteral("barrier")), qPrintable(chooser->itemText(0)));
        QVERIFY(chooser->itemText(5).contains(QStringLiteral("stopped")));
        QVERIFY(chooser->itemText(6).contains(QStringLiteral("not started")));
        QCOMPARE(view()->framesTree()->topLevelItemCount(), 1);

        QVERIFY(stopAfter(Qt::Key_F10));
        QCOMPARE(debugger()->lastStop().line, barrier);
        QCOMPARE(view()->valueOf({QStringLiteral("scratch"), QStringLiteral("*scratch")}),
                 QStringLiteral("1"));
        QVERIFY(stopAfter(Qt::Key_F10));
        QCOMPARE(debugger()->lastStop().reason, std::string("barrier"));
        // The global buffers as they are: input's 4096 ones, partial's zeros (no group has written yet).
        QTreeWidget *buffers = view()->buffersTree();
        QCOMPARE(buffers->topLevelItemCount(), 2);
        QCOMPARE(buffers->topLevelItem(0)->text(0), QStringLiteral("input"));
        QVERIFY2(buffers->topLevelItem(0)->text(2).startsWith(QStringLiteral("const float[4096]")),
                 qPrintable(buffers->topLevelItem(0)->text(2)));
        QCOMPARE(buffers->topLevelItem(0)->childCount(), 1024); // the first 1024 are shown, and said so
        QVERIFY(buffers->topLevelItem(0)->text(2).contains(QStringLiteral("first 1024 of 4096")));
        QCOMPARE(buffers->topLevelItem(0)->child(1023)->text(1), QStringLiteral("1"));
        QCOMPARE(buffers->topLevelItem(1)->text(0), QStringLiteral("partial"));
        QCOMPARE(buffers->topLevelItem(1)->child(0)->text(1), QStringLiteral("0"));
        QCOMPARE(debugger()->lastStop().line, loop);
        QCOMPARE(debugger()->lastStop().item.global, (WorkItemId{5, 0, 0}));
        QVERIFY(view()->statusText().contains(QStringLiteral("256 work-items reached the barrier")));
        QVERIFY(view()->itemChooser()->itemText(255).contains(QStringLiteral("ready")));

        // Show in results, an element of partial chosen: the stop's buffers in the results viewer, partial
        // shown, labelled as the contents at the stop and not a run's result, with which elements are there.
        QVERIFY(!results->showsSnapshot());
        QVERIFY(view()->showInResultsButton()->isEnabled());
        buffers->setCurrentItem(buffers->topLevelItem(1)->child(3));
        QTest::mouseClick(view()->showInResultsButton(), Qt::LeftButton);
        QVERIFY(results->showsSnapshot());
        QVERIFY(results->lastRunButton()->isVisibleTo(results));
        const QString header = results->headerText();
        QVERIFY2(
            header.contains(QStringLiteral("At the debugger stop, line %1 of reduction.cl, work-item (5,0,0)")
                                .arg(loop)) &&
                header.contains(QStringLiteral("not a run's result")) &&
                header.contains(QStringLiteral("input: elements 0 to 1023 of 4096")) &&
                !header.contains(QStringLiteral("partial:")),
            qPrintable(header));
        QCOMPARE(results->shownBuffer(), QStringLiteral("partial"));
        BufferTableModel *table = results->model();
        QCOMPARE(table->rowCount(), 16); // one per work-group: all of it was sent
        QCOMPARE(table->index(0, 0).data().toString(), QStringLiteral("0"));
        // input: the 1024 elements sent, typed as the kernel's (float: Hex shows their bits).
        QVERIFY(results->selectBuffer(QStringLiteral("input")));
        QCOMPARE(table->buffer().type.name(), std::string("float"));
        QCOMPARE(table->rowCount(), 1024);
        QCOMPARE(table->index(1023, 0).data().toString(), QStringLiteral("1"));
        table->setFormat(NumberFormat::Hex);
        QCOMPARE(table->index(0, 0).data().toString(), QStringLiteral("0x3f800000"));
        table->setFormat(NumberFormat::Decimal);
        QVERIFY2(results->summaryText().startsWith(QStringLiteral("1024 values   min 1   max 1")),
                 qPrintable(results->summaryText()));
        // Back to the last run, and to the stop's buffers again.
        QTest::mouseClick(results->lastRunButton(), Qt::LeftButton);
        QVERIFY(!results->showsSnapshot());
        QCOMPARE(results->headerText(), runHeader);
        QCOMPARE(results->shownBuffer(), QStringLiteral("kept"));
        QCOMPARE(table->index(1, 0).data().toString(), QStringLiteral("7"));
        QTest::mouseClick(view()->showInResultsButton(), Qt::LeftButton);
        QVERIFY(results->showsSnapshot());
        QCOMPARE(results->result().buffers().size(), std::size_t(2));

        // Work-item 6 by its id: its own variables; the stop stays work-item 5's.
        QSignalSpy shown(debugger(), &DebugCoordinator::stopShown);
        view()->itemEdit()->setText(QStringLiteral("6"));
        QTest::keyClick(view()->itemEdit(), Qt::Key_Return);
        QVERIFY(shown.wait(30000));
        QCOMPARE(view()->valueOf({QStringLiteral("gid")}), QStringLiteral("6"));
        QVERIFY(view()->tabs()->tabText(0).contains(QStringLiteral("(6,0,0)")));
        // By its local id in the group: local 7 is work-item 7 of group 0.
        {
            QSignalSpy byLocal(debugger(), &DebugCoordinator::stopShown);
            view()->itemEdit()->setText(QStringLiteral("local 7"));
            QTest::keyClick(view()->itemEdit(), Qt::Key_Return);
            QVERIFY(byLocal.wait(30000));
            QCOMPARE(view()->valueOf({QStringLiteral("lid")}), QStringLiteral("7"));
        }
        // A work-item of another group cannot be read while this one runs: said, not guessed.
        QSignalSpy again(debugger(), &DebugCoordinator::stopShown);
        debugger()->selectItem({300, 0, 0});
        QVERIFY(again.wait(30000));
        QVERIFY(
            view()->variablesTree()->topLevelItem(0)->text(0).contains(QStringLiteral("not in the running")));

        QSignalSpy finished(debugger(), &DebugCoordinator::finished);
        QTest::keyClick(m_window.get(), Qt::Key_F6);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        QCOMPARE(m_editor->executionLine(), 0);
        QVERIFY(!debugger()->isActive());
        QVERIFY(view()->statusText().contains(QStringLiteral("ran to its end")));
        // The session is over: the last run's result is back in the results viewer.
        QVERIFY(!results->showsSnapshot());
        QCOMPARE(results->headerText(), runHeader);
        QCOMPARE(results->result().kernel(), std::string("earlier"));
        QVERIFY(!view()->showInResultsButton()->isEnabled());
        emit m_editor->marginClicked(1, store - 1, Qt::NoModifier);
        QVERIFY(m_editor->breakpointLines().isEmpty());
    }

    // A breakpoint's own condition (a right click on the margin asks for it): the first work-item where it
    // holds stops; its own work-item ("item 6", "item 7 if lid == 7"); removing the breakpoint removes it.
    void aBreakpointsOwnCondition()
    {
        view()->onlyItemEdit()->clear();
        const int store = lineOf(m_editor, "scratch[lid] = gid < n");
        m_editor->setBreakpointCondition(store, QStringLiteral("lid == 9"));
        QCOMPARE(m_editor->breakpointLines(), QVector<int>{store});
        QCOMPARE(m_editor->breakpointCondition(store), QStringLiteral("lid == 9"));
        QVERIFY(stopAfter(Qt::Key_F6));
        QCOMPARE(debugger()->lastStop().line, store);
        QCOMPARE(debugger()->lastStop().item.global, (WorkItemId{9, 0, 0}));
        QSignalSpy finished(debugger(), &DebugCoordinator::finished);
        debugger()->stop();
        QVERIFY(finished.wait(30000));
        // Its own work-item, with or without a condition (the panel names none).
        m_editor->setBreakpointCondition(store, QStringLiteral("item 6"));
        QVERIFY(stopAfter(Qt::Key_F6));
        QCOMPARE(debugger()->lastStop().item.global, (WorkItemId{6, 0, 0}));
        QSignalSpy stopped(debugger(), &DebugCoordinator::finished);
        debugger()->stop();
        QVERIFY(stopped.wait(30000));
        m_editor->setBreakpointCondition(store, QStringLiteral("item 7 if lid == 7"));
        QVERIFY(stopAfter(Qt::Key_F6));
        QCOMPARE(debugger()->lastStop().item.global, (WorkItemId{7, 0, 0}));
        QSignalSpy ended(debugger(), &DebugCoordinator::finished);
        debugger()->stop();
        QVERIFY(ended.wait(30000));
        m_editor->setBreakpoint(store, false);
        QVERIFY(m_editor->breakpointLines().isEmpty());
        QCOMPARE(m_editor->breakpointCondition(store), QString());
    }

    void stopEndsAPausedLaunch()
    {
        view()->onlyItemEdit()->clear();
        // No breakpoint: the first work-item stops at its first line.
        QVERIFY(stopAfter(Qt::Key_F6));
        QCOMPARE(debugger()->lastStop().reason, std::string("start"));
        QCOMPARE(debugger()->lastStop().item.global, (WorkItemId{0, 0, 0}));
        QSignalSpy finished(debugger(), &DebugCoordinator::finished);
        QTest::keyClick(m_window.get(), Qt::Key_F6, Qt::ShiftModifier);
        QVERIFY(finished.wait(30000));
        QVERIFY(!debugger()->isActive());
        QVERIFY(view()->statusText().contains(QStringLiteral("Stopped")));
    }

    // A variable the compiler optimised out makes the panel offer to debug again without optimisation; the
    // launch is then run again, built with -cl-opt-disable, to the same breakpoint.
    void optimisedOutOffersARebuild()
    {
        const int loop = lineOf(m_editor, "for (size_t stride");
        m_editor->setBreakpoint(loop, true);
        view()->onlyItemEdit()->setText(QStringLiteral("5"));
        QVERIFY(stopAfter(Qt::Key_F6));
        QVERIFY(!view()->unoptimisedButton()->isVisible());
        DebugValue gone;
        gone.name = "gid";
        gone.type = "size_t";
        gone.error = "optimised out (rebuild with -cl-opt-disable)";
        view()->setVariables(debugger()->lastStop().item, {gone}, QString());
        QVERIFY(view()->unoptimisedButton()->isVisible());
        QSignalSpy shown(debugger(), &DebugCoordinator::stopShown);
        QTest::mouseClick(view()->unoptimisedButton(), Qt::LeftButton);
        QVERIFY(shown.wait(120000));
        const QStringList args = debugger()->lastArguments();
        QVERIFY2(args.contains(QStringLiteral("--options")) &&
                     args.at(args.indexOf(QStringLiteral("--options")) + 1)
                         .contains(QStringLiteral("-cl-opt-disable")),
                 qPrintable(args.join(u' ')));
        QCOMPARE(debugger()->lastStop().line, loop);
        QCOMPARE(view()->valueOf({QStringLiteral("gid")}), QStringLiteral("5"));
        QVERIFY(!view()->unoptimisedButton()->isVisible());
        QSignalSpy finished(debugger(), &DebugCoordinator::finished);
        debugger()->stop();
        QVERIFY(finished.wait(30000));
        m_editor->setBreakpoint(loop, false);
        view()->onlyItemEdit()->clear();
    }

    void aBadLaunchIsSaid()
    {
        QString error;
        QVERIFY(part<ArgumentsPanel>(*m_window)->applySpec(QStringLiteral("n=uint:4096"), &error));
        part<ArgumentsPanel>(*m_window)->setRange(QStringLiteral("4096"), QStringLiteral("3000"));
        QSignalSpy finished(debugger(), &DebugCoordinator::finished);
        QTest::keyClick(m_window.get(), Qt::Key_F6);
        QVERIFY(finished.wait(120000));
        QVERIFY(!finished.at(0).at(0).toString().isEmpty());
        QVERIFY(view()->statusText().startsWith(QStringLiteral("Not debugged")) ||
                view()->statusText().startsWith(QStringLiteral("Cannot debug")));
        part<ArgumentsPanel>(*m_window)->setRange(QStringLiteral("4096"), QStringLiteral("256"));
    }
};

QTEST_MAIN(TestDebugGui)
#include "tst_debuggui.moc"
