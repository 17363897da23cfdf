// clscope: the GUI. Every panel can be brought up from the command line so pictures and tests are
// reproducible: clscope [FILE.cl...] [--open FILE.cl] [--build] [--show DOCK] [--screenshot OUT.png]; a
// pool workload and a series of screenshots show the live charts moving. This file reads the options;
// ScriptedSession (scriptedsession.h) does what they ask of the window.
#include "benchmark_follow.h"
#include "benchmark_timeline.h"
#include "clscope/compilerthread.h"
#include "clscope/loaderenv.h"
#include "controllers/poolworkload.h"
#include "scriptedsession.h"
#include "windows/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>

#include <algorithm>
#include <filesystem>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include <unistd.h>

namespace {

// A bad option value: one line on stderr (main then exits 2).
void usageError(const QString &message)
{
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
        for (const char *option : {"-h", "--help", "--help-all", "-v", "--version", "--benchmark-timeline",
                                   "--benchmark-follow"}) {
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

// Oclgrind's log of this process (OCLGRIND_LOG): in a private folder made by mkdtemp (0700, a name no one
// can guess and plant a link at, unlike /tmp/clscope-oclgrind-PID.log), removed with the log when the
// process ends, by main's return or by exit() (--help and --version exit from within the parser).
class OclgrindLog
{
public:
    static void setUp()
    {
        static OclgrindLog log; // destroyed at exit, after the window and its OpenCL contexts
    }

    OclgrindLog(const OclgrindLog &) = delete;
    OclgrindLog &operator=(const OclgrindLog &) = delete;
    ~OclgrindLog()
    {
        std::error_code ec;
        if (!m_folder.empty())
            std::filesystem::remove_all(m_folder, ec);
    }

private:
    OclgrindLog()
    {
        QByteArray pattern = QFile::encodeName(QDir::tempPath() + QStringLiteral("/clscope-XXXXXX"));
        if (!::mkdtemp(pattern.data())) {
            std::fprintf(stderr, "clscope: warning: no folder for Oclgrind's log under %s: %s\n",
                         qPrintable(QDir::tempPath()), std::strerror(errno));
            return;
        }
        m_folder = std::string(pattern.constData());
        qputenv("OCLGRIND_LOG", QByteArray::fromStdString((m_folder / "oclgrind.log").string()));
        clscope::noteOwnVariable("OCLGRIND_LOG");
    }

    std::filesystem::path m_folder;
};

} // namespace

int main(int argc, char **argv)
{
    allowHeadlessOptions(argc, argv);
    clscope::registerInstalledPlatforms(); // Oclgrind as a device; before any thread or OpenCL call
    // Builds run on a compiler thread with a 1 GiB stack; a compiler that crashes all the same ends the
    // window with a line naming the program rather than a bare SIGSEGV (the GUI cannot survive it).
    clscope::reportCompilerCrashes("clscope");
    // Oclgrind reads OCLGRIND_LOG when a context is made: its reports of a normal run (not only of the
    // memory check's child) go to a file of this process that the run panel reads after each run.
    if (qEnvironmentVariableIsEmpty("OCLGRIND_LOG"))
        OclgrindLog::setUp();
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
    const QCommandLineOption sweepOption(
        QStringLiteral("sweep"),
        QStringLiteral(
            "After --build (with --run, or the source's clscope-run launch): Run → Sweep local size "
            "over these local sizes (auto, or a list such as \"8,8;16,16;driver\"); "
            "--screenshot then saves the sweep's window."),
        QStringLiteral("LIST"));
    const QCommandLineOption sweepResultsOption(
        QStringLiteral("sweep-results"),
        QStringLiteral(
            "Show the sweep window with a sweep saved by clscope-cli sweep --json; --screenshot then "
            "saves that window."),
        QStringLiteral("FILE"));
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
    const QCommandLineOption editStructOption(
        QStringLiteral("edit-struct"),
        QStringLiteral("After --build (or --run): open the struct field editor of this argument (a struct by "
                       "value, or the fill of a buffer of structs)."),
        QStringLiteral("ARG"));
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
    const QCommandLineOption showCodeOption(
        QStringLiteral("show-code"),
        QStringLiteral(
            "After --build (and --run): show the generated code of the build (Build → Show generated "
            "code)."));
    const QCommandLineOption matrixOption(
        QStringLiteral("matrix"),
        QStringLiteral(
            "Build the open kernel with each option set ('|' between them) on every device (Build → "
            "Build matrix)."),
        QStringLiteral("SETS"));
    const QCommandLineOption timeItOption(
        QStringLiteral("time-it"),
        QStringLiteral("With --matrix after --build --run: time the launch with every cell's build."));
    const QCommandLineOption codeDiffOption(
        QStringLiteral("code-diff"),
        QStringLiteral("With --matrix: compare the generated code of the first two option sets on the first "
                       "device."));
    const QCommandLineOption runAllOption(
        QStringLiteral("run-all"),
        QStringLiteral(
            "After --build (and --run): run the launch on every device and compare (Build → Run on "
            "all devices)."));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x800."),
                                        QStringLiteral("WxH"));
    const QCommandLineOption benchTimelineOption(
        QStringLiteral("benchmark-timeline"),
        QStringLiteral(
            "Paint N synthetic events, or a capture file opened as File → Open does, offscreen and "
            "print timings as JSON."),
        QStringLiteral("N|FILE.clscope"));
    parser.addOption(benchTimelineOption);
    const QCommandLineOption benchFollowOption(
        QStringLiteral("benchmark-follow"),
        QStringLiteral("Profile a program as Profile application does and print the CPU of each live refresh "
                       "of its capture as JSON."),
        QStringLiteral("\"PROGRAM ARGS\""));
    parser.addOption(benchFollowOption);
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
    parser.addOption(editStructOption);
    parser.addOption(repeatOption);
    parser.addOption(memoryCheckOption);
    parser.addOption(sweepOption);
    parser.addOption(sweepResultsOption);
    parser.addOption(benchOption);
    parser.addOption(baselineOption);
    parser.addOption(timelineViewOption);
    parser.addOption(seriesOption);
    parser.addOption(everyOption);
    parser.addOption(workloadOption);
    parser.addOption(rateOption);
    parser.addOption(traceOption);
    parser.addOption(sizeOption);
    parser.addOption(showCodeOption);
    parser.addOption(matrixOption);
    parser.addOption(timeItOption);
    parser.addOption(codeDiffOption);
    parser.addOption(runAllOption);
    parser.process(app);

    ScriptOptions options;
    if (parser.isSet(workloadOption)) {
        options.workload = parseWorkload(parser.value(workloadOption));
        if (!options.workload) {
            usageError(QStringLiteral("unknown workload '%1' (churn, growing, fragmentation, replay)")
                           .arg(parser.value(workloadOption)));
            return 2;
        }
    }
    bool numbersOk = true;
    options.shots = parser.isSet(seriesOption) ? parser.value(seriesOption).toInt(&numbersOk) : 1;
    bool everyOk = true;
    options.everyMs = parser.value(everyOption).toInt(&everyOk);
    bool rateOk = true;
    options.rate = parser.value(rateOption).toDouble(&rateOk);
    bool repeatOk = true;
    options.repeat = parser.value(repeatOption).toInt(&repeatOk);
    if (parser.isSet(timelineViewOption)) {
        const QStringList span = parser.value(timelineViewOption).split(u',');
        bool fromOk = false, toOk = false;
        if (span.size() == 2)
            options.timelineView = std::pair(span[0].toDouble(&fromOk), span[1].toDouble(&toOk));
        if (!fromOk || !toOk || options.timelineView->second <= options.timelineView->first) {
            usageError(QStringLiteral("--timeline-view takes FROM,TO in microseconds, FROM < TO"));
            return 2;
        }
    }
    if (!numbersOk || options.shots < 1 || !everyOk || options.everyMs < 1 || !rateOk || options.rate < 0 ||
        !repeatOk || options.repeat < 1) {
        usageError(QStringLiteral(
            "--screenshots, --screenshot-every and --repeat take positive whole numbers, --rate a "
            "number >= 0"));
        return 2;
    }

    if (parser.isSet(benchTimelineOption))
        return runTimelineBenchmark(parser.value(benchTimelineOption));
    if (parser.isSet(benchFollowOption))
        return runFollowBenchmark(parser.value(benchFollowOption));

    if (parser.isSet(sizeOption)) {
        options.windowSize = parseWindowSize(parser.value(sizeOption));
        if (!options.windowSize) {
            usageError(QStringLiteral("--size takes WIDTHxHEIGHT in pixels, e.g. 1280x800"));
            return 2;
        }
    }
    // The options given without a value to check.
    auto given = [&parser](const QCommandLineOption &option) -> std::optional<QString> {
        if (!parser.isSet(option))
            return std::nullopt;
        return parser.value(option);
    };
    options.files = parser.values(openOption) + parser.positionalArguments();
    options.showDocks = parser.values(showOption);
    options.captureTab = given(captureTabOption);
    options.build = parser.isSet(buildOption);
    options.buildOptions = given(optionsOption);
    options.runKernel = given(runOption);
    options.args = parser.values(argOption);
    options.global = parser.value(globalOption);
    options.local = parser.value(localOption);
    options.prints = parser.values(printOption);
    options.memoryCheck = parser.isSet(memoryCheckOption);
    options.sweep = given(sweepOption);
    options.sweepResults = given(sweepResultsOption);
    options.bench = given(benchOption);
    options.baseline = given(baselineOption);
    options.trace = parser.value(traceOption);
    options.screenshot = given(screenshotOption);
    options.showCode = parser.isSet(showCodeOption);
    options.matrix = given(matrixOption);
    options.timeIt = parser.isSet(timeItOption);
    options.codeDiff = parser.isSet(codeDiffOption);
    options.runAll = parser.isSet(runAllOption);
    options.editStruct = given(editStructOption);

    clscope::ui::MainWindow window;
    ScriptedSession session(std::move(options), window);
    if (const std::optional<int> status = session.start())
        return *status;
    return QApplication::exec();
}
