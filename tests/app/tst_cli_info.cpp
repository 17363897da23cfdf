// clscope-cli info: its JSON holds every key `clinfo --json` reports, with equal raw values, on PoCL,
// on Oclgrind and on a driver that answers as NVIDIA's does on an H200 (tests/icd/fakeicd.c, "quirky");
// and bad usage gives exit 2 with one line on stderr.
#include "clitest.h"
#include "testicd.h"

#include "clscope/error.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace {

using clitest::Result;

// clinfo or the CLI in the test's environment as it is, plus the loader's vendors folder when one is given
// and the NAME=value pairs of `set`.
Result runProgram(const QString &program, const QStringList &args, const QString &vendors = {},
                  const QStringList &set = {})
{
    clitest::Options options;
    options.unset.clear();
    if (!vendors.isEmpty())
        options.set << QStringLiteral("OCL_ICD_VENDORS=") + vendors;
    options.set += set;
    options.timeoutMs = 180000;
    options.program = program;
    return clitest::run(args, options);
}

// The names clinfo prints where the contract has the integer value.
qint64 enumValue(const QString &name)
{
    static const QHash<QString, qint64> kNames = {
        {QStringLiteral("CL_NONE"), CL_NONE},
        {QStringLiteral("CL_READ_ONLY_CACHE"), CL_READ_ONLY_CACHE},
        {QStringLiteral("CL_READ_WRITE_CACHE"), CL_READ_WRITE_CACHE},
        {QStringLiteral("CL_LOCAL"), CL_LOCAL},
        {QStringLiteral("CL_GLOBAL"), CL_GLOBAL},
        {QStringLiteral("CL_DEVICE_PARTITION_EQUALLY"), CL_DEVICE_PARTITION_EQUALLY},
        {QStringLiteral("CL_DEVICE_PARTITION_BY_COUNTS"), CL_DEVICE_PARTITION_BY_COUNTS},
        {QStringLiteral("CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN"), CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN},
        // cl_khr_external_memory and cl_khr_external_semaphore handle types (NVIDIA lists them).
        {QStringLiteral("CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR"), CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR},
        {QStringLiteral("CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR"),
         CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR},
        {QStringLiteral("CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR"), CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR},
        {QStringLiteral("CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR"), CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR},
        {QStringLiteral("CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR"), CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR},
        {QStringLiteral("CL_SEMAPHORE_HANDLE_SYNC_FD_KHR"), CL_SEMAPHORE_HANDLE_SYNC_FD_KHR},
        {QStringLiteral("CL_SEMAPHORE_TYPE_BINARY_KHR"), CL_SEMAPHORE_TYPE_BINARY_KHR},
    };
    return kNames.value(name, -1);
}

// Returns an empty string when clinfo's value (in its own JSON dialect) equals ours (raw).
QString compareValue(const QJsonValue &theirs, const QJsonValue &ours)
{
    // A value the driver refused: clinfo writes "<printDeviceInfo:105: get ... : error -30>", we write
    // "<error: CL_INVALID_VALUE>"; the error must be the same.
    static const QRegularExpression kClinfoError(QStringLiteral("^<.*: error (-?\\d+)>$"));
    if (const QRegularExpressionMatch m = kClinfoError.match(theirs.toString()); m.hasMatch()) {
        const QString expected =
            QStringLiteral("<error: %1>")
                .arg(QString::fromLatin1(clscope::errorName(m.captured(1).toInt()).data()));
        return ours.toString() == expected ? QString()
                                           : QStringLiteral("%1 vs ours %2").arg(expected, ours.toString());
    }
    if (theirs.isObject()) {
        const QJsonObject t = theirs.toObject();
        // Bitfields, enums and versions: {"raw": N, ...} (clinfo 3.0.23 once spells it " raw ").
        for (const QString &rawKey : {QStringLiteral("raw"), QStringLiteral(" raw ")}) {
            if (t.contains(rawKey)) {
                if (!ours.isDouble() || ours.toInteger() != t.value(rawKey).toInteger())
                    return QStringLiteral("raw %1 vs ours %2")
                        .arg(t.value(rawKey).toInteger())
                        .arg(QString::fromUtf8(
                            QJsonDocument(QJsonArray{ours}).toJson(QJsonDocument::Compact)));
                return {};
            }
        }
        // Name+version lists: {"name": {"raw": N, "version": "X.Y.Z"}} against {"name": "X.Y.Z"}.
        if (!ours.isObject())
            return QStringLiteral("expected an object");
        const QJsonObject o = ours.toObject();
        if (o.size() != t.size())
            return QStringLiteral("%1 names vs ours %2").arg(t.size()).arg(o.size());
        for (auto it = t.begin(); it != t.end(); ++it) {
            const QString v = it.value().toObject().value(QStringLiteral("version")).toString();
            if (o.value(it.key()).toString() != v)
                return QStringLiteral("%1: %2 vs ours %3").arg(it.key(), v, o.value(it.key()).toString());
        }
        return {};
    }
    if (theirs.isArray()) {
        const QJsonArray t = theirs.toArray();
        const QJsonArray o = ours.toArray();
        if (!ours.isArray() || t.size() != o.size())
            return QStringLiteral("array sizes differ");
        for (qsizetype i = 0; i < t.size(); ++i) {
            const qint64 expected = t[i].isString() ? enumValue(t[i].toString()) : t[i].toInteger();
            if (o[i].toInteger() != expected)
                return QStringLiteral("element %1: %2 vs ours %3").arg(i).arg(expected).arg(o[i].toInteger());
        }
        return {};
    }
    if (theirs.isString() && ours.isDouble()) {
        if (enumValue(theirs.toString()) != ours.toInteger())
            return QStringLiteral("%1 vs ours %2").arg(theirs.toString()).arg(ours.toInteger());
        return {};
    }
    if (theirs != ours)
        return QStringLiteral("%1 vs ours %2")
            .arg(QString::fromUtf8(QJsonDocument(QJsonArray{theirs}).toJson(QJsonDocument::Compact)),
                 QString::fromUtf8(QJsonDocument(QJsonArray{ours}).toJson(QJsonDocument::Compact)));
    return {};
}

QStringList compareObjects(const QString &where, const QJsonObject &theirs, const QJsonObject &ours)
{
    QStringList problems;
    for (auto it = theirs.begin(); it != theirs.end(); ++it) {
        // cl_khr_device_uuid: without CL_DEVICE_LUID_VALID_KHR the LUID's bytes are undefined (NVIDIA's
        // driver returns what its last answer left, so clinfo and we read different bytes); checked apart.
        if (it.key() == QStringLiteral("CL_DEVICE_LUID_KHR") &&
            theirs.value(QStringLiteral("CL_DEVICE_LUID_VALID_KHR")) == QJsonValue(false))
            continue;
        if (!ours.contains(it.key())) {
            problems << where + u' ' + it.key() + QStringLiteral(": missing");
            continue;
        }
        const QString diff = compareValue(it.value(), ours.value(it.key()));
        if (!diff.isEmpty())
            problems << where + u' ' + it.key() + QStringLiteral(": ") + diff;
    }
    return problems;
}

struct Comparison
{
    QStringList problems;
    int platforms = 0;
    int compared = 0; // values of clinfo's that were compared
};

// clinfo's document ({"platforms": [...], "devices": [{"online": [...]}, ...]}) against ours
// ({"platforms": [{..., "devices": [...]}]}), platform by platform and device by device.
Comparison compareDocuments(const QByteArray &clinfoJson, const QByteArray &oursJson)
{
    Comparison c;
    QJsonParseError e1, e2;
    const QJsonObject theirs = QJsonDocument::fromJson(clinfoJson, &e1).object();
    const QJsonObject mine = QJsonDocument::fromJson(oursJson, &e2).object();
    if (e1.error != QJsonParseError::NoError || e2.error != QJsonParseError::NoError) {
        c.problems << QStringLiteral("not JSON: clinfo %1, ours %2").arg(e1.errorString(), e2.errorString());
        return c;
    }
    const QJsonArray tp = theirs.value(QStringLiteral("platforms")).toArray();
    const QJsonArray td = theirs.value(QStringLiteral("devices")).toArray();
    const QJsonArray mp = mine.value(QStringLiteral("platforms")).toArray();
    c.platforms = static_cast<int>(tp.size());
    if (mp.size() != tp.size())
        c.problems << QStringLiteral("clinfo has %1 platforms, ours %2").arg(tp.size()).arg(mp.size());
    for (qsizetype p = 0; p < std::min(tp.size(), mp.size()); ++p) {
        const QJsonObject tpo = tp[p].toObject();
        const QJsonObject mpo = mp[p].toObject();
        const QString pname = tpo.value(QStringLiteral("CL_PLATFORM_NAME")).toString();
        c.problems << compareObjects(pname, tpo, mpo);
        c.compared += static_cast<int>(tpo.size());
        const QJsonArray tdev = td[p].toObject().value(QStringLiteral("online")).toArray();
        const QJsonArray mdev = mpo.value(QStringLiteral("devices")).toArray();
        if (mdev.size() != tdev.size())
            c.problems << QStringLiteral("%1: clinfo has %2 devices, ours %3")
                              .arg(pname)
                              .arg(tdev.size())
                              .arg(mdev.size());
        for (qsizetype d = 0; d < std::min(tdev.size(), mdev.size()); ++d) {
            c.problems << compareObjects(pname + QStringLiteral(" device ") + QString::number(d),
                                         tdev[d].toObject(), mdev[d].toObject());
            c.compared += static_cast<int>(tdev[d].toObject().size());
        }
    }
    return c;
}

} // namespace

class TestCliInfo : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    QString m_cli = QStringLiteral(CLSCOPE_CLI_PATH);

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("clinfo")).isEmpty())
            QSKIP("clinfo is not installed (packaging/install-deps.sh installs it)");
        if (!clscope::test::setUpVendors(m_vendors))
            QSKIP("PoCL or Oclgrind is not installed");
    }

    void jsonEqualsClinfo()
    {
        const Result clinfo = runProgram(QStringLiteral("clinfo"), {QStringLiteral("--json")});
        QCOMPARE(clinfo.exitCode, 0);
        const Result ours = runProgram(m_cli, {QStringLiteral("info"), QStringLiteral("--json")});
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        const Comparison c = compareDocuments(clinfo.out, ours.out);
        QVERIFY2(c.problems.isEmpty(), qPrintable(c.problems.join(u'\n')));
        QCOMPARE(c.platforms, 2); // PoCL and Oclgrind; the broken entries are skipped by both
        QVERIFY2(c.compared > 150, qPrintable(QString::number(c.compared))); // PoCL alone: ~106 device keys
    }

    // What NVIDIA's driver did on the H200 (docs/benchmarks.md, "The driver probe on the H200"): it lists
    // cl_khr_semaphore and refuses CL_{PLATFORM,DEVICE}_SEMAPHORE_TYPES_KHR, which clinfo reports as an
    // error and `info --json` once left out; it says the LUID is not valid and returns stale bytes for it.
    void quirkyDriverEqualsClinfo()
    {
        QTemporaryDir vendors;
        QVERIFY(clscope::test::writeIcd(QDir(vendors.path()), QStringLiteral("quirky.icd"),
                                        clscope::test::fakeIcd("quirky")));
        const Result clinfo =
            runProgram(QStringLiteral("clinfo"), {QStringLiteral("--json")}, vendors.path());
        const Result ours =
            runProgram(m_cli, {QStringLiteral("info"), QStringLiteral("--json")}, vendors.path());
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        const Comparison c = compareDocuments(clinfo.out, ours.out);
        QVERIFY2(c.problems.isEmpty(), qPrintable(c.problems.join(u'\n')));
        QCOMPARE(c.platforms, 1);

        const QJsonObject mp =
            QJsonDocument::fromJson(ours.out).object().value(QStringLiteral("platforms"))[0].toObject();
        const QJsonObject md = mp.value(QStringLiteral("devices"))[0].toObject();
        QCOMPARE(mp.value(QStringLiteral("CL_PLATFORM_NAME")).toString(),
                 QStringLiteral("Fake quirky platform"));
        QCOMPARE(md.value(QStringLiteral("CL_DEVICE_SEMAPHORE_TYPES_KHR")).toString(),
                 QStringLiteral("<error: CL_INVALID_VALUE>"));
        QCOMPARE(mp.value(QStringLiteral("CL_PLATFORM_SEMAPHORE_TYPES_KHR")).toString(),
                 QStringLiteral("<error: CL_INVALID_VALUE>"));
        QCOMPARE(mp.value(QStringLiteral("CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR")).toString(),
                 QStringLiteral("<error: CL_INVALID_VALUE>"));
        // clinfo reports both errors too, so the comparison above covered them.
        const QJsonObject clinfoDoc = QJsonDocument::fromJson(clinfo.out).object();
        QVERIFY(clinfoDoc.value(QStringLiteral("platforms"))[0]
                    .toObject()
                    .value(QStringLiteral("CL_PLATFORM_SEMAPHORE_TYPES_KHR"))
                    .toString()
                    .startsWith(u'<'));
        QVERIFY(clinfoDoc.value(QStringLiteral("devices"))[0]
                    .toObject()
                    .value(QStringLiteral("online"))[0]
                    .toObject()
                    .value(QStringLiteral("CL_DEVICE_SEMAPHORE_TYPES_KHR"))
                    .toString()
                    .startsWith(u'<'));

        // The LUID: its raw bytes are in the JSON as clinfo has them, and a person reads that they mean
        // nothing.
        QCOMPARE(md.value(QStringLiteral("CL_DEVICE_LUID_VALID_KHR")), QJsonValue(false));
        QVERIFY(md.value(QStringLiteral("CL_DEVICE_LUID_KHR")).toString().contains(u'-'));
        const Result text = runProgram(m_cli, {QStringLiteral("info")}, vendors.path());
        QCOMPARE(text.exitCode, 0);
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QStringLiteral("(not valid: CL_DEVICE_LUID_VALID_KHR is false)")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("unsupported (CL_INVALID_VALUE)")), qPrintable(out));
    }

    // The same comparison on two files made elsewhere (docs/gpu-capture-run.sh on the H200, which has no Qt):
    // CLSCOPE_CLINFO_JSON=clinfo.json CLSCOPE_INFO_JSON=ours.json tst_cli_info givenFilesEqual
    void givenFilesEqual()
    {
        const QString theirsPath = qEnvironmentVariable("CLSCOPE_CLINFO_JSON");
        const QString oursPath = qEnvironmentVariable("CLSCOPE_INFO_JSON");
        if (theirsPath.isEmpty() || oursPath.isEmpty())
            QSKIP("compares files made on another machine: set CLSCOPE_CLINFO_JSON and CLSCOPE_INFO_JSON");
        QFile theirs(theirsPath), ours(oursPath);
        QVERIFY2(theirs.open(QIODevice::ReadOnly), qPrintable(theirsPath));
        QVERIFY2(ours.open(QIODevice::ReadOnly), qPrintable(oursPath));
        const Comparison c = compareDocuments(theirs.readAll(), ours.readAll());
        QVERIFY2(c.problems.isEmpty(), qPrintable(c.problems.join(u'\n')));
        QVERIFY(c.platforms > 0);
        qInfo("%d platforms, %d values compared", c.platforms, c.compared);
    }

    void deviceSpecFilters()
    {
        const Result r = runProgram(m_cli, {QStringLiteral("info"), QStringLiteral("--json"),
                                            QStringLiteral("--device"), QStringLiteral("oclgrind")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray platforms =
            QJsonDocument::fromJson(r.out).object().value(QStringLiteral("platforms")).toArray();
        QCOMPARE(platforms.size(), 1);
        QCOMPARE(platforms[0].toObject().value(QStringLiteral("CL_PLATFORM_NAME")).toString(),
                 QStringLiteral("Oclgrind"));
    }

    void environmentSpec()
    {
        const Result r = runProgram(m_cli, {QStringLiteral("info"), QStringLiteral("--json")}, {},
                                    {QStringLiteral("CLSCOPE_DEVICE=pocl")});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 0);
        const QJsonArray platforms =
            QJsonDocument::fromJson(r.out).object().value(QStringLiteral("platforms")).toArray();
        QCOMPARE(platforms.size(), 1);
        QVERIFY(platforms[0]
                    .toObject()
                    .value(QStringLiteral("CL_PLATFORM_NAME"))
                    .toString()
                    .contains(QStringLiteral("Portable")));
    }

    void textOutputGroups()
    {
        const Result r =
            runProgram(m_cli, {QStringLiteral("info"), QStringLiteral("--device"), QStringLiteral("pocl")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        for (const char *group : {"[General]", "[Compute]", "[Memory]", "[Images]", "[Extensions]"})
            QVERIFY2(text.contains(QString::fromLatin1(group)), group);
        QVERIFY(text.contains(QStringLiteral("GiB")));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("bad-spec") << QStringList{QStringLiteral("info"), QStringLiteral("--device"),
                                                 QStringLiteral("0:1:2")}
                                  << QStringLiteral("0:1:2");
        QTest::newRow("no-match") << QStringList{QStringLiteral("info"), QStringLiteral("--device"),
                                                 QStringLiteral("nvidia:h200")}
                                  << QStringLiteral("nvidia:h200");
        QTest::newRow("bad-flag") << QStringList{QStringLiteral("info"), QStringLiteral("--bogus")}
                                  << QStringLiteral("--bogus");
        QTest::newRow("no-subcommand") << QStringList{} << QStringLiteral("subcommand");
        QTest::newRow("unknown-subcommand")
            << QStringList{QStringLiteral("frobnicate")} << QStringLiteral("frobnicate");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Result r = runProgram(m_cli, args);
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(!err.contains(u'\n'), qPrintable(err));
        QVERIFY2(err.contains(mentions, Qt::CaseInsensitive), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliInfo)
#include "tst_cli_info.moc"
