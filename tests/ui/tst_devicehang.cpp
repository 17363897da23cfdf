// A driver that hangs in enumeration cannot keep the application from exiting: DeviceManager enumerates
// on a worker of its own, which its destructor leaves behind after a bounded wait. Before, enumeration
// ran on the global thread pool and ~QCoreApplication waited for it forever (this test then timed out).
// The only driver here is tests/ui/hangicd.c, whose first call never returns.
#include "controllers/devicemanager.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace clscope::ui;

class TestDeviceHang : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_vendors.isValid());
        QFile icd(QDir(m_vendors.path()).filePath(QStringLiteral("hang.icd")));
        QVERIFY(icd.open(QIODevice::WriteOnly));
        icd.write(CLSCOPE_HANG_ICD "\n");
        icd.close();
        qputenv("OCL_ICD_VENDORS", m_vendors.path().toLocal8Bit());
        qunsetenv("OPENCL_VENDOR_PATH");
    }

    void hungEnumerationDoesNotHoldTheExit()
    {
        QElapsedTimer closing;
        {
            DeviceManager manager;
            QSignalSpy available(&manager, &DeviceManager::devicesAvailable);
            manager.refresh();
            QVERIFY(manager.isBusy());
            QVERIFY(!available.wait(500)); // the driver does not return
            closing.start();
        }
        QVERIFY2(closing.elapsed() < 10000, qPrintable(QString::number(closing.elapsed())));
        // The process must now exit too: ctest's timeout for this test fails it when it does not.
    }

private:
    QTemporaryDir m_vendors;
};

QTEST_GUILESS_MAIN(TestDeviceHang)
#include "tst_devicehang.moc"
