// clscope-cli sweep (issue 18): the tiled matrix multiply swept on PoCL and on Oclgrind finds a best local
// size whose C equals every other shape's, and `run` with that size gives the reference's C; a result that
// depends on the local size is flagged in the table and the JSON; bad usage exits 2 with one line.
#include "clitest.h"
#include "testicd.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using clitest::Result;

QString matmul()
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/../../resources/kernels/matmul_tiled.cl");
}

QString sweepKernels()
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/run/sweep.cl");
}

// The tiled multiply of two N x N matrices of random numbers.
QStringList matmulLaunch(int n)
{
    const QString count = QString::number(n * n);
    return {matmul(),
            QStringLiteral("--kernel"),
            QStringLiteral("matmul_tiled"),
            QStringLiteral("--global"),
            QStringLiteral("%1,%1").arg(n),
            QStringLiteral("--arg"),
            QStringLiteral("A=buffer:float:%1:random=1:0:1").arg(count),
            QStringLiteral("--arg"),
            QStringLiteral("B=buffer:float:%1:random=2:0:1").arg(count),
            QStringLiteral("--arg"),
            QStringLiteral("C=buffer:float:%1").arg(count),
            QStringLiteral("--arg"),
            QStringLiteral("N=int:%1").arg(n)};
}

QString sizes(const QJsonValue &v)
{
    if (v.isNull())
        return QStringLiteral("driver");
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << QString::number(s.toInteger());
    return out.join(u',');
}

} // namespace

class TestCliSweep : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;

    Result cli(const QStringList &args, const QString &device = QStringLiteral("pocl")) const
    {
        return clitest::run(args + QStringList{QStringLiteral("--device"), device},
                            m_dir.filePath(QStringLiteral("cache")));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        if (cli({QStringLiteral("info")}).exitCode != 0)
            QSKIP("no PoCL device");
    }

    void tiledMatmul_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<int>("n");
        QTest::newRow("pocl") << QStringLiteral("pocl") << 128;
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind") << 32;
    }

    void tiledMatmul()
    {
        QFETCH(QString, device);
        QFETCH(int, n);
        if (device == QLatin1String("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QStringList sweep = QStringList{QStringLiteral("sweep")} + matmulLaunch(n) +
                                  QStringList{QStringLiteral("--local"),
                                              QStringLiteral("16,16"),
                                              QStringLiteral("--local-candidates"),
                                              QStringLiteral("8,8;32,1;16,2;driver"),
                                              QStringLiteral("--repeat"),
                                              QStringLiteral("3"),
                                              QStringLiteral("--json")};
        const Result r = cli(sweep, device);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QLatin1String("kernel")).toString(), QStringLiteral("matmul_tiled"));
        QCOMPARE(doc.value(QLatin1String("repeat")).toInt(), 3);
        const QJsonArray results = doc.value(QLatin1String("results")).toArray();
        QCOMPARE(results.size(), 5);
        QCOMPARE(sizes(results[0].toObject().value(QLatin1String("local"))), QStringLiteral("16,16"));
        QVERIFY(results[0].toObject().value(QLatin1String("reference")).toBool());
        QCOMPARE(sizes(results[4].toObject().value(QLatin1String("local"))), QStringLiteral("driver"));
        double bestMedian = 1e300;
        for (const QJsonValue &v : results) {
            const QJsonObject o = v.toObject();
            QVERIFY2(o.value(QLatin1String("ran")).toBool(),
                     qPrintable(o.value(QLatin1String("error")).toString()));
            QVERIFY(o.value(QLatin1String("outputs_equal")).toBool());
            QCOMPARE(o.value(QLatin1String("launches")).toInt(), 3);
            const double median = o.value(QLatin1String("median_ns")).toDouble();
            QVERIFY(median > 0);
            QVERIFY(o.value(QLatin1String("min_ns")).toDouble() <= median);
            QVERIFY(o.value(QLatin1String("stddev_ns")).toDouble() >= 0);
            bestMedian = std::min(bestMedian, median);
        }
        const QJsonObject best = doc.value(QLatin1String("best")).toObject();
        QCOMPARE(best.value(QLatin1String("median_ns")).toDouble(), bestMedian);

        // The best size, used: run gives the same C as the reference size.
        const QString bestLocal = sizes(best.value(QLatin1String("local")));
        auto cOf = [&](const QString &local) {
            QStringList run =
                QStringList{QStringLiteral("run")} + matmulLaunch(n) +
                QStringList{QStringLiteral("--print"), QStringLiteral("C"), QStringLiteral("--json")};
            if (local != QLatin1String("driver"))
                run << QStringLiteral("--local") << local;
            const Result out = cli(run, device);
            return QJsonDocument::fromJson(out.out)
                .object()
                .value(QLatin1String("buffers"))
                .toObject()
                .value(QLatin1String("C"))
                .toArray();
        };
        const QJsonArray reference = cOf(QStringLiteral("16,16"));
        QCOMPARE(reference.size(), n * n);
        QCOMPARE(cOf(bestLocal), reference);
    }

    // The file's own launch (// clscope-run:) is swept when no --global is given; the table names the best.
    void fileLaunchAndTable()
    {
        const Result r = cli({QStringLiteral("sweep"), matmul(), QStringLiteral("--local-candidates"),
                              QStringLiteral("8,8;16,4"), QStringLiteral("--repeat"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QStringLiteral("Sweep of matmul_tiled on ")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("global 256,256, 2 launches per local size after 1 warm-up")));
        QVERIFY(text.contains(QStringLiteral("16,16 ")) && text.contains(QStringLiteral("reference")));
        QVERIFY(text.contains(QStringLiteral("<- best")));
        QVERIFY(text.contains(QStringLiteral("\nBest: local ")));
        QVERIFY(!text.contains(QStringLiteral("DIFFER")));
    }

    void differingOutputsAreFlagged()
    {
        const QStringList launch{QStringLiteral("sweep"),
                                 sweepKernels(),
                                 QStringLiteral("--kernel"),
                                 QStringLiteral("local_size_shows"),
                                 QStringLiteral("--global"),
                                 QStringLiteral("64"),
                                 QStringLiteral("--arg"),
                                 QStringLiteral("out=buffer:int:64"),
                                 QStringLiteral("--local"),
                                 QStringLiteral("4"),
                                 QStringLiteral("--local-candidates"),
                                 QStringLiteral("8;16"),
                                 QStringLiteral("--repeat"),
                                 QStringLiteral("1")};
        Result r = cli(launch);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("DIFFER: out"), r.out.constData());
        QVERIFY(r.out.contains("Best: local 4 "));
        r = cli(launch + QStringList{QStringLiteral("--json")});
        const QJsonArray results =
            QJsonDocument::fromJson(r.out).object().value(QLatin1String("results")).toArray();
        QCOMPARE(results.size(), 3);
        QVERIFY(!results[1].toObject().value(QLatin1String("outputs_equal")).toBool());
        QCOMPARE(results[1].toObject().value(QLatin1String("differing")).toArray(),
                 QJsonArray{QStringLiteral("out")});
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("repeat 0") << QStringList{QStringLiteral("--repeat"), QStringLiteral("0")}
                                  << QStringLiteral("--repeat 0 must be at least 1");
        QTest::newRow("bad candidate")
            << QStringList{QStringLiteral("--local-candidates"), QStringLiteral("8;x")}
            << QStringLiteral("local size candidate");
        QTest::newRow("bad argument") << QStringList{QStringLiteral("--arg"), QStringLiteral("nosuch=int:1")}
                                      << QStringLiteral("nosuch");
    }

    void badUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QStringList base{QStringLiteral("sweep"),    sweepKernels(),
                               QStringLiteral("--kernel"), QStringLiteral("squares"),
                               QStringLiteral("--global"), QStringLiteral("64"),
                               QStringLiteral("--arg"),    QStringLiteral("in=buffer:float:64:iota"),
                               QStringLiteral("--arg"),    QStringLiteral("out=buffer:float:64")};
        const Result r = cli(base + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
