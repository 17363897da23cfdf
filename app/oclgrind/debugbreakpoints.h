// The breakpoints a controller set (docs/debug-protocol.md: "break", "run_to"): by file and line, for one
// work-item and/or while VARIABLE OP NUMBER holds, and a run-to-cursor one that goes when hit; indexed by
// line number, so that the simulator's hot path asks one bit for each new line it reaches.
#pragma once

#include "debugconnection.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clscope::debugplugin {

class Breakpoints
{
public:
    // The "breakpoints" of a break request replace those set (a run-to-cursor one stays); false with why,
    // changing nothing, when one of them is not a breakpoint.
    bool set(const nlohmann::json &list, std::string &why);
    // Run to cursor: a breakpoint removed when hit (the one before, if any, goes).
    void runTo(unsigned line, std::string file);
    std::size_t size() const { return m_list.size(); }
    // Whether a breakpoint (of any file) is on this line number.
    bool anyAt(unsigned line) const { return line < m_lines.size() && m_lines[line]; }
    // The breakpoint at file:line that stops work-item `id`, its condition true by valueOf (a variable's
    // value there, or none when it cannot be read): "breakpoint", "cursor" (a run-to-cursor one, which goes),
    // or nullptr when none does.
    const char *hit(const std::string &file, unsigned line, const Id &id,
                    const std::function<std::optional<double>(const std::string &variable)> &valueOf);

private:
    void index();

    std::vector<Breakpoint> m_list;
    std::vector<bool> m_lines; // by line number: a breakpoint of any file is there
};

} // namespace clscope::debugplugin
