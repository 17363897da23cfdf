// Breakpoints (debugbreakpoints.h).
#include "debugbreakpoints.h"

#include <algorithm>

namespace clscope::debugplugin {

bool Breakpoints::set(const nlohmann::json &list, std::string &why)
{
    if (!list.is_array()) {
        why = "break needs \"breakpoints\": [{\"line\": N, ...}]";
        return false;
    }
    std::vector<Breakpoint> parsed;
    for (const nlohmann::json &b : list) {
        if (!b.is_object() || !b.contains("line") || !b["line"].is_number_unsigned()) {
            why = "a breakpoint needs a line";
            return false;
        }
        Breakpoint bp;
        if (const std::string condition = b.value("condition", ""); !condition.empty()) {
            const auto withCondition = parseCondition(condition, why);
            if (!withCondition)
                return false;
            bp = *withCondition;
        }
        bp.line = b["line"].get<unsigned>();
        bp.file = b.value("file", "");
        if (b.contains("item") && !b["item"].is_null()) {
            bp.item = idFrom(b["item"]);
            if (!bp.item) {
                why = "a breakpoint's item is [x, y, z]";
                return false;
            }
        }
        parsed.push_back(bp);
    }
    const auto temporary =
        std::find_if(m_list.begin(), m_list.end(), [](const Breakpoint &b) { return b.temporary; });
    if (temporary != m_list.end())
        parsed.push_back(*temporary);
    m_list = std::move(parsed);
    index();
    return true;
}

void Breakpoints::runTo(unsigned line, std::string file)
{
    Breakpoint b;
    b.line = line;
    b.file = std::move(file);
    b.temporary = true;
    std::erase_if(m_list, [](const Breakpoint &x) { return x.temporary; });
    m_list.push_back(b);
    index();
}

const char *Breakpoints::hit(const std::string &file, unsigned line, const Id &id,
                             const std::function<std::optional<double>(const std::string &)> &valueOf)
{
    for (auto b = m_list.begin(); b != m_list.end(); ++b) {
        if (b->line != line || (!b->file.empty() && b->file != file) || (b->item && *b->item != id))
            continue;
        if (!b->variable.empty()) {
            const auto value = valueOf(b->variable);
            if (!value || !compare(*value, b->op, b->value))
                continue;
        }
        if (!b->temporary)
            return "breakpoint";
        m_list.erase(b);
        index();
        return "cursor";
    }
    return nullptr;
}

void Breakpoints::index()
{
    m_lines.assign(1, false);
    for (const Breakpoint &b : m_list) {
        if (b.line >= m_lines.size())
            m_lines.resize(std::min<std::size_t>(b.line + 1, 1u << 24), false);
        if (b.line < m_lines.size())
            m_lines[b.line] = true;
    }
}

} // namespace clscope::debugplugin
