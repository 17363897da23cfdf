// clscope-cli and the files it is given (issue 27, docs/reliability.md item 9): an image's file= that is a
// FIFO or a device, a PNG whose header declares 65536x65536, a source with a NUL byte, and a run --check
// stopped by SIGINT or SIGTERM, which must not leave its clscope-check-* folder behind. Each test
// reproduced its defect before the fix.
#include "testicd.h"

#include "clitest.h"
#include "pngbomb.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

namespace {

using Result = clitest::Spawned;

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/run/") + QLatin1String(name);
}

// clscope-cli with args, stdout to /dev/null, stderr to a file of dir; its peak memory from wait4.
clitest::Spawned spawnCli(const QStringList &args, const QString &dir)
{
    std::vector<QByteArray> bytes;
    for (const QString &a : args)
        bytes.push_back(a.toLocal8Bit());
    return clitest::spawn(bytes, dir, false);
}

const QByteArray kSpin = "__kernel void spin(__global uint *out)\n"
                         "{\n"
                         "    uint x = get_global_id(0);\n"
                         "    for (uint i = 0; i < 1000000000u; ++i)\n"
                         "        x = x * 1664525u + i;\n"
                         "    out[get_global_id(0)] = x;\n"
                         "}\n";

} // namespace

class TestCliFiles : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;

    QString path(const char *name) const { return m_tmp.filePath(QLatin1String(name)); }

    QString write(const char *name, const QByteArray &bytes) const
    {
        QFile f(path(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return f.fileName();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        // PoCL and Oclgrind through a private OCL_ICD_VENDORS, which the CLI inherits.
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        qputenv("CLSCOPE_CACHE_DIR", QFile::encodeName(path("cache")));
        for (const char *name : {"CLSCOPE_DEVICE", "CLSCOPE_BUILD_OPTIONS", "PYOPENCL_CTX", "PYOPENCL_TEST"})
            qunsetenv(name);
    }

    // An image's file= naming a FIFO said "file '...' not found"; now what it is, before it is opened.
    void imageFileThatIsNotRegular()
    {
        const QString fifo = path("picture.png");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        for (const auto &[file, kind] :
             {std::pair{fifo, QByteArrayLiteral("a FIFO")},
              std::pair{QStringLiteral("/dev/zero"), QByteArrayLiteral("a character device")}}) {
            const Result r =
                spawnCli({QStringLiteral("run"), dataPath("types.cl"), QStringLiteral("--kernel"),
                          QStringLiteral("with_image"), QStringLiteral("--global"), QStringLiteral("1"),
                          QStringLiteral("--arg"), QStringLiteral("img=image2d:RGBA:UNORM_INT8:file=") + file,
                          QStringLiteral("--arg"), QStringLiteral("out=buffer:int:1"),
                          QStringLiteral("--device"), QStringLiteral("pocl")},
                         m_tmp.path());
            QCOMPARE(r.exitCode, 2);
            const QByteArray expected =
                "clscope-cli: img: '" + file.toLocal8Bit() + "' is not a regular file (" + kind + ")\n";
            QCOMPARE(r.err, expected);
        }
    }

    // A 2.5 MB PNG declaring 65536x65536 was inflated whole (400 MB here, gigabytes for a larger file)
    // when the arguments were bound, before the device's image limits were asked. Now its header gives
    // the shape, the device refuses it, and nothing is inflated.
    void pngBombIsNotInflated()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("peak memory under AddressSanitizer measures its shadow and quarantine, not the run");
#endif
        const QString bomb = write("bomb.png", pngbomb::make(65536, 65536, std::uint64_t(400) << 20));
        QVERIFY(!bomb.isEmpty());
        const Result r =
            spawnCli({QStringLiteral("run"), dataPath("types.cl"), QStringLiteral("--kernel"),
                      QStringLiteral("with_image"), QStringLiteral("--global"), QStringLiteral("1"),
                      QStringLiteral("--arg"), QStringLiteral("img=image2d:RGBA:UNORM_INT8:file=") + bomb,
                      QStringLiteral("--arg"), QStringLiteral("out=buffer:int:1"), QStringLiteral("--device"),
                      QStringLiteral("pocl")},
                     m_tmp.path());
        QCOMPARE(r.exitCode, 2);
        // Whichever device limit refuses it first (PoCL: CL_DEVICE_MAX_MEM_ALLOC_SIZE for the 16 GiB).
        QVERIFY2(r.err.startsWith("clscope-cli: ") && r.err.contains("img") &&
                     r.err.contains(" exceeds CL_DEVICE_"),
                 r.err.constData());
        QVERIFY2(r.peakMiB < 256, qPrintable(QStringLiteral("peak %1 MiB").arg(r.peakMiB)));
    }

    // build and run took the text up to a NUL byte and dropped the rest without a word; the GUI refused
    // such a file already.
    void nulInSourceIsRefused_data()
    {
        QTest::addColumn<QStringList>("args"); // $FILE: the source
        QTest::newRow("build") << QStringList{QStringLiteral("build"), QStringLiteral("$FILE")};
        QTest::newRow("run with --kernel")
            << QStringList{QStringLiteral("run"),      QStringLiteral("$FILE"),
                           QStringLiteral("--kernel"), QStringLiteral("mark"),
                           QStringLiteral("--global"), QStringLiteral("1"),
                           QStringLiteral("--arg"),    QStringLiteral("out=buffer:uint:1")};
        QTest::newRow("run from its clscope-run line")
            << QStringList{QStringLiteral("run"), QStringLiteral("$FILE")};
    }

    void nulInSourceIsRefused()
    {
        QFETCH(QStringList, args);
        const QByteArray text = QByteArray("// clscope-run: mark --global 1 --arg out=buffer:uint:1\n"
                                           "__kernel void mark(__global uint *out) { out[0] = 1; }\n") +
                                QByteArray("\0", 1) +
                                "__kernel void lost(__global uint *out) { out[0] = 2; }\n";
        const QString file = write("nul.cl", text);
        QVERIFY(!file.isEmpty());
        args.replaceInStrings(QStringLiteral("$FILE"), file);
        const Result r =
            spawnCli(args + QStringList{QStringLiteral("--device"), QStringLiteral("pocl")}, m_tmp.path());
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, "clscope-cli: cannot read " + file.toLocal8Bit() +
                            ": it holds a NUL byte at offset " + QByteArray::number(text.indexOf('\0')) +
                            ", so it is not a text file\n");
    }

    // Ctrl-C (SIGINT) or SIGTERM during run --check ended clscope-cli at once and left its session folder
    // (clscope-check-*, with the Oclgrind log and the child's output) in TMPDIR. Now the child is stopped,
    // the folder removed, and the CLI ends by the same signal.
    void interruptedCheckLeavesNoFolder_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }

    void interruptedCheckLeavesNoFolder()
    {
        QFETCH(int, signal);
        if (!m_haveOclgrind)
            QSKIP("PoCL or Oclgrind is not installed");
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString spin = write("spin.cl", kSpin);
        QVERIFY(!spin.isEmpty());
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(CLSCOPE_CLI_PATH),
                  {QStringLiteral("run"), spin, QStringLiteral("--kernel"), QStringLiteral("spin"),
                   QStringLiteral("--global"), QStringLiteral("4"), QStringLiteral("--arg"),
                   QStringLiteral("out=buffer:uint:4"), QStringLiteral("--check")});
        QVERIFY(cli.waitForStarted());
        // The session's folder exists and its child runs (it writes its output there) before the signal.
        const auto sessions = [&] {
            return QDir(tmp.path())
                .entryList({QStringLiteral("clscope-check-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            sessions().size() == 1 &&
                QFileInfo::exists(tmp.filePath(sessions().constFirst() + QStringLiteral("/stdout"))),
            120000);
        QCOMPARE(::kill(pid_t(cli.processId()), signal), 0);
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitStatus(), QProcess::CrashExit); // ended by the signal, as without the handler
        QVERIFY2(sessions().isEmpty(), qPrintable(sessions().join(u' ')));
    }
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "tst_cli_files.moc"
