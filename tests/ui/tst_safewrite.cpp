// writeFileSafely and every GUI writer that uses it: a full disk (a filled tmpfs, as root), a missing
// folder or a folder in the way fail with the reason by name, leave the existing file as it was and
// leave no temporary file behind.
#include "files/safewrite.h"
#include "fulldisk.h"
#include "models/buffertablemodel.h"
#include "models/devicetreemodel.h"
#include "widgets/benchmarkdock.h"
#include "widgets/devicedock.h"
#include "widgets/poolchart.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/timelinedock.h"
#include "windows/mainwindow.h"
#include "workers/deviceworkers.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace clscope;
using namespace clscope::ui;

namespace {
const QByteArray kOriginal = "the user's file, as it was\n";

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writePlain(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QStringList entries(const QString &folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                  QDir::Name);
}

// Writes through one of the GUI's writers; returns its error message.
QString writeWith(const QString &writer, const QString &path)
{
    if (writer == QLatin1String("helper"))
        return writeFileSafely(path, QByteArray(3000, 'a'));
    if (writer == QLatin1String("devices JSON")) {
        DeviceManager manager;
        DeviceDock dock(&manager);
        dock.model()->setSnapshot(std::make_shared<SystemSnapshot>());
        return dock.exportJson(path);
    }
    if (writer.startsWith(QLatin1String("results "))) {
        ResultsViewer viewer;
        BufferData buffer;
        buffer.name = "out";
        buffer.type = *parseElementType("float");
        buffer.count = 64;
        buffer.bytes.assign(64 * sizeof(float), 0);
        viewer.model()->setBuffer(buffer);
        return viewer.saveBuffer(path + writer.mid(8)); // the format follows the extension
    }
    if (writer == QLatin1String("timeline trace")) {
        TimelineDock dock;
        return dock.exportTrace(path);
    }
    if (writer == QLatin1String("timeline CSV")) {
        TimelineDock dock;
        return dock.exportCsv(path);
    }
    if (writer == QLatin1String("timeline PNG")) {
        TimelineDock dock;
        return dock.exportPng(path);
    }
    if (writer == QLatin1String("pool CSV") || writer == QLatin1String("pool PNG") ||
        writer == QLatin1String("pool PDF")) {
        PoolDock dock(std::make_shared<DeviceWorkers>());
        dock.resize(400, 300);
        if (writer.endsWith(QLatin1String("CSV")))
            return dock.chart()->exportCsv(path);
        if (writer.endsWith(QLatin1String("PNG")))
            return dock.chart()->exportPng(path);
        return dock.chart()->exportPdf(path);
    }
    if (writer == QLatin1String("benchmark results")) {
        DeviceManager manager;
        BenchmarkDock dock(&manager, std::make_shared<DeviceWorkers>());
        return dock.saveResults(path);
    }
    return QStringLiteral("no writer named %1").arg(writer);
}
} // namespace

class TestSafeWrite : public QObject
{
    Q_OBJECT

private slots:
    void writesNewAndReplacesExisting()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.txt"));
        QCOMPARE(writeFileSafely(path, "one"), QString());
        QCOMPARE(readAll(path), QByteArray("one"));
        // A new file gets what the umask gives any new file.
        const QString plain = dir.filePath(QStringLiteral("plain.txt"));
        QVERIFY(writePlain(plain, "x"));
        QCOMPARE(QFileInfo(path).permissions(), QFileInfo(plain).permissions());

        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        QCOMPARE(writeFileSafely(path, "two, longer"), QString());
        QCOMPARE(readAll(path), QByteArray("two, longer"));
        struct stat st = {};
        QVERIFY(::stat(QFile::encodeName(path).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));

        // Through a link: the link stays, its target gets the data.
        const QString link = dir.filePath(QStringLiteral("link.txt"));
        QVERIFY(QFile::link(path, link));
        QCOMPARE(writeFileSafely(link, "three"), QString());
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(readAll(path), QByteArray("three"));
        QCOMPARE(writeFileSafely(path, QByteArray()), QString()); // empty is a valid file
        QCOMPARE(QFileInfo(path).size(), 0);
        QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("a.txt"), QStringLiteral("link.txt"),
                                                   QStringLiteral("plain.txt")}));
    }

    void failuresNameTheReason_data()
    {
        QTest::addColumn<QString>("target"); // relative to a folder holding the file "file"
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing folder")
            << QStringLiteral("nope/a.txt") << QStringLiteral("No such file or directory");
        QTest::newRow("under a file") << QStringLiteral("file/a.txt") << QStringLiteral("Not a directory");
        QTest::newRow("onto a folder") << QStringLiteral("sub") << QStringLiteral("is not a regular file");
    }

    void failuresNameTheReason()
    {
        QFETCH(QString, target);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QVERIFY(writePlain(dir.filePath(QStringLiteral("file")), kOriginal));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        const QString error = writeFileSafely(dir.filePath(target), "data");
        QVERIFY2(error.contains(reason), qPrintable(error));
        QCOMPARE(readAll(dir.filePath(QStringLiteral("file"))), kOriginal);
        QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("file"), QStringLiteral("sub")}));
    }

    void makeFolderNamesWhatIsInTheWay()
    {
        QTemporaryDir dir;
        QCOMPARE(makeFolder(dir.filePath(QStringLiteral("a/b/c"))), QString());
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("a/b/c"))).isDir());
        QCOMPARE(makeFolder(dir.filePath(QStringLiteral("a/b/c"))), QString());
        QVERIFY(writePlain(dir.filePath(QStringLiteral("file")), kOriginal));
        const QString error = makeFolder(dir.filePath(QStringLiteral("file/x/y")));
        QCOMPARE(error, QDir::toNativeSeparators(dir.filePath(QStringLiteral("file"))) +
                            QStringLiteral(" is a file, not a folder"));
        QCOMPARE(readAll(dir.filePath(QStringLiteral("file"))), kOriginal);
    }

    // Every writer of the GUI on a full disk: it says so by name and the old file survives whole.
    void fullDiskKeepsTheFile_data()
    {
        QTest::addColumn<QString>("writer");
        for (const char *w :
             {"helper", "devices JSON", "results .npy", "results .csv", "results .bin", "timeline trace",
              "timeline CSV", "timeline PNG", "pool CSV", "pool PNG", "pool PDF", "benchmark results"})
            QTest::newRow(w) << QString::fromLatin1(w);
    }

    void fullDiskKeepsTheFile()
    {
        QFETCH(QString, writer);
        QTemporaryDir dir;
        FullDisk disk(dir.filePath(QStringLiteral("disk")));
        REQUIRE_TMPFS(disk);
        QString path = dir.filePath(QStringLiteral("disk/out"));
        const QString existing = writer.startsWith(QLatin1String("results ")) ? path + writer.mid(8) : path;
        QVERIFY(writePlain(existing, kOriginal));
        QVERIFY(disk.fill());
        const QString error = writeWith(writer, path);
        QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
        QCOMPARE(readAll(existing), kOriginal);
        QCOMPARE(entries(dir.filePath(QStringLiteral("disk"))),
                 (QStringList{QStringLiteral(".filler"), QFileInfo(existing).fileName()}));

        disk.free();
        QCOMPARE(writeWith(writer, path), QString());
        QVERIFY(readAll(existing) != kOriginal);
        QVERIFY(QFileInfo(existing).size() > 0);
        QCOMPARE(entries(dir.filePath(QStringLiteral("disk"))), QStringList{QFileInfo(existing).fileName()});
    }

    void screenshotOnFullDisk()
    {
        QTemporaryDir dir;
        FullDisk disk(dir.filePath(QStringLiteral("disk")));
        REQUIRE_TMPFS(disk);
        QVERIFY(disk.fill());
        MainWindow window;
        window.resize(640, 480);
        const QString error = window.saveScreenshot(dir.filePath(QStringLiteral("disk/shot.png")));
        QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("disk/shot.png"))));
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    TestSafeWrite test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_safewrite.moc"
