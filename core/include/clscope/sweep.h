// Work-group size sweeps: one kernel launch tried with every local size the device and the kernel allow,
// each timed over several launches after a warm-up, with the outputs compared against the first candidate
// that ran (a local size that changes the results is a bug in the kernel, and is flagged). Each candidate is
// an ordinary runKernel (runner.h) with `repeat` launches, so a candidate's figures are what
// `clscope-cli run --local L --repeat N` of the same launch would give.
#pragma once

#include "clscope/profile.h"
#include "clscope/runner.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// The local sizes worth trying for `global` (LaunchLimits: the device's and the kernel's limits):
// - a kernel compiled with reqd_work_group_size: that size only;
// - 1-D: every multiple of preferredMultiple (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) up to the
//   kernel's work-group limit that divides the global size (every multiple, with non-uniform work-groups);
// - 2-D and 3-D: every shape of divisors of the global size whose work-items are a multiple of
//   preferredMultiple, within the work-group and work-item limits;
// - sizes that are not multiples when no multiple fits (a global size smaller than the multiple).
// Ordered by work-items, then shape. Past maxCandidates, shapes of powers of two are kept first, then every
// k-th. The empty size ("the driver chooses") is not among them: sweepLocalSizes adds it.
std::vector<std::vector<std::size_t>> localSizeCandidates(const LaunchLimits &limits,
                                                          std::size_t preferredMultiple,
                                                          const std::vector<std::size_t> &global,
                                                          std::size_t maxCandidates = 256);

// "32;64;128", "16,16;32,8" (';' or spaces between candidates), "driver" for the driver's choice (an empty
// size). Throws RunInputError naming the candidate that is not a size.
std::vector<std::vector<std::size_t>> parseLocalCandidates(std::string_view text);

struct SweepRequest
{
    RunRequest run; // the launch; run.range.local is the first candidate (the reference), run.repeat ignored
    // Local sizes to try after run.range.local; empty: localSizeCandidates of the device, plus the
    // driver's choice.
    std::vector<std::vector<std::size_t>> candidates;
    int repeat = 10; // timed launches per candidate
    int warmup = 1;  // launches before them, not counted
};

struct SweepOptions
{
    std::shared_ptr<const std::atomic<bool>> cancel; // checked between candidates and between launches
    // After each candidate: how many are done, of how many.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

struct SweepPoint
{
    std::vector<std::size_t> local; // empty: the driver chose
    bool ran = false;
    std::string error;   // why it did not run (a limit, the driver's error)
    DurationStats stats; // END-START of the timed launches, in ns
    bool matches = true; // every buffer equals the reference's (false only for a point that ran)
    std::vector<std::string> differing; // the buffers that do not
};

struct SweepResult
{
    std::string kernel;
    std::string device;
    std::vector<std::size_t> global;
    int repeat = 0;
    int warmup = 0;
    std::vector<SweepPoint> points; // in the order tried; the first that ran is the reference
    std::optional<std::size_t> reference;
    std::optional<std::size_t> best; // the lowest median among the points that ran and match
    bool cancelled = false;
};

// Runs every candidate (RunInputError for the launch itself, before any candidate: unknown kernel, bad
// arguments). A candidate the device refuses is kept with its error, and the sweep goes on.
SweepResult sweepLocalSizes(const SweepRequest &request, const SweepOptions &options = {});

// The document `clscope-cli sweep --json` prints (docs/cli.md), and a sweep read back from one: a sweep made
// on a GPU box can be looked at in the GUI's sweep window. Reading throws RunInputError naming what is
// missing or of the wrong kind; keys it does not know are left alone (sweepjson.cpp).
std::string sweepResultToJson(const SweepResult &result);
SweepResult sweepResultFromJson(std::string_view json);

// "16,16", or "driver" for the empty size.
std::string localSizeLabel(const std::vector<std::size_t> &local);

} // namespace clscope
