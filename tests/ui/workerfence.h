// Test helper of the suites about device workers: proof that nothing more arrives from the jobs submitted so
// far, without a sleep.
#pragma once

#include "workers/deviceworker.h"

#include <QObject>
#include <QTest>

#include <vector>

namespace clscope::test {

// True once every job submitted so far to the workers has delivered all it will: a no-op job on each, after
// theirs, has delivered (within timeoutMs). A worker runs its jobs one at a time in the order submitted, and
// their deliveries reach this thread in the order they were posted, so the fence's comes after anything the
// jobs before it could still deliver (and after what their callbacks did here on delivery). A callback that
// submits more work to another worker needs a second fence on that one.
inline bool fence(const std::vector<ui::DeviceWorker *> &workers, int timeoutMs = 240000)
{
    QObject receiver;
    std::size_t arrived = 0;
    for (ui::DeviceWorker *worker : workers)
        worker->submit<bool>(
            QStringLiteral("test-fence"), [](const ui::CancelToken &, const ui::Progress &) { return true; },
            &receiver, [&arrived](bool) { ++arrived; });
    return QTest::qWaitFor([&] { return arrived == workers.size(); }, timeoutMs);
}

} // namespace clscope::test
