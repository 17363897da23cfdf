// Build-matrix cells on their devices' workers, and the timed runs of "time it".
#include "matrixcontroller.h"

#include "controllers/compilerchild.h"

#include "workers/deviceworkers.h"

#include "clscope/profile.h"

#include <algorithm>

namespace clscope::ui {

namespace {

struct Built
{
    MatrixCell cell;
    BuildResult build;
};

struct Timed
{
    std::optional<double> medianNs;
    int launches = 0;
    QString error;
};

} // namespace

MatrixController::MatrixController(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_compilerChild(CompilerChild::besideApplication())
{}

void MatrixController::setCliPath(const QString &path)
{
    m_compilerChild = std::make_shared<const CompilerChild>(path);
}

const MatrixCellResult &MatrixController::cell(int set, int device) const
{
    return m_cells.at(std::size_t(set * columns() + device));
}

MatrixCellResult &MatrixController::at(int set, int device)
{
    return m_cells.at(std::size_t(set * columns() + device));
}

bool MatrixController::start(const MatrixJob &job, QString *error)
{
    if (job.sets.isEmpty() || job.devices.empty()) {
        if (error)
            *error = job.sets.isEmpty() ? tr("no option set to build") : tr("no device chosen");
        return false;
    }
    if (m_running)
        cancel();
    m_group = m_tag.newGroup();
    m_job = job;
    m_nonce = matrixNonce();
    m_cells.assign(std::size_t(rows() * columns()), {});
    m_done = 0;
    m_total = rows() * columns();
    m_running = m_total;
    m_timing = false;
    emit started(rows(), columns());
    // Each device builds its sets in order, on its own worker; devices build side by side.
    for (int s = 0; s < rows(); ++s) {
        for (int d = 0; d < columns(); ++d)
            submitBuild(s, d);
    }
    emit progress(0, m_total);
    return true;
}

void MatrixController::submitBuild(int set, int device)
{
    const DeviceTarget &target = m_job.devices[std::size_t(device)];
    DeviceWorker &worker = m_workers->forDevice(target.id);
    BuildRequest request;
    request.devices = {target.id};
    request.sourcePath = m_job.sourcePath.toStdString();
    request.source = m_job.source.toStdString();
    if (request.source.empty())
        request.source.push_back('\n'); // an empty buffer is an empty program, not a file to read
    addSources(request, m_job.moreSources, m_job.link);
    request.releaseOn = worker.releaser();
    const QString setText = m_job.sets[set];
    const QString base = m_job.baseOptions;
    const QString platform = target.platform;
    const std::string deviceName = target.name.toStdString();
    const std::uint64_t nonce = m_nonce;
    worker.submit<Built>(
        *m_group,
        [request, setText, base, platform, deviceName, nonce,
         child = m_compilerChild](const CancelToken &cancel, const Progress &) mutable {
            Built out;
            out.cell.options = setText.toStdString();
            out.cell.device = deviceName;
            if (cancel.isCancelled())
                return out;
            try {
                // As build --matrix makes them: the base options, the set, -cl-nv-verbose on NVIDIA, and a
                // define the program never reads that makes every build a new program to the driver (no
                // answer from its cache: the compiler's own time and report).
                request.options = matrixBuildOptions(base.toStdString(), setText.toStdString(),
                                                     platform.toStdString(), nonce);
                // Cache off: every build is timed, here, after a child's compile of the same program has
                // shown that the compiler does not crash on it (a crash fails the cell, not the window).
                out.build = child->build(request, BinaryCache(), cancel);
                out.cell = matrixCell(setText.toStdString(), out.build, 0);
                out.cell.device = deviceName;
            } catch (const std::exception &e) {
                out.cell.success = false;
                out.cell.errors = 1;
                out.cell.firstError = e.what();
                out.cell.log = e.what();
            }
            return out;
        },
        this,
        [this, set, device](Built built) {
            MatrixCellResult &c = at(set, device);
            c.done = true;
            c.cell = std::move(built.cell);
            c.build = std::move(built.build);
            emit cellChanged(set, device);
            finishOne(false);
        });
}

void MatrixController::finishOne(bool timing)
{
    ++m_done;
    --m_running;
    emit progress(m_done, m_total);
    if (m_running == 0) {
        if (timing)
            emit timingFinished(false);
        else
            emit finished(false);
    }
}

void MatrixController::cancel()
{
    if (!m_running)
        return;
    m_tag.discard(); // every cell's job, on every device's worker
    for (MatrixCellResult &c : m_cells)
        c.timing = false;
    m_running = 0;
    if (m_timing)
        emit timingFinished(true);
    else
        emit finished(true);
}

bool MatrixController::timeIt(const RunRequest &launch)
{
    if (m_running)
        return false;
    std::vector<std::pair<int, int>> built;
    for (int s = 0; s < rows(); ++s) {
        for (int d = 0; d < columns(); ++d) {
            if (cell(s, d).done && cell(s, d).build.success())
                built.emplace_back(s, d);
        }
    }
    if (built.empty())
        return false;
    m_group = m_tag.newGroup();
    m_timing = true;
    m_done = 0;
    m_total = int(built.size());
    m_running = m_total;
    for (const auto &[s, d] : built) {
        MatrixCellResult &c = at(s, d);
        c.timing = true;
        c.medianNs.reset();
        c.timeError.clear();
        emit cellChanged(s, d);
        RunRequest run = launch;
        run.build = c.build;
        run.device = m_job.devices[std::size_t(d)].id;
        run.repeat = std::max(run.repeat, kMinLaunches);
        run.readBack.clear(); // the times are what counts here
        run.readBackAll = false;
        m_workers->forDevice(run.device)
            .submit<Timed>(
                *m_group,
                [run](const CancelToken &cancel, const Progress &) {
                    Timed out;
                    try {
                        RunOptions options;
                        options.cancel = cancel.flag();
                        const RunResult result = runKernel(run, options);
                        std::vector<std::uint64_t> durations;
                        for (const CommandRecord &l : result.launches())
                            durations.push_back(l.duration());
                        out.launches = int(durations.size());
                        if (!durations.empty())
                            out.medianNs = summarize(std::move(durations)).medianNs;
                        else
                            out.error = QStringLiteral("no launch ran");
                    } catch (const std::exception &e) {
                        out.error = QString::fromStdString(e.what());
                    }
                    return out;
                },
                this,
                [this, s, d](Timed timed) {
                    MatrixCellResult &c = at(s, d);
                    c.timing = false;
                    c.medianNs = timed.medianNs;
                    c.launches = timed.launches;
                    c.timeError = timed.error;
                    emit cellChanged(s, d);
                    finishOne(true);
                });
    }
    emit progress(0, m_total);
    return true;
}

} // namespace clscope::ui
