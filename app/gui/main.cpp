// clscope: the GUI. Every panel can be brought up from the command line so pictures and tests are
// reproducible: clscope [FILE.cl...] [--open FILE.cl] [--build] [--show DOCK] [--screenshot OUT.png].
#include "benchmark_timeline.h"
#include "widgets/argumentspanel.h"
#include "widgets/resultsviewer.h"
#include "windows/buildcoordinator.h"
#include "windows/runcoordinator.h"
#include "windows/mainwindow.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>
#include <functional>

namespace {

void fail(const QString &message)
{
    std::fprintf(stderr, "clscope: %s\n", qPrintable(message));
}

} // namespace

int main(int argc, char **argv)
{
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
    const QCommandLineOption runOption(QStringLiteral("run"), QStringLiteral("After --build, run this kernel."),
                                       QStringLiteral("KERNEL"));
    const QCommandLineOption argOption(QStringLiteral("arg"),
                                       QStringLiteral("An argument for --run, as clscope-cli takes it (n=uint:1024, "
                                                      "a=buffer:float:1024:iota, s=local:256)."),
                                       QStringLiteral("SPEC"));
    const QCommandLineOption globalOption(QStringLiteral("global"), QStringLiteral("Global size for --run."),
                                          QStringLiteral("X[,Y[,Z]]"));
    const QCommandLineOption localOption(QStringLiteral("local"), QStringLiteral("Local size for --run."),
                                         QStringLiteral("X[,Y[,Z]]"));
    const QCommandLineOption printOption(QStringLiteral("print"), QStringLiteral("Read back and show this buffer."),
                                         QStringLiteral("NAME"));
    const QCommandLineOption showOption(QStringLiteral("show"),
                                        QStringLiteral("Raise a panel (devices, build log, diagnostics…)."),
                                        QStringLiteral("DOCK"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save the window as PNG once the work is done, then exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x800."),
                                        QStringLiteral("WxH"));
    const QCommandLineOption benchTimelineOption(
        QStringLiteral("benchmark-timeline"), QStringLiteral("Paint N synthetic events offscreen and print timings as JSON."),
        QStringLiteral("N"));
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
    parser.addOption(screenshotOption);
    parser.addOption(sizeOption);
    parser.process(app);

    if (parser.isSet(benchTimelineOption))
        return runTimelineBenchmark(parser.value(benchTimelineOption).toInt());

    clscope::ui::MainWindow window;
    if (parser.isSet(sizeOption)) {
        const QStringList wh = parser.value(sizeOption).split(u'x');
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    const QStringList files = parser.values(openOption) + parser.positionalArguments();
    const bool scripted = parser.isSet(screenshotOption);
    if (!window.openFiles(files) && scripted)
        return 1;
    window.show();
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
        // Give pending layout requests (status bar, tree columns) a moment before the grab.
        QTimer::singleShot(300, &window, [&window, path = parser.value(screenshotOption)] {
            const QString error = window.saveScreenshot(path);
            if (!error.isEmpty())
                fail(error);
            QApplication::exit(error.isEmpty() ? 0 : 1);
        });
    };
    QObject::connect(&window, &clscope::ui::MainWindow::ready, &app, [&] {
        if (!parser.isSet(buildOption)) {
            finish();
            return;
        }
        auto *builds = window.builds();
        if (parser.isSet(optionsOption))
            builds->optionsBox()->setEditText(parser.value(optionsOption));
        QObject::connect(builds, &clscope::ui::BuildCoordinator::buildFinished, &app, [&](const clscope::BuildResult &result) {
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
                QObject::connect(window.runs(), &clscope::ui::RunCoordinator::runFinished, &app, [&] {
                    const QStringList prints = parser.values(printOption);
                    if (!prints.isEmpty())
                        window.results()->selectBuffer(prints.front());
                    finish();
                });
                QObject::connect(window.runs(), &clscope::ui::RunCoordinator::runFailed, &app, [&](const QString &message) {
                    fail(message);
                    finish();
                });
                ok = window.runs()->runCurrent();
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
        if (!builds->buildCurrent())
            finish();
    });
    if (scripted) {
        // A driver that hangs must not hang a scripted screenshot forever.
        QTimer::singleShot(180000, &app, [] {
            fail(QStringLiteral("timed out waiting for the work to finish"));
            QApplication::exit(1);
        });
    }
    return QApplication::exec();
}
