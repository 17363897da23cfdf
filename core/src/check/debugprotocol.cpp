// The debugger protocol's messages and requests (debug.h, docs/debug-protocol.md). The plugin's lines are
// another process's output: each is checked field by field here, and nothing else reads them.
#include "clscope/build.h"
#include "clscope/debug.h"
#include "clscope/error.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>

namespace clscope {
namespace {

using nlohmann::json;

constexpr int kMaxDebugValueDepth = 16;
constexpr std::size_t kMaxDebugValues = 100000;

[[noreturn]] void malformedMessage(const std::string &why)
{
    throw Error("the debugger plugin sent a malformed message: " + why, ErrorCategory::Failure);
}

std::string textField(const json &object, const char *key, bool required = false)
{
    const auto found = object.find(key);
    if (found == object.end()) {
        if (required)
            malformedMessage(std::string("no \"") + key + "\"");
        return {};
    }
    if (!found->is_string())
        malformedMessage(std::string("\"") + key + "\" is not a string");
    return found->get<std::string>();
}

std::uint64_t countField(const json &object, const char *key, std::uint64_t max)
{
    const auto found = object.find(key);
    if (found == object.end())
        return 0;
    if (!found->is_number_unsigned() || found->get<std::uint64_t>() > max)
        malformedMessage(std::string("\"") + key + "\" is not a count");
    return found->get<std::uint64_t>();
}

WorkItemId idField(const json &object, const char *key, WorkItemId fallback = {0, 0, 0})
{
    const auto found = object.find(key);
    if (found == object.end())
        return fallback;
    if (!found->is_array() || found->size() != 3)
        malformedMessage(std::string("\"") + key + "\" is not three numbers");
    WorkItemId id{};
    for (std::size_t i = 0; i < 3; ++i) {
        if (!(*found)[i].is_number_unsigned())
            malformedMessage(std::string("\"") + key + "\" is not three numbers");
        id[i] = (*found)[i].get<std::size_t>();
    }
    return id;
}

class MessageReader
{
public:
    explicit MessageReader(const std::string &mainFile)
        : m_mainFile(mainFile)
    {}

    std::string file(const json &object) const
    {
        std::string f = textField(object, "file");
        if (!f.empty() && isDriverSourceAlias(f))
            return m_mainFile;
        return f;
    }

    int line(const json &object) const { return int(countField(object, "line", 100000000)); }

    DebugItem item(const json &object) const
    {
        if (!object.is_object())
            malformedMessage("a work-item is not an object");
        DebugItem i;
        i.global = idField(object, "global");
        i.local = idField(object, "local");
        i.group = idField(object, "group");
        i.state = textField(object, "state");
        i.file = file(object);
        i.line = line(object);
        return i;
    }

    DebugValue value(const json &object, int depth)
    {
        if (!object.is_object())
            malformedMessage("a value is not an object");
        if (depth > kMaxDebugValueDepth)
            malformedMessage("values nested too deep");
        if (++m_values > kMaxDebugValues)
            malformedMessage("too many values");
        DebugValue v;
        v.name = textField(object, "name", true);
        v.type = textField(object, "type");
        v.value = textField(object, "value");
        v.error = textField(object, "error");
        v.elements = countField(object, "elements", std::numeric_limits<std::uint64_t>::max());
        if (const auto children = object.find("children"); children != object.end()) {
            if (!children->is_array())
                malformedMessage("children are not a list");
            for (const json &c : *children)
                v.children.push_back(value(c, depth + 1));
        }
        return v;
    }

    std::vector<DebugValue> values(const json &object, const char *key)
    {
        std::vector<DebugValue> out;
        const auto found = object.find(key);
        if (found == object.end())
            return out;
        if (!found->is_array())
            malformedMessage(std::string("\"") + key + "\" is not a list");
        for (const json &v : *found)
            out.push_back(value(v, 0));
        return out;
    }

private:
    const std::string &m_mainFile;
    std::size_t m_values = 0;
};

// The main source as Oclgrind names it.
std::string pluginFileName(const std::string &file, const std::string &mainFile)
{
    return file.empty() || file == mainFile ? std::string("input.cl") : file;
}

std::string requestLine(const json &request)
{
    return request.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
}

json idArray(const WorkItemId &id)
{
    return json::array({id[0], id[1], id[2]});
}

} // namespace

DebugMessage parseDebugMessage(std::string_view text, const std::string &mainFile)
{
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        malformedMessage("not a JSON object");
    MessageReader read(mainFile);
    DebugMessage m;
    if (doc.contains("hello")) {
        if (textField(doc, "hello") != "clscope-oclgrind" || textField(doc, "mode") != "debug")
            malformedMessage("a hello of another plugin or mode");
        if (!doc.contains("format") || !doc["format"].is_number_unsigned() ||
            doc["format"].get<unsigned>() != 1)
            malformedMessage("a format other than 1");
        m.kind = DebugMessage::Kind::Hello;
        return m;
    }
    if (doc.contains("event")) {
        const std::string event = textField(doc, "event");
        if (event == "kernel" || event == "kernel_end") {
            m.kind = event == "kernel" ? DebugMessage::Kind::Kernel : DebugMessage::Kind::KernelEnd;
            m.kernel.name = textField(doc, "kernel", true);
            m.kernel.workDim = int(countField(doc, "work_dim", 3));
            m.kernel.global = idField(doc, "global", {1, 1, 1});
            m.kernel.local = idField(doc, "local", {1, 1, 1});
            m.kernel.offset = idField(doc, "offset");
            m.kernel.groups = idField(doc, "groups", {1, 1, 1});
            return m;
        }
        if (event == "stopped") {
            m.kind = DebugMessage::Kind::Stopped;
            m.stop.reason = textField(doc, "reason", true);
            if (!doc.contains("item"))
                malformedMessage("a stop names no work-item");
            m.stop.item = read.item(doc["item"]);
            m.stop.file = read.file(doc);
            m.stop.line = read.line(doc);
            m.stop.function = textField(doc, "function");
            m.stop.depth = int(countField(doc, "depth", 1000));
            m.stop.message = textField(doc, "message");
            m.stop.item.file = m.stop.file;
            m.stop.item.line = m.stop.line;
            m.stop.item.state = "stopped";
            return m;
        }
        if (event == "progress") {
            m.kind = DebugMessage::Kind::Progress;
            m.groupsStarted = countField(doc, "groups_started", std::numeric_limits<std::uint64_t>::max());
            m.groups = countField(doc, "groups", std::numeric_limits<std::uint64_t>::max());
            return m;
        }
        malformedMessage("an unknown event " + event);
    }
    m.kind = DebugMessage::Kind::Reply;
    m.reply = textField(doc, "reply", true);
    m.error = textField(doc, "error");
    if (doc.contains("item"))
        m.item = read.item(doc["item"]);
    m.values = read.values(doc, m.reply == "locals"    ? "arrays"
                                : m.reply == "print"   ? "values"
                                : m.reply == "buffers" ? "buffers"
                                                       : "variables");
    if (const auto frames = doc.find("frames"); frames != doc.end()) {
        if (!frames->is_array())
            malformedMessage("frames are not a list");
        for (const json &f : *frames) {
            if (!f.is_object())
                malformedMessage("a frame is not an object");
            m.frames.push_back({textField(f, "function"), read.file(f), read.line(f)});
        }
    }
    if (const auto items = doc.find("items"); items != doc.end()) {
        if (!items->is_array() || items->size() > 1024 * 1024)
            malformedMessage("items are not a list");
        for (const json &i : *items)
            m.items.push_back(read.item(i));
    }
    return m;
}

std::string debugBreakRequest(const std::vector<DebugBreakpoint> &breakpoints, const std::string &mainFile)
{
    json list = json::array();
    for (const DebugBreakpoint &b : breakpoints) {
        json entry = {{"file", pluginFileName(b.file, mainFile)}, {"line", std::max(b.line, 0)}};
        if (b.item)
            entry["item"] = idArray(*b.item);
        if (!b.condition.empty())
            entry["condition"] = b.condition;
        list.push_back(std::move(entry));
    }
    return requestLine({{"cmd", "break"}, {"breakpoints", std::move(list)}});
}

std::string debugRunRequest(bool start, const std::optional<WorkItemId> &item)
{
    json request = {{"cmd", "run"}, {"start", start}};
    if (item)
        request["item"] = idArray(*item);
    return requestLine(request);
}

std::string debugSimpleRequest(std::string_view command)
{
    return requestLine({{"cmd", command}});
}

std::string debugStepRequest(std::string_view kind)
{
    return requestLine({{"cmd", "step"}, {"kind", kind}});
}

std::string debugRunToRequest(const std::string &file, int lineNumber, const std::string &mainFile)
{
    return requestLine(
        {{"cmd", "run_to"}, {"file", pluginFileName(file, mainFile)}, {"line", std::max(lineNumber, 0)}});
}

std::string debugSelectRequest(const WorkItemId &global)
{
    return requestLine({{"cmd", "select"}, {"global", idArray(global)}});
}

std::string debugPrintRequest(const std::vector<std::string> &paths)
{
    return requestLine({{"cmd", "print"}, {"paths", paths}});
}

std::string debugWatchRequest(const std::string &argument, std::uint64_t index)
{
    json request = {{"cmd", "watch"}, {"index", index}};
    std::uint32_t number = 0;
    const auto [end, ec] = std::from_chars(argument.data(), argument.data() + argument.size(), number);
    if (ec == std::errc() && end == argument.data() + argument.size())
        request["arg"] = number;
    else
        request["arg"] = argument;
    return requestLine(request);
}

std::optional<std::pair<std::string, std::uint64_t>> parseWatchSpec(std::string_view text)
{
    const std::size_t open = text.find('[');
    if (open == 0 || open == std::string_view::npos || text.size() < open + 3 || text.back() != ']')
        return std::nullopt;
    const std::string_view name = text.substr(0, open);
    const std::string_view number = text.substr(open + 1, text.size() - open - 2);
    std::uint64_t index = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), index);
    if (ec != std::errc() || end != number.data() + number.size())
        return std::nullopt;
    for (const char c : name) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return std::nullopt;
    }
    return std::pair{std::string(name), index};
}

std::optional<WorkItemId> parseWorkItemId(std::string_view text)
{
    WorkItemId id{0, 0, 0};
    std::size_t dimension = 0;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        const std::string_view part =
            text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
        if (dimension >= 3 || part.empty())
            return std::nullopt;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), id[dimension]);
        if (ec != std::errc() || end != part.data() + part.size())
            return std::nullopt;
        ++dimension;
        if (comma == std::string_view::npos)
            return id;
        start = comma + 1;
    }
}

std::optional<BreakpointCondition> parseBreakpointCondition(std::string_view text)
{
    const auto trim = [](std::string_view t) {
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
            t.remove_prefix(1);
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
            t.remove_suffix(1);
        return t;
    };
    text = trim(text);
    if (text == "item")
        return std::nullopt;
    BreakpointCondition out;
    constexpr std::string_view kItem = "item ";
    if (text.substr(0, kItem.size()) == kItem) {
        text = trim(text.substr(kItem.size()));
        const std::size_t space = text.find_first_of(" \t");
        out.item = parseWorkItemId(text.substr(0, space));
        if (!out.item)
            return std::nullopt;
        text = space == std::string_view::npos ? std::string_view() : trim(text.substr(space));
        constexpr std::string_view kIf = "if ";
        if (!text.empty()) {
            if (text.substr(0, kIf.size()) != kIf)
                return std::nullopt;
            text = trim(text.substr(kIf.size()));
        }
    }
    out.condition = std::string(text);
    return out;
}

std::string formatWorkItemId(const WorkItemId &id)
{
    return "(" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," + std::to_string(id[2]) + ")";
}

std::string formatDebugValue(const DebugValue &value, int indent, int maxDepth)
{
    std::string out(std::size_t(indent) * 2, ' ');
    out += value.name + " = " + (value.error.empty() ? value.value : "<" + value.error + ">");
    if (!value.type.empty())
        out += "  (" + value.type + ")";
    out += '\n';
    if (maxDepth <= 0)
        return out;
    // A vector's or an array's elements are in its value already; a struct's fields and a pointer's target
    // are worth their own lines.
    const bool listed =
        value.elements > 0 && !value.children.empty() && value.children.front().children.empty();
    if (listed)
        return out;
    for (const DebugValue &c : value.children)
        out += formatDebugValue(c, indent + 1, maxDepth - 1);
    return out;
}

} // namespace clscope
