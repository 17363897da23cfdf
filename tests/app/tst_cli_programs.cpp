// Programs as real hosts create them (issue 14): a device binary that pyopencl built (program.binaries)
// runs from clscope-cli run --binary with the same result as its source; SPIR-V is told by its magic number,
// not by the file's name; built-in kernels (--builtin) build as pyopencl's create_with_built_in_kernels
// builds them on the same device, and a name the device lacks is refused with what it has; several sources
// make one program, as strings of clCreateProgramWithSource or compiled apart and linked (--link), on PoCL
// and on Oclgrind, and a diagnostic names the file it is in.
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

const QString kPython = QStringLiteral("/usr/bin/python3");

QString vectorAdd()
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/../../resources/kernels/vector_add.cl");
}

QString multi(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/run/multi/") + QLatin1String(name);
}

QJsonArray diagnosticsOf(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object().value(QLatin1String("diagnostics")).toArray();
}

} // namespace

class TestCliPrograms : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;

    Result cli(const QStringList &args, const QString &device = QStringLiteral("pocl")) const
    {
        return clitest::run(args + QStringList{QStringLiteral("--device"), device},
                            m_dir.filePath(QStringLiteral("cache")), 180000);
    }

    // Runs a pyopencl snippet on PoCL; skips the test when pyopencl is not there.
    QByteArray python(const QString &code, bool *ok) const
    {
        QProcess py;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYOPENCL_CTX"), QStringLiteral("port"));
        env.remove(QStringLiteral("PYOPENCL_TEST"));
        env.insert(QStringLiteral("PYOPENCL_NO_CACHE"), QStringLiteral("1"));
        py.setProcessEnvironment(env);
        py.start(kPython, {QStringLiteral("-c"), code});
        *ok = py.waitForFinished(120000) && py.exitCode() == 0;
        if (!*ok)
            qWarning("%s", py.readAllStandardError().constData());
        return py.readAllStandardOutput().trimmed();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The CLI inherits OCL_ICD_VENDORS: PoCL and Oclgrind.
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        const Result probe = cli({QStringLiteral("info")});
        if (probe.exitCode != 0)
            QSKIP("no PoCL device");
        bool ok = false;
        python(QStringLiteral("import pyopencl"), &ok);
        if (!ok)
            QSKIP("pyopencl is not installed (python3-pyopencl)");
    }

    void binaryFromPyopencl()
    {
        const QString binary = m_dir.filePath(QStringLiteral("vector_add.bin"));
        bool ok = false;
        python(QStringLiteral("import pyopencl as cl\n"
                              "ctx = cl.create_some_context(interactive=False)\n"
                              "p = cl.Program(ctx, open('%1').read()).build()\n"
                              "open('%2', 'wb').write(p.binaries[0])\n")
                   .arg(vectorAdd(), binary),
               &ok);
        QVERIFY(ok);
        const QStringList launch{QStringLiteral("--kernel"), QStringLiteral("vector_add"),
                                 QStringLiteral("--global"), QStringLiteral("64"),
                                 QStringLiteral("--arg"),    QStringLiteral("a=buffer:float:64:iota"),
                                 QStringLiteral("--arg"),    QStringLiteral("b=buffer:float:64:fill=2"),
                                 QStringLiteral("--arg"),    QStringLiteral("c=buffer:float:64"),
                                 QStringLiteral("--arg"),    QStringLiteral("n=uint:64"),
                                 QStringLiteral("--print"),  QStringLiteral("c"),
                                 QStringLiteral("--json")};
        const Result fromBinary =
            cli(QStringList{QStringLiteral("run"), binary, QStringLiteral("--binary")} + launch);
        QVERIFY2(fromBinary.exitCode == 0, fromBinary.err.constData());
        const Result fromSource = cli(QStringList{QStringLiteral("run"), vectorAdd()} + launch);
        QCOMPARE(fromSource.exitCode, 0);
        const auto c = [](const Result &r) {
            return QJsonDocument::fromJson(r.out)
                .object()
                .value(QLatin1String("buffers"))
                .toObject()
                .value(QLatin1String("c"));
        };
        QCOMPARE(c(fromBinary), c(fromSource));
        QCOMPARE(c(fromBinary).toArray().at(63).toDouble(), 65.0);
        // The same bytes without --binary are not OpenCL C: refused before the compiler sees them (they hold
        // a NUL byte, named with its offset), bad input, exit 2.
        const Result asSource = cli({QStringLiteral("build"), binary});
        QCOMPARE(asSource.exitCode, 2);
        QVERIFY2(asSource.err.contains("it holds a NUL byte at offset"), asSource.err.constData());
    }

    // SPIR-V by its magic number whatever the name: PoCL here takes no SPIR-V, and says so; a .spv file that
    // holds OpenCL C builds as OpenCL C.
    void spirvByMagicNumber()
    {
        const QString named = m_dir.filePath(QStringLiteral("kernel.cl"));
        QFile f(named);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const unsigned char header[20] = {0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 0, 0,
                                          0,    0,    5,    0,    0, 0, 0, 0, 0, 0};
        f.write(reinterpret_cast<const char *>(header), sizeof header);
        f.close();
        Result r = cli({QStringLiteral("build"), named});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("does not accept SPIR-V"), r.err.constData());
        const QString spv = m_dir.filePath(QStringLiteral("text.spv"));
        QVERIFY(QFile::copy(vectorAdd(), spv));
        r = cli({QStringLiteral("build"), spv, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("status")).toString(),
                 QStringLiteral("success"));
    }

    void builtInKernels()
    {
        // A name the device does not list: refused before the driver sees it, with the names it has.
        Result r =
            cli({QStringLiteral("build"), QStringLiteral("--builtin"), QStringLiteral("no.such.kernel")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("no built-in kernel no.such.kernel on this device (it has: "),
                 r.out.constData());
        r = cli({QStringLiteral("build"), QStringLiteral("--builtin"), QStringLiteral("x"), vectorAdd()});
        QCOMPARE(r.exitCode, 2);
        // Every kernel the device lists builds as it builds for pyopencl (Debian's PoCL lists built-in
        // kernels whose source it does not ship: both fail the same way there).
        bool ok = false;
        const QByteArray listed = python(QStringLiteral("import pyopencl as cl\n"
                                                        "ctx = cl.create_some_context(interactive=False)\n"
                                                        "print(ctx.devices[0].built_in_kernels)\n"),
                                         &ok);
        QVERIFY(ok);
        if (listed.isEmpty())
            QSKIP("the device lists no built-in kernels");
        const QString first = QString::fromUtf8(listed).split(u';').first().trimmed();
        const QByteArray pyopencl =
            python(QStringLiteral("import pyopencl as cl, pyopencl._cl as _cl\n"
                                  "ctx = cl.create_some_context(interactive=False)\n"
                                  "p = _cl._Program.create_with_built_in_kernels(ctx, ctx.devices, '%1')\n"
                                  "try:\n"
                                  "    p.build('')\n"
                                  "    print('built', _cl.Kernel(p, '%1').num_args)\n"
                                  "except cl.Error as e:\n"
                                  "    print('failed')\n")
                       .arg(first),
                   &ok);
        QVERIFY(ok);
        r = cli({QStringLiteral("build"), QStringLiteral("--builtin"), first, QStringLiteral("--json")});
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        if (pyopencl == "failed") {
            QCOMPARE(r.exitCode, 1);
            QCOMPARE(j.value(QLatin1String("status")).toString(), QStringLiteral("failure"));
        } else {
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonArray kernels = j.value(QLatin1String("kernels")).toArray();
            QCOMPARE(kernels.size(), 1);
            QCOMPARE(kernels.at(0).toObject().value(QLatin1String("name")).toString(), first);
            QCOMPARE(QByteArray("built ") +
                         QByteArray::number(
                             kernels.at(0).toObject().value(QLatin1String("args")).toArray().size()),
                     pyopencl);
        }
    }

    void severalSources_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("link");
        QTest::newRow("pocl") << QStringLiteral("pocl") << false;
        QTest::newRow("pocl --link") << QStringLiteral("pocl") << true;
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind") << false;
        QTest::newRow("oclgrind --link") << QStringLiteral("oclgrind") << true;
    }
    // main.cl's kernel calls scale() of helpers.cl: one program of both files, each kernel of either.
    void severalSources()
    {
        QFETCH(QString, device);
        QFETCH(bool, link);
        if (device == QStringLiteral("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QStringList how = link ? QStringList{QStringLiteral("--link")} : QStringList{};
        const Result built = cli(QStringList{QStringLiteral("build"), multi("main.cl"), multi("helpers.cl"),
                                             QStringLiteral("--json")} +
                                     how,
                                 device);
        QVERIFY2(built.exitCode == 0, built.out.constData());
        QStringList kernels;
        for (const QJsonValue &k :
             QJsonDocument::fromJson(built.out).object().value(QLatin1String("kernels")).toArray())
            kernels << k.toObject().value(QLatin1String("name")).toString();
        kernels.sort();
        QCOMPARE(kernels, (QStringList{QStringLiteral("offset"), QStringLiteral("scaled")}));

        const Result r =
            cli(QStringList{QStringLiteral("run"), multi("main.cl"), multi("helpers.cl"),
                            QStringLiteral("--kernel"), QStringLiteral("scaled"), QStringLiteral("--global"),
                            QStringLiteral("8"), QStringLiteral("--arg"),
                            QStringLiteral("in=buffer:float:8:iota"), QStringLiteral("--arg"),
                            QStringLiteral("out=buffer:float:8"), QStringLiteral("--arg"),
                            QStringLiteral("k=float:2.5"), QStringLiteral("--print"), QStringLiteral("out"),
                            QStringLiteral("--json")} +
                    how,
                device);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray out = QJsonDocument::fromJson(r.out)
                                   .object()
                                   .value(QLatin1String("buffers"))
                                   .toObject()
                                   .value(QLatin1String("out"))
                                   .toArray();
        QCOMPARE(out.size(), 8);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(out.at(i).toDouble(), i * 2.5 + 1.0);
    }

    void diagnosticsNameTheirFile_data()
    {
        QTest::addColumn<bool>("link");
        QTest::newRow("sources") << false;
        QTest::newRow("--link") << true;
    }
    // The error is on line 5 of the second file: the diagnostic says that file and line (the strings of
    // clCreateProgramWithSource are one text to the driver: a #line marker starts each later file).
    void diagnosticsNameTheirFile()
    {
        QFETCH(bool, link);
        const QStringList how = link ? QStringList{QStringLiteral("--link")} : QStringList{};
        const Result r = cli(QStringList{QStringLiteral("build"), multi("main.cl"),
                                         multi("broken_helpers.cl"), QStringLiteral("--json")} +
                             how);
        QCOMPARE(r.exitCode, 1);
        bool found = false;
        for (const QJsonValue &v : diagnosticsOf(r.out)) {
            const QJsonObject d = v.toObject();
            if (d.value(QLatin1String("severity")).toString() != QStringLiteral("error"))
                continue;
            QVERIFY2(d.value(QLatin1String("file")).toString().endsWith(QStringLiteral("broken_helpers.cl")),
                     r.out.constData());
            QCOMPARE(d.value(QLatin1String("line")).toInt(), 5);
            found = true;
        }
        QVERIFY2(found, r.out.constData());
        // In text, clang's form: the file, the line and the column.
        const Result text =
            cli(QStringList{QStringLiteral("build"), multi("main.cl"), multi("broken_helpers.cl")} + how);
        QVERIFY2(text.out.contains("broken_helpers.cl:5:"), text.out.constData());
    }

    // --link with main.cl alone: it compiles, and the link fails on the missing scale(); the failure says so.
    void linkFailureIsReported()
    {
        const Result r = cli(
            {QStringLiteral("build"), multi("main.cl"), QStringLiteral("--link"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QLatin1String("status")).toString(), QStringLiteral("failure"));
        QVERIFY2(r.out.contains("scale"), r.out.constData());
        // Several files are OpenCL C only: a binary or SPIR-V is one file.
        QCOMPARE(
            cli({QStringLiteral("build"), multi("main.cl"), multi("helpers.cl"), QStringLiteral("--binary")})
                .exitCode,
            2);
        QCOMPARE(cli({QStringLiteral("build"), QStringLiteral("--builtin"), QStringLiteral("x"),
                      QStringLiteral("--link")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestCliPrograms)
#include "tst_cli_programs.moc"
