// The elements of a read-back buffer as text: a typed component in decimal, hex (its stored bits) or
// scientific notation, and the columns and fields of a buffer of structs. No Qt model here: the table
// model, the picture's pixel descriptions and the CSV export all format through these.
#pragma once

#include "clscope/kernelargs.h"

#include <QString>

#include <vector>

namespace clscope::ui {

enum class NumberFormat { Decimal, Hex, Scientific };

// One column of a buffer of structs: a field, a vector component ("v.x"), an array element ("a[2]"), a
// field of a nested struct ("inner.a"); opaque fields (pointers, types CLScope does not read) as bytes.
struct FieldColumn
{
    QString header;
    std::size_t offset = 0; // from the start of the struct
    std::size_t size = 0;   // bytes the column shows
    ScalarKind scalar = ScalarKind::Bytes;
    bool complex = false; // cfloat_t, cdouble_t: real and imaginary part in one column
};

// The columns of a struct, in field order; arrays show their first 16 elements one per column and the
// rest as bytes in one column.
std::vector<FieldColumn> fieldColumns(const StructLayout &layout);

// Stored bits of one component as hex digits, as wide as the type: float 1.0 -> "0x3f800000", a double
// 16 digits, a half 4, int -1 -> "0xffffffff".
QString hexBits(const BufferData &buffer, std::size_t component);

// One component (3-vectors take 4 slots, as BufferData::number reads it) in `format`.
QString formatComponent(const BufferData &buffer, std::size_t component, NumberFormat format);

// One field of one struct element in `format`; opaque bytes (and Hex) as hex digits. Empty past the end.
QString formatField(const BufferData &buffer, std::size_t element, const FieldColumn &field,
                    NumberFormat format);

// "x".."w" for up to 4 components, else "s0".."sf", as OpenCL C names vector components.
QString componentName(int component, int width);

} // namespace clscope::ui
