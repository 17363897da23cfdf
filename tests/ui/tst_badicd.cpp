// The GUI beside broken OpenCL drivers (docs/reliability.md, item 7). The loader setup that clscope's main
// makes first (prepareLoader, through registerInstalledPlatforms) tries each driver in a child; then
// DeviceManager lists PoCL and names the skipped drivers, which the device dock shows above its tree; and
// the real clscope, scripted beside a driver that crashes and one that hangs, builds and runs on PoCL and
// exits. Before, the crashing driver took the GUI down with SIGSEGV and the hanging one kept it from ever
// showing a device or exiting.
#include "clscope/loaderenv.h"
#include "controllers/devicemanager.h"
#include "testicd.h"
#include "widgets/devicedock.h"
#include "widgets/noticebar.h"

#include <QElapsedTimer>
#include <QImageReader>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace clscope::ui;

namespace {
const QByteArray kGood = "__kernel void scale(__global float *data, float factor)\n"
                         "{\n    data[get_global_id(0)] *= factor;\n}\n";
} // namespace

class TestBadIcd : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_vendors;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_tmp.isValid());
        m_vendors = m_tmp.filePath(QStringLiteral("vendors"));
        QVERIFY(QDir().mkpath(m_vendors));
        if (!clscope::test::writePoclAnd(
                QDir(m_vendors),
                {{QStringLiteral("bad-crash.icd"), clscope::test::fakeIcd("crash-deviceinfo")},
                 {QStringLiteral("bad-hang.icd"), clscope::test::fakeIcd("hang-platforms")}}))
            QSKIP("PoCL is not installed (packaging/install-deps.sh installs it)");
        qputenv("OCL_ICD_VENDORS", m_vendors.toLocal8Bit());
        qputenv("CLSCOPE_ICD_PROBE_TIMEOUT", QByteArray::number(clscope::test::kProbeTimeoutSeconds));
        for (const char *var :
             {"OPENCL_VENDOR_PATH", "OCL_ICD_FILENAMES", "CLSCOPE_ICD_PROBE", "CLSCOPE_DEVICE"})
            qunsetenv(var);
        // What clscope's main does before any thread or OpenCL call (the probe child is the CLI's).
        const clscope::LoaderSetup &setup = clscope::prepareLoader(CLSCOPE_CLI_PATH);
        QCOMPARE(setup.skipped().size(), size_t(2));
    }

    void devicesAndSkippedDrivers()
    {
        QElapsedTimer closing;
        {
            DeviceManager manager;
            DeviceDock dock(&manager);
            QSignalSpy available(&manager, &DeviceManager::devicesAvailable);
            manager.refresh();
            QVERIFY(available.wait(60000));
            const SnapshotPtr snap = manager.snapshot();
            QVERIFY(snap);
            QCOMPARE(snap->platforms.size(), size_t(1));
            QCOMPARE(snap->platforms[0].name(), std::string("Portable Computing Language"));
            QCOMPARE(snap->platforms[0].devices.size(), size_t(1));
            QVERIFY(manager.currentDevice().isValid());

            const QStringList skipped = manager.skippedDrivers();
            QCOMPARE(skipped.size(), 2);
            const QString crash = m_vendors + QStringLiteral("/bad-crash.icd");
            const QString hang = m_vendors + QStringLiteral("/bad-hang.icd");
            QCOMPARE(skipped[0],
                     QStringLiteral("The OpenCL driver %1 (%2) crashed (SIGSEGV) while listing its "
                                    "devices; it was skipped.")
                         .arg(crash, QString::fromLatin1(clscope::test::fakeIcd("crash-deviceinfo"))));
            QCOMPARE(skipped[1],
                     QStringLiteral("The OpenCL driver %1 (%2) did not answer within %3 s while listing "
                                    "its devices; it was skipped.")
                         .arg(hang, QString::fromLatin1(clscope::test::fakeIcd("hang-platforms")))
                         .arg(clscope::test::kProbeTimeoutSeconds));
            // The dock shows the tree of what works, and above it what was skipped.
            QCOMPARE(dock.currentPage(), QStringLiteral("tree"));
            QVERIFY(!dock.driverNotice()->isHidden());
            QCOMPARE(dock.driverNotice()->text(), skipped.join(u'\n'));
            closing.start();
        }
        QVERIFY2(closing.elapsed() < 2000, qPrintable(QString::number(closing.elapsed())));
    }

    // The application itself: main's setup skips both drivers, the scripted session builds and runs on PoCL
    // and exits 0 within a minute.
    void scriptedSessionCarriesOn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile source(dir.filePath(QStringLiteral("good.cl")));
        QVERIFY(source.open(QIODevice::WriteOnly) && source.write(kGood) == kGood.size());
        source.close();
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        for (const char *var : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
            env.insert(QString::fromLatin1(var), dir.filePath(QStringLiteral("home")));
        gui.setProcessEnvironment(env); // OCL_ICD_VENDORS and the time limit of initTestCase
        QElapsedTimer clock;
        clock.start();
        gui.start(QStringLiteral(CLSCOPE_GUI_PATH),
                  {QStringLiteral("--open"), source.fileName(), QStringLiteral("--build"),
                   QStringLiteral("--run"), QStringLiteral("scale"), QStringLiteral("--arg"),
                   QStringLiteral("data=buffer:float:64:iota"), QStringLiteral("--arg"),
                   QStringLiteral("factor=float:2"), QStringLiteral("--global"), QStringLiteral("64"),
                   QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("out.png"))});
        QVERIFY(gui.waitForStarted());
        const bool finished = gui.waitForFinished(60000);
        if (!finished) {
            gui.kill();
            gui.waitForFinished();
        }
        const QString err = QString::fromLocal8Bit(gui.readAllStandardError());
        QVERIFY2(finished, qPrintable(QStringLiteral("still running after a minute; stderr: ") + err));
        QVERIFY2(gui.exitStatus() == QProcess::NormalExit && gui.exitCode() == 0,
                 qPrintable(QStringLiteral("status %1, exit %2, stderr: %3")
                                .arg(int(gui.exitStatus()))
                                .arg(gui.exitCode())
                                .arg(err)));
        QVERIFY(QImageReader(dir.filePath(QStringLiteral("out.png"))).size().isValid());
        qInfo("the scripted session took %lld ms", static_cast<long long>(clock.elapsed()));
    }
};

QTEST_MAIN(TestBadIcd)
#include "tst_badicd.moc"
