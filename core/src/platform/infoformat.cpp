// Showing info values to a person: units, flag names, dimensions; and the raw value for tooltips.
#include "clscope/deviceinfo.h"
#include "clscope/error.h"
#include "clscope/format.h"

#include <cstdio>

namespace clscope {
namespace {

// A flag's words for a person, or its CL_* name (`symbolic`); tables without words give the name.
std::string_view flagText(const FlagName &f, bool symbolic)
{
    return symbolic || f.label.empty() ? f.name : f.label;
}

std::string flagNames(const InfoParam &param, std::uint64_t value, bool symbolic)
{
    if (param.flags.empty())
        return formatHex(value);
    std::string out;
    std::uint64_t rest = value;
    for (const FlagName &f : param.flags) {
        if (f.value != 0 && (value & f.value) == f.value) {
            if (!out.empty())
                out += " | ";
            out += flagText(f, symbolic);
            rest &= ~f.value;
        }
    }
    if (rest != 0) {
        if (!out.empty())
            out += " | ";
        out += formatHex(rest);
    }
    return out.empty() ? std::string(symbolic ? "0" : "(none)") : out;
}

std::string enumName(const InfoParam &param, std::uint64_t value, bool symbolic)
{
    for (const FlagName &f : param.flags) {
        if (f.value == value)
            return std::string(flagText(f, symbolic));
    }
    return formatHex(value);
}

std::string enumNames(const InfoParam &param, const std::vector<std::uint64_t> &values, bool symbolic)
{
    std::string out;
    for (auto v : values) {
        if (!out.empty())
            out += ", ";
        out += enumName(param, v, symbolic);
    }
    return out;
}

std::string integerDisplay(const InfoParam &param, std::uint64_t v)
{
    switch (param.display) {
    case Display::Bytes:
        return formatBytes(v);
    case Display::MHz:
        return std::to_string(v) + " MHz";
    case Display::Nanosecs:
        return std::to_string(v) + " ns";
    case Display::Bits:
        return std::to_string(v) + " bits";
    case Display::Hex:
        return formatHex(v);
    default:
        return std::to_string(v);
    }
}

std::string join(const std::vector<std::uint64_t> &values, const char *sep, bool hex = false)
{
    std::string out;
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += sep;
        out += hex ? formatHex(values[i]) : std::to_string(values[i]);
    }
    return out;
}

std::string hexBytes(const std::vector<std::uint64_t> &bytes)
{
    std::string out;
    char buf[4];
    for (auto b : bytes) {
        std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(b & 0xff));
        out += buf;
    }
    return out;
}

} // namespace

std::string InfoValue::display() const
{
    return caveat.empty() ? displayValue() : displayValue() + " (" + caveat + ")";
}

std::string InfoValue::displayValue() const
{
    if (const auto *u = std::get_if<Unsupported>(&value)) {
        if (!u->refused.empty())
            return "not read: " + u->refused;
        if (u->error == CL_SUCCESS)
            return "not available on this device";
        return "unsupported (" +
               std::string(errorName(u->error).empty() ? errorLabel(u->error) : errorName(u->error)) + ")";
    }
    if (const auto *b = std::get_if<bool>(&value))
        return *b ? "Yes" : "No";
    if (const auto *s = std::get_if<std::string>(&value)) {
        if (param->display == Display::ExtList) {
            std::string out;
            size_t start = 0;
            while (start < s->size()) {
                size_t end = s->find(' ', start);
                if (end == std::string::npos)
                    end = s->size();
                if (end > start) {
                    if (!out.empty())
                        out += '\n';
                    out += s->substr(start, end - start);
                }
                start = end + 1;
            }
            return out;
        }
        return *s;
    }
    if (const auto *i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    if (const auto *u = std::get_if<std::uint64_t>(&value)) {
        switch (param->kind) {
        case ValueKind::Bitfield:
            return flagNames(*param, *u, false);
        case ValueKind::Enum:
            return enumName(*param, *u, false);
        case ValueKind::Version:
            return decodeVersion(static_cast<cl_version>(*u)).toString();
        default:
            return integerDisplay(*param, *u);
        }
    }
    if (const auto *arr = std::get_if<std::vector<std::uint64_t>>(&value)) {
        switch (param->kind) {
        case ValueKind::EnumArray:
            return enumNames(*param, *arr, false);
        case ValueKind::Bytes:
            return hexBytes(*arr);
        case ValueKind::PciBusInfo:
        case ValueKind::AmdTopology: {
            if (arr->size() < 4)
                return join(*arr, ":");
            char buf[64];
            std::snprintf(
                buf, sizeof buf, "%04llx:%02llx:%02llx.%llx", static_cast<unsigned long long>((*arr)[0]),
                static_cast<unsigned long long>((*arr)[1]), static_cast<unsigned long long>((*arr)[2]),
                static_cast<unsigned long long>((*arr)[3]));
            return param->kind == ValueKind::AmdTopology ? std::string("PCI-E ") + (buf + 5)
                                                         : std::string(buf);
        }
        default:
            if (param->display == Display::Dims)
                return join(*arr, "×");
            if (param->display == Display::Bytes) {
                std::string out;
                for (auto v : *arr)
                    out += (out.empty() ? "" : ", ") + formatBytes(v);
                return out;
            }
            return join(*arr, ", ");
        }
    }
    if (const auto *list = std::get_if<std::vector<NameVersion>>(&value)) {
        std::string out;
        for (const auto &nv : *list) {
            if (!out.empty())
                out += '\n';
            out += nv.name + ' ' + decodeVersion(nv.version).toString();
        }
        return out;
    }
    return {};
}

std::string InfoValue::symbolic() const
{
    if (const auto *u = std::get_if<std::uint64_t>(&value)) {
        if (param->kind == ValueKind::Bitfield)
            return flagNames(*param, *u, true);
        if (param->kind == ValueKind::Enum)
            return enumName(*param, *u, true);
    }
    if (const auto *arr = std::get_if<std::vector<std::uint64_t>>(&value)) {
        if (param->kind == ValueKind::EnumArray)
            return enumNames(*param, *arr, true);
    }
    return {};
}

std::string InfoValue::rawText() const
{
    if (const auto *u = std::get_if<Unsupported>(&value)) {
        if (!u->refused.empty())
            return u->refused;
        return u->error == CL_SUCCESS ? std::string("not queried") : std::string(errorName(u->error));
    }
    if (const auto *b = std::get_if<bool>(&value))
        return *b ? "CL_TRUE" : "CL_FALSE";
    if (const auto *s = std::get_if<std::string>(&value))
        return '"' + *s + '"';
    if (const auto *i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    if (const auto *u = std::get_if<std::uint64_t>(&value)) {
        if (param->kind == ValueKind::Bitfield || param->kind == ValueKind::Version)
            return std::to_string(*u) + " (" + formatHex(*u) + ")";
        return std::to_string(*u);
    }
    if (const auto *arr = std::get_if<std::vector<std::uint64_t>>(&value))
        return '[' + join(*arr, ", ", param->kind == ValueKind::EnumArray) + ']';
    if (const auto *list = std::get_if<std::vector<NameVersion>>(&value)) {
        std::string out = "{";
        for (const auto &nv : *list)
            out += (out.size() > 1 ? ", " : "") + nv.name + ": " + formatHex(nv.version);
        return out + '}';
    }
    return {};
}

} // namespace clscope
