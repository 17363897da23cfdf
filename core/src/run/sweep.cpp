// Work-group size sweeps (sweep.h): the candidates a device and kernel allow, and one runKernel per
// candidate with its launches timed and its buffers compared against the reference's.
#include "clscope/sweep.h"

#include "clscope/clhandle.h"
#include "clscope/compare.h"
#include "clscope/error.h"
#include "clscope/kernelargs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace clscope {

namespace {

bool isPowerOfTwo(std::size_t v)
{
    return v && !(v & (v - 1));
}

std::size_t product(const std::vector<std::size_t> &v)
{
    return std::accumulate(v.begin(), v.end(), std::size_t(1), std::multiplies<>());
}

// Divisors of n no larger than limit, ascending; every value up to limit when `any` (non-uniform groups).
std::vector<std::size_t> dimensionSizes(std::size_t n, std::size_t limit, bool any)
{
    std::vector<std::size_t> out;
    const std::size_t top = std::min(n, limit);
    for (std::size_t v = 1; v <= top; ++v) {
        if (any ? isPowerOfTwo(v) || n % v == 0 : n % v == 0)
            out.push_back(v);
    }
    return out;
}

// Every shape from the per-dimension sizes within the work-group limit.
void shapes(const std::vector<std::vector<std::size_t>> &sizes, std::size_t limit,
            std::vector<std::size_t> &shape, std::vector<std::vector<std::size_t>> &out)
{
    const std::size_t d = shape.size();
    if (d == sizes.size()) {
        out.push_back(shape);
        return;
    }
    const std::size_t sofar = product(shape);
    for (std::size_t v : sizes[d]) {
        if (sofar * v > limit)
            break;
        shape.push_back(v);
        shapes(sizes, limit, shape, out);
        shape.pop_back();
    }
}

struct Limits
{
    LaunchLimits launch;
    std::size_t preferredMultiple = 1;
};

Limits queryLimits(const RunRequest &run)
{
    if (!run.build.success() || !run.build.program())
        throw RunInputError("the program did not build");
    if (!run.build.kernel(run.kernel))
        throw RunInputError("unknown kernel '" + run.kernel + "'");
    cl_device_id device = run.device ? run.device : run.build.logs().front().id;
    cl_int err = CL_SUCCESS;
    ClKernel kernel(clCreateKernel(run.build.program(), run.kernel.c_str(), &err));
    check(err, ("clCreateKernel(" + run.kernel + ")").c_str());
    Limits l;
    l.launch = queryLaunchLimits(device, kernel.get(), run.build.options());
    std::size_t multiple = 0;
    if (clGetKernelWorkGroupInfo(kernel.get(), device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                 sizeof multiple, &multiple, nullptr) == CL_SUCCESS &&
        multiple > 0)
        l.preferredMultiple = multiple;
    return l;
}

} // namespace

std::vector<std::vector<std::size_t>> localSizeCandidates(const LaunchLimits &limits,
                                                          std::size_t preferredMultiple,
                                                          const std::vector<std::size_t> &global,
                                                          std::size_t maxCandidates)
{
    if (global.empty() || global.size() > 3)
        return {};
    const std::array<std::size_t, 3> &reqd = limits.compileWorkGroupSize;
    if (reqd[0] != 0)
        return {std::vector<std::size_t>(reqd.begin(), reqd.begin() + std::ptrdiff_t(global.size()))};

    std::size_t groupLimit = limits.maxWorkGroupSize ? limits.maxWorkGroupSize : SIZE_MAX;
    if (limits.kernelWorkGroupSize)
        groupLimit = std::min(groupLimit, limits.kernelWorkGroupSize);
    const std::size_t multiple = std::max<std::size_t>(preferredMultiple, 1);
    std::vector<std::vector<std::size_t>> sizes;
    for (std::size_t d = 0; d < global.size(); ++d) {
        const std::size_t itemLimit =
            d < limits.maxWorkItemSizes.size() ? limits.maxWorkItemSizes[d] : SIZE_MAX;
        if (global.size() == 1) {
            // Multiples of the preferred multiple; the divisors below it only when no multiple fits.
            std::vector<std::size_t> ones;
            for (std::size_t v = multiple; v <= std::min(groupLimit, itemLimit); v += multiple) {
                if (limits.nonUniformWorkGroups ? v <= global[0] : global[0] % v == 0)
                    ones.push_back(v);
            }
            if (ones.empty())
                ones = dimensionSizes(global[0], std::min(groupLimit, itemLimit), false);
            sizes.push_back(std::move(ones));
        } else {
            sizes.push_back(dimensionSizes(global[d], itemLimit, limits.nonUniformWorkGroups));
        }
    }
    std::vector<std::vector<std::size_t>> all;
    std::vector<std::size_t> shape;
    shapes(sizes, groupLimit, shape, all);
    if (global.size() > 1) {
        std::vector<std::vector<std::size_t>> multiples;
        std::copy_if(all.begin(), all.end(), std::back_inserter(multiples),
                     [multiple](const auto &s) { return product(s) % multiple == 0; });
        if (!multiples.empty())
            all = std::move(multiples);
    }
    std::stable_sort(all.begin(), all.end(), [](const auto &a, const auto &b) {
        const std::size_t pa = product(a), pb = product(b);
        return pa != pb ? pa < pb : a < b;
    });
    if (all.size() > maxCandidates) {
        std::vector<std::vector<std::size_t>> powers;
        std::copy_if(all.begin(), all.end(), std::back_inserter(powers),
                     [](const auto &s) { return std::all_of(s.begin(), s.end(), isPowerOfTwo); });
        if (!powers.empty())
            all = std::move(powers);
    }
    if (maxCandidates && all.size() > maxCandidates) {
        std::vector<std::vector<std::size_t>> every;
        for (std::size_t i = 0; i < maxCandidates; ++i)
            every.push_back(all[i * all.size() / maxCandidates]);
        all = std::move(every);
    }
    return all;
}

std::vector<std::vector<std::size_t>> parseLocalCandidates(std::string_view text)
{
    std::vector<std::vector<std::size_t>> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find_first_of("; ", pos), text.size());
        const std::string_view word = text.substr(pos, end - pos);
        pos = end + 1;
        if (word.empty())
            continue;
        if (word == "driver")
            out.emplace_back();
        else
            out.push_back(parseSizeList(word, "local size candidate"));
    }
    if (out.empty())
        throw RunInputError("no local size candidates in '" + std::string(text) + "'");
    return out;
}

std::string localSizeLabel(const std::vector<std::size_t> &local)
{
    return local.empty() ? std::string("driver") : formatSizeList(local);
}

SweepResult sweepLocalSizes(const SweepRequest &request, const SweepOptions &options)
{
    if (request.repeat < 1)
        throw RunInputError("repeat count " + std::to_string(request.repeat) + " must be at least 1");
    if (request.warmup < 0)
        throw RunInputError("warm-up count " + std::to_string(request.warmup) + " must not be negative");
    std::vector<std::vector<std::size_t>> candidates{request.run.range.local};
    if (request.candidates.empty()) {
        const Limits limits = queryLimits(request.run);
        candidates.emplace_back(); // the driver's choice
        for (auto &c : localSizeCandidates(limits.launch, limits.preferredMultiple, request.run.range.global))
            candidates.push_back(std::move(c));
    } else {
        candidates.insert(candidates.end(), request.candidates.begin(), request.candidates.end());
    }
    // Each size once, in the order first given.
    std::vector<std::vector<std::size_t>> unique;
    for (auto &c : candidates) {
        if (std::find(unique.begin(), unique.end(), c) == unique.end())
            unique.push_back(std::move(c));
    }

    SweepResult out;
    out.kernel = request.run.kernel;
    out.global = request.run.range.global;
    out.repeat = request.repeat;
    out.warmup = request.warmup;
    RunOptions runOptions;
    runOptions.cancel = options.cancel;
    std::optional<RunResult> reference;
    std::map<std::string, std::size_t> inputErrors; // RunInputError message -> candidates that gave it
    for (std::size_t i = 0; i < unique.size(); ++i) {
        if (options.cancel && options.cancel->load()) {
            out.cancelled = true;
            break;
        }
        SweepPoint point;
        point.local = unique[i];
        RunRequest run = request.run;
        run.range.local = point.local;
        run.repeat = request.warmup + request.repeat;
        run.readBack.clear();
        run.readBackAll = true;
        try {
            const RunResult result = runKernel(run, runOptions);
            if (result.cancelled()) {
                out.cancelled = true;
                break;
            }
            out.device = result.device();
            std::vector<std::uint64_t> durations;
            for (std::size_t l = std::size_t(request.warmup); l < result.launches().size(); ++l)
                durations.push_back(result.launches()[l].duration());
            point.stats = summarize(std::move(durations));
            point.stats.name = result.kernel();
            point.ran = true;
            if (!reference) {
                reference = result;
                out.reference = out.points.size();
            } else {
                for (const BufferData &b : result.buffers()) {
                    const BufferData *r = reference->buffer(b.name);
                    if (!r || !compareBuffers(*r, b).agrees()) // exact: compare.h
                        point.differing.push_back(b.name);
                }
                point.matches = point.differing.empty();
            }
        } catch (const RunInputError &e) {
            point.error = e.what();
            ++inputErrors[point.error];
        } catch (const Error &e) {
            point.error = e.what();
        }
        out.points.push_back(std::move(point));
        if (options.progress)
            options.progress(i + 1, unique.size());
    }
    // The same input error for every candidate is the launch's, not a local size's.
    if (!reference && !out.cancelled && inputErrors.size() == 1 &&
        inputErrors.begin()->second == out.points.size())
        throw RunInputError(inputErrors.begin()->first);
    for (std::size_t i = 0; i < out.points.size(); ++i) {
        const SweepPoint &p = out.points[i];
        if (p.ran && p.matches && (!out.best || p.stats.medianNs < out.points[*out.best].stats.medianNs))
            out.best = i;
    }
    return out;
}

} // namespace clscope
