// How a DeviceWorker job's progress and result reach its receiver: a Delivery is shared by the job (on the
// worker thread) and a DeliveryBox, a child QObject of the receiver (so it lives on the receiver's thread
// and dies with it). The worker puts what is to be delivered into the Delivery under its mutex and, still
// under it, posts one queued call to the box; the box takes everything under the same mutex. The mutex is
// the hand-over (ThreadSanitizer sees it, unlike Qt's event queue), and it keeps the box alive while the
// worker posts to it: the box's destructor clears its pointer under the same lock.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace clscope::ui {

class DeliveryBox;

struct ProgressReport
{
    double fraction = 0; // 0..1, or negative when the work cannot say how far it is
    QString text;
};

class Delivery
{
public:
    using ProgressFn = std::function<void(double fraction, const QString &text)>;

    // latest: the tag's newest generation; the job is current while it equals generation.
    Delivery(std::shared_ptr<const std::atomic<quint64>> latest, quint64 generation, ProgressFn onProgress);

    bool isCurrent() const { return m_latest->load(std::memory_order_acquire) == m_generation; }

    // Worker side. A newer report replaces one not yet delivered (the receiver sees the latest).
    void reportProgress(double fraction, const QString &text);
    // The last delivery: finish runs on the receiver's thread (and should call done only while the job is
    // current); an empty one just retires the box. Later calls are ignored.
    void finish(std::function<void()> finish);

private:
    friend class DeliveryBox;
    void postLocked();

    std::mutex m_mutex;
    DeliveryBox *m_box = nullptr;
    bool m_posted = false;
    bool m_finished = false;
    std::optional<ProgressReport> m_progress;
    std::function<void()> m_finish;

    const std::shared_ptr<const std::atomic<quint64>> m_latest;
    const quint64 m_generation;
    const ProgressFn m_onProgress; // called on the receiver's thread only
};

// Lives on the receiver's thread as its child; deletes itself after the last delivery.
class DeliveryBox : public QObject
{
    Q_OBJECT
public:
    DeliveryBox(std::shared_ptr<Delivery> delivery, QObject *receiver);
    ~DeliveryBox() override;

    // Invoked by name (queued): no functor of ours travels through Qt's event queue.
    Q_INVOKABLE void deliver();

private:
    std::shared_ptr<Delivery> m_delivery;
};

} // namespace clscope::ui
