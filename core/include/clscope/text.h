// Small text helpers that several core modules (device specs, options, argument specs, NDRanges, the
// Oclgrind log) share, instead of a copy each.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// The C locale's white space (isspace without the locale): separators of options and trace lines.
inline bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Bytes as lower-case hexadecimal digits, two per byte ("00ff").
inline std::string hexBytes(const std::vector<unsigned char> &bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char b : bytes) {
        out += kDigits[b >> 4];
        out += kDigits[b & 15];
    }
    return out;
}

// ASCII lower case (device and platform names, option names).
inline std::string lowerAscii(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Without leading and trailing spaces and tabs: the separators of argument specs and size lists.
inline std::string_view trimBlanks(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Without leading and trailing white space of any kind (isspace): lines of logs, specs from the
// environment.
inline std::string_view trimSpace(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// The parts between separators, empty ones included ("a,,b" is three parts; "" is one empty part).
inline std::vector<std::string_view> splitOn(std::string_view s, char separator)
{
    std::vector<std::string_view> parts;
    for (std::size_t at = 0;;) {
        const std::size_t next = s.find(separator, at);
        parts.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
        if (next == std::string_view::npos)
            return parts;
        at = next + 1;
    }
}

// OpenCL C (or C) source with each comment replaced by one space; the newlines inside block comments and
// line splices of line comments stay, so line numbers do too. String and character literals are kept as
// they are (text.cpp).
std::string withoutComments(std::string_view source);

} // namespace clscope
