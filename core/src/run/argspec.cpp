// The `--arg` spec forms and buffer initialiser texts of `clscope-cli run`, and the argument slots of a
// kernel (pyopencl's parse_arg_list). Binding values to the slots: argbind.cpp.
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
using detail::failArgument;

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
        failArgument(name,
                     std::string(what) + " '" + std::string(trimBlanks(text)) + "' is not a whole number");
    if (*value == 0)
        failArgument(name, std::string(what) + " must be at least 1");
    return *value;
}

ElementType parseTypeOrFail(std::string_view text, std::string_view name)
{
    if (auto type = parseElementType(text))
        return *type;
    failArgument(name,
                 "unknown type '" + std::string(trimBlanks(text)) + "' (types: " + elementTypeNames() + ")");
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
    case ArgKind::Image:
        return "image";
    case ArgKind::Sampler:
        return "sampler";
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
            failArgument(what, "initialiser " + std::string(word) + " needs a value (" + form + ")");
    };
    if (word == "zeros") {
        if (value)
            failArgument(what, "initialiser zeros takes no value");
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
                failArgument(what, "initialiser iota takes iota, iota=START or iota=START:STEP");
        }
    } else if (word == "random") {
        init.kind = InitKind::Random;
        if (value) {
            const auto [seed, range] = splitColon(*value);
            const auto parsed = parseCount(seed);
            if (!parsed)
                failArgument(what,
                             "random seed '" + std::string(trimBlanks(seed)) + "' is not a whole number");
            init.seed = *parsed;
            if (range) {
                const auto [low, high] = splitColon(*range);
                if (!high || trimBlanks(low).empty() || trimBlanks(*high).empty())
                    failArgument(what, "initialiser random takes random, random=SEED or random=SEED:LO:HI");
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
        failArgument(
            what, "unknown initialiser '" + std::string(text) +
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
            failArgument(arg.name, "a buffer needs buffer:TYPE:COUNT[:INIT]");
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
                failArgument(arg.name, "a buffer needs buffer:TYPE:COUNT[:INIT]");
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
            failArgument(arg.name, "a struct needs struct:FIELD=VALUE,... (fields by name)");
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
    } else if (parseImageDim(kind)) {
        if (!tail)
            failArgument(arg.name, "an image needs " + std::string(kind) + ":ORDER:TYPE:SIZE[:INIT]");
        arg.value = parseImageSpec(kind, *tail, arg.name);
    } else if (kind == "sampler") {
        arg.value = parseSamplerSpec(tail.value_or(std::string_view()), arg.name);
    } else if (kind == "local") {
        if (!tail)
            failArgument(arg.name, "a local argument needs local:BYTES");
        arg.value = LocalArg{parsePositive(*tail, arg.name, "local size")};
    } else if (tail) {
        arg.value = ScalarArg{parseTypeOrFail(kind, arg.name), std::string(*tail)};
    } else {
        if (trimBlanks(rest).empty())
            failArgument(arg.name, "no value after '='");
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
    if (const auto *i = std::get_if<ImageArg>(&arg.value))
        return arg.name + "=" + toString(*i);
    if (const auto *m = std::get_if<SamplerArg>(&arg.value))
        return arg.name + "=sampler:" + toString(*m);
    return arg.name + "=local:" + std::to_string(std::get<LocalArg>(arg.value).bytes);
}

// ---- Slots ------------------------------------------------------------------------------------------

std::string ArgSlot::declaration() const
{
    std::string out;
    if (kind == ArgKind::Image && access != AccessQualifier::None)
        out = std::string(accessQualifierName(access)) + " ";
    if (address != AddressQualifier::Private && kind != ArgKind::Unsupported && kind != ArgKind::Image)
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
            s.image = parseImageDim(type);
            s.kind = s.image ? ArgKind::Image : ArgKind::Unsupported;
            s.access = a.access == AccessQualifier::None ? AccessQualifier::ReadOnly : a.access;
            if (!s.image)
                s.unsupported = std::string(type) + " arguments are not supported";
        } else if (type == "sampler_t") {
            s.kind = ArgKind::Sampler;
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

} // namespace clscope
