// Inside the debugger plugin: values read from Oclgrind's memories by their debug types (debugtypes.cpp),
// shared with the variables, __local arrays and paths of debugvalues.cpp. A Place is where a value's bytes
// are; a Reader reads them without Oclgrind's load callbacks; Values turns a place into a value document by
// its debug type, and walks into fields, elements and pointer targets.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class DICompositeType;
class DIDerivedType;
class DIType;
class Type;
} // namespace llvm

namespace oclgrind {
class Context;
class Memory;
class WorkItem;
struct Image;
} // namespace oclgrind

namespace clscope::debugplugin {

using json = nlohmann::json;

// Bytes somewhere: in one of Oclgrind's memories, or held apart (a constant of llvm.dbg.value).
struct Place
{
    const llvm::DIType *type = nullptr;
    llvm::Type *ir = nullptr; // the same bytes' LLVM type when known: what tells a pointer's address space
    unsigned space = 0;       // Oclgrind's address space: private 0, global 1, constant 2, local 3
    std::size_t address = 0;
    std::vector<unsigned char> held; // non-empty: the bytes themselves
};

struct Reader
{
    const oclgrind::Context *context;
    const oclgrind::WorkItem *item;
    const llvm::DataLayout *layout;

    oclgrind::Memory *memoryOf(unsigned space) const;
    // Size bytes at offset of the place, or nothing when they are not all valid memory.
    std::optional<std::vector<unsigned char>> read(const Place &place, std::size_t offset,
                                                   std::size_t size) const;
};

struct Scalar
{
    std::string text;
    std::optional<double> number;
};

// Typedefs and qualifiers away: the type that says how the bytes read.
const llvm::DIType *underlying(const llvm::DIType *type);
std::uint64_t sizeOf(const llvm::DIType *type);
// As the source writes it: "float4", "struct Params", "const float *", "float[4][4]".
std::string typeName(const llvm::DIType *type, int guard = 0);

class Values
{
public:
    explicit Values(const Reader &reader)
        : m_reader(reader)
    {}

    // A node: {"name", "type", "value", "children"?, "elements"?} or {"name", "type", "error"}.
    json node(const std::string &name, const Place &place, int depth) const;

    // The address of a pointer held at place, and where it points.
    std::optional<Place> pointee(const Place &place, std::string &why) const;

    // The element i of an array or vector at place.
    std::optional<Place> element(const Place &place, std::uint64_t i, std::string &why) const;

    std::optional<Place> member(const Place &place, const std::string &field, std::string &why) const;

    std::optional<Scalar> scalar(const Place &place) const;

private:
    Place memberPlace(const Place &place, const llvm::DIDerivedType *m) const;

    void describe(json &out, const std::string &name, const Place &place, int depth) const;

    // Row i of a multi-dimensional array, itself an array of the remaining dimensions.
    json subArrayNode(const std::string &name, const Place &place, const llvm::DICompositeType *array,
                      const std::vector<std::uint64_t> &dims, std::uint64_t i, int depth) const;

    const Reader &m_reader;
};

} // namespace clscope::debugplugin
