// A run's commands on the host clock and the slice of its pool's series that belongs to it, for the GUI's
// timeline and clscope-cli run --trace alike.
#include "clscope/runner.h"

#include <algorithm>
#include <limits>

namespace clscope {

RunProfile hostProfile(const RunResult &result, const MemoryPool *pool)
{
    RunProfile profile;
    profile.commands = result.commands();
    if (result.clock())
        mapToHost(profile.commands, *result.clock()); // device clock -> steady_clock, the pool's clock
    if (!pool || profile.commands.empty())
        return profile;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    for (const CommandRecord &c : profile.commands)
        first = std::min(first, c.queued ? c.queued : c.start);
    for (const PoolSeriesPoint &p : toPoolSeries(pool->snapshotSeries(0))) {
        if (p.timestampNs + kPoolLeadNs >= first)
            profile.pool.push_back(p);
    }
    return profile;
}

} // namespace clscope
