// Replay of one captured launch on any device: rebuild from the captured source and options, bind the
// captured arguments with buffers from their "before" contents, run once, compare with "after".
#include "clscope/capture.h"

#include "clscope/build.h"
#include "clscope/checkedmath.h"
#include "clscope/clhandle.h"
#include "clscope/clquery.h"
#include "clscope/compare.h"
#include "clscope/debug.h"
#include "clscope/error.h"
#include "clscope/kernelargs.h"
#include "clscope/programsource.h"
#include "clscope/queue.h"
#include "clscope/runner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace clscope {

namespace {

struct Released
{
    void operator()(cl_command_queue q) const { clReleaseCommandQueue(q); }
    void operator()(cl_kernel k) const { clReleaseKernel(k); }
    void operator()(cl_mem m) const { clReleaseMemObject(m); }
    void operator()(cl_event e) const { clReleaseEvent(e); }
};
template<typename T> using Owned = std::unique_ptr<std::remove_pointer_t<T>, Released>;

void check(cl_int err, const std::string &what)
{
    if (err != CL_SUCCESS)
        throw ClError(what, err);
}

std::string deviceName(cl_device_id device)
{
    return deviceString(device, CL_DEVICE_NAME);
}

// The pointee of "float4*" / "const uint *": the element type compared; bytes when it is a struct.
ElementType pointeeType(const KernelArg *arg)
{
    return arg ? pointeeElementType(arg->typeName) : ElementType{ScalarKind::UChar, 1, 0};
}

// The captured "after" contents are the reference (compare.h's rule, the tolerance absolute and for
// floating types only). Contents of another size cannot be compared: they differ at the first element one
// of them lacks.
ReplayOutput compareOutput(const CapturedArg &arg, const std::vector<unsigned char> &actual,
                           const ElementType &type, double tolerance)
{
    ReplayOutput out;
    out.arg = arg.index;
    out.type = type.name();
    const std::size_t perElement = type.size();
    const BufferBytes want{type, perElement ? arg.after.size() / perElement : 0, arg.after};
    const BufferBytes got{type, perElement ? actual.size() / perElement : 0, actual};
    const BufferComparison c = compareBuffers(want, got, Tolerance::absoluteOf(tolerance));
    out.elements = std::min(want.count, got.count);
    out.equal = c.agrees();
    out.maxAbsDifference = c.maxAbs;
    if (!c.problem.empty()) {
        out.firstDifference = out.elements;
    } else if (c.differing) {
        out.firstDifference = c.firstDifferingElement();
        out.expected = c.referenceAt;
        out.actual = c.otherAt;
    }
    return out;
}

} // namespace

bool ReplayResult::equal() const
{
    for (const ReplayOutput &o : outputs)
        if (!o.equal)
            return false;
    return true;
}

namespace {

// Why one launch of a range cannot be replayed; `seen` holds the memory objects earlier launches of the
// range brought in (their contents flow from there, so only a buffer's first launch needs "before").
std::string launchBlocker(const CapturedLaunch &l, const std::set<std::int64_t> &seen)
{
    // A record that failed the reader's checks: its own words name the table, row and field.
    if (!l.problem.empty())
        return l.problem;
    const std::string what = "launch " + std::to_string(l.index) + " (" + l.kernel + ")";
    if (parseProgramKind(l.programKind) != ProgramKind::Source)
        return what + ": its program was created from " +
               (l.programKind.empty() ? std::string("nothing captured") : l.programKind) +
               ", and replay rebuilds from source (for pyopencl, capture with PYOPENCL_NO_CACHE=1)";
    for (const CapturedArg &a : l.args) {
        const std::string name = what + " argument " + std::to_string(a.index);
        if (a.kind == "mem" && a.memKind != "buffer" && a.memKind != "sub-buffer")
            return name + ": " + a.memKind + " arguments are not replayed yet";
        if (a.kind == "mem" && !a.hasBefore && !seen.contains(a.mem))
            return name + ": its buffer contents were not captured" +
                   (a.beforeState.empty() ? std::string() : " (" + a.beforeState + ")") +
                   "; capture with --launch " + std::to_string(l.index) + " or --contents all";
        if (a.kind == "sampler" || a.kind == "svm" || a.kind == "unset")
            return name + ": " + a.kind + " arguments are not replayed yet";
    }
    return {};
}

// A memory object of the range on the device, and what the capture last said it held (the "after" of the
// last launch that wrote it, else its "before"), to tell the program's own writes between launches from
// the launches' results.
struct ReplayBuffer
{
    Owned<cl_mem> mem;
    std::size_t size = 0;
    std::optional<std::vector<unsigned char>> captured;
};

// The launch checked against the replay device as `run` checks its own (core/src/run/ndrange.cpp): the
// NDRange against the work-item and work-group limits and the address bits, the __local arguments against
// the local memory, the buffers the launch creates against the allocation limits. A launch the device
// cannot take is refused by name before the driver sees it (PoCL aborts or never returns on some).
NDRange checkLimits(const CapturedLaunch &l, const std::map<std::int64_t, ReplayBuffer> &buffers,
                    cl_device_id device, cl_kernel kernel)
{
    try {
        const LaunchLimits limits = queryLaunchLimits(device, kernel, l.options);
        const NDRange range = resolveNDRange({l.global, l.local, l.offset}, limits);
        std::vector<std::uint64_t> local;
        std::vector<std::string> names;
        std::vector<std::uint64_t> bytes;
        for (const CapturedArg &a : l.args) {
            if (a.kind == "local")
                local.push_back(a.size);
            if (a.kind == "mem" && !buffers.contains(a.mem)) {
                names.push_back("argument " + std::to_string(a.index));
                bytes.push_back(a.before.size());
            }
        }
        checkLocalMemory(local, limits);
        checkBufferSizes(names, bytes, limits);
        return range;
    } catch (const RunInputError &e) {
        throw CaptureError("launch " + std::to_string(l.index) + " (" + l.kernel + ") cannot run on " +
                           deviceName(device) + ": " + e.what());
    }
}

} // namespace

std::string replayBlocker(const CapturedLaunch &l)
{
    return launchBlocker(l, {});
}

std::string replayBlocker(const std::vector<CapturedLaunch> &launches)
{
    std::set<std::int64_t> seen;
    for (const CapturedLaunch &l : launches) {
        if (std::string b = launchBlocker(l, seen); !b.empty())
            return b;
        for (const CapturedArg &a : l.args)
            if (a.kind == "mem")
                seen.insert(a.mem);
    }
    return {};
}

ReplayResult replayLaunch(const CapturedLaunch &l, cl_device_id device, double tolerance)
{
    return replayLaunches({l}, device, tolerance).front();
}

std::vector<ReplayResult> replayLaunches(const std::vector<CapturedLaunch> &launches, cl_device_id device,
                                         double tolerance)
{
    if (launches.empty())
        throw CaptureError("no launch to replay");
    if (const std::string blocker = replayBlocker(launches); !blocker.empty())
        throw CaptureError(blocker);

    // One context for the whole range: buffers flow from one launch to the next, whatever program.
    cl_int err = CL_SUCCESS;
    ClContext context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
    check(err, "clCreateContext");
    Owned<cl_command_queue> queue(createCommandQueue(context.get(), device, true));
    std::map<std::pair<std::string, std::string>, BuildResult> builds; // by sources and options
    std::map<std::int64_t, ReplayBuffer> buffers;                      // by the capture's mem_objects.id
    std::vector<ReplayResult> results;
    for (const CapturedLaunch &l : launches) {
        const std::string what = "launch " + std::to_string(l.index) + " (" + l.kernel + ")";
        std::string source;
        for (const std::string &s : l.sources)
            source += s;
        auto built = builds.find({source, l.options});
        if (built == builds.end()) {
            BuildRequest req;
            req.devices = {device};
            req.context = context.get();
            req.source = source;
            // Oclgrind refuses -g ("unknown argument") and keeps line information without it: a launch
            // captured with -g (to be debugged) replays there.
            req.options = isOclgrindDevice(device) ? withoutDebugOption(l.options) : l.options;
            req.platformDefaults = false;
            req.environmentOptions = false;
            BuildResult build = buildProgram(req, BinaryCache());
            if (!build.success()) {
                std::string log = build.logs().empty() ? std::string() : build.logs().front().log;
                throw CaptureError(what + ": the captured source does not build on " + deviceName(device) +
                                   ":\n" + log);
            }
            built = builds.emplace(std::make_pair(source, l.options), std::move(build)).first;
        }
        const BuildResult &build = built->second;
        const KernelInfo *info = build.kernel(l.kernel);

        ReplayResult result;
        result.launch = l.index;
        result.kernel = l.kernel;
        result.capturedDevice = l.device;
        result.device = deviceName(device);
        Owned<cl_kernel> kernel(clCreateKernel(build.program(), l.kernel.c_str(), &err));
        check(err, "clCreateKernel(" + l.kernel + ")");
        const NDRange range = checkLimits(l, buffers, device, kernel.get());
        for (const CapturedArg &a : l.args) {
            const std::string argName = "clSetKernelArg(" + std::to_string(a.index) + ")";
            if (a.kind == "mem") {
                auto it = buffers.find(a.mem);
                if (it == buffers.end()) {
                    // First use in the range: its captured "before".
                    std::vector<unsigned char> init = a.before;
                    ReplayBuffer b;
                    b.size = init.size();
                    b.mem.reset(clCreateBuffer(context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                               init.size(), init.data(), &err));
                    check(err, "clCreateBuffer(argument " + std::to_string(a.index) + ")");
                    b.captured = a.before;
                    it = buffers.emplace(a.mem, std::move(b)).first;
                } else if (a.hasBefore && it->second.captured && *it->second.captured != a.before &&
                           a.before.size() == it->second.size) {
                    // The program changed it between the launches (a write, a copy, a fill): as it did.
                    check(clEnqueueWriteBuffer(queue.get(), it->second.mem.get(), CL_TRUE, 0, a.before.size(),
                                               a.before.data(), 0, nullptr, nullptr),
                          "clEnqueueWriteBuffer(argument " + std::to_string(a.index) + ")");
                    it->second.captured = a.before;
                    result.reloaded.push_back(a.index);
                }
                cl_mem m = it->second.mem.get();
                check(clSetKernelArg(kernel.get(), a.index, sizeof m, &m), argName);
            } else if (a.kind == "local") {
                check(clSetKernelArg(kernel.get(), a.index, a.size, nullptr), argName);
            } else {
                check(clSetKernelArg(kernel.get(), a.index, a.value.size(), a.value.data()), argName);
            }
        }
        cl_event ev = nullptr;
        check(clEnqueueNDRangeKernel(queue.get(), kernel.get(), cl_uint(range.global.size()),
                                     range.offset.data(), range.global.data(),
                                     range.local.empty() ? nullptr : range.local.data(), 0, nullptr, &ev),
              "clEnqueueNDRangeKernel(" + l.kernel + ")");
        Owned<cl_event> event(ev);
        check(clWaitForEvents(1, &ev), "clWaitForEvents");
        cl_ulong start = 0, end = 0;
        if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) ==
                CL_SUCCESS &&
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS &&
            end >= start)
            result.durationNs = end - start;
        for (const CapturedArg &a : l.args) {
            if (a.kind != "mem")
                continue;
            ReplayBuffer &b = buffers.at(a.mem);
            if (!a.hasAfter) {
                b.captured.reset(); // what the launch left is not known from the capture
                continue;
            }
            std::vector<unsigned char> actual(b.size);
            check(clEnqueueReadBuffer(queue.get(), b.mem.get(), CL_TRUE, 0, actual.size(), actual.data(), 0,
                                      nullptr, nullptr),
                  "clEnqueueReadBuffer(argument " + std::to_string(a.index) + ")");
            const KernelArg *karg = info && a.index < info->args.size() ? &info->args[a.index] : nullptr;
            ReplayOutput o = compareOutput(a, actual, pointeeType(karg), tolerance);
            if (karg)
                o.name = karg->name;
            result.outputs.push_back(std::move(o));
            b.captured = a.after;
        }
        results.push_back(std::move(result));
    }
    return results;
}

namespace {
nlohmann::ordered_json replayObject(const ReplayResult &r)
{
    nlohmann::ordered_json j;
    j["launch"] = r.launch;
    j["kernel"] = r.kernel;
    j["captured_device"] = r.capturedDevice;
    j["device"] = r.device;
    j["duration_ns"] = r.durationNs;
    j["equal"] = r.equal();
    if (!r.reloaded.empty())
        j["reloaded_args"] = r.reloaded;
    j["outputs"] = nlohmann::ordered_json::array();
    auto num = [](double v) {
        return std::isfinite(v) ? nlohmann::ordered_json(v)
                                : nlohmann::ordered_json(std::isnan(v) ? "nan"
                                                         : v > 0       ? "inf"
                                                                       : "-inf");
    };
    for (const ReplayOutput &o : r.outputs) {
        nlohmann::ordered_json x;
        x["arg"] = o.arg;
        x["name"] = o.name;
        x["type"] = o.type;
        x["elements"] = o.elements;
        x["equal"] = o.equal;
        x["first_difference"] =
            o.firstDifference ? nlohmann::ordered_json(*o.firstDifference) : nlohmann::ordered_json();
        if (o.firstDifference) {
            x["expected"] = num(o.expected);
            x["actual"] = num(o.actual);
        }
        x["max_abs_difference"] = num(o.maxAbsDifference);
        j["outputs"].push_back(std::move(x));
    }
    return j;
}
} // namespace

std::string replayArgumentName(const ReplayOutput &o)
{
    return "argument " + std::to_string(o.arg) + (o.name.empty() ? std::string() : " (" + o.name + ")");
}

std::string replayVerdict(const ReplayOutput &o)
{
    if (o.equal)
        return "equal";
    const auto g = [](double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", v);
        return std::string(text);
    };
    return "differs at element " + std::to_string(o.firstDifference.value_or(0)) + ": expected " +
           g(o.expected) + ", got " + g(o.actual) + " (largest difference " + g(o.maxAbsDifference) + ")";
}

std::string replayVerdict(const ReplayResult &r)
{
    if (r.outputs.empty())
        return "nothing compared: no buffer has captured \"after\" contents";
    if (r.equal())
        return "equal";
    std::string text;
    for (const ReplayOutput &o : r.outputs) {
        if (!o.equal)
            text += (text.empty() ? "" : "; ") + replayArgumentName(o) + " " + replayVerdict(o);
    }
    return text;
}

std::string replayJson(const ReplayResult &r, int indent)
{
    // Kernel and device names are the program's and the driver's bytes: invalid UTF-8 becomes U+FFFD.
    return replayObject(r).dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string replayJson(const std::vector<ReplayResult> &results, int indent)
{
    nlohmann::ordered_json j;
    const auto differs =
        std::find_if(results.begin(), results.end(), [](const ReplayResult &r) { return !r.equal(); });
    j["first"] = results.empty() ? 0 : results.front().launch;
    j["last"] = results.empty() ? 0 : results.back().launch;
    j["equal"] = differs == results.end();
    j["first_differing_launch"] =
        differs == results.end() ? nlohmann::ordered_json() : nlohmann::ordered_json(differs->launch);
    j["launches"] = nlohmann::ordered_json::array();
    for (const ReplayResult &r : results)
        j["launches"].push_back(replayObject(r));
    return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace clscope
