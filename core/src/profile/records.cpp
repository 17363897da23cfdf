// Command records: type names, bandwidth, pool series conversion, and the timestamp sanity checks.
#include "clscope/pool.h"
#include "clscope/profile.h"

#include <array>

namespace clscope {

namespace {

constexpr std::array<std::string_view, kCommandTypeCount> kTypeNames = {
    "kernel", "read", "write", "copy", "fill", "map", "migrate", "build", "marker"};

} // namespace

std::string_view typeName(CommandRecord::Type type)
{
    const auto i = static_cast<std::size_t>(type);
    return i < kTypeNames.size() ? kTypeNames[i] : std::string_view("unknown");
}

std::optional<CommandRecord::Type> parseType(std::string_view name)
{
    for (std::size_t i = 0; i < kTypeNames.size(); ++i) {
        if (kTypeNames[i] == name)
            return static_cast<CommandRecord::Type>(i);
    }
    return std::nullopt;
}

bool isTransfer(CommandRecord::Type type)
{
    using T = CommandRecord::Type;
    return type == T::Read || type == T::Write || type == T::Copy || type == T::Fill || type == T::Map ||
           type == T::Migrate;
}

bool CommandRecord::hasBandwidth() const
{
    return isTransfer(type) && bytes > 0 && duration() > 0;
}

double CommandRecord::gbPerSecond() const
{
    // bytes per ns is GB/s (1e9 bytes / 1e9 ns).
    return hasBandwidth() ? static_cast<double>(bytes) / static_cast<double>(duration()) : 0.0;
}

std::vector<PoolSeriesPoint> toPoolSeries(const std::vector<PoolSample> &samples)
{
    std::vector<PoolSeriesPoint> out;
    out.reserve(samples.size());
    for (const PoolSample &s : samples) {
        out.push_back(
            {static_cast<std::uint64_t>(s.timestampNs < 0 ? 0 : s.timestampNs), s.heldBytes, s.activeBytes});
    }
    return out;
}

StampIssues checkTimestamps(const CommandRecord &r)
{
    using F = StampIssues::Flag;
    StampIssues issues;
    auto flag = [&issues](F f) { issues.mask |= f; };

    if (r.hostSpan) {
        // A host span has only a start and an end (steady_clock); queued/submit mean nothing there.
        if (r.start == 0)
            flag(F::MissingStart);
        if (r.end == 0)
            flag(F::MissingEnd);
        if (r.start != 0 && r.end != 0) {
            if (r.start > r.end)
                flag(F::StartAfterEnd);
            else if (r.start == r.end)
                flag(F::ZeroRun);
        }
        return issues;
    }

    struct Stage
    {
        std::uint64_t value;
        bool present;
    };
    const bool hasComplete = r.complete.has_value();
    const std::array<Stage, 5> stages = {{{r.queued, r.queued != 0},
                                          {r.submit, r.submit != 0},
                                          {r.start, r.start != 0},
                                          {r.end, r.end != 0},
                                          {r.complete.value_or(0), hasComplete && *r.complete != 0}}};
    const std::array<F, 5> missing = {F::MissingQueued, F::MissingSubmit, F::MissingStart, F::MissingEnd,
                                      F::MissingComplete};
    // Indexed by the later stage of an adjacent pair.
    const std::array<F, 5> after = {F{}, F::QueuedAfterSubmit, F::SubmitAfterStart, F::StartAfterEnd,
                                    F::EndAfterComplete};
    const std::array<F, 5> zero = {F{}, F::ZeroQueued, F::ZeroSubmitted, F::ZeroRun, F::ZeroComplete};
    const std::size_t count = hasComplete ? 5 : 4;

    for (std::size_t i = 0; i < count; ++i) {
        if (!stages[i].present)
            flag(missing[i]);
    }
    // Compare each present stage with the previous present one; a comparison across a missing stage gets
    // its own flag, because it cannot say which of the two neighbours of the gap is wrong.
    int previous = -1;
    for (std::size_t i = 0; i < count; ++i) {
        if (!stages[i].present)
            continue;
        if (previous >= 0) {
            const std::uint64_t a = stages[static_cast<std::size_t>(previous)].value;
            const std::uint64_t b = stages[i].value;
            const bool adjacent = static_cast<std::size_t>(previous) + 1 == i;
            if (a > b)
                flag(adjacent ? after[i] : F::OrderAcrossGap);
            else if (a == b && adjacent)
                flag(zero[i]);
        }
        previous = static_cast<int>(i);
    }
    return issues;
}

std::vector<std::string> issueTexts(StampIssues issues)
{
    using F = StampIssues::Flag;
    static const std::array<std::pair<F, const char *>, StampIssues::kFlagCount> texts = {{
        {F::MissingQueued, "no QUEUED timestamp"},
        {F::MissingSubmit, "no SUBMIT timestamp (some drivers leave it 0)"},
        {F::MissingStart, "no START timestamp"},
        {F::MissingEnd, "no END timestamp"},
        {F::MissingComplete, "COMPLETE asked for but 0"},
        {F::QueuedAfterSubmit, "queued > submit"},
        {F::SubmitAfterStart, "submit > start"},
        {F::StartAfterEnd, "start > end"},
        {F::EndAfterComplete, "end > complete"},
        {F::OrderAcrossGap, "out of order across a missing stage"},
        {F::ZeroQueued, "queued = submit (no time in the queue)"},
        {F::ZeroSubmitted, "submit = start (Oclgrind reports this)"},
        {F::ZeroRun, "start = end (zero-length run)"},
        {F::ZeroComplete, "end = complete"},
    }};
    std::vector<std::string> out;
    for (const auto &[f, text] : texts) {
        if (issues.has(f))
            out.emplace_back(text);
    }
    return out;
}

std::string describeIssues(StampIssues issues)
{
    std::string out;
    for (const std::string &t : issueTexts(issues)) {
        if (!out.empty())
            out += "; ";
        out += t;
    }
    return out;
}

std::string ndRangeText(const std::array<std::size_t, 3> &sizes, int dims)
{
    if (dims <= 0 || (sizes[0] == 0 && sizes[1] == 0 && sizes[2] == 0))
        return {};
    std::string out;
    for (int i = 0; i < dims && i < 3; ++i) {
        if (i > 0)
            out += 'x';
        out += std::to_string(sizes[static_cast<std::size_t>(i)]);
    }
    return out;
}

} // namespace clscope
