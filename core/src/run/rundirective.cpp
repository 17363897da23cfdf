// `// clscope-run:` comments: split like a shell (the build options' splitter), read like `clscope-cli run`.
#include "clscope/rundirective.h"

#include "clscope/build.h"
#include "clscope/kernelargs.h"

#include <charconv>

namespace clscope {
namespace {

constexpr std::string_view kMarker = "clscope-run:";

[[noreturn]] void fail(int line, const std::string &what)
{
    throw RunInputError("line " + std::to_string(line) + ": clscope-run: " + what);
}

void finish(std::vector<RunDirective> &out, RunDirective &current)
{
    if (current.line == 0)
        return;
    if (current.kernel.empty())
        fail(current.line, "no --kernel given");
    if (current.global.empty())
        fail(current.line, "no --global given for kernel " + current.kernel);
    out.push_back(std::move(current));
    current = {};
}

// The text after the marker when the line is a `// clscope-run:` comment.
bool directiveText(std::string_view line, std::string_view &text)
{
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line.substr(i, 2) != "//")
        return false;
    i = line.find_first_not_of(" \t", i + 2);
    if (i == std::string_view::npos || line.substr(i, kMarker.size()) != kMarker)
        return false;
    text = line.substr(i + kMarker.size());
    return true;
}

} // namespace

std::vector<RunDirective> parseRunDirectives(std::string_view source)
{
    std::vector<RunDirective> out;
    RunDirective current;
    int lineNo = 0;
    for (size_t pos = 0; pos < source.size();) {
        size_t end = source.find('\n', pos);
        if (end == std::string_view::npos)
            end = source.size();
        const std::string_view line = source.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        std::string_view text;
        if (!directiveText(line, text))
            continue;
        std::vector<std::string> tokens;
        try {
            tokens = splitOptions(text);
        } catch (const std::exception &e) {
            fail(lineNo, e.what());
        }
        if (current.line == 0)
            current.line = lineNo;
        for (size_t t = 0; t < tokens.size(); ++t) {
            const std::string &option = tokens[t];
            auto value = [&]() -> std::string {
                if (t + 1 >= tokens.size())
                    fail(lineNo, option + " needs a value");
                return tokens[++t];
            };
            if (option == "--kernel") {
                if (!current.kernel.empty()) {
                    finish(out, current);
                    current.line = lineNo;
                }
                current.kernel = value();
            } else if (option == "--global") {
                current.global = value();
            } else if (option == "--local") {
                current.local = value();
            } else if (option == "--offset") {
                current.offset = value();
            } else if (option == "--arg") {
                current.args.push_back(value());
            } else if (option == "--print") {
                current.prints.push_back(value());
            } else if (option == "--repeat") {
                const std::string v = value();
                int n = 0;
                const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
                if (ec != std::errc() || p != v.data() + v.size() || n < 1)
                    fail(lineNo, "--repeat " + v + " must be a whole number of at least 1");
                current.repeat = n;
            } else {
                fail(lineNo,
                     "unknown option '" + option +
                         "' (known: --kernel, --global, --local, --offset, --repeat, --arg, --print)");
            }
        }
    }
    finish(out, current);
    return out;
}

const RunDirective *findRunDirective(const std::vector<RunDirective> &directives, std::string_view kernel)
{
    if (kernel.empty())
        return directives.size() == 1 ? &directives.front() : nullptr;
    for (const RunDirective &d : directives) {
        if (d.kernel == kernel)
            return &d;
    }
    return nullptr;
}

} // namespace clscope
