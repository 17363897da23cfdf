// Replay of one captured launch on any device: rebuild from the captured source and options, bind the
// captured arguments with buffers from their "before" contents, run once, compare with "after".
#include "clscope/capture.h"

#include "clscope/build.h"
#include "clscope/clquery.h"
#include "clscope/error.h"
#include "clscope/kernelargs.h"
#include "clscope/queue.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

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

ReplayOutput compare(const CapturedArg &arg, const std::vector<unsigned char> &actual,
                     const ElementType &type, double tolerance)
{
    ReplayOutput out;
    out.arg = arg.index;
    out.type = type.name();
    const std::size_t scalar = scalarSize(type.scalar);
    const std::size_t perElement = type.size();
    const std::size_t n = std::min(actual.size(), arg.after.size());
    out.elements = perElement ? n / perElement : 0;
    if (actual.size() != arg.after.size()) {
        out.equal = false;
        out.firstDifference = out.elements;
    }
    for (std::size_t e = 0; e < out.elements; ++e) {
        for (int c = 0; c < type.width; ++c) {
            const std::size_t at = e * perElement + std::size_t(c) * scalar;
            const double want = toDouble(decodeNumber(type.scalar, arg.after.data() + at));
            const double got = toDouble(decodeNumber(type.scalar, actual.data() + at));
            const bool same = (std::isnan(want) && std::isnan(got)) || want == got ||
                              (isFloating(type.scalar) && std::fabs(want - got) <= tolerance);
            if (!same) {
                const double diff = std::fabs(want - got);
                out.maxAbsDifference = std::isnan(diff) ? diff : std::max(out.maxAbsDifference, diff);
                if (!out.firstDifference || *out.firstDifference > e) {
                    out.firstDifference = e;
                    out.expected = want;
                    out.actual = got;
                }
                out.equal = false;
            }
        }
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

std::string replayBlocker(const CapturedLaunch &l)
{
    const std::string what = "launch " + std::to_string(l.index) + " (" + l.kernel + ")";
    if (l.programKind != "source")
        return what + ": its program was created from " +
               (l.programKind.empty() ? std::string("nothing captured") : l.programKind) +
               ", and replay rebuilds from source (for pyopencl, capture with PYOPENCL_NO_CACHE=1)";
    for (const CapturedArg &a : l.args) {
        const std::string name = what + " argument " + std::to_string(a.index);
        if (a.kind == "mem" && a.memKind != "buffer" && a.memKind != "sub-buffer")
            return name + ": " + a.memKind + " arguments are not replayed yet";
        if (a.kind == "mem" && !a.hasBefore)
            return name + ": its buffer contents were not captured" +
                   (a.beforeState.empty() ? std::string() : " (" + a.beforeState + ")") +
                   "; capture with --launch " + std::to_string(l.index) + " or --contents all";
        if (a.kind == "sampler" || a.kind == "svm" || a.kind == "unset")
            return name + ": " + a.kind + " arguments are not replayed yet";
    }
    return {};
}

ReplayResult replayLaunch(const CapturedLaunch &l, cl_device_id device, double tolerance)
{
    const std::string what = "launch " + std::to_string(l.index) + " (" + l.kernel + ")";
    if (const std::string blocker = replayBlocker(l); !blocker.empty())
        throw CaptureError(blocker);

    BuildRequest req;
    req.devices = {device};
    for (const std::string &s : l.sources)
        req.source += s;
    req.options = l.options;
    req.platformDefaults = false;
    req.environmentOptions = false;
    const BuildResult build = buildProgram(req, BinaryCache());
    if (!build.success()) {
        std::string log = build.logs().empty() ? std::string() : build.logs().front().log;
        throw CaptureError(what + ": the captured source does not build on " + deviceName(device) + ":\n" +
                           log);
    }
    const KernelInfo *info = build.kernel(l.kernel);

    ReplayResult result;
    result.launch = l.index;
    result.kernel = l.kernel;
    result.capturedDevice = l.device;
    result.device = deviceName(device);
    cl_int err = CL_SUCCESS;
    Owned<cl_command_queue> queue(createCommandQueue(build.context(), device, true));
    Owned<cl_kernel> kernel(clCreateKernel(build.program(), l.kernel.c_str(), &err));
    check(err, "clCreateKernel(" + l.kernel + ")");
    std::vector<Owned<cl_mem>> buffers(l.args.size());
    for (std::size_t i = 0; i < l.args.size(); ++i) {
        const CapturedArg &a = l.args[i];
        const std::string argName = "clSetKernelArg(" + std::to_string(a.index) + ")";
        if (a.kind == "mem") {
            std::vector<unsigned char> init = a.before;
            buffers[i].reset(clCreateBuffer(build.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                            init.size(), init.data(), &err));
            check(err, "clCreateBuffer(argument " + std::to_string(a.index) + ")");
            cl_mem m = buffers[i].get();
            check(clSetKernelArg(kernel.get(), a.index, sizeof m, &m), argName);
        } else if (a.kind == "local") {
            check(clSetKernelArg(kernel.get(), a.index, a.size, nullptr), argName);
        } else {
            check(clSetKernelArg(kernel.get(), a.index, a.value.size(), a.value.data()), argName);
        }
    }
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(queue.get(), kernel.get(), cl_uint(l.dims), l.offset.data(), l.global.data(),
                                 l.local.empty() ? nullptr : l.local.data(), 0, nullptr, &ev),
          "clEnqueueNDRangeKernel(" + l.kernel + ")");
    Owned<cl_event> event(ev);
    check(clWaitForEvents(1, &ev), "clWaitForEvents");
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS &&
        end >= start)
        result.durationNs = end - start;
    for (std::size_t i = 0; i < l.args.size(); ++i) {
        const CapturedArg &a = l.args[i];
        if (a.kind != "mem" || !a.hasAfter)
            continue;
        std::vector<unsigned char> actual(a.before.size());
        check(clEnqueueReadBuffer(queue.get(), buffers[i].get(), CL_TRUE, 0, actual.size(), actual.data(), 0,
                                  nullptr, nullptr),
              "clEnqueueReadBuffer(argument " + std::to_string(a.index) + ")");
        const KernelArg *karg = info && a.index < info->args.size() ? &info->args[a.index] : nullptr;
        ReplayOutput o = compare(a, actual, pointeeType(karg), tolerance);
        if (karg)
            o.name = karg->name;
        result.outputs.push_back(std::move(o));
    }
    return result;
}

std::string replayJson(const ReplayResult &r, int indent)
{
    nlohmann::ordered_json j;
    j["launch"] = r.launch;
    j["kernel"] = r.kernel;
    j["captured_device"] = r.capturedDevice;
    j["device"] = r.device;
    j["duration_ns"] = r.durationNs;
    j["equal"] = r.equal();
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
    return j.dump(indent);
}

} // namespace clscope
