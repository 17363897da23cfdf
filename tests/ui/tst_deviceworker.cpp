// Tests of the device workers (ui/workers): jobs of one worker run in order, two devices' workers run at
// the same time, a newer request drops a queued one of its tag and the result of a running one (on any
// worker, for a JobTag; jobs of one group do not supersede each other), the work
// sees its cancel token, progress reaches the receiver while the work runs, a receiver destroyed before
// the result hears nothing (and nothing crashes), and shutdown never waits forever on a stuck job. Qt Core
// only, so it also runs under ThreadSanitizer (the tsan preset).
#include "workers/deviceworker.h"
#include "workers/deviceworkers.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

using namespace clscope::ui;
using namespace std::chrono_literals;

namespace {
// A gate the work waits at (with a bound, so a broken test fails instead of hanging).
class Gate
{
public:
    void open()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_open = true;
        }
        m_cv.notify_all();
    }
    bool wait(std::chrono::milliseconds bound = 10s)
    {
        std::unique_lock lock(m_mutex);
        return m_cv.wait_for(lock, bound, [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_open = false;
};

// What the worker side records, read by the test after a delivery (the delivery orders it).
struct Log
{
    std::mutex mutex;
    std::vector<int> ran;
    std::vector<std::thread::id> threads;
    void add(int v)
    {
        const std::lock_guard lock(mutex);
        ran.push_back(v);
        threads.push_back(std::this_thread::get_id());
    }
    std::vector<int> values()
    {
        const std::lock_guard lock(mutex);
        return ran;
    }
};
} // namespace

class Receiver : public QObject
{
    Q_OBJECT
public:
    QList<int> results;
    QList<QPair<double, QString>> progress;
    void take(int v)
    {
        results << v;
        emit got(v);
    }
signals:
    void got(int value);
    void progressed(double fraction, const QString &text);
};

// Work that says it started, then waits for its token (10 s at most) and records whether it saw it.
struct WaitForCancel
{
    Gate started;
    std::atomic<bool> sawCancel{false};
    std::function<int(const CancelToken &, const Progress &)> work(int value)
    {
        return [this, value](const CancelToken &cancel, const Progress &) {
            started.open();
            QElapsedTimer t;
            t.start();
            while (!cancel.isCancelled() && t.elapsed() < 10000)
                std::this_thread::yield();
            sawCancel = cancel.isCancelled();
            return value;
        };
    }
};

class TestDeviceWorker : public QObject
{
    Q_OBJECT

    using Work = std::function<int(const CancelToken &, const Progress &)>;

    template<typename Tag> static quint64 submit(DeviceWorker &w, const Tag &tag, Work work, Receiver *r)
    {
        return w.submit<int>(tag, std::move(work), r, [r](int v) { r->take(v); });
    }

    static Work returns(int value)
    {
        return [value](const CancelToken &, const Progress &) { return value; };
    }
    // Work that records that it ran.
    static Work logged(Log &log, int value)
    {
        return [&log, value](const CancelToken &, const Progress &) {
            log.add(value);
            return value;
        };
    }
    // A job of a tag of its own that holds the worker until the gate opens (then it returns 0).
    static void block(DeviceWorker &w, Gate &gate, Receiver *r)
    {
        submit(
            w, QStringLiteral("block"),
            [&gate](const CancelToken &, const Progress &) { return gate.wait() ? 0 : -1; }, r);
    }

private slots:
    void jobsRunInOrderOnOneThread()
    {
        DeviceWorker worker(QStringLiteral("order"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Log log;
        for (int i = 0; i < 20; ++i)
            submit(
                worker, QStringLiteral("job%1").arg(i),
                [&log, i](const CancelToken &, const Progress &) {
                    log.add(i);
                    return i;
                },
                &r);
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 20, 10000);
        std::vector<int> expected(20);
        std::iota(expected.begin(), expected.end(), 0);
        QCOMPARE(log.values(), expected);
        QCOMPARE(r.results, QList<int>(expected.begin(), expected.end())); // delivered in the same order
        const std::lock_guard lock(log.mutex);
        for (const auto &id : log.threads) {
            QCOMPARE(id, log.threads.front()); // one thread
            QVERIFY(id != std::this_thread::get_id());
        }
    }

    void twoDevicesRunInParallel()
    {
        DeviceWorkers workers;
        int a = 0, b = 0; // two distinct device ids
        DeviceWorker &wa = workers.forDevice(&a);
        DeviceWorker &wb = workers.forDevice(&b);
        QVERIFY(&wa != &wb);
        QCOMPARE(&workers.forDevice(&a), &wa);
        QVERIFY(&workers.forDevice(nullptr) == &workers.deviceless());
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        // Device A's job waits for device B's: on one shared thread it would time out.
        Gate bRan;
        submit(
            wa, QStringLiteral("x"),
            [&bRan](const CancelToken &, const Progress &) { return bRan.wait(10s) ? 1 : -1; }, &r);
        submit(
            wb, QStringLiteral("x"),
            [&bRan](const CancelToken &, const Progress &) {
                bRan.open();
                return 2;
            },
            &r);
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 15000);
        QVERIFY(r.results.contains(1));
        QVERIFY(r.results.contains(2));
    }

    void newerRequestDropsTheQueuedOne()
    {
        DeviceWorker worker(QStringLiteral("drop"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Gate gate;
        Log log;
        submit(
            worker, QStringLiteral("block"),
            [&](const CancelToken &, const Progress &) {
                gate.wait();
                return 0;
            },
            &r);
        for (int i = 1; i <= 3; ++i)
            submit(
                worker, QStringLiteral("build"),
                [&log, i](const CancelToken &, const Progress &) {
                    log.add(i);
                    return i;
                },
                &r);
        gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 10000);
        QCOMPARE(log.values(), std::vector<int>{3}); // 1 and 2 never ran
        QCOMPARE(r.results, (QList<int>{0, 3}));
    }

    void newerRequestCancelsAndDropsTheRunningOne()
    {
        DeviceWorker worker(QStringLiteral("supersede"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Gate started;
        std::atomic<bool> sawCancel{false};
        const quint64 first = submit(
            worker, QStringLiteral("run"),
            [&](const CancelToken &cancel, const Progress &) {
                started.open();
                QElapsedTimer t;
                t.start();
                while (!cancel.isCancelled() && t.elapsed() < 10000)
                    std::this_thread::yield();
                sawCancel = cancel.isCancelled();
                return 1;
            },
            &r);
        QVERIFY(started.wait());
        const quint64 second = submit(
            worker, QStringLiteral("run"), [](const CancelToken &, const Progress &) { return 2; }, &r);
        QVERIFY(!worker.isCurrent(QStringLiteral("run"), first));
        QVERIFY(worker.isCurrent(QStringLiteral("run"), second));
        QVERIFY(got.wait(10000));
        QCOMPARE(r.results, QList<int>{2}); // the first one's result was dropped
        QVERIFY(sawCancel.load());
    }

    void tagSupersedesARunningJobOnAnotherWorker()
    {
        DeviceWorker a(QStringLiteral("a")), b(QStringLiteral("b"));
        const JobTag tag(QStringLiteral("run"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        WaitForCancel first;
        const quint64 generation = submit(a, tag, first.work(1), &r);
        QVERIFY(first.started.wait());
        submit(b, tag, returns(2), &r);
        QVERIFY(!tag.isCurrent(generation));
        QVERIFY(got.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(first.sawCancel.load(), 10000); // A's job saw its token
        // Whatever A's job returned is dropped: a job after it on A is delivered after it would have been.
        submit(a, QStringLiteral("fence"), returns(9), &r);
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 10000);
        QCOMPARE(r.results, (QList<int>{2, 9}));
    }

    void tagDropsAQueuedJobOnAnotherWorker()
    {
        DeviceWorker a(QStringLiteral("a")), b(QStringLiteral("b"));
        const JobTag tag(QStringLiteral("build"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Log log;
        Gate gate;
        block(a, gate, &r);
        submit(a, tag, logged(log, 1), &r);
        submit(b, tag, returns(2), &r);
        QVERIFY(got.wait(10000));
        QCOMPARE(r.results, QList<int>{2}); // B's ran while A's queued one waited
        gate.open();
        submit(a, QStringLiteral("fence"), returns(9), &r);
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 3, 10000);
        QCOMPARE(r.results, (QList<int>{2, 0, 9}));
        QVERIFY(log.values().empty()); // A's queued job of the tag never ran
    }

    void discardReachesEveryWorker()
    {
        DeviceWorker a(QStringLiteral("a")), b(QStringLiteral("b")), c(QStringLiteral("c"));
        const JobTag tag(QStringLiteral("run-all"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Log log;
        Gate gate;
        // One request on several workers: the group's jobs run side by side, none supersedes another.
        const JobGroup group = tag.newGroup();
        WaitForCancel onA, onB;
        submit(a, group, onA.work(1), &r);
        submit(b, group, onB.work(2), &r);
        block(c, gate, &r);
        submit(c, group, logged(log, 3), &r);
        QVERIFY(onA.started.wait());
        QVERIFY(onB.started.wait());
        QVERIFY(group.isCurrent());
        QVERIFY(!onA.sawCancel.load() && !onB.sawCancel.load());
        tag.discard();
        QVERIFY(!group.isCurrent());
        QTRY_VERIFY_WITH_TIMEOUT(onA.sawCancel.load() && onB.sawCancel.load(), 10000);
        gate.open();
        for (DeviceWorker *w : {&a, &b, &c})
            submit(*w, QStringLiteral("fence"), returns(9), &r);
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 4, 10000);
        QCOMPARE(std::count(r.results.begin(), r.results.end(), 9), 3);
        QVERIFY(r.results.contains(0));
        QVERIFY(log.values().empty()); // C's queued job of the group never ran
    }

    void workerTagsOfOneNameStayOnTheirWorker()
    {
        // A name given to submit is a tag of that worker alone: the same name on another device's worker
        // is another request (replaying a launch on every device), as the tags of every worker once were.
        DeviceWorker a(QStringLiteral("a")), b(QStringLiteral("b"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Gate gate;
        submit(
            a, QStringLiteral("replay"),
            [&gate](const CancelToken &cancel, const Progress &) {
                return gate.wait() && !cancel.isCancelled() ? 1 : -1;
            },
            &r);
        submit(b, QStringLiteral("replay"), returns(2), &r);
        QVERIFY(got.wait(10000));
        gate.open();
        QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 10000);
        QCOMPARE(r.results, (QList<int>{2, 1}));
    }

    void cancelIsSeenAndTheResultStillArrives()
    {
        DeviceWorker worker(QStringLiteral("cancel"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Gate started;
        submit(
            worker, QStringLiteral("bench"),
            [&](const CancelToken &cancel, const Progress &) {
                started.open();
                QElapsedTimer t;
                t.start();
                // Core APIs get the same flag.
                const auto flag = cancel.flag();
                while (!flag->load() && t.elapsed() < 10000)
                    std::this_thread::yield();
                return cancel.isCancelled() ? 42 : -1;
            },
            &r);
        QVERIFY(started.wait());
        worker.cancel(QStringLiteral("bench"));
        QVERIFY(got.wait(10000));
        QCOMPARE(r.results, QList<int>{42});
    }

    void discardDropsTheResult()
    {
        DeviceWorker worker(QStringLiteral("discard"));
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        Gate started;
        std::atomic<bool> sawCancel{false};
        submit(
            worker, QStringLiteral("run"),
            [&](const CancelToken &cancel, const Progress &) {
                started.open();
                QElapsedTimer t;
                t.start();
                while (!cancel.isCancelled() && t.elapsed() < 10000)
                    std::this_thread::yield();
                sawCancel = cancel.isCancelled();
                return 1;
            },
            &r);
        QVERIFY(started.wait());
        worker.discard(QStringLiteral("run"));
        // A later job of another tag is delivered after whatever the discarded one would have delivered.
        submit(
            worker, QStringLiteral("other"), [](const CancelToken &, const Progress &) { return 7; }, &r);
        QVERIFY(got.wait(10000));
        QCOMPARE(r.results, QList<int>{7});
        QVERIFY(sawCancel.load());
    }

    void progressReachesTheReceiverWhileTheWorkRuns()
    {
        DeviceWorker worker(QStringLiteral("progress"));
        Receiver r;
        QSignalSpy progressed(&r, &Receiver::progressed);
        QSignalSpy got(&r, &Receiver::got);
        Gate seen;
        std::thread::id receiverThread;
        worker.submit<int>(
            QStringLiteral("bench"),
            [&seen](const CancelToken &, const Progress &progress) {
                progress.report(0.25, QStringLiteral("a quarter"));
                progress.report(0.5, QStringLiteral("half")); // may replace the first, never precede it
                return seen.wait() ? 1 : -1;                  // until the receiver saw it
            },
            &r, [&r](int v) { r.take(v); },
            [&](double fraction, const QString &text) {
                receiverThread = std::this_thread::get_id();
                r.progress << qMakePair(fraction, text);
                emit r.progressed(fraction, text);
            });
        QTRY_VERIFY_WITH_TIMEOUT(!r.progress.isEmpty() && r.progress.back().first == 0.5, 10000);
        QCOMPARE(got.size(), 0); // the work is still running
        QCOMPARE(r.progress.back().second, QStringLiteral("half"));
        QVERIFY(r.progress.size() <= 2);
        QCOMPARE(receiverThread, std::this_thread::get_id());
        seen.open();
        QVERIFY(got.wait(10000));
        QCOMPARE(r.results, QList<int>{1});
    }

    void receiverDestroyedBeforeTheResult()
    {
        DeviceWorker worker(QStringLiteral("gone"));
        auto *doomed = new Receiver;
        int calls = 0;
        Gate gate;
        worker.submit<int>(
            QStringLiteral("run"),
            [&gate](const CancelToken &, const Progress &progress) {
                gate.wait();
                progress.report(1, QStringLiteral("done"));
                return 1;
            },
            doomed, [&calls](int) { ++calls; }, [&calls](double, const QString &) { ++calls; });
        delete doomed;
        gate.open();
        // A later job's delivery comes after anything the first one could have posted.
        Receiver r;
        QSignalSpy got(&r, &Receiver::got);
        submit(
            worker, QStringLiteral("later"), [](const CancelToken &, const Progress &) { return 2; }, &r);
        QVERIFY(got.wait(10000));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(calls, 0);
    }

    void postedReleasesRunOnTheWorkerAndAtShutdown()
    {
        std::thread::id ranOn;
        Gate gate;
        Gate released;
        {
            DeviceWorker worker(QStringLiteral("release"));
            worker.submit<int>(QStringLiteral("block"),
                               [&gate](const CancelToken &, const Progress &) {
                                   gate.wait();
                                   return 0;
                               },
                               nullptr, {});
            worker.post([&] {
                ranOn = std::this_thread::get_id();
                released.open();
            });
            gate.open();
            QVERIFY(released.wait());
            QVERIFY(ranOn != std::this_thread::get_id());

            // Queued behind a job at shutdown: still runs on the worker before its thread ends.
            Gate second;
            std::thread::id secondOn;
            bool jobRan = false;
            worker.submit<int>(QStringLiteral("block"),
                               [&second](const CancelToken &, const Progress &) {
                                   second.wait(2s);
                                   return 0;
                               },
                               nullptr, {});
            worker.submit<int>(QStringLiteral("dropped"),
                               [&jobRan](const CancelToken &, const Progress &) {
                                   jobRan = true;
                                   return 0;
                               },
                               nullptr, {});
            worker.post([&] { secondOn = std::this_thread::get_id(); });
            second.open();
            QVERIFY(worker.shutdown(10s));
            QVERIFY(secondOn != std::thread::id());
            QVERIFY(secondOn != std::this_thread::get_id());
            Q_UNUSED(jobRan); // may or may not have started before shutdown; either way it is not waited on
            // After shutdown: runs at once, here; submits run nothing.
            bool inline_ = false;
            DeviceWorker::Release release = worker.releaser();
            release([&] { inline_ = true; });
            QVERIFY(inline_);
            QCOMPARE(worker.submit<int>(QStringLiteral("x"),
                                        [](const CancelToken &, const Progress &) { return 0; }, nullptr, {}),
                     quint64(0));
        }
    }

    void shutdownLeavesAStuckJobBehind()
    {
        auto gate = std::make_shared<Gate>();
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        auto ended = std::make_shared<Gate>();
        Gate started;
        std::atomic<bool> queuedRan{false};
        QElapsedTimer timer;
        {
            DeviceWorkers workers(200ms);
            int device = 0;
            DeviceWorker &w = workers.forDevice(&device);
            // A driver call that does not return (until the test lets it, long after shutdown).
            w.submit<int>(QStringLiteral("run"),
                          [gate, sawCancel, ended, &started](const CancelToken &cancel, const Progress &) {
                              started.open();
                              gate->wait(30s);
                              *sawCancel = cancel.isCancelled();
                              ended->open();
                              return 0;
                          },
                          nullptr, {});
            w.submit<int>(QStringLiteral("build"),
                          [&queuedRan](const CancelToken &, const Progress &) {
                              queuedRan = true;
                              return 0;
                          },
                          nullptr, {});
            QVERIFY(started.wait());
            timer.start();
            QVERIFY(!workers.shutdown()); // left behind, with a line on stderr
        }
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!queuedRan.load()); // queued work was cancelled
        gate->open();               // let the abandoned thread finish before the process ends
        QVERIFY(ended->wait());
        QVERIFY(sawCancel->load());
    }
};

QTEST_GUILESS_MAIN(TestDeviceWorker)
#include "tst_deviceworker.moc"
