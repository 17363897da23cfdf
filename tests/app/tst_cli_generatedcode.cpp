// clscope-cli build --matrix and --disassemble (issue 18): three option sets of the tiled multiply on PoCL
// and Oclgrind give six cells with their figures, a set that does not build fails its cells (exit 1) while
// the others stand, and --disassemble prints LLVM IR on PoCL (text and JSON).
#include "clitest.h"
#include "testicd.h"

#include <QFile>
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

bool haveLlvmDis15()
{
    return QFile::exists(QStringLiteral("/usr/lib/llvm-15/bin/llvm-dis"));
}

} // namespace

class TestCliGeneratedCode : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;

    Result cli(const QStringList &args) const
    {
        return clitest::run(args, m_dir.filePath(QStringLiteral("cache")));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        if (cli({QStringLiteral("info")}).exitCode != 0)
            QSKIP("no PoCL device");
    }

    void matrix()
    {
        const QString devices = m_haveOclgrind ? QStringLiteral("pocl;oclgrind") : QStringLiteral("pocl");
        const int deviceCount = m_haveOclgrind ? 2 : 1;
        const Result r =
            cli({QStringLiteral("build"), matmul(), QStringLiteral("--matrix"),
                 QStringLiteral("-cl-opt-disable|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32"),
                 QStringLiteral("--device"), devices, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QLatin1String("option_sets")).toArray().size(), 3);
        QCOMPARE(doc.value(QLatin1String("devices")).toArray().size(), deviceCount);
        const QJsonArray cells = doc.value(QLatin1String("cells")).toArray();
        QCOMPARE(cells.size(), 3 * deviceCount);
        for (const QJsonValue &v : cells) {
            const QJsonObject c = v.toObject();
            QVERIFY2(c.value(QLatin1String("success")).toBool(),
                     qPrintable(c.value(QLatin1String("log")).toString()));
            QVERIFY(c.value(QLatin1String("build_ms")).toDouble() > 0);
            QVERIFY(c.value(QLatin1String("binary_bytes")).toInteger() > 0);
            const QJsonArray kernels = c.value(QLatin1String("kernels")).toArray();
            QCOMPARE(kernels.size(), 1);
            const QJsonObject k = kernels[0].toObject();
            QCOMPARE(k.value(QLatin1String("name")).toString(), QStringLiteral("matmul_tiled"));
            QVERIFY(k.value(QLatin1String("work_group_size")).toInteger() > 0);
            QVERIFY(k.contains(QLatin1String("registers"))); // null: neither PoCL nor Oclgrind reports them
        }
        QCOMPARE(cells[0].toObject().value(QLatin1String("options")).toString(),
                 QStringLiteral("-cl-opt-disable"));
        QCOMPARE(cells[2 * deviceCount].toObject().value(QLatin1String("options")).toString(),
                 QStringLiteral("-cl-mad-enable -DTILE=32"));

        // Text: one block per option set, a line per device, a line per kernel.
        const Result text = cli({QStringLiteral("build"), matmul(), QStringLiteral("--matrix"),
                                 QStringLiteral("-cl-opt-disable|-DTILE=32"), QStringLiteral("--device"),
                                 QStringLiteral("pocl")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Options \"-cl-opt-disable\"\n") &&
                     text.out.contains("Options \"-DTILE=32\"\n"),
                 text.out.constData());
        QVERIFY(text.out.contains(": built in "));
        QVERIFY(text.out.contains("    matmul_tiled: work-group "));
    }

    // A set that does not build fails its cells and the command (exit 1); the other sets' cells stand. A set
    // the driver refuses outright (PoCL refuses -O0, which is no OpenCL option) names the refusal.
    void failingSet()
    {
        const Result refused =
            cli({QStringLiteral("build"), matmul(), QStringLiteral("--matrix"),
                 QStringLiteral("-O0|-cl-opt-disable"), QStringLiteral("--device"), QStringLiteral("pocl")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.out.contains("FAILED") && refused.out.contains("INVALID_BUILD_OPTIONS"),
                 refused.out.constData());

        const Result r = cli({QStringLiteral("build"), matmul(), QStringLiteral("--matrix"),
                              QStringLiteral("-DTILE=16|-DTILE="), QStringLiteral("--device"),
                              QStringLiteral("pocl"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonArray cells =
            QJsonDocument::fromJson(r.out).object().value(QLatin1String("cells")).toArray();
        QCOMPARE(cells.size(), 2);
        QVERIFY(cells[0].toObject().value(QLatin1String("success")).toBool());
        const QJsonObject failed = cells[1].toObject();
        QVERIFY(!failed.value(QLatin1String("success")).toBool());
        QVERIFY(failed.value(QLatin1String("errors")).toInt() > 0);
        QVERIFY(!failed.value(QLatin1String("first_error")).toString().isEmpty());

        const Result usage =
            cli({QStringLiteral("build"), matmul(), QStringLiteral("--matrix"), QStringLiteral("-O0|-O0"),
                 QStringLiteral("--device"), QStringLiteral("pocl")});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY2(usage.err.contains("given twice"), usage.err.constData());
    }

    void disassemble()
    {
        Result r = cli({QStringLiteral("build"), matmul(), QStringLiteral("--disassemble"),
                        QStringLiteral("--device"), QStringLiteral("pocl")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("--- Generated code: "), r.out.constData());
        QVERIFY(r.out.contains("(LLVM IR"));
        if (!haveLlvmDis15()) {
            QVERIFY(r.out.contains("install llvm-15"));
            QSKIP("llvm-15 is not installed (packaging/debian-packages.txt lists it)");
        }
        QVERIFY(r.out.contains(" by llvm-dis"));
        QVERIFY(r.out.contains("define "));
        QVERIFY(r.out.contains("@matmul_tiled"));

        r = cli({QStringLiteral("build"), matmul(), QStringLiteral("--disassemble"),
                 QStringLiteral("--device"), QStringLiteral("pocl"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QLatin1String("status")).toString(), QStringLiteral("success"));
        const QJsonArray code = doc.value(QLatin1String("generated_code")).toArray();
        QCOMPARE(code.size(), 1);
        QCOMPARE(code[0].toObject().value(QLatin1String("kind")).toString(), QStringLiteral("LLVM IR"));
        QVERIFY(
            code[0].toObject().value(QLatin1String("text")).toString().contains(QStringLiteral("define ")));

        r = cli({QStringLiteral("build"), matmul(), QStringLiteral("--disassemble"),
                 QStringLiteral("--matrix"), QStringLiteral("-O0|-O1")});
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliGeneratedCode)
#include "tst_cli_generatedcode.moc"
