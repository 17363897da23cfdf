// Diagnostics parsed from build logs: real PoCL 3.1 and Oclgrind 21.10 logs (tests/data/build/logs),
// recorded NVIDIA/Intel/AMD styles, and single lines for the corner cases.
#include "clscope/build.h"

#include <QFile>
#include <QTest>

using namespace clscope;

namespace {

QString dataPath(const QString &name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/build/logs/") + name;
}

// "file:line:col: severity: message", one diagnostic a line: easy to read in a failure message.
QString render(const std::vector<Diagnostic> &diags)
{
    QStringList lines;
    for (const auto &d : diags) {
        lines << QStringLiteral("%1:%2:%3: %4: %5")
                     .arg(QString::fromStdString(d.file))
                     .arg(d.line)
                     .arg(d.column)
                     .arg(QString::fromUtf8(severityName(d.severity).data(),
                                            qsizetype(severityName(d.severity).size())),
                          QString::fromStdString(d.message));
    }
    return lines.join(QLatin1Char('\n'));
}

QString lines(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out << QString::fromUtf8(i);
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestDiagnostics : public QObject
{
    Q_OBJECT

private slots:
    void capturedLogs_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");

        const char *undeclaredX = "error.cl:4:29: error: use of undeclared identifier 'x'";
        QTest::newRow("pocl error") << QStringLiteral("error-pocl.log") << QStringLiteral("error.cl")
                                    << lines({undeclaredX});
        QTest::newRow("oclgrind error")
            << QStringLiteral("error-oclgrind.log") << QStringLiteral("error.cl") << lines({undeclaredX});

        const char *headerWarning = "headers/helper.h:5:5: warning: array index 3 is past the end of the "
                                    "array (which contains 2 elements)";
        QTest::newRow("pocl warnings (build succeeds)")
            << QStringLiteral("warning-pocl.log") << QStringLiteral("kernels/warning.cl")
            << lines({headerWarning, "kernels/warning.cl:7:7: warning: equality comparison result unused"});
        QTest::newRow("oclgrind warnings with notes")
            << QStringLiteral("warning-oclgrind.log") << QStringLiteral("warning.cl")
            << lines({headerWarning, "headers/helper.h:4:5: note: array 'a' declared here",
                      "warning.cl:7:7: warning: equality comparison result unused",
                      "warning.cl:7:7: note: use '=' to turn this equality comparison into an assignment"});

        // PoCL lists errors before warnings and leaves notes out.
        QTest::newRow("pocl mixed") << QStringLiteral("mixed-pocl.log") << QStringLiteral("mixed.cl")
                                    << lines({"mixed.cl:8:20: error: use of undeclared identifier 'y'",
                                              headerWarning,
                                              "mixed.cl:7:7: warning: equality comparison result unused"});
        QTest::newRow("oclgrind mixed")
            << QStringLiteral("mixed-oclgrind.log") << QStringLiteral("mixed.cl")
            << lines({headerWarning, "headers/helper.h:4:5: note: array 'a' declared here",
                      "mixed.cl:7:7: warning: equality comparison result unused",
                      "mixed.cl:7:7: note: use '=' to turn this equality comparison into an assignment",
                      "mixed.cl:8:20: error: use of undeclared identifier 'y'"});

        // Oclgrind says "fatal error", PoCL "error": both are errors.
        const char *notFound = "missing.cl:1:10: error: 'nothere.h' file not found";
        QTest::newRow("pocl missing header")
            << QStringLiteral("missing-pocl.log") << QStringLiteral("missing.cl") << lines({notFound});
        QTest::newRow("oclgrind missing header")
            << QStringLiteral("missing-oclgrind.log") << QStringLiteral("missing.cl") << lines({notFound});

        QTest::newRow("oclgrind bad option (no location)")
            << QStringLiteral("badoption-oclgrind.log") << QStringLiteral("good.cl")
            << lines({":0:0: error: unknown argument: '-fbogus-option'"});
        QTest::newRow("pocl bad option (not a diagnostic line)")
            << QStringLiteral("badoption-pocl.log") << QStringLiteral("good.cl") << QString();

        const char *tmpHeader =
            "/tmp/clscope-capture/include/helper.h:5:5: warning: array index 3 is past the end "
            "of the array (which contains 2 elements)";
        QTest::newRow("pocl header under /tmp keeps its name")
            << QStringLiteral("tmpheader-pocl.log") << QStringLiteral("mixed.cl")
            << lines({"mixed.cl:8:20: error: use of undeclared identifier 'y'", tmpHeader,
                      "mixed.cl:7:7: warning: equality comparison result unused"});
        QTest::newRow("oclgrind header under /tmp keeps its name")
            << QStringLiteral("tmpheader-oclgrind.log") << QStringLiteral("mixed.cl")
            << lines({tmpHeader, "/tmp/clscope-capture/include/helper.h:4:5: note: array 'a' declared here",
                      "mixed.cl:7:7: warning: equality comparison result unused",
                      "mixed.cl:7:7: note: use '=' to turn this equality comparison into an assignment",
                      "mixed.cl:8:20: error: use of undeclared identifier 'y'"});

        QTest::newRow("nvidia <kernel>") << QStringLiteral("recorded-nvidia.log") << QStringLiteral("k.cl")
                                         << lines({"k.cl:3:5: error: use of undeclared identifier 'x'",
                                                   "k.cl:7:15: warning: implicit conversion from 'double' to "
                                                   "'float' changes value from 0.1 to "
                                                   "0.100000001"});
        QTest::newRow("intel string index") << QStringLiteral("recorded-intel.log") << QStringLiteral("k.cl")
                                            << lines({"k.cl:3:5: error: use of undeclared identifier 'x'",
                                                      "k.cl:9:12: warning: unused variable 'unused'"});
        QTest::newRow("amd comgr CompileSource")
            << QStringLiteral("recorded-amd.log") << QStringLiteral("k.cl")
            << lines({"k.cl:3:5: error: use of undeclared identifier 'x'",
                      "k.cl:12:1: warning: non-void function does not return a value [-Wreturn-type]"});
        QTest::newRow("source echo that reads like an error")
            << QStringLiteral("recorded-echo.log") << QStringLiteral("k.cl")
            << lines({"k.cl:3:1: warning: unused label 'error' [-Wunused-label]",
                      "k.cl:4:12: error: use of undeclared identifier 'undeclared_thing'"});
    }

    void capturedLogs()
    {
        QFETCH(QString, log);
        QFETCH(QString, source);
        QFETCH(QString, expected);
        QFile f(dataPath(log));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QByteArray text = f.readAll();
        const auto diags =
            parseDiagnostics(std::string_view(text.constData(), size_t(text.size())), source.toStdString());
        QCOMPARE(render(diags), expected);
    }

    void singleLines_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QStringList>("known");
        QTest::addColumn<QString>("expected");
        using L = QStringList;
        QTest::newRow("no column") << QStringLiteral("<source>:12: warning: something") << L{}
                                   << QStringLiteral("k.cl:12:0: warning: something");
        QTest::newRow("remark is a note") << QStringLiteral("<source>:2:3: remark: loop vectorized") << L{}
                                          << QStringLiteral("k.cl:2:3: note: loop vectorized");
        QTest::newRow("colons in message")
            << QStringLiteral("input.cl:1:2: error: expected ':' after 'x': really") << L{}
            << QStringLiteral("k.cl:1:2: error: expected ':' after 'x': really");
        QTest::newRow("windows path") << QStringLiteral("C:\\src\\k.cl:4:2: error: bad") << L{}
                                      << QStringLiteral("C:\\src\\k.cl:4:2: error: bad");
        QTest::newRow("crlf") << QStringLiteral("<kernel>:1:1: error: e\r\n") << L{}
                              << QStringLiteral("k.cl:1:1: error: e");
        QTest::newRow("older amd temp file") << QStringLiteral("/tmp/OCL4242T1.cl:7:3: error: e") << L{}
                                             << QStringLiteral("k.cl:7:3: error: e");
        QTest::newRow("included .cl under /tmp keeps its name")
            << QStringLiteral("/tmp/x/common.cl:2:3: warning: w") << L{QStringLiteral("/tmp/x/common.cl")}
            << QStringLiteral("/tmp/x/common.cl:2:3: warning: w");
        QTest::newRow("known file compared normalised")
            << QStringLiteral("/tmp/x//common.cl:2:3: warning: w") << L{QStringLiteral("/tmp/x/./common.cl")}
            << QStringLiteral("/tmp/x//common.cl:2:3: warning: w");
        QTest::newRow("unknown .cl under /tmp is the source")
            << QStringLiteral("/tmp/x/common.cl:2:3: warning: w") << L{}
            << QStringLiteral("k.cl:2:3: warning: w");
        QTest::newRow("user file elsewhere kept") << QStringLiteral("/home/u/lib.cl:2:3: error: e") << L{}
                                                  << QStringLiteral("/home/u/lib.cl:2:3: error: e");
        QTest::newRow("summary skipped")
            << QStringLiteral("2 warnings and 1 error generated.") << L{} << QString();
        QTest::newRow("included-from skipped")
            << QStringLiteral("In file included from input.cl:1:") << L{} << QString();
        QTest::newRow("indented text is not a diagnostic")
            << QStringLiteral("    error: in a comment") << L{} << QString();
        QTest::newRow("capitalised is not a severity")
            << QStringLiteral("Error: Failed to compile") << L{} << QString();
        QTest::newRow("location-less warning")
            << QStringLiteral("warning: argument unused during compilation: '-O9'") << L{}
            << QStringLiteral(":0:0: warning: argument unused during compilation: '-O9'");
        QTest::newRow("pocl note") << QStringLiteral(
                                          "note: /root/.cache/pocl/kcache/tempfile_a.cl:3:4: see here")
                                   << L{} << QStringLiteral("k.cl:3:4: note: see here");
        const QString longMessage(100000, QLatin1Char('x'));
        QTest::newRow("long line") << QString(QStringLiteral("input.cl:1:1: error: ") + longMessage) << L{}
                                   << QString(QStringLiteral("k.cl:1:1: error: ") + longMessage);
    }

    void singleLines()
    {
        QFETCH(QString, log);
        QFETCH(QStringList, known);
        QFETCH(QString, expected);
        std::vector<std::string> knownFiles;
        for (const QString &k : known)
            knownFiles.push_back(k.toStdString());
        QCOMPARE(render(parseDiagnostics(log.toStdString(), "k.cl", knownFiles)), expected);
    }

    void aliases_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("alias");
        QTest::newRow("<kernel>") << QStringLiteral("<kernel>") << true;
        QTest::newRow("<source>") << QStringLiteral("<source>") << true;
        QTest::newRow("intel index") << QStringLiteral("1") << true;
        QTest::newRow("oclgrind") << QStringLiteral("input.cl") << true;
        QTest::newRow("pocl") << QStringLiteral("/root/.cache/pocl/kcache/tempfile_X1y2Z3.cl") << true;
        QTest::newRow("amd") << QStringLiteral("/tmp/comgr-abc/input/CompileSource") << true;
        QTest::newRow("tmp .cl") << QStringLiteral("/tmp/whatever/k.cl") << true;
        QTest::newRow("header in tmp") << QStringLiteral("/tmp/whatever/k.h") << false;
        QTest::newRow("input.cl in a folder") << QStringLiteral("/home/u/input.cl") << false;
        QTest::newRow("user file") << QStringLiteral("kernels/k.cl") << false;
        QTest::newRow("empty") << QString() << false;
    }

    void aliases()
    {
        QFETCH(QString, file);
        QFETCH(bool, alias);
        QCOMPARE(isDriverSourceAlias(file.toStdString()), alias);
    }

    void noSourceNameMeansTheMainSource()
    {
        // An unsaved buffer: the driver's name for it (a temporary file) is never shown; no file name
        // means the main source, which the GUI maps to the buffer's tab.
        for (const char *log :
             {"input.cl:1:2: error: e", "error: /root/.cache/pocl/kcache/tempfile_Ab12.cl:1:2: e",
              "<kernel>:1:2: error: e"}) {
            const auto d = parseDiagnostics(log, "");
            QCOMPARE(d.size(), size_t(1));
            QCOMPARE(d.front().file, std::string());
            QCOMPARE(d.front().line, 1);
        }
        // A header keeps its name.
        const auto h = parseDiagnostics("/work/inc/helper.h:3:1: error: e", "");
        QCOMPARE(h.front().file, std::string("/work/inc/helper.h"));
    }
};

QTEST_GUILESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
