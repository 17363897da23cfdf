// The benchmark runner behind the Benchmarks page (see benchmarkrunner.h): one job per kind on the
// device's worker.
#include "benchmarkrunner.h"

#include "workers/deviceworkers.h"

#include <algorithm>
#include <exception>
#include <optional>

namespace clscope::ui {

namespace {
const QString kBenchTag = QStringLiteral("bench");

struct KindOutcome
{
    enum Kind { Done, Cancelled, Failed } kind = Failed;
    std::optional<BenchDocument> described; // the device's description, with the first kind
    BenchResult result;
    QString error;
};
} // namespace

BenchmarkRunner::BenchmarkRunner(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
{
    qRegisterMetaType<clscope::BenchResult>();
    qRegisterMetaType<clscope::BenchDocument>();
}

BenchmarkRunner::~BenchmarkRunner()
{
    if (m_running && m_worker)
        m_worker->discard(kBenchTag);
}

bool BenchmarkRunner::start(cl_device_id device, const QStringList &kinds, clscope::BenchEffort effort)
{
    if (m_running || !device || kinds.isEmpty())
        return false;
    std::vector<std::string> names;
    try {
        for (const QString &k : kinds) {
            for (const std::string &expanded : expandBenchKind(k.toStdString()))
                names.push_back(expanded);
        }
    } catch (const std::invalid_argument &) {
        return false;
    }
    m_running = true;
    m_cancelled = false;
    m_device = device;
    m_worker = &m_workers->forDevice(device);
    m_kinds = std::move(names);
    m_effort = effort;
    m_doc = BenchDocument{};

    QStringList expanded;
    for (const std::string &n : m_kinds)
        expanded << QString::fromStdString(n);
    emit started(expanded);
    emit progressChanged(0, tr("Starting"));
    runKind(0);
    return true;
}

void BenchmarkRunner::runKind(std::size_t index)
{
    const double count = double(m_kinds.size());
    auto lastPermille = std::make_shared<int>(-1);
    m_worker->submit<KindOutcome>(
        kBenchTag,
        [device = m_device, kind = m_kinds[index], effort = m_effort,
         first = index == 0](const CancelToken &cancel, const Progress &progress) {
            KindOutcome out;
            DeviceBenchOptions options;
            options.effort = effort;
            options.cancelled = [cancel] { return cancel.isCancelled(); };
            options.progress = [&progress](double fraction, const std::string &stage) {
                progress.report(std::clamp(fraction, 0.0, 1.0), QString::fromStdString(stage));
            };
            try {
                if (first)
                    out.described = describeBenchDevice(device);
                out.result = runBenchKind(kind, device, options);
                out.kind = KindOutcome::Done;
            } catch (const BenchCancelled &) {
                out.kind = KindOutcome::Cancelled;
            } catch (const std::exception &e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        this,
        [this, index](KindOutcome outcome) {
            if (outcome.described)
                m_doc = std::move(*outcome.described);
            if (outcome.kind == KindOutcome::Failed) {
                end();
                emit failed(outcome.error);
                return;
            }
            if (outcome.kind == KindOutcome::Done) {
                m_doc.results.push_back(outcome.result);
                emit kindFinished(outcome.result);
            }
            if (outcome.kind == KindOutcome::Cancelled || m_cancelled) {
                end();
                emit cancelled(m_doc);
                return;
            }
            if (index + 1 < m_kinds.size()) {
                runKind(index + 1);
                return;
            }
            end();
            emit progressChanged(1000, tr("Done"));
            emit finished(m_doc);
        },
        [this, index, count, lastPermille](double fraction, const QString &stage) {
            const int permille = int((double(index) + fraction) / count * 1000.0);
            if (permille == *lastPermille && fraction < 1.0)
                return; // a step that moved nothing visible is not worth a signal
            *lastPermille = permille;
            emit progressChanged(permille, stage);
        });
}

void BenchmarkRunner::end()
{
    m_running = false;
    m_cancelled = false;
}

void BenchmarkRunner::cancel()
{
    if (!m_running || !m_worker)
        return;
    m_cancelled = true;
    m_worker->cancel(kBenchTag);
}

} // namespace clscope::ui
