// Fuzzes the argument parsers of a run and the C declarator parser of kernel source. The input is read as
// kernel source (parseKernelSignatures, which throws nothing) and, line by line, as element types and
// --arg specs (with their buffer initialisers and the component values of typed specs); the specs are then
// bound to the kernels found and the buffers they describe are filled. Bad text must end in RunInputError,
// nothing else, and what parses must print back (toString, name(), formatNumber) to text that parses to
// the same thing.
#include "clscope/build.h"
#include "clscope/kernelargs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace clscope;

// Buffers are filled only up to this size, so that a count in the input cannot exhaust memory.
constexpr std::size_t kMaxBufferBytes = 4096;

void check(bool ok)
{
    if (!ok)
        std::abort();
}

// A floating value reads as C's strtod (in the "C" locale) reads the same text: all of it, to the same
// double. Both take decimal, hex-float, inf and nan.
void checkLikeStrtod(std::string_view text, double value)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    const std::string copy(text);
    char *end = nullptr;
    const double expected = std::strtod(copy.c_str(), &end);
    check(end == copy.c_str() + copy.size());
    check(std::isnan(value) ? std::isnan(expected) : std::memcmp(&value, &expected, sizeof value) == 0);
}

// One component: what parses and stores must store the same bytes again from its shortest text.
void checkNumber(std::string_view text, ScalarKind kind)
{
    unsigned char stored[8] = {}, again[8] = {};
    Number value;
    try {
        value = parseNumber(text, kind, "n");
        encodeNumber(value, kind, stored, "n");
    } catch (const RunInputError &) {
        return;
    }
    if (isFloating(kind))
        checkLikeStrtod(text, toDouble(value));
    if (isFloating(kind) && std::isnan(toDouble(value)))
        return; // the sign and payload of a NaN are not kept
    const std::string shown = formatNumber(decodeNumber(kind, stored), kind);
    // Uncaught: a throw here is a bug, and ends the run through std::terminate.
    encodeNumber(parseNumber(shown, kind, "n"), kind, again, "n");
    check(std::memcmp(stored, again, scalarSize(kind)) == 0);
}

void checkElementType(std::string_view text)
{
    const auto type = parseElementType(text);
    if (!type)
        return;
    check(type->size() > 0);
    check(parseElementType(type->name()) == type);
}

// A typed buffer filled on its own, without a kernel to bind it to.
void fillBuffer(const std::string &name, const BufferArg &buffer)
{
    if (!buffer.type || buffer.init.kind == InitKind::File || buffer.init.kind == InitKind::Copy)
        return;
    BoundArg b;
    b.name = name;
    b.kind = ArgKind::Buffer;
    b.type = *buffer.type;
    b.count = buffer.count;
    b.init = buffer.init;
    if (b.count > kMaxBufferBytes / b.type.size())
        return;
    try {
        check(initialContents(b).size() == b.bufferBytes());
        if (const auto pattern = fillPattern(b))
            check(pattern->size() == b.type.size());
    } catch (const RunInputError &) {
    }
}

// The components of a value ("1,2,3,4"), each as the component kind of the type.
void checkComponents(std::string_view text, const ElementType &type)
{
    if (type.isRaw() || text.empty())
        return; // hex bytes, not numbers; or nothing given
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find(',', pos), text.size());
        checkNumber(text.substr(pos, end - pos), type.scalar);
        pos = end + 1;
    }
}

void checkArgSpec(std::string_view text, std::vector<ArgValue> &specs)
{
    ArgValue arg;
    try {
        arg = parseArgSpec(text);
    } catch (const RunInputError &) {
        return;
    }
    check(parseArgSpec(toString(arg)) == arg);
    if (const auto *scalar = std::get_if<ScalarArg>(&arg.value); scalar && scalar->type) {
        checkComponents(scalar->text, *scalar->type);
        try {
            check(parseValue(scalar->text, *scalar->type, arg.name).size() == scalar->type->size());
        } catch (const RunInputError &) {
        }
    } else if (const auto *buffer = std::get_if<BufferArg>(&arg.value)) {
        if (buffer->type) {
            const BufferInit &init = buffer->init;
            for (const std::string *number : {&init.fill, &init.start, &init.step, &init.low, &init.high})
                checkComponents(*number, *buffer->type);
        }
        fillBuffer(arg.name, *buffer);
    }
    specs.push_back(std::move(arg));
}

// The specs bound to a kernel read from the source; the buffers of a binding that succeeds are filled.
void bind(const KernelSignature &signature, const std::vector<ArgValue> &specs)
{
    const KernelInfo kernel{signature.name, signature.args, ArgInfoSource::Source, {}, {}};
    for (const ArgSlot &slot : argSlots(kernel))
        (void)slot.declaration();
    std::vector<BoundArg> bound;
    try {
        bound = bindArguments(kernel, specs);
    } catch (const RunInputError &) {
        return;
    }
    for (const BoundArg &b : bound) {
        if (b.kind == ArgKind::Value)
            check(b.value.size() == b.type.size());
        if (b.kind != ArgKind::Buffer || b.init.kind == InitKind::File || b.bufferBytes() > kMaxBufferBytes)
            continue;
        try {
            check(initialContents(b).size() == b.bufferBytes());
        } catch (const RunInputError &) {
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const auto signatures = clscope::parseKernelSignatures(input);

    std::vector<clscope::ArgValue> specs;
    std::size_t pos = 0;
    while (pos <= input.size()) {
        const std::size_t end = std::min(input.find('\n', pos), input.size());
        const std::string_view line = input.substr(pos, end - pos);
        pos = end + 1;
        checkElementType(line);
        checkArgSpec(line, specs);
    }
    for (std::size_t i = 0; i < signatures.size() && i < 4; ++i)
        bind(signatures[i], specs);
    return 0;
}
