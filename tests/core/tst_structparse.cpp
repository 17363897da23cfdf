// The struct reader of structs.h: typedef'd and tagged structs, nested and anonymous ones, arrays with
// macro sizes, vector and complex members, packed/aligned attributes, unions, typedefs of numbers, macros
// expanded, #if/#ifdef decided, headers followed, comments and function bodies skipped; and the struct
// value syntax `x=1,v=(1,2),inner={a=3}` read and written back. No device: the layouts are tst_structs'.
#include "clscope/structs.h"

#include <QTest>

using namespace clscope;

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const RunInputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

QString describe(const StructDecl &d);

QString describeField(const FieldDecl &f)
{
    QString out = f.name.empty() ? QStringLiteral("<anonymous>") : qs(f.name);
    out += u':';
    if (f.inlineType)
        out += u' ' + describe(*f.inlineType);
    else
        out += u' ' + qs(f.type);
    if (f.pointer)
        out += QStringLiteral(" *");
    for (const std::string &d : f.dims)
        out += u'[' + qs(d) + u']';
    return out;
}

// "names [attributes] { field: type[dims]; ... }", unions marked.
QString describe(const StructDecl &d)
{
    QStringList names;
    for (const std::string &n : d.names)
        names << qs(n);
    QString out = (d.isUnion ? QStringLiteral("union ") : QString()) + names.join(u'|');
    if (!d.attributes.empty()) {
        QStringList attrs;
        for (const std::string &a : d.attributes)
            attrs << qs(a);
        out += u" [" + attrs.join(u',') + u']';
    }
    QStringList fields;
    for (const FieldDecl &f : d.fields)
        fields << describeField(f);
    return out + u" { " + fields.join(QStringLiteral("; ")) + u" }";
}

QString describe(const SourceTypes &t)
{
    QStringList out;
    for (const auto &s : t.structs)
        out << describe(*s);
    for (const auto &[name, type] : t.aliases)
        out << qs(name) + u'=' + qs(type);
    return out.join(u'\n');
}

} // namespace

class TestStructParse : public QObject
{
    Q_OBJECT

private slots:
    void declarations_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");
        QTest::newRow("lavaMD") << "#define fp float\n"
                                   "typedef struct { fp x, y, z; } THREE_VECTOR;\n"
                                   "typedef struct { fp v, x, y, z; } FOUR_VECTOR;\n"
                                   "typedef struct { int x,y,z; long number; long offset; } box_str;\n"
                                   "typedef struct par_str { fp alpha; } par_str;"
                                << "THREE_VECTOR { x: float; y: float; z: float }\n"
                                   "FOUR_VECTOR { v: float; x: float; y: float; z: float }\n"
                                   "box_str { x: int; y: int; z: int; number: long; offset: long }\n"
                                   "struct par_str|par_str { alpha: float }\n"
                                   "par_str=struct par_str";
        QTest::newRow("ArrayFire KParam")
            << "typedef long dim_t;\n"
               "typedef struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; } "
               "KParam;"
            << "KParam { dims: dim_t[4]; strides: dim_t[4]; offset: dim_t }\n"
               "dim_t=long";
        QTest::newRow("tagged, then typedef'd")
            << "struct Inner { float b; short c[N]; };\n"
               "typedef struct Inner Inner_t;\n"
               "struct Outer { struct Inner in; Inner_t more[2][3]; float4 v; cfloat_t z; };"
            << "struct Inner { b: float; c: short[N] }\n"
               "struct Outer { in: struct Inner; more: Inner_t[2][3]; v: float4; z: cfloat_t }\n"
               "Inner_t=struct Inner";
        QTest::newRow("packed and aligned, either side")
            << "typedef struct __attribute__((packed)) { char c; int i; } P1;\n"
               "typedef struct { char c; int i; } __attribute__ ((packed, aligned (8))) P2;\n"
               "struct __attribute__((__aligned__(16))) A { int k __attribute__((aligned(4))); };"
            << "P1 [packed] { c: char; i: int }\n"
               "P2 [packed,aligned(8)] { c: char; i: int }\n"
               "struct A [aligned(16)] { k: int }";
        QTest::newRow("nested definitions and anonymous members")
            << "typedef struct {\n"
               "  int a;\n"
               "  struct { uchar tag; double d; } anon;\n"
               "  struct Named { int n; } named[2];\n"
               "  union { int asInt; float asFloat; };\n"
               "} Outer;"
            << "struct Named { n: int }\n"
               "Outer { a: int; anon:  { tag: uchar; d: double }; named: struct Named { n: int }[2]; "
               "<anonymous>: union  { asInt: int; asFloat: float } }";
        QTest::newRow("C spellings of numbers, qualifiers, pointers")
            << "typedef struct { unsigned int a; unsigned long b; long int c; unsigned char d; signed e;\n"
               "  unsigned short int f; const volatile float g; __global float *p, q; } S;"
            << "S { a: uint; b: ulong; c: long; d: uchar; e: int; f: ushort; g: float; p: float *; q: float "
               "}";
        QTest::newRow("a union of its own") << "typedef union { uint u; uchar bytes[4]; } Word;"
                                            << "union Word { u: uint; bytes: uchar[4] }";
        QTest::newRow("typedefs of numbers and of typedefs")
            << "typedef unsigned int u32; typedef u32 index_t; typedef float4 vec; typedef float *fptr;"
            << "index_t=u32\nu32=uint\nvec=float4";
        QTest::newRow("comments, strings, function bodies")
            << "/* typedef struct { int no; } Commented; */\n"
               "// typedef struct { int no; } LineComment;\n"
               "constant char *s = \"typedef struct { int no; } InString;\";\n"
               "kernel void k(global float *a) { typedef struct { int no; } Local; a[0] = 1; }\n"
               "typedef struct { int yes; } After;"
            << "After { yes: int }";
        QTest::newRow("object-like macros, function-like ones left")
            << "#define REAL double\n#define VEC(n) float##n\n#define FIELDS REAL a; REAL b;\n"
               "typedef struct { FIELDS int c; } M;"
            << "M { a: double; b: double; c: int }";
        QTest::newRow("#if, #ifdef, #else, #elif, defined, -D")
            << "#ifdef FROM_OPTIONS\ntypedef struct { int on; } A;\n#else\ntypedef struct { int off; } A;\n"
               "#endif\n"
               "#if defined(NOPE) || 0\ntypedef struct { int no; } B;\n#elif FROM_OPTIONS + 1 == 5\n"
               "typedef struct { int yes; } B;\n#endif\n"
               "#ifndef GUARD\n#define GUARD\ntypedef struct { int once; } C;\n#endif\n"
               "#ifndef GUARD\ntypedef struct { int twice; } C;\n#endif"
            << "A { on: int }\nB { yes: int }\nC { once: int }";
        QTest::newRow("line splices and bit-fields") << "#define PAIR \\\n  float x; \\\n  float y;\n "
                                                        "typedef struct { PAIR int flags : 3; int last; } Q;"
                                                     << "Q { x: float; y: float; last: int }";
        QTest::newRow("flexible array member skipped") << "typedef struct { int n; float data[]; } Flex;"
                                                       << "Flex { n: int }";
    }

    void declarations()
    {
        QFETCH(QString, source);
        QFETCH(QString, expected);
        const SourceTypes types = parseSourceTypes(source.toStdString(), {}, {"FROM_OPTIONS=4"});
        QCOMPARE(describe(types), expected);
    }

    void lookups()
    {
        const SourceTypes t =
            parseSourceTypes("typedef struct Particle { float x; } Particle_t;\n"
                             "typedef Particle_t P;\ntypedef long dim_t; typedef dim_t idx;\n"
                             "struct Other { int y; };");
        QVERIFY(t.find("P"));
        QCOMPARE(t.find("P"), t.find("struct Particle"));
        QCOMPARE(t.find("Particle_t"), t.find("struct Particle"));
        QVERIFY(!t.find("Particle")); // only "struct Particle" and the typedefs name it
        QCOMPARE(t.resolve("idx"), std::string("long"));
        QCOMPARE(t.find("struct Particle")->cName(), std::string("Particle_t"));
        QCOMPARE(t.find("struct Other")->cName(), std::string("struct Other"));
        QCOMPARE(t.structNames(), std::string("Particle_t, struct Other"));
    }

    void headersAreFollowed()
    {
        // lavaMD keeps its structs in main.h; the build hands the reader the headers it found.
        IncludedFile h;
        h.spelling = "main.h";
        h.path = "/src/main.h";
        h.found = true;
        h.contents = "#pragma once\n#define fp float\ntypedef struct { fp v, x; } FOUR_VECTOR;\n";
        const SourceTypes t =
            parseSourceTypes("#include \"main.h\"\n#include \"main.h\"\n#include <missing.h>\n"
                             "typedef struct { FOUR_VECTOR f; fp q; } Both;",
                             {h});
        QCOMPARE(describe(t),
                 QStringLiteral("FOUR_VECTOR { v: float; x: float }\nBoth { f: FOUR_VECTOR; q: float }"));
        QCOMPARE(t.find("FOUR_VECTOR")->file, std::string("/src/main.h"));
        QCOMPARE(t.find("Both")->file, std::string());
        QVERIFY(std::find(t.notes.begin(), t.notes.end(), "the header missing.h was not found") !=
                t.notes.end());
    }

    void pyopenclComplexHeaderIsSkipped()
    {
        // pyopencl-complex.h declares cfloat_t through function-like macros: the reader notes them and
        // goes on (cfloat_t is a type CLScope knows by name).
        IncludedFile h;
        h.spelling = "pyopencl-complex.h";
        h.path = "/usr/lib/python3/dist-packages/pyopencl/cl/pyopencl-complex.h";
        h.found = true;
        h.contents =
            "#pragma once\n#define PYOPENCL_DECLARE_COMPLEX_TYPE(BASE, B3) \\\n typedef union { struct "
            "{ BASE x, y; }; struct { BASE real, imag; }; } c##BASE##_t;\n"
            "PYOPENCL_DECLARE_COMPLEX_TYPE(float, FLT);\n";
        const SourceTypes t =
            parseSourceTypes("#include <pyopencl-complex.h>\ntypedef struct { cfloat_t z; } Z;", {h});
        QCOMPARE(describe(t), QStringLiteral("Z { z: cfloat_t }"));
        QVERIFY(std::find(t.notes.begin(), t.notes.end(),
                          "the function-like macro PYOPENCL_DECLARE_COMPLEX_TYPE(...) is not expanded") !=
                t.notes.end());
    }

    void defines()
    {
        QCOMPARE(optionDefines("-D CLSCOPE_USING_POCL -DN=4 -I x -D \"M=a b\" -cl-std=CL2.0 -D"),
                 (std::vector<std::string>{"CLSCOPE_USING_POCL", "N=4", "M=a b"}));
    }

    void values_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("written"); // toString of what was read
        QTest::newRow("flat") << "x=1,y=2.5"
                              << "x=1,y=2.5";
        QTest::newRow("braces, blanks") << " { x = 1 , y=-2 } "
                                        << "x=1,y=-2";
        QTest::newRow("vectors, nested, arrays")
            << "x=1,y=2.5,v=(1,2,3,4),inner={a=3},arr=((1,2),(3,4)),pts=({w=1},{w=2})"
            << "x=1,y=2.5,v=(1,2,3,4),inner={a=3},arr=((1,2),(3,4)),pts=({w=1},{w=2})";
        QTest::newRow("complex and hex") << "z=1+2j,raw=0x0a0b,e=1e-3"
                                         << "z=1+2j,raw=0x0a0b,e=1e-3";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("empty braces") << "{}"
                                      << "";
    }

    void values()
    {
        QFETCH(QString, text);
        QFETCH(QString, written);
        QCOMPARE(qs(toString(parseStructValue(text.toStdString(), "p"))), written);
    }

    void badValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("no =") << "x"
                              << "p: expected FIELD=VALUE at 'x'";
        QTest::newRow("twice") << "x=1,x=2"
                               << "p: the field x is given twice";
        QTest::newRow("unclosed (") << "v=(1,2"
                                    << "p: expected ')' at ''";
        QTest::newRow("unclosed {") << "{x=1"
                                    << "p: expected ',' or '}' at ''";
        QTest::newRow("missing value") << "x=,y=1"
                                       << "p: a value is missing at ',y=1'";
        QTest::newRow("trailing") << "{x=1}y"
                                  << "p: unexpected 'y' after the value";
        QTest::newRow("bad name") << "1x=2"
                                  << "p: expected FIELD=VALUE at '1x=2'";
    }

    void badValues()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QCOMPARE(errorOf([&] { parseStructValue(text.toStdString(), "p"); }), message);
    }
};

QTEST_GUILESS_MAIN(TestStructParse)
#include "tst_structparse.moc"
