// Oclgrind's messages as CheckDiagnostics. Oclgrind 21.10 writes each report as a first line and
// tab-indented lines under it, a blank line before and after:
//
//   Invalid read of size 4 at global memory address 0x1000000000010
//   	Kernel: oob_read
//   	Entity: Global(3,0,0) Local(0,0,0) Group(3,0,0)
//   	  %0 = load float, float addrspace(1)* %arrayidx, align 4, !dbg !32   (the LLVM instruction)
//   	At line 8 (column 14) of input.cl:
//   	  out[i] = in[i + 1];                                                 (the source line)
//
// Races have "First entity:" and "Second entity:" each with its instruction and location; divergence has
// "Work-group: (0,0,0)" and a detail line; API errors ("Oclgrind - OpenCL runtime error detected", on
// stderr) have "Function:", "Error:" and a detail. Hand-written matching, like the build diagnostics.
#include "checkinternal.h"
#include "clscope/text.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace clscope {
namespace {

constexpr std::string_view kApiHeadline = "Oclgrind - OpenCL runtime error detected";

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        pos = end + 1;
    }
    return lines;
}

// "Kernel:", "Entity:"...: a body line after its tab, with the value after the colon.
bool takeField(std::string_view line, std::string_view field, std::string_view &value)
{
    if (!startsWith(line, field))
        return false;
    value = trimSpace(line.substr(field.size()));
    return true;
}

// The fields that make a tab-indented line the start of an Oclgrind report body.
bool isReportField(std::string_view body)
{
    for (std::string_view f : {"Kernel:", "Entity:", "Work-item:", "Work-group:", "Function:", "Error:",
                               "First entity:", "Second entity:"}) {
        if (startsWith(body, f))
            return true;
    }
    return false;
}

bool parseSize(std::string_view s, std::size_t &pos, std::size_t &value)
{
    const std::size_t start = pos;
    value = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) && pos - start < 19)
        value = value * 10 + std::size_t(s[pos++] - '0');
    return pos > start;
}

// "(3,0,0)" at pos.
std::optional<WorkItemId> parseId(std::string_view s, std::size_t pos)
{
    WorkItemId id{};
    if (pos >= s.size() || s[pos] != '(')
        return std::nullopt;
    ++pos;
    for (std::size_t i = 0; i < 3; ++i) {
        if (!parseSize(s, pos, id[i]) || pos >= s.size() || s[pos] != (i == 2 ? ')' : ','))
            return std::nullopt;
        ++pos;
    }
    return id;
}

std::optional<WorkItemId> idAfter(std::string_view entity, std::string_view word)
{
    const std::size_t at = entity.find(word);
    return at == std::string_view::npos ? std::nullopt : parseId(entity, at + word.size());
}

CheckSite siteOf(std::string role, std::string_view entity)
{
    CheckSite site;
    site.role = std::move(role);
    site.entity = std::string(entity);
    site.global = idAfter(entity, "Global");
    site.local = idAfter(entity, "Local");
    site.group = idAfter(entity, "Group");
    return site;
}

// "At line 8 (column 14) of input.cl:" or "At line 8 of input.cl" (older Oclgrind).
bool parseLocation(std::string_view body, int &line, int &column, std::string_view &file)
{
    if (!startsWith(body, "At line "))
        return false;
    std::size_t pos = 8;
    std::size_t value = 0;
    if (!parseSize(body, pos, value))
        return false;
    line = int(value);
    column = 0;
    if (startsWith(body.substr(pos), " (column ")) {
        pos += 9;
        if (!parseSize(body, pos, value) || pos >= body.size() || body[pos] != ')')
            return false;
        column = int(value);
        ++pos;
    }
    if (!startsWith(body.substr(pos), " of "))
        return false;
    file = body.substr(pos + 4);
    if (!file.empty() && file.back() == ':')
        file.remove_suffix(1);
    return !file.empty();
}

CheckKind kindOf(std::string_view headline)
{
    if (headline == kApiHeadline)
        return CheckKind::Api;
    if (startsWith(headline, "Invalid read") || startsWith(headline, "Invalid memory load"))
        return CheckKind::InvalidRead;
    if (startsWith(headline, "Invalid write") || startsWith(headline, "Invalid memory store"))
        return CheckKind::InvalidWrite;
    if (startsWith(headline, "Unaligned"))
        return CheckKind::Unaligned;
    if (headline.find("data race") != std::string_view::npos)
        return CheckKind::DataRace;
    if (startsWith(headline, "Uninitialized") || startsWith(headline, "Uninitialised"))
        return CheckKind::Uninitialized;
    if (headline.find("divergence") != std::string_view::npos)
        return CheckKind::Divergence;
    return CheckKind::Other;
}

class ReportParser
{
public:
    explicit ReportParser(const CheckSources &sources)
        : m_sources(sources)
    {
        for (const auto &f : sources.knownFiles)
            m_known.push_back(std::filesystem::path(f).lexically_normal().string());
    }

    // lines[first] is the headline, the rest its tab-indented body.
    CheckDiagnostic parse(std::string_view headline, const std::vector<std::string_view> &body) const
    {
        CheckDiagnostic d;
        d.kind = kindOf(headline);
        std::string function, error;
        bool afterLocation = false; // the next "  text" line is the source echo
        for (std::string_view line : body) {
            std::string_view value;
            const bool indented = startsWith(line, "  ");
            if (indented) {
                // An LLVM instruction before the location, the source line after it.
                if (afterLocation && !d.sites.empty()) {
                    CheckSite &site = d.sites.back();
                    const std::string_view text = trimSpace(line);
                    if (site.sourceLine.empty() && text != "(source not available)")
                        site.sourceLine = std::string(text);
                }
                afterLocation = false;
                continue;
            }
            afterLocation = false;
            line = trimSpace(line);
            int lineNo = 0, column = 0;
            std::string_view file;
            if (line.empty() || line == "Debugging information not available." ||
                line == "(location unknown)")
                continue;
            if (takeField(line, "Kernel:", value)) {
                d.kernel = std::string(value);
            } else if (takeField(line, "Entity:", value) || takeField(line, "Work-item:", value)) {
                d.sites.push_back(siteOf("", value));
            } else if (takeField(line, "First entity:", value)) {
                d.sites.push_back(siteOf("first", value));
            } else if (takeField(line, "Second entity:", value)) {
                d.sites.push_back(siteOf("second", value));
            } else if (takeField(line, "Work-group:", value)) {
                d.sites.push_back(siteOf("", "Group" + std::string(value)));
            } else if (d.kind == CheckKind::Api && takeField(line, "Function:", value)) {
                function = std::string(value);
            } else if (d.kind == CheckKind::Api && takeField(line, "Error:", value)) {
                error = std::string(value);
            } else if (parseLocation(line, lineNo, column, file)) {
                if (d.sites.empty() || !d.sites.back().file.empty())
                    d.sites.push_back(CheckSite{});
                CheckSite &site = d.sites.back();
                site.file = mapFile(file);
                site.line = lineNo;
                site.column = column;
                afterLocation = true;
            } else {
                d.details.emplace_back(line);
            }
        }
        for (CheckSite &site : d.sites)
            fillSourceLine(site);

        // The message: the headline, with the detail a trailing colon announces; API errors by call.
        std::string message(trimSpace(headline));
        if (d.kind == CheckKind::Api) {
            message = (function.empty() ? std::string("An OpenCL call") : function) + " returned " +
                      (error.empty() ? std::string("an error") : error);
            if (!d.details.empty())
                message += ": " + d.details.front();
        } else if (!message.empty() && message.back() == ':') {
            message.pop_back();
            if (!d.details.empty())
                message += ": " + d.details.front();
        }
        d.diagnostic.message = std::move(message);
        d.diagnostic.severity = Severity::Error;
        const auto located =
            std::find_if(d.sites.begin(), d.sites.end(), [](const CheckSite &s) { return s.line > 0; });
        if (located != d.sites.end()) {
            d.diagnostic.file = located->file;
            d.diagnostic.line = located->line;
            d.diagnostic.column = located->column;
        }
        return d;
    }

    CheckDiagnostic note(std::string_view line) const
    {
        CheckDiagnostic d;
        d.kind = CheckKind::Other;
        d.diagnostic.severity = Severity::Note;
        d.diagnostic.message = std::string(trimSpace(line));
        return d;
    }

private:
    std::string mapFile(std::string_view file) const
    {
        const std::string n = std::filesystem::path(file).lexically_normal().string();
        if (std::find(m_known.begin(), m_known.end(), n) != m_known.end())
            return std::string(file);
        if (isDriverSourceAlias(file))
            return m_sources.sourceFile; // empty for an unsaved buffer: the main source, not input.cl
        return std::string(file);
    }

    // From the file's text when we have it; Oclgrind's echo otherwise, for the main source only (for a
    // header it shows the main source's line of that number).
    void fillSourceLine(CheckSite &site) const
    {
        if (site.line <= 0)
            return;
        const auto it = m_sources.texts.find(site.file);
        if (it == m_sources.texts.end()) {
            if (site.file != m_sources.sourceFile)
                site.sourceLine.clear();
            return;
        }
        std::string_view text = it->second;
        for (int n = 1; n < site.line; ++n) {
            const std::size_t nl = text.find('\n');
            if (nl == std::string_view::npos)
                return; // past the end: keep what Oclgrind said
            text.remove_prefix(nl + 1);
        }
        site.sourceLine = std::string(trimSpace(text.substr(0, text.find('\n'))));
    }

    const CheckSources &m_sources;
    std::vector<std::string> m_known;
};

// The message with every "0x..." replaced, so that reports at different addresses compare equal.
std::string withoutAddresses(std::string_view message)
{
    std::string out;
    for (std::size_t i = 0; i < message.size(); ++i) {
        if (message[i] == '0' && i + 1 < message.size() && (message[i + 1] == 'x' || message[i + 1] == 'X')) {
            i += 2;
            while (i < message.size() && std::isxdigit(static_cast<unsigned char>(message[i])))
                ++i;
            out += "0x?";
            --i;
        } else {
            out += message[i];
        }
    }
    return out;
}

} // namespace

std::string_view checkKindName(CheckKind kind)
{
    switch (kind) {
    case CheckKind::InvalidRead:
        return "invalid-read";
    case CheckKind::InvalidWrite:
        return "invalid-write";
    case CheckKind::Unaligned:
        return "unaligned";
    case CheckKind::DataRace:
        return "data-race";
    case CheckKind::Uninitialized:
        return "uninitialized";
    case CheckKind::Divergence:
        return "divergence";
    case CheckKind::Api:
        return "api";
    case CheckKind::Other:
        return "other";
    }
    return "other";
}

OclgrindOutput parseOclgrindOutput(std::string_view text, const CheckSources &sources)
{
    const std::vector<std::string_view> lines = splitLines(text);
    const ReportParser parser(sources);
    OclgrindOutput out;
    std::vector<bool> taken(lines.size(), false);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (line.empty() || line.front() == '\t')
            continue;
        if (startsWith(line, "Oclgrind: ")) {
            out.diagnostics.push_back(parser.note(line));
            taken[i] = true;
            continue;
        }
        const bool api = line == kApiHeadline;
        if (!api && !(i + 1 < lines.size() && startsWith(lines[i + 1], "\t") &&
                      isReportField(trimSpace(lines[i + 1]))))
            continue;
        std::vector<std::string_view> body;
        taken[i] = true;
        std::size_t j = i + 1;
        for (; j < lines.size() && startsWith(lines[j], "\t"); ++j) {
            body.push_back(lines[j].substr(1));
            taken[j] = true;
        }
        out.diagnostics.push_back(parser.parse(line, body));
        i = j - 1;
    }
    // The rest, without the blank lines that separated the reports from it.
    const auto blank = [&](std::size_t i) { return trimSpace(lines[i]).empty(); };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (taken[i])
            continue;
        if (blank(i)) {
            std::size_t before = i, after = i;
            while (before > 0 && blank(before) && !taken[before])
                --before;
            while (after + 1 < lines.size() && blank(after) && !taken[after])
                ++after;
            if (taken[before] || taken[after] || out.rest.empty())
                continue;
        }
        out.rest.append(lines[i]).push_back('\n');
    }
    while (out.rest.size() >= 2 && out.rest.ends_with("\n\n"))
        out.rest.pop_back();
    return out;
}

std::vector<CheckDiagnostic> mergeCheckDiagnostics(const std::vector<CheckDiagnostic> &diagnostics)
{
    std::vector<CheckDiagnostic> out;
    std::vector<std::string> keys;
    for (const CheckDiagnostic &d : diagnostics) {
        // A named access is one site per buffer, whatever element or address each work-item touched.
        std::string key = std::string(checkKindName(d.kind)) + '\n' + d.kernel + '\n' + d.diagnostic.file +
                          '\n' + std::to_string(d.diagnostic.line) + ':' +
                          std::to_string(d.diagnostic.column) + '\n' +
                          std::string(severityName(d.diagnostic.severity)) + '\n' +
                          (d.access ? "buffer " + d.access->buffer : withoutAddresses(d.diagnostic.message));
        const auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            keys.push_back(std::move(key));
            out.push_back(d);
            continue;
        }
        CheckDiagnostic &kept = out[std::size_t(it - keys.begin())];
        const int occurrences = kept.occurrences + d.occurrences;
        // The lowest work-item stands for an access: Oclgrind's threads need not report in order.
        if (detail::isAccess(d) && detail::lowerWorkItem(d, kept))
            kept = d;
        kept.occurrences = occurrences;
    }
    for (CheckDiagnostic &d : out) {
        if (d.access)
            d.diagnostic.message = detail::accessMessage(d);
        else if (detail::isAccess(d))
            d.diagnostic.message += detail::workItemsText(d);
    }
    return out;
}

bool CheckReport::clean() const
{
    return errorCount() == 0;
}

std::size_t CheckReport::errorCount() const
{
    return std::size_t(std::count_if(diagnostics.begin(), diagnostics.end(), [](const CheckDiagnostic &d) {
        return d.diagnostic.severity == Severity::Error;
    }));
}

std::string formatCheckDiagnostic(const CheckDiagnostic &d)
{
    const Diagnostic &g = d.diagnostic;
    std::string out;
    if (!g.file.empty()) {
        out += g.file + ':';
        if (g.line > 0) {
            out += std::to_string(g.line) + ':';
            if (g.column > 0)
                out += std::to_string(g.column) + ':';
        }
        out += ' ';
    }
    out += std::string(severityName(g.severity)) + ": " + g.message;
    if (d.occurrences > 1 && !detail::isAccess(d)) // an access counts its work-items in its message
        out += " (" + std::to_string(d.occurrences) + " times)";
    out += '\n';
    bool first = true;
    for (const CheckSite &s : d.sites) {
        out += "    ";
        if (first && !d.kernel.empty())
            out += "kernel " + d.kernel + ", ";
        if (!s.role.empty())
            out += s.role + ' ';
        out += s.global           ? "work-item " + s.entity
               : s.group          ? "work-group " + s.entity.substr(s.entity.starts_with("Group") ? 5 : 0)
               : s.entity.empty() ? std::string("location")
                                  : s.entity;
        if (s.line > 0 && (s.file != g.file || s.line != g.line || s.column != g.column || !first))
            out += " at " + s.file + ':' + std::to_string(s.line) +
                   (s.column > 0 ? ':' + std::to_string(s.column) : std::string());
        out += '\n';
        if (!s.sourceLine.empty() && (first || s.line != g.line || s.file != g.file))
            out += "    " + std::to_string(s.line) + " | " + s.sourceLine + '\n';
        first = false;
    }
    if (d.sites.empty() && !d.kernel.empty())
        out += "    kernel " + d.kernel + '\n';
    // The first detail is already in a message that announced it.
    const bool inMessage = !d.details.empty() && g.message.size() > d.details.front().size() &&
                           g.message.ends_with(d.details.front());
    for (std::size_t i = inMessage ? 1 : 0; i < d.details.size(); ++i)
        out += "    " + d.details[i] + '\n';
    if (d.access)
        out += "    Oclgrind: " + d.access->oclgrindMessage + '\n';
    return out;
}

} // namespace clscope
