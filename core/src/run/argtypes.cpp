// The element type table (OpenCL scalars and vectors, raw bytes) and the parsing, range checking,
// encoding and formatting of values, for arguments, initialisers and read-back buffers.
#include "clscope/kernelargs.h"
#include "clscope/text.h"
#include "runinternal.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace clscope {

RunInputError::RunInputError(const std::string &message, std::string argument)
    : Error(message, ErrorCategory::Input)
    , m_argument(std::move(argument))
{}

namespace {

struct ScalarInfo
{
    ScalarKind kind;
    std::string_view name;
    std::size_t size;
};

constexpr ScalarInfo kScalars[] = {
    {ScalarKind::Char, "char", 1},     {ScalarKind::UChar, "uchar", 1},   {ScalarKind::Short, "short", 2},
    {ScalarKind::UShort, "ushort", 2}, {ScalarKind::Int, "int", 4},       {ScalarKind::UInt, "uint", 4},
    {ScalarKind::Long, "long", 8},     {ScalarKind::ULong, "ulong", 8},   {ScalarKind::Half, "half", 2},
    {ScalarKind::Float, "float", 4},   {ScalarKind::Double, "double", 8}, {ScalarKind::Bytes, "bytes", 1},
};

const ScalarInfo &info(ScalarKind kind)
{
    return kScalars[static_cast<std::size_t>(kind)];
}

constexpr bool isVectorWidth(int width)
{
    return width == 2 || width == 3 || width == 4 || width == 8 || width == 16;
}

using detail::argMessage;
using detail::failArgument;

// The smallest and largest value of an integer kind, as text and as magnitudes.
struct IntRange
{
    std::uint64_t maxPositive;
    std::uint64_t maxNegative; // magnitude of the minimum (0 for unsigned)
};

IntRange intRange(ScalarKind kind)
{
    switch (kind) {
    case ScalarKind::Char:
        return {127, 128};
    case ScalarKind::UChar:
    case ScalarKind::Bytes:
        return {255, 0};
    case ScalarKind::Short:
        return {32767, 32768};
    case ScalarKind::UShort:
        return {65535, 0};
    case ScalarKind::Int:
        return {2147483647u, 2147483648u};
    case ScalarKind::UInt:
        return {4294967295u, 0};
    case ScalarKind::Long:
        return {9223372036854775807ull, 9223372036854775808ull};
    default:
        return {std::numeric_limits<std::uint64_t>::max(), 0};
    }
}

std::string rangeText(ScalarKind kind)
{
    const IntRange r = intRange(kind);
    return (r.maxNegative ? "-" + std::to_string(r.maxNegative) : std::string("0")) + ".." +
           std::to_string(r.maxPositive);
}

// Magnitude and sign of an integer literal: decimal or 0x hex. Nothing when it is not one; `overflow`
// is set when the digits are right but the value passes 64 bits.
std::optional<std::uint64_t> parseMagnitude(std::string_view digits, bool &overflow)
{
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    }
    if (digits.empty() || digits.front() == '+' || digits.front() == '-')
        return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
    if (end != digits.data() + digits.size())
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        overflow = true;
        return std::nullopt;
    }
    return ec == std::errc() ? std::optional(value) : std::nullopt;
}

// Decimal, hex-float, inf and nan, locale-independent (std::from_chars), so a GUI's locale cannot turn
// "1.5" into an error.
std::optional<double> parseDouble(std::string_view text, bool &overflow)
{
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || text.front() == '+' || text.front() == '-')
        return std::nullopt;
    auto format = std::chars_format::general;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        format = std::chars_format::hex;
        text.remove_prefix(2);
        // from_chars would also take a sign, inf or nan here: "0x-1" as -1, "0xinf" as infinity.
        if (!std::isxdigit(static_cast<unsigned char>(text.front())) && text.front() != '.')
            return std::nullopt;
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, format);
    if (end != text.data() + text.size())
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        // from_chars leaves the value alone then; the wider type tells underflow (zero is fine) from
        // overflow. (Past even long double, the value stays infinite and counts as overflow.)
        long double wide = std::numeric_limits<long double>::infinity();
        std::from_chars(text.data(), text.data() + text.size(), wide, format);
        if (std::fabs(wide) < 1.0L)
            return negative ? -0.0 : 0.0;
        overflow = true;
        return std::nullopt;
    }
    if (ec != std::errc())
        return std::nullopt;
    return negative ? -value : value;
}

// Values at or past these round to infinity in the narrower type.
constexpr double kFloatOverflow = 0x1.ffffffp127;
constexpr double kHalfOverflow = 65520.0;

template<typename T> void store(unsigned char *dest, T value)
{
    std::memcpy(dest, &value, sizeof value);
}

template<typename T> T load(const unsigned char *src)
{
    T value;
    std::memcpy(&value, src, sizeof value);
    return value;
}

} // namespace

// ---- Types ------------------------------------------------------------------------------------------

std::string_view scalarName(ScalarKind kind)
{
    return info(kind).name;
}

std::size_t scalarSize(ScalarKind kind)
{
    return info(kind).size;
}

bool isSignedInteger(ScalarKind kind)
{
    return kind == ScalarKind::Char || kind == ScalarKind::Short || kind == ScalarKind::Int ||
           kind == ScalarKind::Long;
}

bool isUnsignedInteger(ScalarKind kind)
{
    return kind == ScalarKind::UChar || kind == ScalarKind::UShort || kind == ScalarKind::UInt ||
           kind == ScalarKind::ULong || kind == ScalarKind::Bytes;
}

bool isFloating(ScalarKind kind)
{
    return kind == ScalarKind::Half || kind == ScalarKind::Float || kind == ScalarKind::Double;
}

std::size_t ElementType::size() const
{
    return isRaw() ? rawSize : scalarSize(scalar) * std::size_t(storedWidth());
}

std::string ElementType::name() const
{
    if (isRaw())
        return "bytes" + std::to_string(rawSize);
    if (complex)
        return scalar == ScalarKind::Double ? "cdouble_t" : "cfloat_t";
    std::string n(scalarName(scalar));
    return width == 1 ? n : n + std::to_string(width);
}

bool interchangeable(const ElementType &a, const ElementType &b)
{
    if (a == b)
        return true;
    return !a.isRaw() && a.scalar == b.scalar && a.width == 2 && b.width == 2 && a.complex != b.complex;
}

std::optional<ElementType> parseElementType(std::string_view text)
{
    text = trimBlanks(text);
    std::string name(text);
    // C spellings that drivers and users write for the OpenCL names.
    static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
        {"unsigned char", "uchar"}, {"unsigned short", "ushort"}, {"unsigned int", "uint"},
        {"unsigned long", "ulong"}, {"unsigned", "uint"},         {"signed char", "char"},
        {"signed short", "short"},  {"signed int", "int"},        {"signed long", "long"},
        {"signed", "int"},
    };
    for (const auto &[from, to] : kAliases) {
        if (name == from) {
            name = to;
            break;
        }
    }
    std::size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
        --digits;
    const std::string_view base = std::string_view(name).substr(0, digits);
    const std::string_view suffix = std::string_view(name).substr(digits);
    int number = 0;
    if (!suffix.empty()) {
        if (suffix.size() > 6 || suffix.front() == '0')
            return std::nullopt;
        std::from_chars(suffix.data(), suffix.data() + suffix.size(), number);
    }
    if (base == "bytes")
        return number > 0 ? std::optional(ElementType::bytes(std::size_t(number))) : std::nullopt;
    if (name == "cfloat_t")
        return ElementType::complexOf(ScalarKind::Float);
    if (name == "cdouble_t")
        return ElementType::complexOf(ScalarKind::Double);
    for (const ScalarInfo &s : kScalars) {
        if (s.kind == ScalarKind::Bytes || s.name != base)
            continue;
        if (suffix.empty())
            return ElementType{s.kind, 1, 0};
        if (isVectorWidth(number))
            return ElementType{s.kind, number, 0};
    }
    return std::nullopt;
}

std::string elementTypeNames()
{
    return "char, uchar, short, ushort, int, uint, long, ulong, half, float, double, their vectors of 2, 3, "
           "4, "
           "8 and 16 (float4, uchar16), cfloat_t and cdouble_t (pyopencl-complex.h), and bytesN for raw "
           "elements of N bytes";
}

// ---- Numbers ----------------------------------------------------------------------------------------

Number parseNumber(std::string_view text, ScalarKind kind, std::string_view what)
{
    text = trimBlanks(text);
    const std::string shown(text);
    const std::string typeName(scalarName(kind == ScalarKind::Bytes ? ScalarKind::UChar : kind));
    if (text.empty())
        failArgument(what, "empty value for " + typeName);
    if (isFloating(kind)) {
        std::string_view body = text;
        bool negative = false;
        if (body.front() == '+' || body.front() == '-') {
            negative = body.front() == '-';
            body.remove_prefix(1);
        }
        std::string lower(body);
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        double value = 0;
        bool overflow = false;
        if (lower == "inf" || lower == "infinity") {
            value =
                negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        } else if (lower == "nan") {
            value = std::numeric_limits<double>::quiet_NaN();
        } else if (auto d = parseDouble(text, overflow)) {
            value = *d;
        } else {
            if (overflow)
                failArgument(what, shown + " is out of range for " + typeName);
            failArgument(what, "'" + shown + "' is not a valid " + typeName);
        }
        const double limit = kind == ScalarKind::Half ? kHalfOverflow : kFloatOverflow;
        if (kind != ScalarKind::Double && std::isfinite(value) && std::abs(value) >= limit)
            failArgument(
                what, shown + " is out of range for " + typeName + " (largest " +
                          (kind == ScalarKind::Half ? std::string("65504") : std::string("3.4028235e+38")) +
                          ")");
        return value;
    }
    bool negative = false;
    std::string_view body = text;
    if (body.front() == '+' || body.front() == '-') {
        negative = body.front() == '-';
        body.remove_prefix(1);
    }
    bool overflow = false;
    const auto magnitude = parseMagnitude(body, overflow);
    if (!magnitude) {
        bool floatOverflow = false;
        if (overflow)
            failArgument(what, shown + " is out of range for " + typeName + " (" + rangeText(kind) + ")");
        if (parseDouble(text, floatOverflow))
            failArgument(what, shown + " is not an integer (" + typeName + ")");
        failArgument(what, "'" + shown + "' is not a valid " + typeName);
    }
    const IntRange range = intRange(kind);
    if ((negative && *magnitude > range.maxNegative) || (!negative && *magnitude > range.maxPositive))
        failArgument(what, shown + " is out of range for " + typeName + " (" + rangeText(kind) + ")");
    // "-0" of an unsigned kind stays unsigned: callers take std::uint64_t from unsigned kinds.
    if (negative && *magnitude != 0)
        return std::int64_t(0 - *magnitude); // two's complement, exact
    if (isSignedInteger(kind))
        return std::int64_t(*magnitude);
    return *magnitude;
}

void encodeNumber(const Number &value, ScalarKind kind, unsigned char *dest, std::string_view what)
{
    if (isFloating(kind)) {
        const double d = toDouble(value);
        const double limit = kind == ScalarKind::Half ? kHalfOverflow : kFloatOverflow;
        if (kind != ScalarKind::Double && std::isfinite(d) && std::abs(d) >= limit)
            failArgument(what, formatNumber(value, ScalarKind::Double) + " is out of range for " +
                                   std::string(scalarName(kind)));
        if (kind == ScalarKind::Double)
            store(dest, d);
        else if (kind == ScalarKind::Float)
            store(dest, float(d));
        else
            store(dest, floatToHalf(float(d)));
        return;
    }
    // Integers: check the range exactly, then store the low bytes (little-endian hosts only, as OpenCL).
    std::uint64_t bits = 0;
    bool inRange = true;
    const IntRange range = intRange(kind);
    if (const auto *i = std::get_if<std::int64_t>(&value)) {
        bits = std::uint64_t(*i);
        inRange = *i >= 0 ? std::uint64_t(*i) <= range.maxPositive : (0 - bits) <= range.maxNegative;
    } else if (const auto *u = std::get_if<std::uint64_t>(&value)) {
        bits = *u;
        inRange = *u <= range.maxPositive;
    } else {
        const double d = std::get<double>(value);
        inRange = std::isfinite(d) && d == std::trunc(d) && d >= -double(range.maxNegative) &&
                  d <= double(range.maxPositive) && d < 18446744073709551616.0;
        bits = !inRange ? 0 : d < 0 ? std::uint64_t(std::int64_t(d)) : std::uint64_t(d);
    }
    if (!inRange)
        failArgument(what, formatNumber(value, ScalarKind::Double) + " is out of range for " +
                               std::string(scalarName(kind == ScalarKind::Bytes ? ScalarKind::UChar : kind)) +
                               " (" + rangeText(kind) + ")");
    std::memcpy(dest, &bits, scalarSize(kind));
}

Number decodeNumber(ScalarKind kind, const unsigned char *src)
{
    switch (kind) {
    case ScalarKind::Char:
        return std::int64_t(load<std::int8_t>(src));
    case ScalarKind::UChar:
    case ScalarKind::Bytes:
        return std::uint64_t(load<std::uint8_t>(src));
    case ScalarKind::Short:
        return std::int64_t(load<std::int16_t>(src));
    case ScalarKind::UShort:
        return std::uint64_t(load<std::uint16_t>(src));
    case ScalarKind::Int:
        return std::int64_t(load<std::int32_t>(src));
    case ScalarKind::UInt:
        return std::uint64_t(load<std::uint32_t>(src));
    case ScalarKind::Long:
        return load<std::int64_t>(src);
    case ScalarKind::ULong:
        return load<std::uint64_t>(src);
    case ScalarKind::Half:
        return double(halfToFloat(load<std::uint16_t>(src)));
    case ScalarKind::Float:
        return double(load<float>(src));
    case ScalarKind::Double:
        return load<double>(src);
    }
    return std::uint64_t(0);
}

double toDouble(const Number &value)
{
    return std::visit([](auto v) { return double(v); }, value);
}

std::string formatNumber(const Number &value, ScalarKind kind)
{
    char buffer[64];
    std::to_chars_result r{};
    if (const auto *i = std::get_if<std::int64_t>(&value))
        r = std::to_chars(buffer, buffer + sizeof buffer, *i);
    else if (const auto *u = std::get_if<std::uint64_t>(&value))
        r = std::to_chars(buffer, buffer + sizeof buffer, *u);
    else if (kind == ScalarKind::Float || kind == ScalarKind::Half)
        r = std::to_chars(buffer, buffer + sizeof buffer, float(std::get<double>(value)));
    else
        r = std::to_chars(buffer, buffer + sizeof buffer, std::get<double>(value));
    return std::string(buffer, r.ptr);
}

std::string formatComplex(double real, double imag, ScalarKind kind)
{
    const std::string im = formatNumber(imag, kind);
    const bool signed_ = !im.empty() && (im.front() == '-' || im.front() == '+');
    return formatNumber(real, kind) + (signed_ ? "" : "+") + im + "j";
}

std::uint16_t floatToHalf(float value)
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
    const auto sign = std::uint16_t((x >> 16) & 0x8000u);
    const std::uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u) // inf stays inf; nan stays a quiet nan with its top payload bits
        return std::uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0u));
    if (abs >= 0x477ff000u) // 65520 and above round to infinity
        return std::uint16_t(sign | 0x7c00u);
    if (abs < 0x38800000u) {   // below the smallest normal half (2^-14): a subnormal or zero
        if (abs < 0x33000000u) // below 2^-25: rounds to zero (2^-25 itself is a tie, to even zero)
            return sign;
        const std::uint32_t exponent = abs >> 23;
        const std::uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
        const std::uint32_t shift = 126 - exponent;
        std::uint32_t h = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1);
        const std::uint32_t half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1u)))
            ++h;
        return std::uint16_t(sign | h);
    }
    std::uint32_t h = (abs - 0x38000000u) >> 13; // rebias the exponent from 127 to 15
    const std::uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h; // a carry into the exponent is the right result
    return std::uint16_t(sign | h);
}

float halfToFloat(std::uint16_t bits)
{
    const bool negative = bits & 0x8000u;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    const std::uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        const float v = std::ldexp(float(mantissa), -24);
        return negative ? -v : v;
    }
    std::uint32_t x = (negative ? 0x80000000u : 0u) | (mantissa << 13);
    x |= exponent == 31 ? 0x7f800000u : (exponent + 112) << 23;
    return std::bit_cast<float>(x);
}

// ---- Values -----------------------------------------------------------------------------------------

namespace {

// RE,IM or a Python complex literal: 1+2j, -0.5j, 3, 1e-3-2J, (1+2j).
std::pair<Number, Number> parseComplex(std::string_view text, ScalarKind kind, std::string_view what)
{
    std::string_view t = trimBlanks(text);
    if (t.size() >= 2 && t.front() == '(' && t.back() == ')')
        t = trimBlanks(t.substr(1, t.size() - 2));
    const std::string shown(t);
    if (const std::size_t comma = t.find(','); comma != std::string_view::npos) {
        if (t.find(',', comma + 1) != std::string_view::npos)
            failArgument(what, std::string(kind == ScalarKind::Double ? "cdouble_t" : "cfloat_t") +
                                   " needs 2 values (RE,IM) or a complex literal like 1+2j, got '" + shown +
                                   "'");
        return {parseNumber(t.substr(0, comma), kind, what), parseNumber(t.substr(comma + 1), kind, what)};
    }
    if (t.empty() || (t.back() != 'j' && t.back() != 'J'))
        return {parseNumber(t, kind, what), 0.0};
    const std::string_view body = t.substr(0, t.size() - 1);
    // The imaginary part starts at the last sign that is not an exponent's.
    std::size_t split = std::string_view::npos;
    for (std::size_t i = body.size(); i-- > 1;) {
        if ((body[i] == '+' || body[i] == '-') && body[i - 1] != 'e' && body[i - 1] != 'E' &&
            body[i - 1] != 'p' && body[i - 1] != 'P') {
            split = i;
            break;
        }
    }
    const std::string_view realText =
        split == std::string_view::npos ? std::string_view() : body.substr(0, split);
    std::string imagText(split == std::string_view::npos ? body : body.substr(split));
    if (imagText.empty() || imagText == "+" || imagText == "-")
        imagText += "1";
    const Number real = realText.empty() ? Number(0.0) : parseNumber(realText, kind, what);
    return {real, parseNumber(imagText, kind, what)};
}

} // namespace

std::vector<unsigned char> parseValue(std::string_view text, const ElementType &type, std::string_view what)
{
    std::vector<unsigned char> bytes(type.size(), 0);
    if (type.complex) {
        const auto [real, imag] = parseComplex(text, type.scalar, what);
        encodeNumber(real, type.scalar, bytes.data(), what);
        encodeNumber(imag, type.scalar, bytes.data() + scalarSize(type.scalar), what);
        return bytes;
    }
    if (type.isRaw()) {
        std::string_view hex = trimBlanks(text);
        if (hex.size() > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
            hex.remove_prefix(2);
        if (hex.size() != 2 * type.rawSize)
            failArgument(what, type.name() + " needs " + std::to_string(2 * type.rawSize) +
                                   " hex digits, got " + std::to_string(hex.size()));
        for (std::size_t i = 0; i < type.rawSize; ++i) {
            unsigned value = 0;
            const auto [end, ec] = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, value, 16);
            if (ec != std::errc() || end != hex.data() + 2 * i + 2)
                failArgument(what,
                             "'" + std::string(trimBlanks(text)) + "' is not hex bytes for " + type.name());
            bytes[i] = static_cast<unsigned char>(value);
        }
        return bytes;
    }
    std::vector<std::string_view> parts;
    std::size_t pos = 0;
    while (true) {
        const std::size_t comma = text.find(',', pos);
        parts.push_back(
            text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
        if (comma == std::string_view::npos)
            break;
        pos = comma + 1;
    }
    if (parts.size() != std::size_t(type.width))
        failArgument(what, type.name() + " needs " + std::to_string(type.width) +
                               (type.width == 1 ? " value" : " values") + ", got " +
                               std::to_string(parts.size()) + " ('" + std::string(trimBlanks(text)) + "')");
    const std::size_t component = scalarSize(type.scalar);
    for (std::size_t i = 0; i < parts.size(); ++i)
        encodeNumber(parseNumber(parts[i], type.scalar, what), type.scalar, bytes.data() + i * component,
                     what);
    return bytes;
}

// ---- Buffers ----------------------------------------------------------------------------------------

std::size_t BufferData::componentCount() const
{
    return type.isRaw() ? count * type.rawSize : count * std::size_t(type.width);
}

Number BufferData::number(std::size_t component) const
{
    if (type.isRaw())
        return decodeNumber(ScalarKind::Bytes, bytes.data() + component);
    const std::size_t width = std::size_t(type.width);
    const std::size_t offset =
        (component / width) * type.size() + (component % width) * scalarSize(type.scalar);
    return decodeNumber(type.scalar, bytes.data() + offset);
}

std::vector<Number> BufferData::numbers() const
{
    std::vector<Number> out;
    // A short byte vector (never made by a run) gives the components it holds rather than reading past it.
    const std::size_t elements = type.size() ? std::min(count, bytes.size() / type.size()) : 0;
    const std::size_t n = elements * (type.isRaw() ? type.rawSize : std::size_t(type.width));
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(number(i));
    return out;
}

std::vector<double> BufferData::toDoubles() const
{
    std::vector<double> out;
    for (const Number &n : numbers())
        out.push_back(toDouble(n));
    return out;
}

} // namespace clscope
