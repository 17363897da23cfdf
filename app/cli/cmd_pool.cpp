// clscope-cli pool: `pool replay TRACE` runs a trace of allocs and frees on a memory pool of a real device
// and prints the pyopencl counters after every op (DESIGN.md, CLI contract).
#include "cli.h"

#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/pool.h"
#include "clscope/queue.h"

#include <CL/cl.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace clscope::cli {
namespace {
struct ReplayOptions
{
    std::string trace;
    int leadingBits = kDefaultLeadingBits;
    std::string allocator = "immediate";
    CommonOptions common;
};

// The device of the effective spec (--device, else CLSCOPE_DEVICE; empty: first GPU, else first device).
// One device: a pool
// serves one context, and replay counters do not depend on which device it is.
cl_device_id pickDevice(const std::string &spec)
{
    return selectDevice(spec).device;
}

struct ContextDeleter
{
    void operator()(cl_context c) const { clReleaseContext(c); }
};
struct QueueDeleter
{
    void operator()(cl_command_queue q) const { clReleaseCommandQueue(q); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<cl_context>, ContextDeleter>;
using QueuePtr = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, QueueDeleter>;

QueuePtr makeQueue(cl_context context, cl_device_id device)
{
    return QueuePtr(createCommandQueue(context, device, false));
}

std::string readTrace(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw CliFailure{ExitFailed, "cannot read trace '" + path + "': it is a directory"};
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int code = errno;
        throw CliFailure{ExitFailed, "cannot read trace '" + path +
                                         "': " + (code != 0 ? std::strerror(code) : "cannot open")};
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw CliFailure{ExitFailed, "cannot read trace '" + path + "': read error"};
    return text.str();
}

std::string countersLine(const PoolCounters &c)
{
    return "held_blocks " + std::to_string(c.heldBlocks) + "  active_blocks " +
           std::to_string(c.activeBlocks) + "  managed_bytes " + std::to_string(c.managedBytes) +
           "  active_bytes " + std::to_string(c.activeBytes) + "  held_bytes " + std::to_string(c.heldBytes);
}

int runReplay(const ReplayOptions &opts)
{
    if (opts.leadingBits < 0 || opts.leadingBits > kMaxLeadingBits)
        throw CliFailure{ExitUsage, "--leading-bits must be 0.." + std::to_string(kMaxLeadingBits) +
                                        ", got " + std::to_string(opts.leadingBits)};
    if (opts.allocator != "immediate" && opts.allocator != "deferred" && opts.allocator != "svm")
        throw CliFailure{ExitUsage,
                         "--allocator must be immediate, deferred or svm, got '" + opts.allocator + "'"};

    const std::string spec = effectiveDeviceSpec(opts.common.device);
    if (!spec.empty())
        parseDeviceSpec(spec); // a malformed spec is bad usage before any driver is touched

    // Parse before touching the device: a bad trace fails fast and the same way on any machine.
    std::vector<PoolOp> ops;
    try {
        ops = parsePoolTrace(readTrace(opts.trace));
    } catch (const PoolTraceError &e) {
        throw CliFailure{ExitFailed, opts.trace + ": " + e.what()};
    }

    try {
        cl_device_id device = pickDevice(spec);
        cl_int err = CL_SUCCESS;
        ContextPtr context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
        check(err, "clCreateContext");
        QueuePtr queue;
        std::shared_ptr<Allocator> allocator;
        if (opts.allocator == "deferred") {
            allocator = std::make_shared<DeferredAllocator>(context.get());
        } else if (opts.allocator == "svm") {
            allocator = std::make_shared<SvmAllocator>(context.get());
        } else {
            queue = makeQueue(context.get(), device);
            allocator = std::make_shared<ImmediateAllocator>(queue.get());
        }

        PoolOptions poolOptions;
        poolOptions.leadingBits = opts.leadingBits;
        poolOptions.seriesCapacity = 0; // nobody reads the series here
        MemoryPool pool(allocator, poolOptions);

        auto steps = nlohmann::ordered_json::array();
        replayPoolTrace(pool, ops, [&](const PoolOp &op, const PoolCounters &c) {
            if (opts.common.json) {
                steps.push_back({{"op", toString(op)},
                                 {"held_blocks", c.heldBlocks},
                                 {"active_blocks", c.activeBlocks},
                                 {"managed_bytes", c.managedBytes},
                                 {"active_bytes", c.activeBytes},
                                 {"held_bytes", c.heldBytes}});
            } else {
                std::cout << toString(op) << ": " << countersLine(c) << '\n';
            }
        });
        if (opts.common.json)
            std::cout << steps.dump(2) << '\n';
        std::cout.flush();
    } catch (const PoolTraceError &e) {
        throw CliFailure{ExitFailed, opts.trace + ": " + e.what()};
    } catch (const ClError &e) {
        throw CliFailure{ExitFailed, e.what()};
    }
    return ExitOk;
}
} // namespace

void addPoolCommand(CLI::App &app, Action &action)
{
    CLI::App *pool = app.add_subcommand("pool", "Memory pool tools (pyopencl-compatible bins and counters)");
    pool->require_subcommand(1);

    auto opts = std::make_shared<ReplayOptions>();
    CLI::App *replay = pool->add_subcommand(
        "replay", "Run a trace (alloc ID SIZE / free ID / free_held / stop_holding) and print the counters");
    replay->add_option("TRACE", opts->trace, "Trace file, one op per line, # comments")->required();
    replay->add_option("--leading-bits", opts->leadingBits, "Leading bits kept per bin, 0..26")
        ->capture_default_str();
    replay->add_option("--allocator", opts->allocator, "immediate, deferred or svm")->capture_default_str();
    addCommonOptions(replay, opts->common);
    replay->callback([opts, &action] {
        action = [opts] {
            try {
                return runReplay(*opts);
            } catch (const DeviceSpecError &e) {
                throw CliFailure{ExitUsage, e.what()};
            }
        };
    });
}

} // namespace clscope::cli
