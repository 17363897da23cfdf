// Profiling records: timestamp checks, statistics, histograms, clock mapping (also on PoCL), and the
// Chrome trace and CSV exports parsed back and compared with the records.
#include "clscope/profile.h"
#include "testhelpers.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <CL/cl.h>

#include <bit>
#include <cmath>
#include <map>
#include <set>

using namespace clscope;
using namespace testhelpers;
using Type = CommandRecord::Type;
using F = StampIssues::Flag;

Q_DECLARE_METATYPE(std::vector<std::uint64_t>)

namespace {

CommandRecord makeRecord(Type type, std::string name, std::string device, std::string queue,
                         std::uint64_t start, std::uint64_t duration)
{
    CommandRecord r;
    r.type = type;
    r.name = std::move(name);
    r.device = std::move(device);
    r.queue = std::move(queue);
    r.queued = start - 300;
    r.submit = start - 100;
    r.start = start;
    r.end = start + duration;
    r.hostSubmitNs = start - 400;
    return r;
}

// A small mixed run: two devices, three queues, a host build span, a transfer, an odd record.
std::vector<CommandRecord> sampleRecords(std::uint64_t base)
{
    std::vector<CommandRecord> v;
    CommandRecord build = makeRecord(Type::Build, "build k.cl", "GPU A", "host", base, 2'000'000);
    build.hostSpan = true;
    build.queued = build.submit = 0;
    v.push_back(build);
    CommandRecord k = makeRecord(Type::Kernel, "vector_add", "GPU A", "queue 0", base + 3'000'000, 1'234'567);
    k.dims = 2;
    k.global = {1024, 512, 1};
    k.local = {16, 16, 1};
    k.complete = k.end + 50;
    v.push_back(k);
    CommandRecord w =
        makeRecord(Type::Write, "write a, \"first\"", "GPU A", "queue 1", base + 3'000'100, 400'001);
    w.bytes = 4'000'004;
    v.push_back(w);
    v.push_back(makeRecord(Type::Kernel, "vector_add", "GPU A", "queue 0", base + 5'000'000, 1'000'003));
    v.push_back(makeRecord(Type::Kernel, "matmul", "GPU B", "queue 0", base + 3'500'000, 7'777'777));
    CommandRecord broken = makeRecord(Type::Read, "read c", "GPU B", "queue 0", base + 20'000'000, 10);
    broken.end = broken.start - 5; // start > end: left out of slices and statistics
    broken.bytes = 100;
    v.push_back(broken);
    return v;
}

std::vector<std::vector<std::string>> parseCsv(const std::string &text)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return rows;
}

} // namespace

class TestProfile : public QObject
{
    Q_OBJECT
private slots:
    void typeNames()
    {
        for (int t = 0; t < kCommandTypeCount; ++t) {
            const auto type = static_cast<Type>(t);
            QCOMPARE(parseType(typeName(type)), std::optional<Type>(type));
        }
        QCOMPARE(typeName(Type::Read), std::string_view("read"));
        QVERIFY(!parseType("nonsense"));
        QVERIFY(isTransfer(Type::Write));
        QVERIFY(!isTransfer(Type::Kernel));
    }

    void checks_data()
    {
        QTest::addColumn<bool>("hostSpan");
        QTest::addColumn<qulonglong>("queued");
        QTest::addColumn<qulonglong>("submit");
        QTest::addColumn<qulonglong>("start");
        QTest::addColumn<qulonglong>("end");
        QTest::addColumn<qlonglong>("complete"); // -1: not asked for
        QTest::addColumn<uint>("mask");
        QTest::addColumn<bool>("error");
        QTest::newRow("clean") << false << 100ULL << 200ULL << 300ULL << 400ULL << 500LL << 0u << false;
        QTest::newRow("no-complete") << false << 100ULL << 200ULL << 300ULL << 400ULL << -1LL << 0u << false;
        QTest::newRow("oclgrind-submit-eq-start")
            << false << 100ULL << 300ULL << 300ULL << 400ULL << -1LL << uint(F::ZeroSubmitted) << false;
        QTest::newRow("no-submit") << false << 100ULL << 0ULL << 300ULL << 400ULL << -1LL
                                   << uint(F::MissingSubmit) << false;
        QTest::newRow("no-submit-queued-after-start") << false << 350ULL << 0ULL << 300ULL << 400ULL << -1LL
                                                      << uint(F::MissingSubmit | F::OrderAcrossGap) << true;
        QTest::newRow("queued-after-submit")
            << false << 250ULL << 200ULL << 300ULL << 400ULL << -1LL << uint(F::QueuedAfterSubmit) << true;
        QTest::newRow("submit-after-start")
            << false << 100ULL << 350ULL << 300ULL << 400ULL << -1LL << uint(F::SubmitAfterStart) << true;
        QTest::newRow("start-after-end")
            << false << 100ULL << 200ULL << 500ULL << 400ULL << -1LL << uint(F::StartAfterEnd) << true;
        QTest::newRow("end-after-complete")
            << false << 100ULL << 200ULL << 300ULL << 400ULL << 350LL << uint(F::EndAfterComplete) << true;
        QTest::newRow("zero-run") << false << 100ULL << 200ULL << 300ULL << 300ULL << -1LL << uint(F::ZeroRun)
                                  << false;
        QTest::newRow("zero-queued") << false << 200ULL << 200ULL << 300ULL << 400ULL << -1LL
                                     << uint(F::ZeroQueued) << false;
        QTest::newRow("end-eq-complete")
            << false << 100ULL << 200ULL << 300ULL << 400ULL << 400LL << uint(F::ZeroComplete) << false;
        QTest::newRow("complete-zero")
            << false << 100ULL << 200ULL << 300ULL << 400ULL << 0LL << uint(F::MissingComplete) << false;
        QTest::newRow("all-zero") << false << 0ULL << 0ULL << 0ULL << 0ULL << -1LL
                                  << uint(F::MissingQueued | F::MissingSubmit | F::MissingStart |
                                          F::MissingEnd)
                                  << true;
        QTest::newRow("all-equal") << false << 7ULL << 7ULL << 7ULL << 7ULL << -1LL
                                   << uint(F::ZeroQueued | F::ZeroSubmitted | F::ZeroRun) << false;
        QTest::newRow("host-span") << true << 0ULL << 0ULL << 300ULL << 400ULL << -1LL << 0u << false;
        QTest::newRow("host-span-zero")
            << true << 0ULL << 0ULL << 300ULL << 300ULL << -1LL << uint(F::ZeroRun) << false;
        QTest::newRow("host-span-reversed")
            << true << 0ULL << 0ULL << 400ULL << 300ULL << -1LL << uint(F::StartAfterEnd) << true;
    }
    void checks()
    {
        QFETCH(bool, hostSpan);
        QFETCH(qulonglong, queued);
        QFETCH(qulonglong, submit);
        QFETCH(qulonglong, start);
        QFETCH(qulonglong, end);
        QFETCH(qlonglong, complete);
        QFETCH(uint, mask);
        QFETCH(bool, error);
        CommandRecord r;
        r.hostSpan = hostSpan;
        r.queued = queued;
        r.submit = submit;
        r.start = start;
        r.end = end;
        if (complete >= 0)
            r.complete = static_cast<std::uint64_t>(complete);
        const StampIssues issues = checkTimestamps(r);
        QCOMPARE(issues.mask, mask);
        QCOMPARE(issues.isError(), error);
        QCOMPARE(static_cast<int>(issueTexts(issues).size()), std::popcount(mask));
        if (issues.has(F::ZeroSubmitted))
            QVERIFY(describeIssues(issues).find("Oclgrind") != std::string::npos);
        if (mask == 0)
            QVERIFY(describeIssues(issues).empty());
    }

    void summarize_data()
    {
        QTest::addColumn<std::vector<std::uint64_t>>("durations");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("stddev");
        QTest::newRow("odd") << std::vector<std::uint64_t>{5, 1, 3} << 3.0 << 3.0 << 2.0;
        QTest::newRow("even") << std::vector<std::uint64_t>{4, 1, 3, 2} << 2.5 << 2.5 << std::sqrt(5.0 / 3.0);
        QTest::newRow("single") << std::vector<std::uint64_t>{7} << 7.0 << 7.0 << 0.0;
        QTest::newRow("equal") << std::vector<std::uint64_t>{9, 9, 9, 9} << 9.0 << 9.0 << 0.0;
        QTest::newRow("large") << std::vector<std::uint64_t>{1'000'000'000'000, 1'000'000'000'002} << 1e12 + 1
                               << 1e12 + 1 << std::sqrt(2.0);
    }
    void summarize()
    {
        QFETCH(std::vector<std::uint64_t>, durations);
        QFETCH(double, median);
        QFETCH(double, mean);
        QFETCH(double, stddev);
        const DurationStats s = clscope::summarize(durations);
        QCOMPARE(s.count, durations.size());
        QCOMPARE(s.minNs, *std::min_element(durations.begin(), durations.end()));
        QCOMPARE(s.maxNs, *std::max_element(durations.begin(), durations.end()));
        QCOMPARE(s.medianNs, median);
        QCOMPARE(s.meanNs, mean);
        QVERIFY2(std::fabs(s.stddevNs - stddev) < 1e-9, qPrintable(QString::number(s.stddevNs, 'g', 17)));
        QCOMPARE(clscope::summarize({}).count, std::uint64_t{0});
    }

    void groups()
    {
        const auto records = sampleRecords(1'000'000'000);
        const auto kernels = statsByKernel(records);
        QCOMPARE(kernels.size(), std::size_t{2});
        QCOMPARE(kernels[0].name, std::string("vector_add"));
        QCOMPARE(kernels[0].count, std::uint64_t{2});
        QCOMPARE(kernels[0].totalNs, std::uint64_t{1'234'567 + 1'000'003});
        QCOMPARE(kernels[0].medianNs, (1'234'567.0 + 1'000'003.0) / 2);
        QCOMPARE(kernels[1].name, std::string("matmul"));

        const auto byName = statsByName(records);
        QCOMPARE(byName.size(), std::size_t{5}); // build, vector_add, write, matmul, read
        const auto write =
            std::find_if(byName.begin(), byName.end(), [](auto &s) { return s.type == Type::Write; });
        QVERIFY(write != byName.end());
        QCOMPARE(write->gbPerSecond, 4'000'004.0 / 400'001.0);
        const auto read =
            std::find_if(byName.begin(), byName.end(), [](auto &s) { return s.type == Type::Read; });
        QCOMPARE(read->count, std::uint64_t{0});
        QCOMPARE(read->skipped, std::uint64_t{1});
        QCOMPARE(read->gbPerSecond, 0.0);

        const auto byType = statsByType(records);
        QCOMPARE(byType.front().type, Type::Kernel);
        QCOMPARE(byType.front().count, std::uint64_t{3});
        QCOMPARE(byType.front().name, std::string("kernel"));
        for (std::size_t i = 1; i < byType.size(); ++i)
            QVERIFY(byType[i - 1].type < byType[i].type);
    }

    void bandwidth()
    {
        CommandRecord r = makeRecord(Type::Read, "read", "d", "q", 1000, 100'000'000);
        r.bytes = 1'000'000'000;
        QVERIFY(r.hasBandwidth());
        QCOMPARE(r.gbPerSecond(), 10.0);
        r.type = Type::Kernel;
        QCOMPARE(r.gbPerSecond(), 0.0);
    }

    void histogramBins()
    {
        std::vector<std::uint64_t> d = {10, 20, 20, 30, 40, 50};
        DurationHistogram h = histogram(d, 4);
        QCOMPARE(h.counts.size(), std::size_t{4});
        QCOMPARE(h.minNs, 10.0);
        QCOMPARE(h.binWidthNs, 10.0);
        QCOMPARE(h.counts, (std::vector<std::uint64_t>{1, 2, 1, 2})); // 50 lands in the closed last bin
        h = histogram({5, 5, 5});
        QCOMPARE(h.counts, (std::vector<std::uint64_t>{3}));
        std::vector<std::uint64_t> many(400);
        for (std::size_t i = 0; i < many.size(); ++i)
            many[i] = i;
        h = histogram(many);
        QCOMPARE(h.counts.size(), std::size_t{20});
        QVERIFY(histogram({}).counts.empty());
    }

    void clockMapping()
    {
        ClockMapping m;
        m.offsetNs = -1'000;
        QCOMPARE(m.toHost(5'000), std::uint64_t{4'000});
        QCOMPARE(m.toDevice(4'000), std::uint64_t{5'000});
        m.offsetNs = 1'700'000'000'000'000'000LL;
        QCOMPARE(m.toDevice(m.toHost(123)), std::uint64_t{123});
        std::vector<CommandRecord> records = sampleRecords(10'000'000);
        records[1].submit = 0; // missing stays missing
        const auto before = records;
        m.offsetNs = 500;
        mapToHost(records, m);
        QCOMPARE(records[0].start, before[0].start); // host span untouched
        QCOMPARE(records[1].submit, std::uint64_t{0});
        QCOMPARE(records[1].start, before[1].start + 500);
        QCOMPARE(*records[1].complete, *before[1].complete + 500);
        QCOMPARE(sourceName(ClockMapping::Source::Calibration), std::string_view("calibration"));
    }

    void calibrateOnDevice()
    {
        cl_device_id device = firstDevice();
        if (!device)
            QSKIP("no OpenCL device");
        cl_int err = CL_SUCCESS;
        cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        QCOMPARE(err, CL_SUCCESS);
        const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, props, &err);
        QCOMPARE(err, CL_SUCCESS);
        for (const bool markers : {false, true}) {
            const ClockMapping m = markers ? calibrateWithMarkers(queue) : calibrate(device, queue);
            if (markers)
                QCOMPARE(m.source, ClockMapping::Source::Calibration);
            QVERIFY(m.source != ClockMapping::Source::Identity);
            qInfo("%s: offset %lld ns, uncertainty %llu ns", sourceName(m.source).data(),
                  static_cast<long long>(m.offsetNs), static_cast<unsigned long long>(m.uncertaintyNs));
            // A fresh marker's END, mapped, falls inside the host bracket around it (give or take the
            // mapping's uncertainty and a little scheduling slack).
            cl_event event = nullptr;
            const std::uint64_t before = hostNowNs();
            QCOMPARE(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event), CL_SUCCESS);
            QCOMPARE(clWaitForEvents(1, &event), CL_SUCCESS);
            const std::uint64_t after = hostNowNs();
            cl_ulong end = 0;
            QCOMPARE(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
                     CL_SUCCESS);
            clReleaseEvent(event);
            const std::uint64_t mapped = m.toHost(end);
            const std::uint64_t slack = m.uncertaintyNs + 2'000'000;
            QVERIFY2(
                mapped + slack >= before && mapped <= after + slack,
                qPrintable(QStringLiteral("mapped %1, bracket [%2, %3]").arg(mapped).arg(before).arg(after)));
        }
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }

    void chromeTrace()
    {
        // A device epoch far from 0: microsecond doubles must still carry every nanosecond.
        const std::uint64_t base = 1'700'000'000'123'456'789ULL;
        const auto records = sampleRecords(base);
        const std::vector<PoolSeriesPoint> pool = {
            {base, 0, 0}, {base + 3'000'000, 1 << 20, 4096}, {base + 9'000'000, 0, 8192}};
        const auto trace = nlohmann::json::parse(chromeTraceJson(records, {}, pool));
        QVERIFY(trace.is_object());
        QCOMPARE(trace["displayTimeUnit"].get<std::string>(), std::string("ns"));
        const std::uint64_t origin = trace["otherData"]["origin_ns"].get<std::uint64_t>();
        QCOMPARE(origin, base);
        QCOMPARE(trace["otherData"]["skipped_records"].get<int>(), 1);

        std::map<std::pair<int, int>, std::string> threadNames;
        std::map<int, std::string> processNames;
        std::map<std::string, int> pidOfDevice;
        std::map<std::pair<std::string, std::string>, std::pair<int, int>> trackOfQueue;
        std::set<std::size_t> sliced;
        int counters = 0;
        for (const auto &e : trace["traceEvents"]) {
            const std::string ph = e["ph"];
            if (ph == "M" && e["name"] == "process_name")
                processNames[e["pid"]] = e["args"]["name"];
            if (ph == "M" && e["name"] == "thread_name")
                threadNames[{e["pid"], e["tid"]}] = e["args"]["name"];
            if (ph == "C") {
                const auto &p = pool[static_cast<std::size_t>(counters++)];
                QCOMPARE(e["args"]["held_bytes"].get<std::uint64_t>(), p.heldBytes);
                QCOMPARE(e["args"]["active_bytes"].get<std::uint64_t>(), p.activeBytes);
                QCOMPARE(std::llround(e["ts"].get<double>() * 1000),
                         static_cast<long long>(p.timestampNs - origin));
                QCOMPARE(processNames[e["pid"]], std::string("Memory pool"));
            }
            if (ph != "X")
                continue;
            const auto index = e["args"]["index"].get<std::size_t>();
            const CommandRecord &r = records[index];
            sliced.insert(index);
            QCOMPARE(e["name"].get<std::string>(), r.name);
            QCOMPARE(e["cat"].get<std::string>(), std::string(typeName(r.type)));
            // dur is end - start to the nanosecond, ts is start relative to the origin.
            QCOMPARE(std::llround(e["dur"].get<double>() * 1000), static_cast<long long>(r.end - r.start));
            QCOMPARE(std::llround(e["ts"].get<double>() * 1000), static_cast<long long>(r.start - origin));
            QCOMPARE(e["args"]["start_ns"].get<std::uint64_t>(), r.start);
            QCOMPARE(e["args"]["end_ns"].get<std::uint64_t>(), r.end);
            QCOMPARE(e["args"]["queued_ns"].get<std::uint64_t>(), r.queued);
            QCOMPARE(e["args"]["bytes"].get<std::uint64_t>(), r.bytes);
            QCOMPARE(e["args"]["queue"].get<std::string>(), r.queue);
            QCOMPARE(e["args"]["host_span"].get<bool>(), r.hostSpan);
            QCOMPARE(e["args"]["global"].size(), static_cast<std::size_t>(r.dims));
            if (r.complete)
                QCOMPARE(e["args"]["complete_ns"].get<std::uint64_t>(), *r.complete);
            else
                QVERIFY(!e["args"].contains("complete_ns"));
            QCOMPARE(e["args"].contains("gb_per_s"), r.hasBandwidth());
            const int pid = e["pid"];
            const int tid = e["tid"];
            if (r.hostSpan) {
                QCOMPARE(processNames[pid], std::string("Host"));
            } else {
                QCOMPARE(processNames[pid], r.device);
                auto [it, inserted] = pidOfDevice.try_emplace(r.device, pid);
                QCOMPARE(it->second, pid);
            }
            QCOMPARE(threadNames[std::make_pair(pid, tid)], r.queue);
            auto [it, inserted] = trackOfQueue.try_emplace({r.device, r.queue}, std::make_pair(pid, tid));
            QCOMPARE(it->second, std::make_pair(pid, tid));
        }
        QCOMPARE(counters, 3);
        QCOMPARE(sliced, (std::set<std::size_t>{0, 1, 2, 3, 4})); // the broken read is left out
        QCOMPARE(pidOfDevice.size(), std::size_t{2});
        QVERIFY(pidOfDevice["GPU A"] != pidOfDevice["GPU B"]);
        // One track per queue: GPU A has two queues on two tids.
        const auto queue0 = trackOfQueue[std::make_pair(std::string("GPU A"), std::string("queue 0"))];
        const auto queue1 = trackOfQueue[std::make_pair(std::string("GPU A"), std::string("queue 1"))];
        QVERIFY(queue0 != queue1);
    }

    void chromeTraceStages()
    {
        // Commands queued long before they run overlap each other's stages: the stage rows must nest.
        auto records = syntheticRecords(300, 1, 2, 7);
        for (std::size_t i = 2; i < records.size(); ++i)
            records[i].queued = records[i].submit - 200'000;
        ChromeTraceOptions options;
        options.stages = true;
        options.args = false;
        const auto trace = nlohmann::json::parse(chromeTraceJson(records, options));
        std::map<std::pair<int, int>, std::string> threadNames;
        std::map<std::pair<int, int>, std::vector<std::pair<long long, long long>>> stageSlices;
        int stageCount = 0;
        for (const auto &e : trace["traceEvents"]) {
            if (e["ph"] == "M" && e["name"] == "thread_name")
                threadNames[{e["pid"], e["tid"]}] = e["args"]["name"];
            if (e["ph"] == "X" && e["cat"] == "stage") {
                ++stageCount;
                QVERIFY(!e.contains("args") || e["args"].contains("index"));
                const long long ts = std::llround(e["ts"].get<double>() * 1000);
                stageSlices[{e["pid"], e["tid"]}].push_back(
                    {ts, ts + std::llround(e["dur"].get<double>() * 1000)});
            }
        }
        QCOMPARE(stageCount, 3 * 300); // the two host builds have no stages
        QVERIFY(stageSlices.size() > 2);
        for (auto &[track, slices] : stageSlices) {
            QVERIFY(threadNames[track].find("stages") != std::string::npos);
            std::sort(slices.begin(), slices.end());
            for (std::size_t i = 1; i < slices.size(); ++i)
                QVERIFY2(slices[i].first >= slices[i - 1].second, threadNames[track].c_str());
        }
    }

    void chromeTraceOverlap()
    {
        // An out-of-order queue: B and C run while A does, so they go to a second row of the queue; D, after
        // everything, returns to the first.
        std::vector<CommandRecord> records = {
            makeRecord(Type::Kernel, "A", "GPU", "ooo", 1'000'000, 4000),
            makeRecord(Type::Kernel, "C", "GPU", "ooo", 1'003'000, 2000),
            makeRecord(Type::Kernel, "B", "GPU", "ooo", 1'001'000, 1000),
            makeRecord(Type::Kernel, "D", "GPU", "ooo", 1'010'000, 1000),
        };
        const auto trace = nlohmann::json::parse(chromeTraceJson(records));
        std::map<int, std::string> threadNames;
        std::map<std::string, int> tidOf;
        for (const auto &e : trace["traceEvents"]) {
            if (e["ph"] == "M" && e["name"] == "thread_name")
                threadNames[e["tid"]] = e["args"]["name"];
            if (e["ph"] == "X")
                tidOf[e["name"]] = e["tid"];
        }
        QCOMPARE(tidOf["A"], tidOf["D"]);
        QVERIFY(tidOf["C"] != tidOf["A"]);
        QCOMPARE(threadNames[tidOf["A"]], std::string("ooo"));
        QCOMPARE(threadNames[tidOf["C"]], std::string("ooo #2"));
        // Rows are greedy, so no two slices of one tid overlap at all.
        std::map<int, std::vector<std::pair<std::uint64_t, std::uint64_t>>> spans;
        for (const auto &r : records)
            spans[tidOf[r.name]].push_back({r.start, r.end});
        for (auto &[tid, list] : spans) {
            std::sort(list.begin(), list.end());
            for (std::size_t i = 1; i < list.size(); ++i)
                QVERIFY(list[i].first >= list[i - 1].second);
        }
    }

    void chromeTraceFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("trace.json")).toStdString();
        ChromeTraceOptions options;
        options.originNs = 0;
        const auto records = sampleRecords(5'000'000);
        writeChromeTrace(path, records, options);
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto trace = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(trace["otherData"]["origin_ns"].get<std::uint64_t>(), std::uint64_t{0});
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 writeChromeTrace(std::string("/nonexistent/dir/t.json"), records));
        // Empty input is still a valid trace.
        QVERIFY(nlohmann::json::parse(chromeTraceJson({}))["traceEvents"].empty());
    }

    void csvField_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("plain") << "vector_add"
                               << "vector_add";
        QTest::newRow("comma") << "a,b"
                               << "\"a,b\"";
        QTest::newRow("quote") << "say \"hi\""
                               << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "a\nb"
                                 << "\"a\nb\"";
        QTest::newRow("cr") << "a\rb"
                            << "\"a\rb\"";
        QTest::newRow("empty") << ""
                               << "";
    }
    void csvField()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(clscope::csvField(in.toStdString())), out);
    }

    void csvRoundTrip()
    {
        auto records = sampleRecords(1'000'000);
        records[2].queue = "queue\n\"two\"";
        const auto rows = parseCsv(csvText(records));
        QCOMPARE(rows.size(), records.size() + 1);
        QCOMPARE(rows[0].size(), kCsvColumns.size());
        for (std::size_t c = 0; c < kCsvColumns.size(); ++c)
            QCOMPARE(rows[0][c], std::string(kCsvColumns[c]));
        auto column = [&rows](std::string_view name) {
            return static_cast<std::size_t>(std::find(kCsvColumns.begin(), kCsvColumns.end(), name) -
                                            kCsvColumns.begin());
        };
        for (std::size_t i = 0; i < records.size(); ++i) {
            const auto &row = rows[i + 1];
            const CommandRecord &r = records[i];
            QCOMPARE(row.size(), kCsvColumns.size());
            QCOMPARE(row[column("index")], std::to_string(i));
            QCOMPARE(row[column("type")], std::string(typeName(r.type)));
            QCOMPARE(row[column("name")], r.name);
            QCOMPARE(row[column("queue")], r.queue);
            QCOMPARE(row[column("device")], r.device);
            QCOMPARE(row[column("start_ns")], std::to_string(r.start));
            QCOMPARE(row[column("end_ns")], std::to_string(r.end));
            QCOMPARE(row[column("duration_ns")], std::to_string(r.duration()));
            QCOMPARE(row[column("complete_ns")], r.complete ? std::to_string(*r.complete) : std::string());
            QCOMPARE(row[column("issue_mask")], std::to_string(checkTimestamps(r).mask));
        }
        QCOMPARE(rows[2][column("global")], std::string("1024x512"));
        QCOMPARE(rows[2][column("local")], std::string("16x16"));
        QCOMPARE(rows[3][column("gb_per_s")], std::string("10.000"));
        QCOMPARE(rows[6][column("issues")], std::string("start > end"));
    }

    void synthetic()
    {
        const auto a = syntheticRecords(1000, 2, 4, 3);
        const auto b = syntheticRecords(1000, 2, 4, 3);
        QCOMPARE(a.size(), std::size_t{1002}); // + two host builds
        std::set<std::pair<std::string, std::string>> lanes;
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].start, b[i].start);
            QVERIFY(!checkTimestamps(a[i]).isError());
            if (!a[i].hostSpan)
                lanes.insert({a[i].device, a[i].queue});
        }
        QCOMPARE(lanes.size(), std::size_t{8});
        const auto pool = syntheticPoolSeries(a, 100);
        QVERIFY(!pool.empty());
        QVERIFY(std::is_sorted(pool.begin(), pool.end(),
                               [](auto &x, auto &y) { return x.timestampNs < y.timestampNs; }));
    }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
