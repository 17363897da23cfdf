// `clscope --benchmark-follow "PROGRAM ARGS"`: what following a capture costs while its program runs. The
// program is profiled as Profile application does it (ProgramProfiler, the recorder on its thread) while a
// CaptureSession follows the file into a Capture panel and a Timeline panel, refreshing every 700 ms. Each
// refresh's CPU is measured where it is spent: the read on the worker (CaptureReader::update() and the small
// tables) and the views on the GUI thread. Then the finished capture is loaded whole, as a re-read per
// refresh would have cost. Prints one JSON object.
#include "benchmark_follow.h"

#include "clscope/bench.h"
#include "controllers/capturesession.h"
#include "controllers/programprofiler.h"
#include "widgets/capturedock.h"
#include "widgets/timelinedock.h"
#include "workers/deviceworkers.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace {

// CPU time of the whole process (the recorder's thread, the reads, the views).
double processCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

} // namespace

int runFollowBenchmark(const QString &commandLine)
{
    using namespace clscope::ui;
    const QStringList command = QProcess::splitCommand(commandLine);
    if (command.isEmpty()) {
        std::fprintf(stderr, "clscope: --benchmark-follow needs a program to run\n");
        return 2;
    }
    QTemporaryDir dir;
    auto workers = std::make_shared<DeviceWorkers>();
    CaptureSession session(workers);
    ProgramProfiler profiler(&session);
    CaptureDock panel;
    TimelineDock timeline;
    panel.resize(1280, 500);
    timeline.resize(1280, 300);
    session.addViewer(&panel);
    session.addViewer(&timeline);

    ProfileSettings s;
    s.program = command.front();
    s.arguments = command.mid(1);
    s.output = dir.filePath(QStringLiteral("follow.clscope"));
    QJsonArray refreshes;
    std::vector<double> reads, views;
    QObject::connect(&session, &CaptureSession::refreshed, [&] {
        const CaptureSession::RefreshCost &c = session.lastRefresh();
        if (session.state() != CaptureSession::State::Live)
            return;
        QJsonObject r;
        r.insert(QStringLiteral("records"), qint64(session.data().records->size()));
        r.insert(QStringLiteral("new"), qint64(c.newRecords));
        r.insert(QStringLiteral("read_cpu_ms"), c.readCpuMs);
        r.insert(QStringLiteral("views_cpu_ms"), c.viewsCpuMs);
        refreshes.append(r);
        reads.push_back(c.readCpuMs);
        views.push_back(c.viewsCpuMs);
    });
    QEventLoop loop;
    int exitStatus = -1;
    QString error;
    QObject::connect(&profiler, &ProgramProfiler::failedToStart, [&](const QString &why) {
        error = why;
        loop.quit();
    });
    QObject::connect(&profiler, &ProgramProfiler::finished, [&](const QString &, int exit, const QString &e) {
        exitStatus = exit;
        error = e;
    });
    // The last refresh (the file where the recorder renamed it) ends the run.
    QObject::connect(&session, &CaptureSession::refreshed, [&] {
        if (session.state() == CaptureSession::State::Finished && !session.isReading())
            loop.quit();
    });
    QObject::connect(&session, &CaptureSession::loaded, [&] {
        if (session.state() == CaptureSession::State::Finished && !session.isReading())
            loop.quit();
    });
    QElapsedTimer wall;
    wall.start();
    const double processCpu = processCpuMs();
    if (const QString why = profiler.profile(s); !why.isEmpty()) {
        std::fprintf(stderr, "clscope: cannot profile: %s\n", qPrintable(why));
        return 1;
    }
    loop.exec();
    if (!error.isEmpty() && exitStatus < 0) {
        std::fprintf(stderr, "clscope: %s\n", qPrintable(error));
        return 1;
    }
    const double followedWallMs = double(wall.elapsed());
    const double followedCpuMs = processCpuMs() - processCpu;
    const std::size_t followedRecords = session.data().records->size();

    // What one refresh cost when each re-read the whole file: a load of the finished capture.
    const std::int64_t loadStart = clscope::threadCpuNs();
    const CaptureData whole = loadCapture(s.output);
    const double loadCpu = double(clscope::threadCpuNs() - loadStart) / 1e6;

    QJsonObject out;
    out.insert(QStringLiteral("program"), commandLine);
    out.insert(QStringLiteral("exit_status"), exitStatus);
    out.insert(QStringLiteral("records_followed"), qint64(followedRecords));
    out.insert(QStringLiteral("records_in_file"), qint64(whole.records->size()));
    out.insert(QStringLiteral("refreshes"), qint64(reads.size()));
    out.insert(QStringLiteral("read_cpu_ms_median"), percentile(reads, 0.5));
    out.insert(QStringLiteral("read_cpu_ms_max"), percentile(reads, 1.0));
    out.insert(QStringLiteral("views_cpu_ms_median"), percentile(views, 0.5));
    out.insert(QStringLiteral("views_cpu_ms_max"), percentile(views, 1.0));
    out.insert(QStringLiteral("whole_load_cpu_ms"), loadCpu);
    out.insert(QStringLiteral("followed_wall_ms"), followedWallMs);
    out.insert(QStringLiteral("this_process_cpu_ms"), followedCpuMs);
    out.insert(QStringLiteral("per_refresh"), refreshes);
    std::fputs(QJsonDocument(out).toJson(QJsonDocument::Indented).constData(), stdout);
    return 0;
}
