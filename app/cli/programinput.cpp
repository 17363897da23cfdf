// What build and run build a program from: an OpenCL C file, SPIR-V (told by its magic number), a device
// binary (--binary) or the device's built-in kernels (--builtin), as real hosts create their programs.
#include "cli.h"

#include "clscope/fileio.h"

namespace clscope::cli {

void addProgramInputOptions(CLI::App *sub, ProgramInput &in)
{
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
}

BuildResult buildProgramInput(const ProgramInput &in, BuildRequest request, const BinaryCache &cache)
{
    if (!in.builtins.empty())
        return buildProgramFromBuiltIns(request, in.builtins);
    std::vector<unsigned char> bytes;
    if (in.binary || request.source.empty()) {
        try {
            const std::string read = readRegularFile(in.file, kMaxDocumentBytes);
            bytes.assign(read.begin(), read.end());
        } catch (const FileError &e) {
            throw CliFailure{ExitUsage, e.what()};
        }
    }
    if (in.binary) {
        request.source.clear(); // a binary's kernels are described by the driver
        return buildProgramFromBinaries(
            request, std::vector<std::vector<unsigned char>>(request.devices.size(), bytes));
    }
    if (isSpirv(bytes)) {
        request.source.clear();
        return buildProgramFromIL(request, bytes);
    }
    if (request.source.empty())
        request.source.assign(bytes.begin(), bytes.end());
    return buildProgram(request, cache);
}

} // namespace clscope::cli
