// Struct types of a program, the way pyopencl's match_dtype_to_c_struct finds them: the declarations are
// read from the source (typedef'd or tagged, nested, arrays, vector members, packed and aligned
// attributes). The reader keeps names and types only: a layout is never guessed on the host.
#pragma once

#include "clscope/build.h"

#include <map>
#include <memory>
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

} // namespace clscope
