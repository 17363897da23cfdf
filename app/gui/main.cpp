// clscope: the GUI. Every panel can be brought up from the command line so pictures and tests are
// reproducible: clscope [--show DOCK] [--screenshot OUT.png].
#include "windows/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

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
    const QCommandLineOption showOption(QStringLiteral("show"), QStringLiteral("Raise a panel (devices, …)."),
                                        QStringLiteral("DOCK"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save the window as PNG once the work is done, then exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x800."),
                                        QStringLiteral("WxH"));
    parser.addOption(showOption);
    parser.addOption(screenshotOption);
    parser.addOption(sizeOption);
    parser.process(app);

    clscope::ui::MainWindow window;
    if (parser.isSet(sizeOption)) {
        const QStringList wh = parser.value(sizeOption).split(u'x');
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    for (const QString &dock : parser.values(showOption)) {
        if (!window.showDock(dock)) {
            std::fprintf(stderr, "clscope: no panel named '%s' (panels: %s)\n", qPrintable(dock),
                         qPrintable(window.dockNames().join(QStringLiteral(", "))));
            return 2;
        }
    }
    window.show();

    if (parser.isSet(screenshotOption)) {
        const QString path = parser.value(screenshotOption);
        QObject::connect(&window, &clscope::ui::MainWindow::ready, &app, [&window, path] {
            // Give pending layout requests (status bar, tree columns) a moment before the grab.
            QTimer::singleShot(250, &window, [&window, path] {
                const QString error = window.saveScreenshot(path);
                if (!error.isEmpty()) {
                    std::fprintf(stderr, "clscope: %s\n", qPrintable(error));
                    QApplication::exit(1);
                    return;
                }
                QApplication::exit(0);
            });
        });
        // A driver that hangs must not hang a scripted screenshot forever.
        QTimer::singleShot(120000, &app, [] {
            std::fprintf(stderr, "clscope: timed out waiting for the devices\n");
            QApplication::exit(1);
        });
    }
    return QApplication::exec();
}
