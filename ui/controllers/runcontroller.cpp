// Run requests to the device's worker and their results back.
#include "runcontroller.h"

#include "workers/deviceworkers.h"

#include <variant>

namespace clscope::ui {

namespace {
struct RunOutcome
{
    std::variant<RunResult, QString> result;
    std::shared_ptr<MemoryPool> newPool; // set when this run made the pool of its context
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
    dropPool();
}

void RunController::dropPool()
{
    // A pool releases its buffers and context: OpenCL work, so on the worker, not here.
    if (m_pool && m_poolWorker)
        m_poolWorker->post([old = std::move(m_pool)]() mutable { old.reset(); });
    m_pool.reset();
}

void RunController::run(const RunRequest &request)
{
    DeviceWorker &worker = m_workers->forDevice(runDevice(request));
    RunOptions options;
    const cl_context context = request.build.context();
    if (m_pool && context == m_poolContext)
        options.pool = m_pool;
    options.calibrateClock = true; // the timeline draws the commands next to the pool's host-clock series
    options.capturePrintf = m_capturePrintf;
    m_busy = true;
    // Set while the kernel is on the worker, so that a run after an abandoned one can say what it waits for.
    auto running = std::make_shared<std::atomic<bool>>(true);
    m_running = running;
    emit runStarted(QString::fromStdString(request.kernel));
    worker.submit<RunOutcome>(
        m_tag,
        [request, options, context, running](const CancelToken &cancel,
                                             const Progress &) mutable -> RunOutcome {
            struct Done
            {
                std::atomic<bool> &flag;
                ~Done() { flag.store(false); }
            } done{*running};
            RunOutcome out;
            try {
                if (!options.pool && context) {
                    // Deferred: each run has its own queue, and the run writes its buffers anyway.
                    out.newPool = makePool(AllocatorKind::Deferred, context);
                    options.pool = out.newPool;
                }
                options.cancel = cancel.flag();
                out.result = runKernel(request, options);
            } catch (const std::exception &e) {
                out.result = QString::fromStdString(e.what());
            }
            return out;
        },
        this,
        // Only the latest run's outcome arrives: a superseded one, with its pool, is dropped on its worker.
        [this, context, worker = &worker](RunOutcome outcome) {
            m_busy = false;
            if (outcome.newPool) {
                dropPool();
                m_pool = outcome.newPool;
                m_poolContext = context;
                m_poolWorker = worker;
                emit poolCreated(m_pool, tr("Kernel runs"));
            }
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
