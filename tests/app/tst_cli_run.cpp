// clscope-cli run on PoCL: the JSON contract (kernel, global, local, offset, device, profile, buffers,
// duration_ms) with buffers compared against values computed here (64-bit integers exactly, vectors
// flattened), text output, repeats, offsets, .npy input, --trace, and every usage error as one stderr line
// naming the argument, kernel or limit with exit 2 (1 for a failed build or a driver error).
#include "clitest.h"
#include "testicd.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using clitest::Result;
using clitest::words;

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/run/") + QLatin1String(name);
}

QString kernelPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/../../resources/kernels/") + QLatin1String(name);
}

} // namespace

class TestCliRun : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;

    Result run(const QStringList &args) const
    {
        // PoCL unless the row picks a device.
        const QStringList device = args.contains(QStringLiteral("--device"))
                                       ? QStringList{}
                                       : QStringList{QStringLiteral("--device"), QStringLiteral("pocl")};
        clitest::Options options;
        options.cacheDir = m_cache.path();
        options.unset = clitest::buildVariables();
        options.timeoutMs = 180000;
        return clitest::run(QStringList{QStringLiteral("run")} + args + device, options);
    }

    QJsonObject runJson(const QStringList &args) const
    {
        const Result r = run(args + QStringList{QStringLiteral("--json")});
        if (r.exitCode != 0)
            qWarning("exit %d: %s", r.exitCode, r.err.constData());
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        if (error.error != QJsonParseError::NoError)
            qWarning("bad JSON: %s", r.out.constData());
        return doc.object();
    }

    static QStringList vectorAdd(int n, const char *kernel = "vector_add", const char *global = nullptr)
    {
        const QString count = QString::number(n);
        return QStringList{kernelPath("vector_add.cl"),
                           QStringLiteral("--kernel"),
                           QLatin1String(kernel),
                           QStringLiteral("--global"),
                           global ? QLatin1String(global) : count,
                           QStringLiteral("--arg"),
                           QStringLiteral("a=buffer:float:") + count + QStringLiteral(":iota"),
                           QStringLiteral("--arg"),
                           QStringLiteral("b=buffer:float:") + count + QStringLiteral(":fill=2"),
                           QStringLiteral("--arg"),
                           QStringLiteral("c=buffer:float:") + count,
                           QStringLiteral("--arg"),
                           QStringLiteral("n=uint:") + count};
    }

    static QStringList types(const char *kernel, const char *global, const char *rest)
    {
        return QStringList{dataPath("types.cl"), QStringLiteral("--kernel"), QLatin1String(kernel),
                           QStringLiteral("--global"), QLatin1String(global)} +
               words(rest);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        // The CLI inherits OCL_ICD_VENDORS: PoCL and Oclgrind (whose argument checks are strict).
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        const Result probe = run(vectorAdd(4));
        if (probe.exitCode != 0)
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(probe.err)));
    }

    void vectorAddJson()
    {
        const QJsonObject j = runJson(vectorAdd(1024) + words("--print c --repeat 3"));
        QCOMPARE(j.keys().size(), 9);
        QCOMPARE(j.value(QLatin1String("printf")).toString(), QString()); // vector_add prints nothing
        QCOMPARE(j.value(QLatin1String("kernel")).toString(), QStringLiteral("vector_add"));
        QCOMPARE(j.value(QLatin1String("global")).toArray(), QJsonArray{1024});
        QVERIFY(j.value(QLatin1String("local")).isNull());
        QCOMPARE(j.value(QLatin1String("offset")).toArray(), QJsonArray{0});
        QVERIFY(!j.value(QLatin1String("device")).toString().isEmpty());
        QVERIFY(j.value(QLatin1String("duration_ms")).toDouble() > 0);
        const QJsonArray profile = j.value(QLatin1String("profile")).toArray();
        QCOMPARE(profile.size(), 3);
        for (const QJsonValue &launch : profile) {
            const QJsonObject o = launch.toObject();
            QCOMPARE(o.keys(), (QStringList{QStringLiteral("end"), QStringLiteral("queued"),
                                            QStringLiteral("start"), QStringLiteral("submit")}));
            QVERIFY(o.value(QLatin1String("queued")).toInteger() > 0);
            QVERIFY(o.value(QLatin1String("queued")).toInteger() <=
                    o.value(QLatin1String("submit")).toInteger());
            QVERIFY(o.value(QLatin1String("start")).toInteger() <= o.value(QLatin1String("end")).toInteger());
        }
        const QJsonObject buffers = j.value(QLatin1String("buffers")).toObject();
        QCOMPARE(buffers.keys(), QStringList{QStringLiteral("c")});
        const QJsonArray c = buffers.value(QLatin1String("c")).toArray();
        QCOMPARE(c.size(), 1024);
        for (int i = 0; i < 1024; ++i)
            QCOMPARE(c[i].toDouble(), double(i) + 2.0);
    }

    // NaN and the infinities are the strings "nan", "inf" and "-inf" in JSON (they were null), float and
    // double.
    void nonFiniteAsStrings()
    {
        const QJsonObject j = runJson(
            QStringList{dataPath("conventions.cl")} +
            words("--kernel nonfinite --global 4 --arg f=buffer:float:4 --arg d=buffer:double:4 --print f "
                  "--print d"));
        const QJsonArray expected{QStringLiteral("inf"), QStringLiteral("-inf"), QStringLiteral("nan"), 1.5};
        const QJsonObject buffers = j.value(QLatin1String("buffers")).toObject();
        QCOMPARE(buffers.value(QLatin1String("f")).toArray(), expected);
        QCOMPARE(buffers.value(QLatin1String("d")).toArray(), expected);
    }

    // --save NAME=PATH writes the buffer as .npy (numpy reads it back) instead of printing it.
    void saveWritesNpy()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.npy"));
        const QJsonObject j =
            runJson(vectorAdd(1000) + QStringList{QStringLiteral("--save"), QStringLiteral("c=") + path});
        QCOMPARE(j.value(QLatin1String("buffers")).toObject().size(), 0);
        QCOMPARE(j.value(QLatin1String("saved")).toObject().value(QLatin1String("c")).toString(), path);
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"),
                  QStringLiteral("import numpy, sys; a = numpy.load(sys.argv[1]); "
                                 "print(a.dtype, a.shape, int((a == numpy.arange(1000) + 2).all()))"),
                  path});
        QVERIFY(py.waitForFinished(60000));
        if (py.exitCode() != 0)
            QSKIP("numpy is not installed");
        QCOMPARE(py.readAllStandardOutput().trimmed(), QByteArray("float32 (1000,) 1"));
        // A file that cannot be written fails the run (exit 1) naming it; a malformed --save is a usage
        // error.
        Result r = run(vectorAdd(8) + words("--save c=/nonexistent-folder/c.npy"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("clscope-cli: --save c=/nonexistent-folder/c.npy: cannot write"),
                 r.err.constData());
        r = run(vectorAdd(8) + words("--save c"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("clscope-cli: --save c needs the form NAME=PATH"), r.err.constData());
    }

    // A kernel's printf never lands in front of the JSON document: stdout is one document, the lines are in
    // its printf key; the text output prints them after the run. PoCL writes them when the command
    // completes, Oclgrind while the kernel runs.
    void printfApart_data() { argumentNamesOnEveryDevice_data(); }

    void printfApart()
    {
        QFETCH(QString, device);
        if (device == QStringLiteral("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QStringList args =
            QStringList{dataPath("conventions.cl")} +
            words("--kernel hello --global 3 --arg out=buffer:int:3 --print out --device") +
            QStringList{device};
        const Result r = run(args + words("--json"));
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error{};
        const QJsonObject j = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, r.out.constData());
        // Oclgrind runs work-items on several threads: the lines come in any order, each whole.
        QStringList lines = j.value(QLatin1String("printf")).toString().split(u'\n');
        QCOMPARE(lines.takeLast(), QString());
        lines.sort();
        QCOMPARE(lines, (QStringList{QStringLiteral("item 0 of 3"), QStringLiteral("item 1 of 3"),
                                     QStringLiteral("item 2 of 3")}));
        QCOMPARE(j.value(QLatin1String("buffers")).toObject().value(QLatin1String("out")).toArray(),
                 (QJsonArray{0, 1, 2}));
        const Result text = run(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.startsWith("Kernel hello on "), text.out.constData());
        QVERIFY2(text.out.contains("out (3 int): 0 1 2\nprintf output:\nitem "), text.out.constData());
        QCOMPARE(text.out.count("item "), 3);
    }

    // One command line works on PoCL and Oclgrind: the source's names (PoCL reports step as _cl_step), PoCL's
    // spelling, and #N by position all name the same argument; build lists the source's names.
    void argumentNamesOnEveryDevice_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("pocl") << QStringLiteral("pocl");
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind");
    }

    void argumentNamesOnEveryDevice()
    {
        QFETCH(QString, device);
        if (device == QStringLiteral("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QStringList base = QStringList{dataPath("conventions.cl")} +
                                 words("--kernel ramp --global 8 --arg out=buffer:float:8 --device") +
                                 QStringList{device};
        const QJsonArray expected{0.5, 0.5, 1, 1.5, 2, 2.5, 2.5, 2.5};
        for (const char *names :
             {"step=0.5 length=uint:8 min=0.5 max=2.5",
              "_cl_step=0.5 _cl_length=uint:8 _cl_min=0.5 _cl_max=2.5", "#1=0.5 #2=uint:8 #3=0.5 #4=2.5"}) {
            QStringList args = base;
            for (const QString &value : words(names))
                args << QStringLiteral("--arg") << value;
            const QJsonObject j = runJson(args + words("--print #0"));
            QVERIFY2(j.value(QLatin1String("buffers")).toObject().value(QLatin1String("#0")).toArray() ==
                         expected,
                     names);
        }
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLSCOPE_CACHE_DIR"), m_cache.path());
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(CLSCOPE_CLI_PATH),
                QStringList{QStringLiteral("build"), dataPath("conventions.cl"), QStringLiteral("--json"),
                            QStringLiteral("--device"), device});
        QVERIFY(p.waitForFinished(180000));
        const QJsonArray args = QJsonDocument::fromJson(p.readAllStandardOutput())
                                    .object()
                                    .value(QLatin1String("kernels"))
                                    .toArray()
                                    .at(0)
                                    .toObject()
                                    .value(QLatin1String("args"))
                                    .toArray();
        QStringList names;
        for (const QJsonValue &a : args)
            names << a.toObject().value(QLatin1String("name")).toString();
        QCOMPARE(names, (QStringList{QStringLiteral("out"), QStringLiteral("step"), QStringLiteral("length"),
                                     QStringLiteral("min"), QStringLiteral("max")}));
        // The same value under two of its names is given twice.
        const Result twice = run(base + words("--arg step=1 --arg _cl_step=2 --arg length=uint:8 --arg min=0 "
                                              "--arg max=1"));
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.contains("given twice"), twice.err.constData());
    }

    void integersExactAndVectorsFlat()
    {
        // Integers are JSON integers, 64-bit values exactly; floats are doubles.
        const Result longs =
            run(types("add_long", "4",
                      "--arg in=buffer:long:4:iota=9007199254740993:2 --arg out=buffer:long:4 "
                      "--arg k=long:2 --print out --json"));
        QCOMPARE(longs.exitCode, 0);
        const QJsonArray out = QJsonDocument::fromJson(longs.out)
                                   .object()
                                   .value(QLatin1String("buffers"))
                                   .toObject()
                                   .value(QLatin1String("out"))
                                   .toArray();
        QCOMPARE(out.size(), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(out[i].toInteger(), 9007199254740995LL + 2 * i);
        QVERIFY(longs.out.contains("9007199254740995,") || longs.out.contains("9007199254740995\n"));

        const Result top =
            run(types("echo_scalars", "1",
                      "--arg ints=buffer:long:8 --arg floats=buffer:double:2 --arg c=0 --arg uc=0 "
                      "--arg s=0 --arg us=0 --arg i=0 --arg u=4294967295 --arg l=-9223372036854775808 "
                      "--arg ul=0 --arg f=0.5 --arg d=0.1 --print ints --print floats --json"));
        QCOMPARE(top.exitCode, 0);
        QVERIFY(top.out.contains("-9223372036854775808"));
        QVERIFY(top.out.contains("4294967295"));
        const QJsonObject buffers =
            QJsonDocument::fromJson(top.out).object().value(QLatin1String("buffers")).toObject();
        QCOMPARE(buffers.value(QLatin1String("ints")).toArray()[6].toInteger(),
                 std::numeric_limits<qint64>::min());
        QCOMPARE(buffers.value(QLatin1String("floats")).toArray(), (QJsonArray{0.5, 0.1}));

        const QJsonObject f4 = runJson(
            types("scale_float4", "2",
                  "--arg in=buffer:float4:2:iota --arg out=buffer:float4:2 --arg s=1,2,3,4 --print out"));
        QCOMPARE(f4.value(QLatin1String("buffers")).toObject().value(QLatin1String("out")).toArray(),
                 (QJsonArray{0, 2, 6, 12, 4, 10, 18, 28}));
        const QJsonObject f3 = runJson(types(
            "add_float3", "2",
            "--arg in=buffer:float3:2:iota --arg out=buffer:float3:2 --arg s=float3:10,20,30 --print out"));
        QCOMPARE(f3.value(QLatin1String("buffers")).toObject().value(QLatin1String("out")).toArray(),
                 (QJsonArray{10, 21, 32, 13, 24, 35}));
    }

    void offsetAndLocal()
    {
        const QJsonObject j =
            runJson(types("grid", "4,3",
                          "--offset 2,1 --local 2,1 --arg out=buffer:int:40:fill=-1 --arg width=8 "
                          "--print out"));
        QCOMPARE(j.value(QLatin1String("global")).toArray(), (QJsonArray{4, 3}));
        QCOMPARE(j.value(QLatin1String("local")).toArray(), (QJsonArray{2, 1}));
        QCOMPARE(j.value(QLatin1String("offset")).toArray(), (QJsonArray{2, 1}));
        const QJsonArray out =
            j.value(QLatin1String("buffers")).toObject().value(QLatin1String("out")).toArray();
        QCOMPARE(out.size(), 40);
        for (int y = 0; y < 5; ++y) {
            for (int x = 0; x < 8; ++x) {
                const bool inside = x >= 2 && x < 6 && y >= 1 && y < 4;
                QCOMPARE(out[y * 8 + x].toInteger(), inside ? y * 1000 + x : -1);
            }
        }
    }

    void npyInputAndReduction()
    {
        const QJsonObject j =
            runJson(QStringList{kernelPath("vector_add.cl")} +
                    words("--kernel vector_add --global 8 --arg b=buffer:float:8:fill=0.25 "
                          "--arg c=buffer:float:8 --arg n=8 --print c --arg") +
                    QStringList{QStringLiteral("a=buffer:float:8:file=") + dataPath("iota_f4.npy")});
        QCOMPARE(j.value(QLatin1String("buffers")).toObject().value(QLatin1String("c")).toArray(),
                 (QJsonArray{0.25, 1.25, 2.25, 3.25, 4.25, 5.25, 6.25, 7.25}));

        const QJsonObject r = runJson(
            QStringList{kernelPath("reduction.cl")} +
            words("--kernel reduce_sum --global 256 --local 64 --arg input=buffer:float:256:fill=0.5 "
                  "--arg partial=buffer:float:4 --arg scratch=local:256 --arg n=256 --print partial"));
        QCOMPARE(r.value(QLatin1String("buffers")).toObject().value(QLatin1String("partial")).toArray(),
                 (QJsonArray{32, 32, 32, 32}));
    }

    void textOutputAndTrace()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("trace.json"));
        const Result r = run(vectorAdd(8) + words("--print c --print a --trace") + QStringList{trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("c (8 float): 2 3 4 5 6 7 8 9\n"), r.out.constData());
        QVERIFY(r.out.contains("a (8 float): 0 1 2 3 4 5 6 7\n"));
        QVERIFY(r.out.contains("Launch 1: "));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray events =
            QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("traceEvents")).toArray();
        QStringList names;
        QList<QJsonObject> counters;
        double firstSlice = 1e300, lastSlice = -1e300, firstCounter = 1e300, lastCounter = -1e300;
        for (const QJsonValue &e : events) {
            const QJsonObject o = e.toObject();
            const QString ph = o.value(QLatin1String("ph")).toString();
            const double ts = o.value(QLatin1String("ts")).toDouble();
            if (ph == QLatin1String("X")) {
                names << o.value(QLatin1String("name")).toString();
                firstSlice = std::min(firstSlice, ts);
                lastSlice = std::max(lastSlice, ts + o.value(QLatin1String("dur")).toDouble());
            } else if (ph == QLatin1String("C")) {
                counters << o.value(QLatin1String("args")).toObject();
                firstCounter = std::min(firstCounter, ts);
                lastCounter = std::max(lastCounter, ts);
            }
        }
        // Commands and counters share the host clock: the pool's samples (a coarse clock, a few ms) sit
        // around the commands, not a clock offset away (PoCL's device clock runs ~0.2 s from steady_clock).
        const double slackUs = 20000;
        QVERIFY2(firstCounter >= firstSlice - slackUs && lastCounter <= lastSlice + slackUs,
                 qPrintable(QStringLiteral("counters [%1, %2] us, commands [%3, %4] us")
                                .arg(firstCounter)
                                .arg(lastCounter)
                                .arg(firstSlice)
                                .arg(lastSlice)));
        // The pool's counters: three 32-byte buffers taken (active), then all given back (held).
        QVERIFY(!counters.isEmpty());
        double peakActive = 0;
        for (const QJsonObject &c : counters)
            peakActive = std::max(peakActive, c.value(QLatin1String("active_bytes")).toDouble());
        QCOMPARE(peakActive, 3 * 32.0);
        QCOMPARE(counters.last().value(QLatin1String("active_bytes")).toDouble(), 0.0);
        QVERIFY(counters.last().value(QLatin1String("held_bytes")).toDouble() >= 3 * 32.0);
        QVERIFY2(names.contains(QStringLiteral("vector_add")) && names.contains(QStringLiteral("read c")) &&
                     names.contains(QStringLiteral("write a")),
                 qPrintable(names.join(u',')));
    }

    void failedBuild()
    {
        const Result r = run(QStringList{QStringLiteral(CLSCOPE_TEST_DATA "/build/error.cl")} +
                             words("--kernel k --global 1"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("undeclared identifier"));
        QVERIFY(r.err.trimmed().endsWith("use of undeclared identifier 'x')"));
        QVERIFY(r.out.isEmpty());
    }

    void samplesRunFromTheirOwnLaunch_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("buffer");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("expected"); // "iota+2": element i is i + 2; else every element equals it
        QTest::newRow("vector_add") << "vector_add.cl"
                                    << "c" << 1024 << "iota+2";
        QTest::newRow("reduction") << "reduction.cl"
                                   << "partial" << 16 << "256";
        QTest::newRow("matmul_tiled") << "matmul_tiled.cl"
                                      << "C" << 65536 << "512";
        QTest::newRow("mandelbrot") << "mandelbrot.cl"
                                    << "iterations" << 262144 << "";
    }

    // No --kernel, --global or --arg: the file's `// clscope-run:` lines say how to run it.
    void samplesRunFromTheirOwnLaunch()
    {
        QFETCH(QString, sample);
        QFETCH(QString, buffer);
        QFETCH(int, count);
        QFETCH(QString, expected);
        const QJsonObject j = runJson(QStringList{kernelPath(sample.toLatin1().constData())});
        const QJsonArray values = j.value(QStringLiteral("buffers")).toObject().value(buffer).toArray();
        QCOMPARE(values.size(), count);
        for (int i = 0; i < count; ++i) {
            const double v = values.at(i).toDouble();
            if (expected == QStringLiteral("iota+2"))
                QCOMPARE(v, double(i) + 2);
            else if (!expected.isEmpty())
                QCOMPARE(v, expected.toDouble());
        }
        if (expected
                .isEmpty()) { // Mandelbrot: the point (0, 0) is inside the set, (-2.5, -1) escapes at once
            const int x0 = int(2.5 / 3.5 * 512), y0 = 256;
            QCOMPARE(values.at(y0 * 512 + x0).toDouble(), 256.0);
            QCOMPARE(values.at(0).toDouble(), 1.0);
        }
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message"); // the one stderr line starts with this
        const QString npy = dataPath("iota_f4.npy");
        auto va = [](const char *extra) { return vectorAdd(8) + words(extra); };
        auto vaWithout = [](const QString &name, const char *extra) {
            QStringList a = vectorAdd(8);
            qsizetype i = 0;
            while (i < a.size() && !a[i].startsWith(name + u'='))
                ++i;
            a.remove(i - 1, 2);
            return a + words(extra);
        };
        QTest::newRow("unknown kernel")
            << vectorAdd(8, "nope") << 2 << "clscope-cli: unknown kernel 'nope' (kernels: vector_add)";
        QTest::newRow("missing argument")
            << vaWithout(QStringLiteral("n"), "") << 2
            << "clscope-cli: missing argument 'n' (uint) of kernel vector_add: give "
               "n=uint:VALUE";
        QTest::newRow("unparsable value") << vaWithout(QStringLiteral("n"), "--arg n=uint:abc") << 2
                                          << "clscope-cli: n: 'abc' is not a valid uint";
        QTest::newRow("out of range") << vaWithout(QStringLiteral("n"), "--arg n=uint:-1") << 2
                                      << "clscope-cli: n: -1 is out of range for uint (0..4294967295)";
        QTest::newRow("wrong vector count")
            << types("scale_float4", "2", "--arg in=buffer:float4:2 --arg out=buffer:float4:2 --arg s=1,2,3")
            << 2 << "clscope-cli: s: float4 needs 4 values, got 3 ('1,2,3')";
        QTest::newRow("scalar for a pointer")
            << vaWithout(QStringLiteral("a"), "--arg a=float:1") << 2
            << "clscope-cli: a: a value was given for the __global const float* argument "
               "(use a=buffer:float:COUNT[:INIT])";
        QTest::newRow("wrong buffer type")
            << vaWithout(QStringLiteral("a"), "--arg a=buffer:int:8") << 2
            << "clscope-cli: a: a buffer of int was given for the __global const float* argument";
        QTest::newRow("local over the device limit")
            << (QStringList{kernelPath("vector_add.cl")} +
                words("--kernel vector_add --global 8192 --local 8192 --arg a=buffer:float:8 --arg "
                      "b=buffer:float:8 "
                      "--arg c=buffer:float:8 --arg n=8"))
            << 2 << "clscope-cli: local size 8192 exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE (";
        QTest::newRow("not divisible")
            << va("--local 3") << 2
            << "clscope-cli: global size 8 is not a multiple of local size 3 in dimension 0";
        QTest::newRow("file not found")
            << vaWithout(QStringLiteral("a"), "--arg a=buffer:float:8:file=/nonexistent/a.npy") << 2
            << "clscope-cli: a: file '/nonexistent/a.npy' not found";
        QTest::newRow(".npy of another size")
            << (vaWithout(QStringLiteral("a"), "--arg") +
                QStringList{QStringLiteral("a=buffer:float:4:file=") + npy})
            << 2
            << QStringLiteral("clscope-cli: a: ") + npy +
                   QStringLiteral(": shape (8,) holds 8 values, the buffer needs 4 (4 float)");
        QTest::newRow("unknown argument")
            << va("--arg x=int:1") << 2
            << "clscope-cli: kernel vector_add has no argument 'x' (arguments: a, b, c, n)";
        QTest::newRow("duplicate --arg")
            << va("--arg n=uint:9") << 2 << "clscope-cli: n: the argument is given twice";
        QTest::newRow("malformed spec")
            << va("--arg n") << 2 << "clscope-cli: argument 'n' needs the form NAME=VALUE";
        QTest::newRow("unknown type") << vaWithout(QStringLiteral("n"), "--arg n=uint32:8") << 2
                                      << "clscope-cli: n: unknown type 'uint32' (types: ";
        QTest::newRow("bad global") << vectorAdd(8, "vector_add", "8,x") << 2
                                    << "clscope-cli: global size '8,x' is not a list of sizes (X[,Y[,Z]])";
        QTest::newRow("unknown --print")
            << va("--print zz") << 2
            << "clscope-cli: cannot read back 'zz': kernel vector_add has no argument of "
               "that name";
        QTest::newRow("--print of a value")
            << va("--print n") << 2
            << "clscope-cli: n: only buffers and images can be read back (n is a value argument)";
        QTest::newRow("--repeat 0") << va("--repeat 0") << 2 << "clscope-cli: --repeat 0 must be at least 1";
        QTest::newRow("missing file") << words("/nonexistent/k.cl --kernel k --global 1") << 2
                                      << "clscope-cli: cannot read /nonexistent/k.cl: no such file";
        QTest::newRow("missing --kernel") << (QStringList{kernelPath("vector_add.cl")} + words("--global 8"))
                                          << 2 << "clscope-cli: --kernel is required";
        QTest::newRow("no launch in the file")
            << QStringList{dataPath("types.cl")} << 2 << "clscope-cli: no --kernel given and";
        QTest::newRow("--kernel without a launch")
            << (QStringList{kernelPath("vector_add.cl")} + words("--kernel nope")) << 2
            << "clscope-cli: no --global for kernel nope given";
        QTest::newRow("image argument")
            << types("with_image", "1", "--arg out=buffer:int:1") << 2
            << "clscope-cli: missing argument 'img' (read_only image2d_t) of kernel with_image: give "
               "img=image2d:RGBA:UNORM_INT8:WxH[:INIT]";
        // A struct's size is the device's (sizeof asked by a probe): a bytesN of another size is refused,
        // where it used to reach the driver (Oclgrind: INVALID_ARG_SIZE; PoCL: a run with garbage).
        QTest::newRow("bytesN of another size than the struct on Oclgrind")
            << types("pair_by_value", "1", "--arg out=buffer:int:1 --arg v=bytes4:00000000 --device oclgrind")
            << 2 << "clscope-cli: v: bytes4 is 4 bytes, but the Pair argument is 8 bytes";
        QTest::newRow("bytesN of another size than the struct on PoCL")
            << types("pair_by_value", "1", "--arg out=buffer:int:1 --arg v=bytes12:000000000000000000000000")
            << 2 << "clscope-cli: v: bytes12 is 12 bytes, but the Pair argument is 8 bytes";
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        if (args.contains(QStringLiteral("oclgrind")) && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const Result r = run(args);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
        QVERIFY2(!err.contains(u'\n'), qPrintable(err)); // one line
        QVERIFY2(err.startsWith(message), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
