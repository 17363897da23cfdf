// The argument model of a kernel run, after pyopencl's parse_arg_list: element types (every OpenCL
// scalar, vectors of 2, 3, 4, 8 and 16, pyopencl's complex types, raw bytes), structs by value and in
// buffers (their layouts come from the device: structs.h), values parsed and range-checked per type,
// buffer initialisers, the `--arg` spec forms of `clscope-cli run`, and the binding of given values to a
// kernel's arguments. Everything here is pure (no OpenCL calls), so a GUI can validate as the user types.
#pragma once

#include "clscope/build.h"
#include "clscope/checkedmath.h"
#include "clscope/error.h"
#include "clscope/images.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace clscope {

struct StructLayout; // structs.h
struct TypeTable;    // structs.h

// Input a run cannot use: a bad value, a missing or unknown argument, a launch size over a device limit,
// an initialiser file that does not fit. The message names the argument (or the kernel, or the limit);
// argument() is the argument's name when one is at fault. An Input error.
class RunInputError : public Error
{
public:
    explicit RunInputError(const std::string &message, std::string argument = {});
    const std::string &argument() const { return m_argument; }

private:
    std::string m_argument;
};

// ---- Element types ----------------------------------------------------------------------------------

// Bytes: a struct or a type the table does not know, stored as raw bytes of a given size.
enum class ScalarKind : std::uint8_t {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
    Bytes
};

std::string_view scalarName(ScalarKind kind); // "uchar", "half"; "bytes" for Bytes
std::size_t scalarSize(ScalarKind kind);      // 1 for Bytes (one component is one byte)
bool isSignedInteger(ScalarKind kind);
bool isUnsignedInteger(ScalarKind kind); // Bytes counts as unsigned: its components are bytes
bool isFloating(ScalarKind kind);        // half, float, double

struct ElementType
{
    ScalarKind scalar = ScalarKind::Float;
    int width = 1;           // components: 1, 2, 3, 4, 8 or 16 (Bytes: the byte count)
    std::size_t rawSize = 0; // Bytes only: bytes per element
    // pyopencl-complex.h's cfloat_t (float, width 2) and cdouble_t (double, width 2): stored as real and
    // imaginary part, read and written as 1+2j (or RE,IM), complex64 and complex128 in .npy files.
    bool complex = false;

    static ElementType bytes(std::size_t size) { return {ScalarKind::Bytes, int(size), size}; }
    static ElementType complexOf(ScalarKind real) { return {real, 2, 0, true}; }
    bool isRaw() const { return scalar == ScalarKind::Bytes; }
    // OpenCL stores a 3-vector as a 4-vector: float3 takes 16 bytes, its 4th component is padding.
    int storedWidth() const { return width == 3 ? 4 : width; }
    std::size_t size() const; // bytes per element as stored
    std::string name() const; // "float4", "uint", "bytes12", "cfloat_t"

    bool operator==(const ElementType &) const = default;
};

// Equal, or the same bytes under two names: pyopencl-complex.h's cfloat_t is a typedef of float2 (cdouble_t
// of double2), so an argument of one takes a value or buffer of the other.
bool interchangeable(const ElementType &a, const ElementType &b);

// "float", "uint4", "uchar16", "double3", "unsigned int", "bytes12", "cfloat_t", "cdouble_t". Nothing for
// anything else (a struct name, "size_t", an image type).
std::optional<ElementType> parseElementType(std::string_view name);

// The type names a user can write, for error messages: "char, uchar, short, ..., double (with 2, 3, 4,
// 8, 16 for vectors), bytesN".
std::string elementTypeNames();

// ---- Values -----------------------------------------------------------------------------------------

// One component as typed: integers stay exact over the whole 64-bit range. parseNumber gives
// std::int64_t for signed kinds, std::uint64_t for unsigned kinds and bytes, double for floating kinds.
using Number = std::variant<std::int64_t, std::uint64_t, double>;

// Parses one component for a scalar kind: decimal, hex (0x1F, -0x10 where signed), hex-float (0x1.8p1),
// inf and nan for floating types. Integer ranges are checked per type. Throws RunInputError with `what`
// in front: "n: 300 is out of range for uchar (0..255)".
Number parseNumber(std::string_view text, ScalarKind kind, std::string_view what);

// Parses a value of an element type into its stored bytes (little-endian as the host, 3-vectors padded
// with a zero 4th component): a comma list with exactly `width` components (3 for a 3-vector). Bytes
// types take hex digits, two per byte ("0a0b0c0d"). Complex types take RE,IM, a complex literal (1+2j,
// -0.5j, 3) or (1+2j). Throws RunInputError naming `what`.
std::vector<unsigned char> parseValue(std::string_view text, const ElementType &type, std::string_view what);

// Stores one component (range-checked: throws RunInputError naming `what`) at dest.
void encodeNumber(const Number &value, ScalarKind kind, unsigned char *dest, std::string_view what);
// Reads one component stored at src.
Number decodeNumber(ScalarKind kind, const unsigned char *src);
double toDouble(const Number &value);
// Integers exactly, floats in the shortest form that reads back the same (as float for float and half).
std::string formatNumber(const Number &value, ScalarKind kind);
// "1+2j", "-0.5-1j", "3+0j": Python's spelling of a complex number, parts as formatNumber writes them.
std::string formatComplex(double real, double imag, ScalarKind kind);

// IEEE 754 binary16 conversions (round to nearest even), for half buffers.
std::uint16_t floatToHalf(float value);
float halfToFloat(std::uint16_t bits);

// ---- Buffers ----------------------------------------------------------------------------------------

enum class InitKind { Zeros, Fill, Iota, Random, File, Copy };
std::string_view initKindName(InitKind kind); // "zeros", "fill", "iota", "random", "file", "copy"

// How a buffer is filled before the launch. Numbers are text, parsed against the buffer's element type
// when the arguments are bound (the type may come from the kernel's signature).
struct BufferInit
{
    InitKind kind = InitKind::Zeros;
    std::string fill;  // Fill: one value for every component, a full element ("1,2,3,4"), a struct ("{x=1}")
    std::string start; // Iota: element i is start + i * step, per component (empty: 0)
    std::string step;  // Iota (empty: 1)
    std::uint64_t seed = 0; // Random: std::mt19937_64 seed; the same seed gives the same contents
    std::string low;        // Random: floats uniform in [low, high), integers in [low, high]
    std::string high;       //   (empty: floats 0 and 1, integers 0 and 99)
    std::string path;       // File: raw bytes (exactly the buffer's size) or .npy (dtype and size checked)
    std::string source;     // Copy: the name of another buffer argument, copied after its own init

    bool operator==(const BufferInit &) const = default;
};

// `zeros`, `fill=V`, `iota`, `iota=START`, `iota=START:STEP`, `random`, `random=SEED`,
// `random=SEED:LO:HI`, `file=PATH`, `copy=NAME`. Throws RunInputError naming `what`.
BufferInit parseBufferInit(std::string_view text, std::string_view what);
std::string toString(const BufferInit &init); // the spec form: "iota=1:2"

// Bytes of a buffer with their element type: what a run reads back, what .npy files hold.
struct BufferData
{
    std::string name;
    ElementType type;
    std::size_t count = 0;            // elements
    std::vector<unsigned char> bytes; // count * type.size()
    // A buffer of structs: type is bytesN of the struct's size, and this says what the bytes hold.
    std::shared_ptr<const StructLayout> layout = nullptr;
    // An image read back: its pixels as imagedata.h's imageElementType (uchar4 for RGBA/UNORM_INT8).
    std::optional<ImageInfo> image = std::nullopt;

    // Components with vectors flattened and the padding of 3-vectors left out (3 per float3 element);
    // raw (Bytes) elements give one component per byte.
    std::size_t componentCount() const;
    Number number(std::size_t component) const;
    double value(std::size_t component) const { return toDouble(number(component)); }
    std::vector<Number> numbers() const;
    std::vector<double> toDoubles() const;
};

// ---- The arguments of a kernel ----------------------------------------------------------------------

// What a kernel argument takes: a value (private scalar or vector), a buffer (__global or __constant
// pointer), a __local size, an image (images.h), a sampler, or nothing (pipes, queues).
enum class ArgKind { Value, Buffer, Local, Image, Sampler, Unsupported };
// "value", "buffer", "local", "image", "sampler", "unsupported"
std::string_view argKindName(ArgKind kind);

struct ArgSlot
{
    int index = 0;
    std::string name;
    ArgKind kind = ArgKind::Value;
    AddressQualifier address = AddressQualifier::Private;
    std::string typeName;            // as the driver spells it: "float4*", "struct Tagged*"
    unsigned typeQualifiers = 0;     // TypeConst, TypeVolatile... (build.h): a const pointee is an input
    std::optional<ElementType> type; // the value's type, or the pointee's; none for structs and void

    // The type name without the pointer: "float4", "struct Tagged", "THREE_VECTOR".
    std::string baseType() const;
    std::string unsupported;       // why, for Unsupported: "pipe arguments are not supported yet"
    std::optional<ImageDim> image; // Image: image2d_t...
    AccessQualifier access = AccessQualifier::None; // Image: read_only, write_only, read_write

    // "__global const float*", "uint", "__local float*": for messages and the GUI (restrict left out).
    std::string declaration() const;
};

// One slot per argument of the kernel. Throws RunInputError when the kernel has no argument info at all
// (neither from the driver nor from the source).
std::vector<ArgSlot> argSlots(const KernelInfo &kernel);

// Which of a kernel's arguments (names in argument order) a name given by the user means: the name itself,
// "#N" (the N-th argument, from 0), or the other spelling of a name PoCL renames (it reports `step`,
// `length`, `min`, `max`... as `_cl_step`...), so that one command line works on every device. Nothing when
// no argument matches.
std::optional<std::size_t> findArgument(const std::vector<std::string> &names, std::string_view given);

// A value for a private argument; without a type, the type comes from the kernel's signature.
struct ScalarArg
{
    std::optional<ElementType> type;
    std::string text; // "1024", "1,2,3,4", "0x1.8p1"
    // The bytes `text` gave for the type `parsedFor`, when whoever made the value has parsed it already (the
    // GUI's Arguments panel does, to check it as the user types): binding takes them instead of parsing
    // the text again, when the argument's type is that one.
    std::optional<ElementType> parsedFor = std::nullopt;
    std::vector<unsigned char> parsed = {};

    bool operator==(const ScalarArg &) const = default;
};

// A struct by value, `p=struct:x=1,v=(1,2,3,4),inner={a=3}`: fields by name, missing ones zero. The text is
// kept as written (structs.h's parseStructValue reads it) and encoded once the layout is known.
struct StructArg
{
    std::string typeName; // `struct:NAME:...`; empty: the argument's type
    std::string text;     // "x=1,v=(1,2,3,4)"

    bool operator==(const StructArg &) const = default;
};

struct BufferArg
{
    std::optional<ElementType> type; // none: the pointee type of the argument (or typeName)
    std::string typeName;            // a struct or typedef of the program: "Particle", "struct Tagged"
    std::size_t count = 0;           // elements
    BufferInit init;

    bool operator==(const BufferArg &) const = default;
};

struct LocalArg
{
    std::size_t bytes = 0;

    bool operator==(const LocalArg &) const = default;
};

struct ArgValue
{
    std::string name;
    std::variant<ScalarArg, BufferArg, LocalArg, StructArg, ImageArg, SamplerArg> value;

    bool operator==(const ArgValue &) const = default;
};

// `NAME=TYPE:VALUE` (n=uint:1024, v=float4:1,2,3,4), `NAME=VALUE` (type from the kernel),
// `NAME=struct:F=V,...` and `NAME=struct:TYPE:F=V,...`, `NAME=buffer:TYPE:COUNT[:INIT]` (TYPE may name a
// struct of the program), `NAME=buffer:COUNT[:INIT]` (type from the kernel), `NAME=local:BYTES`,
// `NAME=image2d:ORDER:TYPE:WxH[:INIT]` (images.h), `NAME=sampler:WORDS`. Throws RunInputError naming the
// argument.
ArgValue parseArgSpec(std::string_view spec);
std::string toString(const ArgValue &arg); // the spec form

// An argument ready to set: the value's bytes, or the buffer's type, count and checked initialiser, or
// the local size.
struct BoundArg
{
    int index = 0;
    std::string name;
    ArgKind kind = ArgKind::Value;
    ElementType type; // Value and Buffer (bytesN of the struct's size for structs)
    std::shared_ptr<const StructLayout> layout = nullptr; // a struct value or a buffer of structs
    std::vector<unsigned char> value;                     // Value: the bytes clSetKernelArg gets
    std::size_t count = 0;                                // Buffer: elements
    BufferInit init;                                      // Buffer
    std::size_t localBytes = 0;                           // Local
    // Image: its type, format, shape (resolved: a file's own when none was given) and initialiser; `type`
    // and `count` are then the host element of its pixels (imagedata.h) and how many.
    ImageArg image;
    AccessQualifier access = AccessQualifier::None; // Image: as the kernel declares it
    SamplerArg sampler;                             // Sampler

    // Saturates instead of wrapping, so that a count no device holds is refused by the size checks.
    std::size_t bufferBytes() const { return checkedMul(count, type.size()).value_or(SIZE_MAX); }
};

// Matches the values to the kernel's arguments, in argument order. Every problem is a RunInputError that
// names the argument: an unknown name (listing the kernel's arguments), a name given twice, a missing
// argument, a value for a pointer or a buffer for a value, a type that differs from the kernel's, a bad
// value or initialiser, a copy of something that is not a buffer of the same size, a copy cycle, an
// initialiser file that does not exist, an unsupported argument (image, sampler, pipe).
// With `types` (the device's answer, structs.h's probeTypes) structs and typedefs of the program are
// known, and a value or buffer element of another size than the argument's is refused naming both
// sizes; without it, a struct argument takes bytesN of any size, unchecked.
std::vector<BoundArg> bindArguments(const KernelInfo &kernel, const std::vector<ArgValue> &values,
                                    const TypeTable *types = nullptr);

// The initial contents of a buffer for every initialiser but Copy (zeros, fill, iota, random, file).
// Throws RunInputError naming the argument when a file cannot be read or does not fit.
std::vector<unsigned char> initialContents(const BoundArg &arg);

// The element pattern a fill command can use for Zeros and Fill (one element), or nothing when the
// initialiser is not a fill (or the element size is not a power of two up to 128, as
// clEnqueueFillBuffer requires).
std::optional<std::vector<unsigned char>> fillPattern(const BoundArg &arg);

} // namespace clscope
