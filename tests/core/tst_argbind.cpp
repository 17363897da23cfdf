// --arg specs and their binding to a kernel's signature (the driver's argument info, or the source's when
// the driver has none), without a device.
#include "argtest.h"

#include "clscope/kernelargs.h"

#include <QTest>

using namespace clscope;
using namespace argtest;

namespace {

// A kernel whose arguments come from its source, as when the driver has no arg info.
KernelInfo kernelFrom(const char *source, const char *name)
{
    for (const KernelSignature &s : parseKernelSignatures(source)) {
        if (s.name == name)
            return {s.name, s.args, ArgInfoSource::Source, {}, {}};
    }
    return {};
}

const char *kKernels = R"(
typedef struct { float x; int y; } Pair;
kernel void k(global const float *a, global float *b, local float *scratch, const uint n, float3 v,
              global Pair *pairs, global void *raw, global uchar *bytes) {}
kernel void withImage(read_only image2d_t img, global int *o) {}
kernel void withSampler(global int *o, sampler_t s) {}
kernel void withPipe(read_only pipe int p) {}
)";

std::vector<ArgValue> specs(const QString &text)
{
    std::vector<ArgValue> out;
    for (const QString &s : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(parseArgSpec(s.toStdString()));
    return out;
}

// "name kind type detail" per bound argument, "; " between.
QString describe(const std::vector<BoundArg> &bound)
{
    QStringList parts;
    for (const BoundArg &b : bound) {
        QString p = qs(b.name) + u' ' + qs(std::string(argKindName(b.kind)));
        if (b.kind == ArgKind::Value)
            p += u' ' + qs(b.type.name()) + u' ' + hex(b.value);
        else if (b.kind == ArgKind::Buffer)
            p += u' ' + qs(b.type.name()) + u' ' + QString::number(b.count) + u' ' + qs(toString(b.init));
        else
            p += u' ' + QString::number(b.localBytes);
        parts << p;
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace

class TestArgBind : public QObject
{
    Q_OBJECT

private slots:
    // ---- Specs ------------------------------------------------------------------------------------

    void argSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("scalar") << "n=uint:1024"
                                << "n=uint:1024";
        QTest::newRow("vector") << "v=float4:1,2,3,4"
                                << "v=float4:1,2,3,4";
        QTest::newRow("untyped") << "n=1024"
                                 << "n=1024";
        QTest::newRow("untyped hex-float") << "x=0x1.8p1"
                                           << "x=0x1.8p1";
        QTest::newRow("raw value") << "p=bytes8:0000803f07000000"
                                   << "p=bytes8:0000803f07000000";
        QTest::newRow("buffer iota") << "a=buffer:float:1024:iota"
                                     << "a=buffer:float:1024:iota";
        QTest::newRow("buffer default zeros") << "a=buffer:float:1024"
                                              << "a=buffer:float:1024:zeros";
        QTest::newRow("buffer untyped") << "a=buffer:1024:fill=2"
                                        << "a=buffer:1024:fill=2";
        QTest::newRow("buffer untyped no init") << "a=buffer:16"
                                                << "a=buffer:16:zeros";
        QTest::newRow("iota start") << "a=buffer:int:16:iota=-3"
                                    << "a=buffer:int:16:iota=-3";
        QTest::newRow("iota start step") << "a=buffer:float:16:iota=1:0.5"
                                         << "a=buffer:float:16:iota=1:0.5";
        QTest::newRow("random") << "a=buffer:float:16:random"
                                << "a=buffer:float:16:random";
        QTest::newRow("random seed") << "a=buffer:float:16:random=3"
                                     << "a=buffer:float:16:random=3";
        QTest::newRow("random range") << "a=buffer:int:16:random=7:-5:5"
                                      << "a=buffer:int:16:random=7:-5:5";
        QTest::newRow("vector fill") << "a=buffer:int4:2:fill=1,2,3,4"
                                     << "a=buffer:int4:2:fill=1,2,3,4";
        QTest::newRow("file with colon") << "a=buffer:float:16:file=/tmp/a:b.npy"
                                         << "a=buffer:float:16:file=/tmp/a:b.npy";
        QTest::newRow("copy") << "b=buffer:float:16:copy=a"
                              << "b=buffer:float:16:copy=a";
        QTest::newRow("local") << "s=local:4096"
                               << "s=local:4096";
        QTest::newRow("struct by value") << "p=struct:x=1,y=2.5,v=(1,2,3,4),inner={a=3}"
                                         << "p=struct:x=1,y=2.5,v=(1,2,3,4),inner={a=3}";
        QTest::newRow("struct of a named type") << "p=struct:par_str:alpha=1"
                                                << "p=struct:par_str:alpha=1";
        QTest::newRow("struct of a tagged type") << "p=struct:struct Tagged:{a=1}"
                                                 << "p=struct:struct Tagged:{a=1}";
        QTest::newRow("struct of zeros") << "p=struct:"
                                         << "p=struct:";
        QTest::newRow("buffer of structs") << "b=buffer:Particle:1024:fill={x=1,y=2}"
                                           << "b=buffer:Particle:1024:fill={x=1,y=2}";
        QTest::newRow("buffer of structs from a file") << "b=buffer:box_str:2:file=boxes.npy"
                                                       << "b=buffer:box_str:2:file=boxes.npy";
        QTest::newRow("buffer of complex numbers") << "z=buffer:cfloat_t:4:fill=1+2j"
                                                   << "z=buffer:cfloat_t:4:fill=1+2j";
    }

    void argSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, canonical);
        const ArgValue v = parseArgSpec(spec.toStdString());
        QCOMPARE(qs(toString(v)), canonical);
        QVERIFY(parseArgSpec(toString(v)) == v);
    }

    void badSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("no =") << "n"
                              << "argument 'n' needs the form NAME=VALUE";
        QTest::newRow("no name") << "=uint:5"
                                 << "argument '=uint:5' has no valid name before '='";
        QTest::newRow("bad name") << "1n=uint:5"
                                  << "argument '1n=uint:5' has no valid name before '='";
        QTest::newRow("no value") << "n="
                                  << "n: no value after '='";
        QTest::newRow("unknown type")
            << "n=uint32:5"
            << QStringLiteral("n: unknown type 'uint32' (types: ") + qs(elementTypeNames()) + u')';
        QTest::newRow("buffer alone") << "a=buffer"
                                      << "a: a buffer needs buffer:TYPE:COUNT[:INIT]";
        QTest::newRow("buffer without count") << "a=buffer:float"
                                              << "a: a buffer needs buffer:TYPE:COUNT[:INIT]";
        QTest::newRow("buffer count 0") << "a=buffer:float:0"
                                        << "a: buffer count must be at least 1";
        QTest::newRow("buffer count x") << "a=buffer:float:x"
                                        << "a: buffer count 'x' is not a whole number";
        QTest::newRow("buffer count negative") << "a=buffer:float:-4"
                                               << "a: buffer count '-4' is not a whole number";
        QTest::newRow("buffer bad type")
            << "a=buffer:fl-ot:16"
            << QStringLiteral("a: unknown type 'fl-ot' (types: ") + qs(elementTypeNames()) + u')';
        QTest::newRow("struct without fields") << "p=struct"
                                               << "p: a struct needs struct:FIELD=VALUE,... (fields by name)";
        QTest::newRow("struct syntax") << "p=struct:x=(1,2"
                                       << "p: expected ')' at ''";
        QTest::newRow("unknown init") << "a=buffer:float:16:ones"
                                      << "a: unknown initialiser 'ones' (zeros, fill=V, iota[=START[:STEP]], "
                                         "random[=SEED[:LO:HI]], file=PATH, copy=NAME)";
        QTest::newRow("fill without value") << "a=buffer:float:16:fill"
                                            << "a: initialiser fill needs a value (fill=V)";
        QTest::newRow("zeros with value") << "a=buffer:float:16:zeros=1"
                                          << "a: initialiser zeros takes no value";
        QTest::newRow("random bad seed") << "a=buffer:float:16:random=x"
                                         << "a: random seed 'x' is not a whole number";
        QTest::newRow("random half range")
            << "a=buffer:float:16:random=1:2"
            << "a: initialiser random takes random, random=SEED or random=SEED:LO:HI";
        QTest::newRow("iota empty") << "a=buffer:float:16:iota="
                                    << "a: initialiser iota takes iota, iota=START or iota=START:STEP";
        QTest::newRow("file without path") << "a=buffer:float:16:file="
                                           << "a: initialiser file needs a value (file=PATH)";
        QTest::newRow("copy without name") << "a=buffer:float:16:copy"
                                           << "a: initialiser copy needs a value (copy=NAME)";
        QTest::newRow("local alone") << "s=local"
                                     << "s: a local argument needs local:BYTES";
        QTest::newRow("local 0") << "s=local:0"
                                 << "s: local size must be at least 1";
        QTest::newRow("local negative") << "s=local:-4"
                                        << "s: local size '-4' is not a whole number";
    }

    void badSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        QCOMPARE(errorOf([&] { parseArgSpec(spec.toStdString()); }), message);
    }

    // ---- Binding ----------------------------------------------------------------------------------

    void kernelSlots()
    {
        const auto s = argSlots(kernelFrom(kKernels, "k"));
        QStringList got;
        for (const ArgSlot &slot : s)
            got << qs(slot.name) + u' ' + qs(std::string(argKindName(slot.kind))) + u' ' +
                       qs(slot.declaration()) + u' ' +
                       (slot.type ? qs(slot.type->name()) : QStringLiteral("?"));
        QCOMPARE(
            got.join(QStringLiteral("; ")),
            QStringLiteral(
                "a buffer __global const float* float; b buffer __global float* float; scratch local __local "
                "float* float; n value uint uint; v value float3 float3; pairs buffer __global Pair* ?; "
                "raw buffer __global void* ?; bytes buffer __global uchar* uchar"));
        // Images and samplers are arguments of their own kinds now (issue 14); pipes are still refused.
        const ArgSlot image = argSlots(kernelFrom(kKernels, "withImage")).front();
        QCOMPARE(image.kind, ArgKind::Image);
        QVERIFY(image.image == ImageDim::Image2D);
        QCOMPARE(image.access, AccessQualifier::ReadOnly);
        QVERIFY(image.unsupported.empty());
    }

    void bind_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("specs");
        QTest::addColumn<QString>("expected");
        const QString rest = QStringLiteral(" pairs=buffer:bytes8:2 raw=buffer:uint:3:iota bytes=buffer:4");
        const QString restBound = QStringLiteral(
            "; pairs buffer bytes8 2 zeros; raw buffer uint 3 iota; bytes buffer uchar 4 zeros");
        QTest::newRow("typed")
            << "k"
            << QStringLiteral(
                   "a=buffer:float:4:iota b=buffer:float:4 scratch=local:64 n=uint:4 v=float3:1,2,3") +
                   rest
            << QStringLiteral(
                   "a buffer float 4 iota; b buffer float 4 zeros; scratch local 64; n value uint 04000000; "
                   "v value float3 0000803f000000400000404000000000") +
                   restBound;
        QTest::newRow("types from the kernel, any order")
            << "k"
            << QStringLiteral("v=1,2,3 n=0x10 scratch=local:8 b=buffer:4:fill=-1.5 a=buffer:4:random=3:1:2") +
                   rest
            << QStringLiteral(
                   "a buffer float 4 random=3:1:2; b buffer float 4 fill=-1.5; scratch local 8; n value "
                   "uint 10000000; v value float3 0000803f000000400000404000000000") +
                   restBound;
        QTest::newRow("copy")
            << "k"
            << QStringLiteral("a=buffer:float:4:iota b=buffer:float:4:copy=a scratch=local:4 n=1 v=0,0,0") +
                   rest
            << QStringLiteral("a buffer float 4 iota; b buffer float 4 copy=a; scratch local 4; n value uint "
                              "01000000; v value float3 00000000000000000000000000000000") +
                   restBound;
        QTest::newRow("raw buffer of a struct takes any type")
            << "k"
            << "a=buffer:float:1 b=buffer:float:1 scratch=local:4 n=1 v=0,0,0 pairs=buffer:int2:2 "
               "raw=buffer:bytes3:5:fill=7 bytes=buffer:uchar:2:iota=254"
            << "a buffer float 1 zeros; b buffer float 1 zeros; scratch local 4; n value uint 01000000; v "
               "value "
               "float3 00000000000000000000000000000000; pairs buffer int2 2 zeros; raw buffer bytes3 5 "
               "fill=7; "
               "bytes buffer uchar 2 iota=254";
    }

    void bind()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, specs);
        QFETCH(QString, expected);
        QCOMPARE(describe(bindArguments(kernelFrom(kKernels, kernel.toLatin1().constData()), ::specs(specs))),
                 expected);
    }

    void badBind_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("specs");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("argument");
        const QString ok = QStringLiteral(
            "a=buffer:float:4 b=buffer:float:4 scratch=local:4 n=1 v=1,2,3 pairs=buffer:bytes8:1 "
            "raw=buffer:uchar:1 bytes=buffer:1");
        auto replace = [&](const char *name, const char *spec) {
            QStringList out;
            for (const QString &s : ok.split(u' ')) {
                if (!s.startsWith(QLatin1String(name) + u'='))
                    out << s;
            }
            if (*spec)
                out << QString::fromLatin1(spec);
            return out.join(u' ');
        };
        QTest::newRow("unknown name")
            << "k" << ok + QStringLiteral(" x=int:1")
            << "kernel k has no argument 'x' (arguments: a, b, scratch, n, v, pairs, raw, bytes)"
            << "x";
        QTest::newRow("duplicate") << "k" << ok + QStringLiteral(" n=uint:2")
                                   << "n: the argument is given twice"
                                   << "n";
        QTest::newRow("missing") << "k" << replace("n", "")
                                 << "missing argument 'n' (uint) of kernel k: give n=uint:VALUE"
                                 << "n";
        QTest::newRow("missing buffer") << "k" << replace("b", "")
                                        << "missing argument 'b' (__global float*) of kernel k: give "
                                           "b=buffer:float:COUNT[:INIT]"
                                        << "b";
        QTest::newRow("scalar for a pointer")
            << "k" << replace("a", "a=float:1")
            << "a: a value was given for the __global const float* argument (use "
               "a=buffer:float:COUNT[:INIT])"
            << "a";
        QTest::newRow("buffer for a value")
            << "k" << replace("n", "n=buffer:uint:4")
            << "n: a buffer was given for the uint argument (use n=uint:VALUE)"
            << "n";
        QTest::newRow("local for a buffer")
            << "k" << replace("a", "a=local:16")
            << "a: a local size was given for the __global const float* argument (use "
               "a=buffer:float:COUNT[:INIT])"
            << "a";
        QTest::newRow("buffer for local")
            << "k" << replace("scratch", "scratch=buffer:float:4")
            << "scratch: a buffer was given for the __local float* argument (use "
               "scratch=local:BYTES)"
            << "scratch";
        QTest::newRow("buffer type") << "k" << replace("a", "a=buffer:int:4")
                                     << "a: a buffer of int was given for the __global const float* argument"
                                     << "a";
        QTest::newRow("value type") << "k" << replace("n", "n=int:4")
                                    << "n: int was given for the uint argument"
                                    << "n";
        QTest::newRow("value range") << "k" << replace("n", "n=4294967296")
                                     << "n: 4294967296 is out of range for uint (0..4294967295)"
                                     << "n";
        QTest::newRow("3-vector count")
            << "k" << replace("v", "v=1,2,3,4") << "v: float3 needs 3 values, got 4 ('1,2,3,4')"
            << "v";
        // A name that is not an element type may be a struct of the program: only its layouts tell, and
        // without them (binding with no device) it is an unknown type.
        QTest::newRow("buffer of an unknown type")
            << "k" << replace("a", "a=buffer:flot:16")
            << QStringLiteral("a: unknown type 'flot' (types: ") + qs(elementTypeNames()) +
                   QStringLiteral("; structs of the program need the device's layouts)")
            << "a";
        QTest::newRow("struct value for a number")
            << "k" << replace("n", "n=struct:x=1")
            << "n: a struct value was given for the uint argument (use "
               "n=uint:VALUE)"
            << "n";
        QTest::newRow("struct without a type") << "k" << replace("pairs", "pairs=buffer:2")
                                               << "pairs: the element type Pair* is not one CLScope knows; "
                                                  "give one (pairs=buffer:bytesN:COUNT for a "
                                                  "struct of N bytes)"
                                               << "pairs";
        QTest::newRow("fill range") << "k" << replace("bytes", "bytes=buffer:4:fill=300")
                                    << "bytes: 300 is out of range for uchar (0..255)"
                                    << "bytes";
        QTest::newRow("vector fill count") << "k" << replace("raw", "raw=buffer:int4:2:fill=1,2,3")
                                           << "raw: int4 needs 4 values, got 3 ('1,2,3')"
                                           << "raw";
        QTest::newRow("iota range") << "k" << replace("a", "a=buffer:float:4:iota=3e38:1e38")
                                    << "a: 6e+38 is out of range for float"
                                    << "a";
        QTest::newRow("iota step") << "k" << replace("a", "a=buffer:float:4:iota=0:x")
                                   << "a: 'x' is not a valid float"
                                   << "a";
        QTest::newRow("random range") << "k" << replace("a", "a=buffer:float:4:random=1:5:2")
                                      << "a: random range 5:2 is empty (LO must not exceed HI)"
                                      << "a";
        QTest::newRow("random value") << "k" << replace("bytes", "bytes=buffer:4:random=1:0:256")
                                      << "bytes: 256 is out of range for uchar (0..255)"
                                      << "bytes";
        QTest::newRow("file not found") << "k" << replace("a", "a=buffer:float:4:file=/nonexistent/x.npy")
                                        << "a: file '/nonexistent/x.npy' not found"
                                        << "a";
        QTest::newRow("file is a folder")
            << "k" << replace("a", "a=buffer:float:4:file=/") << "a: '/' is not a regular file (a directory)"
            << "a";
        QTest::newRow("copy unknown")
            << "k" << replace("b", "b=buffer:float:4:copy=zz") << "b: copy=zz names no argument of the kernel"
            << "b";
        QTest::newRow("copy self") << "k" << replace("b", "b=buffer:float:4:copy=b")
                                   << "b: copy=b copies the buffer onto itself"
                                   << "b";
        QTest::newRow("copy a value")
            << "k" << replace("b", "b=buffer:float:4:copy=n") << "b: copy=n is not a buffer"
            << "b";
        QTest::newRow("copy size") << "k" << replace("b", "b=buffer:float:8:copy=a")
                                   << "b: copy=a has 16 bytes, this buffer 32"
                                   << "b";
        QTest::newRow("copy cycle") << "k"
                                    << replace("a", "a=buffer:float:4:copy=b")
                                           .replace(QStringLiteral("b=buffer:float:4"),
                                                    QStringLiteral("b=buffer:float:4:copy=a"))
                                    << "a: copy=b forms a cycle (a, b, a)"
                                    << "a";
        QTest::newRow("image") << "withImage"
                               << "o=buffer:int:1"
                               << "missing argument 'img' (read_only image2d_t) of kernel withImage: give "
                                  "img=image2d:RGBA:UNORM_INT8:WxH[:INIT]"
                               << "img";
        QTest::newRow("image given") << "withImage"
                                     << "img=1 o=buffer:int:1"
                                     << "img: a value was given for the read_only image2d_t argument (use "
                                        "img=image2d:RGBA:UNORM_INT8:WxH[:INIT])"
                                     << "img";
        QTest::newRow("sampler") << "withSampler"
                                 << "o=buffer:int:1 s=1"
                                 << "s: a value was given for the sampler_t argument (use "
                                    "s=sampler:normalized|unnormalized,ADDRESSING,nearest|linear)"
                                 << "s";
        QTest::newRow("pipe") << "withPipe"
                              << ""
                              << "p: pipe arguments are not supported yet"
                              << "p";
    }

    void badBind()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, specs);
        QFETCH(QString, message);
        QFETCH(QString, argument);
        const KernelInfo info = kernelFrom(kKernels, kernel.toLatin1().constData());
        QCOMPARE(errorOf([&] { bindArguments(info, ::specs(specs)); }), message);
        try {
            bindArguments(info, ::specs(specs));
        } catch (const RunInputError &e) {
            QCOMPARE(qs(e.argument()), argument);
        }
    }

    void noArgInfo()
    {
        KernelInfo info{"k", {KernelArg{}, KernelArg{}}, ArgInfoSource::None, {}, {}};
        QCOMPARE(
            errorOf([&] { argSlots(info); }),
            QStringLiteral("kernel k has no argument info (the driver gives none and the source does not "
                           "declare it)"));
    }
};

QTEST_GUILESS_MAIN(TestArgBind)
#include "tst_argbind.moc"
