// A build through the real main window, offscreen: a kernel with an error and one with warnings show
// their diagnostics as editor markers, in the diagnostics list and in the per-device log; the second
// identical build is a cache hit. With the child clscope-cli that compiles each build first, a compiler that
// crashes is a failed build and the window lives on, and a normal build hits the cache the child filled; a
// device binary that makes the driver abort (PoCL, its LLVM bitcode damaged) fails its program tab's build.
#include "controllers/buildcontroller.h"
#include "controllers/devicemanager.h"
#include "widgets/buildlogpanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/mainwindow.h"

#include "poclbinary.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <signal.h>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

class TestBuildGui : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_poclCache; // PoCL's own, emptied where PoCL must read a binary afresh
    std::unique_ptr<MainWindow> m_window;
    const QString m_data = QStringLiteral(CLSCOPE_TEST_DATA "/build/");

    BuildResult buildWith(const QString &options)
    {
        part<BuildCoordinator>(*m_window)->optionsBox()->setEditText(options);
        QSignalSpy spy(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        // The shortcut, as a user presses it.
        QTest::keyClick(m_window.get(), Qt::Key_B, Qt::ControlModifier);
        if (!spy.wait(120000))
            return {};
        return spy.at(0).at(0).value<BuildResult>();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qputenv("POCL_CACHE_DIR", m_poclCache.path().toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<DeviceManager>(*m_window)->currentDeviceSnapshot());
    }

    void errorShowsEverywhere()
    {
        QVERIFY(part<EditorTabs>(*m_window)->openFile(m_data + QStringLiteral("error.cl")));
        const BuildResult result = buildWith(QString());
        QVERIFY(!result.success());
        KernelEditor *editor = part<EditorTabs>(*m_window)->currentEditor();
        QCOMPARE(editor->markedLines(EditorDiagnostic::Error), QVector<int>{4});
        QVERIFY(editor->annotation(3).contains(QStringLiteral("undeclared identifier")));
        QTreeWidget *list = part<DiagnosticsPanel>(*m_window)->list();
        QCOMPARE(list->topLevelItemCount(), 1);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("error"));
        QCOMPARE(list->topLevelItem(0)->text(2), QStringLiteral("4"));
        const QString device = QString::fromStdString(result.logs().front().device);
        QVERIFY(part<BuildLogPanel>(*m_window)->logText(device).contains(QStringLiteral("error:")));
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("Build failed")));

        // Clicking the diagnostic moves the cursor to its line.
        editor->setCursorPosition(0, 0);
        emit list->itemClicked(list->topLevelItem(0), 0);
        int line = 0, column = 0;
        editor->getCursorPosition(&line, &column);
        QCOMPARE(line, 3);
    }

    void warningsShowOnSuccess()
    {
        QVERIFY(part<EditorTabs>(*m_window)->openFile(m_data + QStringLiteral("warning.cl")));
        const QString options = QStringLiteral("-I ") + m_data + QStringLiteral("headers");
        const BuildResult result = buildWith(options);
        QVERIFY2(result.success(), result.logs().empty() ? "" : result.logs().front().log.c_str());
        QCOMPARE(result.cache(), CacheState::Miss);
        KernelEditor *editor = part<EditorTabs>(*m_window)->currentEditor();
        QCOMPARE(editor->markedLines(EditorDiagnostic::Warning), QVector<int>{7});
        QVERIFY(editor->markedLines(EditorDiagnostic::Error).isEmpty());
        // The header's warning is listed (and not marked in this editor).
        QCOMPARE(part<DiagnosticsPanel>(*m_window)->list()->topLevelItemCount(), 2);
        const QString device = QString::fromStdString(result.logs().front().device);
        QVERIFY(part<BuildLogPanel>(*m_window)->logText(device).contains(QStringLiteral("warning:")));
        QVERIFY(part<BuildLogPanel>(*m_window)->summary().contains(QStringLiteral("succeeded")));

        // Same source, same options: served from the cache, warnings and all.
        const BuildResult again = buildWith(options);
        QCOMPARE(again.cache(), CacheState::Hit);
        QCOMPARE(editor->markedLines(EditorDiagnostic::Warning), QVector<int>{7});
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("cache hit")));
        // The options went into the history.
        QCOMPARE(part<BuildCoordinator>(*m_window)->optionsBox()->itemText(0), options);
    }

    void editorStaysUsableDuringBuild()
    {
        part<EditorTabs>(*m_window)->newDocument();
        KernelEditor *editor = part<EditorTabs>(*m_window)->currentEditor();
        editor->setText(QStringLiteral("__kernel void k(__global int *a) { a[0] = 1; }\n"));
        QSignalSpy spy(part<BuildCoordinator>(*m_window), &BuildCoordinator::buildFinished);
        QVERIFY(part<BuildCoordinator>(*m_window)->buildCurrent());
        // The GUI thread is free while the worker builds: typing goes on.
        editor->append(QStringLiteral("// typed while building\n"));
        QVERIFY(spy.wait(120000));
        QVERIFY(spy.at(0).at(0).value<BuildResult>().success());
        QVERIFY(editor->text().contains(QStringLiteral("typed while building")));
    }

    // `out[0] = 1+1+...` of 100,000 terms needs about 25 MiB of the compiler's stack; with 16 MiB
    // (CLSCOPE_COMPILER_STACK_MIB) PoCL's compiler crashes. It does so in the child: the window reports a
    // failed build with the child's line, and builds nothing itself (in its own process the same crash ended
    // the window, and this test, by SIGSEGV).
    void compilerCrashLeavesTheWindow()
    {
        part<BuildCoordinator>(*m_window)->controller()->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        QTemporaryDir dir;
        const QString deep = dir.filePath(QStringLiteral("deep.cl"));
        QByteArray sum = "1";
        for (int i = 1; i < 100000; ++i)
            sum += "+1";
        QFile file(deep);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("// 100000 terms\nkernel void deep(global int *out)\n{\n    out[0] = " + sum + ";\n}\n");
        file.close();
        QVERIFY(part<EditorTabs>(*m_window)->openFile(deep));
        qputenv("CLSCOPE_COMPILER_STACK_MIB", "16");
        const BuildResult result = buildWith(QString());
        qunsetenv("CLSCOPE_COMPILER_STACK_MIB");
        QVERIFY(!result.logs().empty());
        QVERIFY(!result.success());
        const QString device = QString::fromStdString(result.logs().front().device);
        const QString log = part<BuildLogPanel>(*m_window)->logText(device);
        QVERIFY2(log.contains(QStringLiteral("the compiler crashed (SIGSEGV) building ") + deep +
                              QStringLiteral(" (5 source lines)")),
                 qPrintable(log));
        QCOMPARE(part<DiagnosticsPanel>(*m_window)->list()->topLevelItemCount(), 1);
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("Build failed")));
        QVERIFY(m_window->isVisible());
    }

    // A PoCL binary with damaged bitcode aborts PoCL's clBuildProgram (poclbinary.h). Opened as a program tab
    // and built, the binary goes to the child first: the build fails naming the file, and the window lives on
    // (in its own process the abort ended the window and this test).
    void damagedBinaryLeavesTheWindow()
    {
        part<BuildCoordinator>(*m_window)->controller()->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        BuildRequest request;
        request.devices = {part<DeviceManager>(*m_window)->currentDeviceSnapshot()->id};
        request.source = "kernel void twice(global float *a) { a[get_global_id(0)] *= 2.0f; }\n";
        const BuildResult good = buildProgram(request, BinaryCache());
        QVERIFY(good.success());
        std::vector<unsigned char> binary = programBinaries(good.program(), request.devices).front();
        if (!poclbinary::damageBitcode(binary))
            QSKIP("not a PoCL binary with LLVM bitcode");
        const QByteArray bytes(reinterpret_cast<const char *>(binary.data()), qsizetype(binary.size()));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("twice.bin"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
        file.close();
        QVERIFY(QDir(m_poclCache.path()).removeRecursively() && QDir().mkpath(m_poclCache.path()));
        QVERIFY(part<EditorTabs>(*m_window)->openFile(path));
        QCOMPARE(part<EditorTabs>(*m_window)->programKind(), QStringLiteral("binary"));
        const BuildResult result = buildWith(QString());
        QVERIFY(!result.logs().empty());
        QVERIFY(!result.success());
        const QString log =
            part<BuildLogPanel>(*m_window)->logText(QString::fromStdString(result.logs().front().device));
        // PoCL's LLVM puts its own SIGABRT handler over the child's, so the child dies of the signal and the
        // window says so, naming the file.
        QVERIFY2(log.contains(
                     QStringLiteral("building %1 (a device binary, %2 bytes)").arg(path).arg(bytes.size())) &&
                     log.contains(QStringLiteral("nothing was built")),
                 qPrintable(log));
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("Build failed")));
        QVERIFY(m_window->isVisible());
    }

    // A program the cache has never seen: the child compiles it and fills the cache, and the window's own
    // build makes its program from the child's binary (a program made from a binary has no source text), yet
    // reports the child's miss. The same build again is a hit.
    void buildUsesTheChildsBinary()
    {
        part<BuildCoordinator>(*m_window)->controller()->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        part<EditorTabs>(*m_window)->newDocument();
        part<EditorTabs>(*m_window)->currentEditor()->setText(
            QStringLiteral("__kernel void fresh(__global int *a) { a[0] = 42; }\n"));
        const BuildResult result = buildWith(QStringLiteral("-D FRESH=1"));
        QVERIFY2(result.success(), result.logs().empty() ? "" : result.logs().front().log.c_str());
        QCOMPARE(result.cache(), CacheState::Miss);
        QVERIFY(result.kernel("fresh"));
        std::size_t sourceBytes = 0;
        QCOMPARE(clGetProgramInfo(result.program(), CL_PROGRAM_SOURCE, 0, nullptr, &sourceBytes), CL_SUCCESS);
        QVERIFY2(sourceBytes <= 1, "the window's process compiled the source itself");
        QCOMPARE(buildWith(QStringLiteral("-D FRESH=1")).cache(), CacheState::Hit);
    }

    // A newer build supersedes one whose child still compiles: the stale child is stopped (a stand-in that
    // would sleep a minute), and the newer build, queued behind it on the device's worker, finishes at once.
    void newerBuildStopsTheStaleChild()
    {
        QTemporaryDir dir;
        const QString pidFile = dir.filePath(QStringLiteral("pid"));
        const QString slow = dir.filePath(QStringLiteral("slow-cli"));
        QFile script(slow);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho $$ > '" + pidFile.toUtf8() + "'\nexec sleep 60\n");
        script.close();
        QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
        BuildCoordinator *builds = part<BuildCoordinator>(*m_window);
        builds->controller()->setCliPath(slow);
        part<EditorTabs>(*m_window)->newDocument();
        KernelEditor *editor = part<EditorTabs>(*m_window)->currentEditor();
        editor->setText(QStringLiteral("__kernel void stale(__global int *a) { a[0] = 1; }\n"));
        QSignalSpy finished(builds, &BuildCoordinator::buildFinished);
        QVERIFY(builds->buildCurrent());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pidFile).size() > 0, 30000);
        QFile pidText(pidFile);
        QVERIFY(pidText.open(QIODevice::ReadOnly));
        const qint64 pid = pidText.readAll().trimmed().toLongLong();
        QVERIFY(pid > 0);

        builds->controller()->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        editor->setText(QStringLiteral("__kernel void newer(__global int *a) { a[0] = 2; }\n"));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(builds->buildCurrent());
        QVERIFY(finished.wait(30000));
        QVERIFY(timer.elapsed() < 30000);
        QCOMPARE(finished.count(), 1); // the stale build's result is never delivered
        const BuildResult result = finished.at(0).at(0).value<BuildResult>();
        QVERIFY(result.success());
        QVERIFY(result.kernel("newer"));
        QCOMPARE(::kill(pid_t(pid), 0), -1); // the stale child is gone (and was reaped)
    }

    void cleanupTestCase()
    {
        // Close without prompts: the test's buffers are disposable.
        part<EditorTabs>(*m_window)->setConfirmCallback(
            [](const QString &) { return EditorTabs::CloseChoice::Discard; });
        m_window.reset();
    }
};

QTEST_MAIN(TestBuildGui)
#include "tst_buildgui.moc"
