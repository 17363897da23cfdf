// CaptureReader against SQL: its shared passes over the commands and the API calls give what the queries
// they replaced gave (kept here as the reference), on captures of real programs and on copies edited to
// hold what programs rarely make; and a reader sees what another connection wrote since. Capturing:
// tst_capture.cpp.
#include "capturetest.h"
#include "samenamedkernels.h"

#include "clscope/capture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <map>
#include <sstream>

using namespace capturetest;

namespace {

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

// Every record as its line, sorted: the same records in any order.
QStringList recordKeys(const std::vector<clscope::CommandRecord> &records)
{
    QStringList lines;
    for (const clscope::CommandRecord &r : records)
        lines << recordLine(r);
    lines.sort();
    return lines;
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

class TestCaptureReader : public QObject, private capturetest::Fixture
{
    Q_OBJECT

private slots:
    // The captures the reader reads, made as tst_capture makes them: the program of ours ended by an exit
    // and by a SIGSEGV, pyopencl's demo.py and demo_array.py, and demo_elementwise.py with the contents of
    // lin_comb's launches.
    void initTestCase()
    {
        setUp();
        if (!m_ready)
            return;
        for (bool crash : {false, true}) {
            const Run app = capture({}, path(QStringLiteral("testapp-%1.clscope").arg(crash)), testApp(crash),
                                    testAppEnvironment());
            QCOMPARE(app.code, crash ? 128 + 11 : 0);
        }
        for (const QString &demo : {QStringLiteral("demo.py"), QStringLiteral("demo_array.py")}) {
            const Run r = capture({}, path(demo + QStringLiteral(".clscope")), {kPython, demo}, m_env);
            QVERIFY2(r.code == 0, r.err.constData());
        }
        const Run lincomb = capture({QStringLiteral("--kernel"), QStringLiteral("lin_comb")},
                                    path(QStringLiteral("elementwise-lincomb.clscope")),
                                    {kPython, QStringLiteral("demo_elementwise.py")}, m_env);
        QVERIFY2(lincomb.code == 0, lincomb.err.constData());
    }

    // The reader's shared passes over the commands and the API calls give what the queries they replaced
    // gave, on the captures initTestCase made and on copies edited to hold what programs rarely make: rows
    // out of enqueue order and from a second process, failed commands, a NULL queue, duration or kernel name,
    // a queue whose clock is a NULL bracket, calls of an unknown or no entry point; and without the
    // recorder's totals.
    void readerMatchesQueries_data()
    {
        QTest::addColumn<QString>("source"); // made by initTestCase
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

    // Issue 30: a kernel is its name and its program's sources and options. 30 programs created again from
    // the demo's source are one `sum` with 31 launches; one of other sources and one of other options are
    // two more, each labelled with its program; a capture whose names are apart keeps the bare name.
    void kernelsAreNameAndProgramSources()
    {
        const QString file = path(QStringLiteral("same-named.clscope"));
        QFile::remove(file);
        QVERIFY(QFile::copy(path(QStringLiteral("demo.py.clscope")), file));
        const qint64 demoProgram =
            sql(file, QStringLiteral("SELECT program FROM kernels WHERE name = 'sum'")).toLongLong();
        QCOMPARE(clscope::CaptureReader(file.toStdString()).summary().kernels.front().label,
                 std::string("sum"));
        const qint64 launches = sql(file, QStringLiteral("SELECT COUNT(launch) FROM commands")).toLongLong();
        const int identical = 30;
        const QString failed = samenamedkernels::edit(file, identical);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));

        const clscope::CaptureSummary s = clscope::CaptureReader(file.toStdString()).summary();
        QStringList rows;
        for (const clscope::CaptureKernelTotal &k : s.kernels)
            rows << QStringLiteral("%1|%2|%3|%4|%5")
                        .arg(QString::fromStdString(k.label))
                        .arg(k.program)
                        .arg(k.launches)
                        .arg(k.firstLaunch)
                        .arg(k.contentLaunches.empty() ? qint64(-1) : k.contentLaunches.back());
        const qint64 sources = samenamedkernels::otherSources(identical);
        const qint64 options = samenamedkernels::otherOptions(identical);
        const auto added = [&](int i) { return samenamedkernels::addedLaunch(launches, i); };
        QCOMPARE(rows,
                 (QStringList{
                     QStringLiteral("sum (program %1)|%1|%2|0|%3")
                         .arg(demoProgram)
                         .arg(launches + identical)
                         .arg(added(0)),
                     QStringLiteral("sum (program %1)|%1|1|%2|-1").arg(sources).arg(added(identical)),
                     QStringLiteral("sum (program %1)|%1|1|%2|-1").arg(options).arg(added(identical + 1))}));
        // The text and the JSON name them so.
        std::ostringstream text;
        clscope::printSummary(text, s);
        QVERIFY2(text.str().find("  sum (program " + std::to_string(sources) + "): 1 launches") !=
                     std::string::npos,
                 text.str().c_str());
        const QJsonArray kernels = QJsonDocument::fromJson(QByteArray::fromStdString(clscope::summaryJson(s)))
                                       .object()
                                       .value(QLatin1String("kernels"))
                                       .toArray();
        QCOMPARE(kernels.size(), 3);
        QCOMPARE(kernels[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("sum"));
        QCOMPARE(kernels[0].toObject().value(QLatin1String("program")).toInteger(), demoProgram);
        QCOMPARE(kernels[0].toObject().value(QLatin1String("label")).toString(),
                 QStringLiteral("sum (program %1)").arg(demoProgram));
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

    // update() follows a file the recorder is writing: the first gives what commandRecords() and
    // apiCallRecords() give; later ones what was added, clock shifts (the narrowest enqueue bracket came in
    // the second half) and the times of commands written late (an UPDATE). Applied to what was given, the
    // records equal a fresh read of the whole file.
    void updateFollowsTheFile_data()
    {
        QTest::addColumn<QString>("source");
        for (const QString &f : {QStringLiteral("demo.py.clscope"), QStringLiteral("demo_array.py.clscope"),
                                 QStringLiteral("testapp-1.clscope")})
            QTest::newRow(qPrintable(f)) << f;
    }

    void updateFollowsTheFile()
    {
        QFETCH(QString, source);
        QVERIFY2(QFile::exists(path(source)), qPrintable(source));
        const QString full = path(QStringLiteral("follow-full-") + source);
        const QString growing = path(QStringLiteral("follow-growing-") + source);
        for (const QString &f : {full, growing}) {
            QFile::remove(f);
            QVERIFY(QFile::copy(path(source), f));
        }
        // The narrowest bracket of each queue into the second half: its clock moves when that half comes.
        sql(full, QStringLiteral("UPDATE commands SET host_duration_ns = 1 WHERE id IN (SELECT MAX(id) FROM "
                                 "commands WHERE queued_ns > 0 GROUP BY queue)"));
        QFile::remove(growing);
        QVERIFY(QFile::copy(full, growing));
        const QString half = sql(full, QStringLiteral("SELECT MAX(id) / 2 FROM commands"));
        const QString apiHalf = sql(full, QStringLiteral("SELECT MAX(id) / 2 FROM api_calls"));
        sql(growing,
            QStringLiteral("DELETE FROM commands WHERE id > %1; DELETE FROM api_calls WHERE id > %2; "
                           "UPDATE commands SET queued_ns = NULL, submit_ns = NULL, start_ns = NULL, "
                           "end_ns = NULL WHERE id %% 3 = 1 AND own_event != 2 AND result = 0")
                .arg(half, apiHalf)
                .replace(QStringLiteral("%%"), QStringLiteral("%")));
        const qint64 untimed = sql(growing, QStringLiteral("SELECT COUNT(*) FROM commands WHERE start_ns IS "
                                                           "NULL AND own_event != 2 AND result = 0"))
                                   .toLongLong();
        QVERIFY(untimed > 0);

        clscope::CaptureReader reader(growing.toStdString());
        const clscope::CaptureUpdate first = reader.update();
        {
            const clscope::CaptureReader fresh(growing.toStdString());
            QCOMPARE(recordKeys(first.commands), recordKeys(fresh.commandRecords()));
            QCOMPARE(recordKeys(first.apiCalls), recordKeys(fresh.apiCallRecords()));
        }
        QCOMPARE(first.apiCallsLeftOut, std::uint64_t(0));
        // Nothing new: an empty update, and the other calls still answer.
        const clscope::CaptureUpdate none = reader.update();
        QVERIFY(none.commands.empty() && none.apiCalls.empty() && none.late.empty() &&
                none.clockShifts.empty());
        const std::uint64_t commandsBefore = reader.progress().commands;

        // The rest as the recorder writes it: new rows, and the late commands' times.
        sql(growing,
            QStringLiteral("ATTACH '%1' AS f; INSERT INTO commands SELECT * FROM f.commands WHERE id > "
                           "%2; INSERT INTO api_calls SELECT * FROM f.api_calls WHERE id > %3; UPDATE "
                           "commands SET queued_ns = (SELECT queued_ns FROM f.commands g WHERE g.id = "
                           "commands.id), submit_ns = (SELECT submit_ns FROM f.commands g WHERE g.id = "
                           "commands.id), start_ns = (SELECT start_ns FROM f.commands g WHERE g.id = "
                           "commands.id), end_ns = (SELECT end_ns FROM f.commands g WHERE g.id = "
                           "commands.id) WHERE start_ns IS NULL")
                .arg(full, half, apiHalf));
        const clscope::CaptureUpdate second = reader.update();
        QVERIFY(!second.commands.empty());
        QVERIFY(!second.clockShifts.empty());
        QCOMPARE(qint64(second.late.size()), untimed);
        QVERIFY(reader.progress().commands > commandsBefore);

        std::vector<clscope::CommandRecord> followed = first.commands;
        second.applyTo(followed.size(),
                       [&followed](std::uint64_t n) -> clscope::CommandRecord & { return followed[n]; });
        followed.insert(followed.end(), second.commands.begin(), second.commands.end());
        std::vector<clscope::CommandRecord> apiFollowed = first.apiCalls;
        apiFollowed.insert(apiFollowed.end(), second.apiCalls.begin(), second.apiCalls.end());
        const clscope::CaptureReader whole(full.toStdString());
        QCOMPARE(recordKeys(followed), recordKeys(whole.commandRecords()));
        QCOMPARE(recordKeys(apiFollowed), recordKeys(whole.apiCallRecords()));
        // And the totals of the pass that went on equal a fresh one's.
        QCOMPARE(reader.launchCount(), whole.launchCount());
        QCOMPARE(reader.progress().commands, whole.progress().commands);
        const auto a = reader.apiTotals(), b = whole.apiTotals();
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(a[i].name == b[i].name && a[i].calls == b[i].calls && a[i].totalNs == b[i].totalNs);

        // A limit on the API calls: what is over it is counted, not given.
        clscope::CaptureReader limited(full.toStdString());
        const clscope::CaptureUpdate few = limited.update(10);
        QCOMPARE(few.apiCalls.size(), std::size_t(10));
        QCOMPARE(few.apiCallsLeftOut + 10, std::uint64_t(whole.apiCallRecords().size()));
    }
};

QTEST_GUILESS_MAIN(TestCaptureReader)
#include "tst_capturereader.moc"
