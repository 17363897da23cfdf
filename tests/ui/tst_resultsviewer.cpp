// The results viewer offscreen, on run results made by hand (no device needed): Hex shows the stored bits
// of floats, Compare colours the differing elements, jumps to the first and keeps its target for the next
// run, a 2-D run is shown as a 2-D table and as a grey-scale picture, and times are in adaptive units; the
// buffer table model of each kind of buffer under QAbstractItemModelTester, its text compared at each step;
// the kernel debugger's buffers made into typed bytes.
#include "models/bufferpicture.h"
#include "models/buffertablemodel.h"
#include "models/debugbuffers.h"
#include "models/eventtablemodel.h"
#include "widgets/bufferimageview.h"
#include "widgets/resultsviewer.h"

#include "clscope/compare.h"
#include "clscope/npy.h"
#include "clscope/structs.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <cstring>
#include <limits>

using namespace clscope;
using namespace clscope::ui;

namespace {

template<typename T>
BufferData buffer(const std::string &name, ElementType type, const std::vector<T> &values)
{
    BufferData b;
    b.name = name;
    b.type = type;
    b.count = values.size() / std::size_t(type.width);
    b.bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) // an empty vector's data() may be null, which memcpy may not be given
        std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return b;
}

BufferData floats(const std::string &name, const std::vector<float> &values)
{
    return buffer(name, ElementType{ScalarKind::Float, 1, 0}, values);
}

RunResult result(std::vector<BufferData> buffers, std::vector<std::size_t> global,
                 std::uint64_t kernelNs = 1'234'567, double wallMs = 2.5)
{
    RunResultData d;
    d.kernel = "k";
    d.device = "pthread-test";
    d.global = std::move(global);
    d.offset.assign(d.global.size(), 0);
    CommandRecord launch;
    launch.name = "k";
    launch.start = 1'000;
    launch.end = 1'000 + kernelNs;
    d.launches = {launch};
    d.buffers = std::move(buffers);
    d.durationMs = wallMs;
    return RunResult(std::move(d));
}

std::vector<float> iota(std::size_t n)
{
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = float(i);
    return v;
}

// struct { float x; float3 pos; struct { uchar a; int b[2]; } inner; cfloat_t c; global int *p; } as a
// device might lay it out: 64 bytes, three elements.
BufferData particles()
{
    auto inner = std::make_shared<StructLayout>();
    inner->size = 12;
    inner->fields = {FieldLayout{"a", "uchar", ElementType{ScalarKind::UChar, 1, 0}, nullptr, {}, 0, 1, {}},
                     FieldLayout{"b", "int", ElementType{ScalarKind::Int, 1, 0}, nullptr, {2}, 4, 8, {}}};
    auto layout = std::make_shared<StructLayout>();
    layout->name = "P";
    layout->size = 64;
    layout->fields = {
        FieldLayout{"x", "float", ElementType{ScalarKind::Float, 1, 0}, nullptr, {}, 0, 4, {}},
        FieldLayout{"pos", "float3", ElementType{ScalarKind::Float, 3, 0}, nullptr, {}, 16, 16, {}},
        FieldLayout{"inner", "struct inner", std::nullopt, inner, {}, 32, 12, {}},
        FieldLayout{"c", "cfloat_t", ElementType::complexOf(ScalarKind::Float), nullptr, {}, 48, 8, {}},
        FieldLayout{"p", "global int *", ElementType::bytes(8), nullptr, {}, 56, 8, "a pointer"}};
    BufferData b;
    b.name = "particles";
    b.type = ElementType::bytes(64);
    b.count = 3;
    b.layout = layout;
    b.bytes.assign(3 * 64, 0);
    for (std::size_t e = 0; e < 3; ++e) {
        unsigned char *p = b.bytes.data() + e * 64;
        const float x = 1.5f + float(e);
        const float pos[4] = {float(e), 2, 3, 0};
        const int bs[2] = {int(e) * 10, -7};
        const float c[2] = {1, -2};
        std::memcpy(p, &x, 4);
        std::memcpy(p + 16, pos, 16);
        p[32] = static_cast<unsigned char>(200 + e);
        std::memcpy(p + 36, bs, 8);
        std::memcpy(p + 48, c, 8);
        p[56] = 0xab;
    }
    return b;
}

// A small buffer of each kind the table shows; `changed`: a copy named "other" with one value changed
// (element 1, its second component where it has one).
BufferData sample(const QString &kind, bool changed)
{
    const auto typed = [&](const char *type, auto values, std::size_t changedAt,
                           typename decltype(values)::value_type to = 7) {
        if (changed && changedAt < values.size())
            values[changedAt] = to;
        return buffer(changed ? "other" : "b", *parseElementType(type), values);
    };
    BufferData b;
    if (kind == u"float")
        b = typed("float", std::vector<float>{1.5f, -2, 0.25f}, 1);
    else if (kind == u"int")
        b = typed("int", std::vector<std::int32_t>{-1, 0, 2147483647}, 1);
    else if (kind == u"uchar")
        b = typed("uchar", std::vector<std::uint8_t>{0, 10, 255}, 1);
    else if (kind == u"double")
        b = typed("double", std::vector<double>{0.1, -1e300}, 1);
    else if (kind == u"half")
        b = typed("half", std::vector<std::uint16_t>{floatToHalf(1), floatToHalf(-0.5f)}, 1, floatToHalf(7));
    else if (kind == u"float2")
        b = typed("float2", std::vector<float>{0, 1, 2, 3}, 3);
    else if (kind == u"float3") // stored as float4: the 4th of each element is padding
        b = typed("float3", std::vector<float>{1, 2, 3, 99, 4, 5, 6, 99}, 5);
    else if (kind == u"uchar8")
        b = typed("uchar8", std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                  9);
    else if (kind == u"cfloat")
        b = typed("cfloat_t", std::vector<float>{1, -2, 0.5f, 3}, 3);
    else if (kind == u"bytes3")
        b = typed("bytes3", std::vector<std::uint8_t>{0x01, 0x02, 0x03, 0xa0, 0xb0, 0xc0}, 4);
    else if (kind == u"empty")
        b = typed("float", std::vector<float>{}, 0);
    else if (kind == u"grid" || kind == u"grid partial") // 4 x 3 and 4 x 2.5 elements, as a 2-D NDRange
        b = typed("float", iota(kind == u"grid" ? 12 : 10), 9);
    else if (kind == u"grid float2")
        b = typed("float2", std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 9);
    if (kind == u"struct") {
        b = particles();
        if (changed) {
            b.name = "other";
            const int value = 99; // element 1's inner.b[1]
            std::memcpy(b.bytes.data() + 64 + 40, &value, 4);
        }
    }
    return b;
}

// The model as text: a line of headers, then a line per row, "row: cell|cell"; a cell that differs ends in
// '*', one in the row of a difference in '+', and a tooltip follows in brackets.
QString snapshot(const QAbstractItemModel &model)
{
    QStringList headers;
    for (int c = 0; c < model.columnCount(); ++c)
        headers << model.headerData(c, Qt::Horizontal).toString();
    QStringList lines{headers.join(u'|')};
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex i = model.index(r, c);
            QString cell = i.data().toString();
            if (const QVariant background = i.data(Qt::BackgroundRole); background.isValid())
                cell += background.value<QColor>() == BufferTableModel::differsColour() ? u'*' : u'+';
            if (const QString tip = i.data(Qt::ToolTipRole).toString(); !tip.isEmpty())
                cell += QStringLiteral("[%1]").arg(tip);
            cells << cell;
        }
        lines << model.headerData(r, Qt::Vertical).toString() + QStringLiteral(": ") + cells.join(u'|');
    }
    return lines.join(u'\n');
}

} // namespace

class TestResultsViewer : public QObject
{
    Q_OBJECT
private slots:
    void hexShowsBits_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("component");
        QTest::addColumn<QString>("hex");
        auto bytesOf = [](auto v) { return QByteArray(reinterpret_cast<const char *>(&v), sizeof v); };
        QTest::newRow("float 1") << "float" << bytesOf(1.0f) << 0 << "0x3f800000";
        QTest::newRow("float -2.5") << "float" << bytesOf(-2.5f) << 0 << "0xc0200000";
        QTest::newRow("double 1") << "double" << bytesOf(1.0) << 0 << "0x3ff0000000000000";
        QTest::newRow("half 1") << "half" << bytesOf(floatToHalf(1.0f)) << 0 << "0x3c00";
        QTest::newRow("int -1") << "int" << bytesOf(std::int32_t(-1)) << 0 << "0xffffffff";
        QTest::newRow("uchar 10") << "uchar" << bytesOf(std::uint8_t(10)) << 0 << "0x0a";
        QTest::newRow("ulong") << "ulong" << bytesOf(std::uint64_t(0x1234)) << 0 << "0x0000000000001234";
        // float3 keeps a padding slot: component 2 is the third float, component 3 the next element's first.
        const float f3[] = {1, 2, 0.5f, 99, 3, 4, 5, 99};
        QTest::newRow("float3 z") << "float3" << QByteArray(reinterpret_cast<const char *>(f3), sizeof f3)
                                  << 2 << "0x3f000000";
        QTest::newRow("float3 next x")
            << "float3" << QByteArray(reinterpret_cast<const char *>(f3), sizeof f3) << 3 << "0x40400000";
    }
    void hexShowsBits()
    {
        QFETCH(QString, type);
        QFETCH(QByteArray, bytes);
        QFETCH(int, component);
        QFETCH(QString, hex);
        BufferData b;
        b.name = "b";
        b.type = *parseElementType(type.toStdString());
        b.count = std::size_t(bytes.size()) / b.type.size();
        b.bytes.assign(bytes.begin(), bytes.end());
        QCOMPARE(hexBits(b, std::size_t(component)), hex);
        BufferTableModel model;
        model.setBuffer(b);
        model.setFormat(NumberFormat::Hex);
        QCOMPARE(model.formatComponent(std::size_t(component)), hex);
    }

    void compareHighlightsAndKeepsTarget()
    {
        ResultsViewer viewer;
        viewer.resize(900, 500);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        std::vector<float> out = iota(200);
        std::vector<float> ref = out;
        ref[120] += 1;
        ref[150] += 1;
        viewer.showResult(result({floats("out", out), floats("ref", ref)}, {200}));
        QVERIFY(viewer.selectBuffer(QStringLiteral("out")));
        const QString text = viewer.compareWith(QStringLiteral("ref"), 1e-6);
        QVERIFY2(text.startsWith(QStringLiteral("2 of 200 values differ")), qPrintable(text));
        BufferTableModel *model = viewer.model();
        QCOMPARE(model->index(120, 0).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QCOMPARE(model->index(150, 0).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QVERIFY(!model->index(121, 0).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model->index(120, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("ref has 121"));
        // The table jumped to the first difference.
        QCOMPARE(viewer.table()->currentIndex().row(), 120);
        auto *first = viewer.findChild<QPushButton *>(QStringLiteral("resultsFirstDifference"));
        QVERIFY(first && first->isEnabled());
        viewer.table()->setCurrentIndex(model->index(0, 0));
        first->click();
        QCOMPARE(viewer.table()->currentIndex().row(), 120);

        // The next run is compared with the same target: the new difference is marked, the old is not.
        out = iota(200);
        ref = out;
        ref[7] = -1;
        viewer.showResult(result({floats("out", out), floats("ref", ref)}, {200}));
        QCOMPARE(viewer.compareTarget(), QStringLiteral("ref"));
        QVERIFY2(viewer.compareText().startsWith(QStringLiteral("1 of 200 values differ")),
                 qPrintable(viewer.compareText()));
        QCOMPARE(model->index(7, 0).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QVERIFY(!model->index(120, 0).data(Qt::BackgroundRole).isValid());
        QCOMPARE(viewer.table()->currentIndex().row(), 7);

        // Equal: nothing coloured, the target still kept.
        viewer.showResult(result({floats("out", out), floats("ref", out)}, {200}));
        QVERIFY(viewer.compareText().startsWith(QStringLiteral("Equal")));
        QVERIFY(!model->hasComparison());
        QVERIFY(!first->isEnabled());
        QCOMPARE(viewer.compareTarget(), QStringLiteral("ref"));
    }

    void compareWithFileKeepsTarget()
    {
        QTemporaryDir dir;
        ResultsViewer viewer;
        std::vector<float> values = iota(64);
        viewer.showResult(result({floats("out", values)}, {64}));
        const QString path = dir.filePath(QStringLiteral("reference.npy"));
        QCOMPARE(viewer.saveBuffer(path), QString());
        QVERIFY(viewer.compareWith(path, 0).startsWith(QStringLiteral("Equal")));
        values[33] = 1000;
        viewer.showResult(result({floats("out", values)}, {64}));
        QCOMPARE(viewer.compareTarget(), path);
        QVERIFY2(viewer.compareText().startsWith(QStringLiteral("1 of 64")),
                 qPrintable(viewer.compareText()));
        QVERIFY(viewer.model()->componentDiffers(33));
        // A target that cannot be compared is not kept.
        QVERIFY(
            viewer.compareWith(QStringLiteral("/nonexistent/x.npy"), 0).contains(QStringLiteral("neither")));
        QCOMPARE(viewer.compareTarget(), QString());
    }

    void vectorRowsHighlight()
    {
        BufferTableModel model;
        const std::vector<float> a = {0, 1, 2, 3, 4, 5, 6, 7};
        const BufferData b = buffer("v", ElementType{ScalarKind::Float, 4, 0}, a);
        model.setBuffer(b);
        std::vector<float> other = a;
        other[6] = 60;
        const BufferComparison c =
            compareBuffers(b, buffer("w", ElementType{ScalarKind::Float, 4, 0}, other), {}, true);
        QCOMPARE(c.differing, std::size_t{1});
        model.setComparison(buffer("w", ElementType{ScalarKind::Float, 4, 0}, other), c.differs);
        QCOMPARE(model.index(1, 2).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QCOMPARE(model.index(1, 0).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::rowDiffersColour());
        QVERIFY(!model.index(0, 2).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.indexOfComponent(6), model.index(1, 2));
    }

    // Every kind of buffer the table shows under QAbstractItemModelTester, which checks the model after
    // each reset and change it makes: the buffer set, each number format, a comparison (the colours and
    // tooltips), the 2-D layout, the comparison cleared, an empty buffer and the buffer again. The text
    // of the table is compared at each step.
    void modelTester_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("rowWidth"); // the 2-D layout's, or 0 for a buffer that has none
        QTest::addColumn<QString>("plain");
        QTest::addColumn<QString>("compared");
        QTest::addColumn<QString>("grid"); // compared, in the 2-D layout
        QTest::newRow("float") << "float" << 0
                               << "float\n"
                                  "0: 1.5\n"
                                  "1: -2\n"
                                  "2: 0.25"
                               << "float\n"
                                  "0: 1.5\n"
                                  "1: -2*[other has 7]\n"
                                  "2: 0.25"
                               << "";
        QTest::newRow("int") << "int" << 0
                             << "int\n"
                                "0: -1\n"
                                "1: 0\n"
                                "2: 2147483647"
                             << "int\n"
                                "0: -1\n"
                                "1: 0*[other has 7]\n"
                                "2: 2147483647"
                             << "";
        QTest::newRow("uchar") << "uchar" << 0
                               << "uchar\n"
                                  "0: 0\n"
                                  "1: 10\n"
                                  "2: 255"
                               << "uchar\n"
                                  "0: 0\n"
                                  "1: 10*[other has 7]\n"
                                  "2: 255"
                               << "";
        QTest::newRow("double") << "double" << 0
                                << "double\n"
                                   "0: 0.1\n"
                                   "1: -1e+300"
                                << "double\n"
                                   "0: 0.1\n"
                                   "1: -1e+300*[other has 7]"
                                << "";
        QTest::newRow("half") << "half" << 0
                              << "half\n"
                                 "0: 1\n"
                                 "1: -0.5"
                              << "half\n"
                                 "0: 1\n"
                                 "1: -0.5*[other has 7]"
                              << "";
        QTest::newRow("float2") << "float2" << 0
                                << "x|y\n"
                                   "0: 0|1\n"
                                   "1: 2|3"
                                << "x|y\n"
                                   "0: 0|1\n"
                                   "1: 2+|3*[other has 7]"
                                << "";
        QTest::newRow("float3") << "float3" << 0
                                << "x|y|z\n"
                                   "0: 1|2|3\n"
                                   "1: 4|5|6"
                                << "x|y|z\n"
                                   "0: 1|2|3\n"
                                   "1: 4+|5*[other has 7]|6+"
                                << "";
        QTest::newRow("uchar8") << "uchar8" << 0
                                << "s0|s1|s2|s3|s4|s5|s6|s7\n"
                                   "0: 0|1|2|3|4|5|6|7\n"
                                   "1: 8|9|10|11|12|13|14|15"
                                << "s0|s1|s2|s3|s4|s5|s6|s7\n"
                                   "0: 0|1|2|3|4|5|6|7\n"
                                   "1: 8+|9*[other has 7]|10+|11+|12+|13+|14+|15+"
                                << "";
        QTest::newRow("cfloat") << "cfloat" << 0
                                << "x|y\n"
                                   "0: 1|-2\n"
                                   "1: 0.5|3"
                                << "x|y\n"
                                   "0: 1|-2\n"
                                   "1: 0.5+|3*[other has 7]"
                                << "";
        QTest::newRow("bytes3") << "bytes3" << 0
                                << "s0|s1|s2\n"
                                   "0: 1|2|3\n"
                                   "1: 160|176|192"
                                << "s0|s1|s2\n"
                                   "0: 1|2|3\n"
                                   "1: 160+|176*[other has 7]|192+"
                                << "";
        QTest::newRow("struct") << "struct" << 0
                                << "x|pos.x|pos.y|pos.z|inner.a|inner.b[0]|inner.b[1]|c|p\n"
                                   "0: 1.5|0|2|3|200|0|-7|1-2j|ab00000000000000\n"
                                   "1: 2.5|1|2|3|201|10|-7|1-2j|ab00000000000000\n"
                                   "2: 3.5|2|2|3|202|20|-7|1-2j|ab00000000000000"
                                << "x|pos.x|pos.y|pos.z|inner.a|inner.b[0]|inner.b[1]|c|p\n"
                                   "0: 1.5|0|2|3|200|0|-7|1-2j|ab00000000000000\n"
                                   "1: 2.5+|1+|2+|3+|201+|10+|-7*[other has 99]|1-2j+|ab00000000000000+\n"
                                   "2: 3.5|2|2|3|202|20|-7|1-2j|ab00000000000000"
                                << "";
        QTest::newRow("empty") << "empty" << 0 << "float"
                               << "float"
                               << "";
        QTest::newRow("grid") << "grid" << 4
                              << "float\n"
                                 "0: 0\n"
                                 "1: 1\n"
                                 "2: 2\n"
                                 "3: 3\n"
                                 "4: 4\n"
                                 "5: 5\n"
                                 "6: 6\n"
                                 "7: 7\n"
                                 "8: 8\n"
                                 "9: 9\n"
                                 "10: 10\n"
                                 "11: 11"
                              << "float\n"
                                 "0: 0\n"
                                 "1: 1\n"
                                 "2: 2\n"
                                 "3: 3\n"
                                 "4: 4\n"
                                 "5: 5\n"
                                 "6: 6\n"
                                 "7: 7\n"
                                 "8: 8\n"
                                 "9: 9*[other has 7]\n"
                                 "10: 10\n"
                                 "11: 11"
                              << "0|1|2|3\n"
                                 "0: 0|1|2|3\n"
                                 "1: 4|5|6|7\n"
                                 "2: 8|9*[other has 7]|10|11";
        QTest::newRow("grid partial") << "grid partial" << 4
                                      << "float\n"
                                         "0: 0\n"
                                         "1: 1\n"
                                         "2: 2\n"
                                         "3: 3\n"
                                         "4: 4\n"
                                         "5: 5\n"
                                         "6: 6\n"
                                         "7: 7\n"
                                         "8: 8\n"
                                         "9: 9"
                                      << "float\n"
                                         "0: 0\n"
                                         "1: 1\n"
                                         "2: 2\n"
                                         "3: 3\n"
                                         "4: 4\n"
                                         "5: 5\n"
                                         "6: 6\n"
                                         "7: 7\n"
                                         "8: 8\n"
                                         "9: 9*[other has 7]"
                                      << "0|1|2|3\n"
                                         "0: 0|1|2|3\n"
                                         "1: 4|5|6|7\n"
                                         "2: 8|9*[other has 7]||";
        QTest::newRow("grid float2") << "grid float2" << 3
                                     << "x|y\n"
                                        "0: 0|1\n"
                                        "1: 2|3\n"
                                        "2: 4|5\n"
                                        "3: 6|7\n"
                                        "4: 8|9\n"
                                        "5: 10|11"
                                     << "x|y\n"
                                        "0: 0|1\n"
                                        "1: 2|3\n"
                                        "2: 4|5\n"
                                        "3: 6|7\n"
                                        "4: 8+|9*[other has 7]\n"
                                        "5: 10|11"
                                     << "0|1|2\n"
                                        "0: 0, 1|2, 3|4, 5\n"
                                        "1: 6, 7|8, 9*[other has 8, 7]|10, 11";
        QTest::newRow("struct in 2-D")
            << "struct" << 2
            << "x|pos.x|pos.y|pos.z|inner.a|inner.b[0]|inner.b[1]|c|p\n"
               "0: 1.5|0|2|3|200|0|-7|1-2j|ab00000000000000\n"
               "1: 2.5|1|2|3|201|10|-7|1-2j|ab00000000000000\n"
               "2: 3.5|2|2|3|202|20|-7|1-2j|ab00000000000000"
            << "x|pos.x|pos.y|pos.z|inner.a|inner.b[0]|inner.b[1]|c|p\n"
               "0: 1.5|0|2|3|200|0|-7|1-2j|ab00000000000000\n"
               "1: 2.5+|1+|2+|3+|201+|10+|-7*[other has 99]|1-2j+|ab00000000000000+\n"
               "2: 3.5|2|2|3|202|20|-7|1-2j|ab00000000000000"
            << "0|1\n"
               "0: 0, 0, 192, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 64, 64, "
               "0, 0, 0, 0, 200, 0, 0, 0, 0, 0, 0, 0, 249, 255, 255, 255, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, "
               "0, 192, 171, 0, 0, 0, 0, 0, 0, 0|0, 0, 32, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "
               "128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 0, 0, 201, 0, 0, 0, 10, 0, 0, 0, 249, 255, 255, "
               "255, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 192, 171, 0, 0, 0, 0, 0, 0, 0*[other has 0, 0, 32, "
               "64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 0, "
               "0, 201, 0, 0, 0, 10, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 192, 171, 0, "
               "0, 0, 0, 0, 0, 0]\n"
               "1: 0, 0, 96, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 64, 0, 0, 64, 64, "
               "0, 0, 0, 0, 202, 0, 0, 0, 20, 0, 0, 0, 249, 255, 255, 255, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, "
               "0, 192, 171, 0, 0, 0, 0, 0, 0, 0|";
    }
    void modelTester()
    {
        QFETCH(QString, kind);
        QFETCH(int, rowWidth);
        QFETCH(QString, plain);
        QFETCH(QString, compared);
        QFETCH(QString, grid);
        const BufferData b = sample(kind, false);
        const BufferData other = sample(kind, true);
        BufferTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setBuffer(b);
        QCOMPARE(model.rowCount(), int(b.count));
        QCOMPARE(snapshot(model), plain);
        for (const NumberFormat format : {NumberFormat::Hex, NumberFormat::Scientific}) {
            model.setFormat(format);
            QCOMPARE(snapshot(model) != plain, b.count > 0); // every value is written another way
        }
        model.setFormat(NumberFormat::Decimal);
        QCOMPARE(snapshot(model), plain);

        const BufferComparison c = compareBuffers(b, other, {}, true);
        QCOMPARE(c.differing > 0, b.count > 0);
        model.setComparison(other, c.differs);
        QCOMPARE(model.hasComparison(), b.count > 0);
        QCOMPARE(snapshot(model), compared);
        if (rowWidth > 0) {
            model.setRowWidth(std::size_t(rowWidth));
            QCOMPARE(model.rowCount(), int((b.count + std::size_t(rowWidth) - 1) / std::size_t(rowWidth)));
            QCOMPARE(model.columnCount(), rowWidth);
            QCOMPARE(snapshot(model), grid);
            model.setRowWidth(0);
            QCOMPARE(snapshot(model), compared); // the comparison outlives the layout
        }
        model.clearComparison();
        QVERIFY(!model.hasComparison());
        QCOMPARE(snapshot(model), plain);

        model.setBuffer(BufferData());
        QCOMPARE(model.rowCount(), 0);
        model.setBuffer(b);
        QCOMPARE(snapshot(model), plain);
    }

    void twoDimensional()
    {
        ResultsViewer viewer;
        viewer.resize(900, 500);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        // A 4 x 3 NDRange: element y * 4 + x.
        viewer.showResult(result({floats("img", iota(12))}, {4, 3}));
        QCOMPARE(viewer.rowWidth(), std::size_t{4});
        auto *layout = viewer.findChild<QComboBox *>(QStringLiteral("resultsLayout"));
        QVERIFY(layout && layout->isEnabled());
        QVERIFY(viewer.setLayout(ResultsViewer::Layout::Table2D));
        BufferTableModel *model = viewer.model();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->columnCount(), 4);
        QCOMPARE(model->index(1, 2).data().toString(), QStringLiteral("6"));
        QCOMPARE(model->index(2, 3).data().toString(), QStringLiteral("11"));
        QCOMPARE(model->headerData(3, Qt::Horizontal).toInt(), 3);

        // Compared in 2-D: the cell of the differing element.
        std::vector<float> ref = iota(12);
        ref[9] = 0;
        viewer.showResult(result({floats("img", iota(12)), floats("ref", ref)}, {4, 3}));
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Table2D); // kept for the next 2-D run
        QVERIFY2(viewer.compareWith(QStringLiteral("ref"), 0)
                     .contains(QStringLiteral("first at value 9: x 1, y 2")),
                 qPrintable(viewer.compareText()));
        QCOMPARE(model->index(2, 1).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QCOMPARE(viewer.table()->currentIndex(), model->index(2, 1));

        // The picture: min black, max white, one pixel per element.
        QVERIFY(viewer.setLayout(ResultsViewer::Layout::Image2D));
        QVERIFY(viewer.imageView()->isVisible());
        const QImage image = viewer.imageView()->image();
        QCOMPARE(image.size(), QSize(4, 3));
        QCOMPARE(qGray(image.pixel(0, 0)), 0);
        QCOMPARE(qGray(image.pixel(3, 2)), 255);
        QCOMPARE(qGray(image.pixel(1, 1)), int(std::lround(5.0 / 11 * 255)));
        QVERIFY(viewer.grab().save(QStringLiteral("/tmp/clscope-results-image-small.png")));
        // First difference goes back to the table, where a cell can be selected.
        QVERIFY(viewer.showFirstDifference());
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Table2D);
        QVERIFY(viewer.table()->isVisible());

        // A 1-D run has no 2-D layout: it is shown as a list.
        viewer.showResult(result({floats("img", iota(12))}, {12}));
        QVERIFY(!layout->isEnabled());
        QCOMPARE(model->columnCount(), 1);
        QCOMPARE(model->rowCount(), 12);
        QVERIFY(!viewer.setLayout(ResultsViewer::Layout::Image2D));
    }

    void imageMarksNan()
    {
        std::vector<float> v = {1, 2, std::numeric_limits<float>::quiet_NaN(), 3};
        const QImage image = bufferImage(floats("n", v), 2);
        QCOMPARE(image.size(), QSize(2, 2));
        QCOMPARE(image.pixel(0, 1), qRgb(255, 0, 255));
        QCOMPARE(qGray(image.pixel(1, 1)), 255);
        QVERIFY(bufferImage(floats("n", v), 0).isNull());
    }

    void adaptiveTimes()
    {
        ResultsViewer viewer;
        viewer.showResult(result({floats("out", iota(4))}, {4}, 1'234'567, 2.5));
        QVERIFY2(
            viewer.headerText().contains(QStringLiteral("kernel time 1.23 ms (mean 1.23 ms), run 2.5 ms")),
            qPrintable(viewer.headerText()));
        viewer.showResult(result({floats("out", iota(4))}, {4}, 850, 0.0123));
        QVERIFY2(viewer.headerText().contains(
                     QStringLiteral("kernel time 850 ns (mean 850 ns), run 12.3 \u00b5s")),
                 qPrintable(viewer.headerText()));
    }

    // A picture for the docs: a 2-D result as a picture and as a compared table.
    void screenshots()
    {
        const std::size_t w = 96;
        const std::size_t h = 64;
        std::vector<float> v(w * h);
        for (std::size_t y = 0; y < h; ++y) {
            for (std::size_t x = 0; x < w; ++x)
                v[y * w + x] = std::sin(float(x) / 9.0f) * std::cos(float(y) / 7.0f);
        }
        std::vector<float> ref = v;
        for (std::size_t y = 5; y < 9; ++y)
            ref[y * w + 6 + y] += 0.5f;
        ResultsViewer viewer;
        viewer.resize(1000, 380);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        viewer.showResult(result({floats("out", v), floats("expected", ref)}, {w, h}, 48'250, 3.1));
        QVERIFY(viewer.setLayout(ResultsViewer::Layout::Image2D));
        QVERIFY(viewer.grab().save(QStringLiteral("/tmp/clscope-results-image.png")));
        QVERIFY(viewer.setLayout(ResultsViewer::Layout::Table2D));
        viewer.compareWith(QStringLiteral("expected"), 1e-6);
        viewer.table()->clearSelection();
        QVERIFY(viewer.grab().save(QStringLiteral("/tmp/clscope-results-2d.png")));
    }

    // A read-back image is shown as its picture at once (not the grey scale of a 2-D buffer), with the
    // channels of the pixel under the mouse below it; zoom keeps the pixel under the cursor in place and
    // the mapping of screen to pixel follows it; a 1-D run keeps the picture of its image.
    void imageResultPicture()
    {
        const std::size_t w = 8;
        const std::size_t h = 6;
        std::vector<unsigned char> px;
        for (std::size_t y = 0; y < h; ++y) {
            for (std::size_t x = 0; x < w; ++x) {
                px.push_back(static_cast<unsigned char>(x * 30));
                px.push_back(static_cast<unsigned char>(y * 40));
                px.push_back(200);
                px.push_back(x == 7 && y == 5 ? 0 : 255); // one transparent pixel
            }
        }
        BufferData image = buffer("output_image", ElementType{ScalarKind::UChar, 4, 0}, px);
        image.image =
            ImageInfo{ImageDim::Image2D, ImageFormat{CL_RGBA, CL_UNORM_INT8}, ImageShape{w, h, 1, 1}};
        ResultsViewer viewer;
        viewer.resize(900, 500);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        // A 1-D NDRange: an image is still a picture.
        viewer.showResult(result({image}, {48}));
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Image2D);
        QVERIFY(viewer.imageView()->isVisible());
        const QImage picture = viewer.imageView()->image();
        QCOMPARE(picture.size(), QSize(int(w), int(h)));
        QCOMPARE(picture.pixel(3, 2), qRgba(90, 80, 200, 255));
        QCOMPARE(qAlpha(picture.pixel(7, 5)), 0);
        QCOMPARE(viewer.describePixel(3, 2),
                 QStringLiteral("x 3, y 2: RGBA 90, 80, 200, 255 (0.3529, 0.3137, 0.7843, 1)"));
        // The pixel under the mouse, in the line below.
        BufferImageView *view = viewer.imageView();
        const QRect r = view->imageRect();
        const double s = view->scale();
        QVERIFY(s >= 1);
        const QPoint at(r.left() + int(3.5 * s), r.top() + int(2.5 * s));
        QCOMPARE(view->pixelAt(at), QPoint(3, 2));
        QTest::mouseMove(view, at);
        QTRY_COMPARE(viewer.pixelText(), viewer.describePixel(3, 2));
        // Zoom 2x around that point: the same pixel stays under it.
        view->setZoom(s * 2, at);
        QCOMPARE(view->scale(), s * 2);
        QCOMPARE(view->pixelAt(at), QPoint(3, 2));
        // A wheel step zooms in by 1.25 around the cursor.
        QWheelEvent wheel(QPointF(at), view->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
        QCOMPARE(view->scale(), s * 2.5);
        QCOMPARE(view->pixelAt(at), QPoint(3, 2));
        // Dragging pans: the picture moves with the mouse.
        const QPoint before = view->imageRect().topLeft();
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, at);
        QTest::mouseMove(view, at + QPoint(20, 10));
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, at + QPoint(20, 10));
        QCOMPARE(view->imageRect().topLeft(), before + QPoint(20, 10));
        QVERIFY(viewer.grab().save(QStringLiteral("/tmp/clscope-results-image-zoomed.png")));
        view->fit();
        QCOMPARE(view->zoom(), 0.0);
        QCOMPARE(view->imageRect(), r);
        // The 2-D table of an image: a row per image row, a pixel per cell.
        QVERIFY(viewer.setLayout(ResultsViewer::Layout::Table2D));
        QCOMPARE(viewer.model()->rowCount(), int(h));
        QCOMPARE(viewer.model()->columnCount(), int(w));
        QCOMPARE(viewer.model()->index(2, 3).data().toString(), QStringLiteral("90, 80, 200, 255"));
        // Images keep their own layout: a plain buffer of a 1-D run is a list.
        viewer.showResult(result({floats("plain", iota(4)), image}, {4}));
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Table2D); // the image is still the one shown
        QVERIFY(viewer.selectBuffer(QStringLiteral("plain")));
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Linear);
        QVERIFY(viewer.selectBuffer(QStringLiteral("output_image")));
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Table2D);
    }

    // Slices of a 2-D array (and 3-D) one under the other, a float image in its 0..1 range.
    void imageArrayFloat()
    {
        std::vector<float> v = {0.0f, 0.5f, 1.0f, 0.25f, 2.0f, -1.0f};
        BufferData image = floats("layers", v);
        image.image = ImageInfo{ImageDim::Image2DArray, ImageFormat{CL_R, CL_FLOAT}, ImageShape{3, 1, 1, 2}};
        ResultsViewer viewer;
        viewer.showResult(result({image}, {3, 1, 2}));
        QCOMPARE(viewer.layout(), ResultsViewer::Layout::Image2D);
        const QImage picture = viewer.imageView()->image();
        QCOMPARE(picture.size(), QSize(3, 2));
        QCOMPARE(qGray(picture.pixel(1, 0)), 128);
        QCOMPARE(qGray(picture.pixel(2, 0)), 255);
        QCOMPARE(qGray(picture.pixel(1, 1)), 255); // 2.0 clamped to 1
        QCOMPARE(qGray(picture.pixel(2, 1)), 0);   // -1 clamped to 0
        QCOMPARE(viewer.describePixel(2, 1), QStringLiteral("x 2, y 0, layer 1: R -1"));
    }

    // A buffer of structs: a column per field, vectors as x/y/z/w, nested fields by their path, arrays
    // by element; a comparison colours the field that differs.
    void structColumns()
    {
        const BufferData b = particles();
        ResultsViewer viewer;
        viewer.showResult(result({b}, {3}));
        BufferTableModel *model = viewer.model();
        QStringList headers;
        for (int c = 0; c < model->columnCount(); ++c)
            headers << model->headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers.join(u','), QStringLiteral("x,pos.x,pos.y,pos.z,inner.a,inner.b[0],inner.b[1],c,p"));
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->index(1, 0).data().toString(), QStringLiteral("2.5"));
        QCOMPARE(model->index(2, 1).data().toString(), QStringLiteral("2"));
        QCOMPARE(model->index(2, 4).data().toString(), QStringLiteral("202"));
        QCOMPARE(model->index(2, 5).data().toString(), QStringLiteral("20"));
        QCOMPARE(model->index(2, 6).data().toString(), QStringLiteral("-7"));
        QCOMPARE(model->index(0, 7).data().toString(), QStringLiteral("1-2j"));
        QCOMPARE(model->index(0, 8).data().toString(), QStringLiteral("ab00000000000000"));
        model->setFormat(NumberFormat::Hex);
        QCOMPARE(model->index(1, 0).data().toString(), QStringLiteral("0x40200000"));
        model->setFormat(NumberFormat::Decimal);

        // Compared with a copy whose element 1 has another inner.b[1]: that cell is coloured, the rest of
        // its row lighter, and the table goes to it.
        BufferData other = b;
        other.name = "expected";
        const int changed = 99;
        std::memcpy(other.bytes.data() + 64 + 40, &changed, 4);
        viewer.showResult(result({b, other}, {3}));
        QVERIFY(viewer.selectBuffer(QStringLiteral("particles")));
        QVERIFY2(viewer.compareWith(QStringLiteral("expected"), 0).contains(QStringLiteral("differ")),
                 qPrintable(viewer.compareText()));
        QCOMPARE(model->index(1, 6).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QCOMPARE(model->index(1, 0).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::rowDiffersColour());
        QVERIFY(!model->index(0, 6).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model->index(1, 6).data(Qt::ToolTipRole).toString(), QStringLiteral("expected has 99"));
        QCOMPARE(viewer.table()->currentIndex(), model->index(1, 6));
        // CSV: a row per struct, a column per field.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("p.csv"));
        QCOMPARE(viewer.saveBuffer(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines[0], QByteArray("x,pos.x,pos.y,pos.z,inner.a,inner.b[0],inner.b[1],c,p"));
        QCOMPARE(lines[2], QByteArray("2.5,1,2,3,201,10,-7,1-2j,ab00000000000000"));
    }

    // The kernel debugger's buffers (elements as text, the first 1024 sent) as the typed bytes the viewer
    // shows: scalars, chars with their character, vectors by their components; what is not numbers says why.
    void debugBuffersAsData()
    {
        const auto value = [](const char *name, const char *text) {
            DebugValue v;
            v.name = name;
            v.value = text;
            return v;
        };
        DebugValue floats{"a", "const float[5]", "[1.5, nan, -inf]", "", 5, {}};
        floats.children = {value("[0]", "1.5"), value("[1]", "nan"), value("[2]", "-inf")};
        DebugBuffer b = debugBuffer(floats);
        QVERIFY2(b.data, b.problem.c_str());
        QVERIFY(b.partial());
        QCOMPARE(b.elements, std::uint64_t(5));
        QCOMPARE(b.data->name, std::string("a"));
        QCOMPARE(b.data->type.name(), std::string("float"));
        QCOMPARE(b.data->count, std::size_t(3));
        QCOMPARE(b.data->value(0), 1.5);
        QVERIFY(std::isnan(b.data->value(1)));
        QCOMPARE(b.data->value(2), -std::numeric_limits<double>::infinity());

        DebugValue chars{"c", "char[2]", "", "", 2, {value("[0]", "65 'A'"), value("[1]", "-3")}};
        b = debugBuffer(chars);
        QVERIFY2(b.data, b.problem.c_str());
        QVERIFY(!b.partial());
        QCOMPARE(b.data->value(0), 65.0);
        QCOMPARE(b.data->value(1), -3.0);

        DebugValue vec = value("[0]", "(1, 2, 3)");
        vec.children = {value("x", "1"), value("y", "2"), value("z", "3")};
        DebugValue vectors{"v", "int3[1]", "", "", 1, {vec}};
        b = debugBuffer(vectors);
        QVERIFY2(b.data, b.problem.c_str());
        QCOMPARE(b.data->bytes.size(), std::size_t(16)); // a 3-vector is stored as 4
        QCOMPARE(b.data->componentCount(), std::size_t(3));
        QCOMPARE(b.data->value(2), 3.0);

        DebugValue structs{"p", "struct Particle[4]", "", "", 4, {value("[0]", "{1, 2}")}};
        b = debugBuffer(structs);
        QVERIFY(!b.data);
        QVERIFY2(b.problem.find("struct Particle") != std::string::npos, b.problem.c_str());

        DebugValue unread = value("[1]", "");
        unread.error = "not readable";
        DebugValue broken{"u", "uint[2]", "", "", 2, {value("[0]", "1"), unread}};
        b = debugBuffer(broken);
        QVERIFY(!b.data);
        QCOMPARE(b.problem, std::string("u[1]: not readable"));
    }
};

QTEST_MAIN(TestResultsViewer)
#include "tst_resultsviewer.moc"
