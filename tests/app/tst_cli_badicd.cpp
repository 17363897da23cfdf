// clscope-cli beside a broken OpenCL driver (docs/reliability.md, item 7): PoCL plus one driver of
// tests/icd/fakeicd.c that segfaults in clGetPlatformIDs or clGetDeviceInfo, never returns from either, or
// reports absurd sizes. Every driver is tried in a child first: `info` and `run` exit 0 on PoCL's device,
// name the bad .icd on stderr (and in info --json's "skipped_icds"), and finish within the probe's time
// limit (CLSCOPE_ICD_PROBE_TIMEOUT=kProbeTimeoutSeconds here). Before, the crashing drivers killed the
// command with SIGSEGV, the hanging ones hung it forever, and the lying one sent it allocating a billion
// devices.
#include "clitest.h"
#include "testicd.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

// Far above what a command needs here (a second of probe, then PoCL), far below "forever".
constexpr int kLimitMs = 60000;

using clitest::Result;

Result runCli(const QString &vendors, const QStringList &args)
{
    clitest::Options options;
    options.unset = {QStringLiteral("OPENCL_VENDOR_PATH"), QStringLiteral("OCL_ICD_FILENAMES"),
                     QStringLiteral("CLSCOPE_DEVICE"), QStringLiteral("CLSCOPE_ICD_PROBE")};
    options.set = {QStringLiteral("OCL_ICD_VENDORS=") + vendors,
                   QStringLiteral("CLSCOPE_ICD_PROBE_TIMEOUT=%1").arg(clscope::test::kProbeTimeoutSeconds)};
    options.timeoutMs = kLimitMs;
    return clitest::run(args, options);
}

QString describe(const Result &r)
{
    return QStringLiteral("finished %1 after %2 ms, crashed %3, exit %4; stderr: %5")
        .arg(r.finished)
        .arg(r.ms)
        .arg(r.finished && r.exitCode == -1)
        .arg(r.exitCode)
        .arg(QString::fromLocal8Bit(r.err.left(2000)));
}

QJsonObject platformNamed(const QJsonArray &platforms, const QString &needle)
{
    for (const QJsonValue &p : platforms) {
        if (p.toObject().value(QStringLiteral("CL_PLATFORM_NAME")).toString().contains(needle))
            return p.toObject();
    }
    return {};
}

} // namespace

class TestCliBadIcd : public QObject
{
    Q_OBJECT
    QTemporaryDir m_root;

    // A vendors folder with PoCL and the drivers of `modes` (bad-MODE.icd each).
    QString vendors(const QStringList &modes)
    {
        const QString path = m_root.filePath(modes.join(u'+'));
        QDir().mkpath(path);
        QList<std::pair<QString, QByteArray>> icds;
        for (const QString &mode : modes)
            icds.append({QStringLiteral("bad-%1.icd").arg(mode), clscope::test::fakeIcd(mode.toLatin1())});
        return clscope::test::writePoclAnd(QDir(path), icds) ? path : QString();
    }

    static void rows()
    {
        QTest::addColumn<QStringList>("modes");
        QTest::addColumn<QStringList>("reasons"); // why each is skipped; "" for one that is kept
        const QString segv = QStringLiteral("crashed (SIGSEGV)");
        const QString hung =
            QStringLiteral("did not answer within %1 s").arg(clscope::test::kProbeTimeoutSeconds);
        QTest::newRow("crash in clGetPlatformIDs")
            << QStringList{QStringLiteral("crash-platforms")} << QStringList{segv};
        QTest::newRow("hang in clGetPlatformIDs")
            << QStringList{QStringLiteral("hang-platforms")} << QStringList{hung};
        QTest::newRow("crash in clGetDeviceInfo")
            << QStringList{QStringLiteral("crash-deviceinfo")} << QStringList{segv};
        QTest::newRow("hang in clGetDeviceInfo")
            << QStringList{QStringLiteral("hang-deviceinfo")} << QStringList{hung};
        QTest::newRow("absurd sizes") << QStringList{QStringLiteral("lying")} << QStringList{QString()};
        QTest::newRow("all at once") << QStringList{QStringLiteral("crash-platforms"),
                                                    QStringLiteral("hang-platforms"),
                                                    QStringLiteral("crash-deviceinfo"),
                                                    QStringLiteral("hang-deviceinfo"),
                                                    QStringLiteral("lying")}
                                     << QStringList{segv, hung, segv, hung, QString()};
    }

    // Each skipped driver named on stderr with its reason; a kept one not at all.
    static void checkNamed(const Result &r, const QStringList &modes, const QStringList &reasons)
    {
        const QString err = QString::fromLocal8Bit(r.err);
        for (qsizetype i = 0; i < modes.size(); ++i) {
            const QString file = QStringLiteral("/bad-%1.icd").arg(modes[i]);
            if (reasons[i].isEmpty()) {
                QVERIFY2(!err.contains(file), qPrintable(err));
                continue;
            }
            const QString line = QStringLiteral("clscope-cli: warning: the OpenCL driver ");
            bool found = false;
            for (const QString &l : err.split(u'\n')) {
                found |= l.startsWith(line) && l.contains(file) && l.contains(reasons[i]) &&
                         l.endsWith(QStringLiteral("while listing its devices; it was skipped"));
            }
            QVERIFY2(found,
                     qPrintable(QStringLiteral("no line for %1 (%2) in: %3").arg(file, reasons[i], err)));
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        if (!QFile::exists(QStringLiteral("/etc/OpenCL/vendors/pocl.icd")))
            QSKIP("PoCL is not installed (packaging/install-deps.sh installs it)");
    }

    void infoJson_data() { rows(); }
    void infoJson()
    {
        QFETCH(QStringList, modes);
        QFETCH(QStringList, reasons);
        const QString folder = vendors(modes);
        QVERIFY(!folder.isEmpty());
        const Result r = runCli(folder, {QStringLiteral("info"), QStringLiteral("--json")});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(describe(r)));
        checkNamed(r, modes, reasons);

        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray platforms = doc.value(QStringLiteral("platforms")).toArray();
        const QJsonObject pocl = platformNamed(platforms, QStringLiteral("Portable Computing Language"));
        QVERIFY2(!pocl.isEmpty(), r.out.left(2000).constData());
        QCOMPARE(pocl.value(QStringLiteral("devices")).toArray().size(), 1);
        QVERIFY(platformNamed(platforms, QStringLiteral("Fake broken")).isEmpty());

        // skipped_icds: the skipped ones, in the loader's order (by file name), with the file, the library
        // and the reason.
        QStringList skipped;
        for (const QJsonValue &s : doc.value(QStringLiteral("skipped_icds")).toArray()) {
            const QJsonObject o = s.toObject();
            QVERIFY(o.value(QStringLiteral("library"))
                        .toString()
                        .contains(QStringLiteral("libclscope-fakeicd-")));
            QVERIFY(o.value(QStringLiteral("message"))
                        .toString()
                        .contains(o.value(QStringLiteral("file")).toString()));
            skipped << QFileInfo(o.value(QStringLiteral("file")).toString()).fileName() + u' ' +
                           o.value(QStringLiteral("reason")).toString();
        }
        QStringList expected;
        for (qsizetype i = 0; i < modes.size(); ++i) {
            if (!reasons[i].isEmpty())
                expected << QStringLiteral("bad-%1.icd %2").arg(modes[i], reasons[i]);
        }
        expected.sort();
        QCOMPARE(skipped, expected);

        // The lying driver is kept: its absurd answers are errors of the platform and of each value.
        if (modes.contains(QStringLiteral("lying"))) {
            const QJsonObject devices =
                platformNamed(platforms, QStringLiteral("Fake lying platform (devices)"));
            QVERIFY(!devices.isEmpty());
            QCOMPARE(
                devices.value(QStringLiteral("error")).toString(),
                QStringLiteral("the driver reports 1000000000 devices for clGetDeviceIDs, more than the 1024 "
                               "CLScope accepts"));
            QVERIFY(devices.value(QStringLiteral("devices")).toArray().isEmpty());
            const QJsonObject sizes = platformNamed(platforms, QStringLiteral("Fake lying platform (sizes)"));
            QVERIFY(!sizes.isEmpty());
            QCOMPARE(
                sizes.value(QStringLiteral("info_errors"))
                    .toObject()
                    .value(QStringLiteral("CL_PLATFORM_PROFILE"))
                    .toString(),
                QStringLiteral("the driver reports 9223372036854775807 bytes for CL_PLATFORM_PROFILE, more "
                               "than the 65536 CLScope accepts"));
            const QJsonArray devs = sizes.value(QStringLiteral("devices")).toArray();
            QCOMPARE(devs.size(), 1);
            const QJsonObject dev = devs.first().toObject();
            QCOMPARE(dev.value(QStringLiteral("CL_DEVICE_NAME")).toString(),
                     QStringLiteral("Fake lying device"));
            const QJsonObject errors = dev.value(QStringLiteral("info_errors")).toObject();
            QCOMPARE(errors.keys(), (QStringList{QStringLiteral("CL_DEVICE_EXTENSIONS"),
                                                 QStringLiteral("CL_DEVICE_MAX_COMPUTE_UNITS"),
                                                 QStringLiteral("CL_DEVICE_MAX_WORK_ITEM_SIZES"),
                                                 QStringLiteral("CL_DEVICE_VENDOR")}));
            QVERIFY(errors.value(QStringLiteral("CL_DEVICE_EXTENSIONS"))
                        .toString()
                        .contains(QStringLiteral("1000000000 bytes")));
            QVERIFY(!dev.contains(QStringLiteral("CL_DEVICE_VENDOR")));
        }
    }

    void infoText_data() { rows(); }
    void infoText()
    {
        QFETCH(QStringList, modes);
        QFETCH(QStringList, reasons);
        const QString folder = vendors(modes);
        QVERIFY(!folder.isEmpty());
        const Result r = runCli(folder, {QStringLiteral("info")});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(describe(r)));
        checkNamed(r, modes, reasons);
        QVERIFY(r.out.contains("Platform 0: Portable Computing Language") ||
                r.out.contains(": Portable Computing Language\n"));
        if (modes.contains(QStringLiteral("lying")))
            QVERIFY(r.out.contains(
                "not read: the driver reports 9223372036854775807 bytes for CL_DEVICE_VENDOR"));
    }

    void run_data() { rows(); }
    void run()
    {
        QFETCH(QStringList, modes);
        QFETCH(QStringList, reasons);
        const QString folder = vendors(modes);
        QVERIFY(!folder.isEmpty());
        const Result r =
            runCli(folder, {QStringLiteral("run"), QStringLiteral(CLSCOPE_TEST_DATA "/run/reliability.cl"),
                            QStringLiteral("--kernel"), QStringLiteral("mark"), QStringLiteral("--global"),
                            QStringLiteral("4"), QStringLiteral("--arg"), QStringLiteral("out=buffer:uint:4"),
                            QStringLiteral("--print"), QStringLiteral("out"), QStringLiteral("--device"),
                            QStringLiteral("pocl")});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(describe(r)));
        checkNamed(r, modes, reasons);
        QVERIFY2(r.out.contains("out (4 uint): 1 0 0 0"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBadIcd)
#include "tst_cli_badicd.moc"
