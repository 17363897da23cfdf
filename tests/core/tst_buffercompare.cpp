// The one buffer comparison (clscope/compare.h): integers exactly, floats within a tolerance (relative plus
// a few ULP across devices, absolute in replay and the results viewer), NaN with NaN, the largest
// differences kept; a buffer missing, of another size or another type never agrees. The rows marked
// "was:" are where the four former copies (run on every device, the results viewer, replay, the sweep)
// disagreed.
#include "clscope/compare.h"
#include "clscope/runner.h"
#include "clscope/structs.h"

#include <QtTest/QtTest>

#include <cstring>
#include <limits>

using namespace clscope;

namespace {

template<class T>
BufferData buffer(const char *name, ScalarKind kind, std::initializer_list<T> values, int width = 1)
{
    BufferData b;
    b.name = name;
    b.type = ElementType{kind, width};
    b.count = values.size() / std::size_t(b.type.storedWidth());
    b.bytes.resize(values.size() * sizeof(T));
    std::memcpy(b.bytes.data(), std::data(values), b.bytes.size());
    return b;
}

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

} // namespace

class TestBufferCompare : public QObject
{
    Q_OBJECT
private slots:
    void integersMustBeEqual()
    {
        const auto a = buffer<int>("n", ScalarKind::Int, {1, 2, 3, 4});
        QVERIFY(compareBuffers(a, a).agrees());
        QVERIFY(compareBuffers(a, a).exact);
        const auto b = buffer<int>("n", ScalarKind::Int, {1, 2, 4, 4});
        const BufferComparison r = compareBuffers(a, b);
        QVERIFY(!r.agrees());
        QCOMPARE(r.name, std::string("n"));
        QCOMPARE(r.differing, std::size_t(1));
        QCOMPARE(r.firstDiffering, std::size_t(2));
        QCOMPARE(r.referenceAt, 3.0);
        QCOMPARE(r.otherAt, 4.0);
        QCOMPARE(comparisonText(r), std::string("1 of 4 differ, first at 2"));
    }

    // was: the results viewer applied its tolerance to integers too (and compared them as doubles).
    void toleranceIsForFloatingPointOnly()
    {
        const auto a = buffer<int>("n", ScalarKind::Int, {1, 2});
        const auto b = buffer<int>("n", ScalarKind::Int, {1, 3});
        const BufferComparison r = compareBuffers(a, b, Tolerance::absoluteOf(5));
        QVERIFY(!r.agrees());
        QCOMPARE(r.maxAbs, 1.0); // still said
        // 2^53 and 2^53 + 1 are the same double, not the same long.
        const auto big = buffer<std::int64_t>("l", ScalarKind::Long, {std::int64_t(1) << 53});
        const auto next = buffer<std::int64_t>("l", ScalarKind::Long, {(std::int64_t(1) << 53) + 1});
        QVERIFY(!compareBuffers(big, next, Tolerance::absoluteOf(5)).agrees());
    }

    void floatsWithinTolerance_data()
    {
        QTest::addColumn<float>("a");
        QTest::addColumn<float>("b");
        QTest::addColumn<double>("absolute");
        QTest::addColumn<bool>("acrossDevices"); // relative 1e-5 plus 4 ULP
        QTest::addColumn<bool>("agrees");
        QTest::newRow("equal") << 1.5f << 1.5f << 0.0 << true << true;
        QTest::newRow("one ulp") << 1.0f << std::nextafter(1.0f, 2.0f) << 0.0 << true << true;
        QTest::newRow("relative 1e-6") << 1000.0f << 1000.001f << 0.0 << true << true;
        QTest::newRow("relative 1e-3") << 1.0f << 1.001f << 0.0 << true << false;
        QTest::newRow("zero and tiny") << 0.0f << 4e-45f << 0.0 << true << true; // a few ULP of denormals
        QTest::newRow("zero and small") << 0.0f << 1e-6f << 0.0 << true << false;
        QTest::newRow("nan and nan") << kNan << kNan << 0.0 << true << true;
        QTest::newRow("nan and one") << kNan << 1.0f << 0.0 << true << false;
        QTest::newRow("inf and inf") << kInf << kInf << 0.0 << true << true;
        QTest::newRow("inf and -inf") << kInf << -kInf << 0.0 << true << false;
        // A zero tolerance is equality (replay's and the sweep's default).
        QTest::newRow("exact: one ulp") << 1.0f << std::nextafter(1.0f, 2.0f) << 0.0 << false << false;
        QTest::newRow("exact: +0 and -0") << 0.0f << -0.0f << 0.0 << false << true;
        QTest::newRow("exact: nan and nan") << kNan << kNan << 0.0 << false << true;
        // Absolute (replay --tolerance, the results viewer).
        QTest::newRow("absolute within") << 1.0f << 1.05f << 0.1 << false << true;
        QTest::newRow("absolute past") << 1.0f << 1.2f << 0.1 << false << false;
        QTest::newRow("absolute: nan and one") << kNan << 1.0f << 1e30 << false << false;
        // was: the results viewer's |inf - inf| is NaN, which it counted as a difference.
        QTest::newRow("absolute: inf and inf") << kInf << kInf << 0.5 << false << true;
        QTest::newRow("absolute: inf and max")
            << kInf << std::numeric_limits<float>::max() << 1e300 << false << false;
    }
    void floatsWithinTolerance()
    {
        QFETCH(float, a);
        QFETCH(float, b);
        QFETCH(double, absolute);
        QFETCH(bool, acrossDevices);
        QFETCH(bool, agrees);
        const Tolerance tolerance =
            acrossDevices ? Tolerance::acrossDevices() : Tolerance::absoluteOf(absolute);
        const BufferComparison r = compareBuffers(buffer<float>("x", ScalarKind::Float, {a}),
                                                  buffer<float>("x", ScalarKind::Float, {b}), tolerance);
        QCOMPARE(r.agrees(), agrees);
        QVERIFY(!r.exact);
    }

    void keepsTheLargestDifferences()
    {
        const auto a = buffer<double>("d", ScalarKind::Double, {1.0, 100.0, 3.0});
        const auto b = buffer<double>("d", ScalarKind::Double, {1.0, 100.5, 3.0 + 1e-3});
        const BufferComparison r = compareBuffers(a, b, Tolerance::acrossDevices());
        QVERIFY(!r.agrees());
        QCOMPARE(r.differing, std::size_t(2));
        QCOMPARE(r.maxAbs, 0.5);
        QVERIFY(qAbs(r.maxRel - 0.5 / 100.5) < 1e-12); // the larger of 0.5/100.5 and 1e-3/3.001
        QVERIFY(comparisonText(r).starts_with("2 of 3 differ, first at 1 (max abs 0.5"));
    }

    // was: replay kept the largest difference of the differing components only, and NaN when a NaN
    // differed; now over every finite pair, so "within tolerance" says by how much.
    void largestDifferencesAreOverFiniteComponents()
    {
        const auto a = buffer<float>("x", ScalarKind::Float, {1.0f, kNan, 2.0f});
        const auto b = buffer<float>("x", ScalarKind::Float, {1.25f, 3.0f, 2.0f});
        const BufferComparison r = compareBuffers(a, b, Tolerance::absoluteOf(0.5));
        QCOMPARE(r.differing, std::size_t(1));
        QCOMPARE(r.firstDiffering, std::size_t(1));
        QVERIFY(std::isnan(r.referenceAt));
        QCOMPARE(r.otherAt, 3.0);
        QCOMPARE(r.maxAbs, 0.25);
        const BufferComparison within =
            compareBuffers(buffer<float>("x", ScalarKind::Float, {1.0f}),
                           buffer<float>("x", ScalarKind::Float, {1.25f}), Tolerance::absoluteOf(0.5));
        QVERIFY(within.agrees());
        QCOMPARE(comparisonText(within), std::string("within tolerance (max abs 0.25, rel 0.2)"));
    }

    // was: the results viewer compared any two buffers of as many components, whatever their types.
    void sizeOrTypeMismatchNeverAgrees()
    {
        const auto a = buffer<float>("x", ScalarKind::Float, {1, 2});
        const auto b = buffer<float>("x", ScalarKind::Float, {1, 2, 3});
        QVERIFY(!compareBuffers(a, b).agrees());
        QCOMPARE(compareBuffers(a, b).problem, std::string("2 × float vs 3 × float"));
        QCOMPARE(compareBuffers(a, b).compared, std::size_t(0));
        const auto c = buffer<int>("x", ScalarKind::Int, {1, 2});
        QVERIFY(!compareBuffers(a, c).agrees());
        QCOMPARE(compareBuffers(a, c).problem, std::string("2 × float vs 2 × int"));
        const auto v = buffer<float>("x", ScalarKind::Float, {1, 2}, 2); // one float2
        QVERIFY(!compareBuffers(a, v).agrees());
    }

    // Vectors component by component; the 4th slot of a 3-vector is padding, which drivers write as they
    // like, and is not compared.
    void vectorsAndPadding()
    {
        const auto a = buffer<float>("v", ScalarKind::Float, {0, 1, 2, 99, 4, 5, 6, 99}, 3);
        const auto b = buffer<float>("v", ScalarKind::Float, {0, 1, 2, -7, 4, 5, 60, 12}, 3);
        QCOMPARE(a.count, std::size_t(2));
        const BufferComparison r = compareBuffers(a, b, {}, true);
        QCOMPARE(r.compared, std::size_t(6));
        QCOMPARE(r.differing, std::size_t(1));
        QCOMPARE(r.firstDiffering, std::size_t(5));
        QCOMPARE(r.firstDifferingElement(), std::size_t(1));
        QCOMPARE(r.differs, (std::vector<bool>{false, false, false, false, false, true}));
        QVERIFY(compareBuffers(a, a, {}, true).differs.empty()); // nothing to mark
    }

    // Raw bytes and structs: byte by byte, padding included; a layout on either side is enough (a reference
    // file read as the buffer's type has none).
    void bytesAndStructs()
    {
        BufferData a;
        a.name = "s";
        a.type = ElementType::bytes(4);
        a.count = 2;
        a.bytes = {1, 2, 3, 4, 5, 6, 7, 8};
        a.layout = std::make_shared<StructLayout>();
        BufferData b = a;
        b.layout = nullptr;
        QVERIFY(compareBuffers(a, b).agrees());
        b.bytes[6] = 0;
        const BufferComparison r = compareBuffers(a, b, Tolerance::absoluteOf(100), true);
        QVERIFY(r.exact);
        QCOMPARE(r.compared, std::size_t(8));
        QCOMPARE(r.firstDiffering, std::size_t(6));
        QCOMPARE(r.firstDifferingElement(), std::size_t(1));
        QCOMPARE(r.differs.size(), std::size_t(8));
        QVERIFY(r.differs[6]);
    }

    // Replay compares a read-back and captured contents that are no BufferData.
    void bytesWithoutACopy()
    {
        const std::vector<unsigned char> want = {0, 0, 128, 63, 0, 0, 0, 64}; // 1.0f, 2.0f
        std::vector<unsigned char> got = want;
        got[7] = 65; // 8.0f
        const ElementType f{ScalarKind::Float, 1};
        const BufferComparison r = compareBuffers(BufferBytes{f, 2, want}, BufferBytes{f, 2, got});
        QCOMPARE(r.firstDiffering, std::size_t(1));
        QCOMPARE(r.referenceAt, 2.0);
        QCOMPARE(r.otherAt, 8.0);
        QCOMPARE(r.maxAbs, 6.0);
        // A byte vector shorter than its count gives the elements it holds.
        const std::vector<unsigned char> shortBytes(want.begin(), want.begin() + 4);
        QCOMPARE(compareBuffers(BufferBytes{f, 2, shortBytes}, BufferBytes{f, 2, shortBytes}).compared,
                 std::size_t(1));
    }

    void runsCompareByName()
    {
        RunResultData ref;
        ref.kernel = "k";
        ref.argNames = {"a", "b"};
        ref.buffers = {buffer<int>("a", ScalarKind::Int, {1}), buffer<float>("b", ScalarKind::Float, {2.0f})};
        RunResultData other = ref;
        other.buffers = {buffer<float>("b", ScalarKind::Float, {2.0f})};
        const auto r = compareRuns(RunResult(ref), RunResult(other), Tolerance::acrossDevices());
        QCOMPARE(r.size(), std::size_t(2));
        QVERIFY(!r[0].agrees());
        QCOMPARE(r[0].name, std::string("a"));
        QCOMPARE(r[0].problem, std::string("missing"));
        QCOMPARE(comparisonText(r[0]), std::string("missing"));
        QVERIFY(r[1].agrees());
        QCOMPARE(comparisonText(r[1]), std::string("equal"));
    }
};

QTEST_GUILESS_MAIN(TestBufferCompare)
#include "tst_buffercompare.moc"
