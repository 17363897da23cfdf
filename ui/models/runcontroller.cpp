// Run requests to the worker thread and their results back.
#include "runcontroller.h"

#include "workqueue.h"

#include <variant>

namespace clscope::ui {

namespace {
const QString kRunTag = QStringLiteral("run");
struct Outcome
{
    std::variant<RunResult, QString> result;
    std::shared_ptr<MemoryPool> newPool; // set when this run made the pool of its context
};
} // namespace

RunController::RunController(WorkQueue *queue, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
{
    qRegisterMetaType<RunResult>();
}

void RunController::run(const RunRequest &request)
{
    if (m_cancel)
        m_cancel->store(true); // a newer run supersedes an older one still going
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    RunOptions options;
    const cl_context context = request.build.context();
    if (m_pool && context == m_poolContext)
        options.pool = m_pool;
    options.cancel = m_cancel;
    options.calibrateClock = true; // the timeline draws the commands next to the pool's host-clock series
    m_busy = true;
    emit runStarted(QString::fromStdString(request.kernel));
    m_queue->submit<Outcome>(
        kRunTag,
        [request, options, context]() mutable -> Outcome {
            Outcome out;
            try {
                if (!options.pool && context) {
                    // Deferred: each run has its own queue, and the run writes its buffers anyway.
                    out.newPool = std::make_shared<MemoryPool>(std::make_shared<DeferredAllocator>(context));
                    options.pool = out.newPool;
                }
                out.result = runKernel(request, options);
            } catch (const std::exception &e) {
                out.result = QString::fromStdString(e.what());
            }
            return out;
        },
        this,
        [this, context](Outcome outcome) {
            m_busy = false;
            if (outcome.newPool) {
                if (m_pool) {
                    // The old pool releases its buffers and context: that is OpenCL work, so not here.
                    m_queue->submit<int>(
                        QStringLiteral("run-pool-drop"),
                        [old = std::move(m_pool)]() mutable {
                            old.reset();
                            return 0;
                        },
                        this, [](int) {});
                }
                m_pool = outcome.newPool;
                m_poolContext = context;
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
    if (m_cancel)
        m_cancel->store(true);
    m_queue->cancel(kRunTag);
    m_busy = false;
    emit runAbandoned();
}

} // namespace clscope::ui
