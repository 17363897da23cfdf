// The struct field editor offscreen, on declarations read from source (no device needed): nested structs,
// an inline struct, vectors, arrays, typedefs of numbers and anonymous members become a tree of fields; what
// is typed comes back as the CLI's struct value, a value comes back into the fields, and a value out of
// range or a field the struct lacks is named.
#include "widgets/structeditor.h"

#include <QTest>
#include <QTreeWidget>

using namespace clscope;
using namespace clscope::ui;

namespace {

const char *const kSource = R"(
typedef uint count_t;
struct inner { uchar a; short b; };
typedef struct {
    float x;
    float4 v;
    struct inner in;
    struct { int lo; int hi; } range;
    union { int i; float f; };
    count_t n;
    int table[3];
    __global float *p;
} Params;
__kernel void k(Params p, __global float *out) { out[0] = p.x; }
)";

enum { Value = 2 };

} // namespace

class TestStructEditor : public QObject
{
    Q_OBJECT
    SourceTypes m_types = parseSourceTypes(kSource);

    const StructDecl &params() const { return *m_types.find("Params"); }

private slots:
    void treeOfFields()
    {
        QVERIFY(m_types.find("Params"));
        StructEditor editor(m_types, params(), QStringLiteral("p"));
        QTreeWidget *tree = editor.tree();
        QStringList top;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            top << tree->topLevelItem(i)->text(0);
        // The anonymous union's fields belong to Params.
        QCOMPARE(top.join(u','), QStringLiteral("x,v,in,range,i,f,n,table,p"));
        QCOMPARE(editor.item(QStringLiteral("in"))->childCount(), 2);
        QVERIFY(editor.item(QStringLiteral("in.b")));
        QVERIFY(editor.item(QStringLiteral("range.hi")));
        QCOMPARE(editor.item(QStringLiteral("table"))->text(1), QStringLiteral("int[3]"));
        QCOMPARE(editor.item(QStringLiteral("p"))->text(1), QStringLiteral("float*"));
        // Branches take no value of their own.
        QVERIFY(!(editor.item(QStringLiteral("in"))->flags() & Qt::ItemIsEditable));
        QVERIFY(editor.item(QStringLiteral("in.a"))->flags() & Qt::ItemIsEditable);
        QCOMPARE(editor.value(), QString());
    }

    void typedValuesBecomeTheCliForm()
    {
        StructEditor editor(m_types, params(), QStringLiteral("p"));
        editor.item(QStringLiteral("x"))->setText(Value, QStringLiteral("1.5"));
        editor.item(QStringLiteral("v"))->setText(Value, QStringLiteral("1,2,3,4"));
        editor.item(QStringLiteral("in.a"))->setText(Value, QStringLiteral("7"));
        editor.item(QStringLiteral("range.hi"))->setText(Value, QStringLiteral("0x10"));
        editor.item(QStringLiteral("n"))->setText(Value, QStringLiteral("4000000000"));
        editor.item(QStringLiteral("table"))->setText(Value, QStringLiteral("(4,5,6)"));
        QCOMPARE(editor.error(), QString());
        QCOMPARE(editor.value(),
                 QStringLiteral("x=1.5,v=(1,2,3,4),in={a=7},range={hi=0x10},n=4000000000,table=(4,5,6)"));
        // The form the CLI reads, and back into a fresh editor.
        const ValueTree tree = parseStructValue(editor.value().toStdString(), "p");
        QCOMPARE(tree.items.size(), std::size_t(6));
        StructEditor again(m_types, params(), QStringLiteral("p"));
        QVERIFY2(again.setValue(editor.value()), qPrintable(again.error()));
        QCOMPARE(again.item(QStringLiteral("v"))->text(Value), QStringLiteral("(1,2,3,4)"));
        QCOMPARE(again.item(QStringLiteral("range.hi"))->text(Value), QStringLiteral("0x10"));
        QCOMPARE(again.value(), editor.value());
    }

    void badValuesAreNamed()
    {
        StructEditor editor(m_types, params(), QStringLiteral("p"));
        editor.item(QStringLiteral("in.a"))->setText(Value, QStringLiteral("300"));
        QVERIFY2(editor.error().contains(QStringLiteral("p.in.a")) &&
                     editor.error().contains(QStringLiteral("300")),
                 qPrintable(editor.error()));
        QVERIFY(editor.item(QStringLiteral("in.a"))->background(Value) != QBrush());
        editor.item(QStringLiteral("in.a"))->setText(Value, QStringLiteral("200"));
        QCOMPARE(editor.error(), QString());
        // A vector of the wrong width, unbalanced brackets in an array.
        editor.item(QStringLiteral("v"))->setText(Value, QStringLiteral("1,2"));
        QVERIFY2(editor.error().contains(QStringLiteral("p.v")), qPrintable(editor.error()));
        editor.item(QStringLiteral("v"))->setText(Value, QString());
        editor.item(QStringLiteral("table"))->setText(Value, QStringLiteral("(1,2"));
        QVERIFY(!editor.error().isEmpty());
        editor.item(QStringLiteral("table"))->setText(Value, QString());
        QCOMPARE(editor.error(), QString());
        // A value naming a field the struct lacks: the fields it knows are filled, the stranger named.
        QVERIFY(!editor.setValue(QStringLiteral("x=2,nosuch=1")));
        QVERIFY2(editor.error().contains(QStringLiteral("nosuch")), qPrintable(editor.error()));
        QCOMPARE(editor.item(QStringLiteral("x"))->text(Value), QStringLiteral("2"));
        QVERIFY(!editor.setValue(QStringLiteral("x=(1")));
        QVERIFY(!editor.error().isEmpty());
        QVERIFY(editor.setValue(QString()));
        QCOMPARE(editor.value(), QString());
    }
};

QTEST_MAIN(TestStructEditor)
#include "tst_structeditor.moc"
