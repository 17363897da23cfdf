// Tests of the device benchmarks (clscope/devicebench.h) and `clscope-cli bench` beyond pool: every kind
// runs with tiny sizes and reports its figures, series and traits; progress and cancellation; the JSON
// document round-trips; the baseline comparison's math; --save and --baseline. No timing assertions:
// performance figures belong in benchmarks, not in tests.
#include "clscope/devicebench.h"
#include "clscope/devicespec.h"
#include "testhelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace clscope;
using namespace testhelpers;

namespace {
cl_device_id testDevice()
{
    try {
        return selectDevice(effectiveDeviceSpec({})).device;
    } catch (const std::exception &) {
        return nullptr;
    }
}

DeviceBenchOptions tiny()
{
    DeviceBenchOptions options;
    options.effort = BenchEffort::Tiny;
    return options;
}

BenchDocument syntheticDocument(double bandwidth, double latency, double simd)
{
    BenchDocument doc;
    doc.device = "Test device";
    doc.platform = "Test platform";
    doc.created = "2026-01-01T00:00:00Z";
    BenchResult bw;
    bw.report.kind = "bandwidth";
    bw.report.device = doc.device;
    bw.report.figures.push_back({"global_bandwidth_gbps", bandwidth, "GB/s", 1, 3, "best"});
    bw.series.push_back(
        {"global_read_gbps", "GB/s", "vector width", {"float", "float2"}, {1.5, bandwidth}, "per width"});
    bw.notes.push_back("a note");
    doc.results.push_back(bw);
    BenchResult launch;
    launch.report.kind = "launch";
    launch.report.device = doc.device;
    launch.report.figures.push_back({"launch_latency_us", latency, "us", 100, 3, "queued to end"});
    launch.report.figures.push_back({"launch_enqueue_ns", 0, "ns", 100, 3, "zero in the baseline"});
    launch.traits.push_back({"launch_enqueue_ratio", 1.02, "ratio"});
    doc.results.push_back(launch);
    BenchResult traits;
    traits.report.kind = "traits";
    traits.report.device = doc.device;
    traits.traits.push_back({"simd_width", std::int64_t(simd), "width"});
    traits.traits.push_back({"local_mem_banks", std::string("unknown: CPU"), "banks"});
    traits.traits.push_back({"driver_caches_builds", true, "cache"});
    traits.traits.push_back({"warp_size", BenchTraitValue{}, "null"});
    doc.results.push_back(traits);
    return doc;
}
} // namespace

class TestDeviceBench : public QObject
{
    Q_OBJECT

private slots:
    // Issue 17 "clear errors": a device name that is not UTF-8 used to make benchToJson throw (bench --json
    // then printed nothing); the bytes are replaced and the document stays valid.
    void invalidUtf8DeviceNameStaysValidJson()
    {
        BenchDocument doc;
        doc.device = "GPU \xff\xfe";
        doc.driverVersion = "1.\xc3";
        QJsonParseError error;
        QJsonDocument::fromJson(QByteArray::fromStdString(benchToJson(doc)), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    }

    void kinds()
    {
        const auto kinds = expandBenchKind("all");
        const std::vector<std::string> expected{"pool",     "launch", "bandwidth", "compute",
                                                "transfer", "local",  "traits"};
        QCOMPARE(kinds, expected);
        QCOMPARE(expandBenchKind("compute"), std::vector<std::string>{"compute"});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandBenchKind("frobnicate"));
        QCOMPARE(benchKinds().size(), expected.size());
    }

    void eachKindReportsItsFigures_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("figures");
        QTest::addColumn<QStringList>("series");
        QTest::newRow("launch") << QStringLiteral("launch")
                                << QStringList{QStringLiteral("launch_latency_us"),
                                               QStringLiteral("launch_start_latency_us"),
                                               QStringLiteral("launch_roundtrip_us"),
                                               QStringLiteral("launch_enqueue_ns"),
                                               QStringLiteral("raw_launch_enqueue_ns")}
                                << QStringList{};
        QTest::newRow("bandwidth") << QStringLiteral("bandwidth")
                                   << QStringList{QStringLiteral("global_bandwidth_gbps"),
                                                  QStringLiteral("global_read_gbps"),
                                                  QStringLiteral("global_write_gbps"),
                                                  QStringLiteral("global_copy_gbps")}
                                   << QStringList{QStringLiteral("global_read_gbps"),
                                                  QStringLiteral("global_write_gbps"),
                                                  QStringLiteral("global_copy_gbps")};
        QTest::newRow("compute") << QStringLiteral("compute")
                                 << QStringList{QStringLiteral("compute_sp_gflops"),
                                                QStringLiteral("compute_int_giops")}
                                 << QStringList{QStringLiteral("compute_sp_gflops"),
                                                QStringLiteral("compute_int_giops")};
        QTest::newRow("transfer") << QStringLiteral("transfer")
                                  << QStringList{QStringLiteral("transfer_write_gbps"),
                                                 QStringLiteral("transfer_read_gbps"),
                                                 QStringLiteral("transfer_map_gbps"),
                                                 QStringLiteral("transfer_write_pinned_gbps"),
                                                 QStringLiteral("transfer_read_pinned_gbps"),
                                                 QStringLiteral("transfer_map_pinned_gbps")}
                                  << QStringList{QStringLiteral("transfer_gbps"),
                                                 QStringLiteral("transfer_pinned_gbps")};
        QTest::newRow("local") << QStringLiteral("local")
                               << QStringList{QStringLiteral("local_bandwidth_gbps")}
                               << QStringList{QStringLiteral("local_bandwidth_gbps")};
        QTest::newRow("traits") << QStringLiteral("traits")
                                << QStringList{QStringLiteral("build_first_ms"),
                                               QStringLiteral("build_second_ms")}
                                << QStringList{};
    }

    void eachKindReportsItsFigures()
    {
        QFETCH(QString, kind);
        QFETCH(QStringList, figures);
        QFETCH(QStringList, series);
        cl_device_id device = testDevice();
        if (!device)
            QSKIP("no OpenCL device");
        std::vector<double> progress;
        DeviceBenchOptions options = tiny();
        options.progress = [&](double fraction, const std::string &stage) {
            progress.push_back(fraction);
            QVERIFY(!stage.empty());
        };
        const BenchResult r = runBenchKind(kind.toStdString(), device, options);
        QCOMPARE(QString::fromStdString(r.report.kind), kind);
        QVERIFY(!r.report.device.empty());
        QVERIFY(r.seconds > 0);
        for (const QString &key : figures) {
            const BenchFigure *f = r.report.find(key.toStdString());
            QVERIFY2(f, qPrintable(key));
            QVERIFY2(f->value > 0 && std::isfinite(f->value), qPrintable(key));
            QVERIFY2(!f->unit.empty() && !f->definition.empty(), qPrintable(key));
            QVERIFY(f->rounds >= 1);
        }
        for (const QString &key : series) {
            const auto it = std::find_if(r.series.begin(), r.series.end(),
                                         [&](const BenchSeries &s) { return s.key == key.toStdString(); });
            QVERIFY2(it != r.series.end(), qPrintable(key));
            QVERIFY(!it->labels.empty());
            QCOMPARE(it->labels.size(), it->values.size());
            for (const double v : it->values)
                QVERIFY2(v > 0 && std::isfinite(v), qPrintable(key));
            QVERIFY(!it->axis.empty() && !it->unit.empty());
        }
        QVERIFY(!progress.empty());
        for (std::size_t i = 0; i < progress.size(); ++i) {
            QVERIFY(progress[i] >= 0 && progress[i] <= 1);
            if (i > 0)
                QVERIFY(progress[i] >= progress[i - 1]);
        }
    }

    void bandwidthSeriesCoverEveryWidth()
    {
        cl_device_id device = testDevice();
        if (!device)
            QSKIP("no OpenCL device");
        const BenchResult r = runBandwidthBench(device, tiny());
        for (const BenchSeries &s : r.series) {
            QCOMPARE(s.labels, (std::vector<std::string>{"float", "float2", "float4", "float8", "float16"}));
            QCOMPARE(s.axis, std::string("vector width"));
        }
        // The headline is the best of the three.
        const double best =
            std::max({r.report.find("global_read_gbps")->value, r.report.find("global_write_gbps")->value,
                      r.report.find("global_copy_gbps")->value});
        QCOMPARE(r.report.find("global_bandwidth_gbps")->value, best);
    }

    void traitsAreReported()
    {
        cl_device_id device = testDevice();
        if (!device)
            QSKIP("no OpenCL device");
        BenchDocument doc = describeBenchDevice(device);
        doc.results.push_back(runTraitsBench(device, tiny()));
        const BenchTrait *simd = doc.findTrait("simd_width");
        QVERIFY(simd && std::holds_alternative<std::int64_t>(simd->value));
        QVERIFY(std::get<std::int64_t>(simd->value) > 0);
        const BenchTrait *banks = doc.findTrait("local_mem_banks");
        QVERIFY(banks);
        // A number on GPUs with dedicated local memory; a clear "unknown: why" everywhere else.
        if (const auto *text = std::get_if<std::string>(&banks->value))
            QVERIFY2(text->rfind("unknown: ", 0) == 0, text->c_str());
        else
            QVERIFY(std::holds_alternative<std::int64_t>(banks->value));
        const BenchTrait *cache = doc.findTrait("driver_caches_builds");
        QVERIFY(cache && std::holds_alternative<bool>(cache->value));
        QVERIFY(doc.findTrait("warp_size") && doc.findTrait("nv_compute_capability"));
        const BenchFigure *overhead = doc.findFigure("profiling_overhead_ns");
        QVERIFY(overhead && overhead->value >= 0); // 0 when below noise
    }

    void cancelStopsAKind_data()
    {
        QTest::addColumn<QString>("kind");
        for (const char *k : {"launch", "bandwidth", "compute", "transfer", "local", "traits", "pool"})
            QTest::newRow(k) << QString::fromLatin1(k);
    }

    void cancelStopsAKind()
    {
        QFETCH(QString, kind);
        cl_device_id device = testDevice();
        if (!device)
            QSKIP("no OpenCL device");
        DeviceBenchOptions options = tiny();
        options.cancelled = [] { return true; };
        QVERIFY_THROWS_EXCEPTION(BenchCancelled, runBenchKind(kind.toStdString(), device, options));
    }

    void runsSeveralKindsIntoOneDocument()
    {
        cl_device_id device = testDevice();
        if (!device)
            QSKIP("no OpenCL device");
        std::vector<std::pair<double, std::string>> progress;
        DeviceBenchOptions options = tiny();
        options.progress = [&](double f, const std::string &stage) { progress.emplace_back(f, stage); };
        const BenchDocument doc = runBenchKinds({"launch", "local"}, device, options);
        QCOMPARE(doc.results.size(), std::size_t(2));
        QVERIFY(doc.findKind("launch") && doc.findKind("local"));
        QVERIFY(!doc.device.empty() && !doc.platform.empty() && !doc.created.empty());
        QVERIFY(doc.findFigure("launch_latency_us") && doc.findFigure("local_bandwidth_gbps"));
        QVERIFY(!progress.empty());
        QCOMPARE(progress.back().first, 1.0);
        // The second kind's progress starts at one half.
        const auto second = std::find_if(progress.begin(), progress.end(),
                                         [](const auto &p) { return p.second.rfind("local", 0) == 0; });
        QVERIFY(second != progress.end() && second->first >= 0.5);
    }

    void bankEstimate_data()
    {
        QTest::addColumn<QVector<double>>("ns");
        QTest::addColumn<int>("banks"); // 0: unknown
        // Measured on an NVIDIA H200 (strides 1 .. 64): small strides are bound by something else, then the
        // time doubles up to 32 and levels off.
        QTest::newRow("h200") << QVector<double>{18048, 22368, 38560, 71776, 137824, 270176, 270176} << 32;
        QTest::newRow("16 banks") << QVector<double>{10, 20, 40, 80, 160, 161, 160, 162} << 16;
        QTest::newRow("flat: no banks") << QVector<double>{10, 10.5, 10.2, 10.4, 10.1, 10.3, 10.2, 10} << 0;
        QTest::newRow("never levels") << QVector<double>{10, 20, 40, 80, 160, 320, 640, 1280} << 0;
        QTest::newRow("noise only") << QVector<double>{10, 12, 11, 13, 12, 11, 12, 12} << 0;
    }

    void bankEstimate()
    {
        QFETCH(QVector<double>, ns);
        QFETCH(int, banks);
        std::vector<int> strides;
        for (int s = 1; strides.size() < std::size_t(ns.size()); s *= 2)
            strides.push_back(s);
        const auto estimate = estimateLocalMemBanks(strides, std::vector<double>(ns.begin(), ns.end()));
        QCOMPARE(estimate.value_or(0), banks);
    }

    void direction_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("direction");
        QTest::newRow("gbps") << QStringLiteral("global_bandwidth_gbps")
                              << int(BenchDirection::HigherIsBetter);
        QTest::newRow("gflops") << QStringLiteral("compute_sp_gflops") << int(BenchDirection::HigherIsBetter);
        QTest::newRow("giops") << QStringLiteral("compute_int_giops") << int(BenchDirection::HigherIsBetter);
        QTest::newRow("ns") << QStringLiteral("pool_hit_pair_ns") << int(BenchDirection::LowerIsBetter);
        QTest::newRow("us") << QStringLiteral("launch_latency_us") << int(BenchDirection::LowerIsBetter);
        QTest::newRow("ms") << QStringLiteral("build_first_ms") << int(BenchDirection::LowerIsBetter);
        QTest::newRow("none") << QStringLiteral("simd_width") << int(BenchDirection::Neutral);
    }

    void direction()
    {
        QFETCH(QString, key);
        QFETCH(int, direction);
        QCOMPARE(int(benchDirection(key.toStdString())), direction);
    }

    void compareMath()
    {
        const BenchDocument baseline = syntheticDocument(100, 10, 8);
        BenchDocument current = syntheticDocument(110, 12, 8);
        current.results[0].report.figures.push_back(
            {"global_read_gbps", 50, "GB/s", 1, 1, "not in the baseline"});
        const auto c = compareBench(current, baseline, 0.05);
        QCOMPARE(c.size(), std::size_t(3)); // figures in both, in current's order
        QCOMPARE(c[0].key, std::string("global_bandwidth_gbps"));
        QCOMPARE(c[0].ratio, 1.1);
        QCOMPARE(c[0].baseline, 100.0);
        QCOMPARE(c[0].verdict, BenchVerdict::Better); // more GB/s is better
        QCOMPARE(c[1].key, std::string("launch_latency_us"));
        QCOMPARE(c[1].ratio, 1.2);
        QCOMPARE(c[1].verdict, BenchVerdict::Worse); // more microseconds is worse
        QCOMPARE(c[2].key, std::string("launch_enqueue_ns"));
        QCOMPARE(c[2].ratio, 0.0); // a zero baseline has no ratio
        QCOMPARE(c[2].verdict, BenchVerdict::Unknown);

        const auto within = compareBench(syntheticDocument(103, 9.8, 8), baseline, 0.05);
        QCOMPARE(within[0].verdict, BenchVerdict::Same);
        QCOMPARE(within[1].verdict, BenchVerdict::Same);
        const auto faster = compareBench(syntheticDocument(80, 5, 8), baseline, 0.05);
        QCOMPARE(faster[0].verdict, BenchVerdict::Worse);
        QCOMPARE(faster[1].verdict, BenchVerdict::Better);
        QCOMPARE(faster[1].ratio, 0.5);
        QCOMPARE(verdictName(BenchVerdict::Better), std::string_view("better"));
        QCOMPARE(verdictName(BenchVerdict::Worse), std::string_view("worse"));
    }

    void jsonRoundTrip()
    {
        const BenchDocument doc = syntheticDocument(123.5, 7.25, 32);
        const BenchDocument back = benchFromJson(benchToJson(doc));
        QCOMPARE(back.device, doc.device);
        QCOMPARE(back.platform, doc.platform);
        QCOMPARE(back.created, doc.created);
        QCOMPARE(back.results.size(), doc.results.size());
        for (std::size_t i = 0; i < doc.results.size(); ++i) {
            const BenchResult &a = doc.results[i];
            const BenchResult &b = back.results[i];
            QCOMPARE(b.report.kind, a.report.kind);
            QCOMPARE(b.report.figures.size(), a.report.figures.size());
            for (std::size_t f = 0; f < a.report.figures.size(); ++f) {
                QCOMPARE(b.report.figures[f].key, a.report.figures[f].key);
                QCOMPARE(b.report.figures[f].value, a.report.figures[f].value);
                QCOMPARE(b.report.figures[f].unit, a.report.figures[f].unit);
                QCOMPARE(b.report.figures[f].iterations, a.report.figures[f].iterations);
                QCOMPARE(b.report.figures[f].rounds, a.report.figures[f].rounds);
                QCOMPARE(b.report.figures[f].definition, a.report.figures[f].definition);
            }
            QVERIFY(b.series == a.series);
            QVERIFY(b.traits == a.traits);
            QCOMPARE(b.notes, a.notes);
        }
        // Figures flat at the top, per-width detail under series, traits with null for "not applicable".
        const QJsonObject json =
            QJsonDocument::fromJson(QByteArray::fromStdString(benchToJson(doc))).object();
        QCOMPARE(json.value(QLatin1String("global_bandwidth_gbps")).toDouble(), 123.5);
        QCOMPARE(json.value(QLatin1String("series"))
                     .toObject()
                     .value(QLatin1String("global_read_gbps"))
                     .toObject()
                     .value(QLatin1String("values"))
                     .toArray()
                     .size(),
                 2);
        QVERIFY(json.value(QLatin1String("traits")).toObject().value(QLatin1String("warp_size")).isNull());
        QCOMPARE(json.value(QLatin1String("kinds")).toArray().size(), 3);
    }

    void jsonRejectsNonsense()
    {
        QVERIFY_THROWS_EXCEPTION(BenchFileError, benchFromJson("not json"));
        QVERIFY_THROWS_EXCEPTION(BenchFileError, benchFromJson("{\"figures\": 1}"));
        QVERIFY_THROWS_EXCEPTION(BenchFileError, loadBenchFile("/nonexistent/clscope-bench.json"));
        // A `bench pool --json` document of before (no figure_kinds) still loads as a baseline.
        const BenchDocument old =
            benchFromJson(R"({"device": "d", "pool_hit_pair_ns": 52.5, "kinds": ["pool"]})");
        QVERIFY(old.findFigure("pool_hit_pair_ns"));
        QCOMPARE(old.findFigure("pool_hit_pair_ns")->value, 52.5);
    }

    void saveAndLoad()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("baseline.json")).toStdString();
        saveBenchFile(path, syntheticDocument(42, 3, 16));
        const BenchDocument back = loadBenchFile(path);
        QCOMPARE(back.findFigure("global_bandwidth_gbps")->value, 42.0);
        QVERIFY_THROWS_EXCEPTION(
            BenchFileError,
            saveBenchFile(dir.filePath(QStringLiteral("no/such/dir.json")).toStdString(), back));
    }

    void cliSaveAndBaseline()
    {
        if (!testDevice())
            QSKIP("no OpenCL device");
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("run.json"));
        CliRun r = runCli({QStringLiteral("bench"), QStringLiteral("local"), QStringLiteral("--effort"),
                           QStringLiteral("tiny"), QStringLiteral("--json"), QStringLiteral("--save"), saved},
                          300000);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject first = QJsonDocument::fromJson(r.out).object();
        QVERIFY(first.value(QLatin1String("local_bandwidth_gbps")).toDouble() > 0);
        QVERIFY(QFile::exists(saved));

        r = runCli({QStringLiteral("bench"), QStringLiteral("local"), QStringLiteral("--effort"),
                    QStringLiteral("tiny"), QStringLiteral("--json"), QStringLiteral("--baseline"), saved},
                   300000);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject second = QJsonDocument::fromJson(r.out).object();
        const QJsonObject baseline = second.value(QLatin1String("baseline")).toObject();
        QVERIFY(baseline.value(QLatin1String("ratios"))
                    .toObject()
                    .value(QLatin1String("local_bandwidth_gbps"))
                    .toDouble() > 0);
        QVERIFY(!baseline.value(QLatin1String("verdicts"))
                     .toObject()
                     .value(QLatin1String("local_bandwidth_gbps"))
                     .toString()
                     .isEmpty());

        r = runCli({QStringLiteral("bench"), QStringLiteral("local"), QStringLiteral("--effort"),
                    QStringLiteral("tiny"), QStringLiteral("--baseline"), saved},
                   300000);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("local_bandwidth_gbps") && r.out.contains(" (baseline "), r.out.constData());
    }

    void cliRefusesABadBaseline()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ not json");
        f.close();
        const CliRun r = runCli(
            {QStringLiteral("bench"), QStringLiteral("launch"), QStringLiteral("--baseline"), bad}, 300000);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--baseline"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestDeviceBench)
#include "tst_devicebench.moc"
