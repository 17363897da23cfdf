// Duration statistics per kernel, per (type, name) and per command type, and duration histograms.
#include "clscope/profile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

namespace clscope {

namespace {

bool usable(const CommandRecord &r)
{
    return r.start != 0 && r.end != 0 && r.start <= r.end;
}

// Groups in order of first appearance, keyed by whatever `key` returns.
template<typename Key, typename KeyOf>
std::vector<DurationStats> group(const std::vector<CommandRecord> &records, KeyOf keyOf, bool kernelsOnly)
{
    struct Group
    {
        DurationStats stats;
        std::vector<std::uint64_t> durations;
    };
    std::vector<Group> groups;
    std::map<Key, std::size_t> index;
    for (const CommandRecord &r : records) {
        if (kernelsOnly && r.type != CommandRecord::Type::Kernel)
            continue;
        // A captured program's API calls (host markers on its threads' lanes) are not device work.
        if (r.hostSpan && r.type == CommandRecord::Type::Marker)
            continue;
        auto [it, inserted] = index.try_emplace(keyOf(r), groups.size());
        if (inserted) {
            Group g;
            g.stats.type = r.type;
            g.stats.name = r.name;
            groups.push_back(std::move(g));
        }
        Group &g = groups[it->second];
        if (!usable(r)) {
            ++g.stats.skipped;
            continue;
        }
        g.durations.push_back(r.duration());
        g.stats.bytes += r.bytes;
    }
    std::vector<DurationStats> out;
    out.reserve(groups.size());
    for (Group &g : groups) {
        DurationStats s = summarize(std::move(g.durations));
        s.name = std::move(g.stats.name);
        s.type = g.stats.type;
        s.skipped = g.stats.skipped;
        s.bytes = g.stats.bytes;
        if (isTransfer(s.type) && s.totalNs > 0)
            s.gbPerSecond = static_cast<double>(s.bytes) / static_cast<double>(s.totalNs);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace

DurationStats summarize(std::vector<std::uint64_t> durations)
{
    DurationStats s;
    s.count = durations.size();
    if (durations.empty())
        return s;
    std::sort(durations.begin(), durations.end());
    s.minNs = durations.front();
    s.maxNs = durations.back();
    // Sums in long double: a million 1e9 ns durations would lose low bits in a double.
    long double sum = 0;
    for (std::uint64_t d : durations) {
        s.totalNs += d;
        sum += static_cast<long double>(d);
    }
    const std::size_t n = durations.size();
    s.medianNs =
        n % 2 == 1 ? static_cast<double>(durations[n / 2])
                   : (static_cast<double>(durations[n / 2 - 1]) + static_cast<double>(durations[n / 2])) / 2;
    const long double mean = sum / static_cast<long double>(n);
    s.meanNs = static_cast<double>(mean);
    if (n > 1) {
        long double squares = 0;
        for (std::uint64_t d : durations) {
            const long double diff = static_cast<long double>(d) - mean;
            squares += diff * diff;
        }
        s.stddevNs = static_cast<double>(std::sqrt(squares / static_cast<long double>(n - 1)));
    }
    return s;
}

std::vector<DurationStats> statsByName(const std::vector<CommandRecord> &records)
{
    return group<std::pair<CommandRecord::Type, std::string>>(
        records, [](const CommandRecord &r) { return std::make_pair(r.type, r.name); }, false);
}

std::vector<DurationStats> statsByKernel(const std::vector<CommandRecord> &records)
{
    return group<std::string>(
        records, [](const CommandRecord &r) { return r.name; }, true);
}

std::vector<DurationStats> statsByType(const std::vector<CommandRecord> &records)
{
    auto out = group<CommandRecord::Type>(
        records, [](const CommandRecord &r) { return r.type; }, false);
    for (DurationStats &s : out)
        s.name = std::string(typeName(s.type));
    std::sort(out.begin(), out.end(),
              [](const DurationStats &a, const DurationStats &b) { return a.type < b.type; });
    return out;
}

DurationHistogram histogram(const std::vector<std::uint64_t> &durations, int bins)
{
    DurationHistogram h;
    if (durations.empty())
        return h;
    if (bins <= 0)
        bins =
            std::clamp(static_cast<int>(std::ceil(std::sqrt(static_cast<double>(durations.size())))), 5, 50);
    const auto [lo, hi] = std::minmax_element(durations.begin(), durations.end());
    h.minNs = static_cast<double>(*lo);
    const double span = static_cast<double>(*hi - *lo);
    // All equal: one bin a nanosecond wide holds them all, rather than a division by zero.
    if (span == 0) {
        h.binWidthNs = 1;
        h.counts.assign(1, durations.size());
        return h;
    }
    h.binWidthNs = span / bins;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    for (std::uint64_t d : durations) {
        auto bin = static_cast<std::size_t>((static_cast<double>(d) - h.minNs) / h.binWidthNs);
        ++h.counts[std::min(bin, h.counts.size() - 1)];
    }
    return h;
}

} // namespace clscope
