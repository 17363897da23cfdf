// Captures in the window, offscreen, as issue 16 walks them: a pyopencl program profiled live (the
// timeline and the console fill while it runs, Stop ends it and keeps the capture); pyopencl's own
// demo_mandelbrot.py and demo.py profiled from the window; a saved capture opened; a launch opened in the
// workbench, run with F5 on PoCL and on Oclgrind and found equal to the captured result; replay on every
// device; the export; a launch without contents says why and what keeps them.
#include "clscope/capture.h"
#include "clscope/loaderenv.h"
#include "controllers/devicemanager.h"
#include "samenamedkernels.h"
#include "sanitizers.h"
#include "testicd.h"
#include "widgets/argumentspanel.h"
#include "widgets/capturedock.h"
#include "widgets/capturememoryview.h"
#include "widgets/debugview.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/profiledialog.h"
#include "widgets/qcustomplotinclude.h"
#include "widgets/resultsviewer.h"
#include "widgets/rooflineview.h"
#include "widgets/timelinedock.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/capturecoordinator.h"
#include "windows/debugcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/rooflinecoordinator.h"
#include "windows/runcoordinator.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

namespace {
const QString kExamples = QStringLiteral("/usr/share/doc/python-pyopencl-doc/examples");
const QString kPython = QStringLiteral("/usr/bin/python3");
} // namespace

class TestCaptureGui : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QTemporaryDir m_vendors;
    QTemporaryDir m_poclOnly;
    std::unique_ptr<MainWindow> m_window;
    bool m_haveOclgrind = false;
    QString m_demoCapture;

    CaptureCoordinator *captures() const { return part<CaptureCoordinator>(*m_window); }
    CaptureDock *dock() const { return part<CaptureDock>(*m_window); }

    // The settings of a profile of `script`, on PoCL only (the profiled program sees only it).
    ProfileSettings settingsFor(const QString &script, const QString &output,
                                ProfileSettings::Contents contents)
    {
        ProfileSettings s;
        s.program = kPython;
        s.arguments = {script};
        s.workingFolder = m_dir.path();
        s.environment = {QStringLiteral("PYOPENCL_CTX=0"), QStringLiteral("PYOPENCL_COMPILER_OUTPUT=0"),
                         QStringLiteral("OCL_ICD_VENDORS=") + m_poclOnly.path()};
        s.contents = contents;
        s.output = m_dir.filePath(output);
#if defined(__SANITIZE_ADDRESS__)
        // The layer of the asan preset is sanitized, Python is not: its runtimes go first into the program.
        s.environment << QStringLiteral("LD_PRELOAD=") + clscope::test::sanitizerRuntimes().join(u':')
                      << QStringLiteral("ASAN_OPTIONS=") + QString::fromLocal8Bit(qgetenv("ASAN_OPTIONS")) +
                             QStringLiteral(":detect_leaks=0");
#endif
        return s;
    }

    bool profileToEnd(const ProfileSettings &s, int *exitStatus = nullptr)
    {
        QSignalSpy finished(captures(), &CaptureCoordinator::profileFinished);
        if (!captures()->profile(s)) {
            qWarning("not profiled: %s", qPrintable(dock()->statusText()));
            return false;
        }
        if (!finished.wait(180000))
            return false;
        if (exitStatus)
            *exitStatus = finished.at(0).at(0).toInt();
        // The last read, from where the recorder renamed the file to.
        return waitForFinishedRead(s.output);
    }

    std::optional<RunResult> pressF5()
    {
        QSignalSpy finished(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QSignalSpy failed(part<RunCoordinator>(*m_window), &RunCoordinator::runFailed);
        QSignalSpy refused(part<RunCoordinator>(*m_window), &RunCoordinator::runRefused);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        for (int waited = 0; waited < 600 && finished.isEmpty() && failed.isEmpty() && refused.isEmpty();
             ++waited)
            QTest::qWait(500);
        if (!failed.isEmpty())
            qWarning("run failed: %s", qPrintable(failed.at(0).at(0).toString()));
        if (!refused.isEmpty())
            qWarning("run refused: %s", qPrintable(refused.at(0).at(0).toString()));
        if (finished.isEmpty())
            return std::nullopt;
        return finished.at(0).at(0).value<RunResult>();
    }

    bool openInWorkbench(qint64 launch, QString *problem)
    {
        QSignalSpy bound(captures(), &CaptureCoordinator::launchBound);
        captures()->openInWorkbench(launch);
        if (!bound.wait(120000))
            return false;
        *problem = bound.at(0).at(1).toString();
        return true;
    }

    void setDevice(const QString &platformPart)
    {
        const SnapshotPtr snapshot = part<DeviceManager>(*m_window)->snapshot();
        for (const auto &p : snapshot->platforms)
            if (QString::fromStdString(p.name()).contains(platformPart) && !p.devices.empty())
                part<DeviceManager>(*m_window)->setCurrentDevice({p.index, p.devices.front().index});
    }

    CaptureSession *session() const
    {
        return captures()->session();
    }
    // Loads and refreshes the session has shown.
    quint64 shown() const
    {
        return session()->loads() + session()->refreshes();
    }

    // After the program's end: the session's read of the file where the recorder put it.
    bool waitForFinishedRead(const QString &output)
    {
        for (int i = 0;
             i < 300 && (session()->state() != CaptureSession::State::Finished || session()->isReading() ||
                         dock()->state() != CaptureDock::State::Finished);
             ++i)
            QTest::qWait(100);
        return session()->data().path == output && dock()->state() == CaptureDock::State::Finished &&
               !session()->isReading();
    }

    int kernelRecords(const CaptureData &s, const std::string &name) const
    {
        int n = 0;
        for (const CommandRecord &r : *s.records)
            n += !r.hostSpan && r.type == CommandRecord::Type::Kernel && r.name == name && r.launch >= 0;
        return n;
    }

private slots:
    void initTestCase()
    {
        if (!QFile::exists(kExamples + QStringLiteral("/demo.py")) || !QFile::exists(kPython))
            QSKIP("pyopencl's examples are missing: apt-get install python-pyopencl-doc python3-pyopencl");
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_dir.filePath(QStringLiteral("cache")).toLocal8Bit());
        qputenv("CLSCOPE_LAYER", CLSCOPE_LAYER_PATH);
        qunsetenv("CLSCOPE_DEVICE");
        qunsetenv("PYOPENCL_CTX");
        m_haveOclgrind = clscope::test::setUpVendors(m_vendors, false);
        QFile pocl(QStringLiteral("/etc/OpenCL/vendors/pocl.icd"));
        QVERIFY(pocl.open(QIODevice::ReadOnly));
        QVERIFY(clscope::test::writeIcd(QDir(m_poclOnly.path()), QStringLiteral("pocl.icd"),
                                        pocl.readAll().trimmed()));
        m_window = std::make_unique<MainWindow>();
        m_window->setModalErrors(false);
        part<EditorTabs>(*m_window)->setConfirmCallback(
            [](const QString &) { return EditorTabs::CloseChoice::Discard; });
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        session()->setRefreshInterval(150);
    }

    // A pyopencl program that runs until stopped: its launches reach the timeline while it runs, its
    // output the console; Stop ends it and the capture is kept, with the MemoryPool's few reused blocks.
    void profileLiveThenStop()
    {
        ProfileSettings s = settingsFor(QStringLiteral(CLSCOPE_SOURCE_DIR "/tests/data/capture/live_pool.py"),
                                        QStringLiteral("live.clscope"), ProfileSettings::Contents::None);
        s.environment << QStringLiteral("STOP_AFTER=120");
        QSignalSpy finished(captures(), &CaptureCoordinator::profileFinished);
        QVERIFY2(captures()->profile(s), qPrintable(dock()->statusText()));
        QVERIFY(captures()->isProfiling());
        QCOMPARE(dock()->state(), CaptureDock::State::Empty); // nothing read yet
        // Live: snapshots with the program's launches arrive while it still runs.
        bool sawLive = false;
        for (int i = 0; i < 600 && !sawLive; ++i) {
            QTest::qWait(100);
            sawLive = captures()->isProfiling() && dock()->state() == CaptureDock::State::Live &&
                      kernelRecords(session()->data(), "scale") >= 3;
        }
        QVERIFY2(sawLive, qPrintable(dock()->statusText()));
        QVERIFY(dock()->stopButton()->isEnabled());
        QVERIFY(m_window->findChild<TimelineDock *>()->records().size() >= 3);
        QVERIFY2(dock()->progressText().contains(QStringLiteral("kernel launches")),
                 qPrintable(dock()->progressText()));
        QVERIFY(dock()->consoleText().contains(QStringLiteral("round 1 ")));

        QTest::mouseClick(dock()->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QVERIFY(!captures()->isProfiling());
        QVERIFY(waitForFinishedRead(s.output));
        // Kept: the file reads, with every launch the program made before it was stopped.
        const CaptureData &snap = session()->data();
        QVERIFY(snap.error.isEmpty());
        QVERIFY(kernelRecords(snap, "scale") >= 3);
        QCOMPARE(dock()->state(), CaptureDock::State::Finished);
        QVERIFY(!dock()->stopButton()->isEnabled());
        // The pool inside the program: a few large blocks held and reused, not one allocation per round.
        QVERIFY2(snap.buffers.size() <= 4, qPrintable(QString::number(snap.buffers.size())));
        QVERIFY(!snap.buffers.empty());
        std::uint64_t uses = 0; // the pool's blocks swap roles between rounds: the launches spread over them
        for (const CapturedBuffer &b : snap.buffers)
            uses += b.launches;
        QVERIFY(uses >= 3);
        QVERIFY(!dock()->memoryView()->history().isEmpty());
    }

    // pyopencl's own demo.py profiled from the window with every launch's contents: its kernel on the
    // timeline, its three buffers in Device memory, its program with source and options, its API calls.
    void profileDemo()
    {
        int exit = -1;
        QVERIFY(profileToEnd(settingsFor(kExamples + QStringLiteral("/demo.py"),
                                         QStringLiteral("demo.clscope"), ProfileSettings::Contents::All),
                             &exit));
        QCOMPARE(exit, 0);
        m_demoCapture = m_dir.filePath(QStringLiteral("demo.clscope"));
        const CaptureData &s = session()->data();
        QCOMPARE(kernelRecords(s, "sum"), 1);
        QCOMPARE(s.buffers.size(), std::size_t(3));
        QCOMPARE(s.programs.size(), std::size_t(1));
        QVERIFY(s.launchesWithContents.count(0));
        QCOMPARE(dock()->kernelTable()->rowCount(), 1);
        QCOMPARE(dock()->kernelTable()->item(0, 0)->text(), QStringLiteral("sum"));
        QCOMPARE(dock()->programList()->count(), 1);
        QStringList api;
        for (int r = 0; r < dock()->apiTable()->rowCount(); ++r)
            api << dock()->apiTable()->item(r, 0)->text();
        QVERIFY2(api.contains(QStringLiteral("clCreateBuffer")) &&
                     api.contains(QStringLiteral("clEnqueueNDRangeKernel")),
                 qPrintable(api.join(u',')));
        QVERIFY2(dock()->memoryView()->highlightsText().contains(QStringLiteral("3 memory objects")),
                 qPrintable(dock()->memoryView()->highlightsText()));
        // Its API calls on a host lane of their own thread.
        bool hostLane = false;
        for (const CommandRecord &r : *s.records)
            hostLane |=
                r.hostSpan && r.queue.rfind("thread ", 0) == 0 && r.name == "clCreateProgramWithSource";
        QVERIFY(hostLane);
    }

    // The saved capture opens from the file, as a user with remote GPUs opens one made by clscope-cli.
    void openSavedCapture()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        QSignalSpy shown(session(), &CaptureSession::loaded);
        QVERIFY(m_window->openFiles({m_demoCapture}));
        QVERIFY(shown.wait(30000));
        QCOMPARE(dock()->state(), CaptureDock::State::Opened);
        QCOMPARE(kernelRecords(session()->data(), "sum"), 1);
        // The launch picked in the timeline is the session's, and the panel's.
        {
            auto *timeline = m_window->findChild<TimelineDock *>();
            const auto &records = timeline->records();
            int launchRecord = -1;
            for (std::size_t i = 0; i < records.size() && launchRecord < 0; ++i)
                if (!records[i].hostSpan && records[i].launch == 0)
                    launchRecord = int(i);
            QVERIFY(launchRecord >= 0);
            QSignalSpy selected(session(), &CaptureSession::launchSelected);
            session()->selectLaunch(-1, {});
            timeline->selectRecord(launchRecord);
            QCOMPARE(session()->selectedLaunch(), qint64(0));
            QCOMPARE(session()->selectedKernel(), QStringLiteral("sum"));
            QCOMPARE(dock()->currentLaunch(), 0);
            QVERIFY(!selected.isEmpty());
        }
        // A program opens as a copy, with its captured options.
        const int before = part<EditorTabs>(*m_window)->count();
        QVERIFY(captures()->openProgram(0, true));
        QCOMPARE(part<EditorTabs>(*m_window)->count(), before + 1);
        QVERIFY(part<EditorTabs>(*m_window)->currentEditor()->text().contains(
            QStringLiteral("__kernel void sum")));
        QVERIFY(part<EditorTabs>(*m_window)->isModified());
        QVERIFY(captures()->openProgram(0, false));
        QVERIFY(part<EditorTabs>(*m_window)->currentEditor()->isReadOnly());
        // Dropped on the editor, a capture opens in the Capture panel, not as text.
        {
            const int tabs = part<EditorTabs>(*m_window)->count();
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(m_demoCapture)});
            // Drops go to whoever accepted the DragEnter, as during a real drag: here an editor's text.
            QWidget *viewport = part<EditorTabs>(*m_window)->currentEditor()->viewport();
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(viewport, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QSignalSpy reread(session(), &CaptureSession::loaded);
            QCoreApplication::sendEvent(viewport, &drop);
            QVERIFY(reread.wait(30000));
            QCOMPARE(part<EditorTabs>(*m_window)->count(), tabs);
            QCOMPARE(captures()->capturePath(), m_demoCapture);
        }
        // A missing file is said, not crashed on.
        QVERIFY(!m_window->openFiles({m_dir.filePath(QStringLiteral("nothing.clscope"))}));
        // A damaged one (the first 100 bytes) is said once, naming the file once (it said "Cannot read X:
        // cannot read X: ..." in the panel).
        {
            QFile whole(m_demoCapture);
            QVERIFY(whole.open(QIODevice::ReadOnly));
            const QString broken = m_dir.filePath(QStringLiteral("broken.clscope"));
            QFile part(broken);
            QVERIFY(part.open(QIODevice::WriteOnly));
            part.write(whole.read(100));
            part.close();
            QSignalSpy failed(session(), &CaptureSession::loaded);
            m_window->openFiles({broken});
            QVERIFY(failed.wait(30000));
            const QString title = m_window->findChild<QLabel *>(QStringLiteral("captureTitle"))->text();
            QVERIFY2(title.startsWith(QStringLiteral("Cannot read ")), qPrintable(title));
            QVERIFY2(title.contains(QStringLiteral("not a CLScope capture")), qPrintable(title));
            QCOMPARE(title.count(broken), 1);
            QCOMPARE(dock()->statusText(), title);
        }
    }

    // Issue 30's Kernels tab: a kernel is its name and its program's sources. 20 programs of the demo's
    // source are one `sum` row; programs of other sources or options sharing the name are rows of their own,
    // told apart by their program; a double click makes the row's first launch with contents (else its first)
    // current.
    void kernelsTabTellsSameNamedKernelsApart()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        const QString file = m_dir.filePath(QStringLiteral("same-named.clscope"));
        QFile::remove(file);
        QVERIFY(QFile::copy(m_demoCapture, file));
        const int identical = 20;
        const qint64 launches = 1; // demo.py's
        const QString failed = samenamedkernels::edit(file, identical);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QSignalSpy shown(session(), &CaptureSession::loaded);
        QVERIFY(m_window->openFiles({file}));
        QVERIFY(shown.wait(30000));
        QTableWidget *table = dock()->kernelTable();
        QCOMPARE(table->rowCount(), 3);
        QStringList rows;
        for (int r = 0; r < table->rowCount(); ++r)
            rows << table->item(r, 0)->text() + u'|' + table->item(r, 1)->text() + u'|' +
                        table->item(r, 5)->text();
        rows.sort();
        const qint64 program = session()->data().programs.front().id;
        QCOMPARE(
            rows,
            (QStringList{
                QStringLiteral("sum (program %1)|21|2").arg(program),
                QStringLiteral("sum (program %1)|1|none").arg(samenamedkernels::otherSources(identical)),
                QStringLiteral("sum (program %1)|1|none").arg(samenamedkernels::otherOptions(identical))}));
        const auto rowOf = [&](const QString &label) {
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->item(r, 0)->text() == label)
                    return r;
            return -1;
        };
        const int merged = rowOf(QStringLiteral("sum (program %1)").arg(program));
        QVERIFY(
            table->item(merged, 0)->toolTip().contains(QStringLiteral("another program of other sources")));
        // The demo's launch 0 kept its contents: the merged row's first such; the other sources' row has
        // none, so its first launch.
        emit table->cellDoubleClicked(merged, 0);
        QCOMPARE(dock()->currentLaunch(), 0);
        emit table->cellDoubleClicked(
            rowOf(QStringLiteral("sum (program %1)").arg(samenamedkernels::otherSources(identical))), 0);
        QCOMPARE(dock()->currentLaunch(), samenamedkernels::addedLaunch(launches, identical));
    }

    // Issue 30 in the window: the Roofline tab counts each kernel of the capture on Oclgrind (demo.py's sum:
    // 3 x 50,000 floats moved, 50,000 adds), shows its percent of the roof of PoCL (which it ran on), plots
    // it, lists its lines by cost; its source opens read-only with the heat gutter, the add line hottest.
    void rooflineOfTheCapture()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        QSignalSpy shown(session(), &CaptureSession::loaded);
        QVERIFY(m_window->openFiles({m_demoCapture}));
        QVERIFY(shown.wait(30000));
        auto *rooflines = part<RooflineCoordinator>(*m_window);
        RooflineView *view = dock()->rooflineView();
        QVERIFY(dock()->showTab(QStringLiteral("Roofline")));
        QTemporaryDir peaks;
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(peaks.path()));
        rooflines->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        rooflines->setExtraArguments({QStringLiteral("--effort"), QStringLiteral("quick")});
        QSignalSpy finished(rooflines, &RooflineCoordinator::countFinished);
        QTest::mouseClick(view->countButton(), Qt::LeftButton);
        QVERIFY(rooflines->isBusy());
        QVERIFY(!view->countButton()->isEnabled() && view->stopButton()->isEnabled());
        QVERIFY(finished.wait(300000));
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QVERIFY2(finished.at(0).at(0).toString().isEmpty(), qPrintable(finished.at(0).at(0).toString()));
        QVERIFY(view->countButton()->isEnabled());

        QCOMPARE(view->kernelTable()->rowCount(), 1);
        QCOMPARE(view->kernelTable()->item(0, 0)->text(), QStringLiteral("sum"));
        QCOMPARE(view->kernelTable()->item(0, 7)->text(), QStringLiteral("memory"));
        QVERIFY(view->kernelTable()->item(0, 8)->text().endsWith(QStringLiteral(" %")));
        const RooflineKernel &k = view->document().kernels.front();
        QCOMPARE(k.bytes, quint64(600000));
        QCOMPARE(k.flops, quint64(50000));
        QVERIFY(k.percentOfRoof > 0);
        QCOMPARE(view->pointsGraph()->dataCount(), 1);
        QVERIFY(view->lineTable()->rowCount() >= 2);
        QVERIFY2(view->lineTable()->item(0, 9)->text().contains(QStringLiteral("a_g[gid] + b_g[gid]")),
                 qPrintable(view->lineTable()->item(0, 9)->text()));

        const int tabs = part<EditorTabs>(*m_window)->count();
        QTest::mouseClick(view->openButton(), Qt::LeftButton);
        QCOMPARE(part<EditorTabs>(*m_window)->count(), tabs + 1);
        KernelEditor *editor = part<EditorTabs>(*m_window)->currentEditor();
        QVERIFY(editor->isReadOnly() && editor->hasLineHeat());
        int addLine = 0;
        for (int l = 1; l <= editor->lines(); ++l)
            if (editor->text(l - 1).contains(QStringLiteral("a_g[gid] + b_g[gid]")))
                addLine = l;
        QVERIFY(addLine > 0);
        QCOMPARE(editor->heatLevelAt(addLine), kHeatLevels);
        QVERIFY(editor->heatTextAt(addLine).endsWith(u'%'));
        QVERIFY2(editor->heatDetailsAt(addLine).contains(QStringLiteral("50000 flops")),
                 qPrintable(editor->heatDetailsAt(addLine)));
        // Counted again and stopped at once: the child ends, the panel says so and can count again.
        QSignalSpy stopped(rooflines, &RooflineCoordinator::countFinished);
        QVERIFY(rooflines->countCapture());
        QTest::mouseClick(view->stopButton(), Qt::LeftButton);
        QVERIFY(stopped.wait(30000));
        QCOMPARE(stopped.at(0).at(0).toString(), QStringLiteral("stopped"));
        QVERIFY(!rooflines->isBusy() && view->countButton()->isEnabled());
        QVERIFY(view->statusText().contains(QStringLiteral("stopped")));
        if (qEnvironmentVariableIsSet("CLSCOPE_SCREENSHOTS")) {
            m_window->resize(1280, 800);
            QTest::qWait(300);
            m_window->grab().save(qEnvironmentVariable("CLSCOPE_SCREENSHOTS") +
                                  QStringLiteral("/roofline-capture.png"));
            m_window->resize(1600, 1000);
        }
    }

    // At 1280x800 a capture shown leaves the Arguments panel at least four rows (issue 31: the bottom panels
    // grew for the capture and left it one or two), and the capture is a recent file.
    void argumentsKeepTheirRows()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        const QSize before = m_window->size();
        m_window->resize(1280, 800);
        QSignalSpy shown(session(), &CaptureSession::loaded);
        QVERIFY(m_window->openFiles({m_demoCapture}));
        QVERIFY(shown.wait(30000));
        QVERIFY(
            part<EditorTabs>(*m_window)->recentFiles().contains(QFileInfo(m_demoCapture).absoluteFilePath()));
        QVERIFY(m_window->showDock(QStringLiteral("argumentsDock")));
        ArgumentsPanel *arguments = part<ArgumentsPanel>(*m_window);
        QTRY_VERIFY2(arguments->rowsShown() >= 4, qPrintable(QString::number(arguments->rowsShown())));
        // The capture's panel is the centre of the window, its timeline under it.
        QVERIFY(dock()->isVisible());
        QVERIFY2(dock()->height() >= 300, qPrintable(QString::number(dock()->height())));
        QVERIFY(m_window->findChild<TimelineDock *>()->isVisible());
        m_window->resize(before);
    }

    // Open in workbench, F5: equal to the captured result on PoCL, then on Oclgrind.
    void openInWorkbenchRunsEqual()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        setDevice(QStringLiteral("Portable Computing Language"));
        QString problem;
        QVERIFY(openInWorkbench(0, &problem));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(captures()->boundLaunch(), qint64(0));
        QCOMPARE(part<ArgumentsPanel>(*m_window)->currentKernel(), QStringLiteral("sum"));
        QVERIFY(part<EditorTabs>(*m_window)->title().contains(QStringLiteral("sum (launch 0)")));
        QVERIFY(part<BuildCoordinator>(*m_window)->optionsBox()->currentText().contains(
            QStringLiteral("pyopencl")));
        {
            // The launch's options are its tab's: a new tab has none, and the launch's tab keeps them.
            EditorTabs *tabs = part<EditorTabs>(*m_window);
            const int launchTab = tabs->currentIndex();
            const int fresh = tabs->newDocument();
            QCOMPARE(part<BuildCoordinator>(*m_window)->optionsBox()->currentText(), QString());
            QCOMPARE(part<BuildCoordinator>(*m_window)->currentStamp().options, QString());
            QVERIFY(tabs->closeTab(fresh));
            tabs->setCurrentIndex(launchTab);
            QVERIFY(part<BuildCoordinator>(*m_window)->optionsBox()->currentText().contains(
                QStringLiteral("pyopencl")));
        }
        QCOMPARE(part<ResultsViewer>(*m_window)->expected().size(), std::size_t(3));
        std::optional<RunResult> run = pressF5();
        QVERIFY(run);
        QVERIFY2(part<ResultsViewer>(*m_window)->expectedEqual(),
                 qPrintable(part<ResultsViewer>(*m_window)->expectedText()));
        QVERIFY(part<ResultsViewer>(*m_window)->expectedText().contains(QStringLiteral("res_g equal")));

        // The user changes the kernel: the comparison says it differs.
        KernelEditor *e = part<EditorTabs>(*m_window)->currentEditor();
        e->setText(
            e->text().replace(QStringLiteral("a_g[gid] + b_g[gid]"), QStringLiteral("a_g[gid] - b_g[gid]")));
        run = pressF5();
        QVERIFY(run);
        QVERIFY(!part<ResultsViewer>(*m_window)->expectedEqual());
        QVERIFY2(part<ResultsViewer>(*m_window)->expectedText().contains(QStringLiteral("res_g differs")),
                 qPrintable(part<ResultsViewer>(*m_window)->expectedText()));
        e->setText(
            e->text().replace(QStringLiteral("a_g[gid] - b_g[gid]"), QStringLiteral("a_g[gid] + b_g[gid]")));

        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        setDevice(QStringLiteral("Oclgrind"));
        run = pressF5();
        QVERIFY(run);
        QVERIFY(QString::fromStdString(run->device()).contains(QStringLiteral("Oclgrind")));
        QVERIFY2(part<ResultsViewer>(*m_window)->expectedEqual(),
                 qPrintable(part<ResultsViewer>(*m_window)->expectedText()));
        setDevice(QStringLiteral("Portable Computing Language"));
    }

    void replayOnEveryDevice()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        QSignalSpy done(captures(), &CaptureCoordinator::replayFinished);
        captures()->replayOnEveryDevice(0);
        QVERIFY(done.wait(180000));
        const int devices = done.at(0).at(1).toInt();
        QVERIFY(devices >= 1);
        QTableWidget *t = dock()->replayTable();
        QCOMPARE(t->rowCount(), devices);
        for (int r = 0; r < t->rowCount(); ++r)
            QVERIFY2(t->item(r, 2)->text() == QStringLiteral("equal"),
                     qPrintable(t->item(r, 0)->text() + QStringLiteral(": ") + t->item(r, 2)->text()));
    }

    // Issue 29 from a capture: demo.py's launch debugged in the window (its program opens read-only, the
    // first work-item stops at its first line), then the element a replay got wrong: the work-item that
    // writes res_g[7] stops at the line that writes it, with the value it stores.
    void debugTheCapturedLaunch()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        auto *debugger = part<DebugCoordinator>(*m_window);
        debugger->setCliPath(QStringLiteral(CLSCOPE_CLI_PATH));
        auto *view = m_window->findChild<DebugView *>(QStringLiteral("debugView"));
        QVERIFY(view);
        {
            QSignalSpy shown(debugger, &DebugCoordinator::stopShown);
            QTest::mouseClick(m_window->findChild<QPushButton *>(QStringLiteral("captureDebug")),
                              Qt::LeftButton);
            QVERIFY2(shown.wait(120000), qPrintable(view->statusText()));
            QCOMPARE(debugger->lastStop().reason, std::string("start"));
            QCOMPARE(debugger->lastStop().item.global, (WorkItemId{0, 0, 0}));
            QVERIFY(debugger->debuggedEditor() && debugger->debuggedEditor()->isReadOnly());
            QVERIFY(debugger->debuggedEditor()
                        ->text(debugger->lastStop().line - 1)
                        .contains(QStringLiteral("get_global_id")));
            QVERIFY(!view->valueOf({QStringLiteral("a_g"), QStringLiteral("*a_g")}).isEmpty());
            QSignalSpy finished(debugger, &DebugCoordinator::finished);
            debugger->stop();
            QVERIFY(finished.wait(30000));
        }
        dock()->clearReplays();
        dock()->setFirstDifference(0, QStringLiteral("2[7]"));
        QVERIFY(dock()->debugDifferenceButton()->isEnabled());
        QSignalSpy shown(debugger, &DebugCoordinator::stopShown);
        QTest::mouseClick(dock()->debugDifferenceButton(), Qt::LeftButton);
        QVERIFY2(shown.wait(120000), qPrintable(view->statusText()));
        QCOMPARE(debugger->lastStop().reason, std::string("watch"));
        QCOMPARE(debugger->lastStop().item.global, (WorkItemId{7, 0, 0}));
        QVERIFY2(view->statusText().contains(QStringLiteral("writes res_g[7]")),
                 qPrintable(view->statusText()));
        QCOMPARE(view->valueOf({QStringLiteral("gid")}), QStringLiteral("7"));
        QSignalSpy finished(debugger, &DebugCoordinator::finished);
        QTest::keyClick(m_window.get(), Qt::Key_F6);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        dock()->clearReplays();
    }

    void exportAsPyopenclScript()
    {
        QVERIFY(!m_demoCapture.isEmpty());
        const QString dir = m_dir.filePath(QStringLiteral("export"));
        QSignalSpy done(captures(), &CaptureCoordinator::exportFinished);
        captures()->exportPyopencl(0, dir);
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(1).toString().isEmpty(), qPrintable(done.at(0).at(1).toString()));
        QProcess py;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYOPENCL_CTX"), QStringLiteral("0"));
        env.insert(QStringLiteral("OCL_ICD_VENDORS"), m_poclOnly.path());
        py.setProcessEnvironment(env);
        py.start(kPython, {dir + QStringLiteral("/replay.py")});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    }

    // Without contents: the launch says why it cannot be bound, and which choice of Profile application
    // keeps them; the source still opens.
    void launchWithoutContentsSaysWhy()
    {
        // pyopencl builds from source (else its binary cache would hand the driver a binary).
        ProfileSettings s = settingsFor(kExamples + QStringLiteral("/demo.py"),
                                        QStringLiteral("bare.clscope"), ProfileSettings::Contents::None);
        s.environment << QStringLiteral("PYOPENCL_NO_CACHE=1");
        QVERIFY(profileToEnd(s));
        QString problem;
        const int before = part<EditorTabs>(*m_window)->count();
        QVERIFY(openInWorkbench(0, &problem));
        QVERIFY2(problem.contains(QStringLiteral("contents were not captured")), qPrintable(problem));
        QVERIFY2(problem.contains(QStringLiteral("Keep buffer contents")), qPrintable(problem));
        QVERIFY(dock()->launchProblemText().contains(QStringLiteral("not captured")));
        QCOMPARE(part<EditorTabs>(*m_window)->count(), before + 1); // the source is there to read
    }

    // Device times as the dialog chose them reach the layer: with only the program's own events the capture
    // says so, and demo.py's launch keeps its device time (pyopencl passes an event to every enqueue).
    void deviceTimesChoice()
    {
        ProfileDialog dialog;
        ProfileSettings chosen =
            settingsFor(kExamples + QStringLiteral("/demo.py"), QStringLiteral("untimed.clscope"),
                        ProfileSettings::Contents::None);
        chosen.timestampEvery = 16;
        dialog.setSettings(chosen);
        QCOMPARE(dialog.settings().timestampEvery, 16u);
        chosen.timestampEvery = 0;
        dialog.setSettings(chosen);
        const ProfileSettings s = dialog.settings();
        QCOMPARE(s.timestampEvery, 0u);
        QVERIFY(profileToEnd(s));
        const clscope::CaptureSummary summary = clscope::CaptureReader(s.output.toStdString()).summary();
        QCOMPARE(summary.timestamps, std::string("program"));
        QCOMPARE(summary.launches, std::uint64_t(1));
        QCOMPARE(summary.kernels.size(), std::size_t(1));
        QVERIFY(summary.kernels.front().totalNs > 0);
    }

    // Choices made before the program is typed stay for a program profiled for the first time; a program
    // profiled before brings its own back.
    void programTypedLastKeepsChoices()
    {
        ProfileDialog dialog;
        ProfileSettings chosen;
        chosen.timestampEvery = 16;
        chosen.contents = ProfileSettings::Contents::All;
        chosen.environment = {QStringLiteral("PYOPENCL_CTX=0")};
        dialog.setSettings(chosen);
        const QString fresh = m_dir.filePath(QStringLiteral("never-profiled/app"));
        dialog.programEdit()->setText(fresh);
        emit dialog.programEdit()->editingFinished();
        ProfileSettings s = dialog.settings();
        QCOMPARE(s.program, fresh);
        QCOMPARE(s.timestampEvery, 16u);
        QCOMPARE(s.contents, ProfileSettings::Contents::All);
        QCOMPARE(s.environment, QStringList{QStringLiteral("PYOPENCL_CTX=0")});
        QVERIFY2(s.output.contains(QStringLiteral("/app-")), qPrintable(s.output));

        ProfileSettings known;
        known.program = m_dir.filePath(QStringLiteral("profiled-before/app"));
        known.timestampEvery = 0;
        known.remember();
        dialog.programEdit()->setText(known.program);
        emit dialog.programEdit()->editingFinished();
        s = dialog.settings();
        QCOMPARE(s.timestampEvery, 0u);
        QCOMPARE(s.contents, ProfileSettings::Contents::None);
        QVERIFY(s.environment.isEmpty());
    }

    // The program sees OpenCL as the user has it: variables the window set for itself (its private vendors
    // folder with Oclgrind, OCLGRIND_LOG) are not passed on; the user's own Environment lines are. A program
    // without OpenCL is said to be one.
    void programSeesTheUsersEnvironment()
    {
        qputenv("CLSCOPE_TEST_OWN_VARIABLE", "set-by-the-window");
        noteOwnVariable("CLSCOPE_TEST_OWN_VARIABLE");
        ProfileSettings s;
        s.program = QStringLiteral("/usr/bin/env");
        s.workingFolder = m_dir.path();
        s.environment = {QStringLiteral("CLSCOPE_TEST_USER_VARIABLE=from-the-dialog")};
        s.output = m_dir.filePath(QStringLiteral("env.clscope"));
        QVERIFY(profileToEnd(s));
        const QString console = dock()->consoleText();
        QVERIFY2(console.contains(QStringLiteral("CLSCOPE_TEST_USER_VARIABLE=from-the-dialog")),
                 qPrintable(console));
        QVERIFY2(console.contains(QStringLiteral("OPENCL_LAYERS=")), qPrintable(console));
        QVERIFY2(!console.contains(QStringLiteral("CLSCOPE_TEST_OWN_VARIABLE")), qPrintable(console));
        QVERIFY2(dock()->statusText().contains(QStringLiteral("No OpenCL call reached")),
                 qPrintable(dock()->statusText()));
        qunsetenv("CLSCOPE_TEST_OWN_VARIABLE");
    }

    // pyopencl's demo_mandelbrot.py, the example the issue names: its kernel on the timeline and its
    // memory; its launch opens in the workbench and compares equal on PoCL.
    void mandelbrotDemo()
    {
        if (QProcess::execute(kPython, {QStringLiteral("-c"), QStringLiteral("import PIL")}) != 0)
            QSKIP("demo_mandelbrot.py needs PIL: apt-get install python3-pil");
        int exit = -1;
        ProfileSettings s =
            settingsFor(kExamples + QStringLiteral("/demo_mandelbrot.py"),
                        QStringLiteral("mandelbrot.clscope"), ProfileSettings::Contents::Kernels);
        s.kernels = {QStringLiteral("mandelbrot")};
        s.environment << QStringLiteral("DISPLAY="); // no Tk window: the demo draws and exits
        QVERIFY(profileToEnd(s, &exit));
        QCOMPARE(exit, 0);
        const CaptureData &snap = session()->data();
        QCOMPARE(kernelRecords(snap, "mandelbrot"), 1);
        QVERIFY(snap.buffers.size() >= 2);
        setDevice(QStringLiteral("Portable Computing Language"));
        QString problem;
        QVERIFY(openInWorkbench(0, &problem));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const std::optional<RunResult> run = pressF5();
        QVERIFY(run);
        QVERIFY2(part<ResultsViewer>(*m_window)->expectedEqual(),
                 qPrintable(part<ResultsViewer>(*m_window)->expectedText()));
    }

    // The next start brings the capture shown last back, with the window's layout (the Arguments panel
    // keeping its rows at 1280x800).
    void captureReopensAfterRestart()
    {
        const QString last = captures()->capturePath();
        QVERIFY(QFileInfo(last).isFile());
        part<EditorTabs>(*m_window)->setConfirmAllCallback(
            [](const QStringList &) { return EditorTabs::CloseChoice::Discard; });
        QVERIFY(m_window->close());
        QVERIFY(part<EditorTabs>(*m_window)->recentFiles().contains(QFileInfo(last).absoluteFilePath()));

        MainWindow next;
        next.setModalErrors(false);
        next.resize(1280, 800);
        next.show();
        QVERIFY(QTest::qWaitForWindowExposed(&next));
        QSignalSpy shown(part<CaptureCoordinator>(next)->session(), &CaptureSession::loaded);
        next.restoreSession();
        QVERIFY(shown.wait(30000));
        QCOMPARE(part<CaptureCoordinator>(next)->capturePath(), QFileInfo(last).absoluteFilePath());
        QVERIFY(next.showDock(QStringLiteral("argumentsDock")));
        QTRY_VERIFY2(part<ArgumentsPanel>(next)->rowsShown() >= 4,
                     qPrintable(QString::number(part<ArgumentsPanel>(next)->rowsShown())));
        QSignalSpy ready(&next, &MainWindow::ready);
        QVERIFY(next.isReady() || ready.wait(120000)); // no enumeration left running as it goes
    }

    void cleanupTestCase()
    {
        if (m_window)
            part<EditorTabs>(*m_window)->closeAll();
        m_window.reset();
    }
};

QTEST_MAIN(TestCaptureGui)
#include "tst_capturegui.moc"
