// What a program is created from, chosen in one place: OpenCL C source (clCreateProgramWithSource), SPIR-V
// (clCreateProgramWithIL), a device binary (clCreateProgramWithBinary) or the device's built-in kernels
// (clCreateProgramWithBuiltInKernels). clscope-cli's build and run, the GUI's program tabs and the capture's
// record of a program all name these kinds with the same words and build them through buildProgramSource.
#pragma once

#include "clscope/build.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

enum class ProgramKind { Source, Il, Binary, BuiltIns };

// The capture format's words (docs/capture-format.md), which the GUI's program tabs keep too: "source",
// "il", "binary", "built-in".
std::string_view programKindName(ProgramKind kind);
// The kind a word names; nothing for another word ("linked": a captured program made by clLinkProgram,
// which is no one input to build again).
std::optional<ProgramKind> parseProgramKind(std::string_view name);

// What a program file holds, by its bytes: SPIR-V, told by its magic number whatever the file is called
// and however it was given (`--binary` included: a module is never a device's binary), is IL; anything else
// is what the caller was told it is (`otherwise`: OpenCL C for `build FILE`, a device binary for `--binary`
// and for a file the GUI opens as a program file).
ProgramKind programFileKind(std::span<const unsigned char> bytes, ProgramKind otherwise);

struct ProgramSource
{
    ProgramKind kind = ProgramKind::Source; // Source: the request's source (and sourcePath, moreSources)
    std::vector<unsigned char> bytes;       // Il, Binary: the file's bytes
    std::string builtIns;                   // BuiltIns: the kernels' names, ';'-separated
};

// Builds the program: source through the binary cache; SPIR-V and a binary (the same binary for every
// device of the request) with the request's source dropped, since the driver describes their kernels;
// built-in kernels by name. Throws as buildProgram and the buildProgramFrom* functions do.
BuildResult buildProgramSource(const ProgramSource &program, BuildRequest request, const BinaryCache &cache);

} // namespace clscope
