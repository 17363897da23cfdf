// The `--arg` spec forms and buffer initialiser texts of `clscope-cli run`, the argument slots of a
// kernel (pyopencl's parse_arg_list), and the binding of given values to those slots.
#include "clscope/kernelargs.h"
#include "clscope/structs.h"
#include "clscope/text.h"

#include "runinternal.h"

#include "clscope/checkedmath.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace clscope {
namespace {

using detail::argMessage;

[[noreturn]] void fail(std::string_view name, const std::string &message)
{
    throw RunInputError(argMessage(name, message), std::string(name));
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || (s.front() >= '0' && s.front() <= '9'))
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// A positive decimal size ("1024"); nothing for anything else.
std::optional<std::size_t> parseCount(std::string_view text)
{
    text = trimBlanks(text);
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::size_t parsePositive(std::string_view text, std::string_view name, const char *what)
{
    const auto value = parseCount(text);
    if (!value)
        fail(name, std::string(what) + " '" + std::string(trimBlanks(text)) + "' is not a whole number");
    if (*value == 0)
        fail(name, std::string(what) + " must be at least 1");
    return *value;
}

ElementType parseTypeOrFail(std::string_view text, std::string_view name)
{
    if (auto type = parseElementType(text))
        return *type;
    fail(name, "unknown type '" + std::string(trimBlanks(text)) + "' (types: " + elementTypeNames() + ")");
}

// The text after "name=" split at its first colon.
std::pair<std::string_view, std::optional<std::string_view>> splitColon(std::string_view text)
{
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        return {text, std::nullopt};
    return {text.substr(0, colon), text.substr(colon + 1)};
}

// A name that may be a struct or typedef of the program: "Particle", "struct Tagged", "union U".
bool isTypeName(std::string_view text)
{
    text = trimBlanks(text);
    for (std::string_view keyword : {"struct ", "union "}) {
        if (text.starts_with(keyword))
            text = trimBlanks(text.substr(keyword.size()));
    }
    return isIdentifier(text);
}

bool isImageType(std::string_view type)
{
    return type.starts_with("image") && type.ends_with("_t");
}

} // namespace

// ---- Names ------------------------------------------------------------------------------------------

std::string_view initKindName(InitKind kind)
{
    switch (kind) {
    case InitKind::Zeros:
        return "zeros";
    case InitKind::Fill:
        return "fill";
    case InitKind::Iota:
        return "iota";
    case InitKind::Random:
        return "random";
    case InitKind::File:
        return "file";
    case InitKind::Copy:
        return "copy";
    }
    return "zeros";
}

std::string_view argKindName(ArgKind kind)
{
    switch (kind) {
    case ArgKind::Value:
        return "value";
    case ArgKind::Buffer:
        return "buffer";
    case ArgKind::Local:
        return "local";
    case ArgKind::Unsupported:
        return "unsupported";
    }
    return "value";
}

// ---- Initialisers -----------------------------------------------------------------------------------

BufferInit parseBufferInit(std::string_view text, std::string_view what)
{
    BufferInit init;
    const std::size_t eq = text.find('=');
    const std::string_view word = trimBlanks(text.substr(0, eq));
    const std::optional<std::string_view> value =
        eq == std::string_view::npos ? std::nullopt : std::optional(text.substr(eq + 1));
    const auto needsValue = [&](const char *form) {
        if (!value || trimBlanks(*value).empty())
            fail(what, "initialiser " + std::string(word) + " needs a value (" + form + ")");
    };
    if (word == "zeros") {
        if (value)
            fail(what, "initialiser zeros takes no value");
        init.kind = InitKind::Zeros;
    } else if (word == "fill") {
        needsValue("fill=V");
        init.kind = InitKind::Fill;
        init.fill = std::string(trimBlanks(*value));
    } else if (word == "iota") {
        init.kind = InitKind::Iota;
        if (value) {
            const auto [start, step] = splitColon(*value);
            init.start = std::string(trimBlanks(start));
            if (step)
                init.step = std::string(trimBlanks(*step));
            if (init.start.empty() || (step && init.step.empty()))
                fail(what, "initialiser iota takes iota, iota=START or iota=START:STEP");
        }
    } else if (word == "random") {
        init.kind = InitKind::Random;
        if (value) {
            const auto [seed, range] = splitColon(*value);
            const auto parsed = parseCount(seed);
            if (!parsed)
                fail(what, "random seed '" + std::string(trimBlanks(seed)) + "' is not a whole number");
            init.seed = *parsed;
            if (range) {
                const auto [low, high] = splitColon(*range);
                if (!high || trimBlanks(low).empty() || trimBlanks(*high).empty())
                    fail(what, "initialiser random takes random, random=SEED or random=SEED:LO:HI");
                init.low = std::string(trimBlanks(low));
                init.high = std::string(trimBlanks(*high));
            }
        }
    } else if (word == "file") {
        needsValue("file=PATH");
        init.kind = InitKind::File;
        init.path = std::string(*value); // paths keep their spaces
    } else if (word == "copy") {
        needsValue("copy=NAME");
        init.kind = InitKind::Copy;
        init.source = std::string(trimBlanks(*value));
    } else {
        fail(what, "unknown initialiser '" + std::string(text) +
                       "' (zeros, fill=V, iota[=START[:STEP]], random[=SEED[:LO:HI]], file=PATH, copy=NAME)");
    }
    return init;
}

std::string toString(const BufferInit &init)
{
    switch (init.kind) {
    case InitKind::Zeros:
        return "zeros";
    case InitKind::Fill:
        return "fill=" + init.fill;
    case InitKind::Iota:
        if (init.start.empty() && init.step.empty())
            return "iota";
        return "iota=" + (init.start.empty() ? std::string("0") : init.start) +
               (init.step.empty() ? std::string() : ":" + init.step);
    case InitKind::Random:
        if (init.low.empty() && init.high.empty())
            return init.seed ? "random=" + std::to_string(init.seed) : std::string("random");
        return "random=" + std::to_string(init.seed) + ":" + init.low + ":" + init.high;
    case InitKind::File:
        return "file=" + init.path;
    case InitKind::Copy:
        return "copy=" + init.source;
    }
    return "zeros";
}

// ---- Specs ------------------------------------------------------------------------------------------

std::optional<std::size_t> findArgument(const std::vector<std::string> &names, std::string_view given)
{
    const auto at = [&](std::string_view name) -> std::optional<std::size_t> {
        const auto it = std::find(names.begin(), names.end(), name);
        return it == names.end() ? std::nullopt : std::optional(std::size_t(it - names.begin()));
    };
    if (auto exact = at(given))
        return exact;
    if (given.size() > 1 && given.front() == '#') {
        const std::optional<std::size_t> index = parseCount(given.substr(1));
        return index && *index < names.size() ? index : std::nullopt;
    }
    constexpr std::string_view kPoclPrefix = "_cl_";
    if (given.starts_with(kPoclPrefix))
        return at(given.substr(kPoclPrefix.size()));
    return at(std::string(kPoclPrefix) + std::string(given));
}

namespace {

// "#N": an argument by its position.
bool isPositionalName(std::string_view s)
{
    return s.size() > 1 && s.front() == '#' &&
           std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

ArgValue parseArgSpec(std::string_view spec)
{
    const std::size_t eq = spec.find('=');
    if (eq == std::string_view::npos)
        throw RunInputError("argument '" + std::string(spec) + "' needs the form NAME=VALUE");
    ArgValue arg;
    arg.name = std::string(trimBlanks(spec.substr(0, eq)));
    if (!isIdentifier(arg.name) && !isPositionalName(arg.name))
        throw RunInputError("argument '" + std::string(spec) + "' has no valid name before '='", arg.name);
    const std::string_view rest = spec.substr(eq + 1);
    const auto [head, tail] = splitColon(rest);
    const std::string_view kind = trimBlanks(head);
    if (kind == "buffer") {
        // buffer:TYPE:COUNT[:INIT] or buffer:COUNT[:INIT]; INIT keeps its own colons (iota=1:2, file=a:b).
        if (!tail)
            fail(arg.name, "a buffer needs buffer:TYPE:COUNT[:INIT]");
        const auto [first, afterFirst] = splitColon(*tail);
        BufferArg buffer;
        std::optional<std::string_view> initText;
        if (parseCount(first)) {
            buffer.count = parsePositive(first, arg.name, "buffer count");
            initText = afterFirst;
        } else {
            // A struct or typedef of the program is told from a typo only once the program is known.
            if (auto type = parseElementType(first))
                buffer.type = type;
            else if (isTypeName(first))
                buffer.typeName = std::string(trimBlanks(first));
            else
                buffer.type = parseTypeOrFail(first, arg.name);
            if (!afterFirst)
                fail(arg.name, "a buffer needs buffer:TYPE:COUNT[:INIT]");
            const auto [count, init] = splitColon(*afterFirst);
            buffer.count = parsePositive(count, arg.name, "buffer count");
            initText = init;
        }
        if (initText)
            buffer.init = parseBufferInit(*initText, arg.name);
        arg.value = std::move(buffer);
    } else if (kind == "struct") {
        // struct:FIELD=VALUE,... or struct:TYPE:FIELD=VALUE,... (a TYPE has no '=' or brackets).
        if (!tail)
            fail(arg.name, "a struct needs struct:FIELD=VALUE,... (fields by name)");
        StructArg value;
        std::string_view text = *tail;
        const std::size_t colon = text.find(':');
        if (colon != std::string_view::npos && isTypeName(text.substr(0, colon))) {
            value.typeName = std::string(trimBlanks(text.substr(0, colon)));
            text = text.substr(colon + 1);
        }
        value.text = std::string(trimBlanks(text));
        parseStructValue(value.text, arg.name); // the syntax now, the fields once the layout is known
        arg.value = std::move(value);
    } else if (kind == "local") {
        if (!tail)
            fail(arg.name, "a local argument needs local:BYTES");
        arg.value = LocalArg{parsePositive(*tail, arg.name, "local size")};
    } else if (tail) {
        arg.value = ScalarArg{parseTypeOrFail(kind, arg.name), std::string(*tail)};
    } else {
        if (trimBlanks(rest).empty())
            fail(arg.name, "no value after '='");
        arg.value = ScalarArg{std::nullopt, std::string(rest)};
    }
    return arg;
}

std::string toString(const ArgValue &arg)
{
    if (const auto *s = std::get_if<ScalarArg>(&arg.value))
        return arg.name + "=" + (s->type ? s->type->name() + ":" : std::string()) + s->text;
    if (const auto *b = std::get_if<BufferArg>(&arg.value))
        return arg.name + "=buffer:" +
               (b->type               ? b->type->name() + ":"
                : b->typeName.empty() ? std::string()
                                      : b->typeName + ":") +
               std::to_string(b->count) + ":" + toString(b->init);
    if (const auto *t = std::get_if<StructArg>(&arg.value))
        return arg.name + "=struct:" + (t->typeName.empty() ? std::string() : t->typeName + ":") + t->text;
    return arg.name + "=local:" + std::to_string(std::get<LocalArg>(arg.value).bytes);
}

// ---- Slots ------------------------------------------------------------------------------------------

std::string ArgSlot::declaration() const
{
    std::string out;
    if (address != AddressQualifier::Private && kind != ArgKind::Unsupported)
        out = "__" + std::string(addressQualifierName(address)) + " ";
    if (typeQualifiers & TypeConst)
        out += "const ";
    if (typeQualifiers & TypeVolatile)
        out += "volatile ";
    return out + typeName;
}

std::string ArgSlot::baseType() const
{
    std::string_view t = trimBlanks(typeName);
    if (t.ends_with('*'))
        t = trimBlanks(t.substr(0, t.size() - 1));
    return std::string(t);
}

std::vector<ArgSlot> argSlots(const KernelInfo &kernel)
{
    if (kernel.argInfo == ArgInfoSource::None && !kernel.args.empty())
        throw RunInputError(
            "kernel " + kernel.name +
            " has no argument info (the driver gives none and the source does not declare it)");
    std::vector<ArgSlot> slots;
    for (std::size_t i = 0; i < kernel.args.size(); ++i) {
        const KernelArg &a = kernel.args[i];
        ArgSlot s;
        s.index = int(i);
        s.name = a.name;
        s.address = a.address;
        s.typeName = std::string(trimBlanks(a.typeName));
        s.typeQualifiers = a.typeQualifiers;
        std::string_view type = s.typeName;
        const bool pointer = type.ends_with('*');
        if (pointer)
            type = trimBlanks(type.substr(0, type.size() - 1));
        if (a.typeQualifiers & TypePipe) {
            s.kind = ArgKind::Unsupported;
            s.unsupported = "pipe arguments are not supported yet";
        } else if (isImageType(type)) {
            s.kind = ArgKind::Unsupported;
            s.unsupported = "image arguments (" + std::string(type) + ") are not supported yet";
        } else if (type == "sampler_t") {
            s.kind = ArgKind::Unsupported;
            s.unsupported = "sampler arguments are not supported yet";
        } else if (type == "queue_t" || type == "clk_event_t" || type == "reserve_id_t" ||
                   type == "event_t") {
            s.kind = ArgKind::Unsupported;
            s.unsupported = std::string(type) + " arguments are not supported";
        } else if (a.address == AddressQualifier::Local) {
            s.kind = ArgKind::Local;
            s.type = parseElementType(type);
        } else if (a.address == AddressQualifier::Global || a.address == AddressQualifier::Constant) {
            s.kind = pointer ? ArgKind::Buffer : ArgKind::Unsupported;
            if (!pointer)
                s.unsupported = std::string(type) + " arguments are not supported";
            s.type = parseElementType(type);
        } else {
            s.kind = ArgKind::Value;
            s.type = parseElementType(type);
        }
        slots.push_back(std::move(s));
    }
    return slots;
}

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
    fail(slot.name,
         given.name() + " is " + bytesText(given.size()) + ", but " +
             (buffer ? "the elements of the " + slot.declaration() + " argument (" + type + ") are "
                     : "the " + slot.declaration() + " argument is ") +
             bytesText(*t.size));
}

[[noreturn]] void needLayout(const ArgSlot &slot, const std::string &type)
{
    fail(slot.name, "a struct value needs the layout of " + type +
                        ", which the device gives (bind with the types of structs.h's probeTypes)");
}

BoundArg bindValue(const ArgSlot &slot, const ScalarArg &v, const TypeTable *types)
{
    BoundArg b;
    b.kind = ArgKind::Value;
    const SlotType t = slotType(slot, types);
    if (v.type) {
        checkRawSize(slot, *v.type, t, false);
        if (!v.type->isRaw() && t.element && *v.type != *t.element)
            fail(slot.name, v.type->name() + " was given for the " + slot.declaration() + " argument");
        if (!v.type->isRaw() && t.layout)
            fail(slot.name, v.type->name() + " was given for the " + slot.declaration() +
                                " argument, a struct (" + expectedForm(slot, t) + ", or bytes" +
                                std::to_string(t.layout->size) + ":HEX)");
        if (!v.type->isRaw() && t.size && v.type->size() != *t.size)
            fail(slot.name, v.type->name() + " is " + bytesText(v.type->size()) + ", but the " +
                                slot.declaration() + " argument is " + bytesText(*t.size));
        b.type = *v.type;
    } else if (t.element) {
        b.type = *t.element;
    } else if (t.layout) {
        fail(slot.name, "the " + slot.declaration() + " argument is a struct: give " + expectedForm(slot, t));
    } else {
        fail(slot.name, "the type " + slot.typeName + " is not one CLScope knows; give one (" + slot.name +
                            "=TYPE:VALUE, e.g. " +
                            (t.size ? "bytes" + std::to_string(*t.size) : std::string("bytesN")) +
                            ":HEX for a struct)");
    }
    b.value = v.parsedFor && *v.parsedFor == b.type ? v.parsed : parseValue(v.text, b.type, slot.name);
    return b;
}

BoundArg bindStruct(const ArgSlot &slot, const StructArg &v, const TypeTable *types)
{
    if (const SlotType known = slotType(slot, types); known.element)
        fail(slot.name, "a struct value was given for the " + slot.declaration() + " argument (use " +
                            expectedForm(slot, known) + ")");
    if (!types)
        needLayout(slot, v.typeName.empty() ? slot.baseType() : v.typeName);
    if (!types->unavailable.empty())
        fail(slot.name, "the layout of " + (v.typeName.empty() ? slot.baseType() : v.typeName) +
                            " could not be asked of the device: " + types->unavailable);
    const SlotType t = slotType(slot, types);
    std::shared_ptr<const StructLayout> layout = t.layout;
    if (!v.typeName.empty()) {
        layout = types->findStruct(v.typeName);
        if (!layout)
            fail(slot.name,
                 "no struct " + v.typeName + " in the program (structs: " + types->knownStructs + ")");
        if (t.layout && t.layout != layout)
            fail(slot.name,
                 "struct " + v.typeName + " was given for the " + slot.declaration() + " argument");
    }
    if (!layout)
        fail(slot.name, "a struct value was given for the " + slot.declaration() +
                            " argument, which is not a "
                            "struct the program declares "
                            "(structs: " +
                            types->knownStructs + ")");
    if (t.size && *t.size != layout->size)
        fail(slot.name, layout->label() + " is " + bytesText(layout->size) + ", but the " +
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
            fail(slot.name, "unknown type '" + v.typeName + "' (types: " + elementTypeNames() +
                                "; structs of the program need the device's layouts)");
        if (auto layout = types->findStruct(v.typeName)) {
            if ((t.layout && t.layout != layout) || t.element)
                fail(slot.name,
                     "a buffer of " + v.typeName + " was given for the " + slot.declaration() + " argument");
            if (t.size && *t.size != layout->size)
                fail(slot.name, layout->label() + " is " + bytesText(layout->size) + ", but the " +
                                    slot.declaration() + " argument's elements are " + bytesText(*t.size));
            b.type = ElementType::bytes(layout->size);
            b.layout = std::move(layout);
        } else if (const auto it = types->aliases.find(v.typeName); it != types->aliases.end()) {
            if (t.element && *t.element != it->second)
                fail(slot.name, "a buffer of " + v.typeName + " (" + it->second.name() +
                                    ") was given for the " + slot.declaration() + " argument");
            b.type = it->second;
        } else if (!types->unavailable.empty()) {
            fail(slot.name,
                 "the layout of " + v.typeName + " could not be asked of the device: " + types->unavailable);
        } else {
            fail(slot.name, "unknown type '" + v.typeName + "' (types: " + elementTypeNames() +
                                "; structs of the program: " + types->knownStructs + ")");
        }
    } else if (v.type) {
        // A struct or void pointee takes any element type of its size: the kernel sees bytes either way.
        checkRawSize(slot, *v.type, t, true);
        if (!v.type->isRaw() && t.element && *v.type != *t.element)
            fail(slot.name,
                 "a buffer of " + v.type->name() + " was given for the " + slot.declaration() + " argument");
        if (!v.type->isRaw() && !t.element && t.size && v.type->size() != *t.size)
            fail(slot.name, v.type->name() + " is " + bytesText(v.type->size()) +
                                ", but the elements of the " + slot.declaration() + " argument are " +
                                bytesText(*t.size));
        b.type = *v.type;
    } else if (t.element) {
        b.type = *t.element;
    } else if (t.layout) {
        b.type = ElementType::bytes(t.layout->size);
        b.layout = t.layout;
    } else if (types && !types->unavailable.empty()) {
        fail(slot.name, "the layout of " + slot.baseType() + " could not be asked of the device: " +
                            types->unavailable + "; give buffer:bytesN:COUNT");
    } else {
        fail(slot.name,
             "the element type " + slot.typeName + " is not one CLScope knows; give one (" + slot.name +
                 "=buffer:" + (t.size ? "bytes" + std::to_string(*t.size) : std::string("bytesN")) +
                 ":COUNT for a struct of N bytes)");
    }
    if (v.count == 0)
        fail(slot.name, "buffer count must be at least 1");
    b.count = v.count;
    if (!checkedMul<std::size_t>(b.count, b.type.size()))
        fail(slot.name, "buffer of " + std::to_string(b.count) + " " + b.type.name() + " is too large");
    b.init = v.init;
    if (b.layout && (b.init.kind == InitKind::Iota || b.init.kind == InitKind::Random))
        fail(slot.name, std::string(initKindName(b.init.kind)) + " is for numbers; a buffer of " +
                            b.layout->label() +
                            " takes zeros, fill={FIELD=VALUE,...}, file=PATH or copy=NAME");
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
            fail(b.name, "copy=" + b.init.source + " names no argument of the kernel");
        if (source == &b)
            fail(b.name, "copy=" + b.init.source + " copies the buffer onto itself");
        if (source->kind != ArgKind::Buffer)
            fail(b.name, "copy=" + b.init.source + " is not a buffer");
        if (source->bufferBytes() != b.bufferBytes())
            fail(b.name, "copy=" + b.init.source + " has " + std::to_string(source->bufferBytes()) +
                             " bytes, this buffer " + std::to_string(b.bufferBytes()));
        // Following sources from b must reach a buffer that is not a copy within bound.size() steps.
        std::string chain = b.name;
        const BoundArg *at = source;
        for (std::size_t steps = 0; at->init.kind == InitKind::Copy; ++steps) {
            chain += ", " + at->name;
            if (at == &b || steps > bound.size())
                fail(b.name, "copy=" + b.init.source + " forms a cycle (" + chain + ")");
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
            fail(names[*index], "the argument is given twice");
    }
    std::vector<BoundArg> bound;
    for (const ArgSlot &slot : slots) {
        if (slot.kind == ArgKind::Unsupported)
            fail(slot.name, slot.unsupported);
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
        } else if (slot.kind == ArgKind::Local && std::holds_alternative<LocalArg>(v.value)) {
            b.kind = ArgKind::Local;
            b.localBytes = std::get<LocalArg>(v.value).bytes;
            if (b.localBytes == 0)
                fail(slot.name, "local size must be at least 1 byte");
        } else {
            fail(slot.name, givenKind(v) + " was given for the " + slot.declaration() + " argument (use " +
                                expectedForm(slot, slotType(slot, types)) + ")");
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
