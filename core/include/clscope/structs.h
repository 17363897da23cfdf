// Struct types of a program, the way pyopencl's match_dtype_to_c_struct finds them: the declarations are
// read from the source (typedef'd or tagged, nested, arrays, vector members, packed and aligned
// attributes), but their layout (size, alignment, each field's offset and size) is asked of the device
// with a probe kernel appended to the program's own source, and kept with the build. Nothing about a
// layout is guessed on the host. Struct values are written `x=1,v=(1,2,3,4),inner={a=3}` and encoded into
// (and decoded from) those layouts.
#pragma once

#include "clscope/build.h"
#include "clscope/kernelargs.h"

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

// ---- Declarations, from the source ------------------------------------------------------------------

struct StructDecl;

struct FieldDecl
{
    std::string name; // empty: an anonymous struct or union member, whose fields belong to the parent
    std::string type; // as written, macros expanded: "float", "unsigned int", "THREE_VECTOR", "struct inner"
    std::shared_ptr<const StructDecl> inlineType; // a struct or union defined in the field's declaration
    bool pointer = false;
    std::vector<std::string> dims; // array dimensions as written ("4", "N"); the device gives their values
    int line = 0;
};

struct StructDecl
{
    // Every name the program has for the type: the tag as "struct Tag" ("union Tag") and each typedef name.
    // Empty for a struct defined inside another one without a tag.
    std::vector<std::string> names;
    bool isUnion = false;
    std::vector<std::string> attributes; // as written: "packed", "aligned(16)"; the device applies them
    std::vector<FieldDecl> fields;
    std::string file; // "" for the main source, else the header's path
    int line = 0;

    // The name the probe uses in C: the first typedef name, else the tag ("struct Tag"); "" when none.
    std::string cName() const;
};

// What the source declares: structs and unions, typedefs of other types, and what the reader could not
// follow (function-like macros, conditions it could not decide), for messages.
struct SourceTypes
{
    std::vector<std::shared_ptr<const StructDecl>> structs; // with a name, in source order
    std::map<std::string, std::string> aliases;             // typedef name -> type: "dim_t" -> "long"
    std::vector<std::string> notes;

    // By any of its names, following typedefs ("P" for `typedef struct Particle P;`); null when unknown.
    const StructDecl *find(std::string_view name) const;
    // A typedef followed to what it finally names: "dim_t" -> "long", "P" -> "struct Particle".
    std::string resolve(std::string_view name) const;
    // "THREE_VECTOR, FOUR_VECTOR, struct Tagged" (each struct once, by its C name); "none" when empty.
    std::string structNames() const;
};

// Reads the declarations of a program: comments dropped, object-like macros expanded, #include followed
// into `headers` (found by their spelling), #if/#ifdef/#ifndef decided with the macros of the source and
// of `defines` ("NAME" or "NAME=VALUE", from -D options; unknown names are 0, as in the preprocessor).
// Struct definitions inside functions are not read. Never throws for source it cannot understand: it
// skips to the next declaration and says so in notes.
SourceTypes parseSourceTypes(std::string_view source, const std::vector<IncludedFile> &headers = {},
                             const std::vector<std::string> &defines = {});

// The -D definitions of build options ("-D N=4", "-DN=4", "-D", "FOO"): "N=4", "FOO".
std::vector<std::string> optionDefines(std::string_view options);

// ---- Layouts, from the device -----------------------------------------------------------------------

struct StructLayout;

struct FieldLayout
{
    std::string name;
    std::string type;                           // as declared: "float", "THREE_VECTOR", "struct inner"
    std::optional<ElementType> element;         // numbers, vectors, complex; bytesN when opaque
    std::shared_ptr<const StructLayout> nested; // a struct or union
    std::vector<std::size_t> dims;              // array dimensions, outermost first; empty: no array
    std::size_t offset = 0;                     // from the start of the enclosing struct
    std::size_t size = 0;                       // the whole field: every element of an array
    std::string opaque; // why the field is raw bytes ("a pointer", "type size_t"); empty otherwise

    std::size_t elements() const; // the product of dims, 1 without
    std::size_t elementSize() const { return elements() ? size / elements() : 0; }
    // "float", "float4[2]", "struct inner", "long[4]"
    std::string declaration() const;
};

struct StructLayout
{
    std::string name; // as the program names it: "Particle", "struct Tagged"; "" for an inner anonymous one
    bool isUnion = false;
    std::size_t size = 0;      // sizeof
    std::size_t alignment = 0; // __alignof__
    std::vector<FieldLayout> fields;

    const FieldLayout *field(std::string_view name) const;
    std::string fieldNames() const; // "x, y, v, inner"; "none" when there are none
    std::string label() const;      // "struct Particle" style for messages: "Particle", "struct Tagged"
};

// What a run needs of the types the device sees: struct layouts, typedefs of numbers, the size of every
// other type name that was asked. Made by probeTypes; empty for programs whose arguments are all numbers.
struct TypeTable
{
    std::map<std::string, std::shared_ptr<const StructLayout>> structs; // by every name of the type
    std::map<std::string, ElementType>
        aliases; // typedefs of numbers and vectors, sizes checked: "dim_t" -> long
    std::map<std::string, std::size_t> sizes; // sizeof of every type name asked
    std::string knownStructs;                 // for messages: "THREE_VECTOR, box_str"
    std::string unavailable; // why the device could not be asked (the probe did not build); empty: it was

    std::shared_ptr<const StructLayout> findStruct(std::string_view name) const;
    std::optional<std::size_t> sizeOf(std::string_view name) const;
};

// The kernel appended to the source to ask the layouts of `names` (structs, typedefs, any type name);
// `count` gets the number of 64-bit values it writes. For tests and for the curious: probeTypes makes it.
std::string layoutProbeKernel(const SourceTypes &types, const std::vector<std::string> &names,
                              std::size_t *count = nullptr);
// Where the answer to that kernel is kept in the binary cache, next to the program's binary.
CacheKey layoutCacheKey(const CacheKey &program, std::string_view probeKernel);
// The declarations probeTypes reads for a build on a device: the build's text and headers, the -D of its
// options and the device's __OPENCL_VERSION__ and __OPENCL_C_VERSION__.
SourceTypes buildSourceTypes(const BuildResult &build, cl_device_id device);

// The layouts of `names` (and of every struct they contain) on `device`, one of the build's. Asked once
// per build and device: the answer is kept with the build (every copy of the BuildResult shares it) and,
// when the build went through the binary cache, in the cache next to the program's binary. The first
// probe asks for every struct of the program at once; when that probe does not build (a struct the
// compiler never sees, inside an #if the reader decided otherwise), only `names` are asked. Throws
// RunInputError for a name that is not a type of the program, ClError when the probe fails on the device
// (the message has the compiler's first error); runKernel turns that into a table whose `unavailable`
// says why, so that bytesN values still run.
TypeTable probeTypes(const BuildResult &build, cl_device_id device, const std::vector<std::string> &names);

// The type names of a kernel's arguments that are not numbers or vectors CLScope knows, without the
// pointer: "THREE_VECTOR", "struct Tagged", "dim_t". What runKernel asks probeTypes for.
std::vector<std::string> unknownArgumentTypes(const KernelInfo &kernel);

// ---- Values -----------------------------------------------------------------------------------------

// A value written for a struct, a field or an array element: `1`, `(1,2,3)`, `{x=1,v=(1,2)}`.
struct ValueTree
{
    enum class Kind { Atom, List, Record };
    Kind kind = Kind::Record;
    std::string text;             // Atom: the number (or hex bytes) as written
    std::string name;             // the field, for an item of a Record
    std::vector<ValueTree> items; // List: the elements; Record: the fields, each with its name

    bool operator==(const ValueTree &) const = default;
};

// "x=1,y=(1,2),inner={a=3}" or "{x=1,...}": a record. Throws RunInputError naming `what` on unbalanced
// brackets, a field without '=', a field given twice.
ValueTree parseStructValue(std::string_view text, std::string_view what);
std::string toString(const ValueTree &value); // the written form: "x=1,v=(1,2),inner={a=3}" for a record

// The bytes of a struct value (layout.size of them). Missing fields are zero; an unknown field is an
// error that lists the struct's fields; a value is checked against its field's type ("p.inner.a: 300 is
// out of range for uchar (0..255)"). Throws RunInputError naming `what` and the field.
std::vector<unsigned char> encodeStruct(const StructLayout &layout, const ValueTree &value,
                                        std::string_view what);
// The value at bytes in the written form: "{x=1, y=2.5, v=(1,2,3,4), inner={a=3}}".
std::string formatStruct(const StructLayout &layout, const unsigned char *bytes);

} // namespace clscope
