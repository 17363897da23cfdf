// Synthetic but plausible profiles: kernels and transfers back to back on a few queues, for benchmarks,
// screenshots and tests that must not depend on a device.
#include "clscope/profile.h"

#include <algorithm>
#include <array>
#include <random>

namespace clscope {

namespace {

struct KernelShape
{
    const char *name;
    double meanNs;
};

constexpr std::array<KernelShape, 6> kKernels = {{{"vector_add", 4'000},
                                                  {"matmul_tiled", 60'000},
                                                  {"reduce_sum", 12'000},
                                                  {"scan_blelloch", 20'000},
                                                  {"transpose", 8'000},
                                                  {"nbody_step", 150'000}}};

} // namespace

std::vector<CommandRecord> syntheticRecords(std::size_t count, int devices, int queuesPerDevice,
                                            std::uint32_t seed)
{
    using T = CommandRecord::Type;
    devices = std::max(1, devices);
    queuesPerDevice = std::max(1, queuesPerDevice);
    const std::size_t lanes = static_cast<std::size_t>(devices) * static_cast<std::size_t>(queuesPerDevice);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);

    std::vector<CommandRecord> out;
    out.reserve(count + 2);
    // Host time of a process that has been up a while (steady_clock-like), so that absolute values are big.
    const std::uint64_t base = 5'000'000'000'000ULL;
    std::uint64_t host = base;
    // Two program builds on the host before the commands, as a real session starts.
    for (int b = 0; b < 2 && count > 0; ++b) {
        CommandRecord r;
        r.type = T::Build;
        r.hostSpan = true;
        r.name = b == 0 ? "build kernels.cl" : "build nbody.cl";
        r.queue = "host";
        r.device = "Synthetic GPU 0";
        r.start = host;
        r.end = host + 2'000'000 + static_cast<std::uint64_t>(unit(rng) * 3'000'000);
        r.hostSubmitNs = r.start;
        host = r.end + 50'000;
        out.push_back(std::move(r));
    }
    std::vector<std::uint64_t> laneFree(lanes, host);
    for (std::size_t i = 0; i < count; ++i) {
        // The first command of each queue comes in queue order, as a program creates its queues.
        const std::size_t lane =
            i < lanes ? i : static_cast<std::size_t>(unit(rng) * static_cast<double>(lanes)) % lanes;
        CommandRecord r;
        r.device = "Synthetic GPU " + std::to_string(lane / static_cast<std::size_t>(queuesPerDevice));
        r.queue = "queue " + std::to_string(lane % static_cast<std::size_t>(queuesPerDevice));
        const double pick = unit(rng);
        double durationNs = 0;
        if (pick < 0.7) {
            const KernelShape &k =
                kKernels[static_cast<std::size_t>(unit(rng) * kKernels.size()) % kKernels.size()];
            r.type = T::Kernel;
            r.name = k.name;
            r.dims = k.meanNs > 50'000 ? 2 : 1;
            r.global = {r.dims == 2 ? 1024u : 1u << 20, r.dims == 2 ? 1024u : 1u, 1};
            r.local = {r.dims == 2 ? 16u : 256u, r.dims == 2 ? 16u : 1u, 1};
            durationNs = k.meanNs * (0.6 + 0.8 * unit(rng));
        } else {
            static constexpr std::array<T, 4> kinds = {T::Write, T::Read, T::Copy, T::Fill};
            static constexpr std::array<const char *, 4> names = {"write", "read", "copy", "fill"};
            const std::size_t k = static_cast<std::size_t>(unit(rng) * 4) % 4;
            r.type = kinds[k];
            r.name = std::string(names[k]) + " buf" + std::to_string(static_cast<int>(unit(rng) * 4));
            r.bytes = std::uint64_t{4096} << static_cast<int>(unit(rng) * 12);
            const double gbps = 8 + 16 * unit(rng);
            durationNs = 1500 + static_cast<double>(r.bytes) / gbps;
        }
        const auto gap = static_cast<std::uint64_t>(200 + unit(rng) * 3000);
        r.start = laneFree[lane] + gap;
        r.end = r.start + std::max<std::uint64_t>(1, static_cast<std::uint64_t>(durationNs));
        r.submit = r.start -
                   std::min<std::uint64_t>(r.start - 1, 500 + static_cast<std::uint64_t>(unit(rng) * 4000));
        r.queued = r.submit -
                   std::min<std::uint64_t>(r.submit - 1, 300 + static_cast<std::uint64_t>(unit(rng) * 2000));
        r.complete = r.end + 100;
        r.hostSubmitNs = r.queued - 200;
        laneFree[lane] = r.end;
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<PoolSeriesPoint> syntheticPoolSeries(const std::vector<CommandRecord> &records,
                                                 std::size_t points)
{
    using T = CommandRecord::Type;
    std::vector<const CommandRecord *> transfers;
    for (const CommandRecord &r : records) {
        if (!r.hostSpan && (r.type == T::Write || r.type == T::Read))
            transfers.push_back(&r);
    }
    std::sort(transfers.begin(), transfers.end(),
              [](const CommandRecord *a, const CommandRecord *b) { return a->start < b->start; });
    std::vector<PoolSeriesPoint> out;
    if (transfers.empty() || points == 0)
        return out;
    // Writes allocate (active grows), reads free into the pool (held grows), and the pool gives held memory
    // back when it passes a limit: the saw-tooth a real pool draws.
    const std::size_t every = std::max<std::size_t>(1, transfers.size() / points);
    std::uint64_t active = 0;
    std::uint64_t held = 0;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const CommandRecord &r = *transfers[i];
        if (r.type == T::Write) {
            const std::uint64_t reuse = std::min(held, r.bytes);
            held -= reuse;
            active += r.bytes;
        } else {
            const std::uint64_t freed = std::min(active, r.bytes);
            active -= freed;
            held += freed;
        }
        if (held > (std::uint64_t{512} << 20))
            held /= 4;
        if (i % every == 0)
            out.push_back({r.start, held, active});
    }
    return out;
}

} // namespace clscope
