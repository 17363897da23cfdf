// The line profiler plugin's file read as hostile input (lineprofile.h): instructions grouped by line, the
// main source's Oclgrind alias mapped to the user's file and its text attached, launches of one kernel
// summed, and every malformed file refused with a reason instead of a guess.
#include "clscope/lineprofile.h"
#include "clscope/roofline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace clscope;

namespace {

const std::string kHello = R"({"hello":"clscope-oclgrind","mode":"lines","format":1})";

std::string instruction(const std::string &name, int line, int executed, const std::string &extra = {})
{
    return R"({"name":")" + name + R"(","file":"input.cl","directory":"/tmp/oclgrind-x","line":)" +
           std::to_string(line) + R"(,"executed":)" + std::to_string(executed) + extra + "}";
}

// groups: the plugin's "groups" and "groups_run" (a sampled launch runs fewer), left out when empty.
std::string invocation(const std::string &kernel, const std::vector<std::string> &instructions,
                       const std::string &groups = {})
{
    std::string list;
    for (const std::string &i : instructions)
        list += (list.empty() ? "" : ",") + i;
    return R"({"kernel":")" + kernel + R"(","global":[64,2,1],"local":[16,1,1],"offset":[0,0,0],)" + groups +
           R"("instructions":[)" + list + "]}";
}

CheckSources sources()
{
    CheckSources s;
    s.sourceFile = "k.cl";
    s.texts["k.cl"] = "__kernel void k(__global float *a)\n{\n    a[0] = 1.0f;\n}\n";
    return s;
}

BenchDocument peaksDocument(const std::string &device, const std::string &created, double bandwidth)
{
    BenchDocument doc;
    doc.device = device;
    doc.driverVersion = "1.0";
    doc.created = created;
    BenchResult result;
    result.report.kind = "bandwidth";
    result.report.device = device;
    result.report.figures.push_back({"global_bandwidth_gbps", bandwidth, "GB/s", 1, 1, "best"});
    result.report.figures.push_back({"compute_sp_gflops", 1000, "GFLOP/s", 1, 1, "best"});
    doc.results.push_back(result);
    return doc;
}

} // namespace

class TestLineProfile : public QObject
{
    Q_OBJECT

private slots:
    void groupsByLine()
    {
        const std::string file =
            kHello + "\n" +
            invocation("k", {instruction("load", 3, 128, R"(,"load":{"global":512})"),
                             instruction("store", 3, 128, R"(,"store":{"global":512},"flops32":128)"),
                             instruction("ret", 4, 128), R"({"name":"br","executed":7})"}) +
            "\n";
        const LineProfile p = parseLineProfile(file, sources());
        QCOMPARE(p.invocations.size(), std::size_t(1));
        const KernelLineProfile &k = p.invocations.front();
        QCOMPARE(k.kernel, std::string("k"));
        QCOMPARE(k.workItems, std::uint64_t(128));
        QCOMPARE(k.lines.size(), std::size_t(2));
        QCOMPARE(k.lines[0].file, std::string("k.cl")); // Oclgrind's input.cl is the user's file
        QCOMPARE(k.lines[0].line, 3);
        QCOMPARE(k.lines[0].sourceLine, std::string("a[0] = 1.0f;"));
        QCOMPARE(k.lines[0].counts.executed, std::uint64_t(256));
        QCOMPARE(k.lines[0].counts.deviceMemoryBytes(), std::uint64_t(1024));
        QCOMPARE(k.lines[0].counts.flops32, std::uint64_t(128));
        QCOMPARE(k.unlocated.executed, std::uint64_t(7));
        QCOMPARE(k.total.executed, std::uint64_t(128 * 3 + 7));
        QCOMPARE(k.executedBy.at("load"), std::uint64_t(128));
        QCOMPARE(costliestLines(k).front().line, 3);
    }

    void launchesOfAKernelSum()
    {
        const std::string one = invocation("k", {instruction("ret", 4, 128)});
        const std::string other = invocation("other", {instruction("ret", 4, 10)});
        const LineProfile p =
            parseLineProfile(kHello + "\n" + one + "\n" + other + "\n" + one + "\n", sources());
        const std::vector<KernelLineProfile> kernels = p.byKernel();
        QCOMPARE(kernels.size(), std::size_t(2));
        QCOMPARE(kernels[0].kernel, std::string("k"));
        QCOMPARE(kernels[0].launches, std::uint64_t(2));
        QCOMPARE(kernels[0].workItems, std::uint64_t(256));
        QCOMPARE(kernels[0].total.executed, std::uint64_t(256));
        QCOMPARE(kernels[0].lines.size(), std::size_t(1));

        const QJsonArray json =
            QJsonDocument::fromJson(QByteArray::fromStdString(lineProfileToJson(kernels))).array();
        QCOMPARE(json.size(), 2);
        const QJsonObject k = json.first().toObject();
        QCOMPARE(k.value(QLatin1String("launches")).toInteger(), 2);
        QCOMPARE(k.value(QLatin1String("lines"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("file"))
                     .toString(),
                 QStringLiteral("k.cl"));
    }

    void sampledCountsAreScaled()
    {
        // 3 of 8 work-groups ran: every count times 8/3, rounded, line by line and name by name; the total
        // is the sum of the scaled lines.
        const std::string file =
            kHello + "\n" +
            invocation("k",
                       {instruction("load", 3, 300, R"(,"load":{"global":1200},"divergent_groups":3)"),
                        instruction("fadd", 3, 3, R"(,"flops32":3)"), instruction("ret", 4, 10),
                        R"({"name":"br","executed":7})"},
                       R"("groups":8,"groups_run":3,)") +
            "\n";
        const KernelLineProfile k = parseLineProfile(file, sources()).invocations.front();
        QVERIFY(k.sampled());
        QCOMPARE(k.groups, std::uint64_t(8));
        QCOMPARE(k.groupsRun, std::uint64_t(3));
        QCOMPARE(k.lines[0].counts.executed, std::uint64_t(808));
        QCOMPARE(k.lines[0].counts.loaded(MemorySpace::Global), std::uint64_t(3200));
        QCOMPARE(k.lines[0].counts.divergentGroups, std::uint64_t(8));
        QCOMPARE(k.lines[0].counts.flops32, std::uint64_t(8));
        QCOMPARE(k.lines[1].counts.executed, std::uint64_t(27)); // 26.67
        QCOMPARE(k.unlocated.executed, std::uint64_t(19));       // 18.67
        QCOMPARE(k.total.executed, std::uint64_t(808 + 27 + 19));
        QCOMPARE(k.executedBy.at("load"), std::uint64_t(800));
        QCOMPARE(k.executedBy.at("ret"), std::uint64_t(27));
        QCOMPARE(describeSampling(k),
                 std::string("sampled 3 of 8 work-groups (evenly spread, about every 4th, "
                             "first and last included), counts scaled by 2.67 "
                             "(divergent groups too)"));
        QVERIFY(QString::fromStdString(formatLineProfile(k)).contains(QLatin1String("sampled 3 of 8")));

        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(lineProfileToJson({k})))
                                     .array()
                                     .first()
                                     .toObject();
        QCOMPARE(json.value(QLatin1String("work_groups")).toInteger(), 8);
        QCOMPARE(json.value(QLatin1String("work_groups_run")).toInteger(), 3);
        QCOMPARE(json.value(QLatin1String("sampled")).toBool(), true);
        QCOMPARE(json.value(QLatin1String("scale")).toDouble(), 8.0 / 3.0);
        QVERIFY(json.value(QLatin1String("sampling")).toString().startsWith(QLatin1String("sampled 3 of 8")));
    }

    void everyGroupRunIsNotScaled()
    {
        const std::string file =
            kHello + "\n" + invocation("k", {instruction("ret", 4, 10)}, R"("groups":8,"groups_run":8,)") +
            "\n";
        const KernelLineProfile k = parseLineProfile(file, sources()).invocations.front();
        QVERIFY(!k.sampled());
        QCOMPARE(k.total.executed, std::uint64_t(10));
        QCOMPARE(describeSampling(k), std::string());
        QVERIFY(!QString::fromStdString(formatLineProfile(k)).contains(QLatin1String("sampled")));
    }

    void sampledLaunchesSum()
    {
        // 64 of 16384 groups each time, spaced exactly 16383 / 63 = 260.05: "about every 260th".
        const std::string one =
            invocation("k", {instruction("ret", 4, 64)}, R"("groups":16384,"groups_run":64,)");
        const std::vector<KernelLineProfile> kernels =
            parseLineProfile(kHello + "\n" + one + "\n" + one + "\n", sources()).byKernel();
        QCOMPARE(kernels.front().groups, std::uint64_t(2 * 16384));
        QCOMPARE(kernels.front().groupsRun, std::uint64_t(128));
        QCOMPARE(kernels.front().total.executed, std::uint64_t(2 * 16384));
        QCOMPARE(describeSampling(kernels.front()),
                 std::string("sampled 128 of 32768 work-groups over 2 launches (evenly spread, about every "
                             "260th, first and last included), counts scaled by 256 (divergent groups too)"));
    }

    void countsNeverWrap()
    {
        LineCounts a;
        a.executed = ~std::uint64_t(0) - 1;
        LineCounts b;
        b.executed = 5;
        a.add(b);
        QCOMPARE(a.executed, ~std::uint64_t(0));
    }

    void hostileFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *name, const std::string &file, const char *reason) {
            QTest::newRow(name) << QString::fromStdString(file) << QString::fromLatin1(reason);
        };
        row("empty", "", "the plugin did not load");
        row("no hello", invocation("k", {}) + "\n", "does not start with the plugin's hello");
        row("another format", R"({"hello":"clscope-oclgrind","mode":"lines","format":2})", "format 2");
        row("not JSON", kHello + "\n{\"kernel\":", "line 2 is not JSON");
        row("an array", kHello + "\n[1,2]", "line 2 is not an object");
        row("no kernel", kHello + "\n" + R"({"global":[1,1,1],"local":[1,1,1],"instructions":[]})",
            "without a kernel name");
        row("two sizes", kHello + "\n" + R"({"kernel":"k","global":[1,1],"local":[1,1,1],"instructions":[]})",
            "'global' is not three sizes");
        row("zero size",
            kHello + "\n" + R"({"kernel":"k","global":[0,1,1],"local":[1,1,1],"instructions":[]})",
            "not a positive count");
        row("2^64 work-items",
            kHello + "\n" +
                R"({"kernel":"k","global":[4294967296,4294967296,2],"local":[1,1,1],"instructions":[]})",
            "more than 2^64 work-items");
        row("negative count", kHello + "\n" + invocation("k", {R"({"name":"ret","executed":-1})"}),
            "'executed' is not a count");
        row("text count", kHello + "\n" + invocation("k", {R"({"name":"ret","executed":"7"})"}),
            "'executed' is not a count");
        row("bytes not by space", kHello + "\n" + invocation("k", {R"({"name":"load","load":12})"}),
            "'load' is not an object");
        row("nameless instruction", kHello + "\n" + invocation("k", {R"({"executed":1})"}),
            "an instruction without a name");
        row("more groups run than launched",
            kHello + "\n" + invocation("k", {}, R"("groups":2,"groups_run":3,)"), "ran 3 of 2 work-groups");
        row("no group run", kHello + "\n" + invocation("k", {}, R"("groups":2,"groups_run":0,)"),
            "ran 0 of 2 work-groups");
        row("no instructions", kHello + "\n" + R"({"kernel":"k","global":[1,1,1],"local":[1,1,1]})",
            "without its instructions");
    }

    void hostileFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, reason);
        try {
            (void)parseLineProfile(file.toStdString(), sources());
            QFAIL("no error");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(reason), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(QLatin1String("the line profile from Oclgrind")),
                     e.what());
        }
    }

    void lineBeyondTheTextHasNoSource()
    {
        const std::string file = kHello + "\n" + invocation("k", {instruction("ret", 99, 1)});
        const LineProfile p = parseLineProfile(file, sources());
        QCOMPARE(p.invocations.front().lines.front().sourceLine, std::string());
    }

    // The roofline text names the one roof that limits the kernel (it once added the compute sentence to a
    // memory-bound kernel under its roof), and "above the measured roof" only above 100 %.
    void rooflineNamesOneRoof_data()
    {
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<quint64>("flops");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("neverSays");
        QTest::addColumn<bool>("above");
        // Peaks: 100 GB/s, 1000 GFLOP/s single: the ridge at 10 flops/byte.
        QTest::newRow("memory bound at 50 %")
            << quint64(50'000'000) << quint64(0) << 1e-3 << QStringLiteral("memory bound")
            << QStringLiteral("compute bound") << false;
        QTest::newRow("memory bound at 200 %")
            << quint64(200'000'000) << quint64(1000) << 1e-3 << QStringLiteral("memory bound")
            << QStringLiteral("compute bound") << true;
        QTest::newRow("compute bound at 40 %")
            << quint64(1000) << quint64(400'000'000) << 1e-3 << QStringLiteral("compute bound")
            << QStringLiteral("memory bound") << false;
        QTest::newRow("compute bound at 150 %")
            << quint64(1000) << quint64(1'500'000'000) << 1e-3 << QStringLiteral("compute bound")
            << QStringLiteral("memory bound") << true;
    }
    void rooflineNamesOneRoof()
    {
        QFETCH(quint64, bytes);
        QFETCH(quint64, flops);
        QFETCH(double, seconds);
        QFETCH(QString, says);
        QFETCH(QString, neverSays);
        QFETCH(bool, above);
        DevicePeaks peaks;
        peaks.bandwidthGBps = 100;
        peaks.singleGflops = 1000;
        LineCounts counts;
        counts.loadBytes[std::size_t(MemorySpace::Global)] = bytes;
        counts.flops32 = flops;
        const RooflinePoint p = rooflinePoint("k", counts, seconds, peaks);
        const QString text = QString::fromStdString(formatRoofline(p, peaks));
        QVERIFY2(text.contains(says), qPrintable(text));
        QVERIFY2(!text.contains(neverSays), qPrintable(text));
        QCOMPARE(text.contains(QLatin1String("above the measured roof")), above);
    }

    // Peaks kept for a device of a capture that is not here: the newest document of that name in the peaks
    // folder, whatever its driver; other devices, damaged files, a FIFO and a folder are passed over.
    void keptPeaksAreTheNewestOfThatDevice()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(dir.path()));
        const std::string folder = dir.path().toStdString() + "/";
        QVERIFY(!keptPeaks("GPU X").has_value());
        saveBenchFile(folder + "old.json", peaksDocument("GPU X", "2026-01-01T00:00:00Z", 100));
        saveBenchFile(folder + "new.json", peaksDocument("GPU X", "2026-06-01T00:00:00Z", 200));
        saveBenchFile(folder + "other.json", peaksDocument("GPU Y", "2026-12-01T00:00:00Z", 300));
        QFile damaged(dir.filePath(QStringLiteral("damaged.json")));
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write("{\"format\": \"clscope-bench/1\", \"device\": \"GPU X\", ");
        damaged.close();
        QCOMPARE(::mkfifo(qPrintable(dir.filePath(QStringLiteral("fifo.json"))), 0600), 0);
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.json")));
        std::string from;
        const std::optional<DevicePeaks> kept = keptPeaks("GPU X", &from);
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QVERIFY(kept.has_value());
        QCOMPARE(kept->bandwidthGBps, 200.0);
        QCOMPARE(from, folder + "new.json");
        QVERIFY(!keptPeaks("GPU Z").has_value());
    }
};

QTEST_GUILESS_MAIN(TestLineProfile)
#include "tst_lineprofile.moc"
