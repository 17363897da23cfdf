// clscope-cli debug: the kernel debugger without a window, on Oclgrind with CLScope's plugin. The values it
// prints at a line equal what a printf of the same variable at that line prints (tests/data/debug/
// kernels.cl: a tiled matmul with __local tiles, a work-group reduction, helper functions two calls deep, a
// struct argument and a float4 private variable), for several work-items; a step across a barrier finds the
// whole group arrived; a condition stops where it holds; a pyopencl program's captured launch (demo.py) is
// debugged from its capture; bad input and a missing plugin are one clear line.
#include "capturetest.h"
#include "clitest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

const QString kKernels = QStringLiteral(CLSCOPE_TEST_DATA "/debug/kernels.cl");

// The line of kernels.cl marked "// @name".
int markedLine(const QString &name)
{
    QFile f(kKernels);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(QByteArray(QByteArray("// @") + name.toUtf8())))
            return i + 1;
    }
    return 0;
}

// The line of kernels.cl that contains text.
int lineWith(const char *text)
{
    QFile f(kKernels);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(text))
            return i + 1;
    }
    return 0;
}

struct Case
{
    const char *marker;
    const char *launch;
    const char *variable;
};

// Each launch: its kernel, range and arguments (run's options).
const Case kCases[] = {
    {"matmul",
     "--kernel matmul_tiled --global 8,8 --local 4,4 --arg A=buffer:float:64:random=3 "
     "--arg B=buffer:float:64:random=4 --arg C=buffer:float:64 --arg n=int:8",
     "acc"},
    {"reduce",
     "--kernel reduce --global 32 --local 8 --arg in=buffer:float:32:random=5 --arg out=buffer:float:4 "
     "--arg scratch=local:32",
     "total"},
    {"helper",
     "--kernel helpers --global 16 --local 4 --arg in=buffer:float:16:random=6 --arg out=buffer:float:16",
     "y"},
    {"struct",
     "--kernel with_struct --global 8 --local 4 --arg in=buffer:float:32:random=7 --arg out=buffer:float:32 "
     "--arg p=struct:scale=1.5,offset=3,bias=(0.25,-1,2,8)",
     "v"},
};

// The printf output of a launch on Oclgrind: "NAME X Y VARIABLE V..." by "X,Y".
QMap<QString, QList<float>> printfValues(const QString &launch, const QString &cache)
{
    const clitest::Result r =
        clitest::run(QStringList{QStringLiteral("run"), kKernels} + launch.split(u' ', Qt::SkipEmptyParts) +
                         QStringList{QStringLiteral("--device"), QStringLiteral("oclgrind")},
                     cache);
    QMap<QString, QList<float>> out;
    if (r.exitCode != 0) {
        qWarning("run: exit %d %s", r.exitCode, r.err.constData());
        return out;
    }
    static const QRegularExpression line(QStringLiteral("^\\w+ (\\d+) (\\d+) \\w+ (.*)$"));
    for (const QString &text : QString::fromUtf8(r.out).split(u'\n')) {
        const auto m = line.match(text.trimmed());
        if (!m.hasMatch())
            continue;
        QList<float> values;
        for (const QString &v : m.captured(3).split(u' ', Qt::SkipEmptyParts))
            values.append(v.toFloat());
        out.insert(m.captured(1) + u',' + m.captured(2), values);
    }
    return out;
}

// The numbers of a debugger value: a scalar's, or each component's of a vector.
QList<float> numbersOf(const QJsonObject &value)
{
    QList<float> out;
    const QJsonArray children = value.value(QLatin1String("children")).toArray();
    if (children.isEmpty()) {
        bool ok = false;
        const float f = value.value(QLatin1String("value")).toString().toFloat(&ok);
        if (ok)
            out.append(f);
        return out;
    }
    for (const QJsonValue &c : children)
        out += numbersOf(c.toObject());
    return out;
}

QJsonObject debugJson(const QStringList &args, const QString &cache, int *exitCode = nullptr)
{
    const clitest::Result r = clitest::run(
        QStringList{QStringLiteral("debug")} + args + QStringList{QStringLiteral("--json")}, cache);
    if (exitCode)
        *exitCode = r.exitCode;
    if (r.exitCode != 0 && !exitCode)
        qWarning("debug: exit %d %s %s", r.exitCode, r.out.constData(), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject valueNamed(const QJsonObject &stop, const QString &name)
{
    for (const char *key : {"values", "variables"}) {
        for (const QJsonValue &v : stop.value(QLatin1String(key)).toArray()) {
            if (v.toObject().value(QLatin1String("name")).toString() == name)
                return v.toObject();
        }
    }
    return {};
}

} // namespace

class TestCliDebug : public QObject, capturetest::Fixture
{
    Q_OBJECT
    QTemporaryDir m_cache;

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        if (!QFile::exists(QStringLiteral("/usr/bin/oclgrind")))
            QSKIP("Oclgrind is not installed (packaging/install-deps.sh installs it)");
    }

    void valuesEqualPrintf_data()
    {
        QTest::addColumn<QString>("marker");
        QTest::addColumn<QString>("launch");
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QStringList>("items");
        const QStringList items[] = {
            {QStringLiteral("0,0"), QStringLiteral("5,6"), QStringLiteral("7,3")},
            {QStringLiteral("0"), QStringLiteral("5"), QStringLiteral("13"), QStringLiteral("31")},
            {QStringLiteral("0"), QStringLiteral("6"), QStringLiteral("15")},
            {QStringLiteral("1"), QStringLiteral("6")}};
        for (std::size_t i = 0; i < std::size(kCases); ++i)
            QTest::newRow(kCases[i].marker)
                << QString::fromLatin1(kCases[i].marker) << QString::fromLatin1(kCases[i].launch)
                << QString::fromLatin1(kCases[i].variable) << items[i];
    }

    void valuesEqualPrintf()
    {
        QFETCH(QString, marker);
        QFETCH(QString, launch);
        QFETCH(QString, variable);
        QFETCH(QStringList, items);
        const int line = markedLine(marker);
        QVERIFY(line > 0);
        const QMap<QString, QList<float>> printed = printfValues(launch, m_cache.path());
        QVERIFY2(!printed.isEmpty(), "the launch printed nothing on Oclgrind");
        for (const QString &item : items) {
            const QString key = item.contains(u',') ? item : item + QStringLiteral(",0");
            QVERIFY2(printed.contains(key), qPrintable(key));
            const QJsonObject doc = debugJson(QStringList{kKernels} + launch.split(u' ', Qt::SkipEmptyParts) +
                                                  QStringList{QStringLiteral("--break"),
                                                              QString::number(line), QStringLiteral("--item"),
                                                              item, QStringLiteral("--print"), variable},
                                              m_cache.path());
            const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
            QCOMPARE(stops.size(), 1);
            const QJsonObject stop = stops.first().toObject();
            QCOMPARE(stop.value(QLatin1String("line")).toInt(), line);
            QCOMPARE(stop.value(QLatin1String("reason")).toString(), QStringLiteral("breakpoint"));
            const QJsonArray global =
                stop.value(QLatin1String("item")).toObject().value(QLatin1String("global")).toArray();
            QCOMPARE(QString::number(global[0].toInt()) + u',' + QString::number(global[1].toInt()), key);
            const QList<float> numbers = numbersOf(valueNamed(stop, variable));
            QVERIFY2(numbers == printed.value(key), QJsonDocument(stop).toJson().constData());
        }
    }

    // Work-item 1 of the reduction stops before the first barrier: only work-items 0 and 1 have stored their
    // element. A step over the barrier stops when the whole group has arrived: all 8 elements are there.
    void stepAcrossBarrier()
    {
        const int barrierLine = lineWith("scratch[lid] = in[gid];") + 1;
        QVERIFY(barrierLine > 1);
        const QJsonObject doc = debugJson(
            QStringList{kKernels} + clitest::words(kCases[1].launch) +
                clitest::words("--item 1 --step 1 --print scratch[0] --print scratch[1] --print scratch[7]") +
                QStringList{QStringLiteral("--break"), QString::number(barrierLine)},
            m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 2);
        const QJsonObject before = stops[0].toObject();
        const QJsonObject after = stops[1].toObject();
        QCOMPARE(before.value(QLatin1String("line")).toInt(), barrierLine);
        QCOMPARE(after.value(QLatin1String("reason")).toString(), QStringLiteral("barrier"));
        QVERIFY(after.value(QLatin1String("line")).toInt() > barrierLine);
        QVERIFY(after.value(QLatin1String("message")).toString().contains(QLatin1String("8 work-items")));
        QCOMPARE(valueNamed(before, QStringLiteral("scratch[7]")).value(QLatin1String("value")).toString(),
                 QStringLiteral("0"));
        QVERIFY(valueNamed(before, QStringLiteral("scratch[1]")).value(QLatin1String("value")).toString() !=
                QStringLiteral("0"));
        QVERIFY(valueNamed(after, QStringLiteral("scratch[7]")).value(QLatin1String("value")).toString() !=
                QStringLiteral("0"));
    }

    // A breakpoint on the barrier's own line, for every work-item: the step over it stays with the stepped
    // work-item (the others run to the barrier without stopping there) and stops when the group is released.
    void stepOverABarrierWithABreakpointOnIt()
    {
        const int barrierLine = lineWith("scratch[lid] = in[gid];") + 1;
        const QJsonObject doc =
            debugJson(QStringList{kKernels} + clitest::words(kCases[1].launch) + clitest::words("--step 1") +
                          QStringList{QStringLiteral("--break"), QString::number(barrierLine)},
                      m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 2);
        QCOMPARE(stops[1].toObject().value(QLatin1String("reason")).toString(), QStringLiteral("barrier"));
        QCOMPARE(stops[1].toObject().value(QLatin1String("item")).toObject().value(QLatin1String("global")),
                 stops[0].toObject().value(QLatin1String("item")).toObject().value(QLatin1String("global")));
    }

    // The helper two calls deep: its frame, its arguments, and a step out back to poly.
    void helperFunctions()
    {
        const QJsonObject doc = debugJson(
            QStringList{kKernels} + clitest::words(kCases[2].launch) +
                clitest::words("--item 3 --step 2 --step-kind out") +
                QStringList{QStringLiteral("--break"), QString::number(markedLine(QStringLiteral("helper")))},
            m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 3);
        const QJsonObject inHelper = stops[0].toObject();
        QCOMPARE(inHelper.value(QLatin1String("function")).toString(), QStringLiteral("square_plus"));
        QCOMPARE(inHelper.value(QLatin1String("depth")).toInt(), 2);
        QCOMPARE(valueNamed(inHelper, QStringLiteral("add")).value(QLatin1String("value")).toString(),
                 QStringLiteral("1"));
        const float x =
            valueNamed(inHelper, QStringLiteral("x")).value(QLatin1String("value")).toString().toFloat();
        const float y =
            valueNamed(inHelper, QStringLiteral("y")).value(QLatin1String("value")).toString().toFloat();
        QCOMPARE(y, x * x + 1.0f);
        QCOMPARE(stops[1].toObject().value(QLatin1String("function")).toString(), QStringLiteral("poly"));
        QCOMPARE(stops[1].toObject().value(QLatin1String("depth")).toInt(), 1);
        QCOMPARE(stops[2].toObject().value(QLatin1String("function")).toString(), QStringLiteral("helpers"));
    }

    // A condition on a loop variable stops in the iteration where it holds.
    void conditionOnALoopVariable()
    {
        const QJsonObject doc = debugJson(QStringList{kKernels} + clitest::words(kCases[0].launch) +
                                              clitest::words("--item 2,1 --print k --print t") +
                                              QStringList{QStringLiteral("--break"),
                                                          QString::number(lineWith("acc += Asub[ty][k]")),
                                                          QStringLiteral("--if"), QStringLiteral("k == 3")},
                                          m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 1);
        QCOMPARE(
            valueNamed(stops[0].toObject(), QStringLiteral("k")).value(QLatin1String("value")).toString(),
            QStringLiteral("3"));
        QCOMPARE(
            valueNamed(stops[0].toObject(), QStringLiteral("t")).value(QLatin1String("value")).toString(),
            QStringLiteral("0"));
    }

    // What wrote an element: the work-item that stores C[45] of the 8x8 matmul is (5,5), at the store's line,
    // with the value it stores; a name that is no argument is one clear line.
    void watchFindsTheWriter()
    {
        const QJsonObject doc =
            debugJson(QStringList{kKernels} + clitest::words(kCases[0].launch) +
                          clitest::words("--watch C[45] --print row --print col --print acc"),
                      m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 1);
        const QJsonObject stop = stops[0].toObject();
        QCOMPARE(stop.value(QLatin1String("reason")).toString(), QStringLiteral("watch"));
        QCOMPARE(stop.value(QLatin1String("line")).toInt(), lineWith("C[row * n + col] = acc;"));
        QCOMPARE(valueNamed(stop, QStringLiteral("row")).value(QLatin1String("value")).toString(),
                 QStringLiteral("5"));
        QCOMPARE(valueNamed(stop, QStringLiteral("col")).value(QLatin1String("value")).toString(),
                 QStringLiteral("5"));
        const QString acc = valueNamed(stop, QStringLiteral("acc")).value(QLatin1String("value")).toString();
        QVERIFY2(
            stop.value(QLatin1String("message")).toString().endsWith(QStringLiteral("writes C[45]: ") + acc),
            qPrintable(stop.value(QLatin1String("message")).toString()));
        const clitest::Result bad =
            clitest::run(QStringList{QStringLiteral("debug"), kKernels} + clitest::words(kCases[0].launch) +
                             clitest::words("--watch Z[1]"),
                         m_cache.path());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("no argument \"Z\""), bad.err.constData());
    }

    // Images show their type, size and format (their pixels are not the plugin's to read); samplers their
    // settings.
    void imagesAndSamplers()
    {
        const QJsonObject doc = debugJson(
            QStringList{QStringLiteral(CLSCOPE_TEST_DATA "/images/sampling.cl")} +
                clitest::words(
                    "--kernel sample --global 4 --arg img=image2d:RGBA:UNORM_INT8:8x8:gradient "
                    "--arg s=sampler:normalized,repeat,linear --arg coords=buffer:float2:4:fill=0.5 "
                    "--arg out=buffer:float4:4 --item 1"),
            m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 1);
        const QJsonObject img = valueNamed(stops[0].toObject(), QStringLiteral("img"));
        QCOMPARE(img.value(QLatin1String("type")).toString(), QStringLiteral("read_only image2d_t"));
        QVERIFY2(img.value(QLatin1String("value"))
                     .toString()
                     .startsWith(QStringLiteral("image2d 8 x 8, CL_RGBA CL_UNORM_INT8")),
                 qPrintable(img.value(QLatin1String("value")).toString()));
        // A sampler shows its settings as a source would write them: one set by the host (the argument,
        // through clCreateSampler) and one written in the source.
        const QJsonObject sampler = valueNamed(stops[0].toObject(), QStringLiteral("s"));
        QCOMPARE(sampler.value(QLatin1String("type")).toString(), QStringLiteral("sampler_t"));
        QCOMPARE(sampler.value(QLatin1String("value")).toString(),
                 QStringLiteral("CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR"));
        const QJsonObject written = debugJson(
            QStringList{QStringLiteral(CLSCOPE_TEST_DATA "/images/sampling.cl")} +
                clitest::words(
                    "--kernel sample_nearest --global 4 --arg img=image2d:RGBA:UNORM_INT8:8x8:gradient "
                    "--arg coords=buffer:float2:4:fill=0.5 --arg out=buffer:float4:4 --item 2 "
                    "--break 61"),
            m_cache.path());
        const QJsonArray at = written.value(QLatin1String("stops")).toArray();
        QCOMPARE(at.size(), 1);
        QCOMPARE(
            valueNamed(at[0].toObject(), QStringLiteral("nearest")).value(QLatin1String("value")).toString(),
            QStringLiteral("CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST"));
    }

    // An optimised build (-O2): the arguments are still read (the simulator holds them), a local the compiler
    // kept in no place says so and how to see it, never a guess.
    void optimisedOutSaysSo()
    {
        const QJsonObject doc =
            debugJson(QStringList{QStringLiteral(CLSCOPE_SOURCE_DIR "/resources/kernels/reduction.cl")} +
                          clitest::words("--options -O2 --break 16 --item 5 --print n --print gid"),
                      m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QCOMPARE(stops.size(), 1);
        QCOMPARE(
            valueNamed(stops[0].toObject(), QStringLiteral("n")).value(QLatin1String("value")).toString(),
            QStringLiteral("4096"));
        QVERIFY(valueNamed(stops[0].toObject(), QStringLiteral("gid"))
                    .value(QLatin1String("error"))
                    .toString()
                    .contains(QLatin1String("optimised out (rebuild with -cl-opt-disable)")));
    }

    void aLineNeverReachedFails()
    {
        int code = 0;
        const QJsonObject doc = debugJson(QStringList{kKernels} + clitest::words(kCases[2].launch) +
                                              clitest::words("--break 1 --item 3"),
                                          m_cache.path(), &code);
        QCOMPARE(code, 1);
        QCOMPARE(doc.value(QLatin1String("reached")).toBool(true), false);
        QVERIFY(
            doc.value(QLatin1String("error")).toString().contains(QLatin1String("without reaching line 1")));
    }

    void badInputIsOneLine_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("said");
        QTest::newRow("item") << clitest::words("--item 1,x --break 3") << QStringLiteral("--item 1,x");
        QTest::newRow("break") << clitest::words("--break zero") << QStringLiteral("--break zero");
        QTest::newRow("if without break")
            << clitest::words("--if i==3") << QStringLiteral("--if needs a --break");
        QTest::newRow("launch of a .cl")
            << clitest::words("--launch 2") << QStringLiteral("--launch is for a capture");
        QTest::newRow("condition") << clitest::words("--break 60 --if i~3")
                                   << QStringLiteral("VARIABLE OP NUMBER");
    }

    void badInputIsOneLine()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, said);
        const clitest::Result r = clitest::run(QStringList{QStringLiteral("debug"), kKernels} +
                                                   clitest::words(kCases[2].launch) + extra,
                                               m_cache.path());
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains(said.toUtf8()), r.err.constData());
    }

    void aMissingPluginIsOneLine()
    {
        clitest::Options options;
        options.cacheDir = m_cache.path();
        options.unset.clear();
        options.set = {QStringLiteral("CLSCOPE_OCLGRIND_PLUGIN=/nonexistent/libclscope-oclgrind.so")};
        options.timeoutMs = 60000;
        const clitest::Result r =
            clitest::run(QStringList{QStringLiteral("debug"), kKernels} + clitest::words(kCases[2].launch) +
                             clitest::words("--break 60"),
                         options);
        QVERIFY(r.finished);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("CLSCOPE_OCLGRIND_PLUGIN"), "no word of the plugin");
    }

    // pyopencl's demo.py captured on PoCL; its launch debugged from the capture on Oclgrind: work-item 7 on
    // the line that adds, then after it (the step ends in the next work-item, whose first line runs next).
    void capturedPyopenclLaunch()
    {
        setUp();
        if (!m_ready)
            return;
        const QString file = path(QStringLiteral("demo.clscope"));
        const capturetest::Run captured =
            capture(QStringList{QStringLiteral("--launch"), QStringLiteral("0")}, file,
                    {capturetest::kPython, QStringLiteral("demo.py")}, m_env);
        QVERIFY2(captured.code == 0, captured.err.constData());
        const QJsonObject doc = debugJson(
            QStringList{file} + clitest::words("--launch 0 --item 7 --step 4 --print gid --print a_g[7] "
                                               "--print b_g[7] --print res_g[7]"),
            m_cache.path());
        const QJsonArray stops = doc.value(QLatin1String("stops")).toArray();
        QVERIFY2(stops.size() >= 2, QJsonDocument(doc).toJson().constData());
        QCOMPARE(stops[0].toObject().value(QLatin1String("reason")).toString(), QStringLiteral("start"));
        int adds = -1;
        for (int i = 0; i < stops.size() && adds < 0; ++i) {
            if (stops[i]
                    .toObject()
                    .value(QLatin1String("source_line"))
                    .toString()
                    .contains(QLatin1String("res_g[gid] = a_g[gid] + b_g[gid]")))
                adds = i;
        }
        QVERIFY2(adds >= 0 && adds + 1 < stops.size(), QJsonDocument(doc).toJson().constData());
        const QJsonObject at = stops[adds].toObject();
        QCOMPARE(valueNamed(at, QStringLiteral("gid")).value(QLatin1String("value")).toString(),
                 QStringLiteral("7"));
        const float a =
            valueNamed(at, QStringLiteral("a_g[7]")).value(QLatin1String("value")).toString().toFloat();
        const float b =
            valueNamed(at, QStringLiteral("b_g[7]")).value(QLatin1String("value")).toString().toFloat();
        const QJsonObject next = stops[adds + 1].toObject();
        QCOMPARE(
            valueNamed(next, QStringLiteral("res_g[7]")).value(QLatin1String("value")).toString().toFloat(),
            a + b);
    }
};

QTEST_GUILESS_MAIN(TestCliDebug)
#include "tst_cli_debug.moc"
