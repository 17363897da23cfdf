// Parsing and matching of device selection specs (see devicespec.h for the grammar).
#include "clscope/devicespec.h"

#include "clscope/clquery.h"
#include "clscope/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace clscope {
namespace {

std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t pos = s.find(sep, start);
        out.emplace_back(
            trimSpace(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start)));
        if (pos == std::string_view::npos)
            break;
        start = pos + 1;
    }
    return out;
}

bool isIndex(const std::string &s, int &value)
{
    if (s.empty())
        return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && p == s.data() + s.size() && value >= 0;
}

bool typeMatches(const std::string &word, cl_device_type type)
{
    if (word == "gpu")
        return type & CL_DEVICE_TYPE_GPU;
    if (word == "cpu")
        return type & CL_DEVICE_TYPE_CPU;
    if (word == "accelerator")
        return type & CL_DEVICE_TYPE_ACCELERATOR;
    return false;
}

bool platformMatches(const std::string &term, const DeviceCandidate &c)
{
    if (term.empty())
        return true;
    int index = 0;
    if (isIndex(term, index))
        return index == c.platformIndex;
    const std::string t = lowerAscii(term);
    return lowerAscii(c.platformName).find(t) != std::string::npos ||
           lowerAscii(c.platformVendor).find(t) != std::string::npos;
}

bool deviceMatches(const std::string &term, const DeviceCandidate &c)
{
    int index = 0;
    if (isIndex(term, index))
        return index == c.deviceIndex;
    const std::string t = lowerAscii(term);
    return typeMatches(t, c.type) || lowerAscii(c.deviceName).find(t) != std::string::npos ||
           lowerAscii(c.deviceVendor).find(t) != std::string::npos;
}

} // namespace

std::vector<DeviceSpecTerm> parseDeviceSpec(std::string_view spec)
{
    std::vector<DeviceSpecTerm> terms;
    for (const std::string &part : split(spec, ';')) {
        if (part.empty())
            throw DeviceSpecError("bad device spec '" + std::string(spec) + "': empty term");
        const size_t colon = part.find(':');
        DeviceSpecTerm term;
        if (colon == std::string::npos) {
            // A bare word is a platform ("pocl", "0") unless it names a device type ("gpu").
            const std::string t = lowerAscii(part);
            if (t == "gpu" || t == "cpu" || t == "accelerator")
                term.devices.push_back(t);
            else
                term.platform = part;
        } else {
            if (part.find(':', colon + 1) != std::string::npos)
                throw DeviceSpecError("bad device spec '" + std::string(spec) + "': more than one ':' in '" +
                                      part + "'");
            term.platform = trimSpace(std::string_view(part).substr(0, colon));
            const std::string devs(trimSpace(std::string_view(part).substr(colon + 1)));
            if (!devs.empty()) {
                for (const std::string &d : split(devs, ',')) {
                    if (d.empty())
                        throw DeviceSpecError("bad device spec '" + std::string(spec) +
                                              "': empty device in '" + part + "'");
                    term.devices.push_back(d);
                }
            }
        }
        terms.push_back(std::move(term));
    }
    return terms;
}

std::vector<size_t> matchDeviceSpec(std::string_view spec, const std::vector<DeviceCandidate> &candidates)
{
    std::vector<size_t> picked;
    if (trimSpace(spec).empty()) {
        // A GPU, else a real device (PoCL), and a simulator only when nothing else is there: Oclgrind says it
        // is of every type (CPU, GPU, accelerator and default) so that any query finds it.
        auto simulator = [&](size_t i) {
            return lowerAscii(candidates[i].platformName).find("oclgrind") != std::string::npos;
        };
        for (size_t i = 0; i < candidates.size(); ++i) {
            if ((candidates[i].type & CL_DEVICE_TYPE_GPU) && !simulator(i))
                return {i};
        }
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (!simulator(i))
                return {i};
        }
        if (!candidates.empty())
            picked.push_back(0);
        return picked;
    }
    const auto terms = parseDeviceSpec(spec);
    for (size_t i = 0; i < candidates.size(); ++i) {
        const DeviceCandidate &c = candidates[i];
        for (const DeviceSpecTerm &term : terms) {
            if (!platformMatches(term.platform, c))
                continue;
            const bool anyDevice = term.devices.empty();
            const bool hit =
                anyDevice || std::any_of(term.devices.begin(), term.devices.end(),
                                         [&](const std::string &d) { return deviceMatches(d, c); });
            if (hit) {
                picked.push_back(i);
                break;
            }
        }
    }
    return picked;
}

std::vector<SelectedDevice> listDevices(std::vector<DeviceCandidate> *candidates)
{
    std::vector<SelectedDevice> out;
    // A platform whose devices cannot be listed (an error, a count over kMaxDevices) has none to choose;
    // `info` says why.
    const std::vector<cl_platform_id> platforms = platformIds().ids;
    for (size_t p = 0; p < platforms.size(); ++p) {
        const std::vector<cl_device_id> devices = deviceIds(platforms[p]).ids;
        if (devices.empty())
            continue;
        const std::string pname = platformString(platforms[p], CL_PLATFORM_NAME);
        const std::string pvendor = platformString(platforms[p], CL_PLATFORM_VENDOR);
        for (size_t d = 0; d < devices.size(); ++d) {
            SelectedDevice s{platforms[p],        devices[d], static_cast<int>(p),
                             static_cast<int>(d), pname,      deviceString(devices[d], CL_DEVICE_NAME)};
            if (candidates) {
                cl_device_type type = 0;
                clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, nullptr);
                candidates->push_back({s.platformIndex, s.deviceIndex, pname, pvendor, s.deviceName,
                                       deviceString(devices[d], CL_DEVICE_VENDOR), type});
            }
            out.push_back(std::move(s));
        }
    }
    return out;
}

std::string effectiveDeviceSpec(std::string_view fromCommandLine)
{
    if (!trimSpace(fromCommandLine).empty())
        return std::string(fromCommandLine);
    if (const char *env = std::getenv("CLSCOPE_DEVICE"))
        return env;
    return {};
}

std::vector<SelectedDevice> selectDevices(std::string_view spec)
{
    std::vector<DeviceCandidate> candidates;
    std::vector<SelectedDevice> all = listDevices(&candidates);
    if (all.empty())
        throw DeviceSpecError(
            "no OpenCL device found (install an OpenCL driver, e.g. the pocl-opencl-icd package)");
    const auto picked = matchDeviceSpec(spec, candidates);
    if (picked.empty()) {
        std::string names;
        for (const auto &c : candidates)
            names += (names.empty() ? "" : ", ") + std::to_string(c.platformIndex) + ':' +
                     std::to_string(c.deviceIndex) + " " + c.platformName + " / " + c.deviceName;
        throw DeviceSpecError("no OpenCL device matches '" + std::string(spec) + "' (devices: " + names +
                              ")");
    }
    std::vector<SelectedDevice> out;
    for (size_t i : picked)
        out.push_back(all[i]);
    return out;
}

SelectedDevice selectDevice(std::string_view spec)
{
    return selectDevices(spec).front();
}

} // namespace clscope
