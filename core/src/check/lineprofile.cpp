// Reading the line profiler plugin's file (lineprofile.h): validated once here, then grouped by source line.
#include "clscope/lineprofile.h"

#include "clscope/build.h"
#include "clscope/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <sstream>
#include <tuple>

namespace clscope {
namespace fs = std::filesystem;
namespace {

using ProfileJson = nlohmann::json;

constexpr std::size_t kMaxInstructions = 1'000'000;
constexpr std::size_t kMaxInvocations = 10'000;

[[noreturn]] void fail(const std::string &what)
{
    throw Error("the line profile from Oclgrind is not usable: " + what);
}

std::uint64_t countOf(const ProfileJson &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return 0; // a field the plugin left out counts nothing
    if (!it->is_number_unsigned())
        fail(std::string("'") + key + "' is not a count");
    return it->get<std::uint64_t>();
}

std::array<std::uint64_t, kMemorySpaces> bytesOf(const ProfileJson &object, const char *key)
{
    std::array<std::uint64_t, kMemorySpaces> bytes{};
    const auto it = object.find(key);
    if (it == object.end())
        return bytes;
    if (!it->is_object())
        fail(std::string("'") + key + "' is not an object of address spaces");
    for (std::size_t s = 0; s < kMemorySpaces; ++s)
        bytes[s] = countOf(*it, std::string(memorySpaceName(MemorySpace(s))).c_str());
    return bytes;
}

LineCounts countsOf(const ProfileJson &object)
{
    if (!object.is_object())
        fail("counts that are not an object");
    LineCounts c;
    c.executed = countOf(object, "executed");
    c.flops32 = countOf(object, "flops32");
    c.flops64 = countOf(object, "flops64");
    c.loadBytes = bytesOf(object, "load");
    c.storeBytes = bytesOf(object, "store");
    c.atomics = countOf(object, "atomics");
    c.barriers = countOf(object, "barriers");
    c.divergentGroups = countOf(object, "divergent_groups");
    return c;
}

std::array<std::uint64_t, 3> size3Of(const ProfileJson &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_array() || it->size() != 3)
        fail(std::string("'") + key + "' is not three sizes");
    std::array<std::uint64_t, 3> size{};
    for (std::size_t d = 0; d < 3; ++d) {
        if (!(*it)[d].is_number_unsigned() || (*it)[d].get<std::uint64_t>() == 0)
            fail(std::string("'") + key + "' holds a size that is not a positive count");
        size[d] = (*it)[d].get<std::uint64_t>();
    }
    return size;
}

std::string stringOf(const ProfileJson &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return {};
    if (!it->is_string())
        fail(std::string("'") + key + "' is not a string");
    return it->get<std::string>();
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max()
                                                             : a + b;
}

// n * groups / run, rounded to nearest, saturating: exact when n is run times a per-group count.
std::uint64_t scaled(std::uint64_t n, std::uint64_t groups, std::uint64_t run)
{
    std::uint64_t product = 0;
    if (!__builtin_mul_overflow(n, groups, &product) &&
        product <= std::numeric_limits<std::uint64_t>::max() - run / 2)
        return (product + run / 2) / run;
    const long double value = (static_cast<long double>(n) * groups) / run + 0.5L;
    return value >= 18446744073709551615.0L ? std::numeric_limits<std::uint64_t>::max()
                                            : static_cast<std::uint64_t>(value);
}

LineCounts scaledCounts(const LineCounts &c, std::uint64_t groups, std::uint64_t run)
{
    LineCounts s;
    s.executed = scaled(c.executed, groups, run);
    s.flops32 = scaled(c.flops32, groups, run);
    s.flops64 = scaled(c.flops64, groups, run);
    for (std::size_t space = 0; space < kMemorySpaces; ++space) {
        s.loadBytes[space] = scaled(c.loadBytes[space], groups, run);
        s.storeBytes[space] = scaled(c.storeBytes[space], groups, run);
    }
    s.atomics = scaled(c.atomics, groups, run);
    s.barriers = scaled(c.barriers, groups, run);
    s.divergentGroups = scaled(c.divergentGroups, groups, run);
    return s;
}

class FileNames
{
public:
    explicit FileNames(const CheckSources &sources)
        : m_sources(sources)
    {
        for (const std::string &f : sources.knownFiles)
            m_known.push_back(fs::path(f).lexically_normal().string());
    }

    // Oclgrind's name for a file (with the directory the debug info gives) as the user knows it.
    std::string map(const std::string &file, const std::string &directory) const
    {
        if (file.empty())
            return {};
        const fs::path full =
            fs::path(file).is_absolute() || directory.empty() ? fs::path(file) : fs::path(directory) / file;
        const std::string normal = full.lexically_normal().string();
        for (const std::string &known : m_known) {
            if (known == normal || known == fs::path(file).lexically_normal().string())
                return known;
        }
        if (isDriverSourceAlias(file) || isDriverSourceAlias(normal))
            return m_sources.sourceFile;
        return normal;
    }

    std::string sourceLine(const std::string &file, int line) const
    {
        const auto it = m_sources.texts.find(file);
        if (it == m_sources.texts.end() || line <= 0)
            return {};
        std::string_view text = it->second;
        for (int n = 1; n < line; ++n) {
            const std::size_t nl = text.find('\n');
            if (nl == std::string_view::npos)
                return {};
            text.remove_prefix(nl + 1);
        }
        return std::string(trimSpace(text.substr(0, text.find('\n'))));
    }

    const std::string &mainFile() const { return m_sources.sourceFile; }

private:
    const CheckSources &m_sources;
    std::vector<std::string> m_known;
};

KernelLineProfile invocationOf(const ProfileJson &doc, const FileNames &names, std::size_t &instructionsSeen)
{
    KernelLineProfile profile;
    profile.kernel = stringOf(doc, "kernel");
    if (profile.kernel.empty())
        fail("an invocation without a kernel name");
    profile.global = size3Of(doc, "global");
    profile.local = size3Of(doc, "local");
    if (__builtin_mul_overflow(profile.global[0], profile.global[1], &profile.workItems) ||
        __builtin_mul_overflow(profile.workItems, profile.global[2], &profile.workItems))
        fail("a global size of more than 2^64 work-items");
    profile.groups = countOf(doc, "groups");
    profile.groupsRun = countOf(doc, "groups_run");
    if (profile.groupsRun > profile.groups || (profile.groups > 0 && profile.groupsRun == 0))
        fail("an invocation that ran " + std::to_string(profile.groupsRun) + " of " +
             std::to_string(profile.groups) + " work-groups");
    const auto instructions = doc.find("instructions");
    if (instructions == doc.end() || !instructions->is_array())
        fail("an invocation without its instructions");
    instructionsSeen += instructions->size();
    if (instructionsSeen > kMaxInstructions)
        fail("more than " + std::to_string(kMaxInstructions) + " instructions");
    std::map<std::pair<std::string, int>, LineCounts> byLine;
    for (const ProfileJson &instruction : *instructions) {
        if (!instruction.is_object())
            fail("an instruction that is not an object");
        const LineCounts counts = countsOf(instruction);
        const std::string name = stringOf(instruction, "name");
        if (name.empty())
            fail("an instruction without a name");
        auto &executed = profile.executedBy[name];
        executed = saturatingAdd(executed, counts.executed);
        const std::uint64_t line = countOf(instruction, "line");
        if (line == 0 || line > std::uint64_t(std::numeric_limits<int>::max())) {
            profile.unlocated.add(counts);
            continue;
        }
        byLine[{names.map(stringOf(instruction, "file"), stringOf(instruction, "directory")), int(line)}].add(
            counts);
    }
    if (const auto copies = doc.find("group_copies"); copies != doc.end())
        profile.groupCopies = countsOf(*copies);
    if (profile.sampled()) {
        // Each line, and each instruction name, scaled apart: a line of a kernel whose groups all do the same
        // work stays exact, and the total is the sum of what is shown.
        for (auto &[where, counts] : byLine)
            counts = scaledCounts(counts, profile.groups, profile.groupsRun);
        profile.unlocated = scaledCounts(profile.unlocated, profile.groups, profile.groupsRun);
        profile.groupCopies = scaledCounts(profile.groupCopies, profile.groups, profile.groupsRun);
        for (auto &[name, n] : profile.executedBy)
            n = scaled(n, profile.groups, profile.groupsRun);
    }
    for (auto &[where, counts] : byLine) {
        ProfiledLine line;
        line.file = where.first;
        line.line = where.second;
        line.sourceLine = names.sourceLine(line.file, line.line);
        line.counts = counts;
        profile.total.add(counts);
        profile.lines.push_back(std::move(line));
    }
    profile.total.add(profile.unlocated);
    profile.total.add(profile.groupCopies);
    // The main source first, then headers by name; lines in order within each.
    std::stable_sort(profile.lines.begin(), profile.lines.end(),
                     [&](const ProfiledLine &a, const ProfiledLine &b) {
                         return std::make_tuple(a.file != names.mainFile(), a.file, a.line) <
                                std::make_tuple(b.file != names.mainFile(), b.file, b.line);
                     });
    return profile;
}

ProfileJson countsJson(const LineCounts &c)
{
    ProfileJson spacesLoad = ProfileJson::object(), spacesStore = ProfileJson::object();
    for (std::size_t s = 0; s < kMemorySpaces; ++s) {
        const std::string name(memorySpaceName(MemorySpace(s)));
        spacesLoad[name] = c.loadBytes[s];
        spacesStore[name] = c.storeBytes[s];
    }
    return ProfileJson{{"executed", c.executed}, {"flops32", c.flops32},
                       {"flops64", c.flops64},   {"load", spacesLoad},
                       {"store", spacesStore},   {"atomics", c.atomics},
                       {"barriers", c.barriers}, {"divergent_groups", c.divergentGroups}};
}

std::string humanCount(std::uint64_t n)
{
    std::ostringstream out;
    out.precision(3);
    if (n >= 10'000'000'000ull)
        out << double(n) / 1e9 << " G";
    else if (n >= 10'000'000ull)
        out << double(n) / 1e6 << " M";
    else if (n >= 100'000ull)
        out << double(n) / 1e3 << " k";
    else
        out << n;
    return out.str();
}

const char *ordinalSuffix(std::uint64_t n)
{
    if (n % 100 >= 11 && n % 100 <= 13)
        return "th";
    switch (n % 10) {
    case 1:
        return "st";
    case 2:
        return "nd";
    case 3:
        return "rd";
    default:
        return "th";
    }
}

std::string pad(std::string s, std::size_t width, bool left = false)
{
    if (s.size() < width)
        s = left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
    return s;
}

} // namespace

std::string findLineProfiler(const std::string &executableDir)
{
    constexpr const char *kName = "libclscope-oclgrind.so";
    if (const char *env = std::getenv("CLSCOPE_OCLGRIND_PLUGIN"); env && *env) {
        std::error_code ec;
        if (!fs::is_regular_file(env, ec))
            throw CheckUnavailableError(std::string("CLSCOPE_OCLGRIND_PLUGIN=") + env + " is not a file");
        return env;
    }
    if (auto found = findPackageLibrary(kName, executableDir))
        return *found;
    throw CheckUnavailableError(
        std::string("cannot find ") + kName + " (CLScope's Oclgrind plugin) next to " +
        (executableDir.empty() ? std::string("this program") : executableDir) + " or in " +
        packageLibraryDir() + " (set CLSCOPE_OCLGRIND_PLUGIN to its path)");
}

std::string_view memorySpaceName(MemorySpace space)
{
    switch (space) {
    case MemorySpace::Private:
        return "private";
    case MemorySpace::Global:
        return "global";
    case MemorySpace::Constant:
        return "constant";
    case MemorySpace::Local:
        return "local";
    }
    return "private";
}

std::uint64_t LineCounts::deviceMemoryBytes() const
{
    std::uint64_t bytes = 0;
    for (const MemorySpace s : {MemorySpace::Global, MemorySpace::Constant})
        bytes = saturatingAdd(saturatingAdd(bytes, loaded(s)), stored(s));
    return bytes;
}

void LineCounts::add(const LineCounts &other)
{
    executed = saturatingAdd(executed, other.executed);
    flops32 = saturatingAdd(flops32, other.flops32);
    flops64 = saturatingAdd(flops64, other.flops64);
    for (std::size_t s = 0; s < kMemorySpaces; ++s) {
        loadBytes[s] = saturatingAdd(loadBytes[s], other.loadBytes[s]);
        storeBytes[s] = saturatingAdd(storeBytes[s], other.storeBytes[s]);
    }
    atomics = saturatingAdd(atomics, other.atomics);
    barriers = saturatingAdd(barriers, other.barriers);
    divergentGroups = saturatingAdd(divergentGroups, other.divergentGroups);
}

std::vector<KernelLineProfile> LineProfile::byKernel() const
{
    std::vector<KernelLineProfile> kernels;
    for (const KernelLineProfile &invocation : invocations) {
        auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const KernelLineProfile &k) { return k.kernel == invocation.kernel; });
        if (it == kernels.end()) {
            kernels.push_back(invocation);
            continue;
        }
        KernelLineProfile &sum = *it;
        sum.launches += invocation.launches;
        sum.workItems = saturatingAdd(sum.workItems, invocation.workItems);
        sum.groups = saturatingAdd(sum.groups, invocation.groups);
        sum.groupsRun = saturatingAdd(sum.groupsRun, invocation.groupsRun);
        for (const ProfiledLine &line : invocation.lines) {
            auto at = std::find_if(sum.lines.begin(), sum.lines.end(), [&](const ProfiledLine &l) {
                return l.file == line.file && l.line == line.line;
            });
            if (at == sum.lines.end())
                sum.lines.push_back(line);
            else
                at->counts.add(line.counts);
        }
        sum.unlocated.add(invocation.unlocated);
        sum.groupCopies.add(invocation.groupCopies);
        sum.total.add(invocation.total);
        for (const auto &[name, n] : invocation.executedBy)
            sum.executedBy[name] = saturatingAdd(sum.executedBy[name], n);
    }
    return kernels;
}

LineProfile parseLineProfile(std::string_view text, const CheckSources &sources)
{
    const FileNames names(sources);
    LineProfile profile;
    bool hello = false;
    std::size_t instructions = 0;
    std::size_t lineNumber = 0;
    for (const std::string_view line : splitOn(text, '\n')) {
        ++lineNumber;
        if (trimSpace(line).empty())
            continue;
        ProfileJson doc;
        try {
            doc = ProfileJson::parse(line);
        } catch (const ProfileJson::exception &) {
            fail("line " + std::to_string(lineNumber) + " is not JSON");
        }
        if (!doc.is_object())
            fail("line " + std::to_string(lineNumber) + " is not an object");
        if (!hello) {
            if (stringOf(doc, "hello") != "clscope-oclgrind" || stringOf(doc, "mode") != "lines")
                fail("it does not start with the plugin's hello");
            if (countOf(doc, "format") != 1)
                fail("format " + std::to_string(countOf(doc, "format")) + " is not the 1 this version reads");
            hello = true;
            continue;
        }
        if (profile.invocations.size() == kMaxInvocations)
            fail("more than " + std::to_string(kMaxInvocations) + " kernel invocations");
        profile.invocations.push_back(invocationOf(doc, names, instructions));
    }
    if (!hello)
        fail("the plugin did not load in Oclgrind (its file is empty)");
    return profile;
}

std::string describeSampling(const KernelLineProfile &profile)
{
    if (!profile.sampled())
        return {};
    std::ostringstream out;
    out << "sampled " << profile.groupsRun << " of " << profile.groups << " work-groups";
    if (profile.launches > 1)
        out << " over " << profile.launches << " launches";
    // The spacing of one launch's choice (floor(k * (groups - 1) / (run - 1))); launches of other sizes
    // make it an average.
    const std::uint64_t groups = profile.groups / profile.launches,
                        run = profile.groupsRun / profile.launches;
    if (run > 1 && (groups - 1) / (run - 1) < 2) {
        out << " (evenly spread, first and last included)";
    } else if (run > 1) {
        const std::uint64_t every = (groups - 1 + (run - 1) / 2) / (run - 1);
        out << " (evenly spread, " << (every * (run - 1) == groups - 1 ? "every " : "about every ") << every
            << ordinalSuffix(every) << ", first and last included)";
    } else {
        out << " (the first)";
    }
    std::ostringstream scale;
    const double factor = double(profile.groups) / double(profile.groupsRun);
    if (profile.groups % profile.groupsRun == 0)
        scale << profile.groups / profile.groupsRun;
    else
        scale << std::fixed << std::setprecision(2) << factor;
    out << ", counts scaled by " << scale.str() << " (divergent groups too)";
    return out.str();
}

std::vector<ProfiledLine> costliestLines(const KernelLineProfile &profile)
{
    std::vector<ProfiledLine> lines = profile.lines;
    std::stable_sort(lines.begin(), lines.end(), [](const ProfiledLine &a, const ProfiledLine &b) {
        return std::make_pair(a.counts.executed, a.counts.deviceMemoryBytes()) >
               std::make_pair(b.counts.executed, b.counts.deviceMemoryBytes());
    });
    return lines;
}

std::string lineProfileToJson(const std::vector<KernelLineProfile> &kernels, int indent)
{
    ProfileJson doc = ProfileJson::array();
    for (const KernelLineProfile &k : kernels) {
        ProfileJson lines = ProfileJson::array();
        for (const ProfiledLine &l : k.lines) {
            ProfileJson line = countsJson(l.counts);
            line["file"] = l.file;
            line["line"] = l.line;
            line["source_line"] = l.sourceLine;
            lines.push_back(std::move(line));
        }
        doc.push_back(ProfileJson{{"kernel", k.kernel},
                                  {"global", k.global},
                                  {"local", k.local},
                                  {"launches", k.launches},
                                  {"work_items", k.workItems},
                                  {"work_groups", k.groups},
                                  {"work_groups_run", k.groupsRun},
                                  {"sampled", k.sampled()},
                                  {"scale", k.sampled() ? double(k.groups) / double(k.groupsRun) : 1.0},
                                  {"sampling", describeSampling(k)},
                                  {"total", countsJson(k.total)},
                                  {"lines", std::move(lines)},
                                  {"unlocated", countsJson(k.unlocated)},
                                  {"group_copies", countsJson(k.groupCopies)},
                                  {"instructions", k.executedBy}});
    }
    return doc.dump(indent, ' ', false, ProfileJson::error_handler_t::replace);
}

std::string formatLineProfile(const KernelLineProfile &profile)
{
    std::ostringstream out;
    const LineCounts &t = profile.total;
    out << "Kernel " << profile.kernel << ": ";
    if (profile.launches > 1)
        out << profile.launches << " launches, ";
    out << profile.workItems << " work-items, " << humanCount(t.executed) << " instructions, "
        << humanCount(t.flops()) << " flops, "
        << humanCount(t.loaded(MemorySpace::Global) + t.loaded(MemorySpace::Constant)) << " B loaded and "
        << humanCount(t.stored(MemorySpace::Global)) << " B stored in global memory";
    if (t.loaded(MemorySpace::Local) + t.stored(MemorySpace::Local) > 0)
        out << ", " << humanCount(t.loaded(MemorySpace::Local) + t.stored(MemorySpace::Local))
            << " B in local";
    out << '\n';
    if (profile.sampled())
        out << "  " << describeSampling(profile) << '\n';
    out << pad("line", 6) << pad("instr", 10) << pad("%", 6) << pad("flops", 10) << pad("global B", 11)
        << pad("local B", 10) << pad("atomics", 9) << pad("barriers", 9) << pad("diverged", 9)
        << "  source\n";
    std::string file;
    for (const ProfiledLine &l : profile.lines) {
        if (l.file != file) {
            file = l.file;
            if (!file.empty() || &l != &profile.lines.front())
                out << (file.empty() ? std::string("(the program's source)") : file) << ":\n";
        }
        const LineCounts &c = l.counts;
        const double share = t.executed ? 100.0 * double(c.executed) / double(t.executed) : 0.0;
        std::ostringstream pct;
        pct.setf(std::ios::fixed);
        pct.precision(1);
        pct << share;
        out << pad(std::to_string(l.line), 6) << pad(humanCount(c.executed), 10) << pad(pct.str(), 6)
            << pad(humanCount(c.flops()), 10) << pad(humanCount(c.deviceMemoryBytes()), 11)
            << pad(humanCount(c.loaded(MemorySpace::Local) + c.stored(MemorySpace::Local)), 10)
            << pad(humanCount(c.atomics), 9) << pad(humanCount(c.barriers), 9)
            << pad(humanCount(c.divergentGroups), 9) << "  " << l.sourceLine << '\n';
    }
    if (profile.unlocated.executed > 0)
        out << "  (no line) " << humanCount(profile.unlocated.executed) << " instructions\n";
    if (profile.groupCopies.deviceMemoryBytes() + profile.groupCopies.loaded(MemorySpace::Local) > 0)
        out << "  async_work_group_copy: " << humanCount(profile.groupCopies.deviceMemoryBytes())
            << " B of global memory\n";
    return out.str();
}

} // namespace clscope
