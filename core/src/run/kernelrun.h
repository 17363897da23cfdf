// Private to core/src/run: one runKernel, step by step. The steps run in the order run() lists them; each
// leaves its results in members for the next. The members are declared in the order the steps make them,
// so that whatever a failing step leaves behind is released in reverse: the queue is finished (FinishGuard)
// before the host memory its pending writes and reads use is freed, and pooled buffers go back before the
// pool.
#pragma once

#include "clscope/clhandle.h"
#include "clscope/pool.h"
#include "clscope/runner.h"
#include "clscope/stdoutcapture.h"
#include "clscope/structs.h"

#include "commandrecorder.h"
#include "imagerun.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::detail {

class KernelRun
{
public:
    KernelRun(const RunRequest &request, const RunOptions &options);
    KernelRun(const KernelRun &) = delete;
    KernelRun &operator=(const KernelRun &) = delete;

    RunResult run();

private:
    // Pending host memory (writes, reads) must outlive the commands that use it, also when a run fails
    // half-way: declared after that memory, this waits for the queue before it is freed.
    struct FinishGuard
    {
        cl_command_queue queue = nullptr;
        ~FinishGuard()
        {
            if (queue)
                clFinish(queue);
        }
    };
    // A buffer argument's memory: a block of the pool, or a buffer of its own of exactly the argument's
    // size.
    struct RunBuffer
    {
        PooledBuffer pooled;
        ClMem own;
        cl_mem mem() const { return own ? own.get() : pooled.mem(); }
    };

    // The steps, in order. Everything that can be told without a launch comes first.
    void checkRequest();
    void bindArguments();
    void checkLimits();
    void prepareContents();
    void makeQueue();
    void takeBuffers();
    void createImagesAndSamplers();
    void initialise();
    void copyBuffers();
    void setArguments();
    void describeArguments();
    void launch();
    void enqueueReadBack();
    void finish();

    CommandRecord record(CommandRecord::Type type, std::string name, std::uint64_t bytes) const;

    const std::chrono::steady_clock::time_point m_started;
    const RunRequest &m_request;
    const RunOptions &m_options;
    const KernelInfo *m_info = nullptr;
    cl_device_id m_device = nullptr;
    TypeTable m_types;
    std::vector<BoundArg> m_args;
    std::vector<bool> m_wanted; // read back
    std::vector<std::optional<std::vector<unsigned char>>> m_patterns;
    std::vector<std::vector<unsigned char>> m_contents; // alive until the writes finish
    std::vector<std::uint64_t> m_localBytes;            // summed without wrapping by checkLocalMemory
    ClKernel m_kernel;
    LaunchLimits m_limits;
    NDRange m_range;
    std::string m_deviceName;
    ClQueue m_queue;
    std::optional<ClockMapping> m_clock;
    bool m_exact = false;
    std::shared_ptr<MemoryPool> m_pool;
    std::vector<RunBuffer> m_buffers;
    std::vector<std::optional<std::uint64_t>> m_addresses;
    std::vector<DeviceImage> m_images;
    std::vector<ClSampler> m_samplers;
    std::vector<BufferData> m_readBack;
    CommandRecorder m_recorder;
    FinishGuard m_guard;
    RunResultData m_result;
    std::optional<StdoutCapture> m_printed; // restores stdout however the run ends
};

} // namespace clscope::detail
