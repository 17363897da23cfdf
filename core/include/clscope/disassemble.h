// The code a driver generated for a program, shown as what it is: PTX text (NVIDIA), LLVM IR (PoCL and
// Oclgrind keep LLVM bitcode, disassembled with llvm-dis), SPIR-V (spirv-dis), or the bytes' kind when no
// tool reads them. The tools are other programs, run as child processes, so clscope-cli links nothing more.
#pragma once

#include "clscope/build.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace clscope {

enum class CodeKind { Ptx, LlvmBitcode, SpirV, Elf, Text, Unknown };
std::string_view codeKindName(CodeKind kind); // "PTX", "LLVM IR", "SPIR-V", "ELF", "text", "binary"

// What a device's binary holds. A PoCL binary ("poclbin") is an archive whose first file is the program's
// LLVM bitcode: `payload` is that bitcode; for the others it is the binary itself.
struct BinaryContents
{
    CodeKind kind = CodeKind::Unknown;
    std::span<const unsigned char> payload;
    std::string container; // "PoCL binary" when the payload came out of one, else ""
};
BinaryContents classifyBinary(std::span<const unsigned char> binary);

struct GeneratedCode
{
    std::string device; // CL_DEVICE_NAME
    CodeKind kind = CodeKind::Unknown;
    std::size_t binaryBytes = 0;
    std::string text; // the code as text: PTX as the driver gave it, IR from llvm-dis, SPIR-V from spirv-dis
    std::string tool; // what made the text ("llvm-dis-15"); "" for PTX and text
    std::string note; // why there is no text (no tool, the tool failed), or what the container was
    bool hasText() const { return !text.empty(); }
};

// Disassembles one binary. Tools are looked up in PATH and /usr/lib/llvm-N/bin, newest first (a newer
// llvm-dis reads older bitcode); without one that reads it, `note` says which package to install (the
// LLVM version is the one the bitcode names, "install llvm-15").
GeneratedCode disassemble(std::span<const unsigned char> binary, std::string device = {});

// The generated code of every device of a successful build, in the build's device order.
std::vector<GeneratedCode> generatedCode(const BuildResult &build);

} // namespace clscope
