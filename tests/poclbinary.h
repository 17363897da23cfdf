// Test helper: a PoCL device binary that makes PoCL abort. PoCL's binary of a program holds the program's
// LLVM bitcode; with 8 of its bytes inverted (64 bytes past the bitcode's magic "BC\xC0\xDE"), PoCL's
// clBuildProgram fails the assertion `program->data[device_i]' (pocl_llvm_wg.cc) and aborts the process,
// unless PoCL's cache already holds the program under its build hash, which the damage leaves as it was (so
// the tests give PoCL a cache folder of their own, POCL_CACHE_DIR, and empty it first).
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

namespace poclbinary {

// Damages the bitcode in place; false when there is none to damage (not a PoCL binary).
inline bool damageBitcode(std::vector<unsigned char> &binary)
{
    const std::string_view magic("BC\xC0\xDE", 4);
    const auto at = std::search(binary.begin(), binary.end(), magic.begin(), magic.end());
    if (at == binary.end() || binary.end() - at < 200)
        return false;
    for (int i = 0; i < 8; ++i)
        at[64 + i] = static_cast<unsigned char>(~at[64 + i]);
    return true;
}

} // namespace poclbinary
