// Run requests to the worker thread and their results back.
#include "runcontroller.h"

#include "workqueue.h"

#include <variant>

namespace clscope::ui {

namespace {
const QString kRunTag = QStringLiteral("run");
using Outcome = std::variant<RunResult, QString>;
} // namespace

RunController::RunController(WorkQueue *queue, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
{
    qRegisterMetaType<RunResult>();
}

void RunController::run(const RunRequest &request, std::shared_ptr<MemoryPool> pool)
{
    if (m_cancel)
        m_cancel->store(true); // a newer run supersedes an older one still going
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    RunOptions options;
    options.pool = std::move(pool);
    options.cancel = m_cancel;
    m_busy = true;
    emit runStarted(QString::fromStdString(request.kernel));
    m_queue->submit<Outcome>(
        kRunTag,
        [request, options]() -> Outcome {
            try {
                return runKernel(request, options);
            } catch (const std::exception &e) {
                return QString::fromStdString(e.what());
            }
        },
        this,
        [this](Outcome outcome) {
            m_busy = false;
            if (auto *result = std::get_if<RunResult>(&outcome))
                emit runFinished(*result);
            else
                emit runFailed(std::get<QString>(outcome));
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
