// "Run with memory check" through the real main window, offscreen: a kernel with an out-of-bounds read
// is built on PoCL, its arguments filled in the panel, checked with Ctrl+F5 on Oclgrind (a child
// clscope-cli), and the finding shows in the diagnostics list and as an error marker on its line; a
// correct kernel checks clean; the pure view of a child's result names a failed run's reason.
#include "clscope/lineprofile.h"
#include "widgets/argumentspanel.h"
#include "widgets/buildlogpanel.h"
#include "widgets/capturedock.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/rooflineview.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/checkcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/rooflinecoordinator.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

class TestCheckGui : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    void fill(const QStringList &specs, const QString &global)
    {
        for (const QString &spec : specs) {
            QString error;
            QVERIFY2(part<ArgumentsPanel>(*m_window)->applySpec(spec, &error), qPrintable(error));
        }
        part<ArgumentsPanel>(*m_window)->setRange(global, QString());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_dir.path().toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        m_window = std::make_unique<MainWindow>();
        part<CheckCoordinator>(*m_window)->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        m_window->show();
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<EditorTabs>(*m_window)->openFile(QStringLiteral(CLSCOPE_TEST_DATA "/check/bugs.cl")));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
    }

    void outOfBoundsReadAtItsLine()
    {
        QVERIFY(part<ArgumentsPanel>(*m_window)->setCurrentKernel(QStringLiteral("oob_read")));
        fill({QStringLiteral("in=buffer:float:16:iota"), QStringLiteral("out=buffer:float:16:zeros")},
             QStringLiteral("16"));
        QSignalSpy finished(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFinished);
        QSignalSpy failed(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFailed);
        QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ControlModifier);
        QVERIFY(part<CheckCoordinator>(*m_window)->isBusy());
        QVERIFY(finished.wait(120000) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(finished.at(0).at(1).toInt() >= 1);

        // In the list: line 8 of bugs.cl, an invalid read, naming the buffer, the kernel and the work-item.
        QTreeWidget *list = m_window->findChild<DiagnosticsPanel *>()->list();
        bool found = false;
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = list->topLevelItem(i);
            const QString row = [&] {
                QStringList cells;
                for (int c = 0; c < item->columnCount(); ++c)
                    cells << item->text(c);
                return cells.join(u'|');
            }();
            if (row.contains(
                    QStringLiteral("read 4 bytes one past the end of in (16 x float) at index 16, by "
                                   "work-item 15")) &&
                row.contains(QStringLiteral("oob_read")) && row.contains(QStringLiteral("8")))
                found = true;
        }
        QVERIFY2(found, "no read past the end of in by oob_read at line 8 in the diagnostics list");
        // On the editor: an error marker on line 8.
        KernelEditor *editor = part<BuildCoordinator>(*m_window)->builtEditor();
        QVERIFY(editor);
        QVERIFY(editor->markedLines(EditorDiagnostic::Severity::Error).contains(8));
        QVERIFY(part<CheckCoordinator>(*m_window)->lastView().summary.contains(QStringLiteral("error")));
    }

    void cleanKernelChecksClean()
    {
        QVERIFY(part<ArgumentsPanel>(*m_window)->setCurrentKernel(QStringLiteral("clean")));
        fill({QStringLiteral("in=buffer:float:16:iota"), QStringLiteral("out=buffer:float:16:zeros"),
              QStringLiteral("n=uint:16")},
             QStringLiteral("16"));
        QSignalSpy finished(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFinished);
        QVERIFY(part<CheckCoordinator>(*m_window)->checkCurrent());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.at(0).at(1).toInt(), 0);
        QVERIFY(part<CheckCoordinator>(*m_window)->lastView().summary.endsWith(QStringLiteral("clean")));
        QVERIFY(part<BuildCoordinator>(*m_window)
                    ->builtEditor()
                    ->markedLines(EditorDiagnostic::Severity::Error)
                    .isEmpty());
    }

    // The child is watched through QProcess, not waited on by a worker: a build started while the check
    // runs finishes before the check does (it used to queue behind it on the one shared worker).
    void buildDoesNotWaitForTheCheck()
    {
        QVERIFY(part<ArgumentsPanel>(*m_window)->setCurrentKernel(QStringLiteral("clean")));
        fill({QStringLiteral("in=buffer:float:16:iota"), QStringLiteral("out=buffer:float:16:zeros"),
              QStringLiteral("n=uint:16")},
             QStringLiteral("16"));
        QSignalSpy finished(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFinished);
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<CheckCoordinator>(*m_window)->checkCurrent());
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        QVERIFY(finished.isEmpty());
        QVERIFY(part<CheckCoordinator>(*m_window)->isBusy());
        QVERIFY(finished.wait(120000));
    }

    void failedRunNamesItsReason()
    {
        CheckChildResult r;
        r.exitCode = 1;
        r.err = "clscope-cli: clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE\n";
        QCOMPARE(
            viewOfCheck(r).summary,
            QStringLiteral("Memory check failed: clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE"));
        r.err.clear();
        r.exitCode = -1;
        r.signal = 9;
        QVERIFY(viewOfCheck(r).summary.contains(QStringLiteral("signal 9")));
    }

    // An unsaved buffer: the report lands in its tab, at its line, never at the session's copy.
    void unsavedBufferReportsLandInItsTab()
    {
        part<EditorTabs>(*m_window)->newDocument();
        KernelEditor *editor = part<EditorTabs>(*m_window)->currentEditor();
        editor->setText(
            QStringLiteral("__kernel void oob_read(__global const float *in, __global float *out)\n"
                           "{\n    const size_t i = get_global_id(0);\n    out[i] = in[i + 1];\n}\n"));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        QTest::qWait(1);
        fill({QStringLiteral("in=buffer:float:16:iota"), QStringLiteral("out=buffer:float:16:zeros")},
             QStringLiteral("16"));
        QSignalSpy finished(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFinished);
        QSignalSpy failed(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFailed);
        QVERIFY(part<CheckCoordinator>(*m_window)->checkCurrent());
        QVERIFY(finished.wait(120000) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(editor->markedLines(EditorDiagnostic::Severity::Error).contains(4));
        QTreeWidget *list = m_window->findChild<DiagnosticsPanel *>()->list();
        QVERIFY(list->topLevelItemCount() >= 1);
        QCOMPARE(list->topLevelItem(0)->text(1), part<EditorTabs>(*m_window)->title());
        QVERIFY(!list->topLevelItem(0)->toolTip(1).contains(QStringLiteral(".cl")) ||
                list->topLevelItem(0)->toolTip(1).contains(QStringLiteral("unsaved")));
    }

    // The check builds on Oclgrind from the user's options, as clscope-cli run --check does: the PoCL build's
    // own define and CLSCOPE_BUILD_OPTIONS, which the child adds itself, are not handed to it again (they
    // were: this kernel's #error fired on Oclgrind, and the environment's options came twice).
    void checkBuildsFromTheUsersOptions()
    {
        qputenv("CLSCOPE_BUILD_OPTIONS", "-DCLSCOPE_TEST_ENV=1");
        struct Restore
        {
            QComboBox *options;
            ~Restore()
            {
                qunsetenv("CLSCOPE_BUILD_OPTIONS");
                options->setEditText(QString());
            }
        } restore{part<BuildCoordinator>(*m_window)->optionsBox()};
        part<EditorTabs>(*m_window)->newDocument();
        // The new tab's own options (a new tab starts with none).
        part<BuildCoordinator>(*m_window)->optionsBox()->setEditText(
            QStringLiteral("-D CLSCOPE_TEST_USER=2"));
        part<EditorTabs>(*m_window)->currentEditor()->setText(
            QStringLiteral("#if defined(CLSCOPE_USING_POCL) && defined(CLSCOPE_USING_OCLGRIND)\n"
                           "#error the check was handed the PoCL build's options\n"
                           "#endif\n"
                           "__kernel void scale(__global const float *in, __global float *out)\n"
                           "{\n    const size_t i = get_global_id(0);\n"
                           "    out[i] = in[i] * CLSCOPE_TEST_ENV * CLSCOPE_TEST_USER;\n}\n"));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        const BuildResult build = built.at(0).at(0).value<BuildResult>();
        QVERIFY2(build.success(), build.logs().empty() ? "" : build.logs().front().log.c_str());
        QCOMPARE(build.userOptions(), std::string("-D CLSCOPE_TEST_USER=2"));
        QVERIFY(build.options().find("CLSCOPE_USING_POCL") != std::string::npos);
        QVERIFY(build.options().find("CLSCOPE_TEST_ENV") != std::string::npos);
        QTest::qWait(1);
        fill({QStringLiteral("in=buffer:float:16:iota"), QStringLiteral("out=buffer:float:16:zeros")},
             QStringLiteral("16"));
        QSignalSpy finished(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFinished);
        QSignalSpy failed(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFailed);
        QVERIFY(part<CheckCoordinator>(*m_window)->checkCurrent());
        QVERIFY(finished.wait(120000) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        QVERIFY2(part<CheckCoordinator>(*m_window)->lastView().summary.endsWith(QStringLiteral("clean")),
                 qPrintable(part<CheckCoordinator>(*m_window)->lastView().summary));
        // The child got the options as typed: an unsaved buffer has no folder to add.
        const std::vector<std::string> &args = part<CheckCoordinator>(*m_window)->lastChildArguments();
        const auto options = std::find(args.begin(), args.end(), std::string("--options"));
        QVERIFY(options != args.end() && options + 1 != args.end());
        QCOMPARE(*(options + 1), std::string("-D CLSCOPE_TEST_USER=2"));
    }

    void noCheckWithoutARun()
    {
        part<ArgumentsPanel>(*m_window)->setRange(QString(), QString());
        QSignalSpy failed(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFailed);
        QVERIFY(!part<CheckCoordinator>(*m_window)->checkCurrent());
        QCOMPARE(failed.size(), 1);
    }

    // Issue 30 in the workbench: Alt+F5 counts the launch on Oclgrind, times it on the current device (PoCL)
    // and sets it against PoCL's roofs; a copy of N floats moves 8N bytes, its line is the hottest of the
    // editor's heat gutter, and an edit takes the heat away (it is of the text that was counted).
    void rooflineOfTheLaunch()
    {
        QVERIFY(part<EditorTabs>(*m_window)->openFile(QStringLiteral(CLSCOPE_TEST_DATA "/lines/work.cl")));
        QSignalSpy built(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        QVERIFY(built.wait(120000));
        QVERIFY(part<ArgumentsPanel>(*m_window)->setCurrentKernel(QStringLiteral("copy")));
        fill({QStringLiteral("a=buffer:float:4096:iota"), QStringLiteral("b=buffer:float:4096")},
             QStringLiteral("4096"));
        auto *rooflines = part<RooflineCoordinator>(*m_window);
        rooflines->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        rooflines->setExtraArguments({QStringLiteral("--effort"), QStringLiteral("quick")});
        // Sampled: 8 of the launch's 4096 work-groups of one work-item (Oclgrind's choice), a budget both
        // Roofline panels share and the settings keep.
        auto *view = m_window->findChild<RooflineView *>(QStringLiteral("launchRooflineView"));
        QVERIFY(view);
        view->sampleGroupsBox()->setValue(8);
        QCOMPARE(m_window->findChild<CaptureDock *>()->rooflineView()->sampleGroupsBox()->value(), 8);
        QCOMPARE(QSettings().value(QStringLiteral("roofline/sampleGroups")).toInt(), 8);
        QTemporaryDir peaks;
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(peaks.path()));
        QSignalSpy finished(rooflines, &RooflineCoordinator::countFinished);
        QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::AltModifier);
        QVERIFY(rooflines->isBusy());
        QVERIFY2(finished.wait(300000), qPrintable(rooflines->lastArguments().join(u' ')));
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QVERIFY2(finished.at(0).at(0).toString().isEmpty(), qPrintable(finished.at(0).at(0).toString()));
        const QStringList args = rooflines->lastArguments();
        QCOMPARE(args.front(), QStringLiteral("roofline"));
        QVERIFY(args.contains(QStringLiteral("--device")));
        QCOMPARE(args.at(args.indexOf(QStringLiteral("--sample-groups")) + 1), QStringLiteral("8"));

        QCOMPARE(view->document().kernels.size(), std::size_t(1));
        const RooflineKernel &k = view->document().kernels.front();
        QCOMPARE(k.bytes, quint64(8 * 4096));
        QCOMPARE(k.flops, quint64(0));
        QVERIFY(k.memoryBound && k.percentOfRoof > 0);
        QCOMPARE(k.launches, quint64(10));
        QCOMPARE(view->kernelTable()->item(0, 0)->text(), QStringLiteral("copy"));
        QVERIFY2(k.lines.sampling.startsWith(QStringLiteral("sampled 8 of 4096 work-groups")),
                 qPrintable(k.lines.sampling));
        view->selectKernel(0);
        QVERIFY2(view->linesTitle()->text().contains(QStringLiteral("; sampled 8 of 4096 work-groups")),
                 qPrintable(view->linesTitle()->text()));
        view->sampleGroupsBox()->setValue(int(clscope::kDefaultSampleGroups));

        KernelEditor *editor = part<BuildCoordinator>(*m_window)->builtEditor();
        QVERIFY(editor && editor->hasLineHeat());
        QCOMPARE(editor->text(4).trimmed(), QStringLiteral("b[i] = a[i];"));
        QCOMPARE(editor->heatLevelAt(5), kHeatLevels);
        QVERIFY2(editor->heatDetailsAt(5).contains(QStringLiteral("32768 B global")),
                 qPrintable(editor->heatDetailsAt(5)));
        QVERIFY(editor->heatTextAt(1).isEmpty()); // a comment executes nothing
        editor->insertAt(QStringLiteral(" "), 0, 0);
        QVERIFY(!editor->hasLineHeat());
        editor->undo();
    }
};

QTEST_MAIN(TestCheckGui)
#include "tst_checkgui.moc"
