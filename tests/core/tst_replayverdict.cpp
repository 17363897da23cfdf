// A replay's verdict in words (capture.h's replayVerdict): the one text clscope-cli replay prints and the
// Capture panel's Replay tab shows. They used to differ: the panel named an argument by its name alone,
// left out the largest difference, and said "ran (no captured result to compare)" where the CLI said
// "no buffer has captured "after" contents: nothing compared".
#include "clscope/capture.h"

#include <QTest>

#include <limits>

using namespace clscope;

namespace {
ReplayOutput output(std::uint32_t arg, const char *name, bool equal)
{
    ReplayOutput o;
    o.arg = arg;
    o.name = name;
    o.type = "float";
    o.elements = 1024;
    o.equal = equal;
    return o;
}
} // namespace

class TestReplayVerdict : public QObject
{
    Q_OBJECT
private slots:
    void outputs()
    {
        ReplayOutput o = output(2, "res_g", true);
        QCOMPARE(replayArgumentName(o), std::string("argument 2 (res_g)"));
        QCOMPARE(replayVerdict(o), std::string("equal"));
        o.equal = false;
        o.firstDifference = 17;
        o.expected = std::numeric_limits<double>::quiet_NaN();
        o.actual = 1;
        o.maxAbsDifference = 0.5;
        QCOMPARE(replayVerdict(o),
                 std::string("differs at element 17: expected nan, got 1 (largest difference 0.5)"));
        o.expected = 1.0 / 3;
        o.actual = -std::numeric_limits<double>::infinity();
        QCOMPARE(replayVerdict(o),
                 std::string("differs at element 17: expected 0.333333, got -inf (largest difference 0.5)"));
        QCOMPARE(replayArgumentName(output(0, "", true)), std::string("argument 0"));
    }

    void launches()
    {
        ReplayResult r;
        QCOMPARE(replayVerdict(r),
                 std::string("nothing compared: no buffer has captured \"after\" contents"));
        r.outputs = {output(0, "a", true), output(1, "", true)};
        QVERIFY(r.equal());
        QCOMPARE(replayVerdict(r), std::string("equal"));
        // Each differing output, in argument order; the equal ones are left out.
        r.outputs[0].equal = false;
        r.outputs[0].firstDifference = 3;
        r.outputs[0].expected = 2;
        r.outputs[0].actual = 2.5;
        r.outputs[0].maxAbsDifference = 0.5;
        r.outputs.push_back(output(4, "", false));
        r.outputs[2].firstDifference = 1024; // contents of another size: where one of them ends
        QCOMPARE(
            replayVerdict(r),
            std::string("argument 0 (a) differs at element 3: expected 2, got 2.5 (largest difference 0.5); "
                        "argument 4 differs at element 1024: expected 0, got 0 (largest difference 0)"));
    }
};

QTEST_APPLESS_MAIN(TestReplayVerdict)
#include "tst_replayverdict.moc"
