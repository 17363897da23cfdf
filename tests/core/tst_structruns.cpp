// Runs with structs on PoCL and Oclgrind, with kernels after the patterns of real projects
// (tests/data/structs): Rodinia lavaMD's box_str and FOUR_VECTOR in buffers and par_str by value, ArrayFire's
// KParam by value, packed and aligned structs, a float3 member, nested, anonymous and union members,
// pyopencl's cfloat_t; results compared with those computed here. A bytesN of the wrong size, an unknown
// field and the other mistakes are refused naming what is wrong. The layouts: tst_structs.cpp.
#include "structtest.h"

#include <QTest>

using namespace clscope;
using namespace structtest;

namespace {

std::vector<std::string> strings(const QStringList &items)
{
    std::vector<std::string> out;
    for (const QString &i : items)
        out.push_back(i.toStdString());
    return out;
}

} // namespace

class TestStructRuns : public QObject, private structtest::Fixture
{
    Q_OBJECT

private slots:
    void initTestCase() { setUp(); }

    void lavamd_data()
    {
        QTest::addColumn<QString>("device");
        QTest::newRow("pocl") << "pocl";
        QTest::newRow("oclgrind") << "oclgrind";
    }

    // The forces worked out here from the same inputs: each particle against the particles of its box.
    void lavamd()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath("lavamd/lavamd.cl"), d);
        QVERIFY(b.success());
        const RunResult r = run(
            b, d, "kernel_gpu_opencl", {8},
            {"d_par_gpu=struct:alpha=0.5", "d_box_gpu=buffer:box_str:2:fill={x=0,y=0,z=0,number=2,offset=0}",
             "d_rv_gpu=buffer:FOUR_VECTOR:5:file=" + dataPath("rv.npy"), "d_qv_gpu=buffer:float:5:iota=1",
             "d_fv_gpu=buffer:5", "d_dist=buffer:THREE_VECTOR:5:fill={x=-1,y=-1,z=-1}"},
            {"d_fv_gpu", "d_dist", "d_box_gpu"}, {4});
        // Both boxes hold particles 0 and 1: (0,0,0) with charge 1 and (1,0,0) with charge 2.
        const float pos[2][3] = {{0, 0, 0}, {1, 0, 0}};
        const float q[2] = {1, 2};
        const float a2 = 2 * 0.5f * 0.5f;
        QString expected;
        for (int i = 0; i < 2; ++i) {
            float f[4] = {0, 0, 0, 0};
            for (int j = 0; j < 2; ++j) {
                const float dx = pos[i][0] - pos[j][0], dy = pos[i][1] - pos[j][1],
                            dz = pos[i][2] - pos[j][2];
                const float s = q[j] * (a2 * (dx * dx + dy * dy + dz * dz) + 1);
                f[0] += s;
                f[1] += s * dx;
                f[2] += s * dy;
                f[3] += s * dz;
            }
            expected += QStringLiteral("{v=%1,x=%2,y=%3,z=%4} ").arg(f[0]).arg(f[1]).arg(f[2]).arg(f[3]);
        }
        QCOMPARE(structs(*r.buffer("d_fv_gpu")),
                 expected + QStringLiteral("{v=0,x=0,y=0,z=0} {v=0,x=0,y=0,z=0} {v=0,x=0,y=0,z=0}"));
        QCOMPARE(
            structs(*r.buffer("d_dist")),
            QStringLiteral("{x=0,y=0,z=0} {x=0,y=0,z=0} {x=-1,y=-1,z=-1} {x=-1,y=-1,z=-1} {x=-1,y=-1,z=-1}"));
        QCOMPARE(r.buffer("d_box_gpu")->layout->name, std::string("box_str"));
        QCOMPARE(r.buffer("d_box_gpu")->bytes.size(), std::size_t(64));
    }

    void arrayfire_data() { lavamd_data(); }

    void arrayfire()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath("arrayfire.cl"), d);
        // A 3x2 matrix (x fastest) transposed into a 2x3 one.
        const RunResult t =
            run(b, d, "transpose", {3, 2},
                {"out=buffer:float:6", "oInfo=struct:dims=(2,3,1,1),strides=(1,2,6,6),offset=0",
                 "in=buffer:float:6:iota", "iInfo=struct:dims=(3,2,1,1),strides=(1,3,6,6)"},
                {"out"});
        QCOMPARE(valuesOf<float>(*t.buffer("out")), (std::vector<float>{0, 3, 1, 4, 2, 5}));
        // Every field comes back where the device put it, nested or flat, longs past 2^32.
        const RunResult e = run(
            b, d, "echo", {1},
            {"p=struct:dims=((1),(2),(3),(4)),strides=(-1,0,4294967296,9),offset=77", "out=buffer:long:9"},
            {"out"});
        QCOMPARE(valuesOf<std::int64_t>(*e.buffer("out")),
                 (std::vector<std::int64_t>{1, 2, 3, 4, -1, 0, 4294967296, 9, 77}));
    }

    void shapes_data() { lavamd_data(); }

    // Packed, aligned, float3, nested, anonymous and union members by value and in buffers, and a struct no
    // kernel names, asked by name for a void pointer.
    void shapes()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        const BuildResult b = build(dataPath("layouts.cl"), d);
        QVERIFY(b.success());
        const RunResult packed =
            run(b, d, "packed_in", {1}, {"p=struct:c=-3,i=100000,s=-2", "out=buffer:int:4"}, {"out"});
        QCOMPARE(valuesOf<int>(*packed.buffer("out")), (std::vector<int>{-3, 100000, -2, 7}));
        const RunResult aligned =
            run(b, d, "aligned_in", {1}, {"a=struct:k=5", "p=struct:i=9", "out=buffer:int:2"}, {"out"});
        QCOMPARE(valuesOf<int>(*aligned.buffer("out")), (std::vector<int>{5, 9}));
        const RunResult f3 =
            run(b, d, "float3_in", {2}, {"m=struct:pos=(1,2,3),w=4", "out=buffer:2"}, {"out"});
        QCOMPARE(structs(*f3.buffer("out")), QStringLiteral("{pos=(1,2,3),w=4} {pos=(2,4,6),w=5}"));
        const RunResult nested =
            run(b, d, "nested", {2},
                {"v=struct:a=5,inner={b=1.5,c=(1,2,3)},points=({pos=(1,2,3),w=4},{w=5}),"
                 "anon={tag=7,d=0.25},asFloat=1.5,v=(1,2,3,4)",
                 "in=struct:b=9,c=(10,20,30)", "word=struct:bytes=(1,2,3,4)", "o=buffer:2"},
                {"o"});
        const QString element =
            QStringLiteral("inner={b=1.5,c=(1,2,60)},points=({pos=(1,2,3),w=4},{pos=(0,9,0),"
                           "w=5}),anon={tag=7,d=0.5},asInt=67305985,asFloat=1.5399896e-36,"
                           "v=(1,2,3,4)}");
        QCOMPARE(structs(*nested.buffer("o")), u"{a=5," + element + u" {a=6," + element);
        const RunResult raw =
            run(b, d, "raw_words", {4},
                {"data=buffer:NotAnArgument:2:fill={id=0x0102030405060708,value=1}", "out=buffer:uint:4"},
                {"out", "data"});
        QCOMPARE(valuesOf<std::uint32_t>(*raw.buffer("out")),
                 (std::vector<std::uint32_t>{0x05060708u, 0x01020304u, 0x3f800000u, 0}));
        QCOMPARE(raw.buffer("data")->layout->name, std::string("NotAnArgument"));
    }

    void complexNumbers_data() { lavamd_data(); }

    // pyopencl-complex.h comes from the installed pyopencl's folder; cfloat_t by value, in buffers, from a
    // complex64 .npy file.
    void complexNumbers()
    {
        QFETCH(QString, device);
        const cl_device_id d = this->device(device);
        if (!d)
            QSKIP("Oclgrind is not installed");
        if (pyopenclIncludeDirectory().empty())
            QFAIL("python3-pyopencl is missing: packaging/install-deps.sh installs it");
        const BuildResult b = build(dataPath("complex.cl"), d);
        QVERIFY2(b.success(), b.logs().front().log.c_str());
        QVERIFY(b.options().find("-I " + pyopenclIncludeDirectory()) != std::string::npos);
        const RunResult r =
            run(b, d, "scale", {3},
                {"a=buffer:cfloat_t:3:file=" + dataPath("complex64.npy"), "s=0+2j", "out=buffer:3"}, {"out"});
        // (1+2j, 3-1j, -0.5j) * 2j + i
        QCOMPARE(r.buffer("out")->type, ElementType::complexOf(ScalarKind::Float));
        QCOMPARE(valuesOf<float>(*r.buffer("out")), (std::vector<float>{-4, 2, 3, 6, 3, 0}));
        const RunResult m =
            run(b, d, "magnitude", {2}, {"a=buffer:2:fill=3-4j", "out=buffer:float:2"}, {"out"});
        QCOMPARE(valuesOf<float>(*m.buffer("out")), (std::vector<float>{5, 5}));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("argument");
        const QStringList lavamd =
            list({"d_par_gpu=struct:alpha=1", "d_box_gpu=buffer:box_str:2", "d_rv_gpu=buffer:5",
                  "d_qv_gpu=buffer:float:5", "d_fv_gpu=buffer:5", "d_dist=buffer:5"});
        const auto with = [&](const QString &replacement) {
            QStringList out = lavamd;
            const QString name = replacement.section(u'=', 0, 0);
            for (QString &a : out) {
                if (a.section(u'=', 0, 0) == name)
                    a = replacement;
            }
            return out;
        };
        const QString structs = QStringLiteral("THREE_VECTOR, FOUR_VECTOR, box_str, par_str");
        QTest::newRow("unknown field")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=struct:alpah=1"))
            << "d_par_gpu: par_str has no field 'alpah' (fields: alpha)"
            << "d_par_gpu";
        QTest::newRow("unknown field inside")
            << "layouts.cl"
            << "nested" << list({"v=struct:inner={bb=1}", "in=struct:", "word=struct:", "o=buffer:1"})
            << "v.inner: struct Inner has no field 'bb' (fields: b, c)"
            << "v";
        QTest::newRow("bytesN of another size by value")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=bytes8:0000000000000000"))
            << "d_par_gpu: bytes8 is 8 bytes, but the par_str argument is 4 bytes"
            << "d_par_gpu";
        QTest::newRow("bytesN of another size in a buffer")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:bytes24:2"))
            << "d_box_gpu: bytes24 is 24 bytes, but the elements of the __global const box_str* argument "
               "(box_str) are 32 bytes"
            << "d_box_gpu";
        QTest::newRow("another struct's buffer")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:FOUR_VECTOR:2"))
            << "d_box_gpu: a buffer of FOUR_VECTOR was given for the __global const box_str* argument"
            << "d_box_gpu";
        QTest::newRow("a struct buffer for floats")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_qv_gpu=buffer:box_str:5"))
            << "d_qv_gpu: a buffer of box_str was given for the __global const float* argument"
            << "d_qv_gpu";
        QTest::newRow("unknown struct")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:Particle:2"))
            << QStringLiteral("d_box_gpu: unknown type 'Particle' (types: ") + qs(elementTypeNames()) +
                   QStringLiteral("; structs of the program: ") + structs + u')'
            << "d_box_gpu";
        QTest::newRow("iota of structs")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:box_str:2:iota"))
            << "d_box_gpu: iota is for numbers; a buffer of box_str takes zeros, fill={FIELD=VALUE,...}, "
               "file=PATH or copy=NAME"
            << "d_box_gpu";
        QTest::newRow("a number for a struct")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=0.5"))
            << "d_par_gpu: the par_str argument is a struct: give d_par_gpu=struct:FIELD=VALUE,..."
            << "d_par_gpu";
        QTest::newRow("a struct for a number") << "layouts.cl"
                                               << "packed_in" << list({"p=struct:c=1", "out=struct:x=1"})
                                               << "out: a struct value was given for the __global int* "
                                                  "argument (use out=buffer:int:COUNT[:INIT])"
                                               << "out";
        QTest::newRow("field out of range") << "layouts.cl"
                                            << "packed_in" << list({"p=struct:c=300", "out=buffer:int:4"})
                                            << "p.c: 300 is out of range for char (-128..127)"
                                            << "p";
        QTest::newRow("vector field count") << "layouts.cl"
                                            << "float3_in" << list({"m=struct:pos=(1,2)", "out=buffer:1"})
                                            << "m.pos: float3 needs 3 values, got 2 ('1,2')"
                                            << "m";
        QTest::newRow("array field count") << "arrayfire.cl"
                                           << "echo" << list({"p=struct:dims=(1,2,3)", "out=buffer:long:9"})
                                           << "p.dims: long[4] needs 4 elements, got 3"
                                           << "p";
        QTest::newRow("struct fill field")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_box_gpu=buffer:2:fill={w=1}"))
            << "d_box_gpu: box_str has no field 'w' (fields: x, y, z, number, offset)"
            << "d_box_gpu";
        QTest::newRow("missing struct argument")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << lavamd.mid(1)
            << "missing argument 'd_par_gpu' (par_str) of kernel kernel_gpu_opencl: give "
               "d_par_gpu=struct:FIELD=VALUE,..."
            << "d_par_gpu";
        QTest::newRow("struct of another type")
            << "lavamd/lavamd.cl"
            << "kernel_gpu_opencl" << with(QStringLiteral("d_par_gpu=struct:box_str:x=1"))
            << "d_par_gpu: struct box_str was given for the par_str argument"
            << "d_par_gpu";
    }

    void refused()
    {
        QFETCH(QString, file);
        QFETCH(QString, kernel);
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QFETCH(QString, argument);
        const cl_device_id d = device(QStringLiteral("pocl"));
        const BuildResult b = build(dataPath(file.toLatin1().constData()), d);
        QVERIFY(b.success());
        const QByteArray k = kernel.toLatin1();
        QCOMPARE(errorOf([&] { run(b, d, k.constData(), {1}, strings(args), {}); }), message);
        try {
            run(b, d, k.constData(), {1}, strings(args), {});
        } catch (const RunInputError &e) {
            QCOMPARE(qs(e.argument()), argument);
        }
    }
};

QTEST_GUILESS_MAIN(TestStructRuns)
#include "tst_structruns.moc"
