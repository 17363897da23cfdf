// Runs OpenCL work off the GUI thread, one job at a time (drivers serialize anyway), in the manner of
// RenderDoc's replay thread: requests carry a tag, a queued request is dropped when a newer one with the
// same tag arrives, and a result is delivered on the GUI thread only if its receiver still exists and no
// newer request with its tag has been made (generation ids, never killed threads).
#pragma once

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace clscope::ui {

class WorkQueue : public QObject
{
    Q_OBJECT
public:
    explicit WorkQueue(QObject *parent = nullptr);
    ~WorkQueue() override;

    // Runs work() on the worker thread, then done(result) on receiver's thread if the job is still the
    // newest of its tag. Returns the job's generation.
    template<typename R>
    quint64 submit(const QString &tag, std::function<R()> work, QObject *receiver,
                   std::function<void(R)> done)
    {
        const quint64 generation = ++m_generations[tag];
        auto latest = latestCounter(tag);
        latest->store(generation);
        auto *watcher = new QFutureWatcher<std::optional<R>>(receiver);
        QPointer<QObject> guard(receiver);
        connect(watcher, &QFutureWatcher<std::optional<R>>::finished, receiver,
                [watcher, guard, latest, generation, done = std::move(done)] {
                    watcher->deleteLater();
                    std::optional<R> result = watcher->result();
                    if (!guard || !result || latest->load() != generation)
                        return; // receiver gone, job skipped, or a newer request with this tag exists
                    done(std::move(*result));
                });
        watcher->setFuture(
            QtConcurrent::run(m_pool, [latest, generation, work = std::move(work)]() -> std::optional<R> {
                if (latest->load() != generation)
                    return std::nullopt; // superseded while it waited in the queue
                return work();
            }));
        return generation;
    }

    // Makes every pending and running job of the tag stale: their results are dropped.
    void cancel(const QString &tag);
    bool isCurrent(const QString &tag, quint64 generation) const;

private:
    std::shared_ptr<std::atomic<quint64>> latestCounter(const QString &tag);

    QThreadPool *m_pool;
    QHash<QString, quint64> m_generations;
    QHash<QString, std::shared_ptr<std::atomic<quint64>>> m_latest;
};

} // namespace clscope::ui
