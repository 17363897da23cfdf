// The worker thread behind DeviceWorker: a queue under a mutex, one std::thread (ThreadSanitizer sees
// every hand-over), deliveries through Delivery.
#include "deviceworker.h"

#include "mailbox.h"

#include <QHash>
#include <QThread>

#include <pthread.h>

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <variant>

namespace clscope::ui {

namespace {
struct TagState
{
    std::shared_ptr<std::atomic<quint64>> latest = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<std::atomic<bool>> cancel; // of the newest job of the tag
};

struct TaggedJob
{
    QString tag;
    std::function<void(const CancelToken &, const Progress &, const std::shared_ptr<Delivery> &)> run;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::shared_ptr<Delivery> delivery;
};
using Posted = std::function<void()>;
using Item = std::variant<TaggedJob, Posted>;
} // namespace

struct DeviceWorker::State
{
    QString name;
    mutable std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable ended;
    std::deque<Item> queue;
    QHash<QString, TagState> tags;
    bool stopping = false;
    bool finished = false; // the thread left its loop
    bool joined = false;   // joined or left behind
    std::thread thread;

    TagState &tag(const QString &t) { return tags[t]; }
    void loop();
};

void DeviceWorker::State::loop()
{
    {
        // 15 characters at most; shows in top -H, gdb and perf.
        const QByteArray thread = "clscope:" + name.toUtf8().left(7);
        pthread_setname_np(pthread_self(), thread.constData());
    }
    std::unique_lock lock(mutex);
    for (;;) {
        wake.wait(lock, [this] { return stopping || !queue.empty(); });
        if (queue.empty())
            break; // stopping, and nothing left to release
        Item item = std::move(queue.front());
        queue.pop_front();
        lock.unlock();
        if (auto *posted = std::get_if<Posted>(&item)) {
            try {
                (*posted)();
            } catch (const std::exception &e) {
                std::fprintf(stderr, "clscope: a release on worker %s failed: %s\n", qPrintable(name),
                             e.what());
            } catch (...) {
                std::fprintf(stderr, "clscope: a release on worker %s failed\n", qPrintable(name));
            }
        } else {
            TaggedJob &job = std::get<TaggedJob>(item);
            if (!job.delivery->isCurrent()) {
                job.delivery->finish({}); // superseded or discarded while it waited: it never runs
            } else {
                try {
                    job.run(CancelToken(job.cancel), Progress(job.delivery), job.delivery);
                } catch (const std::exception &e) {
                    std::fprintf(stderr, "clscope: a %s job on worker %s failed: %s\n", qPrintable(job.tag),
                                 qPrintable(name), e.what());
                } catch (...) {
                    std::fprintf(stderr, "clscope: a %s job on worker %s failed\n", qPrintable(job.tag),
                                 qPrintable(name));
                }
                job.delivery->finish({}); // when the job threw (otherwise the result is already there)
            }
        }
        item = Posted(); // the job's captures go here, on the worker, before the next one starts
        lock.lock();
    }
    finished = true;
    ended.notify_all();
}

DeviceWorker::DeviceWorker(const QString &name)
    : m_state(std::make_shared<State>())
{
    m_state->name = name;
    // The thread shares the state, so one left behind at shutdown still finds it when its call returns.
    m_state->thread = std::thread([state = m_state] { state->loop(); });
}

DeviceWorker::~DeviceWorker()
{
    shutdown();
}

QString DeviceWorker::name() const
{
    return m_state->name;
}

quint64 DeviceWorker::submitJob(const QString &tag, Job run, QObject *receiver,
                                std::function<void(double, const QString &)> progress)
{
    std::shared_ptr<Delivery> delivery;
    // The box becomes the receiver's child: that is only allowed on the receiver's thread.
    Q_ASSERT_X(!receiver || receiver->thread() == QThread::currentThread(), "DeviceWorker::submit",
               "call submit on the receiver's thread");
    std::vector<Item> dropped;
    quint64 generation = 0;
    {
        const std::lock_guard lock(m_state->mutex);
        if (m_state->stopping)
            return 0;
        TagState &t = m_state->tag(tag);
        if (t.cancel)
            t.cancel->store(true, std::memory_order_release); // the running one of the tag may stop early
        generation = t.latest->fetch_add(1, std::memory_order_acq_rel) + 1;
        t.cancel = std::make_shared<std::atomic<bool>>(false);
        for (auto it = m_state->queue.begin(); it != m_state->queue.end();) {
            auto *queued = std::get_if<TaggedJob>(&*it);
            if (queued && queued->tag == tag) {
                dropped.push_back(std::move(*it));
                it = m_state->queue.erase(it);
            } else {
                ++it;
            }
        }
        delivery = std::make_shared<Delivery>(receiver ? Mailbox::forCurrentThread() : nullptr, t.latest,
                                              generation, std::move(progress));
        if (receiver)
            new DeliveryBox(delivery, receiver); // a child of the receiver: dies with it
        m_state->queue.push_back(TaggedJob{tag, std::move(run), t.cancel, delivery});
        for (Item &item : dropped) {
            std::get<TaggedJob>(item).delivery->finish({}); // retires its box
            // What the dropped job holds (a request with OpenCL objects) is destroyed on the worker too.
            m_state->queue.emplace_back(Posted([held = std::make_shared<Item>(std::move(item))] {}));
        }
    }
    m_state->wake.notify_one();
    return generation;
}

void DeviceWorker::cancel(const QString &tag)
{
    const std::lock_guard lock(m_state->mutex);
    const auto it = m_state->tags.constFind(tag);
    if (it != m_state->tags.cend() && it->cancel)
        it->cancel->store(true, std::memory_order_release);
}

void DeviceWorker::discard(const QString &tag)
{
    const std::lock_guard lock(m_state->mutex);
    TagState &t = m_state->tag(tag);
    if (t.cancel)
        t.cancel->store(true, std::memory_order_release);
    t.latest->fetch_add(1, std::memory_order_acq_rel); // no job of the tag so far is current any more
}

bool DeviceWorker::isCurrent(const QString &tag, quint64 generation) const
{
    const std::lock_guard lock(m_state->mutex);
    const auto it = m_state->tags.constFind(tag);
    return generation != 0 && it != m_state->tags.cend() && it->latest->load() == generation;
}

void DeviceWorker::post(std::function<void()> fn)
{
    releaser()(std::move(fn));
}

DeviceWorker::Release DeviceWorker::releaser() const
{
    return [weak = std::weak_ptr<State>(m_state)](std::function<void()> fn) {
        if (const auto state = weak.lock()) {
            std::unique_lock lock(state->mutex);
            if (!state->finished) {
                state->queue.emplace_back(std::move(fn));
                lock.unlock();
                state->wake.notify_one();
                return;
            }
        }
        fn(); // no thread to run it on any more (the application is closing)
    };
}

void DeviceWorker::beginShutdown()
{
    {
        const std::lock_guard lock(m_state->mutex);
        if (m_state->stopping)
            return;
        m_state->stopping = true;
        for (auto &t : m_state->tags) {
            if (t.cancel)
                t.cancel->store(true, std::memory_order_release);
            t.latest->fetch_add(1, std::memory_order_acq_rel); // nothing more is delivered
        }
        std::deque<Item> kept;
        for (Item &item : m_state->queue) {
            if (auto *job = std::get_if<TaggedJob>(&item)) {
                job->delivery->finish({});
                kept.emplace_back(Posted([held = std::make_shared<Item>(std::move(item))] {})); // see submit
            } else {
                kept.push_back(std::move(item));
            }
        }
        m_state->queue = std::move(kept);
    }
    m_state->wake.notify_one();
}

bool DeviceWorker::shutdown(std::chrono::milliseconds timeout)
{
    beginShutdown();
    std::unique_lock lock(m_state->mutex);
    if (m_state->joined)
        return m_state->finished;
    m_state->joined = true;
    const bool ended = m_state->ended.wait_for(lock, timeout, [this] { return m_state->finished; });
    lock.unlock();
    if (ended) {
        m_state->thread.join();
        return true;
    }
    std::fprintf(stderr,
                 "clscope: worker %s is still in a call after %lld ms (a driver that does not return); "
                 "leaving it behind\n",
                 qPrintable(m_state->name), static_cast<long long>(timeout.count()));
    m_state->thread.detach();
    return false;
}

} // namespace clscope::ui
