// Timeline geometry (time <-> x, zoom, pan, fit, clamping), the lane index (visible ranges and hit tests by
// binary search), axis ticks, and the events/statistics models (QAbstractItemModelTester + text snapshots).
#include "display/recordformat.h"
#include "display/timelinedata.h"
#include "models/devicestatsmodel.h"
#include "models/eventfilterproxy.h"
#include "models/eventtablemodel.h"
#include "models/kernelstatsmodel.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QTest>

using namespace clscope;
using namespace clscope::ui;
using Type = CommandRecord::Type;

namespace {

TimelineData geometry(double rangeStart, double rangeEnd, double viewStart, double viewEnd, int width)
{
    TimelineData d;
    d.origin = 1'000'000;
    d.rangeStart = rangeStart;
    d.rangeEnd = rangeEnd;
    d.viewStart = viewStart;
    d.viewEnd = viewEnd;
    d.width = width;
    return d;
}

CommandRecord record(Type type, const char *name, const char *device, const char *queue, std::uint64_t start,
                     std::uint64_t duration, std::uint64_t bytes = 0)
{
    CommandRecord r;
    r.type = type;
    r.name = name;
    r.device = device;
    r.queue = queue;
    r.queued = start - 50;
    r.submit = start - 20;
    r.start = start;
    r.end = start + duration;
    r.bytes = bytes;
    return r;
}

QString snapshot(const QAbstractItemModel &model)
{
    QString out;
    for (int c = 0; c < model.columnCount(); ++c)
        out += (c ? QStringLiteral("|") : QString()) + model.headerData(c, Qt::Horizontal).toString();
    out += u'\n';
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < model.columnCount(); ++c)
            out += (c ? QStringLiteral("|") : QString()) + model.index(r, c).data().toString();
        out += u'\n';
    }
    return out;
}

std::vector<CommandRecord> modelRecords()
{
    std::vector<CommandRecord> v;
    v.push_back(record(Type::Kernel, "vector_add", "GPU", "q0", 1'000'000, 4'000));
    v.back().dims = 1;
    v.back().global = {1024, 1, 1};
    v.back().local = {64, 1, 1};
    v.push_back(record(Type::Write, "write a", "GPU", "q1", 1'002'000, 2'000, 20'000));
    v.push_back(record(Type::Kernel, "vector_add", "GPU", "q0", 1'010'000, 6'000));
    v.back().submit = v.back().start; // Oclgrind style
    v.push_back(record(Type::Kernel, "Reduce", "GPU", "q0", 1'020'000, 1'500'000));
    return v;
}

} // namespace

class TestTimelineData : public QObject
{
    Q_OBJECT
private slots:
    void mapping_data()
    {
        QTest::addColumn<double>("viewStart");
        QTest::addColumn<double>("viewEnd");
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("time");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << 0.0 << 1000.0 << 100 << 0.0 << 0.0;
        QTest::newRow("end") << 0.0 << 1000.0 << 100 << 1000.0 << 100.0;
        QTest::newRow("middle") << 0.0 << 1000.0 << 100 << 500.0 << 50.0;
        QTest::newRow("offset-view") << 200.0 << 400.0 << 200 << 300.0 << 100.0;
        QTest::newRow("before-view") << 200.0 << 400.0 << 200 << 100.0 << -100.0;
        QTest::newRow("after-view") << 200.0 << 400.0 << 200 << 500.0 << 300.0;
        QTest::newRow("sub-ns-pixels") << 0.0 << 10.0 << 1000 << 2.5 << 250.0;
        QTest::newRow("negative-margin") << -100.0 << 900.0 << 1000 << 0.0 << 100.0;
    }
    void mapping()
    {
        QFETCH(double, viewStart);
        QFETCH(double, viewEnd);
        QFETCH(int, width);
        QFETCH(double, time);
        QFETCH(double, x);
        const TimelineData d = geometry(-1000, 10000, viewStart, viewEnd, width);
        QCOMPARE(d.timeToX(time), x);
        QCOMPARE(d.xToTime(x), time);
        if (time == std::floor(time)) // absolute() rounds to whole nanoseconds
            QCOMPARE(d.absoluteToX(d.absolute(time)), x);
    }

    void bigOrigin()
    {
        // 1.7e18 ns as a double has a 256 ns ulp: relative times keep every nanosecond.
        TimelineData d;
        d.setRange(1'700'000'000'000'000'001ULL, 1'700'000'000'000'001'001ULL);
        d.width = 1000;
        d.fitAll();
        QCOMPARE(d.relative(1'700'000'000'000'000'002ULL), 1.0);
        QCOMPARE(d.absoluteToX(1'700'000'000'000'000'501ULL), 500.0);
        QCOMPARE(d.absolute(999.0), 1'700'000'000'000'001'000ULL);
        QCOMPARE(d.absolute(-2e18), std::uint64_t{0});
    }

    void zoomAround_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        // Range [0, 1000], view [0, 1000], 100 px.
        QTest::newRow("in-centre") << 50.0 << 2.0 << 250.0 << 750.0;
        QTest::newRow("in-left") << 0.0 << 4.0 << 0.0 << 250.0;
        QTest::newRow("in-at-30") << 30.0 << 10.0 << 270.0 << 370.0;
        QTest::newRow("out-clamps-to-range") << 50.0 << 0.5 << 0.0 << 1000.0;
        QTest::newRow("in-beyond-min-span") << 50.0 << 1e9 << 495.0 << 505.0;
        QTest::newRow("zero-factor-ignored") << 50.0 << 0.0 << 0.0 << 1000.0;
    }
    void zoomAround()
    {
        QFETCH(double, x);
        QFETCH(double, factor);
        QFETCH(double, start);
        QFETCH(double, end);
        TimelineData d = geometry(0, 1000, 0, 1000, 100);
        d.zoomAround(x, factor);
        QCOMPARE(d.viewStart, start);
        QCOMPARE(d.viewEnd, end);
        if (factor > 0 && factor < 1e6)
            QCOMPARE(d.zoomFactor(), std::max(1.0, factor));
    }

    void zoomKeepsCursorTime()
    {
        TimelineData d = geometry(0, 1e9, 0, 1e9, 1000);
        const double t = d.xToTime(321);
        for (int i = 0; i < 20; ++i) {
            d.zoomAround(321, 1.25);
            QVERIFY(std::fabs(d.xToTime(321) - t) < 1e-3);
        }
        // Zooming out further than in ends exactly at fit-all: clamping absorbs the rounding.
        for (int i = 0; i < 30; ++i)
            d.zoomAround(321, 0.8);
        QCOMPARE(d.viewStart, 0.0);
        QCOMPARE(d.viewEnd, 1e9);
    }

    void pan_data()
    {
        QTest::addColumn<double>("viewStart");
        QTest::addColumn<double>("pixels");
        QTest::addColumn<double>("start");
        // Range [0, 1000], view span 100 over 100 px (1 ns per pixel).
        QTest::newRow("right") << 400.0 << 50.0 << 450.0;
        QTest::newRow("left") << 400.0 << -50.0 << 350.0;
        QTest::newRow("clamp-left") << 20.0 << -50.0 << 0.0;
        QTest::newRow("clamp-right") << 880.0 << 50.0 << 900.0;
        QTest::newRow("none") << 400.0 << 0.0 << 400.0;
    }
    void pan()
    {
        QFETCH(double, viewStart);
        QFETCH(double, pixels);
        QFETCH(double, start);
        TimelineData d = geometry(0, 1000, viewStart, viewStart + 100, 100);
        d.pan(pixels);
        QCOMPARE(d.viewStart, start);
        QCOMPARE(d.span(), 100.0);
    }

    void zoomToSelection_data()
    {
        QTest::addColumn<double>("x0");
        QTest::addColumn<double>("x1");
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::newRow("forward") << 10.0 << 30.0 << 100.0 << 300.0;
        QTest::newRow("backward") << 30.0 << 10.0 << 100.0 << 300.0;
        QTest::newRow("too-narrow") << 50.0 << 50.0 << 495.0 << 505.0;
        QTest::newRow("past-the-end") << 90.0 << 150.0 << 400.0 << 1000.0; // keeps the span, moves it in
    }
    void zoomToSelection()
    {
        QFETCH(double, x0);
        QFETCH(double, x1);
        QFETCH(double, start);
        QFETCH(double, end);
        TimelineData d = geometry(0, 1000, 0, 1000, 100);
        d.zoomToPixels(x0, x1);
        QCOMPARE(d.viewStart, start);
        QCOMPARE(d.viewEnd, end);
        d.fitAll();
        QCOMPARE(d.viewStart, 0.0);
        QCOMPARE(d.viewEnd, 1000.0);
    }

    // "Last run" frames the run's launches: a 48 us kernel beside its 68 ms build, or after a write that
    // waited 364 ms for the driver to compile the kernel, is the whole view, not a one-pixel tick (issue 31).
    // Rows: the records of the run (k: kernel, w: write, r: read, b: the build's host span, a: an API call on
    // a host lane) and the span framed.
    void lastRunFraming_data()
    {
        QTest::addColumn<QString>("run");
        QTest::addColumn<bool>("stages");
        QTest::addColumn<qulonglong>("first");
        QTest::addColumn<qulonglong>("last");
        // A record "X@S+D": type X at S us lasting D us; the expected span in ns, 1 us after time 0 (so that
        // the queued time of a record at 0 stays positive).
        QTest::newRow("kernel after its build") << QStringLiteral("b@0+68000 k@68100+48") << false
                                                << qulonglong(68'101'000) << qulonglong(68'149'000);
        QTest::newRow("write long before the kernel")
            << QStringLiteral("w@0+2 k@364000+58 r@364100+3") << false << qulonglong(364'001'000)
            << qulonglong(364'059'000);
        QTest::newRow("repeated launches, reads between")
            << QStringLiteral("w@0+20 k@100+48 r@150+10 k@200+48 r@250+10") << false << qulonglong(101'000)
            << qulonglong(249'000);
        QTest::newRow("API calls around") << QStringLiteral("a@0+5 w@100+20 a@130+2 k@140+48 a@30000+10")
                                          << false << qulonglong(141'000) << qulonglong(189'000);
        QTest::newRow("with stages: the launch's queued time")
            << QStringLiteral("b@0+68000 k@68100+48") << true << qulonglong(68'101'000 - 50)
            << qulonglong(68'149'000);
        QTest::newRow("transfers only") << QStringLiteral("a@0+5 w@100+20 r@300+10") << false
                                        << qulonglong(101'000) << qulonglong(311'000);
        QTest::newRow("host activities only")
            << QStringLiteral("b@0+68000 a@68100+48") << false << qulonglong(1'000) << qulonglong(68'149'000);
        QTest::newRow("nothing timed") << QString() << false << qulonglong(0) << qulonglong(0);
    }
    void lastRunFraming()
    {
        QFETCH(QString, run);
        QFETCH(bool, stages);
        QFETCH(qulonglong, first);
        QFETCH(qulonglong, last);
        std::vector<CommandRecord> records;
        std::vector<std::size_t> indices;
        for (const QString &spec : run.split(u' ', Qt::SkipEmptyParts)) {
            const QStringList parts = spec.mid(2).split(u'+');
            const std::uint64_t start = parts.at(0).toULongLong() * 1000 + 1000;
            const std::uint64_t duration = parts.at(1).toULongLong() * 1000;
            const QChar kind = spec.at(0);
            const Type type = kind == u'w'   ? Type::Write
                              : kind == u'r' ? Type::Read
                              : kind == u'b' ? Type::Build
                              : kind == u'a' ? Type::Marker
                                             : Type::Kernel;
            CommandRecord r = record(type, "k", "dev", "q", start, duration);
            if (kind == u'b' || kind == u'a') {
                r.hostSpan = true;
                r.queue = kind == u'b' ? "host" : "thread 1";
                r.queued = r.submit = 0;
            }
            indices.push_back(records.size());
            records.push_back(r);
        }
        // Records before the run are not framed.
        records.insert(records.begin(), record(Type::Kernel, "old", "dev", "q", 100, 10));
        for (std::size_t &i : indices)
            ++i;
        const auto [from, to] = lastRunSpan(records, indices, stages);
        QCOMPARE(qulonglong(from), first);
        QCOMPARE(qulonglong(to), last);
    }

    void setRange()
    {
        TimelineData d;
        d.width = 500;
        d.setRange(5000, 15000, 0.1);
        QCOMPARE(d.origin, std::uint64_t{5000});
        QCOMPARE(d.rangeStart, -1000.0);
        QCOMPARE(d.rangeEnd, 11000.0);
        QCOMPARE(d.viewStart, -1000.0);
        QCOMPARE(d.viewEnd, 11000.0);
        d.setRange(42, 42); // a single instant still gets a minimum span
        QCOMPARE(d.span(), d.minSpan);
        d.centerOn(1e6);
        QCOMPARE(d.viewEnd, d.rangeEnd);
    }

    void rows_data()
    {
        QTest::addColumn<qulonglong>("from");
        QTest::addColumn<qulonglong>("to");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        // Items by begin: [0,100] [50,5000] [200,300] [400,450] [6000,7000]
        QTest::newRow("all") << 0ULL << 10000ULL << 0 << 5;
        QTest::newRow("middle") << 320ULL << 420ULL << 1 << 4; // the long item reaches in from the left
        QTest::newRow("after-long") << 5500ULL << 5600ULL << 4 << 4;
        QTest::newRow("tail") << 6500ULL << 9000ULL << 4 << 5;
        QTest::newRow("before") << 0ULL << 0ULL << 0 << 1;
    }
    void rows()
    {
        QFETCH(qulonglong, from);
        QFETCH(qulonglong, to);
        QFETCH(int, first);
        QFETCH(int, last);
        TimelineRow row;
        row.build({{6000, 7000, 4, 0}, {200, 300, 2, 0}, {0, 100, 0, 0}, {400, 450, 3, 0}, {50, 5000, 1, 0}});
        QCOMPARE(row.items()[1].record, 1u);
        const auto [lo, hi] = row.visibleRange(from, to);
        QCOMPARE(int(lo), first);
        QCOMPARE(int(hi), last);
    }

    void hitTest_data()
    {
        QTest::addColumn<qulonglong>("t");
        QTest::addColumn<qulonglong>("tolerance");
        QTest::addColumn<int>("record");
        QTest::newRow("inside-short-wins") << 250ULL << 0ULL << 2; // inside both the long item and [200,300]
        QTest::newRow("inside-long-only") << 350ULL << 0ULL << 1;
        QTest::newRow("near-tail") << 5990ULL << 20ULL << 4;
        QTest::newRow("gap-no-tolerance") << 5500ULL << 0ULL << -1;
        QTest::newRow("far-right") << 9000ULL << 100ULL << -1;
        QTest::newRow("first") << 10ULL << 0ULL << 0;
    }
    void hitTest()
    {
        QFETCH(qulonglong, t);
        QFETCH(qulonglong, tolerance);
        QFETCH(int, record);
        TimelineRow row;
        row.build({{0, 100, 0, 0}, {50, 5000, 1, 0}, {200, 300, 2, 0}, {400, 450, 3, 0}, {6000, 7000, 4, 0}});
        const auto hit = row.hitTest(t, tolerance);
        QCOMPARE(hit < 0 ? -1 : int(row.items()[std::size_t(hit)].record), record);
    }

    void lanes()
    {
        std::vector<CommandRecord> v;
        v.push_back(record(Type::Kernel, "a", "GPU 1", "q0", 1000, 10));
        v.push_back(record(Type::Kernel, "a", "GPU 0", "q0", 900, 10));
        v.push_back(record(Type::Read, "r", "GPU 1", "q1", 1500, 10));
        v.push_back(record(Type::Kernel, "b", "GPU 1", "q0", 2000, 10));
        CommandRecord build = record(Type::Build, "build", "GPU 1", "host", 500, 100);
        build.hostSpan = true;
        v.push_back(build);
        CommandRecord broken = record(Type::Kernel, "x", "GPU 0", "q0", 3000, 10);
        broken.end = 0;
        v.push_back(broken);
        TimelineLanes lanes;
        lanes.build(v, true);
        // Host first, then devices in order of first appearance, queues grouped under their device.
        QCOMPARE(lanes.lanes().size(), std::size_t{4});
        QVERIFY(lanes.lanes()[0].host);
        QCOMPARE(lanes.lanes()[1].device + "/" + lanes.lanes()[1].queue, std::string("GPU 1/q0"));
        QCOMPARE(lanes.lanes()[2].device + "/" + lanes.lanes()[2].queue, std::string("GPU 1/q1"));
        QCOMPARE(lanes.lanes()[3].device + "/" + lanes.lanes()[3].queue, std::string("GPU 0/q0"));
        QCOMPARE(lanes.laneOf(0), 1);
        QCOMPARE(lanes.laneOf(3), 1);
        QCOMPARE(lanes.laneOf(4), 0);
        QCOMPARE(lanes.laneOf(5), -1);
        QCOMPARE(lanes.lanes()[1].run.items().size(), std::size_t{2});
        QCOMPARE(lanes.lanes()[1].queued.items().size(), std::size_t{2});
        QCOMPARE(lanes.first(), std::uint64_t{500});
        QCOMPARE(lanes.last(), std::uint64_t{2010});
    }

    // A capture's records: host spans on one lane per thread of the program (the "host" lane stays the
    // workbench's), device queues interleaved, a queue whose only command has no timestamps (its lane is
    // there, empty), and kernels alternating, each box in its kernel's colour.
    void lanesOfACapture()
    {
        auto host = [](const char *name, const char *thread, std::uint64_t start, std::uint64_t duration) {
            CommandRecord r = record(Type::Marker, name, "host", thread, start, duration);
            r.hostSpan = true;
            return r;
        };
        std::vector<CommandRecord> v;
        v.push_back(host("clCreateBuffer", "thread 7", 100, 10));
        v.push_back(record(Type::Kernel, "a", "GPU", "q0", 200, 10));
        v.push_back(host("build", "host", 50, 10));
        v.push_back(record(Type::Kernel, "b", "GPU", "q1", 220, 10));
        v.push_back(host("clFinish", "thread 3", 300, 100));
        v.push_back(record(Type::Kernel, "a", "GPU", "q0", 240, 10));
        CommandRecord untimed = record(Type::Kernel, "b", "CPU", "q9", 280, 10);
        untimed.end = 0;
        v.push_back(untimed);
        v.push_back(host("clEnqueueNDRangeKernel", "thread 7", 500, 10));
        v.push_back(record(Type::Read, "r", "GPU", "q0", 260, 10));
        v.push_back(record(Type::Kernel, "b", "GPU", "q0", 262, 10));
        for (bool stages : {false, true}) {
            TimelineLanes lanes;
            lanes.build(v, stages);
            QStringList names;
            for (const TimelineLane &l : lanes.lanes())
                names << QString::fromStdString((l.host ? std::string("host:") : l.device + "/") + l.queue);
            QCOMPARE(names, (QStringList{QStringLiteral("host:host"), QStringLiteral("host:thread 7"),
                                         QStringLiteral("host:thread 3"), QStringLiteral("GPU/q0"),
                                         QStringLiteral("GPU/q1"), QStringLiteral("CPU/q9")}));
            QList<int> laneOf;
            for (std::size_t i = 0; i < v.size(); ++i)
                laneOf << lanes.laneOf(i);
            QCOMPARE(laneOf, (QList<int>{1, 3, 0, 4, 2, 3, -1, 1, 3, 3}));
            QVERIFY(lanes.lanes()[5].run.empty());
            QCOMPARE(lanes.lanes()[3].run.items().size(), std::size_t{4});
            QCOMPARE(lanes.lanes()[3].queued.items().size(), std::size_t{stages ? 4u : 0u});
            QVERIFY(lanes.lanes()[1].queued.empty()); // host spans have no stages
            for (const TimelineLane &l : lanes.lanes()) {
                for (const TimelineItem &item : l.run.items())
                    QCOMPARE(item.colour, colourIndexFor(v[item.record]));
            }
            QCOMPARE(lanes.first(), std::uint64_t{50});
            QCOMPARE(lanes.last(), std::uint64_t{510});
        }
    }

    // A followed capture's refresh: lanes built of the first records and then given the rest equal lanes
    // built of all of them (items, their order, what is visible where, first and last), also when the new
    // records start before the last shown and with stages; a record of a queue not seen yet refuses.
    void lanesAppended()
    {
        std::vector<CommandRecord> v;
        for (int i = 0; i < 40; ++i) {
            v.push_back(record(i % 3 ? Type::Kernel : Type::Write, i % 2 ? "a" : "b", "GPU",
                               i % 4 ? "q0" : "q1", std::uint64_t(1000 + 37 * ((i * 7) % 40)), 30));
            CommandRecord h = record(Type::Marker, "clFinish", "host", i % 5 ? "thread 7" : "host",
                                     std::uint64_t(990 + 41 * i), 5);
            h.hostSpan = true;
            v.push_back(h);
        }
        v[13].end = 0; // untimed
        auto dump = [](const TimelineLanes &lanes) {
            QStringList out;
            for (const TimelineLane &l : lanes.lanes()) {
                for (const TimelineRow *row : {&l.run, &l.queued, &l.submitted}) {
                    QStringList items;
                    for (const TimelineItem &it : row->items())
                        items << QStringLiteral("%1-%2:%3:%4")
                                     .arg(it.begin)
                                     .arg(it.end)
                                     .arg(it.record)
                                     .arg(it.colour);
                    const auto [a, b] = row->visibleRange(1500, 1700);
                    out << QString::fromStdString(l.device + "/" + l.queue) + QStringLiteral(" ") +
                               items.join(u',') + QStringLiteral(" visible %1-%2").arg(a).arg(b);
                }
            }
            out << QStringLiteral("%1..%2").arg(lanes.first()).arg(lanes.last());
            return out;
        };
        for (bool stages : {false, true}) {
            TimelineLanes whole;
            whole.build(v, stages);
            for (std::size_t cut : {std::size_t(8), std::size_t(41), std::size_t(79)}) {
                const std::vector<CommandRecord> prefix(v.begin(), v.begin() + std::ptrdiff_t(cut));
                TimelineLanes grown;
                grown.build(prefix, stages);
                QVERIFY(grown.append(v, cut));
                QCOMPARE(dump(grown), dump(whole));
                for (std::size_t i = 0; i < v.size(); ++i)
                    QCOMPARE(grown.laneOf(i), whole.laneOf(i));
            }
            // A queue the lanes do not have: nothing changes, build() is needed.
            TimelineLanes lanes;
            lanes.build(v, stages);
            const QStringList before = dump(lanes);
            std::vector<CommandRecord> more = v;
            more.push_back(record(Type::Kernel, "c", "CPU", "q5", 3000, 10));
            QVERIFY(!lanes.append(more, v.size()));
            QCOMPARE(dump(lanes), before);
            QVERIFY(!lanes.append(more, 3)); // not where the lanes end
        }
    }

    void colours()
    {
        const CommandRecord a = record(Type::Kernel, "vector_add", "d", "q", 10, 1);
        const CommandRecord b = record(Type::Kernel, "vector_add", "e", "r", 20, 2);
        QCOMPARE(colourIndexFor(a), colourIndexFor(b));
        QVERIFY(colourIndexFor(a) >= kKernelColourBase);
        QCOMPARE(colourIndexFor(record(Type::Read, "read x", "d", "q", 1, 1)), std::uint32_t(Type::Read));
        QCOMPARE(stableHash("a"), 0xe40c292cu); // FNV-1a: fixed across runs, compilers and platforms
        QVERIFY(timelineColour(colourIndexFor(a)).isValid());
    }

    void ticks_data()
    {
        QTest::addColumn<double>("viewStart");
        QTest::addColumn<double>("viewEnd");
        QTest::addColumn<int>("width");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("firstLabel");
        // Labels are 7 px per character plus a 16 px gap.
        QTest::newRow("seconds") << 0.0 << 4e9 << 1000 << 5e8 << "0.0 s";
        QTest::newRow("milliseconds") << 0.0 << 9e8 << 1000 << 1e8 << "0 ms";
        // Deep in a long run the labels count from the view's start: 0 µs, not 523.40 ms.
        QTest::newRow("deep-in-ms") << 523.4e6 << 523.5e6 << 1000 << 1e4 << "0 \u00b5s";
        QTest::newRow("off-grid start") << 1234.5 << 51234.5 << 1000 << 5e3 << "0 \u00b5s";
        QTest::newRow("microseconds") << 0.0 << 50e3 << 1000 << 5e3 << "0 \u00b5s";
        QTest::newRow("nanoseconds") << 0.0 << 100.0 << 1000 << 10.0 << "0 ns";
        QTest::newRow("narrow") << 0.0 << 4e9 << 200 << 1e9 << "0 s";
    }
    void ticks()
    {
        QFETCH(double, viewStart);
        QFETCH(double, viewEnd);
        QFETCH(int, width);
        QFETCH(double, step);
        QFETCH(QString, firstLabel);
        const TimelineData d = geometry(-1e12, 1e12, viewStart, viewEnd, width);
        const auto textWidth = [](const std::string &s) { return 7 * int(QString::fromUtf8(s).size()); };
        const TimeAxisTicks t = chooseTicks(d, textWidth, 16);
        QCOMPARE(t.step, step);
        QCOMPARE(QString::fromUtf8(t.label(t.firstTick)), firstLabel);
        QCOMPARE(t.firstTick, viewStart);
        QCOMPARE(QString::fromUtf8(t.label(viewStart + t.step)), QString::fromUtf8(t.label(t.step + t.base)));
        // Labels fit between ticks.
        QVERIFY(t.step / d.nsPerPixel() >= textWidth(t.label(viewEnd)) + 16);
    }

    // The labels as drawn: the first starts at the left edge and none touches the next ("0.0 ms0.1 ms" was
    // the first label pushed right into the second), none passes the right edge.
    void axisLabelsDoNotTouch_data()
    {
        QTest::addColumn<double>("viewStart");
        QTest::addColumn<double>("viewEnd");
        QTest::addColumn<int>("width");
        QTest::newRow("run") << 0.0 << 33.76e6 << 1200;
        QTest::newRow("zoomed") << 16.17e6 << 16.47e6 << 1200;
        QTest::newRow("narrow") << 0.0 << 1e5 << 260;
        QTest::newRow("ns") << 5.0 << 95.0 << 700;
        QTest::newRow("seconds") << 0.0 << 123.4e9 << 900;
        QTest::newRow("negative start") << -2e6 << 40e6 << 1000;
    }
    void axisLabelsDoNotTouch()
    {
        QFETCH(double, viewStart);
        QFETCH(double, viewEnd);
        QFETCH(int, width);
        const TimelineData d = geometry(-1e12, 1e12, viewStart, viewEnd, width);
        // A wide font: 8 px per character.
        const auto textWidth = [](const std::string &s) { return 8 * int(QString::fromUtf8(s).size()); };
        const TimeAxisTicks t = chooseTicks(d, textWidth, 18);
        const std::vector<AxisLabel> labels = axisLabels(d, t, textWidth);
        QVERIFY(labels.size() >= 2);
        QCOMPARE(labels.front().x, kAxisLabelPad);
        QVERIFY2(QString::fromUtf8(labels.front().text).startsWith(QStringLiteral("0 ")) ||
                     QString::fromUtf8(labels.front().text).startsWith(QStringLiteral("0.0")),
                 labels.front().text.c_str());
        for (std::size_t i = 0; i < labels.size(); ++i) {
            QVERIFY(labels[i].x + labels[i].width <= width);
            QCOMPARE(labels[i].width, textWidth(labels[i].text));
            if (i > 0)
                QVERIFY2(labels[i - 1].x + labels[i - 1].width + kAxisLabelPad <= labels[i].x,
                         (labels[i - 1].text + " | " + labels[i].text).c_str());
        }
    }

    void deviceStats()
    {
        std::vector<CommandRecord> v = modelRecords();
        v.push_back(record(Type::Kernel, "vector_add", "CPU", "q0", 3'000'000, 3'000));
        v.push_back(record(Type::Kernel, "vector_add", "CPU", "q0", 3'010'000, 5'000));
        v.push_back(record(Type::Read, "read c", "CPU", "q0", 3'020'000, 9'000'000)); // not a kernel
        DeviceStatsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecords(v);
        QCOMPARE(snapshot(model), QStringLiteral("Device|Kernels|Total|Mean|Min|Max\n"
                                                 "GPU|3|1.51 ms|503 µs|4 µs|1.5 ms\n"
                                                 "CPU|2|8 µs|4 µs|3 µs|5 µs\n"));
        QCOMPARE(model.index(0, DeviceStatsModel::TotalColumn).data(DeviceStatsModel::SortRole).toULongLong(),
                 1'510'000ULL);
        model.setRecords({});
        QCOMPARE(model.rowCount(), 0);
    }

    void durations_data()
    {
        QTest::addColumn<double>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << 850.0 << "850 ns";
        QTest::newRow("zero") << 0.0 << "0 ns";
        QTest::newRow("rounds into us") << 999.6 << "1 \u00b5s";
        QTest::newRow("us, 3 digits") << 4123.0 << "4.12 \u00b5s";
        QTest::newRow("us, tens") << 12'345.0 << "12.3 \u00b5s";
        QTest::newRow("us, hundreds") << 123'456.0 << "123 \u00b5s";
        QTest::newRow("rounds into ms") << 999'700.0 << "1 ms";
        QTest::newRow("ms") << 1'234'567.0 << "1.23 ms";
        QTest::newRow("ms, zeros dropped") << 1'500'000.0 << "1.5 ms";
        QTest::newRow("s") << 2.5e9 << "2.5 s";
        QTest::newRow("long") << 1234.5e9 << "1235 s";
        QTest::newRow("negative") << -12'345.0 << "-12.3 \u00b5s";
    }
    void durations()
    {
        QFETCH(double, ns);
        QFETCH(QString, text);
        QCOMPARE(durationText(ns), text);
    }

    void eventModel()
    {
        auto records = std::make_shared<const std::vector<CommandRecord>>(modelRecords());
        EventTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecords(records, 1'000'000);
        const QString expected = QStringLiteral(
            "#|Type|Name|Queue|Device|Start|Duration|Queued → start|Bytes|Bandwidth|Global|Local|Timestamp "
            "checks\n"
            "0|kernel|vector_add|q0|GPU|0 ns|4 µs|50 ns|||1024|64|\n"
            "1|write|write a|q1|GPU|2 µs|2 µs|50 ns|19.53 KiB|10.00 GB/s|||\n"
            "2|kernel|vector_add|q0|GPU|10 µs|6 µs|50 ns|||||submit = start (Oclgrind reports this)\n"
            "3|kernel|Reduce|q0|GPU|20 µs|1.5 ms|50 ns|||||\n");
        QCOMPARE(snapshot(model), expected);
        QCOMPARE(model.index(1, EventTableModel::StartColumn).data(Qt::ToolTipRole).toString(),
                 QLocale().toString(2000) + QStringLiteral(" ns after the timeline's origin"));

        EventFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setNameFilter(QStringLiteral("VECTOR"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setNameFilter(QStringLiteral("reduce"));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.indexOfRecord(3).row(), 0);
        QVERIFY(!proxy.indexOfRecord(0).isValid());
        proxy.setNameFilter({});
        proxy.setTypeFilter(int(Type::Write));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setTypeFilter(-1);
        proxy.sort(EventTableModel::DurationColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, EventTableModel::NameColumn).data().toString(), QStringLiteral("Reduce"));
        QCOMPARE(proxy.index(3, EventTableModel::NameColumn).data().toString(), QStringLiteral("write a"));

        // Appending inserts only the new rows; the proxy keeps its sort.
        auto more = std::make_shared<std::vector<CommandRecord>>(*records);
        more->push_back(record(Type::Kernel, "vector_add", "GPU", "q0", 2'000'000, 9'000'000));
        model.appendRecords(more, 1'000'000);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(proxy.index(0, EventTableModel::IndexColumn).data().toInt(), 4);
    }

    void statsModel()
    {
        KernelStatsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecords(modelRecords());
        const QString expected =
            QStringLiteral("Name|Type|Count|Total|Share|Min|Median|Mean|Max|Std dev|Bandwidth\n"
                           "vector_add|kernel|2|10 µs|0.7 %|4 µs|5 µs|5 µs|6 µs|1.41 µs|\n"
                           "write a|write|1|2 µs|0.1 %|2 µs|2 µs|2 µs|2 µs||10.00 GB/s\n"
                           "Reduce|kernel|1|1.5 ms|99.2 %|1.5 ms|1.5 ms|1.5 ms|1.5 ms||\n");
        QCOMPARE(snapshot(model), expected);
        QCOMPARE(model.rowOf(Type::Kernel, "Reduce"), 2);
        QCOMPARE(model.rowOf(Type::Read, "Reduce"), -1);
        QCOMPARE(model.index(0, KernelStatsModel::TotalColumn).data(KernelStatsModel::SortRole).toULongLong(),
                 10'000ULL);
    }
};

QTEST_GUILESS_MAIN(TestTimelineData)
#include "tst_timelinedata.moc"
