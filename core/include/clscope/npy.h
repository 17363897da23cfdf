// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian numeric and complex dtypes and
// structured dtypes (records of named fields, as numpy writes them in the list form) in C order, read for
// `file=` buffer initialisers and written for the GUI's save-as-.npy.
#pragma once

#include "clscope/kernelargs.h"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// A file that is not .npy, or one this reader does not take (Fortran order, big-endian dtypes, a truncated
// body), or one that cannot be written. The message says which. A Failure: runs turn a bad initialiser file
// into a RunInputError.
class NpyError : public Error
{
public:
    explicit NpyError(const std::string &message)
        : Error(message)
    {}
};

// One field of a structured dtype, as numpy lists it: ('x', '<f4'), ('v', '<f4', (4,)),
// ('inner', [...]), ('', '|V4') for padding.
struct NpyField
{
    std::string name;                     // "" for padding
    ScalarKind dtype = ScalarKind::UChar; // a number (not for nested fields or void bytes)
    bool complex = false;                 // '<c8', '<c16'
    std::vector<NpyField> fields;         // a nested structured dtype
    std::size_t voidSize = 0;             // '|VN': N opaque bytes
    std::vector<std::size_t> shape;       // a subarray: ('m', '<i8', (2, 3))
    std::size_t offset = 0;               // from the start of the record

    std::size_t elementSize() const; // one element of the subarray
    std::size_t elements() const;    // the product of shape
    std::size_t size() const { return elementSize() * elements(); }
    bool operator==(const NpyField &) const = default;
};

struct NpyArray
{
    ScalarKind dtype = ScalarKind::Float; // never Bytes
    std::vector<std::size_t> shape;       // () is a scalar: one value
    std::vector<unsigned char> data;      // C order, little-endian
    bool complex = false;                 // complex64 ('<c8', dtype Float), complex128 ('<c16', Double)
    std::vector<NpyField> fields = {};    // a structured dtype: each value is a record of recordSize bytes
    std::size_t recordSize = 0;

    std::size_t valueCount() const; // the product of the shape
    std::size_t valueSize() const;  // bytes per value: the dtype's (twice for complex), or recordSize
    std::string descr() const;      // "'<f4'", "'<c8'", "[('x', '<f4'), ('', '|V4')]" as the header has it
    bool operator==(const NpyArray &) const = default;
};

// '<f4' for Float, '|u1' for UChar, '<f2' for Half; nothing for Bytes.
std::optional<std::string> npyDescr(ScalarKind kind);
// '<f4', '|i1', '<u8', '=i4' ('=' and '|' mean native, little-endian here); nothing for anything else.
std::optional<ScalarKind> scalarFromDescr(std::string_view descr);

// Throws NpyError.
NpyArray parseNpy(std::string_view bytes);
NpyArray readNpyFile(const std::string &path);
// '<c8' for a complex Float, '<c16' for a complex Double, else npyDescr(kind).
std::optional<std::string> npyDescr(ScalarKind kind, bool complex);

// Version 1.0 unless the header needs more than 65535 bytes (then 2.0), padded so that the data starts
// at a multiple of 64 bytes, as NumPy writes it. Throws NpyError when data and shape disagree.
std::string encodeNpy(const NpyArray &array);
// Throws NpyError when the file cannot be written.
void writeNpyFile(const std::string &path, const NpyArray &array);

// A buffer as an array: shape (count) for scalars and complex numbers, (count, width) for vectors
// (3-vectors without their padding), (count, size) of uint8 for raw bytes, and a structured dtype with the
// device's offsets for a buffer of structs (a vector field is a subarray, float3 (3,) with its padding
// after it, an array of float3 (N, 4); pointers, unions and opaque fields are void bytes).
NpyArray toNpy(const BufferData &buffer);
// The stored bytes of `count` elements of `type` from an array: the dtype must be the type's scalar (any
// dtype for raw bytes, whose size must then match) and the shape must hold count * width values (3-vectors
// are padded back to 4). Throws NpyError saying what differs: "dtype <f8 does not match float (<f4)".
std::vector<unsigned char> fromNpy(const NpyArray &array, const ElementType &type, std::size_t count);
// The bytes of `count` structs laid out as the device has them, from a structured array: its fields are
// matched by name (nested ones too) and each one's dtype and shape checked against the field it fills;
// fields the file lacks are zero, a field the struct lacks is an error naming the struct's fields.
// A plain uint8 array of exactly the buffer's bytes is taken as it is. Throws NpyError.
std::vector<unsigned char> fromNpyStructs(const NpyArray &array, const StructLayout &layout,
                                          std::size_t count);

} // namespace clscope
