// A build matrix in the GUI: every option set built on every chosen device (each device's builds on its own
// worker, so devices build in parallel; CLScope's cache off and the drivers' caches missed through
// matrixBuildOptions' define, so that each build is timed as the compiler does it), a cell per build with the
// figures of buildmatrix.h, as `clscope-cli build --matrix` gives them. Then "time it": the current launch
// run with each cell's build on its device, its median kernel time added to the cell. Cancel drops what has
// not started; a build in progress cannot be interrupted, and its result is dropped when it arrives.
#pragma once

#include "controllers/buildjobsource.h"
#include "controllers/devicetarget.h"

#include "clscope/buildmatrix.h"
#include "clscope/runner.h"
#include "workers/jobtag.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>

#include <memory>
#include <optional>
#include <vector>

namespace clscope::ui {

class CompilerChild;
class DeviceWorkers;

struct MatrixJob
{
    QString source;     // the text built
    QString sourcePath; // its file (diagnostics and -I of its folder); may be empty
    QString baseOptions;
    QList<BuildJobSource> moreSources; // the program's other tabs
    bool link = false;
    QStringList sets; // option sets, as parseOptionSets gives them
    std::vector<DeviceTarget> devices;
};

struct MatrixCellResult
{
    bool done = false;
    MatrixCell cell;
    BuildResult build; // for the generated code and the timed runs; failed when the build did
    // Time it: the median kernel time of the launches, or why it did not run.
    std::optional<double> medianNs;
    int launches = 0;
    QString timeError;
    bool timing = false;
};

class MatrixController : public QObject
{
    Q_OBJECT
public:
    explicit MatrixController(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    // The clscope-cli whose child compiles each cell's build first (beside the application by default).
    void setCliPath(const QString &path);

    // Starts the builds (a matrix still running is given up). False with *error when there is nothing to
    // build (no set, no device).
    bool start(const MatrixJob &job, QString *error = nullptr);
    // Gives up the builds or runs still to come; finished(true) or timingFinished(true) follows.
    void cancel();
    // Runs `launch` (kernel, range, arguments, repeat: what F5 would run) with every built cell's program on
    // its device, at least kMinLaunches times. False when no cell is built or work is still under way.
    bool timeIt(const RunRequest &launch);
    static constexpr int kMinLaunches = 3;

    bool isBusy() const { return m_running > 0; }
    const MatrixJob &job() const { return m_job; }
    int rows() const { return int(m_job.sets.size()); }
    int columns() const { return int(m_job.devices.size()); }
    const MatrixCellResult &cell(int set, int device) const;

signals:
    void started(int sets, int devices);
    void cellChanged(int set, int device);
    void progress(int done, int total);
    void finished(bool cancelled);
    void timingFinished(bool cancelled);

private:
    MatrixCellResult &at(int set, int device);
    void submitBuild(int set, int device);
    void finishOne(bool timing);

    std::shared_ptr<DeviceWorkers> m_workers;
    std::shared_ptr<const CompilerChild> m_compilerChild; // a crash pre-flight for each cell's compile
    MatrixJob m_job;
    std::vector<MatrixCellResult> m_cells; // row-major: set * columns + device
    // One request: the builds of every cell (or the timed runs of "time it"), each device's on its own
    // worker; the next request (or cancel()) supersedes them all.
    JobTag m_tag{QStringLiteral("matrix")};
    std::optional<JobGroup> m_group;
    std::uint64_t m_nonce = 0; // matrixNonce(): every build a new program to the drivers' caches
    int m_running = 0;
    int m_done = 0;
    int m_total = 0;
    bool m_timing = false;
};

} // namespace clscope::ui
