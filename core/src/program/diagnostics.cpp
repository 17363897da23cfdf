// Diagnostics from driver build logs. Hand-written matching rather than std::regex: logs can hold very
// long lines, and libstdc++'s recursive regex engine can exhaust the stack on them.
#include "clscope/build.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace clscope {
namespace {

struct SeverityWord
{
    std::string_view word;
    Severity severity;
};

// Longest first, so that "fatal error" is not read as a file named "fatal".
constexpr SeverityWord kSeverityWords[] = {
    {"fatal error", Severity::Error}, {"error", Severity::Error}, {"warning", Severity::Warning},
    {"note", Severity::Note},         {"remark", Severity::Note},
};

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view trimLeft(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

// "error: rest" -> Error, "rest".
bool takeSeverity(std::string_view s, Severity &severity, std::string_view &rest)
{
    for (const auto &w : kSeverityWords) {
        if (startsWith(s, w.word) && s.size() > w.word.size() && s[w.word.size()] == ':') {
            severity = w.severity;
            rest = trimLeft(s.substr(w.word.size() + 1));
            return true;
        }
    }
    return false;
}

bool takeNumber(std::string_view s, size_t &pos, int &value)
{
    const size_t start = pos;
    long long v = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) && pos - start < 9)
        v = v * 10 + (s[pos++] - '0');
    value = int(v);
    return pos > start;
}

struct Location
{
    std::string_view file;
    int line = 0;
    int column = 0;
    std::string_view rest;
};

// "file:line[:col]:rest" at the colon `colon` (the one after the file name).
bool locationAt(std::string_view s, size_t colon, Location &loc)
{
    if (colon == 0)
        return false;
    size_t pos = colon + 1;
    if (!takeNumber(s, pos, loc.line) || pos >= s.size() || s[pos] != ':')
        return false;
    ++pos;
    size_t colEnd = pos;
    int column = 0;
    if (takeNumber(s, colEnd, column) && colEnd < s.size() && s[colEnd] == ':') {
        loc.column = column;
        pos = colEnd + 1;
    } else {
        loc.column = 0;
    }
    loc.file = s.substr(0, colon);
    loc.rest = trimLeft(s.substr(pos));
    return true;
}

bool isCaretLine(std::string_view s)
{
    bool caret = false;
    for (char c : s) {
        if (c == '^')
            caret = true;
        else if (c != ' ' && c != '\t' && c != '~')
            return false;
    }
    return caret;
}

bool isSummaryLine(std::string_view s)
{
    // "1 error generated.", "2 warnings and 1 error generated."
    return !s.empty() && std::isdigit(static_cast<unsigned char>(s.front())) && endsWith(s, " generated.");
}

std::string normalized(std::string_view path)
{
    return std::filesystem::path(path).lexically_normal().string();
}

std::string_view baseName(std::string_view path)
{
    const size_t slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

class LineParser
{
public:
    LineParser(std::string_view sourceFile, const std::vector<std::string> &knownFiles)
        : m_sourceFile(sourceFile)
    {
        for (const auto &f : knownFiles)
            m_known.push_back(normalized(f));
    }

    std::optional<Diagnostic> parse(std::string_view line) const
    {
        Severity severity;
        std::string_view rest;
        // PoCL: "error: /path/tempfile_X.cl:5:29: message"; also location-less "error: message".
        if (takeSeverity(line, severity, rest)) {
            for (size_t colon = rest.find(':'); colon != std::string_view::npos;
                 colon = rest.find(':', colon + 1)) {
                Location loc;
                if (colon > 0 && rest[colon - 1] != ' ' && locationAt(rest, colon, loc))
                    return make(loc.file, loc.line, loc.column, severity, loc.rest);
            }
            return make({}, 0, 0, severity, rest);
        }
        // clang, NVIDIA, Intel, AMD: "file:line[:col]: severity: message". The file may hold colons.
        for (size_t colon = line.find(':'); colon != std::string_view::npos;
             colon = line.find(':', colon + 1)) {
            Location loc;
            if (locationAt(line, colon, loc) && takeSeverity(loc.rest, severity, rest))
                return make(loc.file, loc.line, loc.column, severity, rest);
        }
        return std::nullopt;
    }

private:
    Diagnostic make(std::string_view file, int line, int column, Severity severity,
                    std::string_view message) const
    {
        Diagnostic d;
        d.file = mapFile(file);
        d.line = line;
        d.column = column;
        d.severity = severity;
        d.message = std::string(message);
        while (!d.message.empty() && (d.message.back() == ' ' || d.message.back() == '\t'))
            d.message.pop_back();
        return d;
    }

    std::string mapFile(std::string_view file) const
    {
        if (file.empty())
            return {};
        const std::string n = normalized(file);
        // A header the include scan found keeps its name even where it looks like a temporary file.
        if (std::find(m_known.begin(), m_known.end(), n) != m_known.end())
            return std::string(file);
        // The driver's name for the main source is the source's own name, or none for an unsaved buffer
        // (never the driver's temporary file, which is gone or meaningless to the user).
        if (isDriverSourceAlias(file))
            return std::string(m_sourceFile);
        return std::string(file);
    }

    std::string_view m_sourceFile;
    std::vector<std::string> m_known;
};

} // namespace

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}

bool isDriverSourceAlias(std::string_view file)
{
    if (file.empty())
        return false;
    // <kernel> (NVIDIA), <source>, <program source>, <stdin>.
    if (file.front() == '<' && file.back() == '>')
        return true;
    // Intel numbers the source strings: "1:3:5: error: ...".
    if (std::all_of(file.begin(), file.end(), [](unsigned char c) { return std::isdigit(c); }))
        return true;
    const std::string_view base = baseName(file);
    if (base == "input.cl" && base.size() == file.size()) // Oclgrind
        return true;
    if (base == "CompileSource") // AMD's comgr: /tmp/comgr-xxxx/input/CompileSource
        return true;
    if (startsWith(base, "tempfile") && endsWith(base, ".cl")) // PoCL: .../kcache/tempfile_XXXXXX.cl
        return true;
    // Other drivers write the source to a temporary .cl file (older AMD: /tmp/OCL1234T5.cl).
    return (startsWith(file, "/tmp/") || startsWith(file, "/var/tmp/")) && endsWith(file, ".cl");
}

std::vector<Diagnostic> parseDiagnostics(std::string_view log, std::string_view sourceFile,
                                         const std::vector<std::string> &knownFiles)
{
    std::vector<std::string_view> lines;
    for (size_t pos = 0; pos <= log.size();) {
        size_t end = log.find('\n', pos);
        if (end == std::string_view::npos)
            end = log.size();
        std::string_view line = log.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        pos = end + 1;
    }
    const LineParser parser(sourceFile, knownFiles);
    std::vector<Diagnostic> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (line.empty() || isCaretLine(line) || isSummaryLine(line) ||
            startsWith(line, "In file included from") || startsWith(line, "                 from "))
            continue;
        // A line right above a caret line is the source echo, whatever it says ("error: ;" is a label).
        if (i + 1 < lines.size() && isCaretLine(lines[i + 1]))
            continue;
        if (auto d = parser.parse(line))
            out.push_back(std::move(*d));
    }
    return out;
}

} // namespace clscope
