// The hand-over of a job's progress and result to its receiver's thread (see delivery.h).
#include "delivery.h"

#include "mailbox.h"
#include "progress.h"

#include <QPointer>

namespace clscope::ui {

Delivery::Delivery(std::shared_ptr<Mailbox> mailbox, std::shared_ptr<const std::atomic<quint64>> latest,
                   quint64 generation, ProgressFn onProgress)
    : m_mailbox(std::move(mailbox))
    , m_latest(std::move(latest))
    , m_generation(generation)
    , m_onProgress(std::move(onProgress))
{}

void Delivery::postLocked()
{
    if (!m_box || m_posted)
        return;
    m_posted = true;
    m_mailbox->post(weak_from_this());
}

void Delivery::reportProgress(double fraction, const QString &text)
{
    const std::lock_guard lock(m_mutex);
    if (m_finished || !m_onProgress)
        return;
    m_progress = ProgressReport{fraction, text};
    postLocked();
}

void Delivery::finish(std::function<void()> finish)
{
    const std::lock_guard lock(m_mutex);
    if (m_finished)
        return;
    m_finished = true;
    m_finish = finish ? std::move(finish) : [] {};
    postLocked();
}

DeliveryBox::DeliveryBox(std::shared_ptr<Delivery> delivery, QObject *receiver)
    : QObject(receiver)
    , m_delivery(std::move(delivery))
{
    const std::lock_guard lock(m_delivery->m_mutex);
    m_delivery->m_box = this;
}

DeliveryBox::~DeliveryBox()
{
    const std::lock_guard lock(m_delivery->m_mutex);
    if (m_delivery->m_box == this)
        m_delivery->m_box = nullptr; // the receiver went first: the worker posts nothing more here
}

void Delivery::deliver()
{
    std::optional<ProgressReport> progress;
    std::function<void()> finish;
    DeliveryBox *box = nullptr;
    {
        const std::lock_guard lock(m_mutex);
        m_posted = false;
        box = m_box;
        if (!box)
            return; // the receiver is gone
        progress = std::exchange(m_progress, std::nullopt);
        finish = std::exchange(m_finish, nullptr);
        if (finish)
            m_box = nullptr; // nothing more comes: the box retires
    }
    // The callbacks below may delete the box (with its receiver); the box holds this Delivery, so keep it.
    const auto self = shared_from_this();
    const QPointer<DeliveryBox> alive(box);
    if (progress && isCurrent())
        m_onProgress(progress->fraction, progress->text);
    if (!finish || !alive)
        return; // a progress callback that deleted the receiver ends the delivery there
    finish();
    if (alive)
        alive->deleteLater();
}

void Progress::report(double fraction, const QString &text) const
{
    if (m_delivery)
        m_delivery->reportProgress(fraction, text);
}

} // namespace clscope::ui
