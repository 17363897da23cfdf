// clscope-cli against hostile input (issue 17, docs/reliability.md "Core and command line"): negative
// values for unsigned options, absurd NDRanges and __local sizes, non-regular and huge files, pool traces
// replayed in constant memory, errors as one JSON document with --json, invalid UTF-8, full disks
// (/dev/full) and an unwritable cache. Each test reproduced its defect before the fix.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "clitest.h"

#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace {

using clitest::Result;

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/run/") + QLatin1String(name);
}

using clitest::Spawned;

std::vector<QByteArray> bytesOf(const QStringList &args)
{
    std::vector<QByteArray> out;
    for (const QString &a : args)
        out.push_back(a.toLocal8Bit());
    return out;
}

} // namespace

class TestCliReliability : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    // extra: NAME=value pairs over the test's environment (also over its cache folder).
    Result cli(const QStringList &args, int timeoutMs = 60000, const QStringList &extra = {}) const
    {
        clitest::Options options;
        options.cacheDir = m_tmp.filePath(QStringLiteral("cache"));
        options.unset = clitest::buildVariables();
        options.set = extra;
        options.timeoutMs = timeoutMs;
        return clitest::run(args, options);
    }

    QString path(const char *name) const { return m_tmp.filePath(QLatin1String(name)); }

    QString writeTrace(const char *name, const QByteArray &text) const
    {
        QFile f(path(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            qFatal("cannot write %s", name);
        return f.fileName();
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    // Item 11: CLI11 read -1 into an unsigned option as 2^64-1; bench then ran forever.
    void unsignedOptionsRefuseNegatives_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("--iterations -1") << QStringList{QStringLiteral("bench"), QStringLiteral("pool"),
                                                        QStringLiteral("--iterations"), QStringLiteral("-1")};
        QTest::newRow("--iterations=-5") << QStringList{QStringLiteral("bench"), QStringLiteral("pool"),
                                                        QStringLiteral("--iterations=-5")};
    }

    void unsignedOptionsRefuseNegatives()
    {
        QFETCH(QStringList, args);
        const Result r = cli(args << QStringLiteral("--device") << QStringLiteral("pocl"), 20000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("clscope-cli: --iterations: '-") &&
                     r.err.contains("is not a whole number of 0 or more") && r.err.count('\n') == 1,
                 r.err.constData());
    }

    // "Clear errors": with --json every error is also one JSON document {"error": ...} on stdout.
    void errorsAsJson_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        const QString missing = path("missing.cl");
        QTest::newRow("info, no such device")
            << QStringList{QStringLiteral("info"), QStringLiteral("--device"), QStringLiteral("nosuchvendor")}
            << 2;
        QTest::newRow("build, missing file") << QStringList{QStringLiteral("build"), missing} << 2;
        QTest::newRow("run, missing file") << QStringList{QStringLiteral("run"),      missing,
                                                          QStringLiteral("--kernel"), QStringLiteral("k"),
                                                          QStringLiteral("--global"), QStringLiteral("1")}
                                           << 2;
        QTest::newRow("run, parse error")
            << QStringList{QStringLiteral("run"), dataPath("reliability.cl")} << 2;
        QTest::newRow("run, unknown kernel")
            << QStringList{QStringLiteral("run"),      dataPath("reliability.cl"), QStringLiteral("--kernel"),
                           QStringLiteral("nosuch"),   QStringLiteral("--global"), QStringLiteral("1"),
                           QStringLiteral("--device"), QStringLiteral("pocl")}
            << 2;
        QTest::newRow("bench, unknown kind")
            << QStringList{QStringLiteral("bench"), QStringLiteral("nosuch")} << 2;
        QTest::newRow("pool replay, missing trace")
            << QStringList{QStringLiteral("pool"), QStringLiteral("replay"), path("missing.trace")} << 1;
        QTest::newRow("unknown subcommand") << QStringList{QStringLiteral("nosuch")} << 2;
    }

    void errorsAsJson()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        const Result r = cli(args << QStringLiteral("--json"));
        QCOMPARE(r.exitCode, code);
        QVERIFY2(r.err.startsWith("clscope-cli: ") && r.err.count('\n') == 1, r.err.constData());
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(), r.out.constData());
        QCOMPARE(doc.object().keys(), QStringList{QStringLiteral("error")});
        QCOMPARE(doc.object().value(QStringLiteral("error")).toString().toUtf8(),
                 r.err.mid(13).chopped(1)); // the stderr line without "clscope-cli: " and its newline
    }

    // Core's errors become an exit status in one place (main.cpp), by their category (error.h): a malformed
    // or unmatched device spec is bad usage for every command (replay and capture-info too), as are a
    // malformed argument and malformed options; a device that takes no SPIR-V is a failed build.
    void exitStatusByCategory_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("deviceVariable"); // CLSCOPE_DEVICE, when not empty
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString missing = path("missing.clscope");
        const QString spirv = writeTrace("refused.spv", QByteArray("\x03\x02\x23\x07", 4));
        QTest::newRow("replay, malformed --device")
            << QStringList{QStringLiteral("replay"),   missing,
                           QStringLiteral("--launch"), QStringLiteral("0"),
                           QStringLiteral("--device"), QStringLiteral("0::1")}
            << QString() << 2 << QStringLiteral("clscope-cli: ");
        QTest::newRow("capture-info, malformed CLSCOPE_DEVICE")
            << QStringList{QStringLiteral("capture-info"), missing} << QStringLiteral("0::1") << 2
            << QStringLiteral("clscope-cli: ");
        QTest::newRow("pool replay, malformed --device")
            << QStringList{QStringLiteral("pool"), QStringLiteral("replay"), path("missing.trace"),
                           QStringLiteral("--device"), QStringLiteral("0::1")}
            << QString() << 2 << QStringLiteral("clscope-cli: ");
        QTest::newRow("bench, no such device")
            << QStringList{QStringLiteral("bench"), QStringLiteral("pool"), QStringLiteral("--device"),
                           QStringLiteral("nosuchvendor")}
            << QString() << 2 << QStringLiteral("clscope-cli: no OpenCL device matches 'nosuchvendor'");
        QTest::newRow("build, malformed options")
            << QStringList{QStringLiteral("build"), dataPath("reliability.cl"),  QStringLiteral("--device"),
                           QStringLiteral("pocl"),  QStringLiteral("--options"), QStringLiteral("-D 'x")}
            << QString() << 2 << QStringLiteral("clscope-cli: unterminated ' quote in options");
        QTest::newRow("run, malformed argument")
            << QStringList{QStringLiteral("run"),      dataPath("reliability.cl"),
                           QStringLiteral("--kernel"), QStringLiteral("mark"),
                           QStringLiteral("--global"), QStringLiteral("1"),
                           QStringLiteral("--arg"),    QStringLiteral("out=nosuchtype:1"),
                           QStringLiteral("--device"), QStringLiteral("pocl")}
            << QString() << 2 << QStringLiteral("clscope-cli: ");
        QTest::newRow("build, a device without SPIR-V")
            << QStringList{QStringLiteral("build"), spirv, QStringLiteral("--device"), QStringLiteral("pocl")}
            << QString() << 1 << QStringLiteral("clscope-cli: device ");
    }

    void exitStatusByCategory()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, deviceVariable);
        QFETCH(int, code);
        QFETCH(QString, message);
        QStringList extra;
        if (!deviceVariable.isEmpty())
            extra << QStringLiteral("CLSCOPE_DEVICE=") + deviceVariable;
        const Result r = cli(args, 60000, extra);
        QVERIFY2(r.exitCode == code, r.err.constData());
        QVERIFY2(r.err.startsWith(message.toUtf8()) && r.err.count('\n') == 1, r.err.constData());
    }

    // Invalid UTF-8 in what is echoed (a kernel name, a trace id) must not break the JSON document.
    void invalidUtf8StaysValidJson()
    {
        std::vector<QByteArray> args =
            bytesOf({QStringLiteral("run"), dataPath("reliability.cl"), QStringLiteral("--global"),
                     QStringLiteral("1"), QStringLiteral("--device"), QStringLiteral("pocl"),
                     QStringLiteral("--json"), QStringLiteral("--kernel")});
        args.push_back(QByteArrayLiteral("k\xff\xfe"));
        const Spawned bad = clitest::spawn(args, m_tmp.path());
        QCOMPARE(bad.exitCode, 2);
        QJsonParseError error;
        const QJsonDocument errorDoc = QJsonDocument::fromJson(bad.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError &&
                     errorDoc.object().contains(QStringLiteral("error")),
                 bad.out.constData());
        Result r;

        const QString trace = writeTrace("utf8.trace", "alloc \xff\xfe 64\nfree \xff\xfe\n");
        r = cli({QStringLiteral("pool"), QStringLiteral("replay"), trace, QStringLiteral("--device"),
                 QStringLiteral("pocl"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError && doc.array().size() == 2, r.out.constData());
    }

    // Item 9: /dev/zero as a trace took 24 GB before the kernel killed it; a FIFO blocked forever.
    void replayRefusesNonRegularFiles()
    {
        const QByteArray fifo = path("trace.fifo").toLocal8Bit();
        QCOMPARE(mkfifo(fifo.constData(), 0600), 0);
        for (const QString &trace :
             {QStringLiteral("/dev/zero"), QString::fromLocal8Bit(fifo), m_tmp.path()}) {
            const Result r = cli({QStringLiteral("pool"), QStringLiteral("replay"), trace,
                                  QStringLiteral("--device"), QStringLiteral("pocl")},
                                 10000);
            QCOMPARE(r.exitCode, 1);
            const QByteArray expected = QByteArray("clscope-cli: cannot read trace ") + trace.toLocal8Bit() +
                                        ": not a regular file (";
            QVERIFY2(r.err.startsWith(expected), r.err.constData());
        }
        // A regular file without newlines is refused at its first long line, not buffered whole.
        const QString wide = writeTrace("wide.trace", QByteArray(1 << 20, 'a'));
        const Result r = cli({QStringLiteral("pool"), QStringLiteral("replay"), wide,
                              QStringLiteral("--device"), QStringLiteral("pocl")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(": line 1: a line is longer than 4096 bytes"), r.err.constData());
    }

    // Item 10: the trace and the JSON output are streamed: peak memory does not grow with the ops.
    void replayStreamsInConstantMemory()
    {
#if defined(__SANITIZE_ADDRESS__)
        // ASan's quarantine keeps freed memory resident, so the peak grows with what was ever allocated.
        QSKIP("peak memory under AddressSanitizer measures its quarantine, not the replay");
#endif
        const auto trace = [&](const char *name, int pairs) {
            QByteArray text;
            text.reserve(pairs * 20);
            for (int i = 0; i < pairs; ++i)
                text += "alloc a 4096\nfree a\n";
            return writeTrace(name, text);
        };
        const QString small = trace("small.trace", 1000);
        const QString large = trace("large.trace", 200000);
        const auto replay = [&](const QString &trace) {
            return clitest::spawn(
                bytesOf({QStringLiteral("pool"), QStringLiteral("replay"), trace, QStringLiteral("--device"),
                         QStringLiteral("pocl"), QStringLiteral("--json")}),
                m_tmp.path(), false);
        };
        const Spawned smallRun = replay(small);
        const Spawned largeRun = replay(large);
        QCOMPARE(smallRun.exitCode, 0);
        QCOMPARE(largeRun.exitCode, 0);
        QVERIFY2(largeRun.peakMiB - smallRun.peakMiB < 24,
                 qPrintable(QStringLiteral("peak %1 MiB for 2000 ops, %2 MiB for 400000")
                                .arg(smallRun.peakMiB)
                                .arg(largeRun.peakMiB)));
        // The streamed document is still one JSON array with one step per op.
        const Result r = cli({QStringLiteral("pool"), QStringLiteral("replay"), small,
                              QStringLiteral("--device"), QStringLiteral("pocl"), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 2000);
    }

    // Item 9: an 8 GB file= initialiser was read whole before its size was compared with the buffer's.
    void hugeInitialiserFileIsNotRead()
    {
        const QString big = path("big.bin");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(1) << 30)); // sparse: no disk space, 1 GiB when read
        }
        const Spawned r = clitest::spawn(
            bytesOf({QStringLiteral("run"), dataPath("reliability.cl"), QStringLiteral("--kernel"),
                     QStringLiteral("mark"), QStringLiteral("--global"), QStringLiteral("1"),
                     QStringLiteral("--arg"), QStringLiteral("out=buffer:uint:16:file=") + big,
                     QStringLiteral("--device"), QStringLiteral("pocl")}),
            m_tmp.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.peakMiB < 512, qPrintable(QStringLiteral("peak %1 MiB").arg(r.peakMiB)));
        QVERIFY2(r.err.contains("has 1073741824 bytes, the buffer needs 64 (16 uint)"), r.err.constData());
    }

    // Items 3 and 8 through the CLI: PoCL aborted (exit 134) or never returned on these.
    void absurdSizesExit2_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("global");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("limit");
        const QStringList out{QStringLiteral("out=buffer:uint:1")};
        QTest::newRow("global 2^64-1") << "mark"
                                       << "18446744073709551615" << out << "CL_DEVICE_ADDRESS_BITS 64";
        QTest::newRow("global 2^32,2^32,2")
            << "mark"
            << "4294967296,4294967296,2" << out << "CL_DEVICE_ADDRESS_BITS 64";
        // Without --local PoCL never returned on it (groups of its own choice, counted in an int).
        QTest::newRow("global 2^63-1, driver's groups")
            << "mark"
            << "9223372036854775807" << out << "2147483647 (2^31-1) work-groups";
        QTest::newRow("two local:2^63") << "two_locals"
                                        << "1"
                                        << QStringList{QStringLiteral("a=local:9223372036854775808"),
                                                       QStringLiteral("b=local:9223372036854775808"),
                                                       QStringLiteral("out=buffer:float:1")}
                                        << "CL_DEVICE_LOCAL_MEM_SIZE";
        QTest::newRow("local:2^64-1")
            << "two_locals"
            << "1"
            << QStringList{QStringLiteral("a=local:18446744073709551615"), QStringLiteral("b=local:4"),
                           QStringLiteral("out=buffer:float:1")}
            << "CL_DEVICE_LOCAL_MEM_SIZE";
    }

    void absurdSizesExit2()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, global);
        QFETCH(QStringList, args);
        QFETCH(QString, limit);
        QStringList all{QStringLiteral("run"),      dataPath("reliability.cl"),
                        QStringLiteral("--kernel"), kernel,
                        QStringLiteral("--global"), global,
                        QStringLiteral("--device"), QStringLiteral("pocl")};
        for (const QString &a : args)
            all << QStringLiteral("--arg") << a;
        const Result r = cli(all, 30000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(limit.toUtf8()) && r.err.count('\n') == 1, r.err.constData());
    }

    // ENOSPC by name: /dev/full fails every write with it.
    void fullDiskIsNamed()
    {
        Result r = cli({QStringLiteral("bench"), QStringLiteral("pool"), QStringLiteral("--iterations"),
                        QStringLiteral("1000"), QStringLiteral("--effort"), QStringLiteral("tiny"),
                        QStringLiteral("--save"), QStringLiteral("/dev/full"), QStringLiteral("--device"),
                        QStringLiteral("pocl")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot write /dev/full: No space left on device"), r.err.constData());
        r = cli({QStringLiteral("run"), dataPath("reliability.cl"), QStringLiteral("--kernel"),
                 QStringLiteral("mark"), QStringLiteral("--global"), QStringLiteral("1"),
                 QStringLiteral("--arg"), QStringLiteral("out=buffer:uint:1"), QStringLiteral("--trace"),
                 QStringLiteral("/dev/full"), QStringLiteral("--device"), QStringLiteral("pocl")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot write /dev/full: No space left on device"), r.err.constData());
    }

    // An unwritable cache folder is said once (a warning, and cache_note in the JSON), not a silent miss.
    void unwritableCacheIsReported()
    {
        const QString blocker = writeTrace("not-a-folder", "x");
        const Result r =
            cli({QStringLiteral("build"), dataPath("reliability.cl"), QStringLiteral("--device"),
                 QStringLiteral("pocl"), QStringLiteral("--json")},
                60000, {QStringLiteral("CLSCOPE_CACHE_DIR=") + blocker + QStringLiteral("/cache")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(
            r.err.startsWith("clscope-cli: warning: the binary cache cannot keep this build: cannot create "
                             "the cache folder ") &&
                r.err.contains("Not a directory") && r.err.count('\n') == 1,
            r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QStringLiteral("cache")).toString(), QStringLiteral("miss"));
        QVERIFY(
            doc.value(QStringLiteral("cache_note")).toString().contains(QStringLiteral("Not a directory")));
    }

    // info --device SPEC that matches nothing names the devices there are, as run and build do.
    void infoListsDevicesLikeRun()
    {
        const Result info =
            cli({QStringLiteral("info"), QStringLiteral("--device"), QStringLiteral("nosuchvendor")});
        const Result run = cli({QStringLiteral("build"), dataPath("reliability.cl"),
                                QStringLiteral("--device"), QStringLiteral("nosuchvendor")});
        QCOMPARE(info.exitCode, 2);
        QCOMPARE(run.exitCode, 2);
        for (const Result *r : {&info, &run})
            QVERIFY2(r->err.startsWith("clscope-cli: no OpenCL device matches 'nosuchvendor' (devices: 0:0 "),
                     r->err.constData());
        const Result pocl = cli({QStringLiteral("info"), QStringLiteral("--device"), QStringLiteral("pocl")});
        QCOMPARE(pocl.exitCode, 0);
        // Only PoCL's device (Oclgrind, when installed, is a platform too, and may come first).
        QVERIFY(pocl.out.contains("Portable Computing Language"));
        QVERIFY(pocl.out.contains("Device "));
        QVERIFY(!pocl.out.contains("Oclgrind Simulator"));
    }
};

QTEST_GUILESS_MAIN(TestCliReliability)
#include "tst_cli_reliability.moc"
