// RunResult, and runKernel: a KernelRun (kernelrun.h) goes through its steps, binding the arguments,
// validating the range, taking buffers from the pool, initialising them, launching, reading back.
#include "clscope/runner.h"

#include "kernelrun.h"

namespace clscope {

RunResult::RunResult()
    : m_d(std::make_shared<const RunResultData>())
{}

RunResult::RunResult(RunResultData data)
    : m_d(std::make_shared<const RunResultData>(std::move(data)))
{}

const BufferData *RunResult::buffer(std::string_view name) const
{
    const std::optional<std::size_t> index = findArgument(m_d->argNames, name);
    const std::string_view wanted = index ? std::string_view(m_d->argNames[*index]) : name;
    for (const auto &b : m_d->buffers) {
        if (b.name == wanted)
            return &b;
    }
    return nullptr;
}

RunResult runKernel(const RunRequest &request, const RunOptions &options)
{
    return detail::KernelRun(request, options).run();
}

} // namespace clscope
