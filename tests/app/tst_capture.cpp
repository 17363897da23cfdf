// clscope-cli capture, capture-info and replay on real programs: clinfo and pyopencl's own examples print
// and exit exactly as without the layer and their captures hold their programs, kernels and launches; a
// program of ours (threads, a sub-buffer, an image, queues without profiling) that dies of SIGSEGV keeps
// every launch up to the crash; a captured pyopencl launch replays equal on PoCL and on Oclgrind, and a
// changed expected output makes replay fail at that element.
#include "sanitizers.h"
#include "testicd.h"

#include "clscope/capture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const QString kExamples = QStringLiteral("/usr/share/doc/python-pyopencl-doc/examples");
const QString kPython = QStringLiteral("/usr/bin/python3");

struct Run
{
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString &program, const QStringList &args, const QProcessEnvironment &env, const QString &dir,
        const QByteArray &input = {})
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(dir);
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return {};
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// The ASan and UBSan runtimes this test process runs with (an asan build), as loaded.
QString cli()
{
    return QStringLiteral(CLSCOPE_CLI_PATH);
}

// One value of a query on the capture, through Debian's sqlite3: the file is queryable as documented.
QString sql(const QString &file, const QString &query)
{
    QProcess p;
    p.start(QStringLiteral("sqlite3"), {file, query});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

// The rows of a query, one "a|b|c" line each.
QStringList sqlRows(const QString &file, const QString &query)
{
    const QString out = sql(file, query);
    return out.isEmpty() ? QStringList() : out.split(QLatin1Char('\n'));
}

QString number(std::uint64_t v)
{
    return QString::number(v);
}

// What the reader did before its passes over the commands, kept here as the reference: the record type of
// a cl_command_type, and the name of an enqueue call from commands.type_name.
QString oldTypeName(qint64 cl)
{
    switch (cl) {
    case CL_COMMAND_NDRANGE_KERNEL:
    case CL_COMMAND_TASK:
    case CL_COMMAND_NATIVE_KERNEL:
        return QStringLiteral("kernel");
    case CL_COMMAND_READ_BUFFER:
    case CL_COMMAND_READ_BUFFER_RECT:
    case CL_COMMAND_READ_IMAGE:
        return QStringLiteral("read");
    case CL_COMMAND_WRITE_BUFFER:
    case CL_COMMAND_WRITE_BUFFER_RECT:
    case CL_COMMAND_WRITE_IMAGE:
        return QStringLiteral("write");
    case CL_COMMAND_COPY_BUFFER:
    case CL_COMMAND_COPY_BUFFER_RECT:
    case CL_COMMAND_COPY_IMAGE:
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER:
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
    case CL_COMMAND_SVM_MEMCPY:
        return QStringLiteral("copy");
    case CL_COMMAND_FILL_BUFFER:
    case CL_COMMAND_FILL_IMAGE:
    case CL_COMMAND_SVM_MEMFILL:
        return QStringLiteral("fill");
    case CL_COMMAND_MAP_BUFFER:
    case CL_COMMAND_MAP_IMAGE:
    case CL_COMMAND_UNMAP_MEM_OBJECT:
    case CL_COMMAND_SVM_MAP:
    case CL_COMMAND_SVM_UNMAP:
        return QStringLiteral("map");
    case CL_COMMAND_MIGRATE_MEM_OBJECTS:
    case CL_COMMAND_SVM_MIGRATE_MEM:
        return QStringLiteral("migrate");
    default:
        return QStringLiteral("marker");
    }
}

QString oldEnqueueName(const QString &typeName)
{
    QString out = QStringLiteral("clEnqueue");
    for (QString word : typeName.split(QLatin1Char('-'))) {
        if (word == QStringLiteral("ndrange"))
            word = QStringLiteral("NDRange");
        else if (word == QStringLiteral("svm"))
            word = QStringLiteral("SVM");
        else if (!word.isEmpty() && word[0] >= QLatin1Char('a') && word[0] <= QLatin1Char('z'))
            word[0] = word[0].toUpper();
        out += word;
    }
    return out;
}

QString recordLine(const clscope::CommandRecord &r)
{
    QStringList f{QString::fromUtf8(clscope::typeName(r.type)),
                  QString::fromStdString(r.name),
                  QString::fromStdString(r.queue),
                  QString::fromStdString(r.device),
                  number(r.bytes),
                  QString::number(r.dims)};
    for (std::size_t v : r.global)
        f << number(v);
    for (std::size_t v : r.local)
        f << number(v);
    f << number(r.queued) << number(r.submit) << number(r.start) << number(r.end) << number(r.hostSubmitNs)
      << QString::number(r.launch) << QString::number(r.hostSpan);
    return f.join(QLatin1Char('|'));
}

// The queries CaptureReader ran before (commands_host and its joins, a UNION of the API calls and the
// enqueues by duration), as the lines recordLine() writes.
QStringList oldCommandRecords(const QString &file)
{
    QStringList out;
    const QStringList rows = sqlRows(
        file,
        QStringLiteral(
            "SELECT c.type, CASE WHEN k.name IS NULL THEN IFNULL(c.type_name, '') || IFNULL(' mem ' || "
            "c.mem, '') ELSE k.name END, 'queue ' || IFNULL(c.queue, 0), IFNULL(dv.name, ''), "
            "IFNULL(c.bytes, 0), IFNULL(c.dims, 0), IFNULL(c.global_x, 0), IFNULL(c.global_y, 0), "
            "IFNULL(c.global_z, 0), CASE WHEN IFNULL(c.local_given, 0) THEN IFNULL(c.local_x, 0) ELSE 0 "
            "END, CASE WHEN IFNULL(c.local_given, 0) THEN IFNULL(c.local_y, 0) ELSE 0 END, CASE WHEN "
            "IFNULL(c.local_given, 0) THEN IFNULL(c.local_z, 0) ELSE 0 END, IFNULL(c.host_queued_ns, 0), "
            "IFNULL(c.host_submit_ns, 0), IFNULL(c.host_begin_ns, 0), IFNULL(c.host_end_ns, 0), "
            "IFNULL(c.host_start_ns, 0), IFNULL(c.launch, -1), 0 FROM commands_host c LEFT JOIN kernels "
            "k ON k.id = c.kernel LEFT JOIN queues qu ON qu.id = c.queue LEFT JOIN devices dv ON dv.id "
            "= qu.device WHERE c.result = 0 ORDER BY c.process, c.seq"));
    for (const QString &row : rows) {
        QStringList f = row.split(QLatin1Char('|'));
        f[0] = oldTypeName(f[0].toLongLong());
        out << f.join(QLatin1Char('|'));
    }
    return out;
}

QStringList oldApiCallRecords(const QString &file, qint64 limit)
{
    QStringList out;
    const QStringList rows =
        sqlRows(file, QStringLiteral(
                          "SELECT IFNULL(name, ''), IFNULL(thread, 0), IFNULL(start_ns, 0), "
                          "IFNULL(start_ns, 0) + MAX(IFNULL(duration_ns, 0), 1) FROM (SELECT name, thread, "
                          "start_ns, duration_ns FROM (SELECT IFNULL(n.name, 'call ' || c.api) AS name, "
                          "c.thread, c.start_ns, c.duration_ns FROM api_calls c LEFT JOIN api_names n ON "
                          "n.id = c.api UNION ALL SELECT type_name, thread, host_start_ns, host_duration_ns "
                          "FROM commands) ORDER BY duration_ns DESC LIMIT %1)")
                          .arg(limit));
    for (const QString &row : rows) {
        const QStringList f = row.split(QLatin1Char('|'));
        const QString name = f[0].startsWith(QStringLiteral("cl")) ? f[0] : oldEnqueueName(f[0]);
        out << QStringList{QStringLiteral("marker"),
                           name,
                           QStringLiteral("thread ") + f[1],
                           QStringLiteral("host"),
                           QStringLiteral("0|0|0|0|0|0|0|0|0|0"),
                           f[2],
                           f[3],
                           f[2],
                           QStringLiteral("-1|1")}
                   .join(QLatin1Char('|'));
    }
    return out;
}

// apiTotals() before: per api and per type_name in SQL, summed by name.
QStringList oldApiTotals(const QString &file)
{
    struct Total
    {
        qint64 calls = 0, failed = 0, total = 0, max = 0;
    };
    std::map<QString, Total> byName;
    auto add = [&byName](const QString &name, const QStringList &f) {
        Total &t = byName[name];
        t.calls += f[1].toLongLong();
        t.failed += f[2].toLongLong();
        t.total += f[3].toLongLong();
        t.max = std::max(t.max, f[4].toLongLong());
    };
    for (const QString &row :
         sqlRows(file, QStringLiteral(
                           "SELECT IFNULL(n.name, 'call ' || c.api), COUNT(*), SUM(c.result != 0), "
                           "SUM(c.duration_ns), MAX(c.duration_ns) FROM api_calls c LEFT JOIN api_names n "
                           "ON n.id = c.api GROUP BY c.api")))
        add(row.split(QLatin1Char('|')).at(0), row.split(QLatin1Char('|')));
    for (const QString &row :
         sqlRows(file, QStringLiteral("SELECT type_name, COUNT(*), SUM(result != 0), SUM(host_duration_ns), "
                                      "MAX(host_duration_ns) FROM commands GROUP BY type_name")))
        add(oldEnqueueName(row.split(QLatin1Char('|')).at(0)), row.split(QLatin1Char('|')));
    std::vector<std::pair<QString, Total>> sorted(byName.begin(), byName.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto &x, const auto &y) {
        return x.second.total != y.second.total ? x.second.total > y.second.total : x.first < y.first;
    });
    QStringList out;
    for (const auto &[name, t] : sorted)
        out << QStringLiteral("%1|%2|%3|%4|%5").arg(name).arg(t.calls).arg(t.failed).arg(t.total).arg(t.max);
    return out;
}

QStringList apiTotalLines(const std::vector<clscope::CaptureApiTotal> &totals)
{
    QStringList out;
    for (const clscope::CaptureApiTotal &t : totals)
        out << QStringLiteral("%1|%2|%3|%4|%5")
                   .arg(QString::fromStdString(t.name))
                   .arg(t.calls)
                   .arg(t.failed)
                   .arg(t.totalNs)
                   .arg(t.maxNs);
    return out;
}

QStringList sortedDurations(const QStringList &lines)
{
    QList<qint64> d;
    for (const QString &l : lines) {
        const QStringList f = l.split(QLatin1Char('|'));
        d << f[15].toLongLong() - f[14].toLongLong(); // end - start
    }
    std::sort(d.begin(), d.end());
    QStringList out;
    for (qint64 v : d)
        out << QString::number(v);
    return out;
}

} // namespace

class TestCapture : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcessEnvironment m_env;

    QString path(const QString &name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (!QFile::exists(kExamples + QStringLiteral("/demo.py")))
            QSKIP("pyopencl's examples are missing: apt-get install python-pyopencl-doc");
        if (QStandardPaths::findExecutable(QStringLiteral("sqlite3")).isEmpty())
            QSKIP("sqlite3 is missing: apt-get install sqlite3");
        m_env = QProcessEnvironment::systemEnvironment();
        // PoCL, no compiler chatter, and no binary cache: pyopencl then builds from source, which replay
        // needs.
        m_env.insert(QStringLiteral("PYOPENCL_CTX"), QStringLiteral("0"));
        m_env.insert(QStringLiteral("PYOPENCL_COMPILER_OUTPUT"), QStringLiteral("0"));
        m_env.insert(QStringLiteral("PYOPENCL_NO_CACHE"), QStringLiteral("1"));
        m_env.remove(QStringLiteral("OPENCL_LAYERS"));
#if defined(__SANITIZE_ADDRESS__)
        // The asan preset builds the layer with ASan and UBSan too: the programs it is loaded into (clinfo,
        // Python) are not, so their runtimes are preloaded; leaks of those programs are not ours to report.
        const QStringList runtimes = clscope::test::sanitizerRuntimes();
        QVERIFY2(!runtimes.isEmpty(), "no sanitizer runtime found in /proc/self/maps");
        m_env.insert(QStringLiteral("LD_PRELOAD"), runtimes.join(QLatin1Char(':')));
        m_env.insert(QStringLiteral("ASAN_OPTIONS"),
                     m_env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
#endif
        for (const QString &f : {QStringLiteral("demo.py"), QStringLiteral("demo_elementwise.py"),
                                 QStringLiteral("demo-struct-reduce.py"), QStringLiteral("demo_array.py")})
            QVERIFY(QFile::copy(kExamples + QLatin1Char('/') + f, path(f)));
    }

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

        QCOMPARE(sql(file, QStringLiteral("PRAGMA user_version")), QStringLiteral("1"));
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
        const QString app = QStringLiteral(CLSCOPE_CAPTURE_TESTAPP);
        QStringList args{QStringLiteral("9")};
        if (crash)
            args << QStringLiteral("crash");
        QProcessEnvironment env = m_env;
#if defined(__SANITIZE_ADDRESS__)
        // ASan would turn the SIGSEGV into its report and exit 1: let the program die of it.
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":handle_segv=0"));
#endif
        const Run plain = run(app, args, env, m_dir.path());
        QCOMPARE(plain.code, crash ? -1 : 0);
        // Without the layer: no profiling on its queues; the layer must not change that answer.
        QVERIFY2(plain.out.startsWith("launches 9 properties 0 array 8 first 1 last 512"),
                 plain.out.constData());
        const QString file = path(QStringLiteral("testapp-%1.clscope").arg(crash));
        const Run captured = run(
            cli(),
            QStringList{QStringLiteral("capture"), QStringLiteral("-o"), file, QStringLiteral("--"), app} +
                args,
            env, m_dir.path());
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
    }

    void replay_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("vendors"); // a private OCL_ICD_VENDORS with PoCL and Oclgrind
        QTest::newRow("pocl") << QStringLiteral("pocl") << true;
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind") << true;
        // Debian's oclgrind registers no ICD: replay finds it by itself.
        QTest::newRow("oclgrind without an ICD") << QStringLiteral("oclgrind") << false;
    }

    void replay()
    {
        QFETCH(QString, device);
        QFETCH(bool, vendors);
        const QString file = path(QStringLiteral("demo-contents.clscope"));
        if (!QFile::exists(file)) {
            // With pyopencl's binary cache on: capture turns it off for launches it records contents of.
            QProcessEnvironment cached = m_env;
            cached.remove(QStringLiteral("PYOPENCL_NO_CACHE"));
            QCOMPARE(run(kPython, {QStringLiteral("demo.py")}, cached, m_dir.path()).code,
                     0); // fills the cache
            const Run c =
                run(cli(),
                    {QStringLiteral("capture"), QStringLiteral("--launch"), QStringLiteral("0"),
                     QStringLiteral("-o"), file, QStringLiteral("--"), kPython, QStringLiteral("demo.py")},
                    cached, m_dir.path());
            QCOMPARE(c.code, 0);
        }
        QCOMPARE(sql(file,
                     QStringLiteral("SELECT COUNT(*) FROM contents WHERE launch = 0 AND state = 'captured'")),
                 QStringLiteral("6"));
        QTemporaryDir icd;
        QVERIFY(clscope::test::setUpVendors(icd, false)); // sets OCL_ICD_VENDORS of this process: copy it
        QProcessEnvironment env = m_env;
        if (vendors)
            env.insert(QStringLiteral("OCL_ICD_VENDORS"), icd.path());
        else
            env.remove(QStringLiteral("OCL_ICD_VENDORS"));
        const Run r = run(cli(),
                          {QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("0"),
                           QStringLiteral("--device"), device, QStringLiteral("--json")},
                          env, m_dir.path());
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("kernel")).toString(), QStringLiteral("sum"));
        QVERIFY(j.value(QStringLiteral("device"))
                    .toString()
                    .contains(device == QStringLiteral("pocl") ? QStringLiteral("pthread")
                                                               : QStringLiteral("Oclgrind")));
        QCOMPARE(j.value(QStringLiteral("equal")).toBool(), true);
        const QJsonArray outputs = j.value(QStringLiteral("outputs")).toArray();
        QCOMPARE(outputs.size(), 3);
        QCOMPARE(outputs.at(2).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("res_g"));
        QCOMPARE(outputs.at(2).toObject().value(QStringLiteral("elements")).toInt(), 50000);
    }

    void replayDetectsDifference()
    {
        const QString source = path(QStringLiteral("demo-contents.clscope"));
        QVERIFY(QFile::exists(source)); // made by replay()
        const QString file = path(QStringLiteral("demo-changed.clscope"));
        QVERIFY(QFile::copy(source, file));
        // Element 17 of res_g's expected output becomes NaN.
        sql(file, QStringLiteral(
                      "UPDATE contents SET data = substr(data, 1, 68) || x'0000c07f' || substr(data, 73) "
                      "WHERE launch = 0 AND idx = 2 AND phase = 'after'"));
        const Run r = run(cli(),
                          {QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("0"),
                           QStringLiteral("--json")},
                          m_env, m_dir.path());
        QCOMPARE(r.code, 1);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("equal")).toBool(), false);
        const QJsonObject res = j.value(QStringLiteral("outputs")).toArray().at(2).toObject();
        QCOMPARE(res.value(QStringLiteral("equal")).toBool(), false);
        QCOMPARE(res.value(QStringLiteral("first_difference")).toInt(), 17);
        QCOMPARE(res.value(QStringLiteral("expected")).toString(), QStringLiteral("nan"));
        QCOMPARE(j.value(QStringLiteral("outputs"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("equal"))
                     .toBool(),
                 true);
        // A launch without contents cannot be replayed, and says how to capture it.
        const Run none = run(cli(),
                             {QStringLiteral("replay"), path(QStringLiteral("demo.py.clscope")),
                              QStringLiteral("--launch"), QStringLiteral("0")},
                             m_env, m_dir.path());
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("contents were not captured"), none.err.constData());
    }

    // The exported pyopencl script reproduces the launch and checks it: equal as captured, and failing at
    // element 17 (of float32 values, as the kernel's signature says) when the expected output was changed.
    void exportPyopencl_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("line");
        QTest::newRow("as captured") << QStringLiteral("demo-contents.clscope") << 0
                                     << QStringLiteral("argument 2: equal");
        QTest::newRow("changed") << QStringLiteral("demo-changed.clscope") << 1
                                 << QStringLiteral("argument 2: differs at element 17: expected nan");
    }

    void exportPyopencl()
    {
        QFETCH(QString, capture);
        QFETCH(int, code);
        QFETCH(QString, line);
        const QString dir = path(QStringLiteral("export-") + QString::fromLatin1(QTest::currentDataTag()));
        const Run e = run(cli(),
                          {QStringLiteral("export"), path(capture), QStringLiteral("--launch"),
                           QStringLiteral("0"), QStringLiteral("--pyopencl"), dir},
                          m_env, m_dir.path());
        QVERIFY2(e.code == 0, e.err.constData());
        QVERIFY(QFile::exists(dir + QStringLiteral("/kernel.cl")));
        QVERIFY(QFile::exists(dir + QStringLiteral("/arg2_after.npy")));
        const Run r = run(kPython, {dir + QStringLiteral("/replay.py")}, m_env, m_dir.path());
        QCOMPARE(r.code, code);
        QVERIFY2(r.out.contains(line.toUtf8()), r.out.constData());
        QVERIFY(r.out.contains("argument 0: equal"));
    }

    // --kernel NAME records the contents of that kernel's launches only; --budget stops at a byte count
    // and says so for every buffer it left out.
    void contentsSelection()
    {
        const QString byKernel = path(QStringLiteral("elementwise-lincomb.clscope"));
        Run r = run(cli(),
                    {QStringLiteral("capture"), QStringLiteral("--kernel"), QStringLiteral("lin_comb"),
                     QStringLiteral("-o"), byKernel, QStringLiteral("--"), kPython,
                     QStringLiteral("demo_elementwise.py")},
                    m_env, m_dir.path());
        QCOMPARE(r.code, 0);
        const QString lincomb =
            sql(byKernel, QStringLiteral("SELECT GROUP_CONCAT(launch) FROM commands c JOIN kernels k "
                                         "ON k.id = c.kernel WHERE k.name = 'lin_comb'"));
        QVERIFY(!lincomb.isEmpty());
        QCOMPARE(sql(byKernel, QStringLiteral("SELECT GROUP_CONCAT(DISTINCT launch) FROM contents")),
                 lincomb);
        QVERIFY(
            sql(byKernel, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")).toInt() >
            lincomb.split(QLatin1Char(',')).size());

        const QString budget = path(QStringLiteral("demo-budget.clscope"));
        r = run(cli(),
                {QStringLiteral("capture"), QStringLiteral("--contents"), QStringLiteral("all"),
                 QStringLiteral("--budget"), QStringLiteral("300000"), QStringLiteral("-o"), budget,
                 QStringLiteral("--"), kPython, QStringLiteral("demo.py")},
                m_env, m_dir.path());
        QCOMPARE(r.code, 0);
        QCOMPARE(
            sql(budget, QStringLiteral(
                            "SELECT phase, idx, state, length(data) FROM contents ORDER BY phase DESC, idx")),
            QStringLiteral("before|0|captured|200000\nbefore|1|over-budget|0\nbefore|2|over-budget|0\n"
                           "after|0|over-budget|0\nafter|1|over-budget|0\nafter|2|over-budget|0"));
        r = run(cli(), {QStringLiteral("replay"), budget, QStringLiteral("--launch"), QStringLiteral("0")},
                m_env, m_dir.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("argument 1: its buffer contents were not captured (over-budget)"),
                 r.err.constData());
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

    // The reader's shared passes over the commands and the API calls give what the queries they replaced
    // gave, on the captures made above and on copies edited to hold what programs rarely make: rows out of
    // enqueue order and from a second process, failed commands, a NULL queue, duration or kernel name, a
    // queue whose clock is a NULL bracket, calls of an unknown or no entry point; and without the recorder's
    // totals.
    void readerMatchesQueries_data()
    {
        QTest::addColumn<QString>("source"); // made by the tests above
        QTest::addColumn<bool>("edit");
        for (const QString &f : {QStringLiteral("testapp-0.clscope"), QStringLiteral("testapp-1.clscope"),
                                 QStringLiteral("demo.py.clscope"), QStringLiteral("demo_array.py.clscope"),
                                 QStringLiteral("elementwise-lincomb.clscope")}) {
            QTest::newRow(qPrintable(f)) << f << false;
            QTest::newRow(qPrintable(f + QStringLiteral(" edited"))) << f << true;
        }
    }

    void readerMatchesQueries()
    {
        QFETCH(QString, source);
        QFETCH(bool, edit);
        QVERIFY2(QFile::exists(path(source)), qPrintable(source));
        const QString file = path(QStringLiteral("matches-%1-%2").arg(edit).arg(source));
        QFile::remove(file);
        QVERIFY(QFile::copy(path(source), file));
        if (edit) {
            // Ids reversed (seq order is no longer id order), every third row in another process, the first
            // kernel without a name, the longest enqueue of each queue without a duration (a NULL sorts first
            // for the queue's clock), one command without a queue and one failed, ties of durations.
            sql(file,
                QStringLiteral(
                    "UPDATE commands SET id = 1000000 - id; "
                    "UPDATE commands SET process = 2 WHERE id % 3 = 0; "
                    "UPDATE kernels SET name = NULL WHERE id = (SELECT MIN(id) FROM kernels); "
                    "UPDATE commands SET host_duration_ns = NULL WHERE id IN (SELECT c.id FROM commands c "
                    "WHERE c.queued_ns > 0 AND c.host_duration_ns = (SELECT MAX(host_duration_ns) FROM "
                    "commands d WHERE d.queue = c.queue)) AND queue = (SELECT MIN(queue) FROM commands); "
                    "UPDATE commands SET host_duration_ns = (SELECT MIN(host_duration_ns) FROM commands) "
                    "WHERE id % 4 = 1; "
                    "UPDATE commands SET queue = NULL WHERE id = (SELECT MAX(id) FROM commands); "
                    "UPDATE commands SET result = -5 WHERE id = (SELECT MIN(id) FROM commands); "
                    "INSERT INTO api_calls(process, api, thread, start_ns, duration_ns, result) VALUES "
                    "(1, NULL, 7, 5, NULL, NULL), (1, 9999, 7, 6, 3, -1), (1, 9999, 8, 6, 3, 0); "
                    "DELETE FROM meta WHERE key = 'command_totals'"));
            QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE queue IS NULL")),
                     QStringLiteral("1"));
        }
        const QString rows = sql(file, QStringLiteral("SELECT COUNT(*) FROM commands"));
        const qint64 spans =
            rows.toLongLong() + sql(file, QStringLiteral("SELECT COUNT(*) FROM api_calls")).toLongLong();
        QVERIFY(rows.toLongLong() > 0);

        const clscope::CaptureReader reader(file.toStdString());
        QStringList records;
        for (const clscope::CommandRecord &r : reader.commandRecords())
            records << recordLine(r);
        QCOMPARE(records, oldCommandRecords(file));

        // All the calls (in start order), or the longest: which of equally long ones is left to the order of
        // a sort, so only their durations are compared.
        const std::vector<clscope::CommandRecord> api = reader.apiCallRecords();
        QVERIFY(std::is_sorted(api.begin(), api.end(),
                               [](const auto &a, const auto &b) { return a.start < b.start; }));
        QStringList apiLines;
        for (const clscope::CommandRecord &r : api)
            apiLines << recordLine(r);
        QStringList expected = oldApiCallRecords(file, spans);
        apiLines.sort();
        expected.sort();
        QCOMPARE(apiLines, expected);
        QStringList longest;
        for (const clscope::CommandRecord &r : reader.apiCallRecords(std::size_t(spans / 2)))
            longest << recordLine(r);
        QCOMPARE(sortedDurations(longest), sortedDurations(oldApiCallRecords(file, spans / 2)));
        QCOMPARE(reader.apiCallRecords(0).size(), std::size_t(0));

        QCOMPARE(apiTotalLines(reader.apiTotals()), oldApiTotals(file));

        const clscope::CaptureProgress p = reader.progress();
        QCOMPARE(
            QStringLiteral("%1|%2|%3").arg(p.commands).arg(p.launches).arg(p.apiCalls),
            sql(file, QStringLiteral("SELECT COUNT(*), COUNT(launch), (SELECT COUNT(*) FROM api_calls) + "
                                     "(SELECT COUNT(*) FROM commands) FROM commands WHERE result = 0")));
        QCOMPARE(QString::number(reader.launchCount()),
                 sql(file, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")));
        QStringList programs;
        for (const clscope::CapturedProgram &prog : reader.programs())
            programs << QStringLiteral("%1|%2").arg(prog.id).arg(prog.launches);
        QCOMPARE(
            programs.join(QLatin1Char('\n')),
            sql(file, QStringLiteral("SELECT p.id, (SELECT COUNT(*) FROM commands c JOIN kernels k ON k.id "
                                     "= c.kernel WHERE k.program = p.id AND c.launch IS NOT NULL) FROM "
                                     "programs p ORDER BY p.id")));

        // The summary from the commands (no totals) as from the recorder's totals, and as the old GROUP BY.
        const clscope::CaptureSummary s = reader.summary();
        if (!edit) {
            const QString scanned = file + QStringLiteral("-scanned");
            QFile::remove(scanned);
            QVERIFY(QFile::copy(file, scanned));
            sql(scanned, QStringLiteral("DELETE FROM meta WHERE key = 'command_totals'"));
            QCOMPARE(clscope::summaryJson(clscope::CaptureReader(scanned.toStdString()).summary()),
                     clscope::summaryJson(s));
            // A finished capture's progress from the totals.
            QCOMPARE(clscope::CaptureReader(scanned.toStdString()).progress().apiCalls, p.apiCalls);
        }
        QCOMPARE(
            QStringLiteral("%1|%2|%3").arg(s.commands).arg(s.launches).arg(s.apiCalls),
            sql(file, QStringLiteral("SELECT SUM(result = 0), SUM(launch IS NOT NULL), (SELECT COUNT(*) FROM "
                                     "api_calls) + COUNT(result) FROM commands")));
        QStringList kernels;
        for (const clscope::CaptureKernelTotal &k : s.kernels)
            kernels << QStringLiteral("%1|%2|%3")
                           .arg(QString::fromStdString(k.name))
                           .arg(k.launches)
                           .arg(k.totalNs);
        QCOMPARE(kernels.join(QLatin1Char('\n')),
                 sql(file,
                     QStringLiteral(
                         "SELECT name, SUM(n), SUM(ns) FROM (SELECT IFNULL(k.name, '') AS name, SUM(c.launch "
                         "IS NOT NULL) AS n, SUM(CASE WHEN c.result = 0 AND c.end_ns >= c.start_ns AND "
                         "c.start_ns > 0 THEN c.end_ns - c.start_ns ELSE 0 END) AS ns FROM commands c LEFT "
                         "JOIN kernels k ON k.id = c.kernel GROUP BY c.type, c.kernel HAVING n > 0) GROUP BY "
                         "name ORDER BY SUM(ns) DESC, name")));
    }

    // A reader keeps its passes while the file is unchanged, and makes them again when another connection
    // (the recorder, which writes its totals only at the end) wrote to it since.
    void readerSeesNewCommands()
    {
        const QString file = path(QStringLiteral("growing.clscope"));
        QFile::remove(file);
        QVERIFY(QFile::copy(path(QStringLiteral("testapp-0.clscope")), file));
        sql(file, QStringLiteral("DELETE FROM meta WHERE key = 'command_totals'"));
        const clscope::CaptureReader reader(file.toStdString());
        const std::size_t records = reader.commandRecords().size();
        const clscope::CaptureProgress before = reader.progress();
        const std::vector<clscope::CaptureApiTotal> totals = reader.apiTotals();
        const std::int64_t launches = reader.launchCount();
        sql(file,
            QStringLiteral("INSERT INTO commands(process, seq, launch, type, type_name, queue, kernel, "
                           "result, host_start_ns, host_duration_ns) SELECT process, seq + 1000, launch + "
                           "1000, type, type_name, queue, kernel, result, host_start_ns, "
                           "host_duration_ns + 1000000000 FROM commands WHERE launch = 0"));
        QCOMPARE(reader.launchCount(), launches + 1);
        QCOMPARE(reader.progress().commands, before.commands + 1);
        QCOMPARE(reader.apiTotals().front().name, std::string("clEnqueueNDRangeKernel"));
        QVERIFY(reader.apiTotals().front().maxNs >= 1000000000);
        QVERIFY(totals.empty() || totals.front().maxNs < 1000000000);
        QCOMPARE(reader.commandRecords().size(), records + 1);
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
