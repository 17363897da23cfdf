// Buffer initialisers: zeros, fill, iota, seeded random and file contents (raw or .npy), made on the host
// in the buffer's stored layout. Copies are device commands and live in the runner.
#include "clscope/kernelargs.h"
#include "clscope/npy.h"
#include "clscope/structs.h"

#include "runinternal.h"

#include "clscope/checkedmath.h"
#include "clscope/fileio.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

namespace clscope {
namespace {

using detail::argMessage;

[[noreturn]] void fail(const BoundArg &arg, const std::string &message)
{
    throw RunInputError(argMessage(arg.name, message), arg.name);
}

// Raw elements are handled as bytes: one component per byte.
ScalarKind componentKind(const ElementType &type)
{
    return type.isRaw() ? ScalarKind::Bytes : type.scalar;
}

std::size_t componentsPerElement(const ElementType &type)
{
    return type.isRaw() ? type.rawSize : std::size_t(type.width);
}

// Where logical component k (3-vectors skip their padding) is stored.
std::size_t componentOffset(const ElementType &type, std::size_t k)
{
    if (type.isRaw())
        return k;
    const std::size_t width = std::size_t(type.width);
    return (k / width) * type.size() + (k % width) * scalarSize(type.scalar);
}

// Stores a double without a range check (the caller checked the range once for all components).
void storeFloating(ScalarKind kind, double value, unsigned char *dest)
{
    if (kind == ScalarKind::Double) {
        std::memcpy(dest, &value, sizeof value);
    } else if (kind == ScalarKind::Float) {
        const float f = float(value);
        std::memcpy(dest, &f, sizeof f);
    } else {
        const std::uint16_t h = floatToHalf(float(value));
        std::memcpy(dest, &h, sizeof h);
    }
}

// Stores the low bytes of a two's complement value: integer iota wraps as it would in the kernel.
void storeBits(ScalarKind kind, std::uint64_t bits, unsigned char *dest)
{
    std::memcpy(dest, &bits, scalarSize(kind)); // little-endian hosts, as OpenCL devices
}

std::uint64_t toBits(const Number &n)
{
    if (const auto *i = std::get_if<std::int64_t>(&n))
        return std::uint64_t(*i);
    if (const auto *u = std::get_if<std::uint64_t>(&n))
        return *u;
    return std::uint64_t(std::int64_t(std::get<double>(n)));
}

struct Iota
{
    Number start;
    Number step;
};

Iota parseIota(const BoundArg &arg)
{
    const ScalarKind kind = componentKind(arg.type);
    const std::string start = arg.init.start.empty() ? std::string("0") : arg.init.start;
    const std::string step = arg.init.step.empty() ? std::string("1") : arg.init.step;
    Iota iota{parseNumber(start, kind, arg.name), 0.0};
    if (isFloating(kind)) {
        iota.step = parseNumber(step, kind, arg.name);
    } else {
        // Integer steps may go down even for unsigned types (iota=100:-1); anything in 64 bits is taken.
        const bool negative = step.find('-') != std::string::npos;
        iota.step = parseNumber(step, negative ? ScalarKind::Long : ScalarKind::ULong, arg.name);
    }
    return iota;
}

struct RandomRange
{
    Number low;
    Number high;
};

RandomRange parseRandom(const BoundArg &arg)
{
    const ScalarKind kind = componentKind(arg.type);
    const bool defaults = arg.init.low.empty() && arg.init.high.empty();
    if (defaults) {
        if (isFloating(kind))
            return {0.0, 1.0};
        if (kind == ScalarKind::Bytes)
            return {std::uint64_t(0), std::uint64_t(255)};
        return {isSignedInteger(kind) ? Number(std::int64_t(0)) : Number(std::uint64_t(0)),
                isSignedInteger(kind) ? Number(std::int64_t(99)) : Number(std::uint64_t(99))};
    }
    RandomRange r{parseNumber(arg.init.low, kind, arg.name), parseNumber(arg.init.high, kind, arg.name)};
    bool ordered = true;
    if (isFloating(kind))
        ordered = toDouble(r.low) <= toDouble(r.high);
    else if (isSignedInteger(kind))
        ordered = std::get<std::int64_t>(r.low) <= std::get<std::int64_t>(r.high);
    else
        ordered = std::get<std::uint64_t>(r.low) <= std::get<std::uint64_t>(r.high);
    if (!ordered)
        fail(arg, "random range " + arg.init.low + ":" + arg.init.high + " is empty (LO must not exceed HI)");
    return r;
}

// One element of a Zeros or Fill initialiser: a single value for every component, or a whole element.
std::vector<unsigned char> fillElement(const BoundArg &arg)
{
    std::vector<unsigned char> element(arg.type.size(), 0);
    if (arg.init.kind != InitKind::Fill)
        return element;
    if (arg.layout) {
        try {
            return encodeStruct(*arg.layout, parseStructValue(arg.init.fill, arg.name), arg.name);
        } catch (const RunInputError &e) {
            throw RunInputError(e.what(), arg.name);
        }
    }
    // A complex fill is one number: 1+2j, 3 (real), or RE,IM.
    if (arg.type.complex)
        return parseValue(arg.init.fill, arg.type, arg.name);
    if (!arg.type.isRaw() && arg.init.fill.find(',') != std::string::npos)
        return parseValue(arg.init.fill, arg.type, arg.name);
    const ScalarKind kind = componentKind(arg.type);
    const Number value = parseNumber(arg.init.fill, kind, arg.name);
    for (std::size_t k = 0; k < componentsPerElement(arg.type); ++k)
        encodeNumber(value, kind, element.data() + componentOffset(arg.type, k), arg.name);
    return element;
}

// A .npy header is at most 4 GiB in format 2 and below 64 KiB in practice; a larger file is refused
// before it is read (an 8 GB file for a 64-byte buffer was read whole, then compared).
constexpr std::uint64_t kNpyHeaderAllowance = 1 << 20;

std::string sizeMismatch(const BoundArg &arg, std::uint64_t size)
{
    return "file '" + arg.init.path + "' has " + std::to_string(size) + " bytes, the buffer needs " +
           std::to_string(arg.bufferBytes()) + " (" + std::to_string(arg.count) + " " + arg.type.name() + ")";
}

std::vector<unsigned char> fileContents(const BoundArg &arg)
{
    std::string text;
    bool npy = std::filesystem::path(arg.init.path).extension() == ".npy";
    try {
        RegularFile file(arg.init.path);
        const std::uint64_t limit =
            checkedAdd<std::uint64_t>(arg.bufferBytes(), kNpyHeaderAllowance).value_or(UINT64_MAX);
        if (file.size() > limit)
            fail(arg, sizeMismatch(arg, file.size()));
        text = file.readAll(limit);
    } catch (const FileError &e) {
        fail(arg, e.what());
    }
    std::vector<unsigned char> bytes(text.begin(), text.end());
    text = std::string();
    static constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    npy = npy || (bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0);
    if (npy) {
        try {
            const NpyArray array =
                parseNpy(std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
            if (arg.layout)
                return fromNpyStructs(array, *arg.layout, arg.count);
            return fromNpy(array, arg.type, arg.count);
        } catch (const NpyError &e) {
            fail(arg, arg.init.path + ": " + e.what());
        }
    }
    if (bytes.size() != arg.bufferBytes())
        fail(arg, sizeMismatch(arg, bytes.size()));
    return bytes;
}

} // namespace

namespace detail {

void checkInitialiser(const BoundArg &arg)
{
    const ScalarKind kind = componentKind(arg.type);
    switch (arg.init.kind) {
    case InitKind::Zeros:
    case InitKind::Copy: // checked with the other arguments in bindArguments
        break;
    case InitKind::Fill:
        fillElement(arg);
        break;
    case InitKind::Iota: {
        const Iota iota = parseIota(arg);
        if (isFloating(kind)) {
            // The values only grow away from start, so the last one decides the range.
            const auto components = checkedMul<std::size_t>(arg.count, componentsPerElement(arg.type));
            if (!components)
                fail(arg, "buffer of " + std::to_string(arg.count) + " " + arg.type.name() + " is too large");
            const double last = toDouble(iota.start) + double(*components - 1) * toDouble(iota.step);
            unsigned char scratch[8];
            encodeNumber(last, kind, scratch, arg.name);
        }
        break;
    }
    case InitKind::Random:
        parseRandom(arg);
        break;
    case InitKind::File: {
        if (const std::string problem = initFileProblem(arg.init.path); !problem.empty())
            fail(arg, problem);
        break;
    }
    }
}

std::string initFileProblem(const std::string &path)
{
    const std::string problem = regularFileProblem(path);
    if (problem.empty())
        return {};
    if (problem == "no such file")
        return "file '" + path + "' not found";
    if (problem.starts_with("not a regular file"))
        return "'" + path + "' is " + problem;
    return "file '" + path + "': " + problem;
}

} // namespace detail

std::vector<unsigned char> initialContents(const BoundArg &arg)
{
    const auto checkedTotal = checkedMul<std::size_t>(arg.count, arg.type.size());
    if (!checkedTotal)
        fail(arg, "buffer of " + std::to_string(arg.count) + " " + arg.type.name() + " is too large");
    const std::size_t total = *checkedTotal;
    const ScalarKind kind = componentKind(arg.type);
    // No more components than bytes, so this product fits when the one above does.
    const std::size_t components = arg.count * componentsPerElement(arg.type);
    std::vector<unsigned char> bytes;
    switch (arg.init.kind) {
    case InitKind::Zeros:
    case InitKind::Copy: // made on the device; zeros until then
        bytes.assign(total, 0);
        break;
    case InitKind::Fill: {
        const std::vector<unsigned char> element = fillElement(arg);
        bytes.resize(total);
        for (std::size_t i = 0; i < arg.count; ++i)
            std::memcpy(bytes.data() + i * element.size(), element.data(), element.size());
        break;
    }
    case InitKind::Iota: {
        detail::checkInitialiser(arg);
        const Iota iota = parseIota(arg);
        bytes.assign(total, 0);
        if (isFloating(kind)) {
            const double start = toDouble(iota.start), step = toDouble(iota.step);
            for (std::size_t k = 0; k < components; ++k)
                storeFloating(kind, start + double(k) * step, bytes.data() + componentOffset(arg.type, k));
        } else {
            const std::uint64_t start = toBits(iota.start), step = toBits(iota.step);
            for (std::size_t k = 0; k < components; ++k)
                storeBits(kind, start + std::uint64_t(k) * step, bytes.data() + componentOffset(arg.type, k));
        }
        break;
    }
    case InitKind::Random: {
        // std::mt19937_64's output is fixed by the standard; the mapping to the range is ours, so the same
        // seed gives the same contents with every standard library.
        const RandomRange range = parseRandom(arg);
        std::mt19937_64 engine(arg.init.seed);
        bytes.assign(total, 0);
        if (isFloating(kind)) {
            const double low = toDouble(range.low), high = toDouble(range.high);
            for (std::size_t k = 0; k < components; ++k) {
                const double unit = double(engine() >> 11) * 0x1p-53; // [0, 1)
                double v = low + unit * (high - low);
                if (v >= high && high > low) // rounding must not reach the excluded end
                    v = std::nextafter(high, low);
                if (kind == ScalarKind::Float && float(v) >= float(high) && high > low)
                    v = double(std::nextafter(float(high), float(low)));
                storeFloating(kind, v, bytes.data() + componentOffset(arg.type, k));
            }
        } else {
            const std::uint64_t low = toBits(range.low);
            // high - low + 1 values; 0 means all 2^64 of them.
            const std::uint64_t span = toBits(range.high) - low + 1;
            for (std::size_t k = 0; k < components; ++k) {
                const std::uint64_t r = engine();
                storeBits(kind, low + (span ? r % span : r), bytes.data() + componentOffset(arg.type, k));
            }
        }
        break;
    }
    case InitKind::File:
        bytes = fileContents(arg);
        break;
    }
    return bytes;
}

std::optional<std::vector<unsigned char>> fillPattern(const BoundArg &arg)
{
    if (arg.init.kind != InitKind::Zeros && arg.init.kind != InitKind::Fill)
        return std::nullopt;
    const std::size_t size = arg.type.size();
    // clEnqueueFillBuffer takes patterns of 1, 2, 4, ..., 128 bytes.
    if (size == 0 || size > 128 || (size & (size - 1)) != 0)
        return std::nullopt;
    return fillElement(arg);
}

} // namespace clscope
