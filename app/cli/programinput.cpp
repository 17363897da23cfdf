// What build and run build a program from: an OpenCL C file, SPIR-V (told by its magic number), a device
// binary (--binary) or the device's built-in kernels (--builtin), as real hosts create their programs; the
// choice and the build are core's (programsource.h), which the GUI's program tabs take too.
#include "cli.h"

#include "clscope/fileio.h"
#include "clscope/programsource.h"

#include <cstring>
#include <filesystem>
#include <fstream>

namespace clscope::cli {

void addProgramInputOptions(CLI::App *sub, ProgramInput &in, const std::string &fileHelp)
{
    sub->add_option_function<std::vector<std::string>>(
        "file",
        [&in](const std::vector<std::string> &files) {
            in.files = files;
            in.file = files.empty() ? std::string() : files.front();
        },
        fileHelp);
    sub->add_flag("--link", in.link,
                  "Compile each FILE apart (clCompileProgram) and link them (clLinkProgram), as hosts with "
                  "separate compilation do");
    sub->add_flag("--binary", in.binary,
                  "FILE is a device binary (as clGetProgramInfo(CL_PROGRAM_BINARIES) gives it, pyopencl's "
                  "program.binaries), used for every device of the build");
    sub->add_option("--builtin", in.builtins,
                    "Build the device's built-in kernels of these names (';'-separated, as "
                    "CL_DEVICE_BUILT_IN_KERNELS lists them) instead of a file");
}

void checkProgramInput(const ProgramInput &in)
{
    if (!in.builtins.empty() && (!in.file.empty() || in.binary))
        throw CliFailure{ExitUsage, "--builtin takes no FILE and no --binary"};
    if (in.builtins.empty() && in.file.empty())
        throw CliFailure{ExitUsage, "a FILE (or --builtin NAMES) is required"};
    if (in.binary && in.files.size() > 1)
        throw CliFailure{ExitUsage, "--binary takes one FILE (several files are OpenCL C sources)"};
    if (in.link && (in.binary || !in.builtins.empty()))
        throw CliFailure{ExitUsage, "--link compiles OpenCL C sources: not with --binary or --builtin"};
    std::error_code ec;
    for (const std::string &file : in.files) {
        if (!std::filesystem::is_regular_file(file, ec))
            throw CliFailure{ExitUsage,
                             "cannot read " + file + ": " +
                                 (std::filesystem::exists(file, ec) ? "not a regular file" : "no such file")};
    }
}

BuildResult buildProgramInput(const ProgramInput &in, BuildRequest request, const BinaryCache &cache)
{
    if (!in.builtins.empty())
        return buildProgramSource({ProgramKind::BuiltIns, {}, in.builtins}, std::move(request), cache);
    ProgramSource program;
    if (in.binary || request.source.empty()) {
        try {
            const std::string read = readRegularFile(in.file, kMaxDocumentBytes);
            program.bytes.assign(read.begin(), read.end());
        } catch (const FileError &e) {
            throw CliFailure{ExitUsage, e.what()};
        }
    }
    program.kind = programFileKind(program.bytes, in.binary ? ProgramKind::Binary : ProgramKind::Source);
    if (program.kind == ProgramKind::Il && (in.files.size() > 1 || in.link))
        throw CliFailure{ExitUsage, in.file + " is SPIR-V: one module, not a source among several"};
    if (program.kind == ProgramKind::Source) {
        if (request.source.empty()) {
            request.source.assign(program.bytes.begin(), program.bytes.end());
            checkSourceText(in.file, request.source);
        }
        for (std::size_t i = 1; i < in.files.size(); ++i)
            request.moreSources.push_back({in.files[i], {}});
        request.link = in.link;
    }
    return buildProgramSource(program, std::move(request), cache);
}

// A capture is an SQLite file (told by its header, not its name); the file was checked to be regular.
bool isCaptureFile(const std::string &path)
{
    if (!regularFileProblem(path).empty())
        return false;
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == sizeof head && std::memcmp(head, "SQLite format 3", sizeof head) == 0;
}

} // namespace clscope::cli
