// The real main window, offscreen: it shows at once, fills the device tree off the GUI thread, names the
// current device in the status bar, remembers it, filters, exports JSON and saves a screenshot.
#include "controllers/devicemanager.h"
#include "models/devicetreemodel.h"
#include "testicd.h"
#include "widgets/devicedock.h"
#include "windowparts.h"
#include "windows/mainwindow.h"

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

using namespace clscope::ui;
using clscope::test::part;

class TestMainWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    QTemporaryDir m_out;

    static bool waitReady(MainWindow &w)
    {
        if (w.isReady())
            return true;
        QSignalSpy spy(&w, &MainWindow::ready);
        return spy.wait(120000);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CLScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        if (!clscope::test::setUpVendors(m_vendors))
            QSKIP("PoCL or Oclgrind is not installed");
    }

    void showsAtOnceThenFillsTree()
    {
        QElapsedTimer timer;
        timer.start();
        MainWindow w;
        w.show();
        // Enumeration runs off the GUI thread: the window is up before the devices are known.
        QVERIFY(timer.elapsed() < 5000);
        QCOMPARE(part<DeviceDock>(w)->currentPage(), QStringLiteral("loading"));
        QVERIFY(waitReady(w));
        QCOMPARE(part<DeviceDock>(w)->currentPage(), QStringLiteral("tree"));
        QCOMPARE(part<DeviceDock>(w)->model()->rowCount(), 2);
        QVERIFY(part<DeviceManager>(w)->currentDevice().isValid());
        const QString status = part<QLabel>(w, QStringLiteral("deviceStatus"))->text();
        QVERIFY2(status.contains(part<DeviceManager>(w)->currentDeviceName()), qPrintable(status));
        QVERIFY(part<DeviceDock>(w)->view()->currentIndex().isValid());
    }

    void filterCopyExport()
    {
        MainWindow w;
        w.show();
        QVERIFY(waitReady(w));
        DeviceDock *dock = part<DeviceDock>(w);
        QTest::keyClicks(dock->filterEdit(), QStringLiteral("CL_DEVICE_MAX_COMPUTE_UNITS"));
        const QString text = modelToText(*dock->view()->model());
        QVERIFY2(text.contains(QStringLiteral("Oclgrind Simulator")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("Extensions")), qPrintable(text));
        QCOMPARE(text.count(QStringLiteral("compute units")), 2);

        dock->view()->selectAll();
        dock->copySelection();
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("CL_DEVICE_MAX_COMPUTE_UNITS")));

        const QString path = m_out.filePath(QStringLiteral("devices.json"));
        QCOMPARE(dock->exportJson(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray platforms =
            QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("platforms")).toArray();
        QCOMPARE(platforms.size(), 2);
        QCOMPARE(dock->exportJson(QStringLiteral("/nonexistent-dir/x.json")).isEmpty(), false);
    }

    void currentDeviceIsRemembered()
    {
        QString chosen;
        {
            MainWindow w;
            w.show();
            QVERIFY(waitReady(w));
            const DeviceKey other{1, 0};
            const DeviceKey first = part<DeviceManager>(w)->currentDevice();
            const DeviceKey pick = first == other ? DeviceKey{0, 0} : other;
            part<DeviceManager>(w)->setCurrentDevice(pick);
            chosen = part<DeviceManager>(w)->currentDeviceName();
            QVERIFY(part<QLabel>(w, QStringLiteral("deviceStatus"))->text().contains(chosen));
            w.close();
        }
        MainWindow again;
        again.show();
        QVERIFY(waitReady(again));
        QCOMPARE(part<DeviceManager>(again)->currentDeviceName(), chosen);
    }

    // The next start puts the window where it was; one saved partly below the screen (issue 31: the status
    // bar was off screen) comes back whole.
    void geometryComesBackOnScreen()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        const QRect where(available.topLeft() + QPoint(40, 30), QSize(700, 500));
        {
            MainWindow w;
            w.setGeometry(where);
            QVERIFY(w.close());
        }
        {
            MainWindow again;
            again.show();
            QVERIFY(QTest::qWaitForWindowExposed(&again));
            QCOMPARE(again.geometry(), where);
            again.move(available.left() + 40, available.bottom() - 200);
            QVERIFY(!available.contains(again.frameGeometry()));
            QVERIFY(waitReady(again));
            QVERIFY(again.close());
        }
        MainWindow last;
        last.show();
        QVERIFY(QTest::qWaitForWindowExposed(&last));
        QVERIFY2(available.contains(last.frameGeometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(last.frameGeometry().x())
                                .arg(last.frameGeometry().y())
                                .arg(last.frameGeometry().width())
                                .arg(last.frameGeometry().height())));
        QCOMPARE(last.size(), where.size());
        const QRect status(last.statusBar()->mapToGlobal(QPoint(0, 0)), last.statusBar()->size());
        QVERIFY(available.contains(status));
        QVERIFY(waitReady(last));
    }

    void docksAndScreenshot()
    {
        MainWindow w;
        w.resize(1100, 700);
        w.show();
        QVERIFY(waitReady(w));
        QVERIFY(w.showDock(QStringLiteral("devices")));
        QVERIFY(!w.showDock(QStringLiteral("no-such-panel")));
        const QString png = m_out.filePath(QStringLiteral("window.png"));
        QCOMPARE(w.saveScreenshot(png), QString());
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), w.size());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
