// clscope-cli roofline on PoCL: the work of a copy of N floats is 8N bytes and no flops (memory bound), a
// matmul's 2n^3 flops; the achieved rates are the counted work over the median device time; the percent of
// roof is set against the peaks kept for the device, which are measured once (bench bandwidth and compute),
// reused by the next run, and measured again when the kept file is damaged or --remeasure asks.
#include "clitest.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

namespace {

const QString kWork = QStringLiteral(CLSCOPE_TEST_DATA "/lines/work.cl");

} // namespace

using clitest::words;

class TestCliRoofline : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_peaks;

    QJsonObject roofline(const QStringList &launch, const QStringList &extra = {})
    {
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(m_peaks.path()));
        const clitest::Result r = clitest::run(QStringList{QStringLiteral("roofline"), kWork} + launch +
                                                   extra + words("--device pocl --effort quick --json"),
                                               m_cache.path());
        qunsetenv("CLSCOPE_PEAKS_DIR");
        if (r.exitCode != 0) {
            qWarning("exit %d: %s %s", r.exitCode, r.out.constData(), r.err.constData());
            return {};
        }
        return QJsonDocument::fromJson(r.out).object();
    }

    static QJsonObject kernelOf(const QJsonObject &doc)
    {
        return doc.value(QLatin1String("kernels")).toArray().first().toObject();
    }

    static const QStringList &copyLaunch()
    {
        static const QStringList launch =
            words("--kernel copy --global 262144 --arg a=buffer:float:262144:iota "
                  "--arg b=buffer:float:262144 --repeat 5");
        return launch;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid() && m_peaks.isValid());
        if (!QFile::exists(QStringLiteral("/usr/bin/oclgrind")) ||
            !QFile::exists(QStringLiteral("/etc/OpenCL/vendors/pocl.icd")))
            QSKIP("Oclgrind or PoCL is not installed (packaging/install-deps.sh installs them)");
    }

    void copyIsMemoryBound()
    {
        const QJsonObject doc = roofline(copyLaunch());
        const QJsonObject k = kernelOf(doc);
        QCOMPARE(k.value(QLatin1String("kernel")).toString(), QStringLiteral("copy"));
        QCOMPARE(k.value(QLatin1String("bytes")).toInteger(), 8 * 262144);
        QCOMPARE(k.value(QLatin1String("flops")).toInteger(), 0);
        QCOMPARE(k.value(QLatin1String("limit")).toString(), QStringLiteral("memory"));
        QCOMPARE(doc.value(QLatin1String("launches_timed")).toInt(), 5);
        // The rates are the counted work over the median time; the percent is of the kept bandwidth.
        const double seconds = k.value(QLatin1String("seconds")).toDouble();
        QVERIFY(seconds > 0);
        const double gbps = k.value(QLatin1String("gbps")).toDouble();
        QVERIFY(std::fabs(gbps - 8.0 * 262144 / seconds / 1e9) <= 1e-9 * gbps);
        const QJsonObject peaks = doc.value(QLatin1String("peaks")).toObject();
        const double bandwidth = peaks.value(QLatin1String("bandwidth_gbps")).toDouble();
        QVERIFY(bandwidth > 0);
        QVERIFY(peaks.value(QLatin1String("sp_gflops")).toDouble() > 0);
        QVERIFY(std::fabs(k.value(QLatin1String("percent_of_roof")).toDouble() - 100 * gbps / bandwidth) <
                1e-6);
        // Measured now (the folder was empty) and kept.
        QVERIFY(doc.value(QLatin1String("peaks_measured_now")).toBool());
        const QString kept = doc.value(QLatin1String("peaks_file")).toString();
        QVERIFY2(kept.startsWith(m_peaks.path()) && QFile::exists(kept), qPrintable(kept));
    }

    void peaksAreKept()
    {
        const QJsonObject first = roofline(copyLaunch());
        const QJsonObject second = roofline(copyLaunch());
        QVERIFY(!second.value(QLatin1String("peaks_measured_now")).toBool());
        QCOMPARE(second.value(QLatin1String("peaks")).toObject(),
                 first.value(QLatin1String("peaks")).toObject());
        // A damaged file is measured again and replaced; --remeasure measures whatever is kept.
        const QString kept = second.value(QLatin1String("peaks_file")).toString();
        QFile damaged(kept);
        QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
        damaged.write("{\"device\": ");
        damaged.close();
        QVERIFY(roofline(copyLaunch()).value(QLatin1String("peaks_measured_now")).toBool());
        QVERIFY(!roofline(copyLaunch()).value(QLatin1String("peaks_measured_now")).toBool());
        QVERIFY(
            roofline(copyLaunch(), words("--remeasure")).value(QLatin1String("peaks_measured_now")).toBool());
        // Nothing but the kept file in the folder: no part of a write left behind.
        QCOMPARE(QDir(m_peaks.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void matmulCountsItsFlops()
    {
        const QJsonObject k =
            kernelOf(roofline(words("--kernel matmul --global 32,32 --local 8,8 "
                                    "--arg A=buffer:float:1024:iota --arg B=buffer:float:1024:iota "
                                    "--arg C=buffer:float:1024 --arg n=int:32 --repeat 3")));
        QCOMPARE(k.value(QLatin1String("flops")).toInteger(), 2 * 32 * 32 * 32);
        QCOMPARE(k.value(QLatin1String("bytes")).toInteger(), 2 * 32 * 32 * 32 * 4 + 32 * 32 * 4);
        QCOMPARE(k.value(QLatin1String("precision")).toString(), QStringLiteral("single"));
        const double intensity = k.value(QLatin1String("intensity")).toDouble();
        QVERIFY(std::fabs(intensity - 65536.0 / 266240.0) < 1e-9);
    }

    void textNamesTheRoof()
    {
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(m_peaks.path()));
        const clitest::Result r = clitest::run(QStringList{QStringLiteral("roofline"), kWork} + copyLaunch() +
                                                   words("--device pocl --effort quick"),
                                               m_cache.path());
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("copy: 2.1 MB and 0 flops in"), r.out.constData());
        QVERIFY2(r.out.contains("memory bound") && r.out.contains("GB/s bandwidth roof"), r.out.constData());
    }

    // The counted launch of more than 256 work-groups is sampled, and both forms say it; a copy's counts are
    // the whole launch's all the same (its groups all work alike).
    void sampledWorkIsSaid()
    {
        const QStringList launch =
            words("--kernel copy --global 262144 --local 64 --arg a=buffer:float:262144:iota "
                  "--arg b=buffer:float:262144 --repeat 3");
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(m_peaks.path()));
        const clitest::Result r = clitest::run(QStringList{QStringLiteral("roofline"), kWork} + launch +
                                                   words("--device pocl --effort quick"),
                                               m_cache.path());
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(
            r.out.contains("  Work: sampled 256 of 4096 work-groups (evenly spread, about every 16th, first "
                           "and last included), counts scaled by 16 (divergent groups too)\n"),
            r.out.constData());
        const QJsonObject sampled = kernelOf(roofline(launch));
        const QJsonObject whole = kernelOf(roofline(launch, words("--sample-groups 0")));
        QCOMPARE(sampled.value(QLatin1String("bytes")).toInteger(), 8 * 262144);
        QCOMPARE(whole.value(QLatin1String("bytes")).toInteger(), 8 * 262144);
        const QJsonObject lines = sampled.value(QLatin1String("line_profile")).toObject();
        QCOMPARE(lines.value(QLatin1String("sampled")).toBool(), true);
        QCOMPARE(lines.value(QLatin1String("work_groups_run")).toInteger(), 256);
        QCOMPARE(
            whole.value(QLatin1String("line_profile")).toObject().value(QLatin1String("sampled")).toBool(),
            false);
    }

    // A capture: every kernel by device time, each counted on one replayed launch, its time the capture's
    // median of the launches of that range, the roofs those of the capture's device (here: PoCL, kept).
    void captureKernelsAgainstTheirDevice()
    {
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("copy.clscope"));
        const clitest::Result ran =
            clitest::run(QStringList{QStringLiteral("run"), kWork} + copyLaunch() +
                             QStringList{QStringLiteral("--device"), QStringLiteral("pocl"),
                                         QStringLiteral("--save-capture"), capture},
                         m_cache.path());
        QVERIFY2(ran.exitCode == 0, ran.err.constData());

        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(m_peaks.path()));
        const clitest::Result r =
            clitest::run(QStringList{QStringLiteral("roofline"), capture} + words("--effort quick --json"),
                         m_cache.path());
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonObject k = kernelOf(doc);
        QCOMPARE(k.value(QLatin1String("kernel")).toString(), QStringLiteral("copy"));
        QCOMPARE(k.value(QLatin1String("launches")).toInt(), 5);
        QCOMPARE(k.value(QLatin1String("timed_launches_of_that_range")).toInt(), 5);
        QCOMPARE(k.value(QLatin1String("share_of_time")).toDouble(), 1.0);
        QCOMPARE(k.value(QLatin1String("bytes")).toInteger(), 8 * 262144);
        QCOMPARE(k.value(QLatin1String("flops")).toInteger(), 0);
        QCOMPARE(k.value(QLatin1String("limit")).toString(), QStringLiteral("memory"));
        const double gbps = k.value(QLatin1String("gbps")).toDouble();
        QVERIFY(std::fabs(gbps - 8.0 * 262144 / k.value(QLatin1String("seconds")).toDouble() / 1e9) <=
                1e-9 * gbps);
        // The counted launch's lines, for the GUI's heat gutter: the copy's line stores its 4N bytes.
        const QJsonObject profile = k.value(QLatin1String("line_profile")).toObject();
        QCOMPARE(profile.value(QLatin1String("work_items")).toInteger(), 262144);
        bool copyLine = false;
        for (const QJsonValue line : profile.value(QLatin1String("lines")).toArray()) {
            const QJsonObject l = line.toObject();
            if (l.value(QLatin1String("source_line")).toString() == QLatin1String("b[i] = a[i];")) {
                copyLine = true;
                QCOMPARE(
                    l.value(QLatin1String("store")).toObject().value(QLatin1String("global")).toInteger(),
                    4 * 262144);
            }
        }
        QVERIFY2(copyLine, QJsonDocument(profile).toJson().constData());
        const QJsonObject peaks = doc.value(QLatin1String("peaks")).toObject();
        QCOMPARE(peaks.size(), 1);
        const double bandwidth =
            peaks.begin().value().toObject().value(QLatin1String("bandwidth_gbps")).toDouble();
        QVERIFY(bandwidth > 0);
        QVERIFY(std::fabs(k.value(QLatin1String("percent_of_roof")).toDouble() - 100 * gbps / bandwidth) <
                1e-6);

        // The table names the kernel with its percent of roof.
        qputenv("CLSCOPE_PEAKS_DIR", QFile::encodeName(m_peaks.path()));
        const clitest::Result text = clitest::run(
            QStringList{QStringLiteral("roofline"), capture} + words("--effort quick"), m_cache.path());
        qunsetenv("CLSCOPE_PEAKS_DIR");
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("% of roof") && text.out.contains("memory bound") &&
                     !text.out.contains("compute bound"),
                 text.out.constData());

        // Another device's peaks by file: used, with a warning that they are not the capture's device's.
        const QStringList kept = QDir(m_peaks.path()).entryList(QDir::Files);
        QVERIFY(!kept.isEmpty());
        QFile keptFile(QDir(m_peaks.path()).filePath(kept.first()));
        QVERIFY(keptFile.open(QIODevice::ReadOnly));
        QJsonObject bench = QJsonDocument::fromJson(keptFile.readAll()).object();
        bench.insert(QStringLiteral("device"), QStringLiteral("Some Other GPU"));
        const QString other = dir.filePath(QStringLiteral("other-peaks.json"));
        QFile otherFile(other);
        QVERIFY(otherFile.open(QIODevice::WriteOnly));
        otherFile.write(QJsonDocument(bench).toJson());
        otherFile.close();
        const clitest::Result byFile =
            clitest::run(QStringList{QStringLiteral("roofline"), capture, QStringLiteral("--peaks"), other,
                                     QStringLiteral("--json")},
                         m_cache.path());
        QVERIFY2(byFile.exitCode == 0, byFile.err.constData());
        QVERIFY2(byFile.err.contains("are of Some Other GPU"), byFile.err.constData());

        // Bad usage: --peaks that is no bench document, a range for a capture, --peaks for a .cl file.
        const clitest::Result badPeaks =
            clitest::run(QStringList{QStringLiteral("roofline"), capture, QStringLiteral("--peaks"), capture},
                         m_cache.path());
        QCOMPARE(badPeaks.exitCode, 2);
        QVERIFY2(badPeaks.err.contains("--peaks"), badPeaks.err.constData());
        const clitest::Result range = clitest::run(
            QStringList{QStringLiteral("roofline"), capture} + words("--global 4"), m_cache.path());
        QCOMPARE(range.exitCode, 2);
        const clitest::Result peaksForSource =
            clitest::run(QStringList{QStringLiteral("roofline"), kWork} + copyLaunch() +
                             QStringList{QStringLiteral("--peaks"), other},
                         m_cache.path());
        QCOMPARE(peaksForSource.exitCode, 2);
    }

    void badLaunchIsRefusedBeforeTheDevice()
    {
        const clitest::Result r =
            clitest::run(QStringList{QStringLiteral("roofline"), kWork} +
                             words("--kernel copy --global 4 --arg a=buffer:nonsense:4"),
                         m_cache.path());
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliRoofline)
#include "tst_cli_roofline.moc"
