// The benchmark worker behind the Benchmarks page (see benchmarkrunner.h).
#include "benchmarkrunner.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <QThreadPool>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace clscope::ui {

BenchmarkRunner::BenchmarkRunner(QObject *parent)
    : QObject(parent)
    , m_pool(new QThreadPool(this))
{
    m_pool->setMaxThreadCount(1);
    qRegisterMetaType<clscope::BenchResult>();
    qRegisterMetaType<clscope::BenchDocument>();
}

BenchmarkRunner::~BenchmarkRunner()
{
    if (m_shared) {
        const std::lock_guard lock(m_shared->mutex);
        m_shared->owner = nullptr;
        m_shared->cancel = true;
    }
    // Steps are short; only a kernel in flight can hold the thread, and that must not hold the exit.
    if (!m_pool->waitForDone(5000))
        m_pool->setParent(nullptr); // leaked on purpose: its thread still runs a driver call
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
    m_shared = std::make_shared<Shared>();
    m_shared->owner = this;
    const quint64 generation = ++m_generation;
    const auto shared = m_shared;
    // Everything the thread reports comes back through here, on this object's thread, and only while the
    // run is the newest.
    const auto post = [shared, generation](auto &&deliver) {
        const std::lock_guard lock(shared->mutex);
        if (!shared->owner)
            return;
        BenchmarkRunner *owner = shared->owner;
        QMetaObject::invokeMethod(
            owner,
            [owner, generation, deliver = std::forward<decltype(deliver)>(deliver)] {
                if (owner->m_generation == generation)
                    deliver(*owner);
            },
            Qt::QueuedConnection);
    };

    QStringList expanded;
    for (const std::string &n : names)
        expanded << QString::fromStdString(n);
    emit started(expanded);
    emit progressChanged(0, tr("Starting"));

    (void)QtConcurrent::run(m_pool, [device, names, effort, shared, post] {
        BenchDocument doc;
        DeviceBenchOptions options;
        options.effort = effort;
        options.cancelled = [shared] { return shared->cancel.load(); };
        int lastPermille = -1;
        try {
            doc = describeBenchDevice(device);
            const double count = double(names.size());
            for (std::size_t i = 0; i < names.size(); ++i) {
                options.progress = [&, i](double fraction, const std::string &stage) {
                    const int permille = int((double(i) + std::clamp(fraction, 0.0, 1.0)) / count * 1000.0);
                    if (permille == lastPermille && fraction < 1.0)
                        return; // a step that moved nothing visible is not worth a signal
                    lastPermille = permille;
                    post([permille, stage = QString::fromStdString(stage)](BenchmarkRunner &r) {
                        emit r.progressChanged(permille, stage);
                    });
                };
                BenchResult result = runBenchKind(names[i], device, options);
                doc.results.push_back(result);
                post([result = std::move(result)](BenchmarkRunner &r) { emit r.kindFinished(result); });
            }
            post([doc](BenchmarkRunner &r) {
                r.m_running = false;
                emit r.progressChanged(1000, tr("Done"));
                emit r.finished(doc);
            });
        } catch (const BenchCancelled &) {
            post([doc](BenchmarkRunner &r) {
                r.m_running = false;
                emit r.cancelled(doc);
            });
        } catch (const std::exception &e) {
            post([message = QString::fromStdString(e.what())](BenchmarkRunner &r) {
                r.m_running = false;
                emit r.failed(message);
            });
        }
    });
    return true;
}

void BenchmarkRunner::cancel()
{
    if (m_running && m_shared)
        m_shared->cancel = true;
}

} // namespace clscope::ui
