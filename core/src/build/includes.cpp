// The headers a source pulls in, found the way the compiler would find them, so that the cache key
// changes when any of them does.
#include "clscope/build.h"

#include <fstream>
#include <set>
#include <sstream>

namespace clscope {
namespace {

namespace fs = std::filesystem;

struct Directive
{
    std::string name;
    bool quoted = false;
};

// `#include "x"` and `#include <x>` lines; anything fancier (macro includes) is not followed.
std::vector<Directive> includeDirectives(std::string_view text)
{
    std::vector<Directive> out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        size_t i = line.find_first_not_of(" \t");
        if (i == std::string_view::npos || line[i] != '#')
            continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string_view::npos || line.compare(i, 7, "include") != 0)
            continue;
        i = line.find_first_not_of(" \t", i + 7);
        if (i == std::string_view::npos)
            continue;
        const char open = line[i];
        const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        if (close == '\0')
            continue;
        const size_t stop = line.find(close, i + 1);
        if (stop == std::string_view::npos || stop == i + 1)
            continue;
        out.push_back({std::string(line.substr(i + 1, stop - i - 1)), open == '"'});
    }
    return out;
}

bool readFile(const fs::path &path, std::string &contents)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    contents = ss.str();
    return true;
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

    void scan(std::string_view text, const fs::path &includerDir, int depth)
    {
        // Include cycles are cut by m_seen; the depth limit guards against pathological trees.
        if (depth > 64)
            return;
        for (const Directive &d : includeDirectives(text)) {
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
            file.found = readFile(*path, file.contents);
            const std::string contents = file.contents;
            m_out.push_back(std::move(file));
            if (m_out.back().found)
                scan(contents, path->parent_path(), depth + 1);
        }
    }

    std::vector<IncludedFile> take() { return std::move(m_out); }

private:
    const std::string &m_sourceDirectory;
    const std::vector<std::string> &m_includePaths;
    std::set<std::string> m_seen;
    std::set<std::string> m_missing;
    std::vector<IncludedFile> m_out;
};

} // namespace

std::vector<IncludedFile> scanIncludes(std::string_view source, const std::string &sourceDirectory,
                                       const std::vector<std::string> &includePaths)
{
    Scanner scanner(sourceDirectory, includePaths);
    scanner.scan(source, sourceDirectory.empty() ? fs::path() : fs::path(sourceDirectory), 0);
    return scanner.take();
}

} // namespace clscope
