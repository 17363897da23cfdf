// The per-thread mailbox of the device workers' deliveries (see mailbox.h).
#include "mailbox.h"

#include "delivery.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSocketNotifier>
#include <QThread>

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace clscope::ui {

namespace {
// Lives on the receiving thread and owns that thread's mailbox.
class MailboxNotifier : public QSocketNotifier
{
public:
    MailboxNotifier(std::shared_ptr<Mailbox> mailbox, QObject *parent)
        : QSocketNotifier(mailbox->fd(), QSocketNotifier::Read, parent)
        , m_mailbox(std::move(mailbox))
    {
        connect(this, &QSocketNotifier::activated, this, [this] { m_mailbox->drain(); });
    }
    const std::shared_ptr<Mailbox> &mailbox() const { return m_mailbox; }

private:
    std::shared_ptr<Mailbox> m_mailbox;
};

thread_local QPointer<MailboxNotifier> t_notifier;
} // namespace

Mailbox::Mailbox()
    : m_fd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    if (m_fd < 0)
        std::fprintf(stderr, "clscope: cannot make an eventfd for the workers' results: %s\n",
                     std::strerror(errno));
}

Mailbox::~Mailbox()
{
    if (m_fd >= 0)
        close(m_fd);
}

std::shared_ptr<Mailbox> Mailbox::forCurrentThread()
{
    if (!t_notifier) {
        QThread *thread = QThread::currentThread();
        QCoreApplication *app = QCoreApplication::instance();
        const bool main = app && app->thread() == thread;
        auto *notifier = new MailboxNotifier(std::make_shared<Mailbox>(), main ? app : nullptr);
        if (!main)
            QObject::connect(thread, &QThread::finished, notifier, &QObject::deleteLater);
        t_notifier = notifier;
    }
    return t_notifier->mailbox();
}

void Mailbox::post(const std::weak_ptr<Delivery> &delivery)
{
    const std::lock_guard lock(m_mutex);
    m_pending.push_back(delivery);
    if (m_pending.size() == 1 && m_fd >= 0)
        (void)eventfd_write(m_fd, 1);
}

void Mailbox::drain()
{
    std::vector<std::weak_ptr<Delivery>> pending;
    {
        const std::lock_guard lock(m_mutex);
        eventfd_t count = 0;
        if (m_fd >= 0)
            (void)eventfd_read(m_fd, &count);
        pending.swap(m_pending);
    }
    for (const auto &weak : pending) {
        if (const auto delivery = weak.lock())
            delivery->deliver();
    }
}

} // namespace clscope::ui
