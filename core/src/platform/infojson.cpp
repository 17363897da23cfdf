// The CLI contract's JSON for platforms and devices: CL_* keys with raw values (DESIGN.md).
#include "clscope/deviceinfo.h"
#include "clscope/error.h"

#include <nlohmann/json.hpp>

namespace clscope {
namespace {
using nlohmann::ordered_json;

// Drivers are free to put any bytes in their strings; JSON output must never throw on them.
std::string validUtf8(const std::string &s)
{
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s)
        out += (c < 0x80 && (c >= 0x20 || c == '\n' || c == '\t')) ? static_cast<char>(c) : '?';
    return out;
}

// 16 bytes as 8-4-4-4-12 (a UUID), 8 bytes as 4-12 (a LUID).
std::string dashedHex(const std::vector<std::uint64_t> &bytes)
{
    static constexpr char kHex[] = "0123456789abcdef";
    const std::vector<size_t> groups =
        bytes.size() == 16 ? std::vector<size_t>{4, 2, 2, 2, 6} : std::vector<size_t>{2, 6};
    std::string out;
    size_t i = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
        if (g)
            out += '-';
        for (size_t k = 0; k < groups[g]; ++k, ++i) {
            out += kHex[(bytes[i] >> 4) & 0xf];
            out += kHex[bytes[i] & 0xf];
        }
    }
    return out;
}

// A value the driver was asked for and refused, as clinfo writes one: "<error: CL_INVALID_VALUE>".
ordered_json errorJson(cl_int error)
{
    const std::string_view name = errorName(error);
    return ordered_json("<error: " + (name.empty() ? std::to_string(error) : std::string(name)) + ">");
}

std::optional<ordered_json> rawJson(const InfoValue &v)
{
    if (const auto *u = std::get_if<Unsupported>(&v.value)) {
        // A value the driver should know (its version and extensions say so) but refused: the key is there
        // with the error, as clinfo writes it ("<...: error -30>"); values not asked for are left out, and
        // those refused for their size are listed under "info_errors".
        if (u->error == CL_SUCCESS || !u->refused.empty())
            return std::nullopt;
        return errorJson(u->error);
    }
    if (const auto *b = std::get_if<bool>(&v.value))
        return ordered_json(*b);
    if (const auto *s = std::get_if<std::string>(&v.value))
        return ordered_json(validUtf8(*s));
    if (const auto *i = std::get_if<std::int64_t>(&v.value))
        return ordered_json(*i);
    if (const auto *u = std::get_if<std::uint64_t>(&v.value))
        return ordered_json(*u);
    if (const auto *arr = std::get_if<std::vector<std::uint64_t>>(&v.value)) {
        // UUIDs, LUIDs and PCI addresses are written the way clinfo writes them, so the two compare.
        if (v.param->kind == ValueKind::Bytes && (arr->size() == 16 || arr->size() == 8))
            return ordered_json(dashedHex(*arr));
        if (v.param->kind == ValueKind::PciBusInfo)
            return ordered_json("PCI-E, " + v.display());
        return ordered_json(*arr);
    }
    if (const auto *list = std::get_if<std::vector<NameVersion>>(&v.value)) {
        ordered_json obj = ordered_json::object();
        for (const auto &nv : *list)
            obj[validUtf8(nv.name)] = decodeVersion(nv.version).toString();
        return obj;
    }
    return std::nullopt;
}

// Values are raw (DESIGN.md); the ones refused for their size are named in "info_errors" instead.
void addValues(ordered_json &obj, const std::vector<InfoValue> &values)
{
    for (const InfoValue &v : values) {
        if (auto j = rawJson(v))
            obj[std::string(v.param->name)] = std::move(*j);
    }
    const std::vector<const InfoValue *> refused = refusedValues(values);
    if (refused.empty())
        return;
    ordered_json errors = ordered_json::object();
    for (const InfoValue *v : refused)
        errors[std::string(v->param->name)] = std::get<Unsupported>(v->value).refused;
    obj["info_errors"] = std::move(errors);
}

ordered_json imageFormatsJson(const DeviceSnapshot &dev)
{
    ordered_json out = ordered_json::object();
    for (const ImageFormatSet &set : dev.imageFormats) {
        ordered_json list = ordered_json::array();
        for (const cl_image_format &f : set.formats)
            list.push_back(std::string(channelOrderName(f.image_channel_order)) + '/' +
                           std::string(channelTypeName(f.image_channel_data_type)));
        out[std::string(memFlagName(set.memFlags))][std::string(imageTypeName(set.imageType))] =
            std::move(list);
    }
    return out;
}
} // namespace

std::string snapshotToJson(const SystemSnapshot &snapshot, int indent)
{
    ordered_json root = ordered_json::object();
    ordered_json platforms = ordered_json::array();
    for (const PlatformSnapshot &p : snapshot.platforms) {
        ordered_json pj = ordered_json::object();
        addValues(pj, p.values);
        if (!p.error.empty())
            pj["error"] = p.error;
        ordered_json devices = ordered_json::array();
        for (const DeviceSnapshot &d : p.devices) {
            ordered_json dj = ordered_json::object();
            addValues(dj, d.values);
            if (d.kernelPreferredWorkGroupSizeMultiple)
                dj["CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE"] = *d.kernelPreferredWorkGroupSizeMultiple;
            else if (d.kernelProbeError != CL_SUCCESS)
                dj["CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE"] = errorJson(d.kernelProbeError);
            if (!d.imageFormats.empty())
                dj["image_formats"] = imageFormatsJson(d);
            devices.push_back(std::move(dj));
        }
        pj["devices"] = std::move(devices);
        platforms.push_back(std::move(pj));
    }
    root["platforms"] = std::move(platforms);
    if (!snapshot.error.empty())
        root["error"] = snapshot.error;
    if (!snapshot.skippedIcds.empty()) {
        ordered_json skipped = ordered_json::array();
        for (const SkippedIcd &s : snapshot.skippedIcds)
            skipped.push_back({{"file", validUtf8(s.file)},
                               {"library", validUtf8(s.library)},
                               {"reason", validUtf8(s.reason)},
                               {"message", validUtf8(s.message)}});
        root["skipped_icds"] = std::move(skipped);
    }
    return root.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace clscope
