// clscope-cli pool: `pool replay TRACE` runs a trace of allocs and frees on a memory pool of a real device
// and prints the pyopencl counters after every op (DESIGN.md, CLI contract).
#include "cli.h"

#include "clscope/clhandle.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/fileio.h"
#include "clscope/pool.h"

#include <CL/cl.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace clscope::cli {
namespace {
struct PoolReplayOptions
{
    std::string trace;
    int leadingBits = kDefaultLeadingBits;
    std::string allocator = "immediate";
    CommonOptions common;
};

// The device of the effective spec (--device, else CLSCOPE_DEVICE; empty: first GPU, else first device).
// One device: a pool serves one context, and replay counters do not depend on which device it is.
cl_device_id pickDevice(const std::string &spec)
{
    return selectDevice(spec).device;
}

// Lines longer than this are no trace (a binary file, one without newlines): refused, not buffered whole.
constexpr std::size_t kMaxTraceLine = 4096;

// Every op of the trace, streamed: the file is never held whole, and only a regular file is read
// (/dev/zero, a FIFO or a folder is refused at once).
template<typename F> void forEachOp(const std::string &path, F &&fn)
{
    PoolTraceParser parser;
    try {
        RegularFile file(path);
        std::string line;
        while (file.readLine(line, kMaxTraceLine)) {
            if (auto op = parser.parseLine(line))
                fn(*op);
        }
    } catch (const FileError &e) {
        if (parser.lines() == 0 && e.reason().find("line is longer") == std::string::npos)
            throw CliFailure{ExitFailed, "cannot read trace " + path + ": " + e.reason()};
        throw CliFailure{ExitFailed,
                         path + ": line " + std::to_string(parser.lines() + 1) + ": " + e.reason()};
    } catch (const PoolTraceError &e) {
        throw CliFailure{ExitFailed, path + ": " + e.what()};
    }
}

// The JSON array of the steps, written as it grows: the same text as dump(2) of the whole array.
class StepWriter
{
public:
    void add(const nlohmann::ordered_json &step)
    {
        std::string text = step.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
        std::string indented = m_count++ ? ",\n  " : "[\n  ";
        for (char c : text) {
            indented += c;
            if (c == '\n')
                indented += "  ";
        }
        jsonDocumentStarted() = true;
        std::cout << indented;
    }
    void finish() { std::cout << (m_count ? "\n]\n" : "[]\n"); }

private:
    std::size_t m_count = 0;
};

std::string countersLine(const PoolCounters &c)
{
    return "held_blocks " + std::to_string(c.heldBlocks) + "  active_blocks " +
           std::to_string(c.activeBlocks) + "  managed_bytes " + std::to_string(c.managedBytes) +
           "  active_bytes " + std::to_string(c.activeBytes) + "  held_bytes " + std::to_string(c.heldBytes);
}

// A failure once the JSON array has begun ends the array with {"error": ...}: stdout stays one document.
[[noreturn]] void failDuringReplay(const PoolReplayOptions &opts, StepWriter &json,
                                   const std::string &message)
{
    if (opts.common.json && jsonDocumentStarted()) {
        json.add({{"error", message}});
        json.finish();
    }
    std::cout.flush();
    throw CliFailure{ExitFailed, message};
}

int runPoolReplay(const PoolReplayOptions &opts)
{
    if (opts.leadingBits < 0 || opts.leadingBits > kMaxLeadingBits)
        throw CliFailure{ExitUsage, "--leading-bits must be 0.." + std::to_string(kMaxLeadingBits) +
                                        ", got " + std::to_string(opts.leadingBits)};
    const std::optional<AllocatorKind> kind = parseAllocatorKind(opts.allocator);
    if (!kind)
        throw CliFailure{ExitUsage,
                         "--allocator must be immediate, deferred or svm, got '" + opts.allocator + "'"};

    const std::string spec = effectiveDeviceSpec(opts.common.device);
    if (!spec.empty())
        parseDeviceSpec(spec); // a malformed spec is bad usage before any driver is touched

    // Parse before touching the device: a bad trace fails fast and the same way on any machine. The trace
    // is read twice (checked, then replayed) so that neither pass holds its ops.
    forEachOp(opts.trace, [](const PoolOp &) {});

    StepWriter json;
    try {
        cl_device_id device = pickDevice(spec);
        cl_int err = CL_SUCCESS;
        const ClContext context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
        check(err, "clCreateContext");
        PoolOptions poolOptions;
        poolOptions.leadingBits = opts.leadingBits;
        poolOptions.seriesCapacity = 0; // nobody reads the series here
        const std::shared_ptr<MemoryPool> pool = makePool(*kind, context.get(), nullptr, poolOptions);

        PoolTraceReplayer replayer(*pool);
        forEachOp(opts.trace, [&](const PoolOp &op) {
            PoolCounters c;
            try {
                c = replayer.step(op);
            } catch (const PoolTraceError &e) {
                throw CliFailure{ExitFailed, opts.trace + ": " + e.what()};
            }
            if (opts.common.json) {
                json.add({{"op", toString(op)},
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
            json.finish();
        std::cout.flush();
    } catch (const ClError &e) {
        failDuringReplay(opts, json, e.what());
    } catch (const CliFailure &f) {
        failDuringReplay(opts, json, f.message);
    }
    return ExitOk;
}
} // namespace

void addPoolCommand(CLI::App &app, Action &action)
{
    CLI::App *pool = app.add_subcommand("pool", "Memory pool tools (pyopencl-compatible bins and counters)");
    pool->require_subcommand(1);

    auto opts = std::make_shared<PoolReplayOptions>();
    CLI::App *replay = pool->add_subcommand(
        "replay", "Run a trace (alloc ID SIZE / free ID / free_held / stop_holding) and print the counters");
    replay->add_option("TRACE", opts->trace, "Trace file, one op per line, # comments")->required();
    replay->add_option("--leading-bits", opts->leadingBits, "Leading bits kept per bin, 0..26")
        ->capture_default_str();
    replay->add_option("--allocator", opts->allocator, "immediate, deferred or svm")->capture_default_str();
    addCommonOptions(replay, opts->common);
    replay->callback([opts, &action] { action = [opts] { return runPoolReplay(*opts); }; });
}

} // namespace clscope::cli
