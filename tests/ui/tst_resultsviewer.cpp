// The results viewer offscreen, on run results made by hand (no device needed): Hex shows the stored bits
// of floats, Compare colours the differing elements, jumps to the first and keeps its target for the next
// run, a 2-D run is shown as a 2-D table and as a grey-scale picture, and times are in adaptive units.
#include "models/buffertablemodel.h"
#include "models/eventtablemodel.h"
#include "widgets/bufferimageview.h"
#include "widgets/resultsviewer.h"

#include "clscope/npy.h"

#include <QComboBox>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

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
        const Comparison c = compareBuffers(b, buffer("w", ElementType{ScalarKind::Float, 4, 0}, other), 0);
        QCOMPARE(c.mismatches, std::size_t{1});
        model.setComparison(buffer("w", ElementType{ScalarKind::Float, 4, 0}, other), c.differs);
        QCOMPARE(model.index(1, 2).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::differsColour());
        QCOMPARE(model.index(1, 0).data(Qt::BackgroundRole).value<QColor>(),
                 BufferTableModel::rowDiffersColour());
        QVERIFY(!model.index(0, 2).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.indexOfComponent(6), model.index(1, 2));
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
};

QTEST_MAIN(TestResultsViewer)
#include "tst_resultsviewer.moc"
