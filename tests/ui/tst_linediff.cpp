// The line diff of the generated-code view: data-driven edit scripts checked for being edit scripts (they
// turn the left text into the right one, line by line) and for being shortest where the answer is known,
// the side-by-side pairing of changed lines, and the bound on the search that keeps a diff of two unrelated
// listings cheap.
#include "display/linediff.h"

#include <QRandomGenerator>
#include <QtTest/QtTest>

using namespace clscope::ui;

namespace {

QStringList lines(const char *text)
{
    return QString::fromLatin1(text).split(u' ', Qt::SkipEmptyParts);
}

// The script applied: the left lines it keeps or removes must be the left text in order, the lines it keeps
// or adds the right text in order.
bool isScriptFor(const std::vector<DiffLine> &script, const QStringList &left, const QStringList &right)
{
    int l = 0, r = 0;
    for (const DiffLine &d : script) {
        switch (d.op) {
        case DiffOp::Same:
            if (d.left != l || d.right != r || left[l] != right[r])
                return false;
            ++l;
            ++r;
            break;
        case DiffOp::Removed:
            if (d.left != l || d.right != -1)
                return false;
            ++l;
            break;
        case DiffOp::Added:
            if (d.right != r || d.left != -1)
                return false;
            ++r;
            break;
        }
    }
    return l == left.size() && r == right.size();
}

} // namespace

class TestLineDiff : public QObject
{
    Q_OBJECT
private slots:
    void scripts_data()
    {
        QTest::addColumn<QStringList>("left");
        QTest::addColumn<QStringList>("right");
        QTest::addColumn<int>("edits"); // removed + added of a shortest script
        QTest::newRow("both empty") << QStringList() << QStringList() << 0;
        QTest::newRow("equal") << lines("a b c") << lines("a b c") << 0;
        QTest::newRow("all added") << QStringList() << lines("a b") << 2;
        QTest::newRow("all removed") << lines("a b") << QStringList() << 2;
        QTest::newRow("one changed") << lines("a b c") << lines("a x c") << 2;
        QTest::newRow("insert middle") << lines("a c") << lines("a b c") << 1;
        QTest::newRow("remove first") << lines("a b c") << lines("b c") << 1;
        QTest::newRow("myers paper") << lines("a b c a b b a") << lines("c b a b a c") << 5;
        QTest::newRow("swap") << lines("x y") << lines("y x") << 2;
        QTest::newRow("repeated") << lines("a a a a") << lines("a a") << 2;
    }
    void scripts()
    {
        QFETCH(QStringList, left);
        QFETCH(QStringList, right);
        QFETCH(int, edits);
        const std::vector<DiffLine> script = diffLines(left, right);
        QVERIFY(isScriptFor(script, left, right));
        const DiffCounts c = countDiff(script);
        QCOMPARE(c.removed + c.added, edits);
        QCOMPARE(c.same, int(left.size()) - c.removed);
    }

    void randomTextsGiveValidScripts()
    {
        QRandomGenerator rng(18);
        for (int round = 0; round < 200; ++round) {
            QStringList a, b;
            const int n = int(rng.bounded(40)), m = int(rng.bounded(40));
            for (int i = 0; i < n; ++i)
                a << QString(QChar(u'a' + rng.bounded(4)));
            for (int i = 0; i < m; ++i)
                b << QString(QChar(u'a' + rng.bounded(4)));
            const auto script = diffLines(a, b);
            QVERIFY2(isScriptFor(script, a, b),
                     qPrintable(a.join(u' ') + QStringLiteral(" / ") + b.join(u' ')));
            // Never longer than removing everything and adding everything.
            const DiffCounts c = countDiff(script);
            QVERIFY(c.removed + c.added <= n + m);
        }
    }

    void boundedSearchStillGivesAScript()
    {
        QStringList a, b;
        for (int i = 0; i < 3000; ++i) {
            a << QStringLiteral("left %1").arg(i);
            b << QStringLiteral("right %1").arg(i);
        }
        a.prepend(QStringLiteral("same head"));
        b.prepend(QStringLiteral("same head"));
        QElapsedTimer timer;
        timer.start();
        const auto script = diffLines(a, b, 200);
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY(isScriptFor(script, a, b));
        QCOMPARE(countDiff(script).same, 1);
        QCOMPARE(countDiff(script).removed, 3000);
    }

    void sideBySidePairsChangedLines()
    {
        const QStringList a = lines("head one two tail");
        const QStringList b = lines("head uno dos tres tail");
        const std::vector<DiffRow> rows = sideBySide(diffLines(a, b));
        const std::vector<DiffRow> expected{{RowKind::Same, 0, 0},
                                            {RowKind::Changed, 1, 1},
                                            {RowKind::Changed, 2, 2},
                                            {RowKind::Added, -1, 3},
                                            {RowKind::Same, 3, 4}};
        QCOMPARE(rows.size(), expected.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(rows[i] == expected[i], qPrintable(QStringLiteral("row %1").arg(i)));
    }

    void sideBySideKeepsLeftoverRemovals()
    {
        const std::vector<DiffRow> rows = sideBySide(diffLines(lines("a b c d"), lines("a d")));
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(int(rows[1].kind), int(RowKind::Removed));
        QCOMPARE(rows[1].left, 1);
        QCOMPARE(int(rows[2].kind), int(RowKind::Removed));
        QCOMPARE(rows[3].right, 1);
    }
};

QTEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
