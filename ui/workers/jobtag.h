// The tag of a DeviceWorker job, shared by every worker: a controller owns one JobTag per kind of request
// (its runs, its builds) and submits with it on whatever device's worker the request goes to. A newer
// request with the tag supersedes the older ones wherever they are: a queued job is dropped (it never
// runs), a running job's token turns true, and no result or progress of them is delivered (a result is
// destroyed on its worker). So a run on device B also ends the run still going on device A, and the
// controller needs no counter of its own to ignore late results.
//
// A request that runs several jobs at once (a run on every device, a build per matrix cell) takes a
// JobGroup from newGroup(): jobs submitted with the same group belong together and do not supersede each
// other; the next newGroup() (or discard()) supersedes the whole group. A group is also the controller's
// test of whether a later step of the request (a child process it waits for) still belongs to it.
#pragma once

#include <QString>

#include <atomic>
#include <memory>

namespace clscope::ui {

class JobGroup;

// What a tag asks of a worker that has its jobs queued: drop the queued jobs that are no longer current.
class JobQueue
{
public:
    virtual void dropSuperseded() = 0;

protected:
    ~JobQueue() = default;
};

class JobTag
{
public:
    // name: for messages (a job that throws is reported with it).
    explicit JobTag(const QString &name);

    QString name() const;

    // A new request: every job of the tag so far, on every worker, is superseded. Jobs submitted with the
    // returned group join the request.
    JobGroup newGroup() const;
    // Asks the current request's jobs to stop (their tokens turn true; a queued one runs with its token
    // set); their results are still delivered, so the receiver learns how far they got.
    void cancel() const;
    // cancel(), and nothing of the tag's jobs so far is delivered (a queued one never runs).
    void discard() const;
    // Whether generation (a submit's) is the newest request of the tag, and the tag was not discarded since.
    bool isCurrent(quint64 generation) const;

private:
    friend class JobGroup;
    struct State;
    std::shared_ptr<State> m_state;
};

// One request's jobs under a tag (see JobTag::newGroup).
class JobGroup
{
public:
    // Whether no newer request of the tag was made and the tag was not discarded since this group.
    bool isCurrent() const;
    // The tag's newest generation, and this group's: a job delivers while the two are equal.
    std::shared_ptr<const std::atomic<quint64>> latest() const;
    quint64 generation() const { return m_generation; }
    QString name() const; // the tag's
    // Records a job of the group queued on a worker; returns the job's cancel flag (already true when
    // the group is no longer current). Called by DeviceWorker, under the worker's own lock.
    std::shared_ptr<std::atomic<bool>> enlist(const std::weak_ptr<JobQueue> &queue) const;

private:
    friend class JobTag;
    JobGroup(std::shared_ptr<JobTag::State> tag, quint64 generation);

    std::shared_ptr<JobTag::State> m_tag;
    quint64 m_generation = 0;
};

} // namespace clscope::ui
