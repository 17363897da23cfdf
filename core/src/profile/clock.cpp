// Device timestamps to host time: clGetDeviceAndHostTimer where the platform has a host timer, else a
// calibration with markers whose END is bracketed by two steady_clock reads.
#include "clscope/clquery.h"
#include "clscope/error.h"
#include "clscope/profile.h"
#include "clscope/version.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>

namespace clscope {

namespace {

std::int64_t signedDifference(std::uint64_t a, std::uint64_t b)
{
    // a - b for clocks whose epochs differ by less than 2^63 ns (292 years): modular arithmetic is exact.
    return static_cast<std::int64_t>(a - b);
}

std::string platformVersion(cl_platform_id platform)
{
    return platformString(platform, CL_PLATFORM_VERSION);
}

// The host timer of OpenCL is "a host clock" of the implementation's choice, not necessarily steady_clock,
// so it is itself bracketed by steady_clock reads: device -> CL host timer -> steady_clock.
std::optional<ClockMapping> hostTimerMapping(cl_device_id device)
{
    cl_platform_id platform = nullptr;
    if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) != CL_SUCCESS)
        return std::nullopt;
    const auto version = parseOpenCLVersion(platformVersion(platform));
    if (!version || *version < ClVersion{2, 1, 0})
        return std::nullopt;
    cl_ulong resolution = 0;
    if (clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution,
                          nullptr) != CL_SUCCESS ||
        resolution == 0)
        return std::nullopt;

    std::optional<ClockMapping> best;
    for (int round = 0; round < 5; ++round) {
        cl_ulong deviceTime = 0;
        cl_ulong hostTimer = 0;
        if (clGetDeviceAndHostTimer(device, &deviceTime, &hostTimer) != CL_SUCCESS)
            return std::nullopt;
        const std::uint64_t before = hostNowNs();
        cl_ulong hostTimer2 = 0;
        if (clGetHostTimer(device, &hostTimer2) != CL_SUCCESS)
            return std::nullopt;
        const std::uint64_t after = hostNowNs();
        const std::uint64_t mid = before + (after - before) / 2;
        ClockMapping m;
        m.source = ClockMapping::Source::HostTimer;
        m.offsetNs = signedDifference(hostTimer, deviceTime) + signedDifference(mid, hostTimer2);
        m.uncertaintyNs = (after - before) / 2 + resolution;
        if (!best || m.uncertaintyNs < best->uncertaintyNs)
            best = m;
    }
    return best;
}

} // namespace

std::uint64_t ClockMapping::toHost(std::uint64_t deviceNs) const
{
    return deviceNs + static_cast<std::uint64_t>(offsetNs);
}

std::uint64_t ClockMapping::toDevice(std::uint64_t hostNs) const
{
    return hostNs - static_cast<std::uint64_t>(offsetNs);
}

std::string_view sourceName(ClockMapping::Source source)
{
    switch (source) {
    case ClockMapping::Source::Identity:
        return "identity";
    case ClockMapping::Source::HostTimer:
        return "host-timer";
    case ClockMapping::Source::Calibration:
        return "calibration";
    }
    return "identity";
}

std::uint64_t hostNowNs()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

ClockMapping calibrateWithMarkers(cl_command_queue queue, int rounds)
{
    // Work already queued would widen the first bracket: drain it first. The tightest bracket of a few
    // rounds wins, which filters out a round where the thread was descheduled.
    check(clFinish(queue), "clFinish");
    ClockMapping best;
    best.uncertaintyNs = std::numeric_limits<std::uint64_t>::max();
    for (int round = 0; round < std::max(1, rounds); ++round) {
        cl_event event = nullptr;
        const std::uint64_t before = hostNowNs();
        check(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event), "clEnqueueMarkerWithWaitList");
        const cl_int waited = clWaitForEvents(1, &event);
        const std::uint64_t after = hostNowNs();
        cl_ulong end = 0;
        const cl_int info = waited == CL_SUCCESS ? clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END,
                                                                           sizeof end, &end, nullptr)
                                                 : waited;
        clReleaseEvent(event);
        check(waited, "clWaitForEvents");
        check(info, "clGetEventProfilingInfo", "CL_PROFILING_COMMAND_END of a calibration marker");
        const std::uint64_t mid = before + (after - before) / 2;
        const std::uint64_t uncertainty = (after - before) / 2;
        if (uncertainty < best.uncertaintyNs) {
            best.source = ClockMapping::Source::Calibration;
            best.offsetNs = signedDifference(mid, end);
            best.uncertaintyNs = uncertainty;
        }
    }
    return best;
}

ClockMapping calibrate(cl_device_id device, cl_command_queue queue)
{
    if (auto mapping = hostTimerMapping(device))
        return *mapping;
    return calibrateWithMarkers(queue);
}

void mapToHost(std::vector<CommandRecord> &records, const ClockMapping &mapping)
{
    auto map = [&mapping](std::uint64_t &t) {
        if (t != 0)
            t = mapping.toHost(t);
    };
    for (CommandRecord &r : records) {
        if (r.hostSpan)
            continue;
        map(r.queued);
        map(r.submit);
        map(r.start);
        map(r.end);
        if (r.complete)
            map(*r.complete);
    }
}

} // namespace clscope
