// The line profile: where a kernel's work goes, line by line of its source. A launch runs on Oclgrind with
// CLScope's plugin (app/oclgrind, libclscope-oclgrind.so) in a checked child (check.h's CheckSession with
// CheckSettings::lineProfiler), which counts every executed instruction with what it did; this module reads
// the plugin's file (hostile input: validated once, here), groups the instructions by source line, and
// formats the result as a table and as JSON.
//
// What is counted, per work-item instruction execution:
// - executed: every instruction Oclgrind executes (the totals equal Oclgrind's --inst-counts);
// - flops: fadd, fsub, fmul, fdiv, frem and fneg count one per vector element, fma, mad and llvm.fmuladd
//   two; math builtins (sqrt, exp, ...) are not counted. Single and half precision apart from double;
// - bytes loaded and stored in private, global, constant and local memory, as Oclgrind's memory callbacks
//   report them (a vload4 counts its 16 bytes, which --inst-counts does not), atomics included;
// - atomics (calls of atomic_* and atom_* builtins), barriers reached (barrier and work_group_barrier calls);
// - divergent groups: the work-groups whose work-items took a conditional branch differently (not every
//   work-item of the group that reached it took the same sides as often: a loop all run alike is not);
// async_work_group_copy's copies have no instruction: they are counted apart (groupCopies).
//
// Sampling (CheckSettings::sampleGroups): a launch of more work-groups than the budget runs only that many on
// Oclgrind, spread evenly over the launch (group k of the budget is floor(k * (groups - 1) / (budget - 1)) in
// Oclgrind's order, x fastest: the first and the last always run), and every count, divergent groups too, is
// scaled by groups / groups run, rounded. A kernel whose work-groups all do the same work is exact after
// scaling; one whose work depends on its data is an estimate (docs/user-guide.md gives measured errors).
#pragma once

#include "clscope/check.h"
#include "clscope/packagefiles.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// The plugin's library: CLSCOPE_OCLGRIND_PLUGIN when set, else beside the executables in executableDir (a
// build tree), else the package's library folder. Throws CheckUnavailableError naming where it looked.
std::string findLineProfiler(const std::string &executableDir);

// The work-group budget of a line profile unless told otherwise (--sample-groups, the window's setting): at
// about 1 us an instruction on Oclgrind, 256 groups of 256 work-items of a few hundred instructions take
// seconds, where a launch of a million work-items would take minutes.
inline constexpr std::uint64_t kDefaultSampleGroups = 256;

enum class MemorySpace { Private = 0, Global = 1, Constant = 2, Local = 3 };
inline constexpr std::size_t kMemorySpaces = 4;
std::string_view memorySpaceName(MemorySpace space); // "private", "global", "constant", "local"

struct LineCounts
{
    std::uint64_t executed = 0;
    std::uint64_t flops32 = 0;
    std::uint64_t flops64 = 0;
    std::array<std::uint64_t, kMemorySpaces> loadBytes{};
    std::array<std::uint64_t, kMemorySpaces> storeBytes{};
    std::uint64_t atomics = 0;
    std::uint64_t barriers = 0;
    std::uint64_t divergentGroups = 0;

    std::uint64_t flops() const { return flops32 + flops64; }
    std::uint64_t loaded(MemorySpace s) const { return loadBytes[std::size_t(s)]; }
    std::uint64_t stored(MemorySpace s) const { return storeBytes[std::size_t(s)]; }
    // Bytes to and from global and constant memory: what a roofline divides flops by.
    std::uint64_t deviceMemoryBytes() const;
    void add(const LineCounts &other); // saturating: counts never wrap
    bool operator==(const LineCounts &) const = default;
};

struct ProfiledLine
{
    std::string file; // the user's name for the main source (CheckSources::sourceFile), a header's as given
    int line = 0;
    std::string sourceLine; // the text, trimmed; "" when the file is not at hand
    LineCounts counts;
    bool operator==(const ProfiledLine &) const = default;
};

// One kernel invocation as the plugin counted it.
struct KernelLineProfile
{
    std::string kernel;
    std::array<std::uint64_t, 3> global{1, 1, 1};
    std::array<std::uint64_t, 3> local{1, 1, 1};
    std::vector<ProfiledLine> lines;                 // by file (the main source first), then line
    LineCounts unlocated;                            // instructions with no source line
    LineCounts groupCopies;                          // async_work_group_copy
    std::map<std::string, std::uint64_t> executedBy; // "load", "call _Z13get_global_idj()": as --inst-counts
    LineCounts total;                                // every line, unlocated and groupCopies
    std::uint64_t launches = 1;                      // invocations summed into this (LineProfile::byKernel)
    std::uint64_t workItems = 0; // of every launch summed; global and local are the first's
    // Work-groups of every launch summed, and those Oclgrind ran: fewer when sampled, and then every count
    // above is scaled by groups / groupsRun. 0 and 0 from a plugin that did not say.
    std::uint64_t groups = 0;
    std::uint64_t groupsRun = 0;

    bool sampled() const { return groupsRun < groups; }
};

// "sampled 64 of 16384 work-groups (evenly spread, about every 260th, first and last included), counts
// scaled by 256 (divergent groups too)"; "" when every work-group ran.
std::string describeSampling(const KernelLineProfile &profile);

struct LineProfile
{
    std::vector<KernelLineProfile> invocations; // in the order the kernels ended

    // The invocations of one kernel summed line by line (a capture's launches of a kernel, --repeat).
    std::vector<KernelLineProfile> byKernel() const;
};

// The plugin's file: a first line {"hello": "clscope-oclgrind", "mode": "lines", "format": 1}, then one
// line per invocation. Anything else (no hello: the plugin did not load; another format; a malformed or
// out-of-range value; more than 1,000,000 instructions or 10,000 invocations) throws Error (a Failure)
// saying what. Files named like Oclgrind's alias of the main source ("input.cl", Oclgrind's temporary
// folders) become sources.sourceFile, as check reports do; sourceLine comes from sources.texts.
LineProfile parseLineProfile(std::string_view text, const CheckSources &sources);

// The lines of a profile whose cost is highest first: by executed instructions, then device memory bytes.
std::vector<ProfiledLine> costliestLines(const KernelLineProfile &profile);

// {"kernel", "global", "local", "work_items", "work_groups", "work_groups_run", "sampled", "scale"
// (work_groups / work_groups_run; 1 when not sampled), "sampling" (describeSampling, "" when not sampled),
// "total": {counts}, "lines": [{file, line, source_line, counts
// ...}], "unlocated": {...}, "group_copies": {...}, "instructions": {"load": N, ...}}; counts are
// {"executed", "flops32", "flops64", "load": {private, global, constant, local}, "store": {...}, "atomics",
// "barriers", "divergent_groups"}.
std::string lineProfileToJson(const std::vector<KernelLineProfile> &kernels, int indent = 2);

// A table per kernel: its totals (and what was sampled), then every line that executed, in source order, with
// its share of the kernel's instructions.
std::string formatLineProfile(const KernelLineProfile &profile);

} // namespace clscope
