// Run requests to the device's worker and their results back.
#include "runcontroller.h"

#include "workers/deviceworkers.h"

#include <variant>

namespace clscope::ui {

namespace {
struct RunOutcome
{
    std::variant<RunResult, QString> result;
    bool newPool = false; // this run made the pool of its context
};

cl_device_id runDevice(const RunRequest &request)
{
    if (request.device)
        return request.device;
    const auto &logs = request.build.logs();
    return logs.empty() ? nullptr : logs.front().id;
}
} // namespace

RunController::RunController(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
{
    qRegisterMetaType<RunResult>();
}

RunController::~RunController()
{
    m_tag.discard();
    // A pool releases its buffers and context: OpenCL work, so on a worker (after the latest run, which
    // may have made it). A run still going elsewhere holds the RunPool, and its pool dies there.
    if (m_lastWorker)
        m_lastWorker->post([pool = m_pool] { pool->drop(); });
}

void RunController::run(const RunRequest &request)
{
    DeviceWorker &worker = m_workers->forDevice(runDevice(request));
    m_lastWorker = &worker;
    RunOptions options;
    const cl_context context = request.build.context();
    options.calibrateClock = true; // the timeline draws the commands next to the pool's host-clock series
    options.capturePrintf = m_capturePrintf;
    m_busy = true;
    // Set while the kernel is on the worker, so that a run after an abandoned one can say what it waits for.
    auto running = std::make_shared<std::atomic<bool>>(true);
    m_running = running;
    emit runStarted(QString::fromStdString(request.kernel));
    worker.submit<RunOutcome>(
        m_tag,
        [request, options, context, running, pool = m_pool](const CancelToken &cancel,
                                                            const Progress &) mutable -> RunOutcome {
            struct Done
            {
                std::atomic<bool> &flag;
                ~Done() { flag.store(false); }
            } done{*running};
            RunOutcome out;
            try {
                if (context)
                    options.pool = pool->forContext(context, &out.newPool);
                options.cancel = cancel.flag();
                out.result = runKernel(request, options);
            } catch (const std::exception &e) {
                out.result = QString::fromStdString(e.what());
            }
            return out;
        },
        this,
        // Only the latest run's outcome arrives: a superseded one is dropped on its worker.
        [this](RunOutcome outcome) {
            m_busy = false;
            if (outcome.newPool)
                emit poolCreated();
            if (auto *result = std::get_if<RunResult>(&outcome.result))
                emit runFinished(*result);
            else
                emit runFailed(std::get<QString>(outcome.result));
        });
}

void RunController::abandon()
{
    if (!m_busy)
        return;
    m_tag.discard();
    m_busy = false;
    m_abandoned = m_running;
    emit runAbandoned();
}

} // namespace clscope::ui
