// Hostile capture files (issue 27, "Replay trusts the file"; docs/reliability.md, Capture files): a real
// capture of tests/data/capture/testapp.c with every buffer's contents, copied and edited with SQLite to
// hold one hostile value each. Replay refuses the launch with one line naming the table, row and field (or
// the device limit it passes) and exit 1, never a crash; capture-info still reads the rest of the file, and
// its --json stays valid JSON.
#include "capturetest.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTest>

using namespace capturetest;

class TestCaptureHostile : public QObject, private capturetest::Fixture
{
    Q_OBJECT

    QString m_base;

    // A copy of the base capture with `edit` (SQL) applied.
    QString hostile(const QString &name, const QString &edit)
    {
        const QString file = path(name + QStringLiteral(".clscope"));
        QFile::remove(file);
        if (!QFile::copy(m_base, file))
            return {};
        QProcess p;
        p.start(QStringLiteral("sqlite3"), {file, edit});
        p.waitForFinished(30000);
        if (p.exitCode() != 0)
            return {};
        return file;
    }

    Run cliIn(const QStringList &args) const { return run(cli(), args, m_env, m_dir.path()); }

private slots:
    void initTestCase()
    {
        setUp();
        if (!m_ready)
            return;
        m_base = path(QStringLiteral("base.clscope"));
        const Run c = capture({QStringLiteral("--contents"), QStringLiteral("all")}, m_base, testApp(false),
                              testAppEnvironment());
        QVERIFY2(c.code == 0, c.err.constData());
        // Launch 0: scale(sub-buffer of 512 floats, float 2) over 512 work-items in groups of 64.
        QCOMPARE(sql(m_base, QStringLiteral("SELECT dims, global_x, local_x, local_given FROM commands WHERE "
                                            "launch = 0")),
                 QStringLiteral("1|512|64|1"));
        QCOMPARE(
            sql(m_base, QStringLiteral("SELECT a.kind, m.size, LENGTH(c.data) FROM launch_args a JOIN "
                                       "mem_objects m ON m.id = a.mem JOIN contents c ON c.launch = "
                                       "a.launch AND c.idx = a.idx AND c.phase = 'before' WHERE a.launch "
                                       "= 0 AND a.idx = 0")),
            QStringLiteral("mem|2048|2048"));
        const Run r =
            cliIn({QStringLiteral("replay"), m_base, QStringLiteral("--launch"), QStringLiteral("0")});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    // One row per hostile value: replay of launch 0 exits 1 with one line that says why.
    void replayRefuses_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("says");
        // The bytes recorded before the launch are fewer than the buffer's: the device wrote past the host
        // allocation they were copied into (heap corruption, SIGABRT).
        QTest::newRow("short before contents")
            << "UPDATE contents SET data = substr(data, 1, 64) WHERE launch = 0 AND idx = 0 AND phase = "
               "'before'"
            << "launch 0: contents idx 0 (before): 64 bytes, but mem_objects row";
        QTest::newRow("global 2^63-1")
            << "UPDATE commands SET global_x = 9223372036854775807 WHERE launch = 0"
            << "cannot run on";
        QTest::newRow("global 2^63-1, driver's local")
            << "UPDATE commands SET global_x = 9223372036854775807, local_given = 0 WHERE launch = 0"
            << "cannot run on";
        QTest::newRow("global -1") << "UPDATE commands SET global_x = -1 WHERE launch = 0"
                                   << "launch 0: commands row";
        QTest::newRow("global 4G x 4G x 2")
            << "UPDATE commands SET dims = 3, global_x = 4294967296, global_y = 4294967296, global_z = 2, "
               "local_given = 0 WHERE launch = 0"
            << "more than 2^64 work-items";
        QTest::newRow("offset -2") << "UPDATE commands SET offset_x = -2 WHERE launch = 0"
                                   << "offset_x -2 is not an offset of 0 or more";
        QTest::newRow("dims 4") << "UPDATE commands SET dims = 4 WHERE launch = 0"
                                << "dims 4 is not 1, 2 or 3";
        QTest::newRow("global 'abc'") << "UPDATE commands SET global_x = 'abc' WHERE launch = 0"
                                      << "global_x (not a number) is not a size of 1 or more";
        QTest::newRow("more work-items than the device has")
            << "UPDATE commands SET global_x = 1048576, local_x = 1048576 WHERE launch = 0"
            << "exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE";
        QTest::newRow("more local memory than the device has")
            << "UPDATE launch_args SET kind = 'local', size = 1099511627776, value = NULL WHERE launch = 0 "
               "AND "
               "idx = 1"
            << "exceeds CL_DEVICE_LOCAL_MEM_SIZE";
        QTest::newRow("dangling memory object")
            << "UPDATE launch_args SET mem = 999 WHERE launch = 0 AND idx = 0"
            << "launch_args idx 0: mem 999 names no row of mem_objects";
        QTest::newRow("negative buffer size")
            << "UPDATE mem_objects SET size = -8 WHERE id = (SELECT mem FROM "
               "launch_args WHERE launch = 0 AND idx = 0)"
            << "size is not a number of bytes of 0 or more";
        QTest::newRow("value shorter than its size")
            << "UPDATE launch_args SET size = 64 WHERE launch = 0 AND idx = 1"
            << "launch_args idx 1: size 64 differs from the 4 bytes of its value";
        QTest::newRow("gap in the arguments") << "UPDATE launch_args SET idx = 5 WHERE launch = 0 AND idx = 1"
                                              << "launch_args idx 5: expected idx 1";
        QTest::newRow("dangling kernel") << "UPDATE commands SET kernel = 999 WHERE launch = 0"
                                         << "kernel 999 names no row of kernels";
    }

    void replayRefuses()
    {
        QFETCH(QString, edit);
        QFETCH(QString, says);
        const QString file = hostile(
            QString::fromUtf8(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_')), edit);
        QVERIFY(!file.isEmpty());
        const Run r = cliIn({QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("0"),
                             QStringLiteral("--device"), QStringLiteral("pocl")});
        QVERIFY2(r.code == 1, r.err.constData());
        QVERIFY2(r.err.contains(says.toUtf8()) && r.err.count('\n') == 1, r.err.constData());
        // The rest of the file stays usable: its summary, and the launches that were not edited.
        const Run info = cliIn({QStringLiteral("capture-info"), file});
        QVERIFY2(info.code == 0 && info.out.contains("kernel launches: 9"), info.err.constData());
        // Launch 1 shares only the buffer with launch 0 (each thread of testapp has its own kernel object).
        if (QByteArray(QTest::currentDataTag()) != "negative buffer size") {
            const Run other =
                cliIn({QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("1"),
                       QStringLiteral("--device"), QStringLiteral("pocl")});
            QVERIFY2(other.code == 0, other.err.constData());
        }
    }

    // exit_status 'abc' threw std::stoi's exception: the summary is printed, with the value named.
    void malformedExitStatus()
    {
        const QString file =
            hostile(QStringLiteral("exit_abc"),
                    QStringLiteral("UPDATE meta SET value = 'abc' WHERE key = 'exit_status'"));
        QVERIFY(!file.isEmpty());
        const Run r = cliIn({QStringLiteral("capture-info"), file});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("invalid: meta exit_status: 'abc' is not an exit status"), r.out.constData());
        QVERIFY(r.out.contains("kernel launches: 9"));
        QVERIFY(!r.out.contains("exit status:"));
        const Run j = cliIn({QStringLiteral("capture-info"), file, QStringLiteral("--json")});
        QCOMPARE(j.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out).object();
        QVERIFY(o.value(QStringLiteral("exit_status")).isNull());
        QCOMPARE(o.value(QStringLiteral("problems")).toArray().size(), 1);
    }

    // A kernel name that is not UTF-8 made --json throw: the document is valid JSON, the bytes U+FFFD.
    void nonUtf8NamesInJson()
    {
        const QString file =
            hostile(QStringLiteral("non_utf8"),
                    QStringLiteral("UPDATE kernels SET name = CAST(x'7363ff616c65' AS TEXT); "
                                   "UPDATE meta SET value = CAST(x'74657374c0' AS TEXT) WHERE "
                                   "key = 'command'"));
        QVERIFY(!file.isEmpty());
        const Run r = cliIn({QStringLiteral("capture-info"), file, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray kernels = doc.object().value(QStringLiteral("kernels")).toArray();
        QCOMPARE(kernels.size(), 1);
        QCOMPARE(kernels.at(0).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("sc\uFFFDale"));
        QCOMPARE(doc.object().value(QStringLiteral("program")).toString(), QStringLiteral("test\uFFFD"));
    }
};

QTEST_GUILESS_MAIN(TestCaptureHostile)
#include "tst_capturehostile.moc"
