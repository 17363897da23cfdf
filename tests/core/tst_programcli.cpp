// The `clscope-cli build` contract on PoCL and Oclgrind: the JSON document, exit codes and usage errors,
// the cache hit and miss across runs (a changed header), and concurrent processes building into one
// cache. The builds in process: tst_program.cpp.
#include "buildtest.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace buildtest;

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

// Command-line words without spaces in them: "--device pocl --json".
QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// Copies files of tests/data/build into dir, keeping their relative paths.
void copyData(const QTemporaryDir &dir, std::initializer_list<const char *> names)
{
    for (const char *name : names)
        writeFile(dir.filePath(QLatin1String(name)), readData(QLatin1String(name)));
}

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

} // namespace

class TestProgramCli : public QObject, private buildtest::ProgramDrivers
{
    Q_OBJECT

    // The CLI without PoCL's second device (this test process asks PoCL for two) and with its own cache.
    static QProcessEnvironment cliEnvironment(const QString &cacheDir)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name :
             {"POCL_DEVICES", "CLSCOPE_BUILD_OPTIONS", "CLSCOPE_NO_CACHE", "CLSCOPE_DEVICE"})
            env.remove(QLatin1String(name));
        env.insert(QStringLiteral("CLSCOPE_CACHE_DIR"), cacheDir);
        return env;
    }

    static CliResult runCli(const QStringList &args, const QString &cacheDir)
    {
        QProcess p;
        p.setProcessEnvironment(cliEnvironment(cacheDir));
        p.start(QStringLiteral(CLSCOPE_CLI_PATH), args);
        if (!p.waitForFinished(180000))
            return {};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                p.readAllStandardError()};
    }

private slots:
    void initTestCase() { setUpDrivers(); }
    void init() { requireDrivers(); }

    // ---- clscope-cli build -------------------------------------------------------------------------

    void cliJsonContract()
    {
        QTemporaryDir tmp;
        copyData(tmp, {"warning.cl", "headers/helper.h"});
        const QString file = tmp.filePath(QStringLiteral("warning.cl"));
        const QString headers = tmp.filePath(QStringLiteral("headers"));
        const CliResult r = runCli(words("build") << file << words("--device pocl --json --options")
                                                  << QStringLiteral("-D A=1") << words("-- -I") << headers,
                                   tmp.filePath(QStringLiteral("cache")));
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(str(doc, "status"), QStringLiteral("success"));
        QVERIFY(doc.value(QStringLiteral("duration_ms")).isDouble());
        QCOMPARE(str(doc, "cache"), QStringLiteral("miss"));
        QVERIFY2(str(doc, "options").contains(QStringLiteral("-D A=1 -I ") + headers),
                 qPrintable(str(doc, "options")));
        const QJsonArray logs = doc.value(QStringLiteral("logs")).toArray();
        QCOMPARE(logs.size(), 1);
        QVERIFY(!str(logs[0].toObject(), "device").isEmpty());
        QVERIFY(str(logs[0].toObject(), "log").contains(QStringLiteral("warning")));
        const QJsonArray kernels = doc.value(QStringLiteral("kernels")).toArray();
        QCOMPARE(kernels.size(), 1);
        const QJsonObject k = kernels[0].toObject();
        QCOMPARE(str(k, "name"), QStringLiteral("warns"));
        const QJsonArray args = k.value(QStringLiteral("args")).toArray();
        QCOMPARE(args.size(), 2);
        const QJsonObject out = args[0].toObject();
        QCOMPARE(str(out, "name") + QLatin1Char(' ') + str(out, "address_qualifier") + QLatin1Char(' ') +
                     str(out, "access_qualifier") + QLatin1Char(' ') + str(out, "type_name"),
                 QStringLiteral("out global none float*"));
        QVERIFY(out.value(QStringLiteral("type_qualifiers")).isArray());
        const QJsonObject wg = k.value(QStringLiteral("work_group")).toObject();
        for (const char *key :
             {"work_group_size", "preferred_work_group_size_multiple", "local_mem_size", "private_mem_size"})
            QVERIFY2(wg.value(QLatin1String(key)).isDouble(), key);
        QCOMPARE(wg.value(QStringLiteral("compile_work_group_size")).toArray().size(), 3);
        const QJsonArray diags = doc.value(QStringLiteral("diagnostics")).toArray();
        QCOMPARE(diags.size(), 2);
        const QJsonObject d = diags[1].toObject();
        QCOMPARE(str(d, "file"), file);
        QCOMPARE(d.value(QStringLiteral("line")).toInt(), 7);
        QCOMPARE(d.value(QStringLiteral("column")).toInt(), 7);
        QCOMPARE(str(d, "severity"), QStringLiteral("warning"));
        QCOMPARE(str(d, "message"), QStringLiteral("equality comparison result unused"));
    }

    void cliFailureAndUsage()
    {
        QTemporaryDir tmp;
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        const QString error = QString::fromStdString(dataPath("error.cl"));
        CliResult r = runCli(words("build") << error << words("--device oclgrind --json"), cache);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(str(doc, "status"), QStringLiteral("failure"));
        QCOMPARE(doc.value(QStringLiteral("diagnostics")).toArray().size(), 1);
        const QJsonObject log = doc.value(QStringLiteral("logs")).toArray()[0].toObject();
        QVERIFY(str(log, "log").contains(QStringLiteral("undeclared identifier")));

        // Text mode prints the log too.
        r = runCli(words("build") << error << words("--device oclgrind"), cache);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("use of undeclared identifier 'x'"));
        QVERIFY(r.out.contains("Build failed"));

        // Bad usage: exit 2 and one line on stderr.
        const QString missing = tmp.filePath(QStringLiteral("nope.cl"));
        r = runCli(words("build") << missing, cache);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(r.err.contains(missing.toUtf8()));
        QVERIFY(r.out.isEmpty());
        r = runCli(words("build") << error << words("--device no-such-device"), cache);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        r = runCli(words("build") << error << QStringLiteral("--options") << QStringLiteral("-D \"x"), cache);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unterminated"));
    }

    void cliCacheHitThenHeaderMiss()
    {
        QTemporaryDir tmp;
        copyData(tmp, {"good.cl", "config.h"});
        const QStringList args = words("build")
                                 << tmp.filePath(QStringLiteral("good.cl")) << words("--device pocl --json");
        auto cacheOf = [&] {
            const CliResult r = runCli(args, tmp.filePath(QStringLiteral("cache")));
            if (r.exitCode != 0)
                return QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err));
            return str(QJsonDocument::fromJson(r.out).object(), "cache");
        };
        QCOMPARE(cacheOf(), QStringLiteral("miss"));
        QCOMPARE(cacheOf(), QStringLiteral("hit"));
        writeFile(tmp.filePath(QStringLiteral("config.h")), "#define OFFSET 2.0f\n");
        QCOMPARE(cacheOf(), QStringLiteral("miss"));
        QCOMPARE(cacheOf(), QStringLiteral("hit"));
    }

    // Two processes building the same file into the same cache at once: both succeed, the entry is valid.
    void cliConcurrentProcesses()
    {
        QTemporaryDir tmp;
        copyData(tmp, {"good.cl", "config.h"});
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        const QStringList args = words("build")
                                 << tmp.filePath(QStringLiteral("good.cl")) << words("--device pocl --json");
        QProcess a, b;
        for (QProcess *p : {&a, &b}) {
            p->setProcessEnvironment(cliEnvironment(cache));
            p->start(QStringLiteral(CLSCOPE_CLI_PATH), args);
        }
        for (QProcess *p : {&a, &b}) {
            QVERIFY(p->waitForFinished(180000));
            QCOMPARE(p->exitCode(), 0);
            QCOMPARE(str(QJsonDocument::fromJson(p->readAllStandardOutput()).object(), "status"),
                     QStringLiteral("success"));
        }
        QCOMPARE(QDir(cache).entryList(QDir::Files).size(), 1);
        QCOMPARE(str(QJsonDocument::fromJson(runCli(args, cache).out).object(), "cache"),
                 QStringLiteral("hit"));
    }
};

QTEST_GUILESS_MAIN(TestProgramCli)
#include "tst_programcli.moc"
