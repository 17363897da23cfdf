// Values by their debug types (debugread.h): scalars, vectors, structs, arrays and pointers read from
// Oclgrind's memories without their load callbacks (a debugger's look is not the kernel's access: no check
// or race report may come of it). Nothing is guessed: what cannot be read says why.
#include "debugread.h"

#include "debugobjects.h"
#include "debugscalars.h"

#include "Context.h"
#include "Memory.h"
#include "WorkGroup.h"
#include "WorkItem.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <stack>
#include <stdexcept>

namespace clscope::debugplugin {
namespace {

constexpr std::uint64_t kMaxChildren = 1024; // elements of an array shown; "elements" says how many it has
constexpr int kMaxDepth = 6;                 // nesting of structs, arrays and pointers followed
constexpr std::size_t kMaxValueBytes = 1 << 20;
constexpr unsigned kNoSpace = 99;

const char *spaceName(unsigned space)
{
    switch (space) {
    case oclgrind::AddrSpacePrivate:
        return "private";
    case oclgrind::AddrSpaceGlobal:
        return "global";
    case oclgrind::AddrSpaceConstant:
        return "constant";
    case oclgrind::AddrSpaceLocal:
        return "local";
    default:
        return "unknown";
    }
}

bool isVector(const llvm::DIType *type)
{
    const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(underlying(type));
    return composite && composite->getTag() == llvm::dwarf::DW_TAG_array_type &&
           (composite->getFlags() & llvm::DINode::FlagVector);
}

// The counts of an array's dimensions; nothing when one is not a constant.
std::optional<std::vector<std::uint64_t>> dimensionsOf(const llvm::DICompositeType *array)
{
    std::vector<std::uint64_t> dims;
    for (const llvm::DINode *element : array->getElements()) {
        const auto *range = llvm::dyn_cast_or_null<llvm::DISubrange>(element);
        if (!range)
            return std::nullopt;
        const auto count = range->getCount();
        const auto *constant = count.dyn_cast<llvm::ConstantInt *>();
        if (!constant || constant->isNegative())
            return std::nullopt;
        dims.push_back(constant->getZExtValue());
    }
    if (dims.empty())
        return std::nullopt;
    return dims;
}

// The LLVM type of a piece of an aggregate at a byte offset, when the aggregate's LLVM type is known.
llvm::Type *memberIr(const llvm::DataLayout &layout, llvm::Type *ir, std::uint64_t offset)
{
    auto *structure = llvm::dyn_cast_or_null<llvm::StructType>(ir);
    if (!structure || structure->isOpaque())
        return nullptr;
    const llvm::StructLayout *sl = layout.getStructLayout(structure);
    if (offset >= sl->getSizeInBytes())
        return nullptr;
    const unsigned index = sl->getElementContainingOffset(offset);
    if (sl->getElementOffset(index) != offset)
        return nullptr;
    return structure->getElementType(index);
}

llvm::Type *elementIr(llvm::Type *ir)
{
    if (auto *array = llvm::dyn_cast_or_null<llvm::ArrayType>(ir))
        return array->getElementType();
    if (auto *vector = llvm::dyn_cast_or_null<llvm::FixedVectorType>(ir))
        return vector->getElementType();
    return nullptr;
}

std::string vectorComponent(std::uint64_t i, std::uint64_t count)
{
    static const char *const xyzw[] = {"x", "y", "z", "w"};
    if (count <= 4)
        return xyzw[i];
    static const char hex[] = "0123456789ABCDEF";
    return std::string("s") + hex[i & 15];
}

} // namespace

// Typedefs and qualifiers away: the type that says how the bytes read.
const llvm::DIType *underlying(const llvm::DIType *type)
{
    for (int guard = 0; type && guard < 32; ++guard) {
        const auto *derived = llvm::dyn_cast<llvm::DIDerivedType>(type);
        if (!derived)
            return type;
        switch (derived->getTag()) {
        case llvm::dwarf::DW_TAG_typedef:
        case llvm::dwarf::DW_TAG_const_type:
        case llvm::dwarf::DW_TAG_volatile_type:
        case llvm::dwarf::DW_TAG_restrict_type:
        case llvm::dwarf::DW_TAG_atomic_type:
            type = derived->getBaseType();
            break;
        default:
            return type;
        }
    }
    return type;
}

std::uint64_t sizeOf(const llvm::DIType *type)
{
    const llvm::DIType *u = underlying(type);
    return u ? u->getSizeInBits() / 8 : 0;
}

std::string typeName(const llvm::DIType *type, int guard)
{
    if (!type)
        return "void";
    if (guard > 16)
        return "?";
    if (!type->getName().empty()) {
        if (const auto *composite = llvm::dyn_cast<llvm::DICompositeType>(type)) {
            if (composite->getTag() == llvm::dwarf::DW_TAG_structure_type)
                return "struct " + type->getName().str();
            if (composite->getTag() == llvm::dwarf::DW_TAG_union_type)
                return "union " + type->getName().str();
            if (composite->getTag() == llvm::dwarf::DW_TAG_enumeration_type)
                return "enum " + type->getName().str();
        }
        return type->getName().str();
    }
    if (const auto *derived = llvm::dyn_cast<llvm::DIDerivedType>(type)) {
        const std::string base = typeName(derived->getBaseType(), guard + 1);
        switch (derived->getTag()) {
        case llvm::dwarf::DW_TAG_pointer_type: {
            // OpenCL's opaque types as the source writes them: read_only image2d_t, sampler_t.
            const llvm::StringRef name = derived->getBaseType() ? derived->getBaseType()->getName() : "";
            if (name.startswith("opencl_image") && name.endswith("_t") && name.size() > 17) {
                const llvm::StringRef access = name.drop_back(2).take_back(2);  // ro, wo, rw
                const std::string kind = name.drop_front(7).drop_back(5).str(); // image2d
                return std::string(access == "ro"   ? "read_only "
                                   : access == "wo" ? "write_only "
                                                    : "read_write ") +
                       kind + "_t";
            }
            if (name == "opencl_sampler_t")
                return "sampler_t";
            return base + " *";
        }
        case llvm::dwarf::DW_TAG_const_type:
            return "const " + base;
        case llvm::dwarf::DW_TAG_volatile_type:
            return "volatile " + base;
        case llvm::dwarf::DW_TAG_restrict_type:
            return base + " restrict";
        default:
            return base;
        }
    }
    if (const auto *composite = llvm::dyn_cast<llvm::DICompositeType>(type)) {
        std::string name = typeName(composite->getBaseType(), guard + 1);
        if (composite->getTag() == llvm::dwarf::DW_TAG_array_type) {
            const auto dims = dimensionsOf(composite);
            if (isVector(type))
                return name + (dims ? std::to_string(dims->front()) : "");
            for (const std::uint64_t d : dims.value_or(std::vector<std::uint64_t>{0}))
                name += "[" + std::to_string(d) + "]";
            return name;
        }
        if (composite->getTag() == llvm::dwarf::DW_TAG_structure_type)
            return "struct (anonymous)";
        if (composite->getTag() == llvm::dwarf::DW_TAG_union_type)
            return "union (anonymous)";
    }
    return "?";
}

oclgrind::Memory *Reader::memoryOf(unsigned space) const
{
    switch (space) {
    case oclgrind::AddrSpacePrivate:
        return item->getPrivateMemory();
    case oclgrind::AddrSpaceLocal:
        return item->getWorkGroup() ? item->getWorkGroup()->getLocalMemory() : nullptr;
    case oclgrind::AddrSpaceGlobal:
    case oclgrind::AddrSpaceConstant:
        return context->getGlobalMemory();
    default:
        return nullptr;
    }
}

// Size bytes at offset of the place, or nothing when they are not all valid memory.
std::optional<std::vector<unsigned char>> Reader::read(const Place &place, std::size_t offset,
                                                       std::size_t size) const
{
    if (size == 0 || size > kMaxValueBytes)
        return std::nullopt;
    if (!place.held.empty()) {
        if (offset + size > place.held.size())
            return std::nullopt;
        return std::vector<unsigned char>(place.held.begin() + long(offset),
                                          place.held.begin() + long(offset + size));
    }
    oclgrind::Memory *memory = memoryOf(place.space);
    if (!memory || !memory->isAddressValid(place.address + offset, size))
        return std::nullopt;
    const auto *data = static_cast<const unsigned char *>(memory->getPointer(place.address + offset));
    if (!data)
        return std::nullopt;
    return std::vector<unsigned char>(data, data + size);
}

json Values::node(const std::string &name, const Place &place, int depth) const
{
    json out = {{"name", name}, {"type", typeName(place.type)}};
    describe(out, name, place, depth);
    return out;
}

std::optional<Place> Values::pointee(const Place &place, std::string &why) const
{
    const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(underlying(place.type));
    if (!derived || derived->getTag() != llvm::dwarf::DW_TAG_pointer_type) {
        why = "not a pointer";
        return std::nullopt;
    }
    const auto bytes = m_reader.read(place, 0, 8);
    if (!bytes) {
        why = "not readable";
        return std::nullopt;
    }
    Place target;
    target.type = derived->getBaseType();
    target.address = loadAs<std::uint64_t>(*bytes);
    auto *pointerIr = llvm::dyn_cast_or_null<llvm::PointerType>(place.ir);
    if (pointerIr) {
        target.space = pointerIr->getAddressSpace();
        if (!pointerIr->isOpaque())
            target.ir = pointerIr->getNonOpaquePointerElementType();
    } else if (const auto space = derived->getDWARFAddressSpace()) {
        target.space = *space;
    } else {
        why = "its address space is not known";
        return std::nullopt;
    }
    if (!target.type) {
        why = "points to void";
        return std::nullopt;
    }
    return target;
}

std::optional<Place> Values::element(const Place &place, std::uint64_t i, std::string &why) const
{
    const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(underlying(place.type));
    if (!composite || composite->getTag() != llvm::dwarf::DW_TAG_array_type) {
        why = "not an array or vector";
        return std::nullopt;
    }
    const auto dims = dimensionsOf(composite);
    if (!dims) {
        why = "its length is not known";
        return std::nullopt;
    }
    if (dims->size() > 1 && !isVector(place.type)) {
        why = "a multi-dimensional array: its rows are shown with the variable";
        return std::nullopt;
    }
    // A vector of 3 is stored as 4; its debug type's size says so.
    const std::uint64_t count = dims->front();
    if (i >= count) {
        why = "index " + std::to_string(i) + " is out of its " + std::to_string(count) + " elements";
        return std::nullopt;
    }
    std::uint64_t inner = 1;
    for (std::size_t d = 1; d < dims->size(); ++d)
        inner *= (*dims)[d];
    const std::uint64_t baseSize = sizeOf(composite->getBaseType());
    if (baseSize == 0) {
        why = "its element size is not known";
        return std::nullopt;
    }
    Place out = place;
    out.address = place.address;
    if (!place.held.empty()) {
        const std::uint64_t start = i * inner * baseSize;
        const std::uint64_t length = inner * baseSize;
        if (start + length > place.held.size()) {
            why = "not readable";
            return std::nullopt;
        }
        out.held.assign(place.held.begin() + long(start), place.held.begin() + long(start + length));
    } else {
        out.address += i * inner * baseSize;
    }
    out.ir = elementIr(place.ir);
    out.type = composite->getBaseType();
    return out;
}

std::optional<Place> Values::member(const Place &place, const std::string &field, std::string &why) const
{
    const llvm::DIType *u = underlying(place.type);
    const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(u);
    if (isVector(place.type)) {
        const auto dims = dimensionsOf(composite);
        const std::uint64_t count = dims ? dims->front() : 0;
        for (std::uint64_t i = 0; i < count; ++i) {
            if (vectorComponent(i, count) == field || (count <= 4 && "s" + std::to_string(i) == field))
                return element(place, i, why);
        }
        why = "a " + typeName(place.type) + " has no component ." + field;
        return std::nullopt;
    }
    if (!composite || (composite->getTag() != llvm::dwarf::DW_TAG_structure_type &&
                       composite->getTag() != llvm::dwarf::DW_TAG_union_type)) {
        why = "not a struct";
        return std::nullopt;
    }
    for (const llvm::DINode *element : composite->getElements()) {
        const auto *m = llvm::dyn_cast_or_null<llvm::DIDerivedType>(element);
        if (m && m->getTag() == llvm::dwarf::DW_TAG_member && m->getName() == field)
            return memberPlace(place, m);
    }
    why = typeName(place.type) + " has no field " + field;
    return std::nullopt;
}

std::optional<Scalar> Values::scalar(const Place &place) const
{
    const llvm::DIType *u = underlying(place.type);
    if (const auto *basic = llvm::dyn_cast_or_null<llvm::DIBasicType>(u)) {
        const auto bytes = m_reader.read(place, 0, sizeOf(u));
        return bytes ? basicValue(basic, *bytes) : std::nullopt;
    }
    if (const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(u);
        composite && composite->getTag() == llvm::dwarf::DW_TAG_enumeration_type) {
        const auto bytes = m_reader.read(place, 0, sizeOf(u));
        if (!bytes || bytes->size() > 8)
            return std::nullopt;
        std::int64_t value = 0;
        std::memcpy(&value, bytes->data(), bytes->size());
        std::string text = std::to_string(value);
        for (const llvm::DINode *e : composite->getElements()) {
            const auto *enumerator = llvm::dyn_cast_or_null<llvm::DIEnumerator>(e);
            if (enumerator && enumerator->getValue().getSExtValue() == value)
                text = enumerator->getName().str() + " (" + text + ")";
        }
        return Scalar{text, double(value)};
    }
    return std::nullopt;
}

Place Values::memberPlace(const Place &place, const llvm::DIDerivedType *m) const
{
    Place out = place;
    const std::uint64_t offset = m->getOffsetInBits() / 8;
    const std::uint64_t size = sizeOf(m->getBaseType());
    if (!place.held.empty()) {
        if (offset + size <= place.held.size()) {
            out.held.assign(place.held.begin() + long(offset), place.held.begin() + long(offset + size));
        } else {
            out.held.clear();
            out.space = kNoSpace; // reads fail: the member is not among the bytes held
        }
    } else {
        out.address += offset;
    }
    out.type = m->getBaseType();
    out.ir = m_reader.layout ? memberIr(*m_reader.layout, place.ir, offset) : nullptr;
    return out;
}

void Values::describe(json &out, const std::string &name, const Place &place, int depth) const
{
    const llvm::DIType *u = underlying(place.type);
    if (!u) {
        out["error"] = "no type";
        return;
    }
    if (const auto s = scalar(place)) {
        out["value"] = s->text;
        return;
    }
    if (llvm::isa<llvm::DIBasicType>(u)) {
        out["error"] = "not readable";
        return;
    }
    if (const auto *derived = llvm::dyn_cast<llvm::DIDerivedType>(u)) {
        if (derived->getTag() != llvm::dwarf::DW_TAG_pointer_type) {
            out["error"] = "a type the debugger does not read";
            return;
        }
        const auto bytes = m_reader.read(place, 0, 8);
        if (!bytes) {
            out["error"] = "not readable";
            return;
        }
        const std::uint64_t address = loadAs<std::uint64_t>(*bytes);
        // Images and samplers: Oclgrind passes an image as its own description and a sampler as its bits.
        const llvm::DIType *targetType = underlying(derived->getBaseType());
        const std::string targetName = targetType ? targetType->getName().str() : std::string();
        if (targetName.rfind("opencl_image", 0) == 0) {
            out["value"] = imageText(address);
            return;
        }
        if (targetName == "opencl_sampler_t") {
            if (const auto text = samplerText(address))
                out["value"] = *text;
            else
                out["error"] = "a sampler whose settings are not known here";
            return;
        }
        char text[48];
        std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
        out["value"] = text;
        std::string why;
        const auto target = pointee(place, why);
        if (target)
            out["value"] = std::string(text) + " (" + spaceName(target->space) + ")";
        if (depth >= kMaxDepth)
            return;
        if (!target) {
            out["children"] = json::array({{{"name", "*" + name},
                                            {"type", typeName(derived->getBaseType())},
                                            {"error", "not evaluated: " + why}}});
            return;
        }
        out["children"] = json::array({node("*" + name, *target, depth + 1)});
        return;
    }
    const auto *composite = llvm::dyn_cast<llvm::DICompositeType>(u);
    if (!composite) {
        out["error"] = "a type the debugger does not read";
        return;
    }
    json children = json::array();
    std::string summary;
    const auto addChild = [&](json child) {
        if (children.size() < 8) {
            if (!summary.empty())
                summary += ", ";
            summary += child.contains("value") ? child["value"].get<std::string>() : "?";
        } else if (children.size() == 8) {
            summary += ", ...";
        }
        children.push_back(std::move(child));
    };
    if (composite->getTag() == llvm::dwarf::DW_TAG_array_type) {
        const auto dims = dimensionsOf(composite);
        if (!dims) {
            out["error"] = "an array whose length is not known";
            return;
        }
        const bool vector = isVector(place.type);
        const std::uint64_t count = dims->front();
        out["elements"] = count;
        if (depth >= kMaxDepth)
            return;
        for (std::uint64_t i = 0; i < count && i < kMaxChildren; ++i) {
            const std::string childName = vector ? vectorComponent(i, count) : "[" + std::to_string(i) + "]";
            if (dims->size() > 1 && !vector) {
                addChild(subArrayNode(childName, place, composite, *dims, i, depth + 1));
                continue;
            }
            std::string why;
            if (const auto e = element(place, i, why))
                addChild(node(childName, *e, depth + 1));
            else
                addChild({{"name", childName}, {"type", typeName(composite->getBaseType())}, {"error", why}});
        }
        out["value"] = vector ? "(" + summary + ")" : "[" + summary + "]";
        out["children"] = std::move(children);
        return;
    }
    if (composite->getTag() == llvm::dwarf::DW_TAG_structure_type ||
        composite->getTag() == llvm::dwarf::DW_TAG_union_type) {
        if (depth >= kMaxDepth) {
            out["value"] = "{...}";
            return;
        }
        for (const llvm::DINode *element : composite->getElements()) {
            const auto *m = llvm::dyn_cast_or_null<llvm::DIDerivedType>(element);
            if (!m || m->getTag() != llvm::dwarf::DW_TAG_member || m->isStaticMember())
                continue;
            if (m->isBitField()) {
                addChild({{"name", m->getName().str()},
                          {"type", typeName(m->getBaseType())},
                          {"error", "a bit-field: not evaluated"}});
                continue;
            }
            addChild(node(m->getName().str(), memberPlace(place, m), depth + 1));
        }
        out["value"] = "{" + summary + "}";
        out["children"] = std::move(children);
        return;
    }
    out["error"] = "a type the debugger does not read";
}

json Values::subArrayNode(const std::string &name, const Place &place, const llvm::DICompositeType *array,
                          const std::vector<std::uint64_t> &dims, std::uint64_t i, int depth) const
{
    std::uint64_t inner = 1;
    for (std::size_t d = 1; d < dims.size(); ++d)
        inner *= dims[d];
    const std::uint64_t baseSize = sizeOf(array->getBaseType());
    std::string type = typeName(array->getBaseType());
    for (std::size_t d = 1; d < dims.size(); ++d)
        type += "[" + std::to_string(dims[d]) + "]";
    json out = {{"name", name}, {"type", type}, {"elements", dims[1]}};
    Place row = place;
    row.address += i * inner * baseSize;
    row.ir = elementIr(place.ir);
    if (!place.held.empty()) {
        out["error"] = "not evaluated";
        return out;
    }
    json children = json::array();
    std::string summary;
    std::uint64_t rowInner = inner / dims[1];
    for (std::uint64_t j = 0; j < dims[1] && j < kMaxChildren; ++j) {
        json child;
        const std::string childName = "[" + std::to_string(j) + "]";
        if (dims.size() > 2) {
            std::vector<std::uint64_t> rest(dims.begin() + 1, dims.end());
            child = subArrayNode(childName, row, array, rest, j, depth + 1);
        } else {
            Place e = row;
            e.address += j * rowInner * baseSize;
            e.type = array->getBaseType();
            e.ir = elementIr(row.ir);
            child = node(childName, e, depth + 1);
        }
        if (j < 8)
            summary += (j ? ", " : "") + (child.contains("value") ? child["value"].get<std::string>() : "?");
        children.push_back(std::move(child));
    }
    out["value"] = "[" + summary + (dims[1] > 8 ? ", ...]" : "]");
    out["children"] = std::move(children);
    return out;
}

} // namespace clscope::debugplugin
