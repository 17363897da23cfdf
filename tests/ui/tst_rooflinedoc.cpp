// roofline --json as the GUI reads it (display/rooflinedoc.h): both forms of the document, the heat of each
// line against the hottest, the lines by cost, and every malformed document refused with what is wrong.
#include "display/rooflinedoc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <stdexcept>

using namespace clscope::ui;

namespace {

QJsonObject counts(double executed, double globalLoad, double globalStore, double flops32)
{
    const auto spaces = [](double global) {
        return QJsonObject{{QStringLiteral("private"), 0},
                           {QStringLiteral("global"), global},
                           {QStringLiteral("constant"), 0},
                           {QStringLiteral("local"), 0}};
    };
    return QJsonObject{{QStringLiteral("executed"), executed},
                       {QStringLiteral("flops32"), flops32},
                       {QStringLiteral("flops64"), 0},
                       {QStringLiteral("load"), spaces(globalLoad)},
                       {QStringLiteral("store"), spaces(globalStore)},
                       {QStringLiteral("atomics"), 0},
                       {QStringLiteral("barriers"), 0},
                       {QStringLiteral("divergent_groups"), 0}};
}

QJsonObject line(const QString &file, int number, const QString &source, double executed, double load,
                 double store)
{
    QJsonObject l = counts(executed, load, store, 0);
    l.insert(QStringLiteral("file"), file);
    l.insert(QStringLiteral("line"), number);
    l.insert(QStringLiteral("source_line"), source);
    return l;
}

// The copy of N = 1024 floats: 3 lines of the main source and one of a header.
QJsonObject copyProfile()
{
    return QJsonObject{
        {QStringLiteral("kernel"), QStringLiteral("copy")},
        {QStringLiteral("work_items"), 1024},
        {QStringLiteral("total"), counts(8192, 4096, 4096, 0)},
        {QStringLiteral("lines"),
         QJsonArray{line(QStringLiteral("program 1"), 3, QStringLiteral("const size_t i = get_global_id(0);"),
                         2048, 0, 0),
                    line(QStringLiteral("program 1"), 4, QStringLiteral("b[i] = a[i];"), 5120, 4096, 4096),
                    line(QStringLiteral("program 1"), 5, QStringLiteral("}"), 1, 0, 0),
                    line(QStringLiteral("util.h"), 2, QStringLiteral("return x;"), 1023, 0, 0)}}};
}

QJsonObject peaks(const QString &device)
{
    return QJsonObject{
        {QStringLiteral("device"), device},      {QStringLiteral("driver"), QStringLiteral("1")},
        {QStringLiteral("measured"), QString()}, {QStringLiteral("bandwidth_gbps"), 100.0},
        {QStringLiteral("sp_gflops"), 1000.0},   {QStringLiteral("dp_gflops"), 0.0}};
}

QJsonObject point(const QString &kernel, double percent)
{
    return QJsonObject{{QStringLiteral("kernel"), kernel},
                       {QStringLiteral("seconds"), 1e-4},
                       {QStringLiteral("flops"), 0},
                       {QStringLiteral("bytes"), 8192},
                       {QStringLiteral("gflops"), 0.0},
                       {QStringLiteral("gbps"), percent},
                       {QStringLiteral("intensity"), 0.0},
                       {QStringLiteral("precision"), QStringLiteral("single")},
                       {QStringLiteral("limit"), QStringLiteral("memory")},
                       {QStringLiteral("ridge"), 10.0},
                       {QStringLiteral("roof_gflops"), 0.0},
                       {QStringLiteral("percent_of_roof"), percent}};
}

QJsonObject captureDocument()
{
    QJsonObject counted = point(QStringLiteral("copy"), 74.2);
    counted.insert(QStringLiteral("label"), QStringLiteral("copy (program 1)"));
    counted.insert(QStringLiteral("program"), 1);
    counted.insert(QStringLiteral("device"), QStringLiteral("GPU"));
    counted.insert(QStringLiteral("launches"), 20);
    counted.insert(QStringLiteral("total_ns"), 2000000);
    counted.insert(QStringLiteral("share_of_time"), 0.8);
    counted.insert(QStringLiteral("counted_launch"), 0);
    counted.insert(QStringLiteral("line_profile"), copyProfile());
    const QJsonObject failed{
        {QStringLiteral("kernel"), QStringLiteral("scale")},
        {QStringLiteral("program"), 2},
        {QStringLiteral("device"), QStringLiteral("GPU")},
        {QStringLiteral("launches"), 5},
        {QStringLiteral("total_ns"), 500000},
        {QStringLiteral("share_of_time"), 0.2},
        {QStringLiteral("counted_launch"), -1},
        {QStringLiteral("error"), QStringLiteral("its buffer contents were not captured")}};
    return QJsonObject{
        {QStringLiteral("capture"), QStringLiteral("app.clscope")},
        {QStringLiteral("program"), QStringLiteral("./app")},
        {QStringLiteral("peaks"), QJsonObject{{QStringLiteral("GPU"), peaks(QStringLiteral("GPU"))}}},
        {QStringLiteral("kernels"), QJsonArray{counted, failed}}};
}

} // namespace

class TestRooflineDoc : public QObject
{
    Q_OBJECT
private slots:
    // Heat is against the hottest line: it is level 5, a line of a fifth of it or less level 1; the share is
    // of the kernel's instructions, the lines of the main file are the first file's.
    void heatAgainstTheHottestLine()
    {
        const KernelLines k = kernelLinesFromJson(copyProfile());
        QCOMPARE(k.mainFile, QStringLiteral("program 1"));
        QCOMPARE(k.executed, quint64(8192));
        QCOMPARE(k.lines.size(), std::size_t(4));
        QCOMPARE(k.lines[1].level, kHeatLevels);
        QCOMPARE(k.lines[0].level, 2); // 2048 of 5120: 0.4 of the hottest
        QCOMPARE(k.lines[2].level, 1);
        QCOMPARE(k.lines[1].share, 5120.0 / 8192.0);
        QCOMPARE(k.lines[1].globalBytes, quint64(8192));
        QCOMPARE(heatText(k.lines[1]), QStringLiteral("62.5%"));
        QCOMPARE(heatText(k.lines[2]), QStringLiteral("<0.1%"));
        QVERIFY(heatDetails(k.lines[1]).contains(QStringLiteral("8192 B global")));
        const std::vector<LineHeat> main = k.ofMain();
        QCOMPARE(main.size(), std::size_t(3));
        const std::vector<LineHeat> cost = k.byCost();
        QCOMPARE(cost.front().line, 4);
        QCOMPARE(cost[1].line, 3);
        QCOMPARE(cost[2].file, QStringLiteral("util.h"));
    }

    // A sampled profile says so in the kernel's lines and in every line's details; an older document
    // without "sampling" reads as every work-group run.
    void samplingIsSaid()
    {
        QJsonObject profile = copyProfile();
        QVERIFY(kernelLinesFromJson(profile).sampling.isEmpty());
        QVERIFY(!heatDetails(kernelLinesFromJson(profile).lines[1]).contains(QStringLiteral("sample")));
        const QString said =
            QStringLiteral("sampled 4 of 16 work-groups (evenly spread, every 5th, first and "
                           "last included), counts scaled by 4 (divergent groups too)");
        profile.insert(QStringLiteral("sampling"), said);
        const KernelLines k = kernelLinesFromJson(profile);
        QCOMPARE(k.sampling, said);
        QVERIFY(k.lines[1].scaled);
        QVERIFY(heatDetails(k.lines[1]).endsWith(QStringLiteral("scaled from a sample of the work-groups")));
        profile.insert(QStringLiteral("sampling"), 4);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, kernelLinesFromJson(profile));
    }

    void captureDocumentReads()
    {
        const RooflineDocument doc = rooflineFromJson(captureDocument());
        QCOMPARE(doc.title, QStringLiteral("./app"));
        QCOMPARE(doc.peaks.size(), std::size_t(1));
        QCOMPARE(doc.kernels.size(), std::size_t(2));
        const RooflineKernel &copy = doc.kernels[0];
        QCOMPARE(copy.kernel, QStringLiteral("copy (program 1)"));
        QCOMPARE(copy.name, QStringLiteral("copy"));
        QCOMPARE(copy.program, qint64(1));
        QVERIFY(copy.counted && copy.hasLines && copy.memoryBound);
        QCOMPARE(copy.percentOfRoof, 74.2);
        QCOMPARE(roofText(copy, doc.peaksOf(copy.device)),
                 QStringLiteral("memory bound: 74.2 % of the 100.0 GB/s bandwidth roof"));
        const RooflineKernel &scale = doc.kernels[1];
        QVERIFY(!scale.counted);
        QCOMPARE(scale.error, QStringLiteral("its buffer contents were not captured"));
        QCOMPARE(roofText(scale, nullptr), scale.error);
    }

    void launchDocumentReads()
    {
        QJsonObject k = point(QStringLiteral("copy"), 50);
        k.insert(QStringLiteral("line_profile"), copyProfile());
        const QJsonObject doc{{QStringLiteral("peaks"), peaks(QStringLiteral("PoCL"))},
                              {QStringLiteral("kernels"), QJsonArray{k}},
                              {QStringLiteral("device"), QStringLiteral("PoCL")},
                              {QStringLiteral("launches_timed"), 10}};
        const RooflineDocument d = rooflineFromJson(doc);
        QCOMPARE(d.kernels.size(), std::size_t(1));
        QCOMPARE(d.kernels[0].launches, quint64(10));
        QCOMPARE(d.kernels[0].totalNs, quint64(1000000)); // 10 x 100 us
        QCOMPARE(d.kernels[0].device, QStringLiteral("PoCL"));
        QCOMPARE(d.kernels[0].share, 1.0); // all of the time shown is this kernel's (it said 0.0 %)
    }

    // Whatever the child wrote, a malformed document is an error that names what is wrong.
    void malformedDocumentsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("says");
        const auto with = [](const std::function<void(QJsonObject &)> &change) {
            QJsonObject doc = captureDocument();
            change(doc);
            return QJsonDocument(doc).toJson(QJsonDocument::Compact);
        };
        const auto firstKernel = [](QJsonObject &doc, const std::function<void(QJsonObject &)> &change) {
            QJsonArray kernels = doc.value(QStringLiteral("kernels")).toArray();
            QJsonObject k = kernels.at(0).toObject();
            change(k);
            kernels.replace(0, k);
            doc.insert(QStringLiteral("kernels"), kernels);
        };
        const auto firstLine = [&](QJsonObject &doc, const std::function<void(QJsonObject &)> &change) {
            firstKernel(doc, [&](QJsonObject &k) {
                QJsonObject profile = k.value(QStringLiteral("line_profile")).toObject();
                QJsonArray lines = profile.value(QStringLiteral("lines")).toArray();
                QJsonObject l = lines.at(0).toObject();
                change(l);
                lines.replace(0, l);
                profile.insert(QStringLiteral("lines"), lines);
                k.insert(QStringLiteral("line_profile"), profile);
            });
        };
        QTest::newRow("no peaks") << with([](QJsonObject &d) { d.remove(QStringLiteral("peaks")); })
                                  << QStringLiteral("\"peaks\"");
        QTest::newRow("kernels not a list")
            << with([](QJsonObject &d) { d.insert(QStringLiteral("kernels"), 3); }) << QStringLiteral("list");
        QTest::newRow("zero bandwidth") << with([](QJsonObject &d) {
            QJsonObject p = peaks(QStringLiteral("GPU"));
            p.insert(QStringLiteral("bandwidth_gbps"), 0);
            d.insert(QStringLiteral("peaks"), QJsonObject{{QStringLiteral("GPU"), p}});
        }) << QStringLiteral("no bandwidth");
        QTest::newRow("negative percent") << with([&](QJsonObject &d) {
            firstKernel(d, [](QJsonObject &k) { k.insert(QStringLiteral("percent_of_roof"), -5); });
        }) << QStringLiteral("percent_of_roof");
        QTest::newRow("percent as text") << with([&](QJsonObject &d) {
            firstKernel(
                d, [](QJsonObject &k) { k.insert(QStringLiteral("percent_of_roof"), QStringLiteral("74")); });
        }) << QStringLiteral("percent_of_roof");
        QTest::newRow("no limit") << with([&](QJsonObject &d) {
            firstKernel(d, [](QJsonObject &k) { k.remove(QStringLiteral("limit")); });
        }) << QStringLiteral("\"limit\"");
        QTest::newRow("line 0") << with([&](QJsonObject &d) {
            firstLine(d, [](QJsonObject &l) { l.insert(QStringLiteral("line"), 0); });
        }) << QStringLiteral("line number");
        QTest::newRow("line 2.5") << with([&](QJsonObject &d) {
            firstLine(d, [](QJsonObject &l) { l.insert(QStringLiteral("line"), 2.5); });
        }) << QStringLiteral("line number");
        QTest::newRow("executed as text") << with([&](QJsonObject &d) {
            firstLine(d, [](QJsonObject &l) { l.insert(QStringLiteral("executed"), QStringLiteral("9")); });
        }) << QStringLiteral("\"executed\"");
        QTest::newRow("no store") << with([&](QJsonObject &d) {
            firstLine(d, [](QJsonObject &l) { l.remove(QStringLiteral("store")); });
        }) << QStringLiteral("\"store\"");
        QTest::newRow("a line that is a number") << with([&](QJsonObject &d) {
            firstKernel(d, [](QJsonObject &k) {
                QJsonObject profile = k.value(QStringLiteral("line_profile")).toObject();
                profile.insert(QStringLiteral("lines"), QJsonArray{7});
                k.insert(QStringLiteral("line_profile"), profile);
            });
        }) << QStringLiteral("not an object");
    }
    void malformedDocumentsAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, says);
        try {
            rooflineFromJson(QJsonDocument::fromJson(json).object());
            QFAIL("accepted");
        } catch (const std::runtime_error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestRooflineDoc)
#include "tst_rooflinedoc.moc"
