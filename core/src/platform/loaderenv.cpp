// The loader's setup: the drivers it would load, probed in children; a private vendors folder with the
// good ones (and Oclgrind's, when the package registered none) when anything must change.
#include "clscope/loaderenv.h"

#include "clscope/check.h"
#include "clscope/fileio.h"
#include "clscope/text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

extern char **environ;

namespace clscope {
namespace {

namespace fs = std::filesystem;

bool set(const char *name)
{
    const char *v = std::getenv(name);
    return v && *v;
}

// An .icd file's text; "" when it is missing, not a regular file or larger than an .icd file can be.
std::string readSmallFile(const fs::path &path)
{
    try {
        return readRegularFile(path, 4096);
    } catch (const FileError &) {
        return {};
    }
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

// A folder of ours, 0700, not a link: the loader dlopens what the .icd files in it name.
bool ownFolder(const fs::path &dir)
{
    ::mkdir(dir.c_str(), 0700);
    struct stat st
    {};
    return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() &&
           (st.st_mode & 077) == 0;
}

std::optional<fs::path> privateFolder()
{
    const char *base = std::getenv("XDG_RUNTIME_DIR");
    if (!base || !*base)
        base = std::getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    const fs::path dir = fs::path(base) / ("clscope-icd-" + std::to_string(::getuid()));
    if (!ownFolder(dir))
        return std::nullopt;
    return dir;
}

using FolderEntries = std::vector<std::pair<std::string, std::string>>; // file name, contents

// Makes dir hold exactly these .icd files (others are removed: an ICD since removed from the system).
bool writeFolder(const fs::path &dir, const FolderEntries &entries)
{
    std::set<std::string> wanted;
    for (const auto &[name, text] : entries) {
        wanted.insert(name);
        if (readSmallFile(dir / name) != text && !writeAtomically(dir / name, text))
            return false;
    }
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".icd" && !wanted.count(it->path().filename().string()))
            fs::remove(it->path(), ec);
    }
    return true;
}

// A name for the folder of one set of drivers, from their names and contents (FNV-1a): processes that keep
// the same drivers share a folder, and one that keeps others never rewrites it under them.
std::string setName(const FolderEntries &entries)
{
    std::uint64_t h = 1469598103934665603ull;
    for (const auto &[name, text] : entries) {
        for (const std::string *part : {&name, &text}) {
            for (unsigned char c : *part)
                h = (h ^ c) * 1099511628211ull;
            h = (h ^ 0xff) * 1099511628211ull;
        }
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return std::string("only-") + hex;
}

std::vector<std::string> currentEnvironment()
{
    std::vector<std::string> out;
    for (char **e = environ; e && *e; ++e)
        out.emplace_back(*e);
    return out;
}

std::optional<LoaderSetup> &stored()
{
    static std::optional<LoaderSetup> setup;
    return setup;
}

bool probeTurnedOff(const std::string &choice)
{
    const std::string c = lowerAscii(trimSpace(choice));
    return c == "0" || c == "off" || c == "no" || c == "false";
}

} // namespace

std::vector<const IcdProbe *> LoaderSetup::skipped() const
{
    std::vector<const IcdProbe *> out;
    for (const IcdProbe &p : probes) {
        if (p.skipped())
            out.push_back(&p);
    }
    return out;
}

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

std::string selfExecutable()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.string();
}

const LoaderSetup *loaderSetup()
{
    return stored() ? &*stored() : nullptr;
}

const LoaderSetup &prepareLoader(const std::string &probeExecutable)
{
    if (stored())
        return *stored();
    LoaderSetup &setup = stored().emplace();
    try {
        const std::vector<std::string> environment = currentEnvironment();
        if (environmentValue(environment, kProbeChildVariable))
            return setup; // a probe child sees one driver and tries nothing

        const bool userSet = set("OCL_ICD_VENDORS") || set("OPENCL_VENDOR_PATH") || set("OCL_ICD_FILENAMES");
        std::vector<IcdEntry> icds = loaderIcds(environment);
        std::optional<std::size_t> oclgrind; // the entry added for Oclgrind
        if (!userSet && std::none_of(icds.begin(), icds.end(), [](const IcdEntry &e) {
                return mentionsOclgrind(fs::path(e.file).filename().string()) || mentionsOclgrind(e.text);
            })) {
            // No environment: findOclgrindIcd then looks only where the packages install the library.
            if (const std::optional<std::string> library = findOclgrindIcd({})) {
                oclgrind = icds.size();
                icds.push_back({*library, *library, *library + "\n", false});
            }
        }

        const std::string choice = environmentValue(environment, kProbeVariable).value_or("");
        if (probeTurnedOff(choice)) {
            for (const IcdEntry &e : icds) {
                IcdProbe probe;
                probe.icd = e;
                setup.probes.push_back(std::move(probe));
            }
        } else {
            std::string executable = !choice.empty() ? choice : probeExecutable;
            if (executable.empty()) {
                const std::string self = selfExecutable();
                executable =
                    self.empty() ? std::string() : (fs::path(self).parent_path() / "clscope-cli").string();
            }
            setup.probes = probeIcds(icds, environment, {executable, probeTimeout(environment)});
            for (const IcdProbe &p : setup.probes) {
                if (p.outcome == ProbeOutcome::NotRun && !p.detail.empty()) {
                    setup.note = p.detail;
                    break;
                }
            }
        }

        const bool anySkipped = !setup.skipped().empty();
        if (!anySkipped && !oclgrind)
            return setup; // the loader's own view is the right one
        const std::optional<fs::path> dir = privateFolder();
        if (!dir) {
            setup.note =
                "cannot make a private folder for the OpenCL drivers under $XDG_RUNTIME_DIR, $TMPDIR or "
                "/tmp, so the loader loads every driver";
            return setup;
        }
        FolderEntries entries;
        std::set<std::string> names;
        std::vector<std::string> filenames; // the good libraries of OCL_ICD_FILENAMES
        for (std::size_t i = 0; i < icds.size(); ++i) {
            if (setup.probes[i].skipped())
                continue;
            if (icds[i].fromFilenames) {
                filenames.push_back(icds[i].library);
                continue;
            }
            std::string name =
                oclgrind == i ? std::string("oclgrind.icd") : fs::path(icds[i].file).filename().string();
            if (name.size() < 5 || name.substr(name.size() - 4) != ".icd")
                name += ".icd"; // a library named directly
            const std::string stem = fs::path(name).stem().string();
            for (int n = 2; names.count(name); ++n)
                name = stem + "-" + std::to_string(n) + ".icd";
            names.insert(name);
            entries.emplace_back(name, icds[i].text);
        }
        // The shared folder when only Oclgrind is added (every process writes the same set there); a folder
        // per set of good drivers when some are skipped.
        const fs::path folder = anySkipped ? *dir / setName(entries) : *dir;
        if ((anySkipped && !ownFolder(folder)) || !writeFolder(folder, entries)) {
            setup.note =
                "cannot write the private folder " + folder.string() + ", so the loader loads every driver";
            return setup;
        }
        // Ours only where the user had none; a value of the user's, narrowed to the good drivers, stays.
        if (!set("OCL_ICD_VENDORS"))
            noteOwnVariable("OCL_ICD_VENDORS");
        ::setenv("OCL_ICD_VENDORS", folder.c_str(), 1);
        if (anySkipped && set("OCL_ICD_FILENAMES")) {
            std::string list;
            for (const std::string &f : filenames)
                list += (list.empty() ? "" : ":") + f;
            if (list.empty())
                ::unsetenv("OCL_ICD_FILENAMES");
            else
                ::setenv("OCL_ICD_FILENAMES", list.c_str(), 1);
        }
        setup.vendorsFolder = folder.string();
    } catch (const std::exception &e) {
        setup.note = e.what(); // the environment is changed last: before that, the loader's view is as it was
    }
    return setup;
}

std::string registerInstalledPlatforms()
{
    return prepareLoader().vendorsFolder;
}

} // namespace clscope
