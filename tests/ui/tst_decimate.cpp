// Tests of the charts' peak-keeping decimation and of the pool history it draws from: spikes at random
// places always survive, the output stays within its bound and sorted, and the history keeps every
// extreme through compaction.
#include "display/decimate.h"
#include "display/poolhistory.h"

#include <QBuffer>
#include <QRandomGenerator>
#include <QtTest/QtTest>

#include <algorithm>
#include <set>
#include <utility>

using namespace clscope::ui;

namespace {
struct Series
{
    QList<double> keys;
    QList<double> values;
    std::set<qsizetype> spikes; // indices of spikes and dips
};

// Noise around 100 with `spikes` points far above or below it, at random places. Keys step by random
// amounts, sometimes 0: the pool's coarse clock gives many samples one timestamp.
Series makeSeries(qsizetype n, int spikes, quint32 seed)
{
    QRandomGenerator rng(seed);
    Series s;
    s.keys.reserve(n);
    s.values.reserve(n);
    double key = rng.bounded(10.0);
    for (qsizetype i = 0; i < n; ++i) {
        if (rng.bounded(4) != 0)
            key += rng.bounded(0.01);
        s.keys << key;
        s.values << 100 + rng.bounded(10.0);
    }
    for (int i = 0; i < spikes && n > 0; ++i) {
        const qsizetype at = qsizetype(rng.bounded(quint32(n)));
        s.values[at] = (i % 3 == 2) ? -1e6 - i : 1e6 + i; // one in three is a dip
        s.spikes.insert(at);
    }
    return s;
}

bool containsPoint(const QList<double> &keys, const QList<double> &values, double key, double value)
{
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if (keys[i] == key && values[i] == value)
            return true;
    }
    return false;
}
} // namespace

class TestDecimate : public QObject
{
    Q_OBJECT

private slots:
    void keepsSpikes_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<int>("spikes");
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<double>("viewFrom"); // fraction of the key span where the view starts
        QTest::addColumn<double>("viewTo");
        QTest::newRow("1M points, 500 buckets, whole") << 1000000 << 500 << 40 << 1u << 0.0 << 1.0;
        QTest::newRow("200k points, 500 buckets, middle") << 200000 << 500 << 100 << 2u << 0.3 << 0.6;
        QTest::newRow("100k points, 50 buckets, whole") << 100000 << 50 << 20 << 3u << 0.0 << 1.0;
        QTest::newRow("spikes side by side") << 50000 << 100 << 2000 << 4u << 0.0 << 1.0;
        QTest::newRow("view past the end") << 30000 << 300 << 30 << 5u << 0.8 << 1.5;
        QTest::newRow("view before the start") << 30000 << 300 << 30 << 6u << -0.5 << 0.2;
        QTest::newRow("one bucket") << 10000 << 1 << 1 << 7u << 0.0 << 1.0;
        QTest::newRow("few points: unchanged") << 600 << 500 << 10 << 8u << 0.0 << 1.0;
    }

    void keepsSpikes()
    {
        QFETCH(int, points);
        QFETCH(int, buckets);
        QFETCH(int, spikes);
        QFETCH(quint32, seed);
        QFETCH(double, viewFrom);
        QFETCH(double, viewTo);
        const Series s = makeSeries(points, spikes, seed);
        const double span = s.keys.constLast() - s.keys.constFirst();
        const double lower = s.keys.constFirst() + viewFrom * span;
        const double upper = s.keys.constFirst() + viewTo * span;

        QList<double> keys;
        QList<double> values;
        decimateMinMax(s.keys, s.values, lower, upper, buckets, keys, values);

        QCOMPARE(keys.size(), values.size());
        QVERIFY2(keys.size() <= 2 * buckets + 2, qPrintable(QString::number(keys.size())));
        QVERIFY(std::is_sorted(keys.cbegin(), keys.cend()));
        // Spikes fall into buckets; when two share one, only the highest and the lowest can survive.
        // So every spike must be there unless a stronger spike of the same sign shares its bucket:
        // checking the strongest one per bucket is exact, checking all is right when they are apart.
        const double width = (upper - lower) / buckets;
        std::set<std::pair<int, bool>> seen; // (bucket, is a dip) already claimed by a stronger spike
        std::vector<qsizetype> order(s.spikes.begin(), s.spikes.end());
        std::sort(order.begin(), order.end(),
                  [&](qsizetype a, qsizetype b) { return std::abs(s.values[a]) > std::abs(s.values[b]); });
        int checked = 0;
        for (qsizetype i : order) {
            if (s.keys[i] < lower || s.keys[i] > upper)
                continue;
            const int bucket = std::clamp(int((s.keys[i] - lower) / width), 0, buckets - 1);
            if (!seen.insert({bucket, s.values[i] < 0}).second)
                continue;
            ++checked;
            QVERIFY2(containsPoint(keys, values, s.keys[i], s.values[i]),
                     qPrintable(QStringLiteral("spike at %1 (%2) lost").arg(s.keys[i]).arg(s.values[i])));
        }
        QVERIFY(checked > 0 || viewTo - viewFrom < 1);
        // Every output point is an input point.
        for (qsizetype i = 0; i < keys.size(); i += std::max<qsizetype>(1, keys.size() / 50)) {
            const auto at = std::lower_bound(s.keys.cbegin(), s.keys.cend(), keys[i]) - s.keys.cbegin();
            bool found = false;
            for (qsizetype j = at; j < s.keys.size() && s.keys[j] == keys[i] && !found; ++j)
                found = s.values[j] == values[i];
            QVERIFY(found);
        }
    }

    void edges()
    {
        QList<double> keys;
        QList<double> values;
        decimateMinMax({}, {}, 0, 1, 10, keys, values);
        QVERIFY(keys.isEmpty());
        const QList<double> k{1, 2, 3, 4, 5};
        const QList<double> v{10, 20, 30, 40, 50};
        // The points just outside the view are kept, so lines reach its edges.
        const IndexRange r = visibleRange(k, 2.5, 3.5);
        QCOMPARE(r.first, 1);
        QCOMPARE(r.last, 4);
        decimateMinMax(k, v, 2.5, 3.5, 10, keys, values);
        QCOMPARE(keys, (QList<double>{2, 3, 4}));
        QCOMPARE(values, (QList<double>{20, 30, 40}));
        QCOMPARE(visibleRange(k, 10, 20).size(), 1); // only the last point, to carry the line in
        QCOMPARE(visibleRange(k, 3, 2).size(), 0);   // an empty view
        // Fewer values than keys: draw what has both.
        decimateMinMax(k, QList<double>{1, 2}, 0, 10, 10, keys, values);
        QCOMPARE(keys.size(), 2);
    }

    void historyKeepsPeaksThroughCompaction()
    {
        PoolHistory h(1024, 0.001);
        QRandomGenerator rng(11);
        double t = 0;
        double peak = 0;
        double peakTime = 0;
        for (int i = 0; i < 200000; ++i) {
            t += rng.bounded(0.002);
            double held = 1000 + rng.bounded(100.0);
            if (i == 123456) {
                held = 5e9;
                peak = held;
                peakTime = t;
            }
            h.append(t, {held, 1, 2, 3, double(i)});
        }
        QVERIFY(h.bucketCount() <= 1024);
        QVERIFY(h.bucketSeconds() > 0.001); // it had to compact
        QCOMPARE(h.sampleCount(), quint64(200000));
        QVERIFY(std::is_sorted(h.keys().cbegin(), h.keys().cend()));
        const QList<double> &held = h.values(PoolChannel::HeldBytes);
        QCOMPARE(*std::max_element(held.cbegin(), held.cend()), peak);
        // The last sample's value is the highest of the active-blocks channel, and is kept.
        const QList<double> &last = h.values(PoolChannel::ActiveBlocks);
        QCOMPARE(*std::max_element(last.cbegin(), last.cend()), 199999.0);
        QCOMPARE(h.lastValues()[4], 199999.0);
        // Through the chart's decimation too, at any zoom that contains it.
        QList<double> keys;
        QList<double> values;
        for (double half : {1000.0, 10.0, 0.5}) {
            decimateMinMax(h.keys(), held, peakTime - half, peakTime + half, 300, keys, values);
            QVERIFY(std::find(values.cbegin(), values.cend(), peak) != values.cend());
        }
    }

    void historyIdleAndCsv()
    {
        PoolHistory h;
        h.append(0.0, {1, 2, 3, 4, 5});
        h.append(0.0005, {10, 2, 3, 4, 5});
        h.extendTo(0.5, {10, 2, 3, 4, 5}); // the bucket changed inside: a new point is needed
        const qsizetype buckets = h.bucketCount();
        h.extendTo(1.0, {10, 2, 3, 4, 5}); // flat now: stretched, no new bucket
        h.extendTo(2.0, {10, 2, 3, 4, 5});
        QCOMPARE(h.bucketCount(), buckets);
        QCOMPARE(h.lastKey(), 2.0);
        h.append(1.5, {7, 2, 3, 4, 5}); // earlier than the last key: taken as the last key
        QCOMPARE(h.lastKey(), 2.0);
        QVERIFY(std::is_sorted(h.keys().cbegin(), h.keys().cend()));

        QBuffer out;
        out.open(QIODevice::WriteOnly);
        QVERIFY(h.writeCsv(out));
        const QList<QByteArray> lines = out.data().split('\n');
        QCOMPARE(lines.first(),
                 QByteArray("time_first_s,time_last_s,samples,held_bytes_min,held_bytes_max,"
                            "active_bytes_min,active_bytes_max,managed_bytes_min,managed_bytes_max,"
                            "held_blocks_min,held_blocks_max,active_blocks_min,active_blocks_max"));
        QCOMPARE(lines.at(1), QByteArray("0.000000,0.000500,2,1,10,2,2,3,3,4,4,5,5"));
        QCOMPARE(lines.size(), h.bucketCount() + 2); // header, rows, and the empty piece after the last \n
        h.clear();
        QVERIFY(h.isEmpty());
        QCOMPARE(h.sampleCount(), quint64(0));
    }
};

QTEST_APPLESS_MAIN(TestDecimate)
#include "tst_decimate.moc"
