// Where deliveries for one thread wait until that thread takes them: a queue under a std::mutex and an
// eventfd that a QSocketNotifier on the receiving thread watches. A worker thread only locks the mutex
// and writes to the eventfd; it never touches Qt's event queue of another thread (whose hand-over
// ThreadSanitizer cannot see in an uninstrumented Qt, and which it would then report as a race).
#pragma once

#include <memory>
#include <mutex>
#include <vector>

namespace clscope::ui {

class Delivery;

class Mailbox
{
public:
    Mailbox();
    ~Mailbox();
    Mailbox(const Mailbox &) = delete;
    Mailbox &operator=(const Mailbox &) = delete;

    // The mailbox of the calling thread, made at the first call; the thread needs an event loop (the
    // main thread: a QCoreApplication, which the mailbox's notifier lives in).
    static std::shared_ptr<Mailbox> forCurrentThread();

    // Any thread: the delivery has something for its receiver.
    void post(const std::weak_ptr<Delivery> &delivery);
    // The receiving thread: hands every waiting delivery its turn.
    void drain();

    int fd() const { return m_fd; }

private:
    std::mutex m_mutex;
    std::vector<std::weak_ptr<Delivery>> m_pending;
    int m_fd = -1;
};

} // namespace clscope::ui
