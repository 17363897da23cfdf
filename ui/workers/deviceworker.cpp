// The worker thread behind DeviceWorker: a queue under a mutex, one std::thread (ThreadSanitizer sees
// every hand-over), deliveries through Delivery.
#include "deviceworker.h"

#include "mailbox.h"

#include <QThread>

#include <pthread.h>

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

namespace clscope::ui {

namespace {
struct TaggedJob
{
    QString tag; // the tag's name, for messages
    std::function<void(const CancelToken &, const Progress &, const std::shared_ptr<Delivery> &)> run;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::shared_ptr<Delivery> delivery;
};
using Posted = std::function<void()>;
using Item = std::variant<TaggedJob, Posted>;
} // namespace

struct DeviceWorker::State : JobQueue
{
    QString name;
    mutable std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable ended;
    std::deque<Item> queue;
    std::map<QString, JobTag> tags; // this worker's own, by name
    // The job the thread runs now: shutdown sets its token and drops its delivery.
    std::shared_ptr<std::atomic<bool>> runningCancel;
    std::shared_ptr<Delivery> runningDelivery;
    bool stopping = false;
    bool finished = false; // the thread left its loop
    bool joined = false;   // joined or left behind
    std::thread thread;

    void loop();
    // A newer request of a tag was made: its jobs queued here go (they never run).
    void dropSuperseded() override;
};

void DeviceWorker::State::dropSuperseded()
{
    const std::lock_guard lock(mutex);
    std::vector<Item> dropped;
    for (auto it = queue.begin(); it != queue.end();) {
        auto *queued = std::get_if<TaggedJob>(&*it);
        if (queued && !queued->delivery->isCurrent()) {
            dropped.push_back(std::move(*it));
            it = queue.erase(it);
        } else {
            ++it;
        }
    }
    for (Item &item : dropped) {
        std::get<TaggedJob>(item).delivery->finish({}); // retires its box
        // What the dropped job holds (a request with OpenCL objects) is destroyed on the worker too.
        queue.emplace_back(Posted([held = std::make_shared<Item>(std::move(item))] {}));
    }
    if (!dropped.empty())
        wake.notify_one();
}

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
        if (auto *job = std::get_if<TaggedJob>(&item)) {
            runningCancel = job->cancel;
            runningDelivery = job->delivery;
        }
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
            lock.lock();
            runningCancel.reset();
            runningDelivery.reset();
            lock.unlock();
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

quint64 DeviceWorker::submitJob(const JobGroup &group, Job run, QObject *receiver,
                                std::function<void(double, const QString &)> progress)
{
    // The box becomes the receiver's child: that is only allowed on the receiver's thread.
    Q_ASSERT_X(!receiver || receiver->thread() == QThread::currentThread(), "DeviceWorker::submit",
               "call submit on the receiver's thread");
    {
        const std::lock_guard lock(m_state->mutex);
        if (m_state->stopping)
            return 0;
        auto delivery = std::make_shared<Delivery>(receiver ? Mailbox::forCurrentThread() : nullptr,
                                                   group.latest(), group.generation(), std::move(progress));
        if (receiver)
            new DeliveryBox(delivery, receiver); // a child of the receiver: dies with it
        // Enlisted under this worker's lock: a newer request of the tag then finds the job queued here.
        std::shared_ptr<std::atomic<bool>> cancel = group.enlist(m_state);
        m_state->queue.push_back(TaggedJob{group.name(), std::move(run), std::move(cancel), delivery});
    }
    m_state->wake.notify_one();
    return group.generation();
}

JobTag DeviceWorker::localTag(const QString &name)
{
    const std::lock_guard lock(m_state->mutex);
    return m_state->tags.try_emplace(name, name).first->second;
}

void DeviceWorker::cancel(const QString &tag)
{
    localTag(tag).cancel();
}

void DeviceWorker::discard(const QString &tag)
{
    localTag(tag).discard();
}

bool DeviceWorker::isCurrent(const QString &tag, quint64 generation) const
{
    std::optional<JobTag> found;
    {
        const std::lock_guard lock(m_state->mutex);
        const auto it = m_state->tags.find(tag);
        if (it == m_state->tags.end())
            return false;
        found = it->second;
    }
    return generation != 0 && found->isCurrent(generation);
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
        // The running job may stop early, and nothing more of it is delivered; its tag is left alone
        // (other workers' jobs of it go on).
        if (m_state->runningCancel)
            m_state->runningCancel->store(true, std::memory_order_release);
        if (m_state->runningDelivery)
            m_state->runningDelivery->drop();
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
