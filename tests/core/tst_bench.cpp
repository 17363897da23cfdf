// Tests of the pool benchmark and `clscope-cli bench`: sane positive figures with small counts, the JSON
// contract, cancellation, and a clear refusal of kinds that do not exist. No timing assertions:
// performance figures belong in benchmarks, not in tests.
#include "clscope/bench.h"
#include "testhelpers.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest/QtTest>

#include <cmath>

using namespace clscope;
using namespace testhelpers;

namespace {
const char *const kFigures[] = {"pool_hit_pair_ns", "pool_hit_pair_wall_ns", "pool_miss_pair_ns",
                                "raw_create_release_ns", "raw_real_alloc_ns"};

} // namespace

class TestBench : public QObject
{
    Q_OBJECT

private slots:
    void poolBenchIsSane()
    {
        cl_device_id device = firstDevice();
        if (!device)
            QSKIP("no OpenCL device");
        PoolBenchOptions options;
        options.hitPairs = 5000;
        options.missPairs = 50;
        options.rawPairs = 50;
        options.realAllocs = 3;
        options.rounds = 2;
        const BenchReport report = runPoolBench(device, options);
        QCOMPARE(report.kind, std::string("pool"));
        QVERIFY(!report.device.empty());
        QCOMPARE(report.figures.size(), std::size(kFigures));
        for (const char *key : kFigures) {
            const BenchFigure *f = report.find(key);
            QVERIFY2(f, key);
            QVERIFY2(f->value > 0 && std::isfinite(f->value), key);
            QCOMPARE(f->unit, std::string("ns"));
            QCOMPARE(f->rounds, 2);
            QVERIFY(!f->definition.empty());
        }
        QCOMPARE(report.find("pool_hit_pair_ns")->iterations, std::uint64_t(5000));
        QCOMPARE(report.find("raw_real_alloc_ns")->iterations, std::uint64_t(3));
        QVERIFY(report.find("pool_miss_pair_ns")->definition.find("deferred allocator") != std::string::npos);
        QVERIFY(report.find("nonexistent") == nullptr);
    }

    void poolBenchCancels()
    {
        cl_device_id device = firstDevice();
        if (!device)
            QSKIP("no OpenCL device");
        PoolBenchOptions options;
        options.hitPairs = 100'000'000; // would take seconds: the cancel check must cut it short
        options.cancelled = [] { return true; };
        QVERIFY_THROWS_EXCEPTION(BenchCancelled, runPoolBench(device, options));
    }

    void cliJson()
    {
        if (!firstDevice())
            QSKIP("no OpenCL device");
        const CliRun r = runCli({QStringLiteral("bench"), QStringLiteral("pool"), QStringLiteral("--json"),
                                 QStringLiteral("--iterations"), QStringLiteral("20000")});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(!doc.value(QLatin1String("device")).toString().isEmpty());
        const QJsonObject iterations = doc.value(QLatin1String("iterations")).toObject();
        const QJsonObject definitions = doc.value(QLatin1String("definitions")).toObject();
        for (const char *key : kFigures) {
            const QString k = QLatin1String(key);
            QVERIFY2(doc.value(k).toDouble() > 0, key);
            QVERIFY2(iterations.value(k).toInteger() > 0, key);
            QVERIFY2(!definitions.value(k).toString().isEmpty(), key);
        }
        QCOMPARE(iterations.value(QLatin1String("pool_hit_pair_ns")).toInteger(), 20000);
    }

    void cliText()
    {
        if (!firstDevice())
            QSKIP("no OpenCL device");
        const CliRun r = runCli({QStringLiteral("bench"), QStringLiteral("pool"),
                                 QStringLiteral("--iterations"), QStringLiteral("20000")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + qsizetype(std::size(kFigures))); // device, then one line per figure
        QVERIFY(lines[0].startsWith("device: "));
        for (qsizetype i = 0; i < qsizetype(std::size(kFigures)); ++i) {
            QVERIFY2(lines[i + 1].startsWith(kFigures[i]), lines[i + 1].constData());
            QVERIFY2(lines[i + 1].contains(" ns "), lines[i + 1].constData());
        }
    }

    void cliUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("unknown kind") << QStringList{QStringLiteral("bench"), QStringLiteral("frobnicate")}
                                      << QByteArray("unknown bench kind 'frobnicate'");
        QTest::newRow("no kind") << QStringList{QStringLiteral("bench")} << QByteArray("KIND is required");
    }

    void cliUsageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const CliRun r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1); // one clear line
    }
};

QTEST_APPLESS_MAIN(TestBench)
#include "tst_bench.moc"
