// The session the command line describes: clscope [FILE...] [--build] [--run KERNEL --arg ...] [--sweep LIST]
// [--bench KIND] [--workload KIND] [--show DOCK] [--screenshot OUT.png]. It drives the main window as a user
// would, through its panels (found with findChild, as any scripted user of the window finds them). With
// --screenshot it is scripted: no modal message box waits for anyone, the picture (or a series) is saved once
// the work is done, and the application exits, with status 1 after any failure (the reason on stderr).
#pragma once

#include "controllers/poolworkload.h"

#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace clscope {
class BuildResult;
}

namespace clscope::ui {
class MainWindow;
}

// What the command line asks of the window, as main() parsed and checked it. An option left out is
// nullopt (or empty), so that an option given an empty value still counts as given.
struct ScriptOptions
{
    QStringList files;                   // --open FILE and the positional arguments: kernel sources, captures
    std::optional<QSize> windowSize;     // --size, already clamped
    QStringList showDocks;               // --show DOCK, in order
    std::optional<QString> captureTab;   // --capture-tab TAB (with a capture among the files)
    bool build = false;                  // --build
    std::optional<QString> buildOptions; // --options
    std::optional<QString> runKernel;    // --run KERNEL (after --build)
    QStringList args;                    // --arg SPEC
    QString global;                      // --global
    QString local;                       // --local
    int repeat = 1;                      // --repeat
    QStringList prints;                  // --print NAME
    bool memoryCheck = false;            // --memory-check
    std::optional<QString> sweep;        // --sweep LIST: Run → Sweep local size instead of the run
    std::optional<QString> sweepResults; // --sweep-results FILE: the sweep window with a saved sweep
    std::optional<std::pair<double, double>> timelineView; // --timeline-view FROM,TO in microseconds
    std::optional<QString> bench;                          // --bench KIND
    std::optional<QString> baseline;                       // --baseline FILE
    std::optional<clscope::ui::WorkloadKind> workload;     // --workload
    double rate = 10000;                                   // --rate
    QString trace;                     // --trace (null when not given: the workload's own choice)
    bool showCode = false;             // --show-code (after --build, or --run)
    std::optional<QString> matrix;     // --matrix SETS: the build matrix on every device
    bool timeIt = false;               // --time-it: with --matrix, time the launch in every cell
    bool codeDiff = false;             // --code-diff: with --matrix, the code of its first two rows compared
    bool runAll = false;               // --run-all (after --build, or --run)
    std::optional<QString> editStruct; // --edit-struct ARG: the struct field editor of an argument
    std::optional<QString> screenshot; // --screenshot OUT.png: a scripted session
    int shots = 1;                     // --screenshots
    int everyMs = 1000;                // --screenshot-every
};

class ScriptedSession : public QObject
{
    Q_OBJECT
public:
    ScriptedSession(ScriptOptions options, clscope::ui::MainWindow &window, QObject *parent = nullptr);

    // Opens the files, shows the window and the panels asked for, and sets the work going. Returns the exit
    // status when the session ends before the event loop runs (a file that cannot be opened in a scripted
    // session or a baseline that cannot be read: 1; no such panel: 2), else nothing: QApplication::exec()
    // runs the rest.
    std::optional<int> start();

private:
    bool scripted() const { return m_options.screenshot.has_value(); }
    // Notes the first failure (the exit status becomes 1) and says why on stderr.
    void fail(const QString &message);
    // The work is done: with --screenshot, the picture(s), then exit.
    void finish();
    void onReady();
    void onBuilt(const clscope::BuildResult &result);
    void onRunFinished();
    // After the build (and run): the code, the matrix or the run on every device, when asked for.
    void compare();
    void afterMatrix();
    // The window with the dialogs that are open painted over it where they are.
    QString savePicture(const QString &path);
    // Run → Sweep local size with the local sizes of --sweep; the picture is then of its window alone.
    void startSweep();
    template<class T> T *part() const;

    ScriptOptions m_options;
    clscope::ui::MainWindow &m_window;
    bool m_failed = false;
};
