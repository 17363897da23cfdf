// Captured launches replayed and exported: a pyopencl launch captured with its buffer contents replays
// equal on PoCL and on Oclgrind (also without an ICD for Oclgrind), a changed expected output makes replay
// fail at that element, the exported pyopencl script checks the launch the same way, and capture --kernel
// and --budget choose whose contents are recorded. Capturing programs: tst_capture.cpp.
#include "capturetest.h"
#include "testicd.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace capturetest;

class TestCaptureReplay : public QObject, private capturetest::Fixture
{
    Q_OBJECT

private slots:
    // demo.py captured without contents, as tst_capture's programs() captures it: a launch that replay
    // refuses.
    void initTestCase()
    {
        setUp();
        if (!m_ready)
            return;
        const Run demo =
            capture({}, path(QStringLiteral("demo.py.clscope")), {kPython, QStringLiteral("demo.py")}, m_env);
        QVERIFY2(demo.code == 0, demo.err.constData());
    }

    void replay_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("vendors"); // a private OCL_ICD_VENDORS with PoCL and Oclgrind
        QTest::newRow("pocl") << QStringLiteral("pocl") << true;
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind") << true;
        // Debian's oclgrind registers no ICD: replay finds it by itself.
        QTest::newRow("oclgrind without an ICD") << QStringLiteral("oclgrind") << false;
    }

    void replay()
    {
        QFETCH(QString, device);
        QFETCH(bool, vendors);
        const QString file = path(QStringLiteral("demo-contents.clscope"));
        if (!QFile::exists(file)) {
            // With pyopencl's binary cache on: capture turns it off for launches it records contents of.
            QProcessEnvironment cached = m_env;
            cached.remove(QStringLiteral("PYOPENCL_NO_CACHE"));
            QCOMPARE(run(kPython, {QStringLiteral("demo.py")}, cached, m_dir.path()).code,
                     0); // fills the cache
            const Run c =
                run(cli(),
                    {QStringLiteral("capture"), QStringLiteral("--launch"), QStringLiteral("0"),
                     QStringLiteral("-o"), file, QStringLiteral("--"), kPython, QStringLiteral("demo.py")},
                    cached, m_dir.path());
            QCOMPARE(c.code, 0);
        }
        QCOMPARE(sql(file,
                     QStringLiteral("SELECT COUNT(*) FROM contents WHERE launch = 0 AND state = 'captured'")),
                 QStringLiteral("6"));
        QTemporaryDir icd;
        QVERIFY(clscope::test::setUpVendors(icd, false)); // sets OCL_ICD_VENDORS of this process: copy it
        QProcessEnvironment env = m_env;
        if (vendors)
            env.insert(QStringLiteral("OCL_ICD_VENDORS"), icd.path());
        else
            env.remove(QStringLiteral("OCL_ICD_VENDORS"));
        const Run r = run(cli(),
                          {QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("0"),
                           QStringLiteral("--device"), device, QStringLiteral("--json")},
                          env, m_dir.path());
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("kernel")).toString(), QStringLiteral("sum"));
        QVERIFY(j.value(QStringLiteral("device"))
                    .toString()
                    .contains(device == QStringLiteral("pocl") ? QStringLiteral("pthread")
                                                               : QStringLiteral("Oclgrind")));
        QCOMPARE(j.value(QStringLiteral("equal")).toBool(), true);
        const QJsonArray outputs = j.value(QStringLiteral("outputs")).toArray();
        QCOMPARE(outputs.size(), 3);
        QCOMPARE(outputs.at(2).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("res_g"));
        QCOMPARE(outputs.at(2).toObject().value(QStringLiteral("elements")).toInt(), 50000);
    }

    void replayDetectsDifference()
    {
        const QString source = path(QStringLiteral("demo-contents.clscope"));
        QVERIFY(QFile::exists(source)); // made by replay()
        const QString file = path(QStringLiteral("demo-changed.clscope"));
        QVERIFY(QFile::copy(source, file));
        // Element 17 of res_g's expected output becomes NaN.
        sql(file, QStringLiteral(
                      "UPDATE contents SET data = substr(data, 1, 68) || x'0000c07f' || substr(data, 73) "
                      "WHERE launch = 0 AND idx = 2 AND phase = 'after'"));
        const Run r = run(cli(),
                          {QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("0"),
                           QStringLiteral("--json")},
                          m_env, m_dir.path());
        QCOMPARE(r.code, 1);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("equal")).toBool(), false);
        const QJsonObject res = j.value(QStringLiteral("outputs")).toArray().at(2).toObject();
        QCOMPARE(res.value(QStringLiteral("equal")).toBool(), false);
        QCOMPARE(res.value(QStringLiteral("first_difference")).toInt(), 17);
        QCOMPARE(res.value(QStringLiteral("expected")).toString(), QStringLiteral("nan"));
        QCOMPARE(j.value(QStringLiteral("outputs"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("equal"))
                     .toBool(),
                 true);
        // A launch without contents cannot be replayed, and says how to capture it.
        const Run none = run(cli(),
                             {QStringLiteral("replay"), path(QStringLiteral("demo.py.clscope")),
                              QStringLiteral("--launch"), QStringLiteral("0")},
                             m_env, m_dir.path());
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("contents were not captured"), none.err.constData());
    }

    // A range of launches replayed in order with the buffers kept on the device: a ping-pong pipeline of six
    // launches equal on PoCL and Oclgrind; the program's own write between launches 2 and 3 is taken from
    // the capture; a launch without "before" contents in the middle of the range reads what the launch
    // before it left (so its result can only be equal if the buffers flowed); a changed expected output
    // names the launch where the replay first differs.
    void rangeReplay()
    {
        const QString file = path(QStringLiteral("pingpong.clscope"));
        const QString script = QStringLiteral(CLSCOPE_TEST_DATA "/capture/pingpong.py");
        const Run c = run(cli(),
                          {QStringLiteral("capture"), QStringLiteral("--contents"), QStringLiteral("all"),
                           QStringLiteral("-o"), file, QStringLiteral("--"), kPython, script},
                          m_env, m_dir.path());
        QVERIFY2(c.code == 0, c.err.constData());
        QCOMPARE(sql(file, QStringLiteral("SELECT COUNT(*) FROM contents WHERE state = 'captured'")),
                 QStringLiteral("24"));
        QTemporaryDir icd;
        QVERIFY(clscope::test::setUpVendors(icd, false));
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("OCL_ICD_VENDORS"), icd.path());
        const auto replay = [&](const QString &capture, const QString &range, const QString &device) {
            return run(cli(),
                       {QStringLiteral("replay"), capture, QStringLiteral("--launch"), range,
                        QStringLiteral("--device"), device, QStringLiteral("--json")},
                       env, m_dir.path());
        };
        for (const QString &device : {QStringLiteral("pocl"), QStringLiteral("oclgrind")}) {
            const Run r = replay(file, QStringLiteral("0-5"), device);
            QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
            const QJsonObject j = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(j.value(QStringLiteral("equal")).toBool(), true);
            QVERIFY(j.value(QStringLiteral("first_differing_launch")).isNull());
            const QJsonArray launches = j.value(QStringLiteral("launches")).toArray();
            QCOMPARE(launches.size(), 6);
            for (int k = 0; k < 6; ++k) {
                const QJsonObject l = launches.at(k).toObject();
                QCOMPARE(l.value(QStringLiteral("launch")).toInt(), k);
                QCOMPARE(l.value(QStringLiteral("kernel")).toString(), QStringLiteral("relax"));
                QCOMPARE(l.value(QStringLiteral("outputs")).toArray().size(), 2);
                // Only launch 3's source was written by the program since the launch before.
                QCOMPARE(l.value(QStringLiteral("reloaded_args")).toArray(),
                         k == 3 ? QJsonArray{0} : QJsonArray());
            }
        }
        // Launch 2 without its "before": in the range it reads what launch 1 left, and equals the capture.
        const QString flowing = path(QStringLiteral("pingpong-flowing.clscope"));
        QVERIFY(QFile::copy(file, flowing));
        sql(flowing, QStringLiteral("DELETE FROM contents WHERE launch = 2 AND phase = 'before'"));
        const Run flowed = replay(flowing, QStringLiteral("0-5"), QStringLiteral("pocl"));
        QVERIFY2(flowed.code == 0, QByteArray(flowed.err + flowed.out).constData());
        // On its own (or first in a range) it cannot be replayed, and says why.
        const Run alone = replay(flowing, QStringLiteral("2-5"), QStringLiteral("pocl"));
        QCOMPARE(alone.code, 1);
        QVERIFY2(alone.err.contains("launch 2 (relax) argument 0: its buffer contents were not captured"),
                 alone.err.constData());
        // Launch 4's expected dst changed at element 5: the range names launch 4 as the first that differs
        // (and launch 5, which reads it, still equals the capture: it reads the replay's own launch 4).
        const QString changed = path(QStringLiteral("pingpong-changed.clscope"));
        QVERIFY(QFile::copy(file, changed));
        sql(changed, QStringLiteral(
                         "UPDATE contents SET data = substr(data, 1, 20) || x'0000c07f' || substr(data, 25) "
                         "WHERE launch = 4 AND idx = 1 AND phase = 'after'"));
        const Run r = replay(changed, QStringLiteral("0-5"), QStringLiteral("pocl"));
        QCOMPARE(r.code, 1);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("first_differing_launch")).toInt(), 4);
        const QJsonObject four = j.value(QStringLiteral("launches")).toArray().at(4).toObject();
        QCOMPARE(four.value(QStringLiteral("outputs"))
                     .toArray()
                     .at(1)
                     .toObject()
                     .value(QStringLiteral("first_difference"))
                     .toInt(),
                 5);
        // Text: the summary line names it too; a range that ends before it starts is bad usage.
        const Run text =
            run(cli(), {QStringLiteral("replay"), changed, QStringLiteral("--launch"), QStringLiteral("0-5")},
                env, m_dir.path());
        QVERIFY2(text.out.contains("6 launches replayed in order, buffers kept between them: launch 4 is the "
                                   "first that differs"),
                 text.out.constData());
        const Run backwards =
            run(cli(), {QStringLiteral("replay"), file, QStringLiteral("--launch"), QStringLiteral("5-2")},
                env, m_dir.path());
        QCOMPARE(backwards.code, 2);
        QVERIFY2(backwards.err.contains("the range ends before it starts"), backwards.err.constData());
    }

    // A workbench run saved as a capture is a capture: capture-info summarises it, its launch replays equal
    // on another device, and a run of several launches whose output feeds the next replays as a range.
    void runSavedAsCapture()
    {
        QTemporaryDir icd;
        QVERIFY(clscope::test::setUpVendors(icd, false));
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("OCL_ICD_VENDORS"), icd.path());
        const QString one = path(QStringLiteral("run-vector_add.clscope"));
        const Run r =
            run(cli(),
                {QStringLiteral("run"),
                 QStringLiteral(CLSCOPE_TEST_DATA "/../../resources/kernels/vector_add.cl"),
                 QStringLiteral("--device"), QStringLiteral("pocl"), QStringLiteral("--kernel"),
                 QStringLiteral("vector_add"), QStringLiteral("--global"), QStringLiteral("1024"),
                 QStringLiteral("--arg"), QStringLiteral("a=buffer:float:1024:iota"), QStringLiteral("--arg"),
                 QStringLiteral("b=buffer:float:1024:fill=2"), QStringLiteral("--arg"),
                 QStringLiteral("c=buffer:float:1024"), QStringLiteral("--arg"),
                 QStringLiteral("n=uint:1000"), QStringLiteral("--save-capture"), one},
                env, m_dir.path());
        QVERIFY2(r.code == 0, r.err.constData());
        const Run info =
            run(cli(), {QStringLiteral("capture-info"), one, QStringLiteral("--json")}, env, m_dir.path());
        QVERIFY2(info.code == 0, info.err.constData());
        QVERIFY2(info.out.contains("vector_add"), info.out.constData());
        QCOMPARE(sql(one, QStringLiteral(
                              "SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL AND launch >= 0")),
                 QStringLiteral("1"));
        QCOMPARE(sql(one, QStringLiteral("SELECT COUNT(*) FROM contents WHERE state = 'captured'")),
                 QStringLiteral("6"));
        const Run replayed =
            run(cli(),
                {QStringLiteral("replay"), one, QStringLiteral("--launch"), QStringLiteral("0"),
                 QStringLiteral("--device"), QStringLiteral("oclgrind"), QStringLiteral("--json")},
                env, m_dir.path());
        QVERIFY2(replayed.code == 0, QByteArray(replayed.err + replayed.out).constData());
        const QJsonObject j = QJsonDocument::fromJson(replayed.out).object();
        QCOMPARE(j.value(QStringLiteral("outputs")).toArray().size(), 3);
        QCOMPARE(j.value(QStringLiteral("outputs"))
                     .toArray()
                     .at(2)
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("c"));

        // Four launches of a kernel that reads what the launch before wrote: the range 0-3.
        const QString kernel = path(QStringLiteral("halve.cl"));
        QFile f(kernel);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "__kernel void halve(__global float *x) { const int i = get_global_id(0); x[i] = x[i] * 0.5f + "
            "(float)i; }\n");
        f.close();
        const QString four = path(QStringLiteral("run-halve.clscope"));
        const Run r4 = run(cli(),
                           {QStringLiteral("run"), kernel, QStringLiteral("--device"), QStringLiteral("pocl"),
                            QStringLiteral("--kernel"), QStringLiteral("halve"), QStringLiteral("--global"),
                            QStringLiteral("256"), QStringLiteral("--repeat"), QStringLiteral("4"),
                            QStringLiteral("--arg"), QStringLiteral("x=buffer:float:256:iota"),
                            QStringLiteral("--save-capture"), four},
                           env, m_dir.path());
        QVERIFY2(r4.code == 0, r4.err.constData());
        for (const QString &device : {QStringLiteral("pocl"), QStringLiteral("oclgrind")}) {
            const Run range =
                run(cli(),
                    {QStringLiteral("replay"), four, QStringLiteral("--launch"), QStringLiteral("0-3"),
                     QStringLiteral("--device"), device, QStringLiteral("--json")},
                    env, m_dir.path());
            QVERIFY2(range.code == 0, QByteArray(range.err + range.out).constData());
            const QJsonObject rj = QJsonDocument::fromJson(range.out).object();
            QCOMPARE(rj.value(QStringLiteral("launches")).toArray().size(), 4);
            // Only the last launch has "after" contents: its x, after four halvings, is compared.
            QCOMPARE(rj.value(QStringLiteral("launches"))
                         .toArray()
                         .at(3)
                         .toObject()
                         .value(QStringLiteral("outputs"))
                         .toArray()
                         .size(),
                     1);
        }
        // Launch 2 alone lacks its "before" (the run kept the first launch's): replay says how to get it.
        const Run alone =
            run(cli(), {QStringLiteral("replay"), four, QStringLiteral("--launch"), QStringLiteral("2")}, env,
                m_dir.path());
        QCOMPARE(alone.code, 1);
        QVERIFY2(alone.err.contains("contents were not captured"), alone.err.constData());
    }

    // The exported pyopencl script reproduces the launch and checks it: equal as captured, and failing at
    // element 17 (of float32 values, as the kernel's signature says) when the expected output was changed.
    void exportPyopencl_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("line");
        QTest::newRow("as captured") << QStringLiteral("demo-contents.clscope") << 0
                                     << QStringLiteral("argument 2: equal");
        QTest::newRow("changed") << QStringLiteral("demo-changed.clscope") << 1
                                 << QStringLiteral("argument 2: differs at element 17: expected nan");
    }

    void exportPyopencl()
    {
        QFETCH(QString, capture);
        QFETCH(int, code);
        QFETCH(QString, line);
        const QString dir = path(QStringLiteral("export-") + QString::fromLatin1(QTest::currentDataTag()));
        const Run e = run(cli(),
                          {QStringLiteral("export"), path(capture), QStringLiteral("--launch"),
                           QStringLiteral("0"), QStringLiteral("--pyopencl"), dir},
                          m_env, m_dir.path());
        QVERIFY2(e.code == 0, e.err.constData());
        QVERIFY(QFile::exists(dir + QStringLiteral("/kernel.cl")));
        QVERIFY(QFile::exists(dir + QStringLiteral("/arg2_after.npy")));
        const Run r = run(kPython, {dir + QStringLiteral("/replay.py")}, m_env, m_dir.path());
        QCOMPARE(r.code, code);
        QVERIFY2(r.out.contains(line.toUtf8()), r.out.constData());
        QVERIFY(r.out.contains("argument 0: equal"));
    }

    // --kernel NAME records the contents of that kernel's launches only; --budget stops at a byte count
    // and says so for every buffer it left out.
    void contentsSelection()
    {
        const QString byKernel = path(QStringLiteral("elementwise-lincomb.clscope"));
        Run r = run(cli(),
                    {QStringLiteral("capture"), QStringLiteral("--kernel"), QStringLiteral("lin_comb"),
                     QStringLiteral("-o"), byKernel, QStringLiteral("--"), kPython,
                     QStringLiteral("demo_elementwise.py")},
                    m_env, m_dir.path());
        QCOMPARE(r.code, 0);
        const QString lincomb =
            sql(byKernel, QStringLiteral("SELECT GROUP_CONCAT(launch) FROM commands c JOIN kernels k "
                                         "ON k.id = c.kernel WHERE k.name = 'lin_comb'"));
        QVERIFY(!lincomb.isEmpty());
        QCOMPARE(sql(byKernel, QStringLiteral("SELECT GROUP_CONCAT(DISTINCT launch) FROM contents")),
                 lincomb);
        QVERIFY(
            sql(byKernel, QStringLiteral("SELECT COUNT(*) FROM commands WHERE launch IS NOT NULL")).toInt() >
            lincomb.split(QLatin1Char(',')).size());

        const QString budget = path(QStringLiteral("demo-budget.clscope"));
        r = run(cli(),
                {QStringLiteral("capture"), QStringLiteral("--contents"), QStringLiteral("all"),
                 QStringLiteral("--budget"), QStringLiteral("300000"), QStringLiteral("-o"), budget,
                 QStringLiteral("--"), kPython, QStringLiteral("demo.py")},
                m_env, m_dir.path());
        QCOMPARE(r.code, 0);
        QCOMPARE(
            sql(budget, QStringLiteral(
                            "SELECT phase, idx, state, length(data) FROM contents ORDER BY phase DESC, idx")),
            QStringLiteral("before|0|captured|200000\nbefore|1|over-budget|0\nbefore|2|over-budget|0\n"
                           "after|0|over-budget|0\nafter|1|over-budget|0\nafter|2|over-budget|0"));
        r = run(cli(), {QStringLiteral("replay"), budget, QStringLiteral("--launch"), QStringLiteral("0")},
                m_env, m_dir.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("argument 1: its buffer contents were not captured (over-budget)"),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCaptureReplay)
#include "tst_capturereplay.moc"
