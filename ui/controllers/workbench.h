// The workbench the window works on: the one context that the coordinators read, in the manner of
// qrenderdoc's ICaptureContext (CaptureSession is the capture side's). It holds the current program (the
// latest finished build and what it was made from) and the current launch (what the Arguments panel shows:
// kernel, argument values, NDRange, repeat, read-backs), says when either changes, and gives the coordinators
// the two services they share behind narrow interfaces: building what the user sees (ProgramBuilder, the
// build coordinator) and the view that edits the launch (LaunchView, the Arguments panel). A coordinator
// holds this context, never the panel widget or another coordinator, for the program and the launch. Qt Core.
#pragma once

#include "clscope/build.h"
#include "clscope/deviceinfo.h"
#include "clscope/rundirective.h"
#include "clscope/runner.h"
#include "controllers/buildjobsource.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace clscope::ui {

// Everything a launch holds, as text: what the run history keeps and re-runs, what the panel publishes.
struct ArgumentsState
{
    QString kernel;
    QStringList specs; // CLI --arg forms
    QStringList readBack;
    QString global;
    QString local;
    QString offset;
    int repeat = 1;

    bool operator==(const ArgumentsState &) const = default;
};

// A program: what a build was (or would be) made from, and for a finished build its result.
struct WorkbenchProgram
{
    BuildResult result;       // empty for a program not built yet (ProgramBuilder::programNow)
    QPointer<QObject> editor; // the tab it came from (a KernelEditor); null before a build, once closed
    QString path;             // empty for an unsaved buffer
    QString title;            // the tab's name
    QString text;
    QList<BuildJobSource> more; // the other tabs of a program built from several, in tab order
    bool link = false;          // each tab compiled apart, the objects linked
    QString options;
    cl_device_id device = nullptr;
    // A copy of the device the build was made for (the current one when a refresh lost it), for its limits.
    std::optional<DeviceSnapshot> deviceSnapshot;

    // The source the program is, its other tabs after it (what a `// clscope-run:` line is looked for in).
    QString allText() const;
};

// What the coordinators ask of the view that edits the launch (the Arguments panel implements it).
class LaunchView
{
public:
    virtual ~LaunchView() = default;
    // The run the view describes, or nothing with the first problem in *error (naming the argument).
    virtual std::optional<RunRequest> makeRequest(QString *error) const = 0;
    // The NDRange and repeat as the status bar shows them.
    virtual QString rangeText() const = 0;
    // Remembers the values per kernel, as a run does.
    virtual void saveValues() const = 0;
    // Why something did not happen, next to Run (empty: clears it).
    virtual void showMessage(const QString &text) = 0;
    // A run's error where the mistake is: the field it names is marked (else only the message is shown).
    virtual void showError(const QString &message) = 0;
    virtual void setRunning(bool running) = 0;
    // Puts a saved launch back (kernel, values, read-backs, range); false with *error when it does not fit.
    virtual bool applyState(const ArgumentsState &state, QString *error) = 0;
    // Fills the launch from a `// clscope-run:` directive; false with *error when it does not fit.
    virtual bool applyDirective(const RunDirective &directive, QString *error) = 0;
    // Opens a launch from elsewhere (a captured one): its kernel, each argument that fits, its range and
    // repeat, and the read-backs it names ticked (the others as they were). The problems of the arguments
    // that did not fit, in order.
    virtual QStringList openLaunch(const ArgumentsState &launch) = 0;

protected:
    LaunchView() = default;
    LaunchView(const LaunchView &) = default;
    LaunchView &operator=(const LaunchView &) = default;
};

// What the coordinators ask of the builder (the build coordinator implements it).
class ProgramBuilder
{
public:
    virtual ~ProgramBuilder() = default;
    // Calls then() once the current program is built on the current device from what the editor shows (at
    // once when the latest build is of exactly that); a failed build, or one that cannot start, calls
    // refused(why) instead. Returns false when refused at once.
    virtual bool buildThen(std::function<void()> then, std::function<void(const QString &)> refused) = 0;
    // What a build now would build (no result; editor null when there is nothing to build).
    virtual WorkbenchProgram programNow() const = 0;
    // A memory check's or an Oclgrind run's reports, shown with the latest build's own warnings and notes.
    virtual void showRunDiagnostics(const std::vector<Diagnostic> &reports) = 0;

protected:
    ProgramBuilder() = default;
    ProgramBuilder(const ProgramBuilder &) = default;
    ProgramBuilder &operator=(const ProgramBuilder &) = default;
};

class Workbench : public QObject
{
    Q_OBJECT
public:
    explicit Workbench(QObject *parent = nullptr);

    // The services, set once by the window before the coordinators use them (null until then).
    void setBuilder(ProgramBuilder *builder) { m_builder = builder; }
    ProgramBuilder *builder() const { return m_builder; }
    void setLaunchView(LaunchView *view) { m_view = view; }
    LaunchView *launchView() const { return m_view; }

    // The latest finished build, good or failed (result empty before one), and what it was made from.
    const WorkbenchProgram &program() const { return m_program; }
    // By the builder when a build finishes, before it says so to anyone else (programChanged).
    void setProgram(const WorkbenchProgram &program);

    // The launch the view shows now, as the view published it.
    const ArgumentsState &launch() const { return m_launch; }
    // By the launch view, whenever what it shows changes (launchChanged when it differs).
    void publishLaunch(const ArgumentsState &launch);
    // "Open this launch in the workbench": the launch view shows it (launchRequested first, for others that
    // follow); the problems of the arguments that did not fit, or one when there is no launch view.
    QStringList openLaunch(const ArgumentsState &launch);

    // The user asked to run the launch (Run, F5 in the panel) or to stop the run (Stop).
    void requestRun() { emit runRequested(); }
    void requestStop() { emit stopRequested(); }

signals:
    // A build finished: the launch view takes a good one's kernels first (it subscribes before anyone).
    void programChanged();
    void launchChanged();
    void launchRequested(const clscope::ui::ArgumentsState &launch);
    void runRequested();
    void stopRequested();

private:
    ProgramBuilder *m_builder = nullptr;
    LaunchView *m_view = nullptr;
    WorkbenchProgram m_program;
    ArgumentsState m_launch;
};

} // namespace clscope::ui
