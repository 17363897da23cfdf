// Human formatting of byte counts, durations and hex values.
#include "clscope/format.h"

#include <array>
#include <cstdio>

namespace clscope {

std::string formatFixed(double value, int decimals)
{
    char buf[400]; // %f of DBL_MAX has 309 digits before the point
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

namespace {
std::string trimmedFixed(double value, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s(buf);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}
} // namespace

std::string formatBytes(std::uint64_t bytes)
{
    static constexpr std::array<const char *, 7> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes);
    size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < kUnits.size()) {
        value /= 1024.0;
        ++unit;
    }
    return trimmedFixed(value, unit == 0 ? 0 : 2) + ' ' + kUnits[unit];
}

std::string formatNanoseconds(double ns)
{
    if (ns < 1e3)
        return trimmedFixed(ns, 0) + " ns";
    if (ns < 1e6)
        return trimmedFixed(ns / 1e3, 3) + " us";
    if (ns < 1e9)
        return trimmedFixed(ns / 1e6, 3) + " ms";
    return trimmedFixed(ns / 1e9, 3) + " s";
}

std::string formatHex(std::uint64_t value)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
    return buf;
}

} // namespace clscope
