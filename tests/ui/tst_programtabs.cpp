// Several tabs as one program through the real main window, offscreen (issue 14). main.cl declares and
// calls scale(), which helpers.cl defines: alone it does not build; with Build → Build open tabs as one
// program, Ctrl+B and F5 build both editors' texts (saved or not) as one program, whose kernels all reach
// the Arguments panel and whose run gives the right numbers, also when each tab is compiled apart and
// linked. An edit in the other tab makes F5 build again; an error in it is marked in that tab (an unsaved
// one found by its title); the memory check refuses such a program by name; and the choice is there again
// in the next window.
#include "controllers/buildcontroller.h"
#include "controllers/devicemanager.h"
#include "widgets/argumentspanel.h"
#include "widgets/buildlogpanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/checkcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

namespace {

QString dataText(const char *name)
{
    QFile file(QStringLiteral(CLSCOPE_TEST_DATA "/run/multi/") + QLatin1String(name));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestProgramTabs : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QPointer<KernelEditor> m_main;   // main.cl, saved
    QPointer<KernelEditor> m_helper; // helpers.cl, saved (its text is edited in the editor only)

    EditorTabs *tabs() const { return part<EditorTabs>(*m_window); }
    BuildCoordinator *builds() const { return part<BuildCoordinator>(*m_window); }
    QAction *allTabs() const { return part<QAction>(*m_window, QStringLiteral("buildAllTabsAction")); }
    QAction *link() const { return part<QAction>(*m_window, QStringLiteral("linkTabsAction")); }

    BuildResult buildWithCtrlB()
    {
        QSignalSpy spy(builds(), &BuildCoordinator::buildFinished);
        QTest::keyClick(m_window.get(), Qt::Key_B, Qt::ControlModifier);
        if (!spy.wait(120000))
            return {};
        return spy.at(0).at(0).value<BuildResult>();
    }

    // F5 with `scaled` on 8 floats, k = 2.5; the out buffer, or nothing when the run did not happen.
    std::vector<double> runScaled(int *builds = nullptr)
    {
        QSignalSpy built(this->builds(), &BuildCoordinator::buildFinished);
        QSignalSpy ran(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QSignalSpy refused(part<RunCoordinator>(*m_window), &RunCoordinator::runRefused);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        if (!ran.wait(120000)) {
            qWarning("not run: %s",
                     refused.isEmpty() ? "(timeout)" : qPrintable(refused.at(0).at(0).toString()));
            return {};
        }
        if (builds)
            *builds = int(built.size());
        const RunResult result = ran.at(0).at(0).value<RunResult>();
        const BufferData *out = result.buffer("out");
        if (!out || result.kernel() != "scaled")
            return {};
        std::vector<double> values;
        for (std::size_t i = 0; i < 8; ++i)
            values.push_back(out->value(i));
        return values;
    }

    void fillPanel()
    {
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QVERIFY(panel->setCurrentKernel(QStringLiteral("scaled")));
        for (const char *spec : {"in=buffer:float:8:iota", "out=buffer:float:8:zeros", "k=float:2.5"}) {
            QString error;
            QVERIFY2(panel->applySpec(QString::fromLatin1(spec), &error), qPrintable(error));
        }
        panel->setRange(QStringLiteral("8"));
        panel->setReadBack(QStringLiteral("out"), true);
    }

    static std::vector<double> expected(double plus)
    {
        std::vector<double> values;
        for (int i = 0; i < 8; ++i)
            values.push_back(i * 2.5 + plus);
        return values;
    }

    void showMain() { tabs()->setCurrentWidget(m_main); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CLScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_programtabs"));
        QSettings().clear(); // a new user: one tab, one program
        qputenv("CLSCOPE_CACHE_DIR", m_dir.filePath(QStringLiteral("cache")).toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        for (const char *name : {"main.cl", "helpers.cl"})
            QVERIFY(QFile::copy(QStringLiteral(CLSCOPE_TEST_DATA "/run/multi/") + QLatin1String(name),
                                m_dir.filePath(QLatin1String(name))));
        m_window = std::make_unique<MainWindow>();
        m_window->setModalErrors(false);
        m_window->show();
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<DeviceManager>(*m_window)->currentDeviceSnapshot());
        // The test's buffers are disposable: closing one asks nothing.
        tabs()->setConfirmCallback([](const QString &) { return EditorTabs::CloseChoice::Discard; });
        QVERIFY(tabs()->openFile(m_dir.filePath(QStringLiteral("main.cl"))));
        m_main = tabs()->currentEditor();
        QVERIFY(tabs()->openFile(m_dir.filePath(QStringLiteral("helpers.cl"))));
        m_helper = tabs()->currentEditor();
        QVERIFY(m_main && m_helper && m_main != m_helper);
        showMain();
    }

    // The default: the current tab is the program. main.cl alone cannot find scale().
    void oneTabIsOneProgram()
    {
        QVERIFY(!allTabs()->isChecked());
        QVERIFY(!link()->isEnabled());
        const BuildResult result = buildWithCtrlB();
        QVERIFY(!result.logs().empty());
        QVERIFY(!result.success());
        const QString device = QString::fromStdString(result.logs().front().device);
        const QString log = part<BuildLogPanel>(*m_window)->logText(device);
        QVERIFY2(log.contains(QStringLiteral("scale")), qPrintable(log));
    }

    void tabsBuildAndRunAsOneProgram()
    {
        allTabs()->trigger();
        QVERIFY(allTabs()->isChecked());
        QVERIFY(link()->isEnabled());
        QVERIFY(!link()->isChecked());
        const BuildResult result = buildWithCtrlB();
        QVERIFY2(result.success(), result.logs().empty() ? "" : result.logs().front().log.c_str());
        // The kernels of both tabs.
        QStringList kernels = part<ArgumentsPanel>(*m_window)->kernelNames();
        kernels.sort();
        QCOMPARE(kernels, (QStringList{QStringLiteral("offset"), QStringLiteral("scaled")}));
        QVERIFY(m_main->markedLines(EditorDiagnostic::Error).isEmpty());

        fillPanel();
        int built = -1;
        QCOMPARE(runScaled(&built), expected(1.0));
        QCOMPARE(built, 0); // the build of Ctrl+B is what F5 runs

        // An edit in the other tab (not saved) makes the program stale: F5 builds it again, with that text.
        QString text = m_helper->text();
        QVERIFY(text.contains(QStringLiteral("+ 1.0f")));
        m_helper->setText(text.replace(QStringLiteral("+ 1.0f"), QStringLiteral("+ 2.0f")));
        QCOMPARE(runScaled(&built), expected(2.0));
        QCOMPARE(built, 1);
        QCOMPARE(runScaled(&built), expected(2.0));
        QCOMPARE(built, 0);
    }

    void linkedTabsRun()
    {
        link()->trigger();
        QVERIFY(link()->isChecked());
        int built = -1;
        QCOMPARE(runScaled(&built), expected(2.0)); // a linked program is another program: built first
        QCOMPARE(built, 1);
        QCOMPARE(builds()->controller()->lastResult().cache(),
                 CacheState::Off); // linked builds are not cached
        QVERIFY(builds()->lastBuilt().link);

        // The memory check's child builds one file: it says so rather than check a part of the program.
        QSignalSpy refused(part<CheckCoordinator>(*m_window), &CheckCoordinator::checkFailed);
        QVERIFY(!part<CheckCoordinator>(*m_window)->checkCurrent());
        QCOMPARE(refused.size(), 1);
        QVERIFY2(refused.at(0).at(0).toString().contains(QStringLiteral("one tab")),
                 qPrintable(refused.at(0).at(0).toString()));
    }

    void errorLandsInItsTab_data()
    {
        QTest::addColumn<bool>("linked");
        QTest::newRow("one text") << false;
        QTest::newRow("linked") << true;
    }
    void errorLandsInItsTab()
    {
        QFETCH(bool, linked);
        link()->setChecked(linked);
        const QString good = m_helper->text();
        m_helper->setText(dataText("broken_helpers.cl")); // the error is on its line 5
        const BuildResult result = buildWithCtrlB();
        QVERIFY(!result.success());
        QCOMPARE(m_helper->markedLines(EditorDiagnostic::Error), QVector<int>{5});
        QVERIFY(m_main->markedLines(EditorDiagnostic::Error).isEmpty());
        // The list names the file; a click on it goes to that tab and line.
        QTreeWidget *list = part<DiagnosticsPanel>(*m_window)->list();
        QTreeWidgetItem *row = nullptr;
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            if (list->topLevelItem(i)->text(0) == QStringLiteral("error"))
                row = list->topLevelItem(i);
        }
        QVERIFY(row);
        QCOMPARE(row->text(1), QStringLiteral("helpers.cl"));
        QCOMPARE(row->text(2), QStringLiteral("5"));
        emit list->itemClicked(row, 0);
        QCOMPARE(tabs()->currentEditor(), m_helper.data());
        int line = 0, column = 0;
        m_helper->getCursorPosition(&line, &column);
        QCOMPARE(line, 4);

        // Fixed, the markers go.
        m_helper->setText(good);
        showMain();
        QVERIFY(buildWithCtrlB().success());
        QVERIFY(m_helper->markedLines(EditorDiagnostic::Error).isEmpty());
    }

    // Unsaved tabs have no file: each is named by its title, and its diagnostics find it by that name.
    void unsavedTabsByTitle_data()
    {
        QTest::addColumn<bool>("linked");
        QTest::newRow("one text") << false;
        QTest::newRow("linked") << true;
    }
    void unsavedTabsByTitle()
    {
        QFETCH(bool, linked);
        link()->setChecked(linked);
        QVERIFY(tabs()->closeTab(tabs()->indexOf(m_helper)));
        const int index = tabs()->newDocument();
        KernelEditor *helper = tabs()->editor(index);
        const QString title = tabs()->title(index);
        helper->setText(dataText("broken_helpers.cl"));
        showMain();
        BuildResult result = buildWithCtrlB();
        QVERIFY(!result.success());
        QCOMPARE(helper->markedLines(EditorDiagnostic::Error), QVector<int>{5});
        QVERIFY(m_main->markedLines(EditorDiagnostic::Error).isEmpty());
        bool listed = false;
        QTreeWidget *list = part<DiagnosticsPanel>(*m_window)->list();
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            listed |= list->topLevelItem(i)->text(1) == title &&
                      list->topLevelItem(i)->text(2) == QStringLiteral("5");
        QVERIFY2(listed, qPrintable(title));

        // The main tab unsaved too: its own error is marked in it, the other tab's in the other.
        const QString mainText = m_main->text();
        QVERIFY(tabs()->closeTab(tabs()->indexOf(m_main)));
        const int mainIndex = tabs()->newDocument();
        KernelEditor *main = tabs()->editor(mainIndex);
        main->setText(mainText + QStringLiteral("kernel void broken(global float *x) { x[0] = nope; }\n"));
        const int brokenLine = int(mainText.count(u'\n')) + 1;
        tabs()->setCurrentIndex(mainIndex);
        result = buildWithCtrlB();
        QVERIFY(!result.success());
        QCOMPARE(main->markedLines(EditorDiagnostic::Error), QVector<int>{brokenLine});
        QCOMPARE(helper->markedLines(EditorDiagnostic::Error), QVector<int>{5});

        // Fixed, both build and run as one program.
        main->setText(mainText);
        helper->setText(dataText("helpers.cl"));
        result = buildWithCtrlB();
        QVERIFY2(result.success(), result.logs().empty() ? "" : result.logs().front().log.c_str());
        QVERIFY(main->markedLines(EditorDiagnostic::Error).isEmpty());
        QVERIFY(helper->markedLines(EditorDiagnostic::Error).isEmpty());
        fillPanel();
        QCOMPARE(runScaled(), expected(1.0));

        // Back to the saved files for the next row.
        QVERIFY(tabs()->closeTab(tabs()->indexOf(main)));
        QVERIFY(tabs()->closeTab(tabs()->indexOf(helper)));
        QVERIFY(tabs()->openFile(m_dir.filePath(QStringLiteral("main.cl"))));
        m_main = tabs()->currentEditor();
        QVERIFY(tabs()->openFile(m_dir.filePath(QStringLiteral("helpers.cl"))));
        m_helper = tabs()->currentEditor();
        showMain();
    }

    // Options belong to the tab they were typed in (issue 31): switching tabs shows each tab's own, a new tab
    // starts with none, and a build takes the options of its own program.
    void optionsBelongToTheirTab()
    {
        QComboBox *box = builds()->optionsBox();
        showMain();
        QCOMPARE(box->currentText(), QString());
        box->setEditText(QStringLiteral("-D MAIN_ONLY=1"));
        tabs()->setCurrentWidget(m_helper);
        QCOMPARE(box->currentText(), QString());
        box->setEditText(QStringLiteral("-D HELPER_ONLY=2"));
        showMain();
        QCOMPARE(box->currentText(), QStringLiteral("-D MAIN_ONLY=1"));
        QCOMPARE(builds()->currentStamp().options, QStringLiteral("-D MAIN_ONLY=1"));
        tabs()->setCurrentWidget(m_helper);
        QCOMPARE(box->currentText(), QStringLiteral("-D HELPER_ONLY=2"));
        QCOMPARE(builds()->currentStamp().options, QStringLiteral("-D HELPER_ONLY=2"));
        const int fresh = tabs()->newDocument();
        QCOMPARE(box->currentText(), QString());
        QCOMPARE(builds()->currentStamp().options, QString());
        QVERIFY(tabs()->closeTab(fresh));
        // A build puts its options in the history, to choose from; the next new tab still starts with none.
        showMain();
        buildWithCtrlB();
        QCOMPARE(box->findText(QStringLiteral("-D MAIN_ONLY=1")), 0);
        const int next = tabs()->newDocument();
        QCOMPARE(box->currentText(), QString());
        QVERIFY(tabs()->closeTab(next));
        showMain();
        box->setEditText(QString());
        tabs()->setCurrentWidget(m_helper);
        box->setEditText(QString());
        showMain();
    }

    // Each tab's options come back with the tabs of the last session, and nothing else gets them.
    void optionsSurviveARestart()
    {
        {
            MainWindow first;
            EditorTabs *firstTabs = part<EditorTabs>(first);
            QVERIFY(firstTabs->openFile(m_dir.filePath(QStringLiteral("main.cl"))));
            part<BuildCoordinator>(first)->optionsBox()->setEditText(QStringLiteral("-D MAIN_ONLY=1"));
            QVERIFY(firstTabs->openFile(m_dir.filePath(QStringLiteral("helpers.cl"))));
            part<BuildCoordinator>(first)->optionsBox()->setEditText(QStringLiteral("-D HELPER_ONLY=2"));
            QVERIFY(firstTabs->openSample(EditorTabs::sampleNames().front())); // no options
            QVERIFY(first.close());
        }
        MainWindow next;
        next.restoreSession();
        EditorTabs *nextTabs = part<EditorTabs>(next);
        QCOMPARE(nextTabs->count(), 3);
        QComboBox *box = part<BuildCoordinator>(next)->optionsBox();
        const QStringList expected{QStringLiteral("-D MAIN_ONLY=1"), QStringLiteral("-D HELPER_ONLY=2"),
                                   QString()};
        for (int i = 0; i < 3; ++i) {
            nextTabs->setCurrentIndex(i);
            QCOMPARE(nextTabs->buildOptions(i), expected.at(i));
            QCOMPARE(box->currentText(), expected.at(i));
        }
        nextTabs->newDocument();
        QCOMPARE(box->currentText(), QString());
    }

    // The choice is remembered: the next window (the next start) builds the same way.
    void choiceSurvivesARestart()
    {
        link()->setChecked(true);
        {
            MainWindow next;
            QVERIFY(part<QAction>(next, QStringLiteral("buildAllTabsAction"))->isChecked());
            QVERIFY(part<QAction>(next, QStringLiteral("linkTabsAction"))->isChecked());
            QVERIFY(part<QAction>(next, QStringLiteral("linkTabsAction"))->isEnabled());
        }
        allTabs()->setChecked(false);
        QVERIFY(!link()->isEnabled());
        MainWindow next;
        QVERIFY(!part<QAction>(next, QStringLiteral("buildAllTabsAction"))->isChecked());
        QVERIFY(!part<QAction>(next, QStringLiteral("linkTabsAction"))->isEnabled());
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestProgramTabs)
#include "tst_programtabs.moc"
