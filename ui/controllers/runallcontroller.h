// Run on every device: the current program built for each device and the current launch run there, each
// device on its own worker (so they run side by side), then every device's buffers (those the launch reads
// back, or all when it reads back none) compared with the first device's that ran (clscope/compare.h), on the
// device-less worker: a million floats are not compared on the GUI thread. One row per device: its kernel
// time (median of the launches), wall time, and agreement.
#pragma once

#include "controllers/buildjobsource.h"
#include "controllers/devicetarget.h"

#include "clscope/compare.h"
#include "clscope/runner.h"
#include "workers/jobtag.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace clscope::ui {

class CompilerChild;
class DeviceWorkers;

struct RunAllJob
{
    QString source;
    QString sourcePath;
    QString options;
    QList<BuildJobSource> moreSources; // the program's other tabs
    bool link = false;
    RunRequest launch; // kernel, range, arguments, repeat (its build and device are replaced per device)
    std::vector<DeviceTarget> devices;
    Tolerance tolerance = Tolerance::acrossDevices();
};

struct RunAllRow
{
    DeviceTarget device;
    bool done = false;
    bool ran = false;
    QString error; // why it did not build or run
    double buildMs = 0;
    std::optional<double> medianNs; // kernel time, median of the launches
    int launches = 0;
    double wallMs = 0;      // the whole run: buffers, launches, read-back
    bool reference = false; // the row the others are compared with
    bool compared = false;
    std::vector<BufferComparison> buffers;
    bool agrees() const
    {
        return std::all_of(buffers.begin(), buffers.end(),
                           [](const BufferComparison &b) { return b.agrees(); });
    }
    RunResult result;
};

class RunAllController : public QObject
{
    Q_OBJECT
public:
    explicit RunAllController(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    // The clscope-cli whose child compiles each device's build first (beside the application by default).
    void setCliPath(const QString &path);

    // Starts (a run still going is given up); false with *error when there is no device or no kernel.
    bool start(const RunAllJob &job, QString *error = nullptr);
    void cancel();
    bool isBusy() const { return m_running > 0 || m_comparing; }
    const std::vector<RunAllRow> &rows() const { return m_rows; }

signals:
    void started(int devices);
    void rowChanged(int row);
    void finished(bool cancelled);

private:
    void compareAll();

    std::shared_ptr<DeviceWorkers> m_workers;
    std::shared_ptr<const CompilerChild> m_compilerChild; // each device's build compiles in it first
    RunAllJob m_job;
    std::vector<RunAllRow> m_rows;
    // One request: a job per device, then the comparison; a newer start() (or cancel()) supersedes it all.
    JobTag m_tag{QStringLiteral("run-all")};
    std::optional<JobGroup> m_group; // of the latest start()
    int m_running = 0;
    bool m_comparing = false;
};

} // namespace clscope::ui
