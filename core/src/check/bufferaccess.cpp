// Oclgrind's invalid accesses by buffer: the addresses of its reports mapped back to the checked run's
// buffer arguments ("write 4 bytes one past the end of c (1024 x float) at index 1024, by work-item 1023"),
// and the file through which the checked child tells the parent where its buffers are.
#include "checkinternal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <tuple>

namespace clscope {
namespace {

// Oclgrind's buffers lie 2^48 bytes apart (16 bits of buffer number on 64-bit hosts): an address nearer
// than half of that to a buffer belongs to it rather than to its neighbour.
constexpr std::uint64_t kMaxDistance = std::uint64_t{1} << 47;

struct ParsedAccess
{
    bool write = false;
    std::uint64_t bytes = 0;
    std::string space; // "global", "constant", "local", "private"
    std::uint64_t address = 0;
};

bool takeNumber(std::string_view &s, std::uint64_t &value, int base)
{
    std::size_t n = 0;
    value = 0;
    for (; n < s.size() && n < 16; ++n) {
        const char c = s[n];
        const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                          : base == 16 && std::isxdigit(static_cast<unsigned char>(c))
                              ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                              : -1;
        if (digit < 0)
            break;
        value = value * std::uint64_t(base) + std::uint64_t(digit);
    }
    s.remove_prefix(n);
    return n > 0;
}

bool take(std::string_view &s, std::string_view prefix)
{
    if (s.substr(0, prefix.size()) != prefix)
        return false;
    s.remove_prefix(prefix.size());
    return true;
}

// "Invalid read of size 4 at global memory address 0x1000000000010" (Oclgrind's MemCheck).
std::optional<ParsedAccess> parseAccess(std::string_view s)
{
    ParsedAccess a;
    if (take(s, "Invalid read of size "))
        a.write = false;
    else if (take(s, "Invalid write of size "))
        a.write = true;
    else
        return std::nullopt;
    if (!takeNumber(s, a.bytes, 10) || !take(s, " at "))
        return std::nullopt;
    const std::size_t space = s.find(' ');
    if (space == std::string_view::npos)
        return std::nullopt;
    a.space = std::string(s.substr(0, space));
    s.remove_prefix(space);
    if (!take(s, " memory address 0x") || !takeNumber(s, a.address, 16) || !s.empty())
        return std::nullopt;
    return a;
}

// How far an address is from a buffer: 0 inside it.
std::uint64_t distance(std::uint64_t address, const CheckedBuffer &b)
{
    if (address < b.address)
        return b.address - address;
    const std::uint64_t offset = address - b.address;
    return offset < b.bytes ? 0 : offset - b.bytes + 1;
}

// "1023", "(3,4)", "(3,4,5)": the work-item as the launch's dimensions would name it.
std::string workItemText(const WorkItemId &id)
{
    if (id[1] == 0 && id[2] == 0)
        return std::to_string(id[0]);
    std::string out = '(' + std::to_string(id[0]) + ',' + std::to_string(id[1]);
    if (id[2] != 0)
        out += ',' + std::to_string(id[2]);
    return out + ')';
}

std::optional<WorkItemId> firstGlobal(const CheckDiagnostic &d)
{
    for (const CheckSite &s : d.sites) {
        if (s.global)
            return s.global;
    }
    return std::nullopt;
}

} // namespace

namespace detail {

std::string accessMessage(const CheckDiagnostic &d)
{
    const CheckAccess &a = *d.access;
    std::string where;
    const auto count = std::int64_t(std::min<std::uint64_t>(a.elementCount, std::uint64_t(INT64_MAX)));
    if (a.index >= count) {
        const std::int64_t past = a.index - count + 1;
        where = past == 1 ? "one past the end of " : std::to_string(past) + " elements past the end of ";
    } else if (a.index < 0) {
        where = "before the start of ";
    } else {
        where = "in ";
    }
    return std::string(a.write ? "write " : "read ") + std::to_string(a.bytes) +
           (a.bytes == 1 ? " byte " : " bytes ") + where + a.buffer + " (" + std::to_string(a.elementCount) +
           " x " + a.elementType + ") at index " + std::to_string(a.index) + workItemsText(d);
}

bool isAccess(const CheckDiagnostic &d)
{
    return d.kind == CheckKind::InvalidRead || d.kind == CheckKind::InvalidWrite;
}

std::string workItemsText(const CheckDiagnostic &d)
{
    std::string out;
    if (const auto global = firstGlobal(d))
        out += ", by work-item " + workItemText(*global);
    if (d.occurrences > 1) {
        const int more = d.occurrences - 1;
        out += ", and " + std::to_string(more) + (more == 1 ? " more work-item" : " more work-items");
    }
    return out;
}

bool lowerWorkItem(const CheckDiagnostic &a, const CheckDiagnostic &b)
{
    const auto x = firstGlobal(a);
    const auto y = firstGlobal(b);
    if (!x || !y)
        return x.has_value() && !y.has_value();
    return std::tie((*x)[2], (*x)[1], (*x)[0]) < std::tie((*y)[2], (*y)[1], (*y)[0]);
}

} // namespace detail

std::vector<CheckedBuffer> checkedBuffersOf(const RunResult &result)
{
    std::vector<CheckedBuffer> out;
    for (const RunArgument &a : result.arguments()) {
        if (a.kind == ArgKind::Buffer && a.address)
            out.push_back({a.name, *a.address, a.bytes, a.count, a.element});
    }
    return out;
}

std::string checkedBuffersToJson(const std::vector<CheckedBuffer> &buffers)
{
    nlohmann::ordered_json doc = nlohmann::ordered_json::array();
    for (const CheckedBuffer &b : buffers)
        doc.push_back({{"name", b.name},
                       {"address", b.address},
                       {"bytes", b.bytes},
                       {"count", b.count},
                       {"type", b.elementType}});
    return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

std::vector<CheckedBuffer> checkedBuffersFromJson(std::string_view text)
{
    std::vector<CheckedBuffer> out;
    const nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (!doc.is_array())
        return out;
    for (const nlohmann::json &e : doc) {
        if (!e.is_object())
            continue;
        const auto name = e.find("name");
        const auto address = e.find("address");
        const auto bytes = e.find("bytes");
        const auto count = e.find("count");
        const auto type = e.find("type");
        if (name == e.end() || !name->is_string() || address == e.end() || !address->is_number_unsigned() ||
            bytes == e.end() || !bytes->is_number_unsigned() || count == e.end() ||
            !count->is_number_unsigned() || type == e.end() || !type->is_string())
            continue;
        CheckedBuffer b{name->get<std::string>(), address->get<std::uint64_t>(), bytes->get<std::uint64_t>(),
                        count->get<std::uint64_t>(), type->get<std::string>()};
        // A buffer of elements that do not divide it, or a name no argument has, is not the child's.
        if (b.name.empty() || b.count == 0 || b.bytes == 0 || b.bytes % b.count != 0 ||
            b.bytes >= kMaxDistance)
            continue;
        out.push_back(std::move(b));
    }
    return out;
}

void nameBuffers(std::vector<CheckDiagnostic> &diagnostics, const std::vector<CheckedBuffer> &buffers)
{
    if (buffers.empty())
        return;
    for (CheckDiagnostic &d : diagnostics) {
        if (!detail::isAccess(d) || d.access)
            continue;
        const std::optional<ParsedAccess> parsed = parseAccess(d.diagnostic.message);
        if (!parsed || (parsed->space != "global" && parsed->space != "constant"))
            continue;
        const CheckedBuffer *best = nullptr;
        std::uint64_t bestDistance = kMaxDistance;
        for (const CheckedBuffer &b : buffers) {
            const std::uint64_t away = distance(parsed->address, b);
            if (away < bestDistance) {
                best = &b;
                bestDistance = away;
            }
        }
        if (!best)
            continue;
        CheckAccess a;
        a.write = parsed->write;
        a.bytes = parsed->bytes;
        a.buffer = best->name;
        a.elementType = best->elementType;
        a.elementCount = best->count;
        a.elementSize = best->bytes / best->count;
        // Both sides under 2^47 from the base: the signed offset and its floor division cannot overflow.
        const std::int64_t offset = parsed->address >= best->address
                                        ? std::int64_t(parsed->address - best->address)
                                        : -std::int64_t(best->address - parsed->address);
        const auto size = std::int64_t(a.elementSize);
        a.index = offset >= 0 ? offset / size : -((-offset + size - 1) / size);
        a.oclgrindMessage = d.diagnostic.message;
        d.access = std::move(a);
        d.diagnostic.message = detail::accessMessage(d);
    }
}

} // namespace clscope
