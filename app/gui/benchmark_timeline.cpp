// The timeline paint benchmark: N synthetic commands over 2 devices x 4 queues (8 lanes, plus the host
// lane), a 1920x1080 QImage, 20 paints at fit-all and at 10x, 100x and 1000x zoom at five positions each.
// Prints {"events": N, "paint_ms_median": ..., "paint_ms_max": ..., ...}.
// CLSCOPE_BENCHMARK_TIMELINE_PNG=PREFIX also saves PREFIX-fit.png and PREFIX-1000x.png to look at.
#include "benchmark_timeline.h"

#include "models/safewrite.h"
#include "widgets/timelinewidget.h"

#include "clscope/profile.h"

#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

// CPU time of this thread: on a machine shared with builds the wall time of a paint includes the time
// other processes ran, so both are reported.
double threadCpuMs()
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
#else
    return 0;
#endif
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

int runTimelineBenchmark(int events)
{
    using clscope::ui::TimelineWidget;
    if (events <= 0) {
        std::fprintf(stderr, "clscope: --benchmark-timeline needs a positive number of events\n");
        return 2;
    }
    QElapsedTimer timer;
    timer.start();
    auto records = std::make_shared<const std::vector<clscope::CommandRecord>>(
        clscope::syntheticRecords(static_cast<std::size_t>(events), 2, 4, 1));
    auto pool = clscope::syntheticPoolSeries(*records, 4000);
    const double generateMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;

    const QSize size(1920, 1080);
    TimelineWidget widget;
    widget.resize(size);
    timer.restart();
    widget.setRecords(records, std::move(pool));
    const double indexMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;

    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> cpu;
    auto paint = [&widget, &image, &cpu] {
        QElapsedTimer t;
        const double cpu0 = threadCpuMs();
        t.start();
        QPainter p(&image);
        widget.paintTimeline(p, image.size());
        p.end();
        const double wall = static_cast<double>(t.nsecsElapsed()) / 1e6;
        cpu.push_back(threadCpuMs() - cpu0);
        return wall;
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
                    return 1;
                }
            }
        }
        const QString key = factor == 1 ? QStringLiteral("fit_all") : QStringLiteral("zoom_%1x").arg(factor);
        perZoom.insert(key, median(times));
        perZoomCpu.insert(
            key, median(std::vector<double>(cpu.begin() + static_cast<std::ptrdiff_t>(cpuFirst), cpu.end())));
        all.insert(all.end(), times.begin(), times.end());
    }

    QJsonObject out;
    out.insert(QStringLiteral("events"), events);
    out.insert(QStringLiteral("lanes"), static_cast<int>(widget.lanes().lanes().size()));
    out.insert(QStringLiteral("image"), QStringLiteral("1920x1080"));
    out.insert(QStringLiteral("paints"), static_cast<int>(all.size()));
    out.insert(QStringLiteral("paint_ms_median"), median(all));
    out.insert(QStringLiteral("paint_ms_max"), *std::max_element(all.begin(), all.end()));
    out.insert(QStringLiteral("paint_ms_median_by_zoom"), perZoom);
    out.insert(QStringLiteral("paint_cpu_ms_median"), median(cpu));
    out.insert(QStringLiteral("paint_cpu_ms_max"), *std::max_element(cpu.begin(), cpu.end()));
    out.insert(QStringLiteral("paint_cpu_ms_median_by_zoom"), perZoomCpu);
    out.insert(QStringLiteral("generate_ms"), generateMs);
    out.insert(QStringLiteral("index_ms"), indexMs);
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
    return 0;
}
