// Scalars by their DWARF encoding (debugscalars.h).
#include "debugscalars.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DebugInfoMetadata.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

namespace clscope::debugplugin {
namespace {

// The shortest text that reads back as the same float or double.
template<typename T> std::string shortest(T value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

float halfToFloat(std::uint16_t h)
{
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    float value = 0;
    if (exponent == 0)
        value = std::ldexp(float(mantissa), -24);
    else if (exponent == 31)
        value = mantissa ? NAN : INFINITY;
    else
        value = std::ldexp(float(mantissa | 0x400), exponent - 25);
    return (h & 0x8000) ? -value : value;
}

} // namespace

std::optional<Scalar> basicValue(const llvm::DIBasicType *basic, const std::vector<unsigned char> &bytes)
{
    const std::size_t size = bytes.size();
    switch (basic->getEncoding()) {
    case llvm::dwarf::DW_ATE_float:
        if (size == 2) {
            const float f = halfToFloat(loadAs<std::uint16_t>(bytes));
            return Scalar{shortest(f), f};
        }
        if (size == 4) {
            const float f = loadAs<float>(bytes);
            return Scalar{shortest(f), f};
        }
        if (size == 8) {
            const double d = loadAs<double>(bytes);
            return Scalar{shortest(d), d};
        }
        return std::nullopt;
    case llvm::dwarf::DW_ATE_boolean: {
        const bool b = std::any_of(bytes.begin(), bytes.end(), [](unsigned char c) { return c != 0; });
        return Scalar{b ? "true" : "false", b ? 1.0 : 0.0};
    }
    case llvm::dwarf::DW_ATE_signed:
    case llvm::dwarf::DW_ATE_signed_char: {
        if (size == 0 || size > 8)
            return std::nullopt;
        std::uint64_t raw = 0;
        std::memcpy(&raw, bytes.data(), size);
        const unsigned shift = unsigned(64 - 8 * size);
        const std::int64_t value = std::int64_t(raw << shift) >> shift;
        std::string text = std::to_string(value);
        if (basic->getEncoding() == llvm::dwarf::DW_ATE_signed_char && value >= 32 && value < 127)
            text += " '" + std::string(1, char(value)) + "'";
        return Scalar{text, double(value)};
    }
    case llvm::dwarf::DW_ATE_unsigned:
    case llvm::dwarf::DW_ATE_unsigned_char: {
        if (size == 0 || size > 8)
            return std::nullopt;
        std::uint64_t value = 0;
        std::memcpy(&value, bytes.data(), size);
        return Scalar{std::to_string(value), double(value)};
    }
    default:
        return std::nullopt;
    }
}

} // namespace clscope::debugplugin
