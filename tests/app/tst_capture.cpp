// clscope-cli capture and capture-info on real programs: clinfo, clpeak and pyopencl's own examples print
// and exit exactly as without the layer and their captures hold their programs, kernels and launches; a
// program of ours (threads, a sub-buffer, an image, queues without profiling) that dies of SIGSEGV keeps
// every launch up to the crash; the summary of capture-info, usage errors, and the layer itself: a
// recorder that dies or stops reading, and the libraries it links. Replay, export and contents:
// tst_capturereplay.cpp; the reader against SQL: tst_capturereader.cpp.
#include "capturetest.h"

#include "clscope/capture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace capturetest;

class TestCapture : public QObject, private capturetest::Fixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUp(); }

    void programs_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("kernel"); // a kernel the capture must hold
        QTest::addColumn<int>("minLaunches");
        // clpeak prints what it measured: those numbers are masked before the comparison.
        QTest::newRow("clpeak --kernel-latency")
            << QStringLiteral("clpeak") << QStringList{QStringLiteral("--kernel-latency")}
            << QStringLiteral("global_bandwidth_v1_local_offset") << 20000;
        QTest::newRow("clinfo") << QStringLiteral("clinfo") << QStringList{} << QStringLiteral("sum") << 0;
        QTest::newRow("demo.py") << kPython << QStringList{QStringLiteral("demo.py")} << QStringLiteral("sum")
                                 << 1;
        QTest::newRow("demo_elementwise.py") << kPython << QStringList{QStringLiteral("demo_elementwise.py")}
                                             << QStringLiteral("lin_comb") << 5;
        QTest::newRow("demo-struct-reduce.py")
            << kPython << QStringList{QStringLiteral("demo-struct-reduce.py")}
            << QStringLiteral("reduce_kernel_stage1") << 4;
        QTest::newRow("demo_array.py")
            << kPython << QStringList{QStringLiteral("demo_array.py")} << QStringLiteral("axpbyz") << 3;
    }

    void programs()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        QFETCH(QString, kernel);
        QFETCH(int, minLaunches);
        if (QStandardPaths::findExecutable(program).isEmpty())
            QSKIP("not installed");
        const Run plain = run(program, args, m_env, m_dir.path());
        QCOMPARE(plain.code, 0);
        const QString file = path(QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".clscope"));
        const Run captured =
            run(cli(),
                QStringList{QStringLiteral("capture"), QStringLiteral("-o"), file, QStringLiteral("--")} +
                    QStringList{program} + args,
                m_env, m_dir.path());
        QCOMPARE(captured.code, plain.code);
        if (program == QStringLiteral("clpeak")) {
            static const QRegularExpression measured(QStringLiteral("[0-9]+\\.[0-9]+ us"));
            QCOMPARE(QString::fromUtf8(captured.out).replace(measured, QStringLiteral("N us")),
                     QString::fromUtf8(plain.out).replace(measured, QStringLiteral("N us")));
        } else {
            QCOMPARE(captured.out, plain.out);
        }
        // The program's stderr comes first, then the summary.
        QVERIFY2(captured.err.startsWith(plain.err), captured.err.constData());
        QVERIFY2(captured.err.contains("capture written to"), captured.err.constData());

        QCOMPARE(sql(file, QStringLiteral("PRAGMA user_version")),
                 QString::number(clscope::kCaptureSchemaVersion));
        QVERIFY(sql(file, QStringLiteral("SELECT COUNT(*) FROM devices")).toInt() >= 1);
        QVERIFY(sql(file, QStringLiteral("SELECT COUNT(*) FROM program_sources")).toInt() >= 1);
        QCOMPARE(
            sql(file, QStringLiteral("SELECT COUNT(*) FROM kernels WHERE name = '%1'").arg(kernel)).toInt() >=
                1,
            true);
        QVERIFY(sql(file, QStringLiteral("SELECT COUNT(*) FROM builds WHERE result = 0")).toInt() >= 1);
        QVERIFY(sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")).toInt() >=
                minLaunches);
        // Every launch got its timestamps, and launches are numbered 0.. without gaps.
        QCOMPARE(
            sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE result = 0 AND (start_ns IS NULL "
                                     "OR end_ns < start_ns)")),
            QStringLiteral("0"));
        QCOMPARE(sql(file, QStringLiteral("SELECT IFNULL(MAX(launch) + 1, 0) = COUNT(launch) FROM commands")),
                 QStringLiteral("1"));
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM processes WHERE ended_ns IS NOT NULL")),
                 QStringLiteral("1"));
        QCOMPARE(sql(file, QStringLiteral("SELECT IFNULL(SUM(records), 0) FROM drops")), QStringLiteral("0"));
    }

    void crashKeepsLaunches_data()
    {
        QTest::addColumn<bool>("crash");
        QTest::newRow("exit") << false;
        QTest::newRow("SIGSEGV") << true;
    }

    void crashKeepsLaunches()
    {
        QFETCH(bool, crash);
        const QStringList app = testApp(crash);
        const QProcessEnvironment env = testAppEnvironment();
        const Run plain = run(app.first(), app.mid(1), env, m_dir.path());
        QCOMPARE(plain.code, crash ? -1 : 0);
        // Without the layer: no profiling on its queues; the layer must not change that answer.
        QVERIFY2(plain.out.startsWith("launches 9 properties 0 array 8 first 1 last 512"),
                 plain.out.constData());
        const QString file = path(QStringLiteral("testapp-%1.clscope").arg(crash));
        const Run captured = capture({}, file, app, env);
        QCOMPARE(captured.code, crash ? 128 + 11 : 0);
        QCOMPARE(captured.out, plain.out);
        QCOMPARE(sql(file, QStringLiteral("SELECT value FROM meta WHERE key = 'exit_status'")),
                 QString::number(crash ? 139 : 0));
        QCOMPARE(sql(file,
                     QStringLiteral("SELECT COUNT(*), MIN(launch), MAX(launch) FROM commands WHERE launch IS "
                                    "NOT NULL")),
                 QStringLiteral("9|0|8"));
        QCOMPARE(
            sql(file, QStringLiteral("SELECT COUNT(DISTINCT thread), COUNT(DISTINCT queue), SUM(own_event) "
                                     "FROM commands WHERE launch IS NOT NULL")),
            QStringLiteral("3|3|9"));
        QCOMPARE(sql(file, QStringLiteral(
                               "SELECT kind, size, origin, parent IS NOT NULL FROM mem_objects ORDER BY id")),
                 QStringLiteral("buffer|4096|0|0\nsub-buffer|2048|2048|1\nimage|1024|0|0"));
        QCOMPARE(
            sql(file, QStringLiteral("SELECT global_x, local_x, local_given FROM commands WHERE launch = 4")),
            QStringLiteral("512|64|1"));
        QCOMPARE(sql(file, QStringLiteral(
                               "SELECT COUNT(*) FROM queues WHERE profiling_added = 1 AND properties = 0")),
                 QStringLiteral("4"));
        QCOMPARE(sql(file, QStringLiteral("SELECT options FROM builds")),
                 QStringLiteral("-cl-fast-relaxed-math"));
        QCOMPARE(
            sql(file, QStringLiteral("SELECT kind, size FROM launch_args WHERE launch = 8 ORDER BY idx")),
            QStringLiteral("mem|8\nvalue|4"));
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM processes WHERE ended_ns IS NULL")),
                 QString::number(crash ? 1 : 0));
    }

    void exitStatusAndStdio()
    {
        const Run r = run(cli(),
                          {QStringLiteral("capture"), QStringLiteral("-o"),
                           path(QStringLiteral("sh.clscope")), QStringLiteral("--"), QStringLiteral("sh"),
                           QStringLiteral("-c"), QStringLiteral("read x; echo got $x; echo err >&2; exit 7")},
                          m_env, m_dir.path(), "hello\n");
        QCOMPARE(r.code, 7);
        QCOMPARE(r.out, QByteArray("got hello\n"));
        QVERIFY(r.err.startsWith("err\n"));
        const Run missing =
            run(cli(),
                {QStringLiteral("capture"), QStringLiteral("-o"), path(QStringLiteral("none.clscope")),
                 QStringLiteral("--"), QStringLiteral("/nonexistent/program")},
                m_env, m_dir.path());
        QCOMPARE(missing.code, 127);
        QVERIFY(missing.err.contains("cannot run /nonexistent/program"));
        // A capture file that cannot be made is said before the program runs (the file's tables are made
        // later, while the program starts).
        const QString marker = path(QStringLiteral("ran"));
        const Run unwritable = run(cli(),
                                   {QStringLiteral("capture"), QStringLiteral("-o"),
                                    path(QStringLiteral("no/such/dir/x.clscope")), QStringLiteral("--"),
                                    QStringLiteral("touch"), marker},
                                   m_env, m_dir.path());
        QCOMPARE(unwritable.code, 1);
        QVERIFY2(unwritable.err.contains("cannot write the capture file") &&
                     unwritable.err.contains("No such file or directory"),
                 unwritable.err.constData());
        QVERIFY(!QFile::exists(marker));
    }

    void captureInfo()
    {
        const QString file = path(QStringLiteral("demo.py.clscope"));
        QVERIFY(QFile::exists(file)); // made by programs()
        const QString trace = path(QStringLiteral("demo-trace.json")), csv = path(QStringLiteral("demo.csv"));
        const Run r = run(cli(),
                          {QStringLiteral("capture-info"), file, QStringLiteral("--json"),
                           QStringLiteral("--trace"), trace, QStringLiteral("--csv"), csv},
                          m_env, m_dir.path());
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("exit_status")).toInt(), 0);
        QCOMPARE(j.value(QStringLiteral("launches")).toInt(), 1);
        QCOMPARE(j.value(QStringLiteral("commands")).toInt(), 2); // the launch and the read-back
        QCOMPARE(j.value(QStringLiteral("kernels"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("sum"));
        QCOMPARE(j.value(QStringLiteral("transfers"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("bytes"))
                     .toInt(),
                 200000);
        // demo.py makes three buffers of 50000 floats and keeps them all.
        QCOMPARE(j.value(QStringLiteral("memory"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("peak_bytes"))
                     .toInt(),
                 600000);
        // Without the recorder's totals (a recorder that died) the summary comes from the commands: the same.
        const QString scanned = path(QStringLiteral("demo-scanned.clscope"));
        QVERIFY(QFile::copy(file, scanned));
        sql(scanned,
            QStringLiteral("DELETE FROM meta WHERE key = 'command_totals'; DELETE FROM command_totals"));
        const Run again = run(cli(), {QStringLiteral("capture-info"), scanned, QStringLiteral("--json")},
                              m_env, m_dir.path());
        QCOMPARE(again.code, 0);
        QCOMPARE(again.out, r.out);
        QFile t(trace);
        QVERIFY(t.open(QIODevice::ReadOnly));
        const QByteArray traceText = t.readAll();
        QVERIFY(traceText.contains("\"name\":\"sum\"") || traceText.contains("\"name\": \"sum\""));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll().count('\n'), 3); // header, launch, read
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("capture without program") << QStringList{QStringLiteral("capture")} << 2 << QString();
        QTest::newRow("contents other than all")
            << QStringList{QStringLiteral("capture"), QStringLiteral("--contents"), QStringLiteral("some"),
                           QStringLiteral("--"), QStringLiteral("true")}
            << 2 << QStringLiteral("--contents takes 'all'");
        QTest::newRow("timestamps other than all, program or N")
            << QStringList{QStringLiteral("capture"), QStringLiteral("--timestamps"), QStringLiteral("0"),
                           QStringLiteral("--"), QStringLiteral("true")}
            << 2 << QStringLiteral("--timestamps: 'all', 'program' or N (one command in N), not '0'");
        QTest::newRow("info of a missing file")
            << QStringList{QStringLiteral("capture-info"), QStringLiteral("/nonexistent.clscope")} << 2
            << QStringLiteral("no such file");
        QTest::newRow("info of a non-capture")
            << QStringList{QStringLiteral("capture-info"), QStringLiteral(CLSCOPE_CAPTURE_TESTAPP)} << 2
            << QStringLiteral("not a CLScope capture");
        QTest::newRow("replay of a launch that is not there")
            << QStringList{QStringLiteral("replay"), QStringLiteral("demo.py.clscope"),
                           QStringLiteral("--launch"), QStringLiteral("5")}
            << 2 << QStringLiteral("has no launch 5 (it has 1)");
    }

    void badUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = run(cli(), args, m_env, m_dir.path());
        QCOMPARE(r.code, code);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    // --timestamps: which commands the program passed no event for get one of the layer's. launchloop makes
    // 1000 warm-up launches without events, then 1000 more, with its own events in the `events` mode.
    void timestampsChoice_data()
    {
        QTest::addColumn<QString>("timestamps");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("byOwnEvent"); // own_event|commands|timed
        QTest::addColumn<QString>("summaryLine");
        QTest::addColumn<int>("timedLaunches"); // capture-info's kernels[0].timed
        QTest::newRow("all") << QStringLiteral("all") << QStringLiteral("plain")
                             << QStringLiteral("1|2000|2000") << QString() << 2000;
        QTest::newRow("one in 4") << QStringLiteral("4") << QStringLiteral("plain")
                                  << QStringLiteral("1|500|500\n2|1500|0")
                                  << QStringLiteral("and of 1 in 4 of the others (--timestamps 4)") << 500;
        QTest::newRow("program, no events")
            << QStringLiteral("program") << QStringLiteral("plain") << QStringLiteral("2|2000|0")
            << QStringLiteral("only of commands the program passed an event for") << 0;
        QTest::newRow("program, its own events")
            << QStringLiteral("program") << QStringLiteral("events")
            << QStringLiteral("0|1000|1000\n2|1000|0")
            << QStringLiteral("only of commands the program passed an event for") << 1000;
    }

    void timestampsChoice()
    {
        QFETCH(QString, timestamps);
        QFETCH(QString, mode);
        QFETCH(QString, byOwnEvent);
        QFETCH(QString, summaryLine);
        QFETCH(int, timedLaunches);
        const QString file = path(QStringLiteral("timestamps.clscope"));
        const Run r = run(cli(),
                          {QStringLiteral("capture"), QStringLiteral("--timestamps"), timestamps,
                           QStringLiteral("-o"), file, QStringLiteral("--"),
                           QStringLiteral(CLSCOPE_CAPTURE_LAUNCHLOOP), QStringLiteral("1000"), mode},
                          m_env, m_dir.path());
        QCOMPARE(r.code, 0);
        QCOMPARE(sql(file, QStringLiteral("SELECT own_event, COUNT(*), COUNT(start_ns) FROM commands "
                                          "GROUP BY own_event ORDER BY own_event")),
                 byOwnEvent);
        if (summaryLine.isEmpty())
            QVERIFY2(!r.err.contains("device times:"), r.err.constData());
        else
            QVERIFY2(r.err.contains(summaryLine.toUtf8()), r.err.constData());
        const Run info =
            run(cli(), {QStringLiteral("capture-info"), file, QStringLiteral("--json")}, m_env, m_dir.path());
        const QJsonObject summary = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(summary.value(QStringLiteral("timestamps")).toString(), timestamps);
        const QJsonObject kernel = summary.value(QStringLiteral("kernels")).toArray().at(0).toObject();
        QCOMPARE(kernel.value(QStringLiteral("launches")).toInt(), 2000);
        QCOMPARE(kernel.value(QStringLiteral("timed")).toInt(), timedLaunches);
        if (timedLaunches == 0) // the text says so, or that the time is over the timed launches
            QVERIFY2(r.err.contains("empty: 2000 launches, none timed\n"), r.err.constData());
        else if (timedLaunches < 2000)
            QVERIFY2(r.err.contains(QStringLiteral(" over the %1 timed (mean ").arg(timedLaunches).toUtf8()),
                     r.err.constData());
        // One file: the capture leaves its journal mode at DELETE, so readers make no -wal or -shm beside it.
        QVERIFY(!QFile::exists(file + QStringLiteral("-wal")));
        QVERIFY(!QFile::exists(file + QStringLiteral("-shm")));
        if (timestamps == QStringLiteral("all")) {
            // A capture from before command_totals had `timed` (its layer timed every command): read as such.
            sql(file, QStringLiteral("ALTER TABLE command_totals DROP COLUMN timed"));
            QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM pragma_table_info('command_totals') "
                                              "WHERE name = 'timed'")),
                     QStringLiteral("0"));
            const Run old = run(cli(), {QStringLiteral("capture-info"), file, QStringLiteral("--json")},
                                m_env, m_dir.path());
            QCOMPARE(old.code, 0);
            const QJsonObject oldKernel = QJsonDocument::fromJson(old.out)
                                              .object()
                                              .value(QStringLiteral("kernels"))
                                              .toArray()
                                              .at(0)
                                              .toObject();
            QCOMPARE(oldKernel.value(QStringLiteral("timed")).toInt(), 2000);
        }
    }

    // The recorder goes away while the program enqueues: the program runs on to its normal end.
    void recorderDiesProgramRunsOn()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        struct stat st;
        QCOMPARE(::fstat(fds[1], &st), 0);
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("OPENCL_LAYERS"),
                   QFileInfo(cli()).dir().filePath(QStringLiteral("libclscope-layer.so")));
        env.insert(QStringLiteral("CLSCOPE_CAPTURE_FD"), QStringLiteral("%1:%2").arg(fds[1]).arg(st.st_ino));
        QProcess p;
        p.setProcessEnvironment(env);
        const int childFd = fds[1];
        p.setChildProcessModifier([childFd] { ::fcntl(childFd, F_SETFD, 0); });
        p.start(QStringLiteral(CLSCOPE_CAPTURE_LAUNCHLOOP), {QStringLiteral("200000")});
        QVERIFY(p.waitForStarted());
        ::close(fds[1]);
        char buf[4096];
        QVERIFY(::read(fds[0], buf, sizeof buf) > 0); // the layer is recording
        ::close(fds[0]);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("launches 200000 "));
    }

    // A recorder that stops reading: the layer's buffer fills, it drops records instead of blocking the
    // program, and the capture says how many (none silently: kept + dropped = every launch).
    void dropsAreCounted()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        struct stat st;
        QCOMPARE(::fstat(fds[1], &st), 0);
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("OPENCL_LAYERS"),
                   QFileInfo(cli()).dir().filePath(QStringLiteral("libclscope-layer.so")));
        env.insert(QStringLiteral("CLSCOPE_CAPTURE_FD"), QStringLiteral("%1:%2").arg(fds[1]).arg(st.st_ino));
        env.insert(QStringLiteral("CLSCOPE_CAPTURE_BUFFER"), QStringLiteral("65536"));
        QProcess p;
        p.setProcessEnvironment(env);
        const int childFd = fds[1];
        p.setChildProcessModifier([childFd] { ::fcntl(childFd, F_SETFD, 0); });
        p.start(QStringLiteral(CLSCOPE_CAPTURE_LAUNCHLOOP), {QStringLiteral("20000")});
        QVERIFY(p.waitForStarted());
        ::close(fds[1]);
        // Nothing is read until the program has enqueued everything and said so.
        QVERIFY(p.waitForReadyRead(120000));
        QVERIFY(p.readAllStandardOutput().startsWith("launches 20000 "));
        const QString file = path(QStringLiteral("drops.clscope"));
        {
            clscope::CaptureWriter writer(file.toStdString());
            std::vector<unsigned char> buf(1 << 16);
            for (ssize_t n; (n = ::read(fds[0], buf.data(), buf.size())) > 0;)
                writer.feed(buf.data(), std::size_t(n));
            writer.finish();
        }
        ::close(fds[0]);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const int launches =
            sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")).toInt();
        const int dropped = sql(file, QStringLiteral("SELECT IFNULL(SUM(records), 0) FROM drops")).toInt();
        QVERIFY2(dropped > 0, qPrintable(QString::number(launches)));
        QVERIFY(launches < 21000);
        // Every launch is either recorded or counted (with its later timestamps, which are dropped too).
        QVERIFY2(launches + dropped >= 21000,
                 qPrintable(QStringLiteral("%1 + %2").arg(launches).arg(dropped)));
        QCOMPARE(clscope::CaptureReader(file.toStdString()).summary().droppedRecords, std::uint64_t(dropped));
    }

    // The layer runs inside other programs: it must not bring a loader, Qt or core with it.
    void layerLinksOnlyTheRuntime()
    {
        const QString layer = QFileInfo(cli()).dir().filePath(QStringLiteral("libclscope-layer.so"));
        QVERIFY(QFile::exists(layer));
        QProcess p;
        p.start(QStringLiteral("ldd"), {layer});
        QVERIFY(p.waitForFinished());
        const QString ldd = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(!ldd.contains(QStringLiteral("libOpenCL")), qPrintable(ldd));
        QVERIFY2(!ldd.contains(QStringLiteral("Qt")), qPrintable(ldd));
        QVERIFY2(!ldd.contains(QStringLiteral("sqlite")), qPrintable(ldd));
        p.start(QStringLiteral("nm"), {QStringLiteral("-D"), QStringLiteral("--defined-only"), layer});
        QVERIFY(p.waitForFinished());
        QStringList exported;
        for (const QString &line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n')))
            if (line.contains(QStringLiteral(" T ")))
                exported << line.section(QLatin1Char(' '), 2);
        exported.sort();
        QCOMPARE(exported, (QStringList{QStringLiteral("clGetLayerInfo"), QStringLiteral("clInitLayer")}));
    }
};

QTEST_GUILESS_MAIN(TestCapture)
#include "tst_capture.moc"
