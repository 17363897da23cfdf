// Build options: shell-like splitting and joining, -I discovery, per-platform defaults and the order
// in which the pieces of the effective options are put together.
#include "clscope/build.h"
#include "clscope/text.h"

#include <algorithm>
#include <cctype>

namespace clscope {
namespace {

// Characters that make a token need quotes to survive splitOptions.
bool needsQuoting(std::string_view token)
{
    if (token.empty())
        return true;
    return std::any_of(token.begin(), token.end(),
                       [](char c) { return isAsciiSpace(c) || c == '"' || c == '\'' || c == '\\'; });
}

std::vector<std::string> splitOrThrow(std::string_view text, std::string_view what)
{
    try {
        return splitOptions(text);
    } catch (const BuildInputError &e) {
        throw BuildInputError(std::string(what) + ": " + e.what());
    }
}

} // namespace

std::vector<std::string> splitOptions(std::string_view options)
{
    std::vector<std::string> tokens;
    std::string current;
    bool inToken = false; // distinguishes "" (an empty token) from no token
    size_t i = 0;
    while (i < options.size()) {
        const char c = options[i];
        if (isAsciiSpace(c)) {
            if (inToken)
                tokens.push_back(std::move(current));
            current.clear();
            inToken = false;
            ++i;
        } else if (c == '\'') {
            const size_t end = options.find('\'', i + 1);
            if (end == std::string_view::npos)
                throw BuildInputError("unterminated ' quote in options at column " + std::to_string(i + 1));
            current.append(options.substr(i + 1, end - i - 1));
            inToken = true;
            i = end + 1;
        } else if (c == '"') {
            size_t j = i + 1;
            bool closed = false;
            while (j < options.size()) {
                const char d = options[j];
                if (d == '"') {
                    closed = true;
                    break;
                }
                // As in a shell, inside double quotes a backslash escapes only " and \ .
                if (d == '\\' && j + 1 < options.size() &&
                    (options[j + 1] == '"' || options[j + 1] == '\\')) {
                    current += options[j + 1];
                    j += 2;
                    continue;
                }
                current += d;
                ++j;
            }
            if (!closed)
                throw BuildInputError("unterminated \" quote in options at column " + std::to_string(i + 1));
            inToken = true;
            i = j + 1;
        } else if (c == '\\') {
            if (i + 1 >= options.size())
                throw BuildInputError("options end in a lone backslash");
            current += options[i + 1];
            inToken = true;
            i += 2;
        } else {
            current += c;
            inToken = true;
            ++i;
        }
    }
    if (inToken)
        tokens.push_back(std::move(current));
    return tokens;
}

std::string joinOptions(const std::vector<std::string> &tokens)
{
    std::string out;
    for (const std::string &token : tokens) {
        if (!out.empty())
            out += ' ';
        if (!needsQuoting(token)) {
            out += token;
            continue;
        }
        // Double quotes, because drivers that understand quoting at all (clang-based ones) take those.
        out += '"';
        for (char c : token) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    return out;
}

std::vector<std::string> includePaths(const std::vector<std::string> &tokens)
{
    std::vector<std::string> paths;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string &t = tokens[i];
        if (t == "-I") {
            if (i + 1 < tokens.size())
                paths.push_back(tokens[++i]);
        } else if (t.size() > 2 && t.compare(0, 2, "-I") == 0) {
            paths.push_back(t.substr(2));
        }
    }
    return paths;
}

std::vector<std::string> platformDefaultOptions(std::string_view platformName)
{
    const std::string name = lowerAscii(platformName);
    // pyopencl defines PYOPENCL_USING_OCLGRIND there (its _PLAT_BUILD_OPTIONS): kernels written for it test
    // it.
    if (name.find("oclgrind") != std::string::npos)
        return {"-D", "CLSCOPE_USING_OCLGRIND", "-D", "PYOPENCL_USING_OCLGRIND"};
    // PoCL calls its platform "Portable Computing Language".
    if (name.find("pocl") != std::string::npos ||
        name.find("portable computing language") != std::string::npos)
        return {"-D", "CLSCOPE_USING_POCL"};
    return {};
}

std::vector<std::string> effectiveOptions(const OptionInputs &inputs)
{
    std::vector<std::string> out;
    if (!inputs.sourceDirectory.empty()) {
        out.push_back("-I");
        out.push_back(inputs.sourceDirectory);
    }
    for (auto &t : splitOrThrow(inputs.userOptions, "build options"))
        out.push_back(std::move(t));
    for (auto &t : platformDefaultOptions(inputs.platformName))
        out.push_back(std::move(t));
    for (auto &t : splitOrThrow(inputs.environment, "CLSCOPE_BUILD_OPTIONS"))
        out.push_back(std::move(t));
    for (auto &t : splitOrThrow(inputs.pyopenclEnvironment, "PYOPENCL_BUILD_OPTIONS"))
        out.push_back(std::move(t));
    if (inputs.kernelArgInfo && std::find(out.begin(), out.end(), kArgInfoOption) == out.end())
        out.push_back(kArgInfoOption);
    return out;
}

} // namespace clscope
