// Whether two runs' buffers agree: integers exactly, floats within a relative tolerance plus a few ULP, NaN
// with NaN, the largest differences kept; a buffer missing or of another size never agrees.
#include "display/outputcompare.h"

#include <QtTest/QtTest>

#include <cstring>
#include <limits>

using namespace clscope;
using namespace clscope::ui;

namespace {

template<class T> BufferData buffer(const char *name, ScalarKind kind, std::initializer_list<T> values)
{
    BufferData b;
    b.name = name;
    b.type = ElementType{kind, 1};
    b.count = values.size();
    b.bytes.resize(values.size() * sizeof(T));
    std::memcpy(b.bytes.data(), std::data(values), b.bytes.size());
    return b;
}

} // namespace

class TestOutputCompare : public QObject
{
    Q_OBJECT
private slots:
    void integersMustBeEqual()
    {
        const auto a = buffer<int>("n", ScalarKind::Int, {1, 2, 3, 4});
        QVERIFY(compareBuffers(a, a).agrees);
        QVERIFY(compareBuffers(a, a).exact);
        const auto b = buffer<int>("n", ScalarKind::Int, {1, 2, 4, 4});
        const BufferAgreement r = compareBuffers(a, b);
        QVERIFY(!r.agrees);
        QCOMPARE(r.differing, std::size_t(1));
        QCOMPARE(r.firstDiffering, std::size_t(2));
        QCOMPARE(agreementText(r), QStringLiteral("1 of 4 differ, first at 2"));
    }

    void floatsWithinTolerance_data()
    {
        QTest::addColumn<float>("a");
        QTest::addColumn<float>("b");
        QTest::addColumn<bool>("agrees");
        QTest::newRow("equal") << 1.5f << 1.5f << true;
        QTest::newRow("one ulp") << 1.0f << std::nextafter(1.0f, 2.0f) << true;
        QTest::newRow("relative 1e-6") << 1000.0f << 1000.001f << true;
        QTest::newRow("relative 1e-3") << 1.0f << 1.001f << false;
        QTest::newRow("zero and tiny") << 0.0f << 4e-45f << true; // a few ULP of denormals
        QTest::newRow("zero and small") << 0.0f << 1e-6f << false;
        QTest::newRow("nan and nan") << std::numeric_limits<float>::quiet_NaN()
                                     << std::numeric_limits<float>::quiet_NaN() << true;
        QTest::newRow("nan and one") << std::numeric_limits<float>::quiet_NaN() << 1.0f << false;
        QTest::newRow("inf and inf") << std::numeric_limits<float>::infinity()
                                     << std::numeric_limits<float>::infinity() << true;
        QTest::newRow("inf and -inf")
            << std::numeric_limits<float>::infinity() << -std::numeric_limits<float>::infinity() << false;
    }
    void floatsWithinTolerance()
    {
        QFETCH(float, a);
        QFETCH(float, b);
        QFETCH(bool, agrees);
        const BufferAgreement r = compareBuffers(buffer<float>("x", ScalarKind::Float, {a}),
                                                 buffer<float>("x", ScalarKind::Float, {b}));
        QCOMPARE(r.agrees, agrees);
        QVERIFY(!r.exact);
    }

    void keepsTheLargestDifferences()
    {
        const auto a = buffer<double>("d", ScalarKind::Double, {1.0, 100.0, 3.0});
        const auto b = buffer<double>("d", ScalarKind::Double, {1.0, 100.5, 3.0 + 1e-3});
        const BufferAgreement r = compareBuffers(a, b);
        QVERIFY(!r.agrees);
        QCOMPARE(r.differing, std::size_t(2));
        QCOMPARE(r.maxAbs, 0.5);
        QVERIFY(qAbs(r.maxRel - 0.5 / 100.5) < 1e-12); // the larger of 0.5/100.5 and 1e-3/3.001
        QVERIFY(agreementText(r).startsWith(QStringLiteral("2 of 3 differ, first at 1 (max abs 0.5")));
    }

    void sizeOrTypeMismatchNeverAgrees()
    {
        const auto a = buffer<float>("x", ScalarKind::Float, {1, 2});
        const auto b = buffer<float>("x", ScalarKind::Float, {1, 2, 3});
        QVERIFY(!compareBuffers(a, b).agrees);
        QVERIFY(compareBuffers(a, b).problem.contains(QStringLiteral("2 × float vs 3 × float")));
        const auto c = buffer<int>("x", ScalarKind::Int, {1, 2});
        QVERIFY(!compareBuffers(a, c).agrees);
    }

    void runsCompareByName()
    {
        RunResultData ref;
        ref.kernel = "k";
        ref.argNames = {"a", "b"};
        ref.buffers = {buffer<int>("a", ScalarKind::Int, {1}), buffer<float>("b", ScalarKind::Float, {2.0f})};
        RunResultData other = ref;
        other.buffers = {buffer<float>("b", ScalarKind::Float, {2.0f})};
        const auto r = compareRuns(RunResult(ref), RunResult(other));
        QCOMPARE(r.size(), std::size_t(2));
        QVERIFY(!r[0].agrees);
        QCOMPARE(r[0].problem, QStringLiteral("missing"));
        QVERIFY(r[1].agrees);
    }
};

QTEST_GUILESS_MAIN(TestOutputCompare)
#include "tst_outputcompare.moc"
