// The hand-over of a job's progress and result to its receiver's thread (see delivery.h).
#include "delivery.h"

#include "progress.h"

#include <QMetaObject>
#include <QPointer>

namespace clscope::ui {

Delivery::Delivery(std::shared_ptr<const std::atomic<quint64>> latest, quint64 generation,
                   ProgressFn onProgress)
    : m_latest(std::move(latest))
    , m_generation(generation)
    , m_onProgress(std::move(onProgress))
{}

void Delivery::postLocked()
{
    if (!m_box || m_posted)
        return;
    m_posted = true;
    QMetaObject::invokeMethod(m_box, "deliver", Qt::QueuedConnection);
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

void DeliveryBox::deliver()
{
    const auto delivery = m_delivery; // the callbacks below may delete this box (with its receiver)
    std::optional<ProgressReport> progress;
    std::function<void()> finish;
    {
        const std::lock_guard lock(delivery->m_mutex);
        delivery->m_posted = false;
        progress = std::exchange(delivery->m_progress, std::nullopt);
        finish = std::exchange(delivery->m_finish, nullptr);
        if (finish)
            delivery->m_box = nullptr; // nothing more comes: the box retires
    }
    const QPointer<DeliveryBox> self(this);
    if (progress && delivery->isCurrent())
        delivery->m_onProgress(progress->fraction, progress->text);
    if (!finish || !self)
        return; // a progress callback that deleted the receiver ends the delivery there
    finish();
    if (self)
        deleteLater();
}

void Progress::report(double fraction, const QString &text) const
{
    if (m_delivery)
        m_delivery->reportProgress(fraction, text);
}

} // namespace clscope::ui
