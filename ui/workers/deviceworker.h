// One thread that does the blocking OpenCL work of one device (or, for the registry's device-less worker,
// work that has no device), one job at a time and in the order submitted, in the manner of RenderDoc's
// replay thread and hotspot's job tracker:
// - submit(tag, work, receiver, done): the tag is a JobTag (jobtag.h), shared by every worker, so a newer
//   request with it supersedes the older ones on any worker: a queued one is dropped (it never runs), a
//   running one's token turns true and its result is dropped. submit(group, ...) joins one request's
//   group instead (jobs that belong together); submit(name, ...) uses a tag of this worker alone, for
//   work that only ever goes to one worker or must not supersede the same work on other devices;
// - work(CancelToken, Progress) polls the token between steps and reports progress;
// - done(result), and the progress function, run on the receiver's thread, only while the receiver lives
//   and only while no newer request with that tag was made (generation ids, never killed threads); a
//   result that is not delivered is destroyed on the worker (it may hold OpenCL objects);
// - post(fn) runs fn on the thread and is never dropped (releasing OpenCL objects: see releaser()).
// Shutting down cancels what is queued, lets the running job see its token, runs the posted releases,
// and waits a bounded time: a driver call that never returns is left behind (detached, with a line on
// stderr), so that the application can still exit.
#pragma once

#include "canceltoken.h"
#include "delivery.h"
#include "jobtag.h"
#include "progress.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace clscope::ui {

class DeviceWorker
{
public:
    using Release = std::function<void(std::function<void()> release)>;

    explicit DeviceWorker(const QString &name);
    // shutdown() with the default wait.
    ~DeviceWorker();
    DeviceWorker(const DeviceWorker &) = delete;
    DeviceWorker &operator=(const DeviceWorker &) = delete;

    static constexpr std::chrono::milliseconds kShutdownWait{3000};

    QString name() const;

    // Runs work on the worker thread, then done(result) on receiver's thread (call it from that thread)
    // if the receiver still exists and no newer request with the tag was made; progress(fraction, text)
    // likewise, while the work runs. A null receiver runs the work and delivers nothing. Returns the
    // request's generation; 0 when the worker is shut down (nothing runs then).
    template<typename R>
    quint64 submit(const JobTag &tag, std::function<R(const CancelToken &, const Progress &)> work,
                   QObject *receiver, std::function<void(R)> done,
                   std::function<void(double, const QString &)> progress = {})
    {
        return submit<R>(tag.newGroup(), std::move(work), receiver, std::move(done), std::move(progress));
    }
    // The same, as one more job of a request's group: it supersedes nothing.
    template<typename R>
    quint64 submit(const JobGroup &group, std::function<R(const CancelToken &, const Progress &)> work,
                   QObject *receiver, std::function<void(R)> done,
                   std::function<void(double, const QString &)> progress = {})
    {
        return submitJob(
            group,
            [work = std::move(work), done = std::move(done),
             release = releaser()](const CancelToken &cancel, const Progress &report,
                                   const std::shared_ptr<Delivery> &delivery) mutable {
                R result = work(cancel, report);
                if (!delivery->isCurrent())
                    return; // dropped: the result dies here, on the worker
                delivery->finish([delivery = delivery.get(), done = std::move(done),
                                  release = std::move(release), result = std::move(result)]() mutable {
                    if (delivery->isCurrent() && done) {
                        done(std::move(result));
                        return;
                    }
                    // Superseded on the way: what it holds (OpenCL objects) goes back to be destroyed.
                    release([dropped = std::make_shared<R>(std::move(result))] {});
                });
            },
            receiver, std::move(progress));
    }
    // The same with a tag of this worker's own, named: a newer request of the name on this worker
    // supersedes the older ones here only.
    template<typename R>
    quint64 submit(const QString &tag, std::function<R(const CancelToken &, const Progress &)> work,
                   QObject *receiver, std::function<void(R)> done,
                   std::function<void(double, const QString &)> progress = {})
    {
        return submit<R>(localTag(tag), std::move(work), receiver, std::move(done), std::move(progress));
    }

    // JobTag::cancel() and JobTag::discard() of this worker's tag of that name.
    void cancel(const QString &tag);
    void discard(const QString &tag);
    // Whether generation is the newest request of this worker's tag (and not discarded).
    bool isCurrent(const QString &tag, quint64 generation) const;

    // Runs fn on the worker thread, after the jobs queued before it; never dropped, also not at shutdown.
    // Once the worker has shut down, fn runs at once on the caller's thread.
    void post(std::function<void()> fn);
    // post() as a value that may outlive the worker (BuildRequest::releaseOn takes it).
    Release releaser() const;

    // Cancels queued jobs, sets the running job's token, runs the posted functions and waits up to
    // timeout for the thread to end. False when the thread had to be left behind (it still runs a call
    // that did not return). Later submits run nothing. beginShutdown() alone does the first part (the
    // registry starts every worker's shutdown before it waits for any).
    bool shutdown(std::chrono::milliseconds timeout = kShutdownWait);
    void beginShutdown();

private:
    using Job = std::function<void(const CancelToken &, const Progress &, const std::shared_ptr<Delivery> &)>;
    quint64 submitJob(const JobGroup &group, Job job, QObject *receiver,
                      std::function<void(double, const QString &)> progress);
    JobTag localTag(const QString &name);

    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace clscope::ui
