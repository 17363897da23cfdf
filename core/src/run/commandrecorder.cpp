// The commands of one run and their timestamps (commandrecorder.h).
#include "commandrecorder.h"

#include "clscope/error.h"

namespace clscope::detail {

namespace {

// "launch 2 of vector_add", "write a": what a failed command is called in an error.
std::string routineOf(const CommandRecord &r, int launch)
{
    return r.type == CommandRecord::Type::Kernel ? "launch " + std::to_string(launch) + " of " + r.name
                                                 : r.name;
}

} // namespace

void CommandRecorder::add(CommandRecord record, cl_event event)
{
    m_pending.push_back({std::move(record), ClEvent(event)});
}

void CommandRecorder::wait(std::size_t i, const std::string &routine) const
{
    cl_event e = m_pending[i].event.get();
    const cl_int err = clWaitForEvents(1, &e);
    checkStatus(i, routine);
    check(err, "clWaitForEvents", routine);
}

void CommandRecorder::checkStatus(std::size_t i, const std::string &routine) const
{
    cl_int status = CL_COMPLETE;
    if (clGetEventInfo(m_pending[i].event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                       nullptr) == CL_SUCCESS &&
        status < 0)
        throw ClError(routine, status);
}

std::vector<CommandRecord> CommandRecorder::collect(bool askComplete) const
{
    std::vector<CommandRecord> out;
    int launches = 0;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        launches += m_pending[i].record.type == CommandRecord::Type::Kernel;
        checkStatus(i, routineOf(m_pending[i].record, launches));
        CommandRecord r = m_pending[i].record;
        cl_event e = m_pending[i].event.get();
        // A driver that keeps a timestamp back leaves it at 0 rather than failing the run.
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof r.queued, &r.queued, nullptr);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_SUBMIT, sizeof r.submit, &r.submit, nullptr);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof r.start, &r.start, nullptr);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof r.end, &r.end, nullptr);
        cl_ulong complete = 0;
        if (askComplete &&
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete, nullptr) ==
                CL_SUCCESS &&
            complete != 0)
            r.complete = complete;
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace clscope::detail
