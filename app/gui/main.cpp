// clscope: the GUI. Every panel can be brought up from the command line so pictures and tests are
// reproducible: clscope [FILE.cl...] [--open FILE.cl] [--build] [--show DOCK] [--screenshot OUT.png]; a
// pool workload and a series of screenshots show the live charts moving.
#include "benchmark_timeline.h"
#include "clscope/loaderenv.h"
#include "models/benchmarkrunner.h"
#include "models/poolworkload.h"
#include "widgets/argumentspanel.h"
#include "widgets/benchmarkdock.h"
#include "widgets/capturedock.h"
#include "widgets/editortabs.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/timelinedock.h"
#include "widgets/timelinewidget.h"
#include "windows/buildcoordinator.h"
#include "windows/capturecoordinator.h"
#include "windows/checkcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace {

// Set by the first failure: a scripted session still takes its picture, then exits 1.
bool g_failed = false;

void fail(const QString &message)
{
    g_failed = true;
    std::fprintf(stderr, "clscope: %s\n", qPrintable(message));
}

// Window sides a scripted session may ask for: a huge window is a huge pixmap (100000x100000 is 40 GB),
// a tiny one lays out nothing.
constexpr int kMinSide = 320;
constexpr int kMaxSide = 8192;

// "1280x800" -> the size, clamped per side with a line on stderr; nullopt when it is not WxH.
std::optional<QSize> parseWindowSize(const QString &text)
{
    const QStringList wh = text.split(u'x');
    bool wOk = false, hOk = false;
    const long long w = wh.size() == 2 ? wh[0].toLongLong(&wOk) : 0;
    const long long h = wh.size() == 2 ? wh[1].toLongLong(&hOk) : 0;
    if (!wOk || !hOk || w <= 0 || h <= 0)
        return std::nullopt;
    const QSize size(int(std::clamp<long long>(w, kMinSide, kMaxSide)),
                     int(std::clamp<long long>(h, kMinSide, kMaxSide)));
    if (size.width() != w || size.height() != h)
        std::fprintf(stderr, "clscope: --size %s clamped to %dx%d (each side %d..%d)\n", qPrintable(text),
                     size.width(), size.height(), kMinSide, kMaxSide);
    return size;
}

// --help, --version and --benchmark-timeline need no screen: without a display they use the offscreen
// platform instead of failing to start.
void allowHeadlessOptions(int argc, char **argv)
{
    if (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || std::getenv("QT_QPA_PLATFORM"))
        return;
    for (int i = 1; i < argc; ++i) {
        for (const char *option : {"-h", "--help", "--help-all", "-v", "--version", "--benchmark-timeline"}) {
            if (std::strncmp(argv[i], option, std::strlen(option)) == 0) {
                qputenv("QT_QPA_PLATFORM", "offscreen");
                return;
            }
        }
    }
}

std::optional<clscope::ui::WorkloadKind> parseWorkload(const QString &name)
{
    using clscope::ui::WorkloadKind;
    if (name == QLatin1String("churn"))
        return WorkloadKind::Churn;
    if (name == QLatin1String("growing"))
        return WorkloadKind::GrowingSet;
    if (name == QLatin1String("fragmentation"))
        return WorkloadKind::FragmentationStorm;
    if (name == QLatin1String("replay"))
        return WorkloadKind::Replay;
    return std::nullopt;
}

// OUT.png -> OUT-03.png: the index-th picture of a series.
QString seriesPath(const QString &path, int index)
{
    const qsizetype dot = path.lastIndexOf(u'.');
    const QString stem = dot > 0 ? path.left(dot) : path;
    const QString ext = dot > 0 ? path.mid(dot) : QStringLiteral(".png");
    return QStringLiteral("%1-%2%3").arg(stem).arg(index, 2, 10, QLatin1Char('0')).arg(ext);
}

} // namespace

int main(int argc, char **argv)
{
    allowHeadlessOptions(argc, argv);
    clscope::registerInstalledPlatforms(); // Oclgrind as a device; before any thread or OpenCL call
    // Oclgrind reads OCLGRIND_LOG when a context is made: its reports of a normal run (not only of the
    // memory check's child) go to a file of this process that the run panel reads after each run.
    if (qEnvironmentVariableIsEmpty("OCLGRIND_LOG")) {
        qputenv("OCLGRIND_LOG",
                (QDir::tempPath() +
                 QStringLiteral("/clscope-oclgrind-%1.log").arg(QCoreApplication::applicationPid()))
                    .toLocal8Bit());
        clscope::noteOwnVariable("OCLGRIND_LOG");
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("CLScope"));
    QApplication::setOrganizationName(QStringLiteral("CLScope"));
    QApplication::setApplicationVersion(QStringLiteral(CLSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.clscope.CLScope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("CLScope, a desktop workbench for OpenCL"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Kernel sources to open."),
                                 QStringLiteral("[FILE.cl...]"));
    const QCommandLineOption openOption(QStringLiteral("open"), QStringLiteral("Open a kernel source."),
                                        QStringLiteral("FILE.cl"));
    const QCommandLineOption buildOption(
        QStringLiteral("build"), QStringLiteral("Build the current kernel once the devices are known."));
    const QCommandLineOption optionsOption(
        QStringLiteral("options"), QStringLiteral("Build options for --build."), QStringLiteral("OPTIONS"));
    const QCommandLineOption runOption(
        QStringLiteral("run"), QStringLiteral("After --build, run this kernel."), QStringLiteral("KERNEL"));
    const QCommandLineOption argOption(
        QStringLiteral("arg"),
        QStringLiteral("An argument for --run, as clscope-cli takes it (n=uint:1024, "
                       "a=buffer:float:1024:iota, s=local:256)."),
        QStringLiteral("SPEC"));
    const QCommandLineOption globalOption(QStringLiteral("global"), QStringLiteral("Global size for --run."),
                                          QStringLiteral("X[,Y[,Z]]"));
    const QCommandLineOption localOption(QStringLiteral("local"), QStringLiteral("Local size for --run."),
                                         QStringLiteral("X[,Y[,Z]]"));
    const QCommandLineOption repeatOption(QStringLiteral("repeat"), QStringLiteral("Launches of --run."),
                                          QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption timelineViewOption(
        QStringLiteral("timeline-view"),
        QStringLiteral("After --run, zoom the timeline to this span, in microseconds from its start."),
        QStringLiteral("FROM,TO"));
    const QCommandLineOption benchOption(
        QStringLiteral("bench"),
        QStringLiteral(
            "Run a benchmark kind on the current device in the Benchmarks panel (all, bandwidth, compute, "
            "launch, transfer, local, traits, pool), quick effort."),
        QStringLiteral("KIND"));
    const QCommandLineOption baselineOption(
        QStringLiteral("baseline"), QStringLiteral("Compare benchmarks with this saved result (JSON)."),
        QStringLiteral("FILE"));
    const QCommandLineOption memoryCheckOption(
        QStringLiteral("memory-check"),
        QStringLiteral("With --run: run with memory check (on Oclgrind) instead, as Ctrl+F5 does."));
    const QCommandLineOption printOption(
        QStringLiteral("print"), QStringLiteral("Read back and show this buffer."), QStringLiteral("NAME"));
    const QCommandLineOption showOption(QStringLiteral("show"),
                                        QStringLiteral("Raise a panel (devices, build log, diagnostics…)."),
                                        QStringLiteral("DOCK"));
    const QCommandLineOption captureTabOption(
        QStringLiteral("capture-tab"),
        QStringLiteral(
            "With a FILE.clscope: show this tab of the Capture panel (kernels, device memory, programs, "
            "API calls, console, replay)."),
        QStringLiteral("TAB"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save the window as PNG once the work is done, then exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption seriesOption(
        QStringLiteral("screenshots"),
        QStringLiteral(
            "With --screenshot: save N pictures (OUT-01.png, OUT-02.png, …) --screenshot-every apart."),
        QStringLiteral("N"));
    const QCommandLineOption everyOption(
        QStringLiteral("screenshot-every"),
        QStringLiteral("Milliseconds between the pictures of --screenshots."), QStringLiteral("MS"),
        QStringLiteral("1000"));
    const QCommandLineOption workloadOption(
        QStringLiteral("workload"),
        QStringLiteral("Start a memory pool workload on the current device: churn, growing, fragmentation or "
                       "replay (with --trace)."),
        QStringLiteral("KIND"));
    const QCommandLineOption rateOption(
        QStringLiteral("rate"),
        QStringLiteral("Operations per second of --workload (0: as fast as possible)."),
        QStringLiteral("OPS"), QStringLiteral("10000"));
    const QCommandLineOption traceOption(QStringLiteral("trace"),
                                         QStringLiteral("The pool trace --workload replay plays."),
                                         QStringLiteral("FILE"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x800."),
                                        QStringLiteral("WxH"));
    const QCommandLineOption benchTimelineOption(
        QStringLiteral("benchmark-timeline"),
        QStringLiteral(
            "Paint N synthetic events, or a capture file opened as File → Open does, offscreen and "
            "print timings as JSON."),
        QStringLiteral("N|FILE.clscope"));
    parser.addOption(benchTimelineOption);
    parser.addOption(openOption);
    parser.addOption(buildOption);
    parser.addOption(optionsOption);
    parser.addOption(runOption);
    parser.addOption(argOption);
    parser.addOption(globalOption);
    parser.addOption(localOption);
    parser.addOption(printOption);
    parser.addOption(showOption);
    parser.addOption(captureTabOption);
    parser.addOption(screenshotOption);
    parser.addOption(repeatOption);
    parser.addOption(memoryCheckOption);
    parser.addOption(benchOption);
    parser.addOption(baselineOption);
    parser.addOption(timelineViewOption);
    parser.addOption(seriesOption);
    parser.addOption(everyOption);
    parser.addOption(workloadOption);
    parser.addOption(rateOption);
    parser.addOption(traceOption);
    parser.addOption(sizeOption);
    parser.process(app);

    std::optional<clscope::ui::WorkloadKind> workload;
    if (parser.isSet(workloadOption)) {
        workload = parseWorkload(parser.value(workloadOption));
        if (!workload) {
            fail(QStringLiteral("unknown workload '%1' (churn, growing, fragmentation, replay)")
                     .arg(parser.value(workloadOption)));
            return 2;
        }
    }
    bool numbersOk = true;
    const int shots = parser.isSet(seriesOption) ? parser.value(seriesOption).toInt(&numbersOk) : 1;
    bool everyOk = true;
    const int everyMs = parser.value(everyOption).toInt(&everyOk);
    bool rateOk = true;
    const double rate = parser.value(rateOption).toDouble(&rateOk);
    bool repeatOk = true;
    const int repeat = parser.value(repeatOption).toInt(&repeatOk);
    std::optional<std::pair<double, double>> timelineView;
    if (parser.isSet(timelineViewOption)) {
        const QStringList span = parser.value(timelineViewOption).split(u',');
        bool fromOk = false, toOk = false;
        if (span.size() == 2)
            timelineView = std::pair(span[0].toDouble(&fromOk), span[1].toDouble(&toOk));
        if (!fromOk || !toOk || timelineView->second <= timelineView->first) {
            fail(QStringLiteral("--timeline-view takes FROM,TO in microseconds, FROM < TO"));
            return 2;
        }
    }
    if (!numbersOk || shots < 1 || !everyOk || everyMs < 1 || !rateOk || rate < 0 || !repeatOk ||
        repeat < 1) {
        fail(QStringLiteral(
            "--screenshots, --screenshot-every and --repeat take positive whole numbers, --rate a "
            "number >= 0"));
        return 2;
    }

    if (parser.isSet(benchTimelineOption))
        return runTimelineBenchmark(parser.value(benchTimelineOption));

    std::optional<QSize> windowSize;
    if (parser.isSet(sizeOption)) {
        windowSize = parseWindowSize(parser.value(sizeOption));
        if (!windowSize) {
            fail(QStringLiteral("--size takes WIDTHxHEIGHT in pixels, e.g. 1280x800"));
            return 2;
        }
    }

    clscope::ui::MainWindow window;
    if (windowSize)
        window.resize(*windowSize);
    const QStringList files = parser.values(openOption) + parser.positionalArguments();
    const bool scripted = parser.isSet(screenshotOption);
    if (scripted) {
        // Nobody is there to close a message box: errors go to stderr and the exit status.
        window.setModalErrors(false);
        QObject::connect(window.editors(), &clscope::ui::EditorTabs::errorOccurred, &app, &fail);
    }
    if (!window.openFiles(files) && scripted)
        return 1;
    window.show();
    if (!scripted && files.isEmpty())
        window.restoreSession();
    if (!scripted)
        window.offerRecovery();
    // Panels are raised after show so that tabified docks come to the front.
    for (const QString &dock : parser.values(showOption)) {
        if (!window.showDock(dock)) {
            fail(QStringLiteral("no panel named '%1' (panels: %2)")
                     .arg(dock, window.dockNames().join(QStringLiteral(", "))));
            return 2;
        }
    }

    // The work the command line asked for, then (with --screenshot) the picture and exit.
    std::function<void()> finish = [&] {
        if (!scripted)
            return;
        const QStringList docks = parser.values(showOption);
        for (const QString &dock : docks)
            window.showDock(dock);
        // One picture after pending layout requests (status bar, tree columns) have had a moment, or a
        // series --screenshot-every apart; the app exits after the last one or at the first error.
        const QString path = parser.value(screenshotOption);
        auto *timer = new QTimer(&window);
        auto taken = std::make_shared<int>(0);
        QObject::connect(timer, &QTimer::timeout, &window, [&window, timer, taken, path, shots] {
            ++*taken;
            const QString error = window.saveScreenshot(shots == 1 ? path : seriesPath(path, *taken));
            if (!error.isEmpty() || *taken == shots) {
                timer->stop();
                if (!error.isEmpty())
                    fail(error);
                QApplication::exit(g_failed ? 1 : 0);
            }
        });
        timer->start(shots == 1 ? 300 : everyMs);
    };
    auto *bench = window.findChild<clscope::ui::BenchmarkDock *>();
    if (parser.isSet(baselineOption)) {
        const QString error = bench->loadBaseline(parser.value(baselineOption));
        if (!error.isEmpty()) {
            fail(error);
            return 1;
        }
    }
    if (parser.isSet(benchOption)) {
        // The benchmark instead of a build: the picture is taken once it has finished.
        QObject::connect(bench->runner(), &clscope::ui::BenchmarkRunner::finished, &app, [&] { finish(); });
        QObject::connect(bench->runner(), &clscope::ui::BenchmarkRunner::failed, &app,
                         [&](const QString &message) {
                             fail(message);
                             finish();
                         });
        QObject::connect(&window, &clscope::ui::MainWindow::ready, bench, [&, bench] {
            if (!bench->start(parser.value(benchOption), clscope::BenchEffort::Quick)) {
                fail(QStringLiteral("cannot start benchmark '%1'").arg(parser.value(benchOption)));
                finish();
            }
        });
    }
    if (workload) {
        // The pool dock makes its pool when the current device is known; the workload starts on it then.
        auto *pool = window.findChild<clscope::ui::PoolDock *>();
        QObject::connect(&window, &clscope::ui::MainWindow::ready, pool,
                         [pool, &parser, &traceOption, workload, rate] {
                             pool->setWorkload(*workload, rate, parser.value(traceOption));
                             pool->runWorkload();
                         });
    }
    const bool captureOpened = std::any_of(files.begin(), files.end(), [](const QString &f) {
        return f.endsWith(QStringLiteral(".clscope"), Qt::CaseInsensitive);
    });
    QObject::connect(&window, &clscope::ui::MainWindow::ready, &app, [&] {
        if (parser.isSet(benchOption))
            return; // finishes when the benchmark has
        if (captureOpened) {
            // The picture once the capture has been read into the panels.
            auto show = [&] {
                if (parser.isSet(captureTabOption) &&
                    !window.captureDock()->showTab(parser.value(captureTabOption)))
                    fail(QStringLiteral("the Capture panel has no tab '%1'")
                             .arg(parser.value(captureTabOption)));
                finish();
            };
            if (window.captures()->snapshotCount() > 0)
                show();
            else
                QObject::connect(window.captures(), &clscope::ui::CaptureCoordinator::snapshotShown, &app,
                                 show, Qt::SingleShotConnection);
            return;
        }
        if (!parser.isSet(buildOption)) {
            finish();
            return;
        }
        auto *builds = window.builds();
        if (parser.isSet(optionsOption))
            builds->optionsBox()->setEditText(parser.value(optionsOption));
        QObject::connect(
            builds, &clscope::ui::BuildCoordinator::buildFinished, &app,
            [&](const clscope::BuildResult &result) {
                if (!result.success()) {
                    QString first = QStringLiteral("see the build log");
                    for (const clscope::Diagnostic &d : result.diagnostics()) {
                        if (d.severity == clscope::Severity::Error) {
                            first = QStringLiteral("line %1: %2")
                                        .arg(d.line)
                                        .arg(QString::fromStdString(d.message));
                            break;
                        }
                    }
                    fail(QStringLiteral("the build failed (%1)").arg(first));
                }
                if (!parser.isSet(runOption) || !result.success()) {
                    finish();
                    return;
                }
                // The run the command line describes, through the arguments panel as a user would fill it.
                auto *panel = window.arguments();
                QString error;
                bool ok = panel->setCurrentKernel(parser.value(runOption));
                if (!ok)
                    error = QStringLiteral("no kernel '%1' in the build").arg(parser.value(runOption));
                const QStringList specs = parser.values(argOption);
                for (qsizetype i = 0; ok && i < specs.size(); ++i)
                    ok = panel->applySpec(specs[i], &error);
                if (ok) {
                    panel->setRange(parser.value(globalOption), parser.value(localOption));
                    for (const QString &name : parser.values(printOption))
                        panel->setReadBack(name, true);
                    panel->setRepeat(repeat);
                    QObject::connect(window.runs(), &clscope::ui::RunCoordinator::runFinished, &app, [&] {
                        const QStringList prints = parser.values(printOption);
                        if (!prints.isEmpty())
                            window.results()->selectBuffer(prints.front());
                        if (timelineView) {
                            clscope::ui::TimelineWidget *timeline =
                                window.findChild<clscope::ui::TimelineDock *>()->timeline();
                            timeline->setView(timelineView->first * 1e3, timelineView->second * 1e3);
                        }
                        finish();
                    });
                    QObject::connect(window.runs(), &clscope::ui::RunCoordinator::runFailed, &app,
                                     [&](const QString &message) {
                                         fail(message);
                                         finish();
                                     });
                    QObject::connect(window.checks(), &clscope::ui::CheckCoordinator::checkFinished, &app,
                                     [&] { finish(); });
                    QObject::connect(window.checks(), &clscope::ui::CheckCoordinator::checkFailed, &app,
                                     [&](const QString &message) {
                                         fail(message);
                                         finish();
                                     });
                    ok = parser.isSet(memoryCheckOption) ? window.checks()->checkCurrent()
                                                         : window.runs()->runCurrent();
                } else {
                    fail(error);
                    finish();
                }
            });
        QObject::connect(builds, &clscope::ui::BuildCoordinator::buildFailed, &app,
                         [&](const QString &message) {
                             fail(message);
                             finish();
                         });
        if (!builds->buildCurrent()) {
            fail(QStringLiteral("cannot build: no kernel is open or no device was found"));
            finish();
        }
    });
    if (scripted) {
        // A driver that hangs must not hang a scripted screenshot forever.
        QTimer::singleShot(180000 + shots * everyMs, &app, [] {
            fail(QStringLiteral("timed out waiting for the work to finish"));
            QApplication::exit(1);
        });
    }
    return QApplication::exec();
}
