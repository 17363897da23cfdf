// Device choice from pyopencl's variables, against pyopencl itself on the same machine (PoCL and Oclgrind
// in the loader's order): for each PYOPENCL_CTX and PYOPENCL_TEST value, the device clscope-cli run picks
// equals the one pyopencl's create_some_context() picks (or both refuse it), and the devices clscope-cli
// info lists for PYOPENCL_TEST are those of pyopencl's get_test_platforms_and_devices(). CLSCOPE_DEVICE and
// --device win over both.
#include "clitest.h"
#include "testicd.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

// For every row: the first device create_some_context() gives, or "ERR"; then the devices of
// get_test_platforms_and_devices() (for PYOPENCL_TEST rows; a device named twice is listed once, as
// every device spec of CLScope lists it), or "ERR".
const char *kPyopenclScript = R"(
import json, os, sys
import pyopencl as cl
from pyopencl.tools import get_test_platforms_and_devices
out = []
for ctx, test in json.loads(sys.argv[1]):
    for name, value in (("PYOPENCL_CTX", ctx), ("PYOPENCL_TEST", test)):
        os.environ.pop(name, None)
        if value is not None:
            os.environ[name] = value
    try:
        chosen = cl.create_some_context(interactive=False).devices[0].name
    except Exception:
        chosen = "ERR"
    listed = None
    if test is not None:
        try:
            listed = sorted(set(d.name for _, devs in get_test_platforms_and_devices() for d in devs))
        except Exception:
            listed = "ERR"
    out.append([chosen, listed])
print(json.dumps(out))
)";

struct Row
{
    const char *ctx;  // nullptr: unset
    const char *test; // nullptr: unset
};

// Oclgrind's .icd sorts first: platform 0 is Oclgrind, 1 is PoCL, one device each.
const Row kRows[] = {
    {"0", nullptr},      {"1", nullptr},         {"", nullptr},      {"0:0", nullptr},
    {":", nullptr},      {"port", nullptr},      {"grind", nullptr}, {"o", nullptr},
    {"-1", nullptr},     {"2", nullptr},         {"1:x", nullptr},   {" 1", nullptr},
    {"nvidia", nullptr}, {nullptr, "0"},         {nullptr, "1"},     {nullptr, "-1"},
    {nullptr, "1;0"},    {nullptr, "0;1"},       {nullptr, "pocl"},  {nullptr, "oclgrind;pocl"},
    {nullptr, "1:0"},    {nullptr, "1:-1"},      {nullptr, "0:0,0"}, {nullptr, "portable:pthread"},
    {nullptr, ""},       {nullptr, "nvidia"},    {nullptr, "0:0:0"}, {nullptr, "2"},
    {nullptr, "1:5"},    {nullptr, "simulator"}, {"1", "0"},         {"0", "1"},
};

} // namespace

class TestCliDeviceChoice : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    QTemporaryDir m_cache;

    // The row's variables over the test's environment, with the loader's vendors folder of the test's.
    clitest::Options environment(const Row &row) const
    {
        clitest::Options options;
        options.cacheDir = m_cache.path();
        options.unset = {QStringLiteral("CLSCOPE_DEVICE"), QStringLiteral("PYOPENCL_CTX"),
                         QStringLiteral("PYOPENCL_TEST")};
        if (row.ctx)
            options.set << QStringLiteral("PYOPENCL_CTX=") + QString::fromUtf8(row.ctx);
        if (row.test)
            options.set << QStringLiteral("PYOPENCL_TEST=") + QString::fromUtf8(row.test);
        options.set << QStringLiteral("OCL_ICD_VENDORS=") + m_vendors.path();
        options.timeoutMs = 120000;
        return options;
    }

    // The device clscope-cli run uses, or "ERR" when it refuses the choice (exit 2).
    QString chosenByRun(const clitest::Options &env, const QStringList &extra = {}) const
    {
        const clitest::Result r = clitest::run(
            QStringList{QStringLiteral("run"),
                        QStringLiteral(CLSCOPE_TEST_DATA "/../../resources/kernels/vector_add.cl"),
                        QStringLiteral("--json")} +
                extra,
            env);
        if (r.exitCode == 2)
            return QStringLiteral("ERR");
        return r.exitCode == 0
                   ? QJsonDocument::fromJson(r.out).object().value(QLatin1String("device")).toString()
                   : QStringLiteral("exit %1").arg(r.exitCode);
    }

    QJsonValue listedByInfo(const clitest::Options &env) const
    {
        const clitest::Result r = clitest::run({QStringLiteral("info"), QStringLiteral("--json")}, env);
        if (r.exitCode == 2)
            return QStringLiteral("ERR");
        QStringList names;
        for (const QJsonValue &p :
             QJsonDocument::fromJson(r.out).object().value(QLatin1String("platforms")).toArray())
            for (const QJsonValue &d : p.toObject().value(QLatin1String("devices")).toArray())
                names << d.toObject().value(QLatin1String("CL_DEVICE_NAME")).toString();
        names.sort();
        return QJsonArray::fromStringList(names);
    }

private slots:
    void initTestCase()
    {
        if (!clscope::test::setUpVendors(m_vendors, false))
            QSKIP("PoCL or Oclgrind is not installed");
        qunsetenv("OCL_ICD_VENDORS"); // each process gets it from environment()
    }

    void sameChoiceAsPyopencl()
    {
        QJsonArray rows;
        for (const Row &row : kRows)
            rows.append(QJsonArray{row.ctx ? QJsonValue(QString::fromUtf8(row.ctx)) : QJsonValue(),
                                   row.test ? QJsonValue(QString::fromUtf8(row.test)) : QJsonValue()});
        clitest::Options python = environment({nullptr, nullptr});
        python.program = kPython;
        const clitest::Result py =
            clitest::run({QStringLiteral("-c"), QString::fromUtf8(kPyopenclScript),
                          QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact))},
                         python);
        QVERIFY(py.finished);
        if (py.exitCode != 0)
            QSKIP(qPrintable(QStringLiteral("pyopencl is not usable: ") + QString::fromUtf8(py.err)));
        const QJsonArray expected = QJsonDocument::fromJson(py.out).array();
        QCOMPARE(expected.size(), int(std::size(kRows)));
        int i = 0;
        for (const Row &row : kRows) {
            const QString label = QStringLiteral("PYOPENCL_CTX=%1 PYOPENCL_TEST=%2")
                                      .arg(row.ctx ? QString::fromUtf8(row.ctx).prepend(u'\'').append(u'\'')
                                                   : QStringLiteral("(unset)"),
                                           row.test ? QString::fromUtf8(row.test).prepend(u'\'').append(u'\'')
                                                    : QStringLiteral("(unset)"));
            const QJsonArray want = expected.at(i++).toArray();
            const clitest::Options rowEnv = environment(row);
            const QString chosen = chosenByRun(rowEnv);
            QVERIFY2(chosen == want.at(0).toString(),
                     qPrintable(label + QStringLiteral(": clscope-cli run chose ") + chosen +
                                QStringLiteral(", pyopencl ") + want.at(0).toString()));
            if (row.test) {
                const QJsonValue listed = listedByInfo(rowEnv);
                QVERIFY2(
                    listed == want.at(1),
                    qPrintable(
                        label + QStringLiteral(": info listed ") +
                        QString::fromUtf8(QJsonDocument(QJsonArray{listed}).toJson(QJsonDocument::Compact)) +
                        QStringLiteral(", pyopencl ") +
                        QString::fromUtf8(
                            QJsonDocument(QJsonArray{want.at(1)}).toJson(QJsonDocument::Compact))));
            }
        }
    }

    // CLSCOPE_DEVICE and --device win over pyopencl's variables, even a value pyopencl would refuse.
    void ownChoiceWins()
    {
        clitest::Options env = environment({"0:0", "nvidia"});
        QCOMPARE(chosenByRun(env), QStringLiteral("ERR"));
        QVERIFY(chosenByRun(env, {QStringLiteral("--device"), QStringLiteral("pocl")}).startsWith(u'p'));
        env.set << QStringLiteral("CLSCOPE_DEVICE=oclgrind");
        QCOMPARE(chosenByRun(env), QStringLiteral("Oclgrind Simulator"));
    }
};

QTEST_GUILESS_MAIN(TestCliDeviceChoice)
#include "tst_cli_devicechoice.moc"
