// A private vendors folder: the system's .icd files, copied, and Oclgrind's, written.
#include "clscope/loaderenv.h"

#include "clscope/check.h"
#include "clscope/text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace clscope {
namespace {

namespace fs = std::filesystem;

constexpr const char *kSystemVendors = "/etc/OpenCL/vendors";

bool set(const char *name)
{
    const char *v = std::getenv(name);
    return v && *v;
}

std::string readSmallFile(const fs::path &path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > 4096)
        return {};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool mentionsOclgrind(std::string_view s)
{
    return lowerAscii(s).find("oclgrind") != std::string::npos;
}

// Writes through a temporary name and a rename, so that a process starting at the same moment reads
// either the old file or the new one.
bool writeAtomically(const fs::path &path, const std::string &text)
{
    const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush())
            return false;
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec)
        fs::remove(tmp, ec);
    return !ec;
}

// Our own folder, 0700, not a link: the loader dlopens what the .icd files name.
std::optional<fs::path> privateFolder()
{
    const char *base = std::getenv("XDG_RUNTIME_DIR");
    if (!base || !*base)
        base = std::getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    const fs::path dir = fs::path(base) / ("clscope-icd-" + std::to_string(::getuid()));
    ::mkdir(dir.c_str(), 0700);
    struct stat st
    {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() ||
        (st.st_mode & 077) != 0)
        return std::nullopt;
    return dir;
}

} // namespace

namespace {
std::vector<std::string> &ownVariableList()
{
    static std::vector<std::string> names;
    return names;
}
} // namespace

void noteOwnVariable(const std::string &name)
{
    ownVariableList().push_back(name);
}

std::vector<std::string> ownVariables()
{
    return ownVariableList();
}

std::string registerInstalledPlatforms()
{
    if (set("OCL_ICD_VENDORS") || set("OPENCL_VENDOR_PATH") || set("OCL_ICD_FILENAMES"))
        return {};
    std::error_code ec;
    std::vector<std::pair<std::string, std::string>> icds; // file name, contents
    for (fs::directory_iterator it(kSystemVendors, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".icd")
            continue;
        const std::string text = readSmallFile(it->path());
        if (mentionsOclgrind(it->path().filename().string()) || mentionsOclgrind(text))
            return {}; // registered already
        icds.emplace_back(it->path().filename().string(), text);
    }
    // No environment: findOclgrindIcd then looks only where the packages install the library.
    const std::optional<std::string> oclgrind = findOclgrindIcd({});
    if (!oclgrind)
        return {};
    const std::optional<fs::path> dir = privateFolder();
    if (!dir)
        return {};
    icds.emplace_back("oclgrind.icd", *oclgrind + "\n");
    std::set<std::string> wanted;
    for (const auto &[name, text] : icds) {
        wanted.insert(name);
        if (readSmallFile(*dir / name) != text && !writeAtomically(*dir / name, text))
            return {};
    }
    for (fs::directory_iterator it(*dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".icd" && !wanted.count(it->path().filename().string()))
            fs::remove(it->path(), ec); // an ICD since removed from the system
    }
    ::setenv("OCL_ICD_VENDORS", dir->c_str(), 1);
    noteOwnVariable("OCL_ICD_VENDORS");
    return dir->string();
}

} // namespace clscope
