// How a DeviceWorker job's progress and result reach its receiver: a Delivery is shared by the job (on the
// worker thread) and a DeliveryBox, a child QObject of the receiver (so it lives on the receiver's thread
// and dies with it). The worker puts what is to be delivered into the Delivery under its mutex and, still
// under it, posts the Delivery to the receiving thread's Mailbox; there the Delivery takes everything
// under the same mutex. The mutexes are the hand-over (ThreadSanitizer sees them, unlike Qt's event
// queue), and the box's destructor clears the Delivery's pointer to it under the same lock, so nothing is
// delivered once the receiver is gone.
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
class Mailbox;

struct ProgressReport
{
    double fraction = 0; // 0..1, or negative when the work cannot say how far it is
    QString text;
};

class Delivery : public std::enable_shared_from_this<Delivery>
{
public:
    using ProgressFn = std::function<void(double fraction, const QString &text)>;

    // latest: the tag's newest generation (JobGroup::latest); the job is current while it equals
    // generation.
    // mailbox: the receiving thread's.
    Delivery(std::shared_ptr<Mailbox> mailbox, std::shared_ptr<const std::atomic<quint64>> latest,
             quint64 generation, ProgressFn onProgress);

    bool isCurrent() const
    {
        return !m_dropped.load(std::memory_order_acquire) &&
               m_latest->load(std::memory_order_acquire) == m_generation;
    }
    // Nothing of this job is delivered any more (its worker shuts down), whatever its tag does.
    void drop() { m_dropped.store(true, std::memory_order_release); }

    // Worker side. A newer report replaces one not yet delivered (the receiver sees the latest).
    void reportProgress(double fraction, const QString &text);
    // The last delivery: finish runs on the receiver's thread (and should call done only while the job is
    // current); an empty one just retires the box. Later calls are ignored.
    void finish(std::function<void()> finish);

    // Receiver side, called by the mailbox: the latest progress, then the result, while the box lives.
    void deliver();

private:
    friend class DeliveryBox;
    void postLocked();

    const std::shared_ptr<Mailbox> m_mailbox;
    std::mutex m_mutex;
    DeliveryBox *m_box = nullptr;
    bool m_posted = false;
    bool m_finished = false;
    std::optional<ProgressReport> m_progress;
    std::function<void()> m_finish;

    const std::shared_ptr<const std::atomic<quint64>> m_latest;
    const quint64 m_generation;
    std::atomic<bool> m_dropped{false};
    const ProgressFn m_onProgress; // called on the receiver's thread only
};

// Lives on the receiver's thread as its child (so it tells the Delivery when the receiver is gone) and
// keeps the Delivery alive; deleted after the last delivery.
class DeliveryBox : public QObject
{
    Q_OBJECT
public:
    DeliveryBox(std::shared_ptr<Delivery> delivery, QObject *receiver);
    ~DeliveryBox() override;

private:
    std::shared_ptr<Delivery> m_delivery;
};

} // namespace clscope::ui
