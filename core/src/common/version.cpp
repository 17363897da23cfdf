// Parsing of OpenCL version strings and packed cl_version values.
#include "clscope/version.h"

#include <charconv>

namespace clscope {

std::string ClVersion::toString() const
{
    return std::to_string(major) + '.' + std::to_string(minor) + '.' + std::to_string(patch);
}

namespace {
// Parses "X.Y" at the start of text, followed by end of text or a space.
std::optional<ClVersion> parseMajorMinor(std::string_view text)
{
    ClVersion v;
    const char *begin = text.data();
    const char *end = begin + text.size();
    auto [p, ec] = std::from_chars(begin, end, v.major);
    if (ec != std::errc() || p == end || *p != '.')
        return std::nullopt;
    auto [q, ec2] = std::from_chars(p + 1, end, v.minor);
    if (ec2 != std::errc() || (q != end && *q != ' '))
        return std::nullopt;
    return v;
}

std::optional<ClVersion> parseAfterPrefix(std::string_view text, std::string_view prefix)
{
    if (!text.starts_with(prefix))
        return std::nullopt;
    return parseMajorMinor(text.substr(prefix.size()));
}
} // namespace

std::optional<ClVersion> parseOpenCLVersion(std::string_view text)
{
    return parseAfterPrefix(text, "OpenCL ");
}

std::optional<ClVersion> parseOpenCLCVersion(std::string_view text)
{
    return parseAfterPrefix(text, "OpenCL C ");
}

ClVersion decodeVersion(cl_version packed)
{
    return ClVersion{static_cast<int>(CL_VERSION_MAJOR(packed)), static_cast<int>(CL_VERSION_MINOR(packed)),
                     static_cast<int>(CL_VERSION_PATCH(packed))};
}

} // namespace clscope
