// Oclgrind's reports as check diagnostics: real Oclgrind 21.10 logs of the kernels in tests/data/check
// (made by capture.sh through clscope-cli's checked child), merging, the JSON and text forms, finding the
// Oclgrind ICD, and CheckSession's environment and child process (with /bin/sh standing in for the child).
#include "clscope/check.h"
#include "clscope/kernelargs.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace clscope;

namespace {

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/check/") + QLatin1String(name);
}

std::string readData(const char *name)
{
    QFile f(dataPath(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", name);
    return f.readAll().toStdString();
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString id(const std::optional<WorkItemId> &i)
{
    return i ? QStringLiteral("(%1,%2,%3)").arg((*i)[0]).arg((*i)[1]).arg((*i)[2]) : QStringLiteral("-");
}

// One line a diagnostic: "kind file:line:col: severity: message [kernel] global/local/group | source xN".
QString render(const std::vector<CheckDiagnostic> &diags)
{
    QStringList lines;
    for (const CheckDiagnostic &d : diags) {
        const CheckSite *s = d.sites.empty() ? nullptr : &d.sites.front();
        lines << QStringLiteral("%1 %2:%3:%4: %5: %6 [%7] %8 | %9 x%10")
                     .arg(q(checkKindName(d.kind)), q(d.diagnostic.file))
                     .arg(d.diagnostic.line)
                     .arg(d.diagnostic.column)
                     .arg(q(severityName(d.diagnostic.severity)), q(d.diagnostic.message), q(d.kernel),
                          s ? id(s->global) + u'/' + id(s->local) + u'/' + id(s->group) : QStringLiteral("-"),
                          s ? q(s->sourceLine) : QString())
                     .arg(d.occurrences);
    }
    return lines.join(u'\n');
}

CheckSources bugsSources(bool withText = false)
{
    CheckSources sources;
    sources.sourceFile = "bugs.cl";
    if (withText)
        sources.texts.emplace("bugs.cl", readData("bugs.cl"));
    return sources;
}

} // namespace

class TestCheckLog : public QObject
{
    Q_OBJECT

private slots:
    void capturedLogs_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("expected"); // render() of the merged diagnostics
        QTest::addColumn<int>("reports");      // before merging

        QTest::newRow("out-of-bounds read")
            << QStringLiteral("oob_read.log")
            << QStringLiteral(
                   "invalid-read bugs.cl:8:14: error: Invalid read of size 4 at global memory address "
                   "0x1000000000010, by work-item 3 [oob_read] (3,0,0)/(0,0,0)/(3,0,0) | out[i] = in[i + 1]; "
                   "// line 8: "
                   "invalid read in the last work-item x1\n"
                   "uninitialized bugs.cl:8:12: error: Uninitialized value written to global memory address "
                   "0x200000000000c [oob_read] (3,0,0)/(0,0,0)/(3,0,0) | out[i] = in[i + 1]; // line 8: "
                   "invalid read in the last work-item x1")
            << 2;
        QTest::newRow("out-of-bounds write")
            << QStringLiteral("oob_write.log")
            << QStringLiteral("invalid-write bugs.cl:15:16: error: Invalid write of size 4 at global memory "
                              "address 0x1000000000010, by work-item 3 [oob_write] (3,0,0)/(0,0,0)/(3,0,0) | "
                              "out[i + 1] = "
                              "(float)i; // line 15: invalid write in the last work-item x1")
            << 1;
        QTest::newRow("local race")
            << QStringLiteral("local_race.log")
            << QStringLiteral(
                   "data-race bugs.cl:22:16: error: Write-write data race at local memory address "
                   "0x1000000000000 [local_race] (1,0,0)/(1,0,0)/(0,0,0) | scratch[0] = (int)l; // "
                   "line 22: write-write race x6")
            << 6;
        QTest::newRow("uninitialised read")
            << QStringLiteral("uninit_read.log")
            << QStringLiteral(
                   "uninitialized bugs.cl:33:12: error: Uninitialized value written to global "
                   "memory address 0x1000000000004 [uninit_read] (1,0,0)/(0,0,0)/(1,0,0) | out[i] = "
                   "v[i]; // line 33: uninitialised value stored by every work-item but k x1")
            << 1;
        QTest::newRow("barrier divergence")
            << QStringLiteral("divergent_barrier.log")
            << QStringLiteral("divergence bugs.cl:41:9: error: Work-group divergence detected (barrier) "
                              "[divergent_barrier] -/-/(0,0,0) | barrier(CLK_LOCAL_MEM_FENCE); // line 41: "
                              "barrier divergence x1")
            << 1;
        QTest::newRow("suppressed errors")
            << QStringLiteral("max_errors.log")
            << QStringLiteral(
                   "data-race bugs.cl:22:16: error: Write-write data race at local memory address "
                   "0x1000000000000 [local_race] (1,0,0)/(1,0,0)/(0,0,0) | scratch[0] = (int)l; // "
                   "line 22: write-write race x2\n"
                   "other :0:0: note: Oclgrind: 2 errors generated - suppressing further errors [] "
                   "- |  x1")
            << 3;
    }

    void capturedLogs()
    {
        QFETCH(QString, log);
        QFETCH(QString, expected);
        QFETCH(int, reports);
        const OclgrindOutput out = parseOclgrindOutput(readData(qPrintable(log)), bugsSources());
        QCOMPARE(int(out.diagnostics.size()), reports);
        QVERIFY2(out.rest.empty(), out.rest.c_str());
        QCOMPARE(render(mergeCheckDiagnostics(out.diagnostics)), expected);
    }

    void raceSites()
    {
        const OclgrindOutput out = parseOclgrindOutput(readData("local_race.log"), bugsSources());
        const CheckDiagnostic &d = out.diagnostics.at(3);
        QCOMPARE(d.sites.size(), std::size_t(2));
        QCOMPARE(q(d.sites[0].role), QStringLiteral("first"));
        QCOMPARE(q(d.sites[0].entity), QStringLiteral("Global(5,0,0) Local(1,0,0) Group(1,0,0)"));
        QCOMPARE(q(d.sites[1].role), QStringLiteral("second"));
        QCOMPARE(id(d.sites[1].global), QStringLiteral("(4,0,0)"));
        QCOMPARE(id(d.sites[1].group), QStringLiteral("(1,0,0)"));
        QCOMPARE(d.sites[1].line, 22);
        QCOMPARE(d.sites[1].column, 16);
        QCOMPARE(q(d.sites[1].file), QStringLiteral("bugs.cl"));
        QVERIFY(d.details.empty());
    }

    void divergenceDetail()
    {
        const OclgrindOutput out = parseOclgrindOutput(readData("divergent_barrier.log"), bugsSources());
        QCOMPARE(out.diagnostics.size(), std::size_t(1));
        const CheckDiagnostic &d = out.diagnostics.front();
        QCOMPARE(d.details, std::vector<std::string>{"Only 2 out of 4 work-items executed barrier"});
        QCOMPARE(q(d.sites.at(0).entity), QStringLiteral("Group(0,0,0)"));
        QCOMPARE(q(formatCheckDiagnostic(d)),
                 QStringLiteral("bugs.cl:41:9: error: Work-group divergence detected (barrier)\n"
                                "    kernel divergent_barrier, work-group (0,0,0)\n"
                                "    41 | barrier(CLK_LOCAL_MEM_FENCE); // line 41: barrier divergence\n"
                                "    Only 2 out of 4 work-items executed barrier\n"));
    }

    void headerLines()
    {
        // Oclgrind names the header but echoes the main source's line of that number: the line comes from
        // the header's text, or stays empty without it.
        CheckSources sources;
        sources.sourceFile = "header.cl";
        OclgrindOutput out = parseOclgrindOutput(readData("header.log"), sources);
        QCOMPARE(out.diagnostics.size(), std::size_t(2));
        QCOMPARE(q(out.diagnostics[0].diagnostic.file), QStringLiteral("./helper.h"));
        QCOMPARE(out.diagnostics[0].diagnostic.line, 4);
        QCOMPARE(q(out.diagnostics[0].sites[0].sourceLine), QString());
        QCOMPARE(q(out.diagnostics[1].diagnostic.file), QStringLiteral("header.cl"));
        QCOMPARE(q(out.diagnostics[1].sites[0].sourceLine), QStringLiteral("out[i] = next(in, i);"));

        sources.texts.emplace("./helper.h", readData("helper.h"));
        out = parseOclgrindOutput(readData("header.log"), sources);
        QCOMPARE(q(out.diagnostics[0].sites[0].sourceLine),
                 QStringLiteral("return p[i + 1]; // line 4: invalid read in the last work-item"));
    }

    void cachedProgramHasNoSource()
    {
        OclgrindOutput out = parseOclgrindOutput(readData("cached.log"), bugsSources());
        QCOMPARE(out.diagnostics.size(), std::size_t(1));
        QCOMPARE(out.diagnostics[0].diagnostic.line, 15);
        QCOMPARE(q(out.diagnostics[0].sites[0].sourceLine), QString());
        out = parseOclgrindOutput(readData("cached.log"), bugsSources(true));
        QCOMPARE(q(out.diagnostics[0].sites[0].sourceLine),
                 QStringLiteral("out[i + 1] = (float)i; // line 15: invalid write in the last work-item"));
    }

    void apiErrorInStderr()
    {
        const OclgrindOutput out = parseOclgrindOutput(readData("api.stderr"), bugsSources());
        QCOMPARE(
            render(out.diagnostics),
            QStringLiteral("api :0:0: error: clSetKernelArg returned CL_INVALID_ARG_SIZE: arg_size is 4, "
                           "but argument should be 8 bytes [] - |  x1"));
        QCOMPARE(q(out.rest), QStringLiteral("clscope-cli: clSetKernelArg(v) failed: INVALID_ARG_SIZE\n"));
        QCOMPARE(
            q(formatCheckDiagnostic(out.diagnostics[0])),
            QStringLiteral("error: clSetKernelArg returned CL_INVALID_ARG_SIZE: arg_size is 4, but argument "
                           "should be 8 bytes\n"));
    }

    void otherOutputStays()
    {
        // Reports amid other programs' lines: those lines, tabs and blank lines inside them included, stay.
        const std::string text = "build log line\n\tindented, but no report field\n\n" +
                                 readData("oob_write.log") + "after\n\nlast\n";
        const OclgrindOutput out = parseOclgrindOutput(text, bugsSources());
        QCOMPARE(out.diagnostics.size(), std::size_t(1));
        QCOMPARE(q(out.rest),
                 QStringLiteral("build log line\n\tindented, but no report field\nafter\n\nlast\n"));
        QCOMPARE(parseOclgrindOutput("", bugsSources()).diagnostics.size(), std::size_t(0));
        QCOMPARE(q(parseOclgrindOutput("", bugsSources()).rest), QString());
    }

    void olderFormatAndAliases()
    {
        // Oclgrind before column numbers; an alias of the main source unless it is a known header.
        const std::string text = "\nInvalid read of size 4 at global memory address 0x10\n"
                                 "\tKernel: k\n"
                                 "\tWork-item:  Global(1,2,3) Local(0,1,0)\n"
                                 "\tAt line 7 of /tmp/kernel.cl\n"
                                 "\t  x = p[i];\n\n";
        CheckSources sources = bugsSources();
        OclgrindOutput out = parseOclgrindOutput(text, sources);
        QCOMPARE(render(out.diagnostics),
                 QStringLiteral("invalid-read bugs.cl:7:0: error: Invalid read of size 4 "
                                "at global memory address 0x10 [k] "
                                "(1,2,3)/(0,1,0)/- | x = p[i]; x1"));
        sources.knownFiles = {"/tmp/kernel.cl"};
        out = parseOclgrindOutput(text, sources);
        QCOMPARE(q(out.diagnostics[0].diagnostic.file), QStringLiteral("/tmp/kernel.cl"));
        QCOMPARE(q(out.diagnostics[0].sites[0].sourceLine), QString()); // the echo is the main source's
    }

    void mergeIgnoresAddressesOnly()
    {
        const std::vector<CheckDiagnostic> one =
            parseOclgrindOutput(readData("oob_write.log"), bugsSources()).diagnostics;
        CheckDiagnostic otherAddress = one[0];
        otherAddress.diagnostic.message = "Invalid write of size 4 at global memory address 0x1000000000020";
        CheckDiagnostic otherLine = one[0];
        otherLine.diagnostic.line = 16;
        CheckDiagnostic otherSize = one[0];
        otherSize.diagnostic.message = "Invalid write of size 8 at global memory address 0x1000000000010";
        const auto merged = mergeCheckDiagnostics({one[0], otherLine, otherAddress, otherSize, otherAddress});
        QCOMPARE(merged.size(), std::size_t(3));
        QCOMPARE(merged[0].occurrences, 3);
        // The first is kept (all are work-item 3), its message naming the work-item and counting the others.
        QCOMPARE(merged[0].diagnostic.message,
                 one[0].diagnostic.message + ", by work-item 3, and 2 more work-items");
        QCOMPARE(merged[1].diagnostic.line, 16);
        QCOMPARE(merged[2].occurrences, 1);
    }

    void reportJsonAndCleanliness()
    {
        CheckReport report;
        QVERIFY(report.clean());
        report.diagnostics =
            mergeCheckDiagnostics(parseOclgrindOutput(readData("max_errors.log"), bugsSources()).diagnostics);
        QVERIFY(!report.clean());
        QCOMPARE(report.errorCount(), std::size_t(1));

        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(checkReportToJson(report))).object();
        QCOMPARE(j.keys(), (QStringList{QStringLiteral("clean"), QStringLiteral("diagnostics"),
                                        QStringLiteral("platform")}));
        QCOMPARE(j.value(QLatin1String("platform")).toString(), QStringLiteral("Oclgrind"));
        QCOMPARE(j.value(QLatin1String("clean")).toBool(), false);
        const QJsonArray diags = j.value(QLatin1String("diagnostics")).toArray();
        QCOMPARE(diags.size(), 2);
        const QJsonObject race = diags[0].toObject();
        QCOMPARE(race.value(QLatin1String("file")).toString(), QStringLiteral("bugs.cl"));
        QCOMPARE(race.value(QLatin1String("line")).toInt(), 22);
        QCOMPARE(race.value(QLatin1String("column")).toInt(), 16);
        QCOMPARE(race.value(QLatin1String("severity")).toString(), QStringLiteral("error"));
        QCOMPARE(race.value(QLatin1String("kind")).toString(), QStringLiteral("data-race"));
        QCOMPARE(race.value(QLatin1String("kernel")).toString(), QStringLiteral("local_race"));
        QCOMPARE(race.value(QLatin1String("entity")).toString(),
                 QStringLiteral("Global(1,0,0) Local(1,0,0) Group(0,0,0)"));
        QCOMPARE(race.value(QLatin1String("occurrences")).toInt(), 2);
        const QJsonArray sites = race.value(QLatin1String("sites")).toArray();
        QCOMPARE(sites.size(), 2);
        QCOMPARE(sites[1].toObject().value(QLatin1String("role")).toString(), QStringLiteral("second"));
        QCOMPARE(sites[1].toObject().value(QLatin1String("global")).toArray(), (QJsonArray{0, 0, 0}));
        const QJsonObject note = diags[1].toObject();
        QCOMPARE(note.value(QLatin1String("severity")).toString(), QStringLiteral("note"));
        QVERIFY(note.value(QLatin1String("sites")).toArray().isEmpty());

        report.diagnostics.erase(report.diagnostics.begin());
        QVERIFY(report.clean()); // a note alone
    }

    void findsTheIcd()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string lib =
            QDir(dir.path()).filePath(QStringLiteral("liboclgrind-rt-icd.so")).toStdString();
        const std::string other = QDir(dir.path()).filePath(QStringLiteral("libother.so")).toStdString();
        QFile(QString::fromStdString(lib)).open(QIODevice::WriteOnly);
        QFile(QString::fromStdString(other)).open(QIODevice::WriteOnly);
        QDir(dir.path()).mkdir(QStringLiteral("vendors"));
        const QString vendors = dir.path() + QStringLiteral("/vendors");
        auto icd = [&](const char *name, const std::string &library) {
            QFile f(vendors + u'/' + QLatin1String(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(library) + '\n');
        };
        icd("a-other.icd", other);
        icd("b-grind.icd", lib);

        const std::string vendorsVar = "OCL_ICD_VENDORS=" + vendors.toStdString();
        QCOMPARE(findOclgrindIcd({vendorsVar}), std::optional<std::string>(lib));
        QCOMPARE(findOclgrindIcd({vendorsVar, "CLSCOPE_OCLGRIND_ICD=" + other}),
                 std::optional<std::string>(other));
        QCOMPARE(findOclgrindIcd({vendorsVar, "CLSCOPE_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so"}),
                 std::nullopt);
        QCOMPARE(findOclgrindIcd({"OCL_ICD_VENDORS=" + lib}), std::optional<std::string>(lib));
        QCOMPARE(environmentValue({"AB=2", "A=1", "A=3"}, "A"), std::optional<std::string>("1"));
        QCOMPARE(environmentValue({"A=1"}, "B"), std::nullopt);
    }

    void sessionEnvironment()
    {
        QTemporaryDir dir;
        const std::string lib =
            QDir(dir.path()).filePath(QStringLiteral("liboclgrind-rt-icd.so")).toStdString();
        QFile(QString::fromStdString(lib)).open(QIODevice::WriteOnly);
        const std::vector<std::string> parent{"FOO=bar",
                                              "CLSCOPE_DEVICE=pocl",
                                              "OCL_ICD_FILENAMES=/x.so",
                                              "OCLGRIND_QUICK=1",
                                              "OCLGRIND_NUM_THREADS=2",
                                              "OCLGRIND_MAX_ERRORS=7",
                                              "CLSCOPE_OCLGRIND_ICD=" + lib};
        std::filesystem::path folder;
        {
            CheckSettings settings;
            settings.dataRaces = false;
            settings.maxErrors = 50;
            const CheckSession session(parent, settings);
            folder = session.directory();
            QCOMPARE(session.icd(), lib);
            const std::vector<std::string> &env = session.environment();
            auto has = [&](const std::string &e) {
                return std::find(env.begin(), env.end(), e) != env.end();
            };
            QVERIFY(has("FOO=bar"));
            QVERIFY(has("OCLGRIND_NUM_THREADS=2"));
            QVERIFY(!has("CLSCOPE_DEVICE=pocl") && !has("OCLGRIND_QUICK=1") &&
                    !has("OCL_ICD_FILENAMES=/x.so"));
            QVERIFY(has("CLSCOPE_DEVICE=oclgrind"));
            QVERIFY(has("CLSCOPE_CHECK_CHILD=1"));
            QVERIFY(has("OCLGRIND_CHECK_API=1") && has("OCLGRIND_UNINITIALIZED=1"));
            QVERIFY(!has("OCLGRIND_DATA_RACES=1"));
            QVERIFY(has("OCLGRIND_MAX_ERRORS=50") && !has("OCLGRIND_MAX_ERRORS=7"));
            QVERIFY(has("OCLGRIND_LOG=" + session.logPath().string()));
            QVERIFY(has("OCL_ICD_VENDORS=" + (folder / "vendors").string()));
            QFile icd(QString::fromStdString((folder / "vendors" / "oclgrind.icd").string()));
            QVERIFY(icd.open(QIODevice::ReadOnly));
            QCOMPARE(icd.readAll(), QByteArray::fromStdString(lib + '\n'));
        }
        QVERIFY(!std::filesystem::exists(folder));

        try {
            CheckSession session({"CLSCOPE_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so"});
            QFAIL("no error");
        } catch (const CheckUnavailableError &e) {
            QCOMPARE(
                QString::fromUtf8(e.what()),
                QStringLiteral("no Oclgrind to check on: "
                               "CLSCOPE_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so does not exist"));
        }
    }

    void sessionRunsAChild()
    {
        // /bin/sh as the child: it sees the session's environment, and writes a log and stderr as a checked
        // clscope-cli would.
        QTemporaryDir dir;
        const std::string lib =
            QDir(dir.path()).filePath(QStringLiteral("liboclgrind-rt-icd.so")).toStdString();
        QFile(QString::fromStdString(lib)).open(QIODevice::WriteOnly);
        const CheckSession session({"CLSCOPE_OCLGRIND_ICD=" + lib, "PATH=/usr/bin:/bin"});
        const std::string script = "printf 'child=%s' \"$CLSCOPE_CHECK_CHILD\"; cp '" +
                                   dataPath("cached.log").toStdString() + "' \"$OCLGRIND_LOG\"; cat '" +
                                   dataPath("api.stderr").toStdString() + "' >&2; exit 1";
        CheckSources sources;
        sources.sourceFile = dataPath("bugs.cl").toStdString();
        const CheckChildResult r = session.run("/bin/sh", {"-c", script}, sources);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.signal, 0);
        QVERIFY(!r.cancelled);
        QCOMPARE(q(r.out), QStringLiteral("child=1"));
        QCOMPARE(q(r.err), QStringLiteral("clscope-cli: clSetKernelArg(v) failed: INVALID_ARG_SIZE\n"));
        QCOMPARE(r.report.diagnostics.size(), std::size_t(2)); // the log's, then stderr's
        QCOMPARE(r.report.diagnostics[1].kind, CheckKind::Api);
        // Oclgrind had no source for the cached program: the line comes from the file.
        QCOMPARE(q(r.report.diagnostics[0].sites[0].sourceLine),
                 QStringLiteral("out[i + 1] = (float)i; // line 15: invalid write in the last work-item"));

        // A second run finds no stale log of the first.
        const CheckChildResult again = session.run("/bin/sh", {"-c", "exit 0"}, bugsSources());
        QCOMPARE(again.exitCode, 0);
        QVERIFY(again.report.diagnostics.empty());

        auto cancel = std::make_shared<std::atomic<bool>>(true);
        const CheckChildResult stopped =
            session.run("/bin/sh", {"-c", "exec sleep 30"}, bugsSources(), cancel);
        QVERIFY(stopped.cancelled);
        QCOMPARE(stopped.exitCode, -1);
        QCOMPARE(stopped.signal, SIGTERM);

        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 session.run("/nonexistent/clscope-cli", {}, bugsSources()));
    }

    void runArguments()
    {
        RunRequest request;
        request.kernel = "vector_add";
        request.range.global = {1024};
        request.range.local = {64};
        request.repeat = 2;
        request.args = {parseArgSpec("a=buffer:float:1024:iota"), parseArgSpec("b=buffer:float:1024:fill=2"),
                        parseArgSpec("n=uint:1024")};
        request.readBack = {"b"};
        request.readBackAll = true;
        const std::vector<std::string> expected{"run",       "k.cl",
                                                "--kernel",  "vector_add",
                                                "--global",  "1024",
                                                "--local",   "64",
                                                "--repeat",  "2",
                                                "--arg",     toString(request.args[0]),
                                                "--arg",     toString(request.args[1]),
                                                "--arg",     toString(request.args[2]),
                                                "--print",   "b",
                                                "--print",   "a",
                                                "--options", "-D X=1",
                                                "--check",   "--json"};
        QCOMPARE(checkRunArguments(request, "k.cl", "-D X=1"), expected);
    }

    // The GUI's roofline of the workbench's launch: the same launch on the chosen device, 10 timed launches
    // at least, no prints.
    void rooflineArgumentsOfARequest()
    {
        RunRequest request;
        request.kernel = "copy";
        request.range.global = {4096};
        request.repeat = 3;
        request.args = {parseArgSpec("a=buffer:float:4096:iota"), parseArgSpec("b=buffer:float:4096")};
        request.readBack = {"b"};
        request.readBackAll = true;
        const std::vector<std::string> expected{"roofline", "k.cl",
                                                "--kernel", "copy",
                                                "--global", "4096",
                                                "--repeat", "10",
                                                "--arg",    toString(request.args[0]),
                                                "--arg",    toString(request.args[1]),
                                                "--device", "1:0",
                                                "--json"};
        QCOMPARE(rooflineArguments(request, "k.cl", "", "1:0"), expected);
        request.repeat = 25;
        QCOMPARE(rooflineArguments(request, "k.cl", "", "1:0")[7], std::string("25"));
    }
};

QTEST_GUILESS_MAIN(TestCheckLog)
#include "tst_checklog.moc"
