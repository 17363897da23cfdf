// The binding of given argument values to a kernel's slots (kernelargs.h's bindArguments): each value
// checked against its slot's type, struct layouts from the device, buffer sizes and copies.
#include "clscope/checkedmath.h"
#include "clscope/imagedata.h"
#include "clscope/kernelargs.h"
#include "clscope/structs.h"

#include "runinternal.h"

#include <algorithm>
#include <map>

namespace clscope {

using detail::argMessage;
using detail::failArgument;

// ---- Binding ----------------------------------------------------------------------------------------

namespace {

std::string argumentList(const std::vector<ArgSlot> &slots)
{
    std::string out;
    for (const auto &s : slots)
        out += (out.empty() ? "" : ", ") + s.name;
    return out.empty() ? std::string("none") : out;
}

std::string givenKind(const ArgValue &v)
{
    if (std::holds_alternative<ScalarArg>(v.value))
        return "a value";
    if (std::holds_alternative<BufferArg>(v.value))
        return "a buffer";
    if (std::holds_alternative<StructArg>(v.value))
        return "a struct value";
    if (const auto *i = std::get_if<ImageArg>(&v.value))
        return "an " + std::string(imageDimName(i->dim));
    if (std::holds_alternative<SamplerArg>(v.value))
        return "a sampler";
    return "a local size";
}

// What a slot's type is once the device has answered (types): a number or vector, a struct, or only a
// size (a union, a type CLScope does not read).
struct SlotType
{
    std::optional<ElementType> element;
    std::shared_ptr<const StructLayout> layout;
    std::optional<std::size_t> size;
};

SlotType slotType(const ArgSlot &slot, const TypeTable *types)
{
    SlotType t;
    if (slot.type) {
        t.element = slot.type;
        t.size = slot.type->size();
        return t;
    }
    if (!types)
        return t;
    const std::string base = slot.baseType();
    if ((t.layout = types->findStruct(base))) {
        t.size = t.layout->size;
    } else if (const auto it = types->aliases.find(base); it != types->aliases.end()) {
        t.element = it->second;
        t.size = it->second.size();
    } else {
        t.size = types->sizeOf(base);
    }
    return t;
}

// The form that would have fitted the slot, for the message about a value of the wrong kind.
std::string expectedForm(const ArgSlot &s, const SlotType &t)
{
    const std::string type = t.element ? t.element->name() : t.layout ? s.baseType() : std::string("TYPE");
    switch (s.kind) {
    case ArgKind::Buffer:
        return s.name + "=buffer:" + type + ":COUNT[:INIT]";
    case ArgKind::Local:
        return s.name + "=local:BYTES";
    case ArgKind::Image: {
        const ImageDim dim = s.image.value_or(ImageDim::Image2D);
        return s.name + "=" + std::string(imageDimName(dim)) +
               ":RGBA:UNORM_INT8:" + std::string(imageSizeForm(dim)) + "[:INIT]";
    }
    case ArgKind::Sampler:
        return s.name + "=sampler:normalized|unnormalized,ADDRESSING,nearest|linear";
    default:
        if (t.layout)
            return s.name + "=struct:FIELD=VALUE,...";
        return s.name + "=" + type + ":VALUE";
    }
}

std::string bytesText(std::size_t n)
{
    return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

// bytesN stays for opaque data, but only of the argument's size: a value of another size runs with
// garbage (PoCL takes it as it is). `buffer`: the size is the buffer's element size.
void checkRawSize(const ArgSlot &slot, const ElementType &given, const SlotType &t, bool buffer)
{
    if (!given.isRaw() || !t.size || *t.size == given.size())
        return;
    const std::string type = t.layout ? t.layout->label() : slot.baseType();
    failArgument(slot.name,
                 given.name() + " is " + bytesText(given.size()) + ", but " +
                     (buffer ? "the elements of the " + slot.declaration() + " argument (" + type + ") are "
                             : "the " + slot.declaration() + " argument is ") +
                     bytesText(*t.size));
}

[[noreturn]] void needLayout(const ArgSlot &slot, const std::string &type)
{
    failArgument(slot.name, "a struct value needs the layout of " + type +
                                ", which the device gives (bind with the types of structs.h's probeTypes)");
}

BoundArg bindValue(const ArgSlot &slot, const ScalarArg &v, const TypeTable *types)
{
    BoundArg b;
    b.kind = ArgKind::Value;
    const SlotType t = slotType(slot, types);
    if (v.type) {
        checkRawSize(slot, *v.type, t, false);
        if (!v.type->isRaw() && t.element && !interchangeable(*v.type, *t.element))
            failArgument(slot.name,
                         v.type->name() + " was given for the " + slot.declaration() + " argument");
        if (!v.type->isRaw() && t.layout)
            failArgument(slot.name, v.type->name() + " was given for the " + slot.declaration() +
                                        " argument, a struct (" + expectedForm(slot, t) + ", or bytes" +
                                        std::to_string(t.layout->size) + ":HEX)");
        if (!v.type->isRaw() && t.size && v.type->size() != *t.size)
            failArgument(slot.name, v.type->name() + " is " + bytesText(v.type->size()) + ", but the " +
                                        slot.declaration() + " argument is " + bytesText(*t.size));
        b.type = *v.type;
    } else if (t.element) {
        b.type = *t.element;
    } else if (t.layout) {
        failArgument(slot.name,
                     "the " + slot.declaration() + " argument is a struct: give " + expectedForm(slot, t));
    } else {
        failArgument(slot.name, "the type " + slot.typeName + " is not one CLScope knows; give one (" +
                                    slot.name + "=TYPE:VALUE, e.g. " +
                                    (t.size ? "bytes" + std::to_string(*t.size) : std::string("bytesN")) +
                                    ":HEX for a struct)");
    }
    b.value = v.parsedFor && *v.parsedFor == b.type ? v.parsed : parseValue(v.text, b.type, slot.name);
    return b;
}

BoundArg bindStruct(const ArgSlot &slot, const StructArg &v, const TypeTable *types)
{
    if (const SlotType known = slotType(slot, types); known.element)
        failArgument(slot.name, "a struct value was given for the " + slot.declaration() + " argument (use " +
                                    expectedForm(slot, known) + ")");
    if (!types)
        needLayout(slot, v.typeName.empty() ? slot.baseType() : v.typeName);
    if (!types->unavailable.empty())
        failArgument(slot.name, "the layout of " + (v.typeName.empty() ? slot.baseType() : v.typeName) +
                                    " could not be asked of the device: " + types->unavailable);
    const SlotType t = slotType(slot, types);
    std::shared_ptr<const StructLayout> layout = t.layout;
    if (!v.typeName.empty()) {
        layout = types->findStruct(v.typeName);
        if (!layout)
            failArgument(slot.name, "no struct " + v.typeName +
                                        " in the program (structs: " + types->knownStructs + ")");
        if (t.layout && t.layout != layout)
            failArgument(slot.name,
                         "struct " + v.typeName + " was given for the " + slot.declaration() + " argument");
    }
    if (!layout)
        failArgument(slot.name, "a struct value was given for the " + slot.declaration() +
                                    " argument, which is not a "
                                    "struct the program declares "
                                    "(structs: " +
                                    types->knownStructs + ")");
    if (t.size && *t.size != layout->size)
        failArgument(slot.name, layout->label() + " is " + bytesText(layout->size) + ", but the " +
                                    slot.declaration() + " argument is " + bytesText(*t.size));
    BoundArg b;
    b.kind = ArgKind::Value;
    b.type = ElementType::bytes(layout->size);
    b.layout = layout;
    try {
        b.value = encodeStruct(*layout, parseStructValue(v.text, slot.name), slot.name);
    } catch (const RunInputError &e) {
        throw RunInputError(e.what(), slot.name); // "p.inner.a: ..." belongs to the argument p
    }
    return b;
}

BoundArg bindBuffer(const ArgSlot &slot, const BufferArg &v, const TypeTable *types)
{
    BoundArg b;
    b.kind = ArgKind::Buffer;
    const SlotType t = slotType(slot, types);
    if (!v.typeName.empty()) {
        // buffer:Particle:COUNT, a struct (or a typedef of a number) of the program.
        if (!types)
            failArgument(slot.name, "unknown type '" + v.typeName + "' (types: " + elementTypeNames() +
                                        "; structs of the program need the device's layouts)");
        if (auto layout = types->findStruct(v.typeName)) {
            if ((t.layout && t.layout != layout) || t.element)
                failArgument(slot.name, "a buffer of " + v.typeName + " was given for the " +
                                            slot.declaration() + " argument");
            if (t.size && *t.size != layout->size)
                failArgument(slot.name, layout->label() + " is " + bytesText(layout->size) + ", but the " +
                                            slot.declaration() + " argument's elements are " +
                                            bytesText(*t.size));
            b.type = ElementType::bytes(layout->size);
            b.layout = std::move(layout);
        } else if (const auto it = types->aliases.find(v.typeName); it != types->aliases.end()) {
            if (t.element && !interchangeable(*t.element, it->second))
                failArgument(slot.name, "a buffer of " + v.typeName + " (" + it->second.name() +
                                            ") was given for the " + slot.declaration() + " argument");
            b.type = it->second;
        } else if (!types->unavailable.empty()) {
            failArgument(slot.name, "the layout of " + v.typeName +
                                        " could not be asked of the device: " + types->unavailable);
        } else {
            failArgument(slot.name, "unknown type '" + v.typeName + "' (types: " + elementTypeNames() +
                                        "; structs of the program: " + types->knownStructs + ")");
        }
    } else if (v.type) {
        // A struct or void pointee takes any element type of its size: the kernel sees bytes either way.
        checkRawSize(slot, *v.type, t, true);
        if (!v.type->isRaw() && t.element && !interchangeable(*v.type, *t.element))
            failArgument(slot.name, "a buffer of " + v.type->name() + " was given for the " +
                                        slot.declaration() + " argument");
        if (!v.type->isRaw() && !t.element && t.size && v.type->size() != *t.size)
            failArgument(slot.name, v.type->name() + " is " + bytesText(v.type->size()) +
                                        ", but the elements of the " + slot.declaration() + " argument are " +
                                        bytesText(*t.size));
        b.type = *v.type;
    } else if (t.element) {
        b.type = *t.element;
    } else if (t.layout) {
        b.type = ElementType::bytes(t.layout->size);
        b.layout = t.layout;
    } else if (types && !types->unavailable.empty()) {
        failArgument(slot.name, "the layout of " + slot.baseType() + " could not be asked of the device: " +
                                    types->unavailable + "; give buffer:bytesN:COUNT");
    } else {
        failArgument(slot.name, "the element type " + slot.typeName +
                                    " is not one CLScope knows; give one (" + slot.name + "=buffer:" +
                                    (t.size ? "bytes" + std::to_string(*t.size) : std::string("bytesN")) +
                                    ":COUNT for a struct of N bytes)");
    }
    if (v.count == 0)
        failArgument(slot.name, "buffer count must be at least 1");
    b.count = v.count;
    if (!checkedMul<std::size_t>(b.count, b.type.size()))
        failArgument(slot.name,
                     "buffer of " + std::to_string(b.count) + " " + b.type.name() + " is too large");
    b.init = v.init;
    if (b.layout && (b.init.kind == InitKind::Iota || b.init.kind == InitKind::Random))
        failArgument(slot.name, std::string(initKindName(b.init.kind)) + " is for numbers; a buffer of " +
                                    b.layout->label() +
                                    " takes zeros, fill={FIELD=VALUE,...}, file=PATH or copy=NAME");
    return b;
}

BoundArg bindImage(const ArgSlot &slot, const ImageArg &v)
{
    if (slot.image && *slot.image != v.dim)
        failArgument(slot.name, "an " + std::string(imageDimName(v.dim)) + " was given for the " +
                                    slot.declaration() + " argument (use " + expectedForm(slot, {}) + ")");
    BoundArg b;
    b.kind = ArgKind::Image;
    b.image = v;
    b.access = slot.access;
    checkImageInit(v, slot.name);
    if (!b.image.shape)
        b.image.shape = imageFileShape(v, slot.name);
    b.type = imageElementType(v.format);
    b.count = imageElementCount(v.format, *b.image.shape);
    if (!checkedMul<std::size_t>(b.count, b.type.size()))
        failArgument(slot.name, "image of " + formatImageShape(*b.image.shape, v.dim) + " is too large");
    return b;
}

// Copy sources must be buffers of the same size, and chains of copies must end.
void checkCopies(const std::vector<BoundArg> &bound)
{
    const auto find = [&](const std::string &name) -> const BoundArg * {
        for (const auto &b : bound) {
            if (b.name == name)
                return &b;
        }
        return nullptr;
    };
    for (const auto &b : bound) {
        if (b.kind != ArgKind::Buffer || b.init.kind != InitKind::Copy)
            continue;
        const BoundArg *source = find(b.init.source);
        if (!source)
            failArgument(b.name, "copy=" + b.init.source + " names no argument of the kernel");
        if (source == &b)
            failArgument(b.name, "copy=" + b.init.source + " copies the buffer onto itself");
        if (source->kind != ArgKind::Buffer)
            failArgument(b.name, "copy=" + b.init.source + " is not a buffer");
        if (source->bufferBytes() != b.bufferBytes())
            failArgument(b.name, "copy=" + b.init.source + " has " + std::to_string(source->bufferBytes()) +
                                     " bytes, this buffer " + std::to_string(b.bufferBytes()));
        // Following sources from b must reach a buffer that is not a copy within bound.size() steps.
        std::string chain = b.name;
        const BoundArg *at = source;
        for (std::size_t steps = 0; at->init.kind == InitKind::Copy; ++steps) {
            chain += ", " + at->name;
            if (at == &b || steps > bound.size())
                failArgument(b.name, "copy=" + b.init.source + " forms a cycle (" + chain + ")");
            at = find(at->init.source);
            if (!at || at->kind != ArgKind::Buffer)
                break; // reported for that argument
        }
    }
}

} // namespace

std::vector<BoundArg> bindArguments(const KernelInfo &kernel, const std::vector<ArgValue> &values,
                                    const TypeTable *types)
{
    const std::vector<ArgSlot> slots = argSlots(kernel);
    std::vector<std::string> names;
    for (const ArgSlot &s : slots)
        names.push_back(s.name);
    std::map<std::string, const ArgValue *> byName; // by the slot's name, however the value named it
    for (const ArgValue &v : values) {
        const std::optional<std::size_t> index = findArgument(names, v.name);
        if (!index)
            throw RunInputError("kernel " + kernel.name + " has no argument '" + v.name +
                                    "' (arguments: " + argumentList(slots) + ")",
                                v.name);
        if (!byName.emplace(names[*index], &v).second)
            failArgument(names[*index], "the argument is given twice");
    }
    std::vector<BoundArg> bound;
    for (const ArgSlot &slot : slots) {
        if (slot.kind == ArgKind::Unsupported)
            failArgument(slot.name, slot.unsupported);
        const auto it = byName.find(slot.name);
        if (it == byName.end())
            throw RunInputError("missing argument '" + slot.name + "' (" + slot.declaration() +
                                    ") of kernel " + kernel.name + ": give " +
                                    expectedForm(slot, slotType(slot, types)),
                                slot.name);
        const ArgValue &v = *it->second;
        BoundArg b;
        if (slot.kind == ArgKind::Value && std::holds_alternative<ScalarArg>(v.value)) {
            b = bindValue(slot, std::get<ScalarArg>(v.value), types);
        } else if (slot.kind == ArgKind::Value && std::holds_alternative<StructArg>(v.value)) {
            b = bindStruct(slot, std::get<StructArg>(v.value), types);
        } else if (slot.kind == ArgKind::Buffer && std::holds_alternative<BufferArg>(v.value)) {
            b = bindBuffer(slot, std::get<BufferArg>(v.value), types);
        } else if (slot.kind == ArgKind::Image && std::holds_alternative<ImageArg>(v.value)) {
            b = bindImage(slot, std::get<ImageArg>(v.value));
        } else if (slot.kind == ArgKind::Sampler && std::holds_alternative<SamplerArg>(v.value)) {
            b.kind = ArgKind::Sampler;
            b.sampler = std::get<SamplerArg>(v.value);
        } else if (slot.kind == ArgKind::Local && std::holds_alternative<LocalArg>(v.value)) {
            b.kind = ArgKind::Local;
            b.localBytes = std::get<LocalArg>(v.value).bytes;
            if (b.localBytes == 0)
                failArgument(slot.name, "local size must be at least 1 byte");
        } else {
            failArgument(slot.name, givenKind(v) + " was given for the " + slot.declaration() +
                                        " argument (use " + expectedForm(slot, slotType(slot, types)) + ")");
        }
        b.index = slot.index;
        b.name = slot.name;
        if (b.kind == ArgKind::Buffer)
            detail::checkInitialiser(b);
        bound.push_back(std::move(b));
    }
    checkCopies(bound);
    return bound;
}

} // namespace clscope
