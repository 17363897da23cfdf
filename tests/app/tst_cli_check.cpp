// clscope-cli run --check: the kernels of tests/data/check on Oclgrind (through a private OCL_ICD_VENDORS
// with PoCL and Oclgrind, whatever --device asks), each bug at its line in text and JSON with exit 3, a
// correct kernel clean with exit 0, failed and bad runs as without --check, no Oclgrind as one clear line
// with exit 2, and no session folder left behind.
#include "clitest.h"
#include "testicd.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using clitest::Result;
using clitest::words;

const char *kOobRead =
    "bugs.cl --kernel oob_read --global 4 --arg in=buffer:float:4:iota --arg out=buffer:float:4";

} // namespace

class TestCliCheck : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_vendors;
    QTemporaryDir m_tmp; // TMPDIR of the CLI: the session folders go here, and must go away

    Result run(const QStringList &args, const QStringList &extraEnv = {}) const
    {
        clitest::Options options;
        options.cacheDir = m_cache.path();
        options.unset = clitest::buildVariables() << QStringLiteral("CLSCOPE_OCLGRIND_ICD");
        options.set = QStringList{QStringLiteral("TMPDIR=") + m_tmp.path()} + extraEnv;
        options.workingDirectory = QStringLiteral(CLSCOPE_TEST_DATA "/check");
        return clitest::run(QStringList{QStringLiteral("run")} + args, options);
    }

    QJsonObject checkOf(const Result &r) const
    {
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        if (error.error != QJsonParseError::NoError)
            qWarning("bad JSON (exit %d): %s %s", r.exitCode, r.out.constData(), r.err.constData());
        return doc.object().value(QLatin1String("check")).toObject();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid() && m_tmp.isValid());
        // The CLI inherits OCL_ICD_VENDORS (PoCL and Oclgrind): the check finds Oclgrind there.
        if (!m_vendors.isValid() || !clscope::test::setUpVendors(m_vendors, false))
            QSKIP("PoCL or Oclgrind is not installed");
    }

    void cleanup()
    {
        // Every run removes its session folder, also a failed one.
        QCOMPARE(QDir(m_tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{});
    }

    void outOfBoundsText()
    {
        const Result r = run(words(kOobRead) + words("--print out --check --device pocl"));
        QVERIFY2(r.exitCode == 3, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith(QStringLiteral("Memory check on Oclgrind: the kernel runs on the Oclgrind "
                                               "simulator with its checks on, not on 'pocl'\n")),
                 qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("Kernel oob_read on Oclgrind Simulator")));
        QVERIFY(out.contains(QStringLiteral("out (4 float): 1 2 3 ")));
        QVERIFY2(
            out.contains(QStringLiteral("\nbugs.cl:8:14: error: read 4 bytes one past the end of in (4 x "
                                        "float) at index 4, by work-item 3\n")),
            qPrintable(out));
        QVERIFY2(
            out.contains(QStringLiteral("    Oclgrind: Invalid read of size 4 at global memory address 0x")),
            qPrintable(out));
        QVERIFY(out.contains(
            QStringLiteral("    kernel oob_read, work-item Global(3,0,0) Local(0,0,0) Group(3,0,0)\n")));
        QVERIFY(out.contains(QStringLiteral("    8 | out[i] = in[i + 1];")));
        QVERIFY(out.endsWith(QStringLiteral("Oclgrind check: 2 errors\n")));
    }

    void bugsJson_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message"); // the first diagnostic's starts with this
        QTest::newRow("out-of-bounds read")
            << QString::fromLatin1(kOobRead) << "invalid-read" << 8
            << "read 4 bytes one past the end of in (4 x float) at index 4, by work-item 3";
        QTest::newRow("out-of-bounds write")
            << "bugs.cl --kernel oob_write --global 4 --arg out=buffer:float:4"
            << "invalid-write" << 15
            << "write 4 bytes one past the end of out (4 x float) at index 4, by work-item 3";
        QTest::newRow("local race") << "bugs.cl --kernel local_race --global 8 --local 4 --arg "
                                       "out=buffer:int:8 --arg scratch=local:16"
                                    << "data-race" << 22 << "Write-write data race at local memory address";
        QTest::newRow("uninitialised")
            << "bugs.cl --kernel uninit_read --global 2 --arg out=buffer:int:2 --arg k=0"
            << "uninitialized" << 33 << "Uninitialized value written to global memory address";
        QTest::newRow("barrier divergence")
            << "bugs.cl --kernel divergent_barrier --global 4 --local 4 --arg out=buffer:int:4"
            << "divergence" << 41 << "Work-group divergence detected (barrier)";
        QTest::newRow("in a header")
            << "header.cl --kernel read_next --global 2 --arg in=buffer:float:2:iota --arg out=buffer:float:2"
            << "invalid-read" << 4
            << "read 4 bytes one past the end of in (2 x float) at index 2, by work-item 1";
    }

    void bugsJson()
    {
        QFETCH(QString, args);
        QFETCH(QString, kind);
        QFETCH(int, line);
        QFETCH(QString, message);
        const Result r = run(args.split(u' ') + words("--check --json"));
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QLatin1String("device")).toString(), QStringLiteral("Oclgrind Simulator"));
        QVERIFY(doc.contains(QLatin1String("profile")) && doc.contains(QLatin1String("buffers")));
        const QJsonObject check = checkOf(r);
        QCOMPARE(check.value(QLatin1String("platform")).toString(), QStringLiteral("Oclgrind"));
        QCOMPARE(check.value(QLatin1String("clean")).toBool(true), false);
        const QJsonObject d = check.value(QLatin1String("diagnostics")).toArray().at(0).toObject();
        QCOMPARE(d.value(QLatin1String("kind")).toString(), kind);
        QCOMPARE(d.value(QLatin1String("line")).toInt(), line);
        QVERIFY(d.value(QLatin1String("column")).toInt() > 0);
        QCOMPARE(d.value(QLatin1String("severity")).toString(), QStringLiteral("error"));
        QVERIFY2(d.value(QLatin1String("message")).toString().startsWith(message),
                 qPrintable(d.value(QLatin1String("message")).toString()));
        const QString kernel = args.section(u' ', 2, 2);
        QCOMPARE(d.value(QLatin1String("kernel")).toString(), kernel);
        // The source line is the file's, also in a header (where Oclgrind shows the main source's line).
        const QString file = d.value(QLatin1String("file")).toString();
        QFile f(QDir(QStringLiteral(CLSCOPE_TEST_DATA "/check")).filePath(file));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file));
        const QString sourceLine = QString::fromUtf8(f.readAll()).split(u'\n').at(line - 1).trimmed();
        QCOMPARE(d.value(QLatin1String("source_line")).toString(), sourceLine);
        QVERIFY(!d.value(QLatin1String("entity")).toString().isEmpty());
    }

    // An access just outside a buffer is reported at every size, also where the memory pool's bins would
    // round the buffer up (1024 floats take a block of 4351 bytes, 1000 floats one of 4095), and names the
    // buffer, the element and the work-item. tests/data/check/bounds.cl.
    void bounds_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("buffer"); // "" for local memory, which is not an argument's
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("message"); // the diagnostic's message, * for any text
        QTest::addColumn<int>("occurrences");
        QTest::addColumn<int>("count"); // the buffer's elements
        for (const int n : {1024, 1000}) {
            // N the elements, LAST the last work-item, MORE n + 8, TAIL the first of the last four.
            const auto row = [n](const char *text) {
                return QString::fromLatin1(text)
                    .replace(QStringLiteral("LAST"), QString::number(n - 1))
                    .replace(QStringLiteral("MORE"), QString::number(n + 8))
                    .replace(QStringLiteral("TAIL"), QString::number(n - 4))
                    .replace(u'N', QString::number(n));
            };
            QTest::addRow("read past the end, %d", n)
                << row("bounds.cl --kernel read_past_end --global N --arg a=buffer:float:N:iota "
                       "--arg c=buffer:float:N")
                << "invalid-read" << 9 << "a" << n
                << row("read 4 bytes one past the end of a (N x float) at index N, by work-item LAST") << 1
                << n;
            QTest::addRow("write past the end, %d", n)
                << row("bounds.cl --kernel write_past_end --global N --arg c=buffer:float:N")
                << "invalid-write" << 16 << "c" << n
                << row("write 4 bytes one past the end of c (N x float) at index N, by work-item LAST") << 1
                << n;
            QTest::addRow("read before the start, %d", n)
                << row("bounds.cl --kernel read_before_start --global N --arg a=buffer:float:N:iota "
                       "--arg c=buffer:float:N")
                << "invalid-read" << 23 << "a" << -1
                << row("read 4 bytes before the start of a (N x float) at index -1, by work-item 0") << 1
                << n;
            QTest::addRow("write before the start, %d", n)
                << row("bounds.cl --kernel write_before_start --global N --arg c=buffer:float:N")
                << "invalid-write" << 30 << "c" << -1
                << row("write 4 bytes before the start of c (N x float) at index -1, by work-item 0") << 1
                << n;
            QTest::addRow("local array past the end, %d", n)
                << row("bounds.cl --kernel local_past_end --global N --local 8 --arg c=buffer:float:N")
                << "invalid-read" << 40 << "" << 0
                << QStringLiteral(
                       "Invalid read of size 4 at local memory address 0x*, by work-item 7, and %1 "
                       "more work-items")
                       .arg(n / 8 - 1)
                << n / 8 << n;
            QTest::addRow("sub-range past the end, %d", n)
                << row("bounds.cl --kernel guarded_copy --global MORE --arg a=buffer:float:N:iota "
                       "--arg c=buffer:float:MORE --arg n=uint:N")
                << "invalid-read" << 48 << "a" << n
                << row("read 4 bytes one past the end of a (N x float) at index N, by work-item N") << 1 << n;
            QTest::addRow("four work-items past the end, %d", n)
                << row("bounds.cl --kernel write_tail --global N --arg c=buffer:float:N") << "invalid-write"
                << 55 << "c" << n
                << row("write 4 bytes one past the end of c (N x float) at index N, by work-item TAIL, and 3 "
                       "more work-items")
                << 4 << n;
        }
    }

    void bounds()
    {
        QFETCH(QString, args);
        QFETCH(QString, kind);
        QFETCH(int, line);
        QFETCH(QString, buffer);
        QFETCH(int, index);
        QFETCH(QString, message);
        QFETCH(int, occurrences);
        QFETCH(int, count);
        const Result r = run(args.split(u' ') + words("--check --json"));
        QVERIFY2(r.exitCode == 3, qPrintable(QString::fromUtf8(r.out + r.err)));
        const QJsonArray diagnostics = checkOf(r).value(QLatin1String("diagnostics")).toArray();
        QJsonObject d;
        for (const QJsonValue &v : diagnostics) {
            const QJsonObject o = v.toObject();
            if (o.value(QLatin1String("line")).toInt() == line &&
                o.value(QLatin1String("kind")).toString() == kind)
                d = o;
        }
        QVERIFY2(!d.isEmpty(), r.out.constData());
        QCOMPARE(d.value(QLatin1String("file")).toString(), QStringLiteral("bounds.cl"));
        const QRegularExpression pattern(QRegularExpression::wildcardToRegularExpression(
            message, QRegularExpression::UnanchoredWildcardConversion));
        QVERIFY2(QRegularExpression(QRegularExpression::anchoredPattern(pattern.pattern()))
                     .match(d.value(QLatin1String("message")).toString())
                     .hasMatch(),
                 qPrintable(d.value(QLatin1String("message")).toString()));
        QCOMPARE(d.value(QLatin1String("occurrences")).toInt(), occurrences);
        if (buffer.isEmpty()) {
            QVERIFY(d.value(QLatin1String("buffer")).isNull());
            QVERIFY(d.value(QLatin1String("index")).isNull());
            return;
        }
        QCOMPARE(d.value(QLatin1String("buffer")).toString(), buffer);
        QCOMPARE(d.value(QLatin1String("index")).toInteger(-99), index);
        QCOMPARE(d.value(QLatin1String("element_type")).toString(), QStringLiteral("float"));
        QCOMPARE(d.value(QLatin1String("element_count")).toInt(), count);
    }

    void boundsText()
    {
        // The text form: one line per site, with the buffer, the element and the first work-item.
        const Result r =
            run(words("bounds.cl --kernel write_tail --global 1024 --arg c=buffer:float:1024 --check"));
        QVERIFY2(r.exitCode == 3, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(
            out.contains(QStringLiteral(
                "\nbounds.cl:55:14: error: write 4 bytes one past the end of c (1024 x float) at index 1024, "
                "by work-item 1020, and 3 more work-items\n")),
            qPrintable(out));
        QVERIFY2(out.endsWith(QStringLiteral("Oclgrind check: 1 error (4 reports)\n")), qPrintable(out));
    }

    void cleanKernel()
    {
        // Zero-initialised buffers included: the check writes them rather than filling them.
        const char *clean =
            "bugs.cl --kernel clean --global 4 --arg in=buffer:float:4 --arg out=buffer:float:4 "
            "--arg n=4 --print out --check";
        const Result text = run(words(clean));
        QVERIFY2(text.exitCode == 0, text.out.constData());
        QVERIFY(text.out.contains("out (4 float): 0 0 0 0\n"));
        QVERIFY(text.out.endsWith("Oclgrind check: clean\n"));
        QVERIFY(text.err.isEmpty());

        const Result json = run(words(clean) + words("--json"));
        QCOMPARE(json.exitCode, 0);
        const QJsonObject check = checkOf(json);
        QCOMPARE(check.value(QLatin1String("clean")).toBool(false), true);
        QCOMPARE(check.value(QLatin1String("diagnostics")).toArray(), QJsonArray{});
        QCOMPARE(QJsonDocument::fromJson(json.out)
                     .object()
                     .value(QLatin1String("buffers"))
                     .toObject()
                     .value(QLatin1String("out")),
                 QJsonValue(QJsonArray{0, 0, 0, 0}));
    }

    void failedRunsAsWithout_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message"); // the one stderr line starts with this
        QTest::addColumn<QString>("env");
        QTest::newRow("unknown kernel") << "bugs.cl --kernel nope --global 1" << 2
                                        << "clscope-cli: unknown kernel 'nope' (kernels: " << QString();
        QTest::newRow("bad global") << "bugs.cl --kernel clean --global x" << 2
                                    << "clscope-cli: global size 'x' is not a list of sizes" << QString();
        // (A bytesN of the wrong size no longer reaches the driver: the struct's size is the device's.)
        QTest::newRow("driver error")
            << "../run/types.cl --kernel big_constant --global 1 --arg table=buffer:float:100000 --arg "
               "out=buffer:float:1"
            << 1 << "clscope-cli: clEnqueueNDRangeKernel(big_constant) failed: OUT_OF_RESOURCES" << QString();
        QTest::newRow("no Oclgrind") << QString::fromLatin1(kOobRead) << 2
                                     << "clscope-cli: no Oclgrind to check on: "
                                        "CLSCOPE_OCLGRIND_ICD=/nonexistent/liboclgrind.so does not exist"
                                     << "CLSCOPE_OCLGRIND_ICD=/nonexistent/liboclgrind.so";
    }

    void failedRunsAsWithout()
    {
        QFETCH(QString, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QFETCH(QString, env);
        const Result r =
            run(args.split(u' ') + words("--check"), env.isEmpty() ? QStringList{} : QStringList{env});
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
        QVERIFY2(!err.contains(u'\n'), qPrintable(err)); // one line
        QVERIFY2(err.startsWith(message), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliCheck)
#include "tst_cli_check.moc"
