// The device benchmarks' shared machinery (benchcommon.h) and the table of kinds that `bench KIND`,
// `bench all` and the GUI's Benchmarks page run from.
#include "benchcommon.h"

#include "clscope/clquery.h"
#include "clscope/queue.h"

#include "clscope/version.h"

#include <cmath>
#include <ctime>
#include <stdexcept>

namespace clscope {
namespace benchdetail {

DeviceFacts DeviceFacts::of(cl_device_id device)
{
    DeviceFacts f;
    f.id = device;
    f.platform = deviceInfo<cl_platform_id>(device, CL_DEVICE_PLATFORM, "CL_DEVICE_PLATFORM");
    f.name = deviceInfoString(device, CL_DEVICE_NAME, "CL_DEVICE_NAME");
    f.vendor = deviceInfoString(device, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR");
    f.platformName = platformString(f.platform, CL_PLATFORM_NAME);
    f.version = deviceInfoString(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
    f.driverVersion = deviceInfoString(device, CL_DRIVER_VERSION, "CL_DRIVER_VERSION");
    f.extensions = deviceInfoString(device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS");
    f.type = deviceInfo<cl_device_type>(device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE");
    f.computeUnits = std::max<cl_uint>(
        deviceInfo<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS"), 1);
    f.maxWorkGroup = std::max<std::size_t>(
        deviceInfo<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE"), 1);
    f.maxAlloc = deviceInfo<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    f.globalMem = deviceInfo<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");
    f.localMem = deviceInfo<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
    f.localMemType =
        deviceInfo<cl_device_local_mem_type>(device, CL_DEVICE_LOCAL_MEM_TYPE, "CL_DEVICE_LOCAL_MEM_TYPE");
    const auto version = parseOpenCLVersion(f.version);
    f.atLeast20 = version && *version >= ClVersion{2, 0, 0};
    f.atLeast12 = version && *version >= ClVersion{1, 2, 0};
    return f;
}

bool DeviceFacts::hasExtension(std::string_view name) const
{
    std::size_t pos = 0;
    while ((pos = extensions.find(name, pos)) != std::string::npos) {
        const std::size_t end = pos + name.size();
        const bool startOk = pos == 0 || extensions[pos - 1] == ' ';
        const bool endOk = end == extensions.size() || extensions[end] == ' ';
        if (startOk && endOk)
            return true;
        pos = end;
    }
    return false;
}

BenchContext::BenchContext(const DeviceFacts &facts, bool profiling)
    : m_facts(facts)
{
    cl_int err = CL_SUCCESS;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, cl_context_properties(facts.platform), 0};
    m_context = ClContext(clCreateContext(props, 1, &facts.id, nullptr, nullptr, &err));
    check(err, "clCreateContext");
    m_queue = makeQueue(profiling);
}

ClQueue BenchContext::makeQueue(bool profiling) const
{
    return ClQueue(createCommandQueue(m_context.get(), m_facts.id, profiling));
}

ClProgram BenchContext::build(const std::string &source, const std::string &options) const
{
    cl_int err = CL_SUCCESS;
    const char *text = source.c_str();
    const std::size_t length = source.size();
    ClProgram program(clCreateProgramWithSource(m_context.get(), 1, &text, &length, &err));
    check(err, "clCreateProgramWithSource");
    err = clBuildProgram(program.get(), 1, &m_facts.id, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        throw ClError("clBuildProgram", err, "benchmark kernels: " + buildLog(program.get(), m_facts.id));
    }
    return program;
}

ClKernel BenchContext::kernel(cl_program program, const char *name) const
{
    cl_int err = CL_SUCCESS;
    ClKernel kernel(clCreateKernel(program, name, &err));
    check(err, "clCreateKernel", name);
    return kernel;
}

ClMem BenchContext::buffer(cl_mem_flags flags, std::size_t bytes, void *host) const
{
    cl_int err = CL_SUCCESS;
    ClMem mem(clCreateBuffer(m_context.get(), flags, bytes, host, &err));
    check(err, "clCreateBuffer");
    return mem;
}

std::size_t BenchContext::kernelWorkGroup(cl_kernel kernel) const
{
    std::size_t size = 0;
    check(
        clGetKernelWorkGroupInfo(kernel, m_facts.id, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size), &size, nullptr),
        "clGetKernelWorkGroupInfo", "CL_KERNEL_WORK_GROUP_SIZE");
    return std::max<std::size_t>(size, 1);
}

EventTimes eventTimes(cl_event event)
{
    EventTimes t;
    const auto get = [event](cl_profiling_info what, cl_ulong &into) {
        check(clGetEventProfilingInfo(event, what, sizeof(cl_ulong), &into, nullptr),
              "clGetEventProfilingInfo");
    };
    get(CL_PROFILING_COMMAND_QUEUED, t.queued);
    get(CL_PROFILING_COMMAND_SUBMIT, t.submit);
    get(CL_PROFILING_COMMAND_START, t.start);
    get(CL_PROFILING_COMMAND_END, t.end);
    return t;
}

double timeKernelNs(cl_command_queue queue, cl_kernel kernel, std::size_t global, std::size_t local)
{
    cl_event raw = nullptr;
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr,
                                 &raw),
          "clEnqueueNDRangeKernel");
    ClEvent event(raw);
    check(clWaitForEvents(1, &raw), "clWaitForEvents");
    return eventTimes(raw).runNs();
}

void runKernel(cl_command_queue queue, cl_kernel kernel, std::size_t global, std::size_t local)
{
    check(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr,
                                 nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(queue), "clFinish");
}

Stepper::Stepper(const DeviceBenchOptions &options, int totalSteps)
    : m_options(options)
    , m_total(std::max(totalSteps, 1))
{}

void Stepper::checkCancelled() const
{
    if (m_options.cancelled && m_options.cancelled())
        throw BenchCancelled();
}

void Stepper::stage(const std::string &what)
{
    m_stage = what;
    if (m_options.progress)
        m_options.progress(std::min(1.0, double(m_done) / m_total), m_stage);
    checkCancelled();
}

void Stepper::step()
{
    ++m_done;
    if (m_options.progress)
        m_options.progress(std::min(1.0, double(m_done) / m_total), m_stage);
    checkCancelled();
}

std::string vectorTypeName(std::string_view scalar, int width)
{
    std::string name(scalar);
    if (width > 1)
        name += std::to_string(width);
    return name;
}

std::string horizontalSum(std::string_view variable, int width)
{
    if (width <= 1)
        return std::string(variable);
    std::string sum;
    for (int c = 0; c < width; ++c)
        sum += (c ? " + " : "") + std::string(variable) + ".s" + "0123456789abcdef"[c & 15];
    return sum;
}

std::string substitute(std::string text, const std::vector<std::pair<std::string, std::string>> &table)
{
    for (const auto &[name, value] : table) {
        const std::string token = "$" + name;
        for (std::size_t pos = text.find(token); pos != std::string::npos;
             pos = text.find(token, pos + value.size()))
            text.replace(pos, token.size(), value);
    }
    return text;
}

BenchResult startResult(const char *kind, const DeviceFacts &facts)
{
    BenchResult result;
    result.report.kind = kind;
    result.report.device = facts.name;
    return result;
}

void addFigure(BenchResult &result, std::string key, double value, std::string unit, std::uint64_t iterations,
               int rounds, std::string definition)
{
    result.report.figures.push_back(
        {std::move(key), value, std::move(unit), iterations, rounds, std::move(definition)});
}

} // namespace benchdetail

// ---- BenchDocument ---------------------------------------------------------------------------------

const BenchFigure *BenchDocument::findFigure(std::string_view key) const
{
    for (const BenchResult &r : results) {
        for (const BenchFigure &f : r.report.figures) {
            if (f.key == key)
                return &f;
        }
    }
    return nullptr;
}

const BenchSeries *BenchDocument::findSeries(std::string_view key) const
{
    for (const BenchResult &r : results) {
        for (const BenchSeries &s : r.series) {
            if (s.key == key)
                return &s;
        }
    }
    return nullptr;
}

const BenchTrait *BenchDocument::findTrait(std::string_view key) const
{
    for (const BenchResult &r : results) {
        for (const BenchTrait &t : r.traits) {
            if (t.key == key)
                return &t;
        }
    }
    return nullptr;
}

const BenchResult *BenchDocument::findKind(std::string_view kind) const
{
    for (const BenchResult &r : results) {
        if (r.report.kind == kind)
            return &r;
    }
    return nullptr;
}

// ---- Kinds -----------------------------------------------------------------------------------------

namespace {
constexpr BenchKindInfo kKinds[] = {
    {"pool", "memory pool hit and miss against bare clCreateBuffer"},
    {"launch", "kernel launch latency and enqueue cost"},
    {"bandwidth", "global memory bandwidth"},
    {"compute", "compute peak (single, double, integer, half)"},
    {"transfer", "host <-> device transfers"},
    {"local", "local memory bandwidth"},
    {"traits", "device traits (SIMD width, banks, build cache, profiling overhead)"},
};

BenchResult runPoolKind(cl_device_id device, const DeviceBenchOptions &options)
{
    PoolBenchOptions pool;
    switch (options.effort) {
    case BenchEffort::Tiny:
        pool.hitPairs = 2000;
        pool.missPairs = 50;
        pool.rawPairs = 50;
        pool.realAllocs = 5;
        pool.rounds = 1;
        break;
    case BenchEffort::Quick:
        pool.hitPairs = 200'000;
        pool.missPairs = 2000;
        pool.rawPairs = 2000;
        pool.realAllocs = 50;
        break;
    case BenchEffort::Full:
        break;
    }
    if (options.runs > 0)
        pool.rounds = options.runs;
    pool.cancelled = options.cancelled;
    if (options.progress)
        options.progress(0, "pool: hit and miss pairs");
    BenchResult result;
    result.report = runPoolBench(device, pool);
    return result;
}
} // namespace

std::span<const BenchKindInfo> benchKinds()
{
    return kKinds;
}

std::vector<std::string> expandBenchKind(std::string_view kind)
{
    std::vector<std::string> kinds;
    for (const BenchKindInfo &k : kKinds) {
        if (kind == "all" || kind == k.name)
            kinds.emplace_back(k.name);
    }
    if (kinds.empty()) {
        std::string names;
        for (const BenchKindInfo &k : kKinds)
            names += std::string(k.name) + ", ";
        throw std::invalid_argument("unknown bench kind '" + std::string(kind) + "' (kinds: " + names +
                                    "all)");
    }
    return kinds;
}

BenchResult runBenchKind(std::string_view kind, cl_device_id device, const DeviceBenchOptions &options)
{
    const auto start = benchdetail::Clock::now();
    BenchResult result;
    if (kind == "pool")
        result = runPoolKind(device, options);
    else if (kind == "launch")
        result = runLaunchBench(device, options);
    else if (kind == "bandwidth")
        result = runBandwidthBench(device, options);
    else if (kind == "compute")
        result = runComputeBench(device, options);
    else if (kind == "transfer")
        result = runTransferBench(device, options);
    else if (kind == "local")
        result = runLocalMemBench(device, options);
    else if (kind == "traits")
        result = runTraitsBench(device, options);
    else
        expandBenchKind(kind); // throws with the list of kinds
    result.seconds = benchdetail::nsSince(start) * 1e-9;
    return result;
}

BenchDocument describeBenchDevice(cl_device_id device)
{
    const auto facts = benchdetail::DeviceFacts::of(device);
    BenchDocument doc;
    doc.device = facts.name;
    doc.platform = facts.platformName;
    doc.deviceVersion = facts.version;
    doc.driverVersion = facts.driverVersion;
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
    doc.created = text;
    return doc;
}

BenchDocument runBenchKinds(const std::vector<std::string> &kinds, cl_device_id device,
                            const DeviceBenchOptions &options)
{
    BenchDocument doc = describeBenchDevice(device);
    const double count = double(std::max<std::size_t>(kinds.size(), 1));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        DeviceBenchOptions each = options;
        if (options.progress) {
            each.progress = [&options, i, count, &kinds](double fraction, const std::string &stage) {
                options.progress((double(i) + std::clamp(fraction, 0.0, 1.0)) / count,
                                 stage.empty() ? kinds[i] : stage);
            };
        }
        doc.results.push_back(runBenchKind(kinds[i], device, each));
    }
    if (options.progress)
        options.progress(1.0, "done");
    return doc;
}

} // namespace clscope
