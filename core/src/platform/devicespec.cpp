// Parsing and matching of device selection specs (see devicespec.h for the grammar).
#include "clscope/devicespec.h"

#include "clscope/clquery.h"
#include "clscope/deviceinfo.h"
#include "clscope/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <optional>

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

// ---- pyopencl's own reading of PYOPENCL_CTX and PYOPENCL_TEST (pyopencl 2022.3: create_some_context and
// tools.get_test_platforms_and_devices), on the same platform and device order as the loader gives both.

constexpr std::string_view kCtxPrefix = "PYOPENCL_CTX=";
constexpr std::string_view kTestPrefix = "PYOPENCL_TEST=";

// Python's split(sep): no trimming, an empty string gives one empty part.
std::vector<std::string> splitExact(std::string_view s, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t pos; (pos = s.find(sep, start)) != std::string_view::npos; start = pos + 1)
        out.emplace_back(s.substr(start, pos - start));
    out.emplace_back(s.substr(start));
    return out;
}

// Python's int(text): blanks around, an optional sign, decimal digits with single underscores between them.
std::optional<long long> pythonInt(std::string_view text)
{
    text = trimSpace(text);
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || text.front() == '_' || text.back() == '_' ||
        text.find("__") != std::string_view::npos)
        return std::nullopt;
    long long value = 0;
    for (char c : text) {
        if (c == '_')
            continue;
        if (c < '0' || c > '9' || value > (std::numeric_limits<long long>::max() - 9) / 10)
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return negative ? -value : value;
}

bool containsLower(const std::string &haystack, const std::string &needle)
{
    return lowerAscii(haystack).find(lowerAscii(needle)) != std::string::npos;
}

// The platforms as pyopencl's get_platforms() lists them, each with its candidates in device order.
struct PlatformDevices
{
    std::string name;
    std::string vendor;
    std::vector<std::size_t> devices; // indices into the candidates
};

std::vector<PlatformDevices> platformsOf(const std::vector<DeviceCandidate> &candidates)
{
    std::vector<PlatformDevices> out;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const DeviceCandidate &c = candidates[i];
        if (c.platformIndex < 0)
            continue;
        if (out.size() <= std::size_t(c.platformIndex))
            out.resize(std::size_t(c.platformIndex) + 1);
        PlatformDevices &p = out[std::size_t(c.platformIndex)];
        p.name = c.platformName;
        p.vendor = c.platformVendor;
        p.devices.push_back(i);
    }
    return out;
}

[[noreturn]] void pyopenclError(std::string_view variable, std::string_view value, const std::string &why)
{
    throw DeviceSpecError(std::string(variable) + "='" + std::string(value) + "': " + why +
                          " (read as pyopencl reads it)");
}

// create_some_context(): the platform by index or by the last platform whose name contains the answer, the
// devices by index or the first whose name contains each comma-separated answer; a platform of one
// device takes no device answer, and an answer left over is an error, as in pyopencl.
std::vector<std::size_t> matchPyopenclCtx(std::string_view value,
                                          const std::vector<DeviceCandidate> &candidates)
{
    constexpr std::string_view var = "PYOPENCL_CTX";
    const std::vector<PlatformDevices> platforms = platformsOf(candidates);
    if (platforms.empty())
        pyopenclError(var, value, "no platforms found");
    std::vector<std::string> answers = splitExact(value, ':');
    auto next = [&answers] {
        if (answers.empty())
            return std::string();
        std::string a = answers.front();
        answers.erase(answers.begin());
        return a;
    };
    const std::string platformAnswer = next();
    const PlatformDevices *platform = nullptr;
    if (platformAnswer.empty()) {
        platform = &platforms.front();
    } else {
        const std::optional<long long> index = pythonInt(platformAnswer);
        if (index && *index >= 0 && std::size_t(*index) < platforms.size())
            platform = &platforms[std::size_t(*index)];
        // Not an index in range: by name, and pyopencl keeps looking after a match (the last one wins).
        if (!platform) {
            for (const PlatformDevices &p : platforms) {
                if (containsLower(p.name, platformAnswer))
                    platform = &p;
            }
        }
        if (!platform)
            pyopenclError(var, value, "input did not match any platform");
    }
    if (platform->devices.empty())
        pyopenclError(var, value, "no devices found");
    std::vector<std::size_t> picked;
    if (platform->devices.size() == 1) {
        picked.push_back(platform->devices.front());
    } else {
        const std::string deviceAnswer = next();
        if (deviceAnswer.empty()) {
            picked.push_back(platform->devices.front());
        } else {
            for (const std::string &choice : splitExact(deviceAnswer, ',')) {
                std::optional<std::size_t> found;
                const std::optional<long long> index = pythonInt(choice);
                if (index && *index >= 0 && std::size_t(*index) < platform->devices.size())
                    found = platform->devices[std::size_t(*index)];
                for (std::size_t d = 0; !found && d < platform->devices.size(); ++d) {
                    if (containsLower(candidates[platform->devices[d]].deviceName, choice))
                        found = platform->devices[d];
                }
                if (!found)
                    pyopenclError(var, value, "input did not match any device");
                picked.push_back(*found);
            }
        }
    }
    if (!answers.empty()) {
        std::string left;
        for (const std::string &a : answers)
            left += (left.empty() ? "" : ":") + a;
        pyopenclError(var, value, "not all provided choices were used (left over: '" + left + "')");
    }
    return picked;
}

// get_test_platforms_and_devices(): ';'-separated entries PLATFORM or PLATFORM:DEV,DEV; each found by index
// (Python's, so -1 is the last) or as the first whose name + " " + vendor contains it.
std::vector<std::size_t> matchPyopenclTest(std::string_view value,
                                           const std::vector<DeviceCandidate> &candidates)
{
    constexpr std::string_view var = "PYOPENCL_TEST";
    const std::vector<PlatformDevices> platforms = platformsOf(candidates);
    auto find = [&](std::size_t count, const std::string &id, auto nameAndVendor) -> std::size_t {
        if (const std::optional<long long> index = pythonInt(id)) {
            const long long at = *index < 0 ? *index + (long long)count : *index;
            if (at < 0 || at >= (long long)count)
                pyopenclError(var, value, "index " + id + " out of range (" + std::to_string(count) + ")");
            return std::size_t(at);
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (containsLower(nameAndVendor(i), id))
                return i;
        }
        pyopenclError(var, value, "object '" + id + "' not found");
    };
    auto platformText = [&](std::size_t i) { return platforms[i].name + " " + platforms[i].vendor; };
    std::vector<std::size_t> picked;
    auto add = [&](std::size_t candidate) {
        if (std::find(picked.begin(), picked.end(), candidate) == picked.end())
            picked.push_back(candidate);
    };
    if (value.empty()) { // every device of every platform
        for (const PlatformDevices &p : platforms)
            for (std::size_t d : p.devices)
                add(d);
        return picked;
    }
    for (const std::string &entry : splitExact(value, ';')) {
        const std::vector<std::string> parts = splitExact(entry, ':');
        if (parts.size() > 2)
            pyopenclError(var, value, "invalid syntax of PYOPENCL_TEST");
        const PlatformDevices &p = platforms[find(platforms.size(), parts[0], platformText)];
        if (parts.size() == 1) {
            for (std::size_t d : p.devices)
                add(d);
            continue;
        }
        auto deviceText = [&](std::size_t i) {
            const DeviceCandidate &c = candidates[p.devices[i]];
            return c.deviceName + " " + c.deviceVendor;
        };
        for (const std::string &id : splitExact(parts[1], ','))
            add(p.devices[find(p.devices.size(), id, deviceText)]);
    }
    return picked;
}

} // namespace

std::vector<DeviceSpecTerm> parseDeviceSpec(std::string_view spec)
{
    // pyopencl's variables are read by their own rules when they are matched; only their syntax is checked.
    if (spec.starts_with(kCtxPrefix))
        return {};
    if (spec.starts_with(kTestPrefix)) {
        for (const std::string &entry : splitExact(spec.substr(kTestPrefix.size()), ';')) {
            if (std::count(entry.begin(), entry.end(), ':') > 1)
                pyopenclError("PYOPENCL_TEST", spec.substr(kTestPrefix.size()),
                              "invalid syntax of PYOPENCL_TEST");
        }
        return {};
    }
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
    if (spec.starts_with(kCtxPrefix))
        return matchPyopenclCtx(spec.substr(kCtxPrefix.size()), candidates);
    if (spec.starts_with(kTestPrefix)) {
        // create_some_context() takes the first device of the list; a list of devices (build --device)
        // takes them all.
        return matchPyopenclTest(spec.substr(kTestPrefix.size()), candidates);
    }
    std::vector<size_t> picked;
    if (lowerAscii(trimSpace(spec)) == "all") {
        for (size_t i = 0; i < candidates.size(); ++i)
            picked.push_back(i);
        return picked;
    }
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
                                       deviceString(devices[d], CL_DEVICE_VENDOR), type, devices[d]});
            }
            out.push_back(std::move(s));
        }
    }
    return out;
}

std::vector<DeviceCandidate> deviceCandidates(const SystemSnapshot &snapshot)
{
    std::vector<DeviceCandidate> out;
    for (const PlatformSnapshot &p : snapshot.platforms) {
        for (const DeviceSnapshot &d : p.devices)
            out.push_back({p.index, d.index, p.name(), p.string("CL_PLATFORM_VENDOR"), d.name(),
                           d.string("CL_DEVICE_VENDOR"), d.integer("CL_DEVICE_TYPE"), d.id});
    }
    return out;
}

std::string candidateList(const std::vector<DeviceCandidate> &candidates)
{
    std::string names;
    for (const DeviceCandidate &c : candidates)
        names += (names.empty() ? "" : ", ") + std::to_string(c.platformIndex) + ':' +
                 std::to_string(c.deviceIndex) + " " + c.platformName + " / " + c.deviceName;
    return names.empty() ? "none" : names;
}

std::string candidateLabel(const DeviceCandidate &candidate)
{
    return candidate.deviceName + " — " + candidate.platformName;
}

std::string effectiveDeviceSpec(std::string_view fromCommandLine)
{
    if (!trimSpace(fromCommandLine).empty())
        return std::string(fromCommandLine);
    if (const char *env = std::getenv("CLSCOPE_DEVICE"))
        return env;
    // As create_some_context() reads them: PYOPENCL_TEST, when set, wins over PYOPENCL_CTX.
    if (const char *env = std::getenv("PYOPENCL_TEST"))
        return std::string(kTestPrefix) + env;
    if (const char *env = std::getenv("PYOPENCL_CTX"))
        return std::string(kCtxPrefix) + env;
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
    if (picked.empty())
        throw DeviceSpecError("no OpenCL device matches '" + std::string(spec) +
                              "' (devices: " + candidateList(candidates) + ")");
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
