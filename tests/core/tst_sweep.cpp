// Work-group size sweeps (sweep.h): the candidates a device and kernel allow, computed from the limits
// alone; the list syntax; and sweeps on PoCL: the tiled matrix multiply gives the same C for every shape,
// a kernel whose result depends on the local size is flagged and never chosen as best, a size the device
// refuses is kept with its reason, a bad argument fails the whole sweep, and a cancelled sweep stops.
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/sweep.h"

#include <QTest>

#include <algorithm>
#include <atomic>

using namespace clscope;

namespace {

using Sizes = std::vector<std::size_t>;
using Candidates = std::vector<Sizes>;

std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/run/") + name;
}

std::string kernelPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/../../resources/kernels/") + name;
}

LaunchLimits limits(std::size_t group, std::size_t kernelGroup)
{
    LaunchLimits l;
    l.maxWorkItemDimensions = 3;
    l.maxWorkItemSizes = {1024, 1024, 64};
    l.maxWorkGroupSize = group;
    l.kernelWorkGroupSize = kernelGroup;
    return l;
}

std::size_t items(const Sizes &s)
{
    std::size_t n = 1;
    for (std::size_t v : s)
        n *= v;
    return n;
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT
    cl_device_id m_device = nullptr;
    BuildResult m_matmul;
    BuildResult m_sweep;

    BuildResult build(const std::string &path) const
    {
        BuildRequest r;
        r.devices = {m_device};
        r.sourcePath = path;
        r.environmentOptions = false;
        return buildProgram(r, BinaryCache());
    }

    RunRequest matmul(std::size_t n) const
    {
        RunRequest r;
        r.build = m_matmul;
        r.kernel = "matmul_tiled";
        r.range.global = {n, n};
        r.range.local = {16, 16};
        const std::string count = std::to_string(n * n);
        r.args = {parseArgSpec("A=buffer:float:" + count + ":random=1:0:1"),
                  parseArgSpec("B=buffer:float:" + count + ":random=2:0:1"),
                  parseArgSpec("C=buffer:float:" + count), parseArgSpec("N=int:" + std::to_string(n))};
        return r;
    }

    RunRequest sweepKernel(const char *kernel, std::size_t n) const
    {
        RunRequest r;
        r.build = m_sweep;
        r.kernel = kernel;
        r.range.global = {n};
        const std::string count = std::to_string(n);
        if (std::string(kernel) == "squares")
            r.args = {parseArgSpec("in=buffer:float:" + count + ":iota"),
                      parseArgSpec("out=buffer:float:" + count)};
        else
            r.args = {parseArgSpec("out=buffer:int:" + count)};
        return r;
    }

private slots:
    void initTestCase()
    {
        qunsetenv("CLSCOPE_DEVICE");
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        try {
            m_device = selectDevice("pocl").device;
        } catch (const std::exception &e) {
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(e.what())));
        }
        m_matmul = build(kernelPath("matmul_tiled.cl"));
        QVERIFY(m_matmul.success());
        m_sweep = build(dataPath("sweep.cl"));
        QVERIFY(m_sweep.success());
    }

    // 1-D: the multiples of the preferred multiple up to the kernel's limit that divide the global size.
    void oneDimension()
    {
        QCOMPARE(localSizeCandidates(limits(1024, 256), 32, {1024}), (Candidates{{32}, {64}, {128}, {256}}));
        // 1000 has no divisor that is a multiple of 32: its divisors within the limit instead.
        QCOMPARE(
            localSizeCandidates(limits(1024, 256), 32, {1000}),
            (Candidates{{1}, {2}, {4}, {5}, {8}, {10}, {20}, {25}, {40}, {50}, {100}, {125}, {200}, {250}}));
        // Non-uniform work-groups: every multiple up to the global size.
        LaunchLimits l = limits(1024, 256);
        l.nonUniformWorkGroups = true;
        QCOMPARE(localSizeCandidates(l, 32, {1000}).size(), std::size_t(8));
        QCOMPARE(localSizeCandidates(l, 32, {100}), (Candidates{{32}, {64}, {96}}));
        // The work-item limit of the dimension holds too.
        l = limits(1024, 0);
        l.maxWorkItemSizes = {64, 64, 64};
        QCOMPARE(localSizeCandidates(l, 16, {256}), (Candidates{{16}, {32}, {64}}));
    }

    // 2-D: shapes of divisors whose work-items are a multiple of the preferred multiple, within the limits,
    // ordered by work-items; a compiled work-group size is the only candidate.
    void shapes()
    {
        const Candidates c = localSizeCandidates(limits(1024, 1024), 32, {256, 256});
        QVERIFY(!c.empty());
        for (const Sizes &s : c) {
            QCOMPARE(s.size(), std::size_t(2));
            QVERIFY(256 % s[0] == 0 && 256 % s[1] == 0);
            QVERIFY(items(s) % 32 == 0 && items(s) <= 1024);
        }
        QVERIFY(std::find(c.begin(), c.end(), Sizes{16, 16}) != c.end());
        QVERIFY(std::find(c.begin(), c.end(), Sizes{256, 4}) != c.end());
        QVERIFY(std::find(c.begin(), c.end(), Sizes{4, 4}) == c.end());
        QVERIFY(std::is_sorted(c.begin(), c.end(),
                               [](const Sizes &a, const Sizes &b) { return items(a) < items(b); }));
        // The third dimension's work-item limit (64).
        for (const Sizes &s : localSizeCandidates(limits(1024, 1024), 1, {8, 8, 128}))
            QVERIFY(s[2] <= 64);

        LaunchLimits reqd = limits(1024, 1024);
        reqd.compileWorkGroupSize = {8, 4, 1};
        QCOMPARE(localSizeCandidates(reqd, 32, {256, 256}), (Candidates{{8, 4}}));
        // Past the cap: powers of two first, then every k-th.
        QCOMPARE(localSizeCandidates(limits(1024, 1024), 1, {256, 256, 16}, 5).size(), std::size_t(5));
        QVERIFY(localSizeCandidates(limits(1024, 1024), 1, {}).empty());
    }

    void candidateList()
    {
        QCOMPARE(parseLocalCandidates("32;64 driver"), (Candidates{{32}, {64}, {}}));
        QCOMPARE(parseLocalCandidates("16,16;8,4"), (Candidates{{16, 16}, {8, 4}}));
        QVERIFY_THROWS_EXCEPTION(RunInputError, parseLocalCandidates("16;abc"));
        QVERIFY_THROWS_EXCEPTION(RunInputError, parseLocalCandidates(" ; "));
        QCOMPARE(localSizeLabel({}), std::string("driver"));
        QCOMPARE(localSizeLabel({16, 8}), std::string("16,8"));
    }

    // Every shape of the tiled multiply gives the reference's C; each point timed `repeat` times.
    void tiledMatmulIsTheSameForEveryShape()
    {
        SweepRequest r;
        r.run = matmul(64);
        r.candidates = {{8, 8}, {32, 2}, {64, 1}, {}, {16, 16}};
        r.repeat = 3;
        std::vector<std::size_t> progress;
        SweepOptions options;
        options.progress = [&](std::size_t done, std::size_t total) {
            progress.push_back(done);
            QCOMPARE(total, std::size_t(5));
        };
        const SweepResult s = sweepLocalSizes(r, options);
        QCOMPARE(s.points.size(), std::size_t(5)); // 16,16 once: it is the reference
        QCOMPARE(progress, (std::vector<std::size_t>{1, 2, 3, 4, 5}));
        QCOMPARE(s.points[0].local, (Sizes{16, 16}));
        QCOMPARE(s.reference, std::optional<std::size_t>(0));
        QVERIFY(!s.cancelled);
        QCOMPARE(s.kernel, std::string("matmul_tiled"));
        QVERIFY(!s.device.empty());
        for (const SweepPoint &p : s.points) {
            QVERIFY2(p.ran, p.error.c_str());
            QVERIFY2(p.matches, qPrintable(QString::fromStdString(localSizeLabel(p.local))));
            QCOMPARE(p.stats.count, std::uint64_t(3));
            QVERIFY(p.stats.minNs > 0 && double(p.stats.minNs) <= p.stats.medianNs);
        }
        QVERIFY(s.best);
        for (const SweepPoint &p : s.points)
            QVERIFY(s.points[*s.best].stats.medianNs <= p.stats.medianNs);
    }

    // A result that depends on the local size is flagged, by buffer, and such a size is never the best.
    void resultThatDependsOnTheLocalSizeIsFlagged()
    {
        SweepRequest r;
        r.run = sweepKernel("local_size_shows", 64);
        r.run.range.local = {4};
        r.candidates = {{8}, {4}, {16}};
        r.repeat = 2;
        const SweepResult s = sweepLocalSizes(r);
        QCOMPARE(s.points.size(), std::size_t(3));
        QVERIFY(s.points[0].matches);
        for (std::size_t i : {1, 2}) {
            QVERIFY(s.points[i].ran);
            QVERIFY(!s.points[i].matches);
            QCOMPARE(s.points[i].differing, (std::vector<std::string>{"out"}));
        }
        QCOMPARE(s.best, std::optional<std::size_t>(0));
    }

    // A size the device refuses keeps its reason and the sweep goes on; auto candidates add the driver's
    // choice after the reference.
    void refusedSizeIsKept()
    {
        SweepRequest r;
        r.run = sweepKernel("squares", 64);
        r.candidates = {{3}, {8}};
        r.repeat = 1;
        SweepResult s = sweepLocalSizes(r);
        QCOMPARE(s.points.size(), std::size_t(3));
        QVERIFY(s.points[0].local.empty()); // no local size given: the driver's choice is the reference
        QVERIFY(!s.points[1].ran);
        QVERIFY2(s.points[1].error.find('3') != std::string::npos, s.points[1].error.c_str());
        QVERIFY(s.points[2].ran && s.points[2].matches);

        r.candidates.clear();
        r.run.range.local = {16};
        s = sweepLocalSizes(r);
        QVERIFY(s.points.size() >= 3);
        QCOMPARE(s.points[0].local, (Sizes{16}));
        QVERIFY(s.points[1].local.empty());
        for (const SweepPoint &p : s.points) {
            QVERIFY2(p.ran, p.error.c_str());
            QVERIFY(p.matches);
            QCOMPARE(64 % (p.local.empty() ? 1 : p.local[0]), std::size_t(0));
        }
    }

    // A bad argument is the launch's error, not a local size's: the sweep fails with it.
    void badArgumentFailsTheSweep()
    {
        SweepRequest r;
        r.run = sweepKernel("squares", 64);
        r.run.args.pop_back();
        r.candidates = {{8}, {16}};
        QVERIFY_THROWS_EXCEPTION(RunInputError, sweepLocalSizes(r));
        r.repeat = 0;
        QVERIFY_THROWS_EXCEPTION(RunInputError, sweepLocalSizes(r));
    }

    // The document of clscope-cli sweep --json reads back as the sweep it was; what is not one is refused.
    void jsonRoundTrip()
    {
        SweepRequest r;
        r.run = sweepKernel("local_size_shows", 64);
        r.run.range.local = {4};
        r.candidates = {{8}, {3}, {}};
        r.repeat = 2;
        const SweepResult s = sweepLocalSizes(r);
        const SweepResult back = sweepResultFromJson(sweepResultToJson(s));
        QCOMPARE(back.kernel, s.kernel);
        QCOMPARE(back.device, s.device);
        QCOMPARE(back.global, s.global);
        QCOMPARE(back.repeat, 2);
        QCOMPARE(back.points.size(), s.points.size());
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            QCOMPARE(back.points[i].local, s.points[i].local);
            QCOMPARE(back.points[i].ran, s.points[i].ran);
            QCOMPARE(back.points[i].error, s.points[i].error);
            QCOMPARE(back.points[i].matches, s.points[i].matches);
            QCOMPARE(back.points[i].differing, s.points[i].differing);
            QCOMPARE(back.points[i].stats.medianNs, s.points[i].stats.medianNs);
            QCOMPARE(back.points[i].stats.count, s.points[i].stats.count);
        }
        QCOMPARE(back.reference, s.reference);
        QCOMPARE(back.best, s.best);
        QVERIFY_THROWS_EXCEPTION(RunInputError, sweepResultFromJson("not json"));
        QVERIFY_THROWS_EXCEPTION(RunInputError, sweepResultFromJson("{\"results\": 3}"));
        QVERIFY_THROWS_EXCEPTION(RunInputError, sweepResultFromJson("{\"results\": [{\"local\": [0]}]}"));
    }

    void cancelStopsBetweenCandidates()
    {
        SweepRequest r;
        r.run = sweepKernel("squares", 64);
        r.candidates = {{8}, {16}, {32}};
        r.repeat = 2;
        auto cancel = std::make_shared<std::atomic<bool>>(false);
        SweepOptions options;
        options.cancel = cancel;
        options.progress = [&](std::size_t done, std::size_t) {
            if (done == 2)
                cancel->store(true);
        };
        const SweepResult s = sweepLocalSizes(r, options);
        QVERIFY(s.cancelled);
        QCOMPARE(s.points.size(), std::size_t(2));
        QVERIFY(s.best);
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
