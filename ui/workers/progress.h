// The progress side of a DeviceWorker job: the work reports a fraction and a line of text; the receiver's
// progress function gets the latest report on its own thread (reports the receiver has not taken yet are
// replaced, so a tight loop cannot flood the event loop), and only while the job is current.
#pragma once

#include <QString>

#include <memory>

namespace clscope::ui {

class Delivery;

class Progress
{
public:
    Progress() = default; // reports go nowhere
    explicit Progress(std::shared_ptr<Delivery> delivery)
        : m_delivery(std::move(delivery))
    {}

    // fraction in [0, 1]; negative when unknown (a busy indicator).
    void report(double fraction, const QString &text) const;

private:
    std::shared_ptr<Delivery> m_delivery;
};

} // namespace clscope::ui
