// Tags shared by every worker (see jobtag.h). The generation is bumped under the tag's mutex, the same
// mutex under which a worker enlists a job, so a job is either enlisted before a newer request (and then
// its token is set by it) or sees at once that its group is stale.
#include "jobtag.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace clscope::ui {

struct JobTag::State
{
    explicit State(const QString &n)
        : name(n)
    {}

    const QString name;
    std::atomic<quint64> latest{0};
    std::mutex mutex;
    std::vector<std::weak_ptr<std::atomic<bool>>> cancels; // of the current request's jobs
    std::vector<std::weak_ptr<JobQueue>> queues;           // the workers its jobs were queued on

    quint64 supersede()
    {
        std::vector<std::weak_ptr<JobQueue>> toDrop;
        quint64 generation = 0;
        {
            const std::lock_guard lock(mutex);
            generation = latest.fetch_add(1, std::memory_order_acq_rel) + 1;
            setCancelsLocked();
            cancels.clear();
            toDrop = std::exchange(queues, {});
        }
        // Outside the tag's mutex: a worker takes its own lock first, then the tag's (in enlist).
        for (const auto &weak : toDrop) {
            if (const auto queue = weak.lock())
                queue->dropSuperseded();
        }
        return generation;
    }

    void setCancelsLocked()
    {
        for (const auto &weak : cancels) {
            if (const auto flag = weak.lock())
                flag->store(true, std::memory_order_release);
        }
    }
};

JobTag::JobTag(const QString &name)
    : m_state(std::make_shared<State>(name))
{}

QString JobTag::name() const
{
    return m_state->name;
}

JobGroup JobTag::newGroup() const
{
    return JobGroup(m_state, m_state->supersede());
}

void JobTag::cancel() const
{
    const std::lock_guard lock(m_state->mutex);
    m_state->setCancelsLocked();
}

void JobTag::discard() const
{
    m_state->supersede(); // a generation that no group has
}

bool JobTag::isCurrent(quint64 generation) const
{
    return m_state->latest.load(std::memory_order_acquire) == generation;
}

JobGroup::JobGroup(std::shared_ptr<JobTag::State> tag, quint64 generation)
    : m_tag(std::move(tag))
    , m_generation(generation)
{}

bool JobGroup::isCurrent() const
{
    return m_tag->latest.load(std::memory_order_acquire) == m_generation;
}

QString JobGroup::name() const
{
    return m_tag->name;
}

std::shared_ptr<const std::atomic<quint64>> JobGroup::latest() const
{
    return {m_tag, &m_tag->latest}; // keeps the tag's state alive as long as a delivery asks
}

std::shared_ptr<std::atomic<bool>> JobGroup::enlist(const std::weak_ptr<JobQueue> &queue) const
{
    JobTag::State &t = *m_tag;
    const std::lock_guard lock(t.mutex);
    const bool current = t.latest.load(std::memory_order_acquire) == m_generation;
    auto flag = std::make_shared<std::atomic<bool>>(!current);
    if (!current)
        return flag; // the job will not run: its worker skips it
    std::erase_if(t.cancels, [](const auto &weak) { return weak.expired(); });
    t.cancels.push_back(flag);
    const auto known = std::find_if(t.queues.begin(), t.queues.end(), [&](const auto &q) {
        return !q.owner_before(queue) && !queue.owner_before(q);
    });
    if (known == t.queues.end())
        t.queues.push_back(queue);
    return flag;
}

} // namespace clscope::ui
