// Build requests to the worker thread and their results back.
#include "buildcontroller.h"

#include "workqueue.h"

#include "clscope/error.h"

#include <variant>

namespace clscope::ui {

namespace {
using Outcome = std::variant<BuildResult, QString>;
}

BuildController::BuildController(WorkQueue *queue, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
{
    qRegisterMetaType<BuildResult>();
}

void BuildController::build(const BuildJob &job)
{
    BuildRequest request;
    request.devices = job.devices;
    request.sourcePath = job.sourcePath.toStdString();
    request.source = job.source.toStdString();
    request.options = job.options.toStdString();
    if (request.source.empty())
        request.source.push_back(
            '\n'); // an empty buffer is still a (trivially empty) program, not a file to read
    m_busy = true;
    emit buildStarted(job.deviceNames.join(QStringLiteral(", ")));
    m_queue->submit<Outcome>(
        QStringLiteral("build"),
        [request]() -> Outcome {
            try {
                return buildProgram(request);
            } catch (const std::exception &e) {
                return QString::fromStdString(e.what());
            }
        },
        this,
        [this](Outcome outcome) {
            m_busy = false;
            if (auto *result = std::get_if<BuildResult>(&outcome)) {
                m_last = *result;
                emit buildFinished(*result);
            } else {
                emit buildFailed(std::get<QString>(outcome));
            }
        });
}

} // namespace clscope::ui
