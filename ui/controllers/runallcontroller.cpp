// Per-device build and run on the devices' workers, then the comparison on the device-less worker.
#include "runallcontroller.h"

#include "controllers/compilerchild.h"

#include "workers/deviceworkers.h"

#include "clscope/profile.h"

namespace clscope::ui {

namespace {

struct DeviceOutcome
{
    QString error;
    double buildMs = 0;
    std::optional<RunResult> result;
};

} // namespace

RunAllController::RunAllController(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_compilerChild(CompilerChild::besideApplication())
{}

void RunAllController::setCliPath(const QString &path)
{
    m_compilerChild = std::make_shared<const CompilerChild>(path);
}

bool RunAllController::start(const RunAllJob &job, QString *error)
{
    if (job.devices.empty() || job.launch.kernel.empty()) {
        if (error)
            *error = job.devices.empty() ? tr("no device") : tr("no kernel to run");
        return false;
    }
    if (isBusy())
        cancel();
    m_group = m_tag.newGroup();
    m_job = job;
    m_rows.assign(job.devices.size(), {});
    m_running = int(job.devices.size());
    m_comparing = false;
    emit started(int(m_rows.size()));
    for (std::size_t i = 0; i < job.devices.size(); ++i) {
        const DeviceTarget &target = job.devices[i];
        m_rows[i].device = target;
        DeviceWorker &worker = m_workers->forDevice(target.id);
        BuildRequest build;
        build.devices = {target.id};
        build.sourcePath = job.sourcePath.toStdString();
        build.source = job.source.toStdString();
        if (build.source.empty())
            build.source.push_back('\n');
        build.options = job.options.toStdString();
        addSources(build, job.moreSources, job.link);
        build.releaseOn = worker.releaser();
        RunRequest run = job.launch;
        run.device = target.id;
        // The buffers the panel reads back are compared; every buffer when it reads back none.
        run.readBackAll = run.readBack.empty();
        worker.submit<DeviceOutcome>(
            *m_group,
            [build, run, child = m_compilerChild](const CancelToken &cancel, const Progress &) mutable {
                DeviceOutcome out;
                try {
                    // As the window's Build: compiled in a child first, so a crashing compiler fails this
                    // device's row instead of ending the window.
                    run.build = child->build(build, BinaryCache::fromEnvironment(), cancel);
                    out.buildMs = run.build.durationMs();
                    if (!run.build.success()) {
                        out.error = QStringLiteral("the build failed");
                        for (const Diagnostic &d : run.build.diagnostics()) {
                            if (d.severity == Severity::Error) {
                                out.error += QStringLiteral(": line %1: %2")
                                                 .arg(d.line)
                                                 .arg(QString::fromStdString(d.message));
                                break;
                            }
                        }
                        return out;
                    }
                    if (cancel.isCancelled())
                        return out;
                    RunOptions options;
                    options.cancel = cancel.flag();
                    out.result = runKernel(run, options);
                } catch (const std::exception &e) {
                    out.error = QString::fromStdString(e.what());
                }
                return out;
            },
            this,
            [this, i](DeviceOutcome outcome) {
                RunAllRow &row = m_rows[i];
                row.done = true;
                row.buildMs = outcome.buildMs;
                row.error = outcome.error;
                if (outcome.result && !outcome.result->cancelled()) {
                    const RunResult &r = *outcome.result;
                    row.ran = true;
                    row.result = r;
                    row.wallMs = r.durationMs();
                    std::vector<std::uint64_t> durations;
                    for (const CommandRecord &l : r.launches())
                        durations.push_back(l.duration());
                    row.launches = int(durations.size());
                    if (!durations.empty())
                        row.medianNs = summarize(std::move(durations)).medianNs;
                }
                emit rowChanged(int(i));
                if (--m_running == 0)
                    compareAll();
            });
    }
    return true;
}

void RunAllController::compareAll()
{
    // The first device that ran is the reference.
    auto ref = std::find_if(m_rows.begin(), m_rows.end(), [](const RunAllRow &r) { return r.ran; });
    if (ref == m_rows.end()) {
        emit finished(false);
        return;
    }
    ref->reference = true;
    std::vector<RunResult> results;
    for (const RunAllRow &r : m_rows)
        results.push_back(r.ran ? r.result : RunResult());
    const RunResult reference = ref->result;
    const Tolerance tolerance = m_job.tolerance;
    m_comparing = true;
    using Comparisons = std::vector<std::optional<std::vector<BufferComparison>>>;
    m_workers->deviceless().submit<Comparisons>(
        *m_group, // the same request: delivered unless a newer start() or cancel() came
        [results, reference, tolerance](const CancelToken &cancel, const Progress &) {
            Comparisons out(results.size());
            for (std::size_t i = 0; i < results.size() && !cancel.isCancelled(); ++i) {
                if (!results[i].kernel().empty())
                    out[i] = compareRuns(reference, results[i], tolerance);
            }
            return out;
        },
        this,
        [this](Comparisons comparisons) {
            m_comparing = false;
            for (std::size_t i = 0; i < comparisons.size() && i < m_rows.size(); ++i) {
                if (!comparisons[i])
                    continue;
                m_rows[i].buffers = std::move(*comparisons[i]);
                m_rows[i].compared = true;
                emit rowChanged(int(i));
            }
            emit finished(false);
        });
}

void RunAllController::cancel()
{
    if (!isBusy())
        return;
    m_tag.discard(); // every device's job and the comparison, wherever they are
    m_running = 0;
    m_comparing = false;
    emit finished(true);
}

} // namespace clscope::ui
