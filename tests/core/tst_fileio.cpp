// fileio.h: only regular files are read (a FIFO never blocks the open, /dev/zero is refused), the size
// limit is checked before a byte is read, lines are bounded, and writes name errno (ENOSPC on /dev/full).
#include "clscope/fileio.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace clscope;

namespace {

template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const FileError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

} // namespace

class TestFileIo : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    std::string path(const char *name) const { return m_tmp.filePath(QLatin1String(name)).toStdString(); }

private slots:
    void nonRegularFilesAreRefused()
    {
        const std::string fifo = path("a.fifo");
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        QElapsedTimer timer;
        timer.start();
        // Without a writer a blocking open of a FIFO never returns.
        QCOMPARE(errorOf([&] { readRegularFile(fifo, 1024); }),
                 QString::fromStdString("cannot read " + fifo + ": not a regular file (a FIFO)"));
        QVERIFY(timer.elapsed() < 5000);
        QCOMPARE(errorOf([] { readRegularFile("/dev/zero", 1024); }),
                 QStringLiteral("cannot read /dev/zero: not a regular file (a character device)"));
        QCOMPARE(errorOf([&] { readRegularFile(m_tmp.path().toStdString(), 1024); }),
                 QString::fromStdString("cannot read " + m_tmp.path().toStdString() +
                                        ": not a regular file (a directory)"));
        QCOMPARE(errorOf([&] { readRegularFile(path("missing"), 1024); }),
                 QString::fromStdString("cannot read " + path("missing") + ": no such file"));
    }

    void sizeLimitBeforeReading()
    {
        const std::string big = path("big.bin");
        {
            QFile f(QString::fromStdString(big));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(8) << 30)); // 8 GiB, sparse
        }
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(errorOf([&] { readRegularFile(big, 1 << 20); }),
                 QString::fromStdString("cannot read " + big +
                                        ": 8589934592 bytes, more than the 1048576 it may have"));
        QVERIFY(timer.elapsed() < 2000); // nothing was read
        QCOMPARE(RegularFile(big).size(), std::uint64_t(8) << 30);

        const std::string small = path("small.txt");
        writeWholeFile(small, "hello");
        QCOMPARE(readRegularFile(small, 5), std::string("hello"));
    }

    void lines()
    {
        const std::string file = path("lines.txt");
        writeWholeFile(file, "one\n\ntwo\nthree");
        RegularFile in(file);
        std::string line;
        QStringList got;
        while (in.readLine(line, 16))
            got << QString::fromStdString(line);
        QCOMPARE(got, QStringList({QStringLiteral("one"), QString(), QStringLiteral("two"),
                                   QStringLiteral("three")}));

        writeWholeFile(file, std::string(100000, 'x'));
        RegularFile wide(file);
        QCOMPARE(errorOf([&] { wide.readLine(line, 4096); }),
                 QString::fromStdString("cannot read " + file + ": a line is longer than 4096 bytes"));
    }

    // Issue 27: the pieces the GUI's readers take (a file's head, a log from an offset, a hash in pieces)
    // and the check made before a read, each refusing a FIFO and /dev/zero as the whole read does.
    void partsAndChecks()
    {
        const std::string file = path("parts.txt");
        writeWholeFile(file, "0123456789");
        RegularFile in(file);
        QCOMPARE(in.readAt(0, 4), std::string("0123"));
        QCOMPARE(in.readAt(7, 100), std::string("789"));
        QCOMPARE(in.readAt(10, 100), std::string());
        QCOMPARE(in.readAt(1000, 100), std::string());
        char piece[4];
        std::string all;
        while (const std::size_t n = in.read(piece, sizeof piece))
            all.append(piece, n);
        QCOMPARE(all, std::string("0123456789"));
        // A huge limit is not a huge allocation: /dev/zero is refused, a regular file gives what it has.
        QCOMPARE(RegularFile(file).readAt(0, std::size_t(1) << 40).size(), std::size_t(10));

        const std::string fifo = path("parts.fifo");
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(regularFileProblem(file), std::string());
        QCOMPARE(regularFileProblem(fifo), std::string("not a regular file (a FIFO)"));
        QCOMPARE(regularFileProblem("/dev/zero"), std::string("not a regular file (a character device)"));
        QCOMPARE(regularFileProblem(m_tmp.path().toStdString()),
                 std::string("not a regular file (a directory)"));
        QCOMPARE(regularFileProblem(path("missing")), std::string("no such file"));
        QCOMPARE(errorOf([&] { RegularFile(fifo).readAt(0, 8); }),
                 QString::fromStdString("cannot read " + fifo + ": not a regular file (a FIFO)"));
    }

    void writeErrorsAreNamed()
    {
        QCOMPARE(errorOf([] { writeWholeFile("/dev/full", "data"); }),
                 QStringLiteral("cannot write /dev/full: No space left on device"));
        QCOMPARE(errorOf([&] { writeWholeFile(path("nodir/x"), "data"); }),
                 QString::fromStdString("cannot write " + path("nodir/x") + ": No such file or directory"));
    }
};

QTEST_GUILESS_MAIN(TestFileIo)
#include "tst_fileio.moc"
