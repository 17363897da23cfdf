// clscope-cli info: its JSON holds every key `clinfo --json` reports, with equal raw values, on PoCL
// and on Oclgrind; and bad usage gives exit 2 with one line on stderr.
#include "testicd.h"

#include <CL/cl.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

namespace {

struct Result
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result runProgram(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(180000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
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
    };
    return kNames.value(name, -1);
}

// Returns an empty string when clinfo's value (in its own JSON dialect) equals ours (raw).
QString compareValue(const QJsonValue &theirs, const QJsonValue &ours)
{
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
        QJsonParseError e1, e2;
        const QJsonObject theirs = QJsonDocument::fromJson(clinfo.out, &e1).object();
        const QJsonObject mine = QJsonDocument::fromJson(ours.out, &e2).object();
        QCOMPARE(e1.error, QJsonParseError::NoError);
        QCOMPARE(e2.error, QJsonParseError::NoError);

        const QJsonArray tp = theirs.value(QStringLiteral("platforms")).toArray();
        const QJsonArray td = theirs.value(QStringLiteral("devices")).toArray();
        const QJsonArray mp = mine.value(QStringLiteral("platforms")).toArray();
        QCOMPARE(mp.size(), tp.size());
        QCOMPARE(tp.size(), 2); // PoCL and Oclgrind; the broken entries are skipped by both
        QStringList problems;
        int compared = 0;
        for (qsizetype p = 0; p < tp.size(); ++p) {
            const QJsonObject tpo = tp[p].toObject();
            const QJsonObject mpo = mp[p].toObject();
            const QString pname = tpo.value(QStringLiteral("CL_PLATFORM_NAME")).toString();
            problems << compareObjects(pname, tpo, mpo);
            compared += static_cast<int>(tpo.size());
            const QJsonArray tdev = td[p].toObject().value(QStringLiteral("online")).toArray();
            const QJsonArray mdev = mpo.value(QStringLiteral("devices")).toArray();
            QCOMPARE(mdev.size(), tdev.size());
            for (qsizetype d = 0; d < tdev.size(); ++d) {
                problems << compareObjects(pname + QStringLiteral(" device ") + QString::number(d),
                                           tdev[d].toObject(), mdev[d].toObject());
                compared += static_cast<int>(tdev[d].toObject().size());
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QVERIFY2(compared > 150,
                 qPrintable(QString::number(compared))); // PoCL alone reports ~106 device keys
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
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLSCOPE_DEVICE"), QStringLiteral("pocl"));
        p.setProcessEnvironment(env);
        p.start(m_cli, {QStringLiteral("info"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(180000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonArray platforms = QJsonDocument::fromJson(p.readAllStandardOutput())
                                         .object()
                                         .value(QStringLiteral("platforms"))
                                         .toArray();
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
