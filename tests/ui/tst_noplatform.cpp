// With no OpenCL platform installed the device panel explains how to get one instead of an empty tree.
#include "widgets/devicedock.h"
#include "windowparts.h"
#include "windows/mainwindow.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope::ui;
using clscope::test::part;

class TestNoPlatform : public QObject
{
    Q_OBJECT
    QTemporaryDir m_emptyVendors;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("OCL_ICD_VENDORS", m_emptyVendors.path().toLocal8Bit());
    }

    void explainsHowToInstall()
    {
        MainWindow w;
        w.show();
        QSignalSpy spy(&w, &MainWindow::ready);
        QVERIFY(w.isReady() || spy.wait(60000));
        QCOMPARE(part<DeviceDock>(w)->currentPage(), QStringLiteral("empty"));
        const auto labels = part<DeviceDock>(w)->findChildren<QLabel *>();
        bool explained = false;
        for (const QLabel *l : labels)
            explained |= l->text().contains(QStringLiteral("pocl-opencl-icd")) && l->isVisible();
        QVERIFY(explained);
        QCOMPARE(part<QLabel>(w, QStringLiteral("deviceStatus"))->text(),
                 QStringLiteral("No OpenCL platform"));
    }
};

QTEST_MAIN(TestNoPlatform)
#include "tst_noplatform.moc"
