// Issue 27, what capturing does to the user's file and to the program: the file that is there stays until
// the new capture is complete (a program that cannot be started, a folder, a file that is not a capture, a
// second capture of the same file); a full disk ends in a status of its own and a readable partial file;
// SIGTERM or SIGINT to clscope-cli stops the program too; a program that aborts, or crashes right after
// clFinish, keeps every launch and every device time. docs/reliability.md lists each probe with its test.
#include "../ui/fulldisk.h"
#include "capturetest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <cerrno>
#include <csignal>

#include <sys/types.h>
#include <unistd.h>

using namespace capturetest;

namespace {

QByteArray readAll(const QString &file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A running clscope-cli capture of `crashapp N wait`, once the program said it is ready (its launches are
// done), with the program's pid.
struct Waiting
{
    QProcess cli;
    pid_t program = 0;

    ~Waiting()
    {
        // Whatever the test found, nothing it started outlives it.
        if (program > 0 && ::kill(program, 0) == 0)
            ::kill(program, SIGKILL);
        if (cli.state() != QProcess::NotRunning) {
            cli.kill();
            cli.waitForFinished();
        }
    }

    bool start(const QString &file, const QProcessEnvironment &env, const QString &dir)
    {
        cli.setProcessEnvironment(env);
        cli.setWorkingDirectory(dir);
        cli.start(QStringLiteral(CLSCOPE_CLI_PATH),
                  {QStringLiteral("capture"), QStringLiteral("-o"), file, QStringLiteral("--"),
                   QStringLiteral(CLSCOPE_CAPTURE_CRASHAPP), QStringLiteral("20"), QStringLiteral("wait")});
        if (!cli.waitForStarted())
            return false;
        QByteArray out;
        while (!out.contains('\n')) {
            if (!cli.waitForReadyRead(60000))
                return false;
            out += cli.readAllStandardOutput();
        }
        if (!out.startsWith("ready "))
            return false;
        program = pid_t(out.mid(6).trimmed().toInt());
        return program > 0;
    }
};

} // namespace

class TestCaptureSafety : public QObject, private capturetest::Fixture
{
    Q_OBJECT

    // A small capture of a program without OpenCL: a valid capture file to protect.
    QByteArray makeCapture(const QString &file)
    {
        const Run r = capture({}, file, {QStringLiteral("true")}, m_env);
        if (r.code != 0)
            return {};
        return readAll(file);
    }

private slots:
    void initTestCase() { setUp(); }

    // Probe: `capture -o old.clscope -- mistyped` deleted old.clscope before finding the program missing.
    void mistypedProgramKeepsOldFile()
    {
        const QString file = path(QStringLiteral("old.clscope"));
        const QByteArray before = makeCapture(file);
        QVERIFY(!before.isEmpty());
        const Run r = capture({}, file, {QStringLiteral("/nonexistent/mistyped")}, m_env);
        QCOMPARE(r.code, 127);
        QVERIFY2(r.err.contains("cannot run /nonexistent/mistyped"), r.err.constData());
        QCOMPARE(readAll(file), before);
        // Nothing left beside it: no temporary file, no lock.
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("*old.clscope*")}, QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("old.clscope")});
    }

    // Probe: `-o emptydir` deleted the folder (and made a file of its name).
    void folderRefused()
    {
        const QString folder = path(QStringLiteral("emptydir"));
        QVERIFY(QDir().mkpath(folder));
        const Run r = capture({}, folder, {QStringLiteral("true")}, m_env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("is a folder"), r.err.constData());
        QVERIFY(QFileInfo(folder).isDir());
        // --force does not make a folder a file either.
        const Run forced = capture({QStringLiteral("--force")}, folder, {QStringLiteral("true")}, m_env);
        QCOMPARE(forced.code, 1);
        QVERIFY(QFileInfo(folder).isDir());
    }

    // Probe: `-o notes.txt` replaced any file with a capture.
    void nonCaptureFileRefusedWithoutForce()
    {
        const QString file = path(QStringLiteral("notes.txt"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("my notes, not a capture\n");
        }
        const Run r = capture({}, file, {QStringLiteral("true")}, m_env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("is not a CLScope capture") && r.err.contains("--force"), r.err.constData());
        QCOMPARE(readAll(file), QByteArray("my notes, not a capture\n"));
        const Run forced = capture({QStringLiteral("--force")}, file, {QStringLiteral("true")}, m_env);
        QCOMPARE(forced.code, 0);
        QVERIFY(readAll(file).startsWith("SQLite format 3"));
        // A capture replaces a capture without being forced.
        QCOMPARE(capture({}, file, {QStringLiteral("true")}, m_env).code, 0);
    }

    // Probe: two captures to one file at once: the first was lost silently.
    void concurrentCaptureRefused()
    {
        const QString file = path(QStringLiteral("shared.clscope"));
        Waiting first;
        QVERIFY(first.start(file, testAppEnvironment(), m_dir.path()));
        const Run second = capture({}, file, {QStringLiteral("true")}, m_env);
        QCOMPARE(second.code, 1);
        const QByteArray expected = file.toUtf8() + " is being written by another capture (pid " +
                                    QByteArray::number(first.cli.processId()) + ")";
        QVERIFY2(second.err.contains(expected), second.err.constData());
        first.cli.terminate();
        QVERIFY(first.cli.waitForFinished(60000));
        QCOMPARE(first.cli.exitCode(), 128 + SIGTERM);
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")),
                 QStringLiteral("20"));
    }

    // Probe: a capture that ran onto a full disk exited 0 and its file said 0 launches.
    void fullDiskSaysIncomplete()
    {
        FullDisk disk(path(QStringLiteral("small")), 3 * 1024 * 1024);
        REQUIRE_TMPFS(disk);
        const QString file = path(QStringLiteral("small/full.clscope"));
        const Run r =
            capture({}, file, {QStringLiteral(CLSCOPE_CAPTURE_LAUNCHLOOP), QStringLiteral("100000")},
                    testAppEnvironment());
        QCOMPARE(r.code, 3); // docs/cli.md: the capture is incomplete
        QVERIFY2(r.err.contains("the capture is incomplete") &&
                     r.err.contains("the program exited with status 0"),
                 r.err.constData());
        QVERIFY(r.out.startsWith("launches 100000 ")); // the program ran to its end
        // What fitted is a valid capture, in place, that capture-info reads.
        QCOMPARE(sql(file, QStringLiteral("PRAGMA integrity_check")), QStringLiteral("ok"));
        const int launches =
            sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")).toInt();
        QVERIFY2(launches > 100 && launches < 100000, qPrintable(QString::number(launches)));
        const Run info = run(cli(), {QStringLiteral("capture-info"), file}, m_env, m_dir.path());
        QCOMPARE(info.code, 0);
        const QByteArray said = QByteArray("kernel launches: ") + QByteArray::number(launches) + ',';
        QVERIFY2(info.out.contains(said), info.out.constData());
        QCOMPARE(QDir(path(QStringLiteral("small")))
                     .entryList(QDir::Files | QDir::Hidden)
                     .filter(QStringLiteral("capturing")),
                 QStringList());
    }

    // Probe: SIGTERM to clscope-cli killed it and left the program running, an orphan.
    void signalToRecorderStopsProgram_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void signalToRecorderStopsProgram()
    {
        QFETCH(int, signal);
        const QString file = path(QStringLiteral("signal-%1.clscope").arg(signal));
        Waiting w;
        QVERIFY(w.start(file, testAppEnvironment(), m_dir.path()));
        QCOMPARE(::kill(pid_t(w.cli.processId()), signal), 0);
        QVERIFY(w.cli.waitForFinished(60000));
        QCOMPARE(w.cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(w.cli.exitCode(), 128 + signal); // the program's status: it died of the signal
        errno = 0;
        QVERIFY2(::kill(w.program, 0) != 0 && errno == ESRCH, "the program outlived clscope-cli");
        w.program = 0;
        QCOMPARE(sql(file, QStringLiteral("SELECT value FROM meta WHERE key = 'exit_status'")),
                 QString::number(128 + signal));
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")),
                 QStringLiteral("20"));
    }

    // Probe: contents larger than the layer's buffer were dropped as records the recorder "could not keep
    // up" with, and replay then advised the option that had been given. They come in pieces now.
    void contentsLargerThanTheBuffer()
    {
        const QString file = path(QStringLiteral("large.clscope"));
        QProcessEnvironment env = testAppEnvironment();
        env.insert(QStringLiteral("CLSCOPE_CAPTURE_BUFFER"), QStringLiteral("1048576"));
        const int bytes = 12 * 1024 * 1024 + 4;
        const Run r = capture({QStringLiteral("--launch"), QStringLiteral("1")}, file,
                              {QStringLiteral(CLSCOPE_CAPTURE_CRASHAPP), QStringLiteral("2"),
                               QStringLiteral("exit"), QString::number(bytes)},
                              env);
        QCOMPARE(r.code, 0);
        QCOMPARE(sql(file, QStringLiteral("SELECT phase, state, length(data) FROM contents ORDER BY phase")),
                 QStringLiteral("after|captured|%1\nbefore|captured|%1").arg(bytes));
        QCOMPARE(sql(file, QStringLiteral("SELECT IFNULL(SUM(records), 0) FROM drops")), QStringLiteral("0"));
        // The launch replays from them, on PoCL: m_env's PYOPENCL_CTX=0 may name Oclgrind, which simulates
        // the 3M work-items for minutes under ASan.
        const Run replay = run(cli(),
                               {QStringLiteral("replay"), file, QStringLiteral("--launch"),
                                QStringLiteral("1"), QStringLiteral("--device"), QStringLiteral("pocl")},
                               m_env, m_dir.path());
        QVERIFY2(replay.code == 0, replay.err.constData());
    }

    // Probe: a piece of contents larger than the layer's buffer waits in it while the recorder is slow to
    // read the piece before, and every other record that came meanwhile (a launch, its device times, which
    // the layer's writer thread reads while the program waits) was dropped as "could not keep up": the test
    // above lost records that way on a loaded machine. Here the recorder is stopped for 40 ms of every 50
    // while the program runs; contents have room of their own now, and nothing is dropped.
    void contentsLeaveRoomForRecords()
    {
        const QString file = path(QStringLiteral("slow-recorder.clscope"));
        QProcessEnvironment env = testAppEnvironment();
        env.insert(QStringLiteral("CLSCOPE_CAPTURE_BUFFER"), QStringLiteral("1048576"));
        const int bytes = 12 * 1024 * 1024; // whole pieces: the last one still fills the buffer at the launch
        QProcess recorder;
        recorder.setProcessEnvironment(env);
        recorder.setWorkingDirectory(m_dir.path());
        recorder.start(cli(), {QStringLiteral("capture"), QStringLiteral("--launch"), QStringLiteral("1"),
                               QStringLiteral("--launch"), QStringLiteral("2"), QStringLiteral("--launch"),
                               QStringLiteral("3"), QStringLiteral("-o"), file, QStringLiteral("--"),
                               QStringLiteral(CLSCOPE_CAPTURE_CRASHAPP), QStringLiteral("8"),
                               QStringLiteral("exit"), QString::number(bytes)});
        QVERIFY(recorder.waitForStarted());
        const pid_t pid = pid_t(recorder.processId());
        while (!recorder.waitForFinished(10)) {
            ::kill(pid, SIGSTOP);
            QThread::msleep(40);
            ::kill(pid, SIGCONT);
        }
        QCOMPARE(recorder.exitStatus(), QProcess::NormalExit);
        QVERIFY2(recorder.exitCode() == 0, recorder.readAllStandardError().constData());
        QCOMPARE(sql(file, QStringLiteral("SELECT IFNULL(SUM(records), 0) FROM drops")), QStringLiteral("0"));
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*), COUNT(start_ns) FROM commands "
                                          "WHERE launch IS NOT NULL")),
                 QStringLiteral("8|8"));
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*), SUM(length(data)) FROM contents "
                                          "WHERE state = 'captured'")),
                 QStringLiteral("6|%1").arg(6 * qint64(bytes)));
    }

    // Probe: a program that calls abort() after 50 launches kept 0 of them in most runs (PoCL's LLVM installs
    // its signal handler after the layer's). Five runs, all must keep all 50.
    void abortKeepsEveryLaunch()
    {
        for (int i = 0; i < 5; ++i) {
            const QString file = path(QStringLiteral("abort-%1.clscope").arg(i));
            const Run r = capture(
                {}, file,
                {QStringLiteral(CLSCOPE_CAPTURE_CRASHAPP), QStringLiteral("50"), QStringLiteral("abort")},
                testAppEnvironment());
            QCOMPARE(r.code, 128 + SIGABRT);
            QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")),
                     QStringLiteral("50"));
        }
    }

    // Probe: a program killed by SIGTERM (the action left at its default, as for most programs; `kill PID`, a
    // shutdown, the recorder forwarding its own) with its launches still in the layer's buffer kept none of
    // them in most runs: only fatal signals had the layer's handler. Five runs, all must keep all 50.
    void terminateSignalKeepsEveryLaunch()
    {
        for (int i = 0; i < 5; ++i) {
            const QString file = path(QStringLiteral("term-%1.clscope").arg(i));
            const Run r = capture(
                {}, file,
                {QStringLiteral(CLSCOPE_CAPTURE_CRASHAPP), QStringLiteral("50"), QStringLiteral("term")},
                testAppEnvironment());
            QCOMPARE(r.code, 128 + SIGTERM);
            QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")),
                     QStringLiteral("50"));
        }
    }

    // Probe: a program that crashed right after clFinish kept its launches but none of their device times
    // (the layer read its events only after 1 ms without enqueues). The launches wait for a user event, so
    // that they all finish together inside clFinish.
    void crashAfterFinishKeepsDeviceTimes_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("signal");
        QTest::newRow("abort") << QStringLiteral("abort-finished") << int(SIGABRT);
        QTest::newRow("SIGSEGV") << QStringLiteral("crash-finished") << int(SIGSEGV);
    }

    void crashAfterFinishKeepsDeviceTimes()
    {
        QFETCH(QString, mode);
        QFETCH(int, signal);
        for (int i = 0; i < 3; ++i) {
            const QString file = path(QStringLiteral("%1-%2.clscope").arg(mode).arg(i));
            const Run r =
                capture({}, file, {QStringLiteral(CLSCOPE_CAPTURE_CRASHAPP), QStringLiteral("50"), mode},
                        testAppEnvironment());
            QCOMPARE(r.code, 128 + signal);
            QCOMPARE(
                sql(file, QStringLiteral("SELECT COUNT(*), SUM(end_ns >= start_ns AND start_ns > 0) FROM "
                                         "commands WHERE launch IS NOT NULL")),
                QStringLiteral("50|50"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCaptureSafety)
#include "tst_capturesafety.moc"
