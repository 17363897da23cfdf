// The timeline benchmark. Synthetic: N commands over 2 devices x 4 queues (8 lanes, plus the host lane).
// A capture: loadCapture (what File → Open reads on a worker), timed as a whole and again call by call of
// the reader, then the records given to a timeline as the Timeline panel gives them. Either way a
// 1920x1080 QImage gets 20 paints at fit-all and at 10x, 100x and 1000x zoom at five positions each.
// Prints {"events": N, "paint_ms_median": ..., "paint_ms_max": ..., ...}; a capture adds open_ms
// (loadCapture), open_breakdown (wall_ms and cpu_ms per reader call), index_ms (TimelineWidget::setRecords),
// panel_ms (TimelineDock::setRecords) and records_copy_ms (a copy of the records, as the panel is given
// them). CLSCOPE_BENCHMARK_TIMELINE_PNG=PREFIX also saves PREFIX-fit.png and PREFIX-1000x.png to look at.
#include "benchmark_timeline.h"

#include "controllers/capturesession.h"
#include "files/safewrite.h"
#include "widgets/timelinedock.h"
#include "widgets/timelinewidget.h"

#include "clscope/bench.h"
#include "clscope/capture.h"
#include "clscope/profile.h"

#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QString>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

namespace {

using clscope::CommandRecord;
using clscope::PoolSeriesPoint;
using clscope::ui::TimelineWidget;

// CPU time of this thread: on a machine shared with builds the wall time of a paint includes the time
// other processes ran, so both are reported.
double threadCpuMs()
{
    return static_cast<double>(clscope::threadCpuNs()) / 1e6;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double msSince(const QElapsedTimer &timer)
{
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

// Wall and CPU time of one step, in ms.
struct Timed
{
    double wall = 0;
    double cpu = 0;
};

template<typename F> Timed timed(F &&step)
{
    QElapsedTimer t;
    const double cpu0 = threadCpuMs();
    t.start();
    step();
    return {msSince(t), threadCpuMs() - cpu0};
}

// The paints of a widget that has its records: the timings go into `out`. Returns false (with a line on
// stderr) when a picture asked for cannot be written.
bool benchmarkPaints(TimelineWidget &widget, QJsonObject &out)
{
    const QSize size = widget.size();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> cpu;
    auto paint = [&widget, &image, &cpu] {
        const Timed t = timed([&] {
            QPainter p(&image);
            widget.paintTimeline(p, image.size());
            p.end();
        });
        cpu.push_back(t.cpu);
        return t.wall;
    };
    paint(); // warm-up: glyph caches, first allocation of the image's pixels
    cpu.clear();

    const QByteArray pngPrefix = qgetenv("CLSCOPE_BENCHMARK_TIMELINE_PNG");
    const std::vector<double> factors = {1, 10, 100, 1000};
    const std::vector<double> positions = {0.05, 0.25, 0.5, 0.75, 0.95};
    std::vector<double> all;
    QJsonObject perZoom;
    QJsonObject perZoomCpu;
    for (double factor : factors) {
        std::vector<double> times;
        const std::size_t cpuFirst = cpu.size();
        for (double position : positions) {
            widget.fitAll();
            const auto &g = widget.geometry();
            const double span = g.rangeSpan() / factor;
            const double centre = g.rangeStart + position * g.rangeSpan();
            if (factor > 1)
                widget.setView(centre - span / 2, centre + span / 2);
            times.push_back(paint());
            if (!pngPrefix.isEmpty() && position == 0.5 && (factor == 1 || factor == 1000)) {
                const QString name =
                    QString::fromLocal8Bit(pngPrefix) +
                    (factor == 1 ? QStringLiteral("-fit.png") : QStringLiteral("-1000x.png"));
                if (const QString error = clscope::ui::writeImageSafely(name, image); !error.isEmpty()) {
                    std::fprintf(stderr, "clscope: cannot write %s: %s\n", qPrintable(name),
                                 qPrintable(error));
                    return false;
                }
            }
        }
        const QString key = factor == 1 ? QStringLiteral("fit_all") : QStringLiteral("zoom_%1x").arg(factor);
        perZoom.insert(key, median(times));
        perZoomCpu.insert(
            key, median(std::vector<double>(cpu.begin() + static_cast<std::ptrdiff_t>(cpuFirst), cpu.end())));
        all.insert(all.end(), times.begin(), times.end());
    }
    out.insert(QStringLiteral("lanes"), static_cast<int>(widget.lanes().lanes().size()));
    out.insert(QStringLiteral("image"), QStringLiteral("%1x%2").arg(size.width()).arg(size.height()));
    out.insert(QStringLiteral("paints"), static_cast<int>(all.size()));
    out.insert(QStringLiteral("paint_ms_median"), median(all));
    out.insert(QStringLiteral("paint_ms_max"), *std::max_element(all.begin(), all.end()));
    out.insert(QStringLiteral("paint_ms_median_by_zoom"), perZoom);
    out.insert(QStringLiteral("paint_cpu_ms_median"), median(cpu));
    out.insert(QStringLiteral("paint_cpu_ms_max"), *std::max_element(cpu.begin(), cpu.end()));
    out.insert(QStringLiteral("paint_cpu_ms_median_by_zoom"), perZoomCpu);
    return true;
}

void print(const QJsonObject &out)
{
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

const QSize kImageSize(1920, 1080);

int benchmarkSynthetic(int events)
{
    QElapsedTimer timer;
    timer.start();
    auto records = std::make_shared<const std::vector<CommandRecord>>(
        clscope::syntheticRecords(static_cast<std::size_t>(events), 2, 4, 1));
    auto pool = clscope::syntheticPoolSeries(*records, 4000);
    const double generateMs = msSince(timer);

    TimelineWidget widget;
    widget.resize(kImageSize);
    timer.restart();
    widget.setRecords(records, std::move(pool));
    const double indexMs = msSince(timer);

    QJsonObject out;
    out.insert(QStringLiteral("events"), events);
    if (!benchmarkPaints(widget, out))
        return 1;
    out.insert(QStringLiteral("generate_ms"), generateMs);
    out.insert(QStringLiteral("index_ms"), indexMs);
    print(out);
    return 0;
}

// Each reader call of a capture's load on its own, in the order the CaptureSession makes them
// (ui/controllers/capturesession.cpp), so that the total names where the time goes.
QJsonObject readerBreakdown(const std::string &path)
{
    QJsonObject wall;
    QJsonObject cpu;
    auto add = [&](const char *key, const Timed &t) {
        wall.insert(QLatin1String(key), t.wall);
        cpu.insert(QLatin1String(key), t.cpu);
    };
    std::unique_ptr<clscope::CaptureReader> reader;
    add("open", timed([&] { reader = std::make_unique<clscope::CaptureReader>(path); }));
    add("summary", timed([&] { (void)reader->summary(); }));
    add("progress", timed([&] { (void)reader->progress(); }));
    add("commands", timed([&] { (void)reader->commandRecords(); }));
    add("api_calls", timed([&] { (void)reader->apiCallRecords(); }));
    add("memory_by_context", timed([&] { (void)reader->memoryByContext(); }));
    add("buffers", timed([&] { (void)reader->buffers(); }));
    add("programs", timed([&] { (void)reader->programs(); }));
    add("api_totals", timed([&] { (void)reader->apiTotals(); }));
    add("launches_with_contents", timed([&] { (void)reader->launchesWithContents(); }));
    add("launch_count", timed([&] { (void)reader->launchCount(); }));
    QJsonObject out;
    out.insert(QStringLiteral("wall_ms"), wall);
    out.insert(QStringLiteral("cpu_ms"), cpu);
    return out;
}

int benchmarkCapture(const QString &path)
{
    clscope::ui::CaptureData snapshot;
    const Timed open = timed([&] { snapshot = clscope::ui::loadCapture(path); });
    if (!snapshot.error.isEmpty()) {
        std::fprintf(stderr, "clscope: cannot read %s: %s\n", qPrintable(path), qPrintable(snapshot.error));
        return 1;
    }
    const QJsonObject breakdown = readerBreakdown(path.toStdString());

    // The Timeline panel's part: the widget's index (lanes, legend, range) alone, then the whole panel
    // (the widget again, the events table, the statistics), each from its own copy of the records.
    std::vector<PoolSeriesPoint> memory = snapshot.memory;
    const clscope::ui::RecordsPtr records = snapshot.records;
    std::size_t commands = 0;
    for (const CommandRecord &r : *records)
        commands += !r.hostSpan;
    TimelineWidget widget;
    widget.resize(kImageSize);
    const Timed index = timed([&] { widget.setRecords(records, memory); });
    // The panel shares the records, as the CaptureSession gives them.
    clscope::ui::TimelineDock dock;
    const Timed panel = timed([&] { dock.setRecords(records, std::move(memory)); });

    QJsonObject out;
    out.insert(QStringLiteral("capture"), path);
    out.insert(QStringLiteral("events"), static_cast<qint64>(snapshot.records->size()));
    out.insert(QStringLiteral("commands"), static_cast<qint64>(commands));
    out.insert(QStringLiteral("api_spans"), static_cast<qint64>(snapshot.records->size() - commands));
    out.insert(QStringLiteral("open_ms"), open.wall);
    out.insert(QStringLiteral("open_cpu_ms"), open.cpu);
    out.insert(QStringLiteral("open_breakdown"), breakdown);
    out.insert(QStringLiteral("index_ms"), index.wall);
    out.insert(QStringLiteral("index_cpu_ms"), index.cpu);
    out.insert(QStringLiteral("panel_ms"), panel.wall);
    out.insert(QStringLiteral("panel_cpu_ms"), panel.cpu);
    if (!benchmarkPaints(widget, out))
        return 1;
    print(out);
    return 0;
}

} // namespace

int runTimelineBenchmark(const QString &what)
{
    bool number = false;
    const int events = what.toInt(&number);
    if (number && events > 0)
        return benchmarkSynthetic(events);
    if (number || what.isEmpty()) {
        std::fprintf(stderr, "clscope: --benchmark-timeline needs a positive number of events or a capture "
                             "file\n");
        return 2;
    }
    return benchmarkCapture(what);
}
