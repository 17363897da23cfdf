// Private to core/src/run: the commands of one run with their events, until the queue has finished; then
// the CommandRecords of the RunResult with their status checked and their profiling timestamps.
#pragma once

#include "clscope/clhandle.h"
#include "clscope/profile.h"

#include <string>
#include <vector>

namespace clscope::detail {

class CommandRecorder
{
public:
    void add(CommandRecord record, cl_event event);
    std::size_t size() const { return m_pending.size(); }

    // Waits for command i and throws ClError naming it (`routine`) when it failed on the device.
    void wait(std::size_t i, const std::string &routine) const;
    // Throws ClError naming command i when the device says it failed.
    void checkStatus(std::size_t i, const std::string &routine) const;
    // After clFinish: every command's status and profiling timestamps. CL_PROFILING_COMMAND_COMPLETE is
    // OpenCL 2.0: asked of a 1.x device it is an invalid value, which Oclgrind's API check reports.
    std::vector<CommandRecord> collect(bool askComplete) const;

private:
    struct Pending
    {
        CommandRecord record;
        ClEvent event;
    };
    std::vector<Pending> m_pending;
};

} // namespace clscope::detail
