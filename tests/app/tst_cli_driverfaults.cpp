// clscope-cli against faults inside the drivers (issue 27, docs/reliability.md): the driver's compiler
// running out of stack on a long expression (PoCL: about 250 bytes per term of `1+1+...`), and Oclgrind
// refusing to make one kernel of a program (one that calls __builtin_assume) while the others must still
// build, list and run.
#include "clitest.h"
#include "testicd.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

// `out[0] = 1+1+...+1` with `terms` terms, on 5 lines. Constants, so that the compiler's recursion over the
// expression is all there is: with `a+a+...` PoCL then spends minutes optimising 100,000 additions when
// the kernel is made.
QByteArray deepKernel(int terms)
{
    QByteArray sum = "1";
    sum.reserve(terms * 2);
    for (int i = 1; i < terms; ++i)
        sum += "+1";
    return "// " + QByteArray::number(terms) +
           " terms: clang recurses once per '+'\n"
           "kernel void deep(global int *out)\n{\n    out[0] = " +
           sum + ";\n}\n";
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A .cl with a kernel Oclgrind makes and one it refuses ("Undefined external function: llvm.assume"), as
// CLBlast's Xaxpy file has.
constexpr char kAssumeSource[] = "kernel void good(global float *out)\n"
                                 "{\n"
                                 "    out[get_global_id(0)] = 2.0f * (float)get_global_id(0);\n"
                                 "}\n"
                                 "kernel void bad(global float *out, int n)\n"
                                 "{\n"
                                 "    __builtin_assume(n > 0);\n"
                                 "    out[get_global_id(0)] = (float)n;\n"
                                 "}\n";

} // namespace

class TestCliDriverFaults : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;
    QString m_deep;

    clitest::Result cli(const QStringList &args, const char *cacheName)
    {
        return clitest::run(args, m_dir.filePath(QLatin1String(cacheName)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        // PoCL keeps every program it compiled (~/.cache/pocl): a program built before would not be compiled.
        qputenv("POCL_KERNEL_CACHE", "0");
        // 100,000 terms: PoCL 3.1 needs 24 to 32 MiB of stack for them, more than a main thread's 8 MiB.
        m_deep = m_dir.filePath(QStringLiteral("deep.cl"));
        QVERIFY(writeFile(m_deep, deepKernel(100000)));
    }

    void compilerCrashIsReported_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("build") << QStringLiteral("build");
        QTest::newRow("run") << QStringLiteral("run");
    }

    // A compiler thread of 16 MiB (CLSCOPE_COMPILER_STACK_MIB) is too small for the 100,000 terms: the
    // crash is told as the compiler's, naming the file and its lines, with exit status 1.
    void compilerCrashIsReported()
    {
        QFETCH(QString, command);
        qputenv("CLSCOPE_COMPILER_STACK_MIB", "16");
        QStringList args{command, m_deep, QStringLiteral("--device"), QStringLiteral("pocl")};
        if (command == QStringLiteral("run"))
            args << QStringLiteral("--kernel") << QStringLiteral("deep") << QStringLiteral("--global")
                 << QStringLiteral("1") << QStringLiteral("--arg") << QStringLiteral("out=buffer:int:1");
        const clitest::Result r = cli(args, "crash-cache");
        qunsetenv("CLSCOPE_COMPILER_STACK_MIB");
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
        const QString expected = QStringLiteral("clscope-cli: the compiler crashed (SIGSEGV) building ") +
                                 m_deep +
                                 QStringLiteral(" (5 source lines): its thread's stack of 16 MiB overflowed");
        QVERIFY2(err.startsWith(expected), qPrintable(err));
    }

    // With the compiler thread's own 1 GiB stack, the same program builds and runs: 1+1+... is 100000.
    void deepExpressionRuns()
    {
        const clitest::Result r =
            cli({QStringLiteral("run"), m_deep, QStringLiteral("--device"), QStringLiteral("pocl"),
                 QStringLiteral("--kernel"), QStringLiteral("deep"), QStringLiteral("--global"),
                 QStringLiteral("1"), QStringLiteral("--arg"), QStringLiteral("out=buffer:int:1"),
                 QStringLiteral("--print"), QStringLiteral("out"), QStringLiteral("--json")},
                "deep-cache");
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(QLatin1String("buffers")).toObject().value(QLatin1String("out")).toArray(),
                 (QJsonArray{100000}));
    }

    // Oclgrind cannot make `bad`; `good` builds, is listed with its work-group sizes and runs, and `bad` is
    // listed with its arguments from the source and the driver's error.
    void oneBadKernelOnOclgrind()
    {
        if (!m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QString file = m_dir.filePath(QStringLiteral("assume.cl"));
        QVERIFY(writeFile(file, kAssumeSource));
        const clitest::Result run =
            cli({QStringLiteral("run"), file, QStringLiteral("--device"), QStringLiteral("oclgrind"),
                 QStringLiteral("--kernel"), QStringLiteral("good"), QStringLiteral("--global"),
                 QStringLiteral("4"), QStringLiteral("--arg"), QStringLiteral("out=buffer:float:4"),
                 QStringLiteral("--print"), QStringLiteral("out"), QStringLiteral("--json")},
                "oclgrind-cache");
        QVERIFY2(run.exitCode == 0,
                 qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err))));
        QCOMPARE(QJsonDocument::fromJson(run.out)
                     .object()
                     .value(QLatin1String("buffers"))
                     .toObject()
                     .value(QLatin1String("out"))
                     .toArray(),
                 (QJsonArray{0, 2, 4, 6}));

        const clitest::Result build = cli({QStringLiteral("build"), file, QStringLiteral("--device"),
                                           QStringLiteral("oclgrind"), QStringLiteral("--json")},
                                          "oclgrind-cache");
        QVERIFY2(
            build.exitCode == 0,
            qPrintable(QStringLiteral("exit %1: %2").arg(build.exitCode).arg(QString::fromUtf8(build.err))));
        const QJsonArray kernels =
            QJsonDocument::fromJson(build.out).object().value(QLatin1String("kernels")).toArray();
        QCOMPARE(kernels.size(), 2);
        const QJsonObject good = kernels[0].toObject(), bad = kernels[1].toObject();
        QCOMPARE(good.value(QLatin1String("name")).toString(), QStringLiteral("good"));
        QVERIFY(!good.contains(QLatin1String("error")));
        QCOMPARE(good.value(QLatin1String("work_groups")).toArray().size(), 1);
        QCOMPARE(bad.value(QLatin1String("name")).toString(), QStringLiteral("bad"));
        QCOMPARE(bad.value(QLatin1String("error")).toString(),
                 QStringLiteral("clCreateKernel failed: INVALID_KERNEL_NAME"));
        QCOMPARE(bad.value(QLatin1String("arg_info")).toString(), QStringLiteral("source"));
        QCOMPARE(bad.value(QLatin1String("args")).toArray().size(), 2);
        QVERIFY(bad.value(QLatin1String("work_groups")).toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliDriverFaults)
#include "tst_cli_driverfaults.moc"
