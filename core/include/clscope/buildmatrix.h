// A build matrix: one program built with several option sets on several devices, and per build the figures
// that tell the sets apart: success, build time, warnings, binary size, and per kernel its work-group info
// and, where the driver reports them, registers and spills (NVIDIA's compiler prints them with
// -cl-nv-verbose as "ptxas info : Used N registers").
#pragma once

#include "clscope/build.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// "-O0|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32": the option sets, '|' between them, each trimmed (an
// empty set is the defaults). Throws BuildInputError when there is no set, or one set is given twice.
std::vector<std::string> parseOptionSets(std::string_view text);

// What NVIDIA's ptxas says of each kernel in a build log with -cl-nv-verbose.
struct KernelResources
{
    std::string kernel;
    std::optional<int> registers;
    std::optional<std::uint64_t> spillStores; // bytes
    std::optional<std::uint64_t> spillLoads;  // bytes
    std::optional<std::uint64_t> stackFrame;  // bytes
    std::optional<std::uint64_t> sharedBytes; // smem
    bool operator==(const KernelResources &) const = default;
};
std::vector<KernelResources> parsePtxasInfo(std::string_view log);

// True for a platform whose compiler takes -cl-nv-verbose (NVIDIA's): the matrix adds it there.
bool takesNvVerbose(std::string_view platformName);

// The options of one matrix build: `base` (what every set gets), the set, -cl-nv-verbose on NVIDIA, and
// -D CLSCOPE_MATRIX_BUILD=<nonce>: a define the program never reads that makes every matrix build a new
// program to the driver, so that no driver answers from its cache of compiled programs (NVIDIA's then
// writes no ptxas report, and a cached build's time is not the compiler's). Throws BuildInputError for
// options that do not split.
std::string matrixBuildOptions(std::string_view base, std::string_view set, std::string_view platformName,
                               std::uint64_t nonce);
// A nonce for matrixBuildOptions: different in every call (the clock, a counter and the process).
std::uint64_t matrixNonce();

// One build of the matrix: an option set on one device.
struct MatrixCell
{
    std::string options; // the set as given
    std::string device;  // CL_DEVICE_NAME
    bool success = false;
    double buildMs = 0;
    int warnings = 0;
    int errors = 0;
    std::string firstError; // the first error diagnostic ("file:line: message"), else the log's first line
    std::string log;
    std::size_t binaryBytes = 0;
    std::vector<KernelInfo> kernels; // with this device's work-group info only
    std::vector<KernelResources> resources;
};

// Fills a cell from a build of one option set: the device of the build's logs()[deviceIndex], its binary's
// size asked of the program (0 when the build failed).
MatrixCell matrixCell(const std::string &options, const BuildResult &build, std::size_t deviceIndex);

} // namespace clscope
