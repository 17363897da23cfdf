// Generated-code requests to the build's worker and the listings back.
#include "codecontroller.h"

#include "workers/deviceworkers.h"

#include <variant>

namespace clscope::ui {

namespace {
using CodeOutcome = std::variant<GeneratedCodeList, QString>;
}

CodeController::CodeController(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
{
    qRegisterMetaType<GeneratedCodeList>();
}

bool CodeController::request(const QString &key, const BuildResult &build)
{
    if (!build.success() || !build.program() || build.logs().empty())
        return false;
    DeviceWorker &worker = m_workers->forDevice(build.logs().front().id);
    ++m_pending;
    // A tag of its own: requests for several builds all get their answer.
    worker.submit<CodeOutcome>(
        QStringLiteral("code:%1").arg(++m_requests),
        [build](const CancelToken &, const Progress &) -> CodeOutcome {
            try {
                return generatedCode(build);
            } catch (const std::exception &e) {
                return QString::fromStdString(e.what());
            }
        },
        this,
        [this, key](CodeOutcome outcome) {
            --m_pending;
            if (auto *code = std::get_if<GeneratedCodeList>(&outcome))
                emit codeReady(key, *code);
            else
                emit codeFailed(key, std::get<QString>(outcome));
        });
    return true;
}

} // namespace clscope::ui
