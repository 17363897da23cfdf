// Sweeps on the device's worker and their results back (see sweepcontroller.h).
#include "sweepcontroller.h"

#include "workers/deviceworkers.h"

#include <atomic>
#include <exception>
#include <variant>

namespace clscope::ui {

namespace {
cl_device_id sweepDevice(const RunRequest &request)
{
    if (request.device)
        return request.device;
    const auto &logs = request.build.logs();
    return logs.empty() ? nullptr : logs.front().id;
}

// The worker's latest count, done in the high half and total in the low: Progress carries a fraction and a
// line, and the receiver wants the two whole numbers back exactly.
quint64 packCounts(std::size_t done, std::size_t total)
{
    return (quint64(done) << 32) | quint64(total & 0xffffffffu);
}
} // namespace

SweepController::SweepController(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
{
    qRegisterMetaType<clscope::SweepResult>();
}

SweepController::~SweepController()
{
    if (m_running)
        m_tag.discard();
}

void SweepController::start(const SweepRequest &request)
{
    DeviceWorker &worker = m_workers->forDevice(sweepDevice(request.run));
    m_running = true;
    auto counts = std::make_shared<std::atomic<quint64>>(0);
    emit started(QString::fromStdString(request.run.kernel));
    emit progressChanged(0, 0);
    worker.submit<std::variant<SweepResult, QString>>(
        m_tag,
        [request, counts](const CancelToken &cancel,
                          const Progress &progress) -> std::variant<SweepResult, QString> {
            SweepOptions options;
            options.cancel = cancel.flag();
            options.progress = [&progress, &counts](std::size_t done, std::size_t total) {
                counts->store(packCounts(done, total), std::memory_order_release);
                progress.report(total ? double(done) / double(total) : -1.0, QString());
            };
            try {
                return sweepLocalSizes(request, options);
            } catch (const std::exception &e) {
                return QString::fromStdString(e.what());
            }
        },
        this,
        [this](std::variant<SweepResult, QString> outcome) {
            m_running = false;
            if (auto *result = std::get_if<SweepResult>(&outcome))
                emit finished(*result);
            else
                emit failed(std::get<QString>(outcome));
        },
        [this, counts](double, const QString &) {
            const quint64 packed = counts->load(std::memory_order_acquire);
            emit progressChanged(int(packed >> 32), int(packed & 0xffffffffu));
        });
}

void SweepController::cancel()
{
    if (m_running)
        m_tag.cancel();
}

} // namespace clscope::ui
