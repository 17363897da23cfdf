// Launches a kernel source carries with it: `// clscope-run: --kernel K --global 512,512 --arg ...` lines,
// in the syntax of `clscope-cli run`, so that a sample (or a user's own file) opens with its arguments and
// NDRange filled in the GUI and runs from the CLI with no --global or --arg.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clscope {

struct RunDirective
{
    int line = 0; // 1-based line of the comment that starts it
    std::string kernel;
    std::string global;
    std::string local;
    std::string offset;
    int repeat = 1;
    std::vector<std::string> args;   // --arg specs, as written
    std::vector<std::string> prints; // --print names
};

// Every directive in the source, in order. A directive may span several `// clscope-run:` lines; a
// `--kernel` on a line after the directive already has one starts the next. Throws RunInputError naming
// the line on an unknown option, a missing value or a directive without --kernel or --global.
std::vector<RunDirective> parseRunDirectives(std::string_view source);

// The directive for the kernel, or for the only kernel when `kernel` is empty; nullptr when none.
const RunDirective *findRunDirective(const std::vector<RunDirective> &directives, std::string_view kernel);

} // namespace clscope
