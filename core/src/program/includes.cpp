// The headers a source pulls in, found the way the compiler would find them, so that the cache key
// changes when any of them does.
#include "clscope/build.h"

#include "clscope/fileio.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace clscope {
namespace {

namespace fs = std::filesystem;

struct Directive
{
    std::string name;
    bool quoted = false;
    int line = 0;
};

struct Directives
{
    std::vector<Directive> literal;
    std::string unresolved; // the first directive that names no file literally, as written
    int unresolvedLine = 0;
};

// `#include "x"` and `#include <x>` lines. Any other include-like directive (`#include HDR`,
// `#include_next`, a name continued on the next line) is reported: its file cannot be known without
// running the preprocessor.
Directives includeDirectives(std::string_view text)
{
    Directives out;
    size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        size_t i = line.find_first_not_of(" \t");
        if (i == std::string_view::npos || line[i] != '#')
            continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string_view::npos || line.compare(i, 7, "include") != 0)
            continue;
        const size_t word = i;
        i += 7;
        const bool plain =
            i == line.size() || line[i] == ' ' || line[i] == '\t' || line[i] == '"' || line[i] == '<';
        i = line.find_first_not_of(" \t", i);
        const char open = i == std::string_view::npos ? '\0' : line[i];
        const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        const size_t stop = close == '\0' ? std::string_view::npos : line.find(close, i + 1);
        if (!plain || stop == std::string_view::npos || stop == i + 1) {
            if (out.unresolved.empty()) {
                out.unresolved = "#" + std::string(line.substr(word));
                out.unresolvedLine = lineNo;
            }
            continue;
        }
        out.literal.push_back({std::string(line.substr(i + 1, stop - i - 1)), open == '"', lineNo});
    }
    return out;
}

std::optional<fs::path> resolve(const Directive &d, const fs::path &includerDir,
                                const std::string &sourceDirectory,
                                const std::vector<std::string> &includePaths)
{
    std::vector<fs::path> candidates;
    if (d.quoted && !includerDir.empty())
        candidates.push_back(includerDir);
    if (!sourceDirectory.empty())
        candidates.emplace_back(sourceDirectory);
    for (const auto &p : includePaths)
        candidates.emplace_back(p);
    for (const auto &dir : candidates) {
        std::error_code ec;
        const fs::path full = dir / d.name;
        if (fs::is_regular_file(full, ec))
            return full;
    }
    return std::nullopt;
}

class Scanner
{
public:
    Scanner(const std::string &sourceDirectory, const std::vector<std::string> &includePaths)
        : m_sourceDirectory(sourceDirectory)
        , m_includePaths(includePaths)
    {}

    void scan(std::string_view text, const std::string &fileName, const fs::path &includerDir, int depth)
    {
        // Include cycles are cut by m_seen; the depth limit guards against pathological trees.
        if (depth > 64) {
            note("headers nest deeper than 64 levels below " + fileName);
            return;
        }
        const Directives directives = includeDirectives(text);
        if (!directives.unresolved.empty())
            note("'" + directives.unresolved + "' (" + fileName + " line " +
                 std::to_string(directives.unresolvedLine) + ") does not name its file literally");
        for (const Directive &d : directives.literal) {
            const auto path = resolve(d, includerDir, m_sourceDirectory, m_includePaths);
            if (!path) {
                if (m_missing.insert(d.name).second)
                    m_out.push_back({d.name, {}, {}, false});
                continue;
            }
            std::error_code ec;
            fs::path canonical = fs::weakly_canonical(*path, ec);
            if (ec)
                canonical = *path;
            if (!m_seen.insert(canonical.string()).second)
                continue;
            IncludedFile file{d.name, path->lexically_normal().string(), {}, false};
            try {
                file.contents = readRegularFile(*path, kMaxSourceBytes);
                file.found = true;
            } catch (const FileError &e) {
                note(e.what());
            }
            const std::string contents = file.contents;
            m_out.push_back(std::move(file));
            if (m_out.back().found)
                scan(contents, m_out.back().path, path->parent_path(), depth + 1);
        }
    }

    std::vector<IncludedFile> take() { return std::move(m_out); }
    const std::string &unresolved() const { return m_unresolved; }

private:
    void note(const std::string &why)
    {
        if (m_unresolved.empty())
            m_unresolved = why;
    }

    const std::string &m_sourceDirectory;
    const std::vector<std::string> &m_includePaths;
    std::set<std::string> m_seen;
    std::set<std::string> m_missing;
    std::vector<IncludedFile> m_out;
    std::string m_unresolved;
};

} // namespace

IncludeScan scanIncludeTree(std::string_view source, const std::string &sourceDirectory,
                            const std::vector<std::string> &includePaths)
{
    Scanner scanner(sourceDirectory, includePaths);
    scanner.scan(source, "the source", sourceDirectory.empty() ? fs::path() : fs::path(sourceDirectory), 0);
    IncludeScan out;
    out.unresolved = scanner.unresolved();
    out.files = scanner.take();
    return out;
}

std::string pyopenclIncludeDirectory()
{
    // pyopencl's own _find_pyopencl_include_path takes the cl folder beside its __init__.py; without
    // Python at hand, the places pip and Debian install it.
    std::vector<fs::path> roots;
    if (const char *venv = std::getenv("VIRTUAL_ENV"))
        roots.push_back(fs::path(venv) / "lib");
    if (const char *home = std::getenv("HOME"))
        roots.push_back(fs::path(home) / ".local/lib");
    roots.push_back("/usr/local/lib");
    roots.push_back("/usr/lib");
    for (const fs::path &root : roots) {
        std::error_code ec;
        std::vector<fs::path> candidates;
        if (root == "/usr/lib")
            candidates.push_back(root / "python3/dist-packages/pyopencl/cl");
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (!name.starts_with("python3"))
                continue;
            candidates.push_back(it->path() / "site-packages/pyopencl/cl");
            candidates.push_back(it->path() / "dist-packages/pyopencl/cl");
        }
        std::sort(candidates.begin(), candidates.end());
        for (const fs::path &c : candidates) {
            if (fs::is_regular_file(c / "pyopencl-complex.h", ec))
                return c.string();
        }
    }
    return {};
}

std::vector<IncludedFile> scanIncludes(std::string_view source, const std::string &sourceDirectory,
                                       const std::vector<std::string> &includePaths)
{
    return scanIncludeTree(source, sourceDirectory, includePaths).files;
}

} // namespace clscope
