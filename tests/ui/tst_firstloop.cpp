// The first ten minutes in the window, offscreen, as issue 12 walks them: a sample opened from the
// menu builds and runs from its own launch; an error in an unsaved buffer is marked in its tab; F5 runs
// what the user sees (never a failed build, never the previous tab's program, never the previous
// device); the window fits 1280x800 and 1024x700; Quit with unsaved tabs asks once and Cancel keeps them.
#include "clscope/runner.h"
#include "controllers/devicemanager.h"
#include "testicd.h"
#include "widgets/argumentspanel.h"
#include "widgets/buildlogpanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/runhistory.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

class TestFirstLoop : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_vendors;
    std::unique_ptr<MainWindow> m_window;
    bool m_haveOclgrind = false;

    EditorTabs *tabs() const { return part<EditorTabs>(*m_window); }

    BuildResult pressCtrlB()
    {
        QSignalSpy spy(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QTest::keyClick(m_window.get(), Qt::Key_B, Qt::ControlModifier);
        if (!spy.wait(120000))
            return {};
        QTest::qWait(1); // the new argument rows show through the event loop, as they do for a user
        return spy.at(0).at(0).value<BuildResult>();
    }

    // F5 as the user presses it; the run's result, or nothing when it was refused or failed.
    std::optional<RunResult> pressF5(QString *refusal = nullptr)
    {
        QSignalSpy finished(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QSignalSpy failed(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QSignalSpy refused(part<RunCoordinator>(*m_window), &RunCoordinator::runRefused);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        for (int waited = 0; waited < 240 && finished.isEmpty() && failed.isEmpty() && refused.isEmpty();
             ++waited)
            QTest::qWait(500);
        if (!refused.isEmpty() && refusal)
            *refusal = refused.at(0).at(0).toString();
        if (!failed.isEmpty())
            qWarning("run failed: %s", qPrintable(failed.at(0).at(0).toString()));
        if (finished.isEmpty())
            return std::nullopt;
        return finished.at(0).at(0).value<RunResult>();
    }

    void setDevice(const QString &platformPart)
    {
        const SnapshotPtr snapshot = part<DeviceManager>(*m_window)->snapshot();
        for (const auto &p : snapshot->platforms) {
            if (QString::fromStdString(p.name()).contains(platformPart) && !p.devices.empty())
                part<DeviceManager>(*m_window)->setCurrentDevice({p.index, p.devices.front().index});
        }
    }

    QString currentPlatform() const
    {
        const auto key = part<DeviceManager>(*m_window)->currentDevice();
        return QString::fromStdString(
            part<DeviceManager>(*m_window)->snapshot()->platforms[size_t(key.platform)].name());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // Nothing from an earlier run of this suite (its layout, tabs, recent files) reaches this one; ten
        // recent files, the most the start page lists, must not keep the window from fitting a small screen.
        QSettings settings;
        settings.clear();
        QStringList recent;
        for (int i = 0; i < 10; ++i) {
            const QString path = m_cache.filePath(QStringLiteral("recent%1.cl").arg(i));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            recent << path;
        }
        settings.setValue(QStringLiteral("editor/recentFiles"), recent);
        settings.sync();
        qputenv("CLSCOPE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qunsetenv("CLSCOPE_DEVICE");
        qunsetenv("PYOPENCL_CTX");
        // PoCL and Oclgrind, in the loader's order (Oclgrind's .icd sorts first).
        m_haveOclgrind = clscope::test::setUpVendors(m_vendors, false);
        // As app/gui/main.cpp sets it: Oclgrind's reports of a normal run go to this file.
        qputenv("OCLGRIND_LOG", (m_cache.path() + QStringLiteral("/oclgrind.log")).toLocal8Bit());
        m_window = std::make_unique<MainWindow>();
        // A modal on an error would hang the test: every error here must be in the window instead.
        connect(tabs(), &EditorTabs::errorOccurred, this,
                [](const QString &message) { QFAIL(qPrintable(QStringLiteral("modal: ") + message)); });
        tabs()->setConfirmCallback([](const QString &) { return EditorTabs::CloseChoice::Discard; });
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<DeviceManager>(*m_window)->currentDeviceSnapshot());
    }

    void pocLIsTheDefaultDevice()
    {
        QVERIFY2(currentPlatform().contains(QStringLiteral("Portable Computing Language")),
                 qPrintable(currentPlatform()));
    }

    void windowFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1024x700") << QSize(1024, 700);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }

    // No dock forces a minimum size, the editor holds most of the area, the bottom docks about a quarter.
    void windowFits()
    {
        QFETCH(QSize, size);
        QVERIFY(m_window->minimumSizeHint().width() <= size.width());
        QVERIFY(m_window->minimumSizeHint().height() <= size.height());
        m_window->resize(size);
        m_window->resetLayout();
        QTest::qWait(50);
        QCOMPARE(m_window->size(), size);
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        QTest::qWait(50);
        const QRect centre = m_window->centralWidget()->geometry();
        const double share =
            double(centre.width()) * centre.height() / (double(size.width()) * size.height());
        QVERIFY2(share > 0.40, qPrintable(QStringLiteral("editor share %1").arg(share)));
        QVERIFY2(centre.width() > size.width() / 2, qPrintable(QString::number(centre.width())));
        const auto *bottom = m_window->findChild<QDockWidget *>(QStringLiteral("buildLogDock"));
        QVERIFY2(bottom->height() <= size.height() * 3 / 10, qPrintable(QString::number(bottom->height())));
        tabs()->closeTab(tabs()->currentIndex());
        m_window->resize(1280, 800);
        m_window->resetLayout();
    }

    // A buffer read from a file: the path gets a line of its own under the row, wide enough to read (beside
    // the type, count and initialiser the side panel left it ~25 px at 1280x800), and goes back into the
    // row for an initialiser with a short parameter.
    void filePathHasItsOwnLine()
    {
        m_window->resize(1280, 800);
        m_window->resetLayout();
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        QVERIFY(pressCtrlB().success());
        auto *panel = part<ArgumentsPanel>(*m_window);
        const QString path = m_cache.filePath(QStringLiteral("inputs/a_1024_floats.npy"));
        QString error;
        QVERIFY2(panel->applySpec(QStringLiteral("a=buffer:float:1024:file=") + path, &error),
                 qPrintable(error));
        QTest::qWait(50);
        QLineEdit *param = nullptr;
        for (QLineEdit *e : panel->findChildren<QLineEdit *>())
            if (e->text() == path)
                param = e;
        QVERIFY(param);
        QVERIFY(param->isVisible());
        QVERIFY2(param->width() >= 150, qPrintable(QString::number(param->width())));
        QComboBox *init = nullptr;
        for (QComboBox *c : panel->findChildren<QComboBox *>())
            if (c->currentText() == QStringLiteral("file"))
                init = c;
        QVERIFY(init);
        const auto middle = [panel](QWidget *w) { return w->mapTo(panel, QPoint(0, w->height() / 2)).y(); };
        QVERIFY(middle(param) > middle(init) + init->height() / 2); // on the line under the row
        QVERIFY(panel->applySpec(QStringLiteral("a=buffer:float:1024:fill=3"), &error));
        QTest::qWait(50);
        QCOMPARE(param->text(), QStringLiteral("3"));
        QVERIFY(qAbs(middle(param) - middle(init)) < init->height() / 2); // back in the row
        QVERIFY(tabs()->closeTab(tabs()->currentIndex()));
    }

    void samplesRunFromTheirLaunch_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("buffer");
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("last");
        QTest::newRow("vector_add") << "vector_add.cl"
                                    << "c" << 2.0 << 1025.0;
        QTest::newRow("reduction") << "reduction.cl"
                                   << "partial" << 256.0 << 256.0;
        QTest::newRow("matmul_tiled") << "matmul_tiled.cl"
                                      << "C" << 512.0 << 512.0;
        QTest::newRow("mandelbrot") << "mandelbrot.cl"
                                    << "iterations" << 1.0 << 2.0; // corners escape
    }

    // Open sample, Ctrl+B, F5: a correct result with no typing.
    void samplesRunFromTheirLaunch()
    {
        QFETCH(QString, sample);
        QFETCH(QString, buffer);
        QFETCH(double, first);
        QFETCH(double, last);
        QVERIFY(tabs()->openSample(sample));
        QVERIFY(pressCtrlB().success());
        const auto result = pressF5();
        QVERIFY(result);
        const BufferData *b = result->buffer(buffer.toStdString());
        QVERIFY2(b, qPrintable(buffer));
        QCOMPARE(b->value(0), first);
        QCOMPARE(b->value(b->count - 1), last);
        // The run names its device: the history row and the status bar.
        QVERIFY(
            part<RunHistoryPanel>(*m_window)->entries().back().device.contains(QStringLiteral("pthread")));
        QVERIFY(m_window->statusBar()->currentMessage().contains(QString::fromStdString(result->device())));
    }

    // A syntax error in an unsaved sample: the marker in its tab, the list names the tab, a click lands
    // there.
    void unsavedBufferDiagnostics()
    {
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        KernelEditor *editor = tabs()->currentEditor();
        const QString title = tabs()->title();
        editor->setText(editor->text().replace(QStringLiteral("c[i] = a[i] + b[i];"),
                                               QStringLiteral("c[i] = a[i] + b[i] + oops;")));
        const int line = editor->text().left(editor->text().indexOf(QStringLiteral("oops"))).count(u'\n') + 1;
        QVERIFY(!pressCtrlB().success());
        QCOMPARE(editor->markedLines(EditorDiagnostic::Error), QVector<int>{line});
        QTreeWidget *list = part<DiagnosticsPanel>(*m_window)->list();
        QVERIFY(list->topLevelItemCount() >= 1);
        QCOMPARE(list->topLevelItem(0)->text(1), title);
        QVERIFY(!list->topLevelItem(0)->toolTip(1).contains(QStringLiteral("tempfile")));
        // Another tab in front, then a click on the diagnostic: back in the sample's tab, at the line.
        tabs()->newDocument();
        editor->setCursorPosition(0, 0);
        emit list->itemClicked(list->topLevelItem(0), 0);
        QCOMPARE(tabs()->currentEditor(), editor);
        int at = 0, column = 0;
        editor->getCursorPosition(&at, &column);
        QCOMPARE(at, line - 1);
        QVERIFY(tabs()->closeTab(tabs()->count() - 1)); // the empty one

        // F5 after the failed build: no run, and it says why.
        QString why;
        QVERIFY(!pressF5(&why));
        QVERIFY2(why.contains(QStringLiteral("failed")), qPrintable(why));
        QVERIFY(m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Not run")));
        // Fixed, F5 alone rebuilds and runs.
        editor->setText(editor->text().replace(QStringLiteral(" + oops"), QString()));
        const auto result = pressF5();
        QVERIFY(result);
        QCOMPARE(result->buffer("c")->value(3), 5.0);
        QVERIFY(editor->markedLines(EditorDiagnostic::Error).isEmpty());
    }

    // F5 with another tab in front runs that tab's program, built first.
    void f5RunsTheActiveTab()
    {
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        QVERIFY(pressF5());
        QVERIFY(tabs()->openSample(QStringLiteral("reduction.cl")));
        QSignalSpy builds(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        const auto result = pressF5();
        QVERIFY(result);
        QCOMPARE(builds.size(), 1);
        QCOMPARE(result->kernel(), std::string("reduce_sum"));
        // Unchanged: the next F5 does not build again.
        QVERIFY(pressF5());
        QCOMPARE(builds.size(), 1);
        // Edited: it does.
        tabs()->currentEditor()->append(QStringLiteral("\n// edited\n"));
        QVERIFY(pressF5());
        QCOMPARE(builds.size(), 2);
    }

    // F5 after choosing another device builds and runs there.
    void f5RunsOnTheCurrentDevice()
    {
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        const auto onPocl = pressF5();
        QVERIFY(onPocl);
        setDevice(QStringLiteral("Oclgrind"));
        QVERIFY(currentPlatform().contains(QStringLiteral("Oclgrind")));
        const auto onOclgrind = pressF5();
        QVERIFY(onOclgrind);
        QVERIFY2(QString::fromStdString(onOclgrind->device()).contains(QStringLiteral("Oclgrind")),
                 onOclgrind->device().c_str());
        QCOMPARE(onOclgrind->buffer("c")->value(7), 9.0);
        QVERIFY(
            part<RunHistoryPanel>(*m_window)->entries().back().device.contains(QStringLiteral("Oclgrind")));
        setDevice(QStringLiteral("Portable"));
    }

    // A bad value is marked on its field with the reason under it; a buffer over the device's allocation
    // limit is refused there at once, before any host memory is made.
    void errorsWhereTheMistakeIs()
    {
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        QVERIFY(pressCtrlB().success());
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QString error;
        QVERIFY(panel->applySpec(QStringLiteral("c=buffer:float:4611686018427387903:zeros"), &error));
        QElapsedTimer timer;
        timer.start();
        QSignalSpy failed(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(!failed.isEmpty() || failed.wait(10000));
        QVERIFY(timer.elapsed() < 5000);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("CL_DEVICE_MAX_MEM_ALLOC_SIZE")), qPrintable(message));
        const QList<QLabel *> why = panel->findChildren<QLabel *>();
        const auto shown = std::find_if(why.begin(), why.end(), [&](QLabel *l) {
            // Under the argument's field, not (only) the panel's message line.
            return l->isVisible() && l->text() == message && l->parentWidget() != panel;
        });
        QVERIFY2(shown != why.end(), "the reason is not shown under the field");
        QVERIFY(panel->isVisible()); // the Arguments dock is in front, not an empty one
        QVERIFY(panel->applySpec(QStringLiteral("c=buffer:float:1024:zeros"), &error));

        // A local size over the device limit: the Local field carries it.
        panel->setRange(QStringLiteral("1024"), QStringLiteral("999999"));
        QSignalSpy failedAgain(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(!failedAgain.isEmpty() || failedAgain.wait(60000));
        auto *local = panel->findChild<QLineEdit *>(QStringLiteral("localSize"));
        QVERIFY(local);
        QVERIFY2(local->toolTip().contains(QStringLiteral("WORK_GROUP_SIZE")), qPrintable(local->toolTip()));
        panel->setRange(QStringLiteral("1024"));
        QVERIFY(pressF5());
    }

    // Edit menu: find and replace in the current tab, next/previous diagnostic (F8 / Shift+F8).
    void editMenu()
    {
        QVERIFY(tabs()->openSample(QStringLiteral("vector_add.cl")));
        KernelEditor *editor = tabs()->currentEditor();
        QTest::keyClick(m_window.get(), Qt::Key_H, Qt::ControlModifier);
        auto *find = m_window->findChild<QLineEdit *>(QStringLiteral("findText"));
        auto *replace = m_window->findChild<QLineEdit *>(QStringLiteral("replaceText"));
        QVERIFY(find && replace && find->isVisible() && replace->isVisible());
        find->setText(QStringLiteral("b[i]"));
        replace->setText(QStringLiteral("b[i] * oops1 + oops2"));
        const QList<QPushButton *> buttons = m_window->findChildren<QPushButton *>();
        const auto all = std::find_if(buttons.begin(), buttons.end(), [](QPushButton *b) {
            return b->text() == QStringLiteral("Replace all");
        });
        QVERIFY(all != buttons.end());
        (*all)->click();
        QVERIFY(editor->text().contains(QStringLiteral("b[i] * oops1 + oops2")));
        QVERIFY(!pressCtrlB().success());
        const QVector<int> marked = editor->markedLines(EditorDiagnostic::Error);
        QVERIFY(!marked.isEmpty());
        editor->setCursorPosition(0, 0);
        QTest::keyClick(m_window.get(), Qt::Key_F8);
        int line = 0, column = 0;
        editor->getCursorPosition(&line, &column);
        QCOMPARE(line + 1, marked.front());
        QTest::keyClick(m_window.get(), Qt::Key_F8, Qt::ShiftModifier); // wraps to the last one
        editor->getCursorPosition(&line, &column);
        QCOMPARE(line + 1, marked.back());
        editor->undo(); // Replace all is one undo step
        QVERIFY(!editor->text().contains(QStringLiteral("oops")));
    }

    // A normal run on Oclgrind shows Oclgrind's own reports (not only its stderr) at the line of the unsaved
    // buffer, and the build's warnings stay.
    void oclgrindReportsOfANormalRun()
    {
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        // An unsaved buffer with a warning (line 4) and an invalid read (line 5).
        tabs()->newDocument();
        tabs()->currentEditor()->setText(QStringLiteral("__kernel void oob_read(__global const float *in, "
                                                        "__global float *out)\n{\n"
                                                        "    const size_t i = get_global_id(0);\n"
                                                        "    i == 0;\n"
                                                        "    out[i] = in[i + 1];\n}\n"));
        setDevice(QStringLiteral("Oclgrind"));
        QVERIFY(pressCtrlB().success());
        QCOMPARE(tabs()->currentEditor()->markedLines(EditorDiagnostic::Warning), QVector<int>{4});
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QVERIFY(panel->setCurrentKernel(QStringLiteral("oob_read")));
        QString error;
        QVERIFY(panel->applySpec(QStringLiteral("in=buffer:float:16:iota"), &error));
        QVERIFY(panel->applySpec(QStringLiteral("out=buffer:float:16:zeros"), &error));
        panel->setRange(QStringLiteral("16"));
        QSignalSpy reported(part<RunCoordinator>(*m_window), &RunCoordinator::oclgrindReported);
        pressF5();
        QVERIFY(!reported.isEmpty() || reported.wait(10000));
        QTreeWidget *list = part<DiagnosticsPanel>(*m_window)->list();
        QVERIFY(list->topLevelItemCount() >= 1);
        QVERIFY2(list->topLevelItem(0)->text(4).contains(QStringLiteral("Invalid read")),
                 qPrintable(list->topLevelItem(0)->text(4)));
        QCOMPARE(list->topLevelItem(0)->text(2), QStringLiteral("5"));
        QVERIFY(tabs()->currentEditor()->markedLines(EditorDiagnostic::Error).contains(5));
        // The build's warning stays marked beside Oclgrind's report.
        QCOMPARE(tabs()->currentEditor()->markedLines(EditorDiagnostic::Warning), QVector<int>{4});
        setDevice(QStringLiteral("Portable"));
    }

    // A header open in a tab gets its markers, and Ctrl+B there builds the program that includes it.
    void headerTabs()
    {
        const QString data = QStringLiteral(CLSCOPE_TEST_DATA "/build/");
        QVERIFY(tabs()->openFile(data + QStringLiteral("warning.cl")));
        KernelEditor *main = tabs()->currentEditor();
        part<BuildCoordinator>(*m_window)->optionsBox()->setEditText(QStringLiteral("-I ") + data +
                                                                     QStringLiteral("headers"));
        QVERIFY(pressCtrlB().success());
        QVERIFY(tabs()->openFile(data + QStringLiteral("headers/helper.h")));
        KernelEditor *header = tabs()->currentEditor();
        QVERIFY(header != main);
        QVERIFY2(!header->markedLines(EditorDiagnostic::Warning).isEmpty(),
                 "the header's warning is not marked");
        const BuildResult again = pressCtrlB();
        QVERIFY(again.success());
        QVERIFY2(QString::fromStdString(again.sourcePath()).endsWith(QStringLiteral("warning.cl")),
                 again.sourcePath().c_str());
        part<BuildCoordinator>(*m_window)->optionsBox()->setEditText(QString());
    }

    // A program the cache cannot key (a header named by a macro) says why in the build's summary.
    void cacheNoteIsShown()
    {
        tabs()->newDocument();
        tabs()->currentEditor()->setText(
            QStringLiteral("#define HDR \"nothere.h\"\n#ifdef NEVER\n#include HDR\n"
                           "#endif\n__kernel void k(__global int *a) { a[0] = 1; }\n"));
        const BuildResult result = pressCtrlB();
        QVERIFY(result.success());
        QVERIFY2(!result.cacheNote().empty(), "no cache note");
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QString::fromStdString(result.cacheNote())),
                 qPrintable(m_window->statusBar()->currentMessage()));
    }

    // Quit with several unsaved tabs: one question naming them; Cancel keeps every tab.
    void quitCancelKeepsTabs()
    {
        QVERIFY(tabs()->openSample(QStringLiteral("mandelbrot.cl")));
        tabs()->currentEditor()->append(QStringLiteral("// one\n"));
        QVERIFY(tabs()->openSample(QStringLiteral("matmul_tiled.cl")));
        tabs()->currentEditor()->append(QStringLiteral("// two\n"));
        const int open = tabs()->count();
        QStringList asked;
        int questions = 0;
        tabs()->setConfirmAllCallback([&](const QStringList &titles) {
            ++questions;
            asked = titles;
            return EditorTabs::CloseChoice::Cancel;
        });
        int perTab = 0;
        tabs()->setConfirmCallback([&](const QString &) {
            ++perTab;
            return EditorTabs::CloseChoice::Cancel;
        });
        QVERIFY(!m_window->close());
        QCOMPARE(questions, 1);
        QCOMPARE(perTab, 0);
        QCOMPARE(tabs()->count(), open);
        QVERIFY(asked.contains(QStringLiteral("mandelbrot.cl")));
        QVERIFY(asked.contains(QStringLiteral("matmul_tiled.cl")));
        QVERIFY(asked.size() >= 2);
    }

    void cleanupTestCase()
    {
        tabs()->setConfirmAllCallback([](const QStringList &) { return EditorTabs::CloseChoice::Discard; });
        QVERIFY(m_window->close());
        QCOMPARE(tabs()->count(), 0);
        m_window.reset();
    }
};

QTEST_MAIN(TestFirstLoop)
#include "tst_firstloop.moc"
