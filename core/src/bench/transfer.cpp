// Host <-> device transfers: blocking writes and reads, and reads through a map (map for reading, memcpy
// out, unmap), from ordinary (pageable) host memory and from pinned memory (a CL_MEM_ALLOC_HOST_PTR buffer
// kept mapped, the usual way to get page-locked memory through OpenCL). Timed on the host clock around the
// whole call, because that is the time a program waits for its data; the best of several runs.
#include "benchcommon.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace clscope {
namespace {
using namespace benchdetail;

struct FreeDeleter
{
    void operator()(void *p) const { std::free(p); }
};

std::uint64_t transferBytes(const DeviceFacts &facts, const DeviceBenchOptions &options)
{
    std::uint64_t bytes = options.bufferBytes;
    if (bytes == 0) {
        switch (options.effort) {
        case BenchEffort::Tiny:
            bytes = std::uint64_t{1} << 20;
            break;
        case BenchEffort::Quick:
            bytes = (facts.isCpu() ? std::uint64_t{16} : std::uint64_t{64}) << 20;
            break;
        case BenchEffort::Full:
            bytes = (facts.isCpu() ? std::uint64_t{64} : std::uint64_t{256}) << 20;
            break;
        }
    }
    bytes = std::min<std::uint64_t>(bytes, facts.maxAlloc);
    if (facts.globalMem > 0)
        bytes = std::min<std::uint64_t>(bytes, facts.globalMem / 4);
    return std::max<std::uint64_t>(roundDown(bytes, 4096), 4096);
}

class Mapping
{
public:
    Mapping(cl_command_queue queue, cl_mem mem, cl_map_flags flags, std::size_t bytes)
        : m_queue(queue)
        , m_mem(mem)
    {
        cl_int err = CL_SUCCESS;
        m_ptr = clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &err);
        check(err, "clEnqueueMapBuffer");
    }
    ~Mapping()
    {
        if (m_ptr) {
            clEnqueueUnmapMemObject(m_queue, m_mem, m_ptr, 0, nullptr, nullptr);
            clFinish(m_queue);
        }
    }
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;

    void *data() const { return m_ptr; }
    void unmap()
    {
        check(clEnqueueUnmapMemObject(m_queue, m_mem, m_ptr, 0, nullptr, nullptr), "clEnqueueUnmapMemObject");
        m_ptr = nullptr;
        check(clFinish(m_queue), "clFinish");
    }

private:
    cl_command_queue m_queue;
    cl_mem m_mem;
    void *m_ptr = nullptr;
};

struct Path
{
    const char *key;
    const char *label;
    const char *definition;
};
} // namespace

BenchResult runTransferBench(cl_device_id device, const DeviceBenchOptions &options)
{
    const DeviceFacts facts = DeviceFacts::of(device);
    BenchResult result = startResult("transfer", facts);
    const std::uint64_t bytes = transferBytes(facts, options);
    const int runs = runsFor(options, facts.isCpu() ? 5 : 10, 3);
    Stepper stepper(options, 6);
    stepper.stage("transfer: allocating");

    BenchContext ctx(facts, false);
    cl_command_queue queue = ctx.queue();
    ClMem deviceBuffer = ctx.buffer(CL_MEM_READ_WRITE, bytes);
    ClMem pinnedStage = ctx.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    ClMem pinnedMapped = ctx.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    std::unique_ptr<unsigned char, FreeDeleter> host(
        static_cast<unsigned char *>(std::aligned_alloc(4096, bytes)));
    if (!host)
        throw ClError("aligned_alloc", CL_OUT_OF_HOST_MEMORY,
                      std::to_string(bytes) + " bytes of host memory");
    std::memset(host.get(), 1, bytes); // fault every page in before timing
    Mapping pinned(queue, pinnedStage.get(), CL_MAP_READ | CL_MAP_WRITE, bytes);
    std::memset(pinned.data(), 2, bytes);
    check(clEnqueueWriteBuffer(queue, deviceBuffer.get(), CL_TRUE, 0, bytes, host.get(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
    check(clEnqueueWriteBuffer(queue, pinnedMapped.get(), CL_TRUE, 0, bytes, host.get(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");

    // Best wall time of `runs` runs after one warm-up.
    const auto bestNs = [&](auto &&transfer) {
        transfer();
        double best = 0;
        for (int r = 0; r < runs; ++r) {
            const auto start = Clock::now();
            transfer();
            const double ns = nsSince(start);
            best = r == 0 ? ns : std::min(best, ns);
            stepper.checkCancelled();
        }
        return best;
    };
    const auto write = [&](const void *from) {
        check(clEnqueueWriteBuffer(queue, deviceBuffer.get(), CL_TRUE, 0, bytes, from, 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
    };
    const auto read = [&](void *into) {
        check(clEnqueueReadBuffer(queue, deviceBuffer.get(), CL_TRUE, 0, bytes, into, 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
    };
    const auto mapRead = [&](cl_mem mem) {
        Mapping m(queue, mem, CL_MAP_READ, bytes);
        std::memcpy(host.get(), m.data(), bytes);
        m.unmap();
    };

    const Path paths[] = {
        {"transfer_write_gbps", "write", "clEnqueueWriteBuffer (blocking) from pageable host memory"},
        {"transfer_read_gbps", "read", "clEnqueueReadBuffer (blocking) into pageable host memory"},
        {"transfer_map_gbps", "map",
         "clEnqueueMapBuffer (blocking, CL_MAP_READ) of a device buffer + memcpy into pageable host memory + "
         "unmap"},
        {"transfer_write_pinned_gbps", "write",
         "clEnqueueWriteBuffer (blocking) from pinned host memory (a mapped "
         "CL_MEM_ALLOC_HOST_PTR buffer)"},
        {"transfer_read_pinned_gbps", "read",
         "clEnqueueReadBuffer (blocking) into pinned host memory (a mapped "
         "CL_MEM_ALLOC_HOST_PTR buffer)"},
        {"transfer_map_pinned_gbps", "map",
         "clEnqueueMapBuffer (blocking, CL_MAP_READ) of a CL_MEM_ALLOC_HOST_PTR "
         "buffer + memcpy into pageable host memory + unmap"},
    };
    double ns[6] = {};
    stepper.stage("transfer: write");
    ns[0] = bestNs([&] { write(host.get()); });
    stepper.step();
    stepper.stage("transfer: read");
    ns[1] = bestNs([&] { read(host.get()); });
    stepper.step();
    stepper.stage("transfer: map");
    ns[2] = bestNs([&] { mapRead(deviceBuffer.get()); });
    stepper.step();
    stepper.stage("transfer: pinned write");
    ns[3] = bestNs([&] { write(pinned.data()); });
    stepper.step();
    stepper.stage("transfer: pinned read");
    ns[4] = bestNs([&] { read(pinned.data()); });
    stepper.step();
    stepper.stage("transfer: pinned map");
    ns[5] = bestNs([&] { mapRead(pinnedMapped.get()); });
    stepper.step();
    pinned.unmap();

    const std::string size = std::to_string(bytes >> 20) + " MiB";
    BenchSeries pageable{"transfer_gbps", "GB/s", "operation", {}, {}, "pageable host memory, " + size};
    BenchSeries pinnedSeries{"transfer_pinned_gbps",       "GB/s", "operation", {}, {},
                             "pinned host memory, " + size};
    for (int i = 0; i < 6; ++i) {
        const double gbps = ratePerNs(double(bytes), ns[i]);
        addFigure(result, paths[i].key, gbps, "GB/s", 1, runs,
                  std::string(paths[i].definition) + " of " + size +
                      "; 1e9 bytes/s by host wall time of the " + "fastest run");
        BenchSeries &s = i < 3 ? pageable : pinnedSeries;
        s.labels.push_back(paths[i].label);
        s.values.push_back(gbps);
    }
    result.series.push_back(std::move(pageable));
    result.series.push_back(std::move(pinnedSeries));
    return result;
}

} // namespace clscope
