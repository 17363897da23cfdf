// A scalar's bytes as the debugger shows them, by its DWARF encoding: floats (half, float, double) as the
// shortest text that reads back the same, integers signed or not (a char with its character), bools.
#pragma once

#include "debugread.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace llvm {
class DIBasicType;
} // namespace llvm

namespace clscope::debugplugin {

// The first sizeof(T) bytes as a T (fewer bytes leave the rest zero).
template<typename T> T loadAs(const std::vector<unsigned char> &bytes)
{
    T value{};
    std::memcpy(&value, bytes.data(), std::min(sizeof value, bytes.size()));
    return value;
}

// Nothing for an encoding or size the debugger does not read.
std::optional<Scalar> basicValue(const llvm::DIBasicType *basic, const std::vector<unsigned char> &bytes);

} // namespace clscope::debugplugin
