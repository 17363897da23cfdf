// The debugger's buffers as typed bytes.
#include "debugbuffers.h"

#include "clscope/error.h"

namespace clscope::ui {

namespace {

// "const float[4096]" -> "float" (the count is DebugValue::elements).
std::optional<std::string> elementTypeName(const std::string &type)
{
    const std::size_t open = type.rfind('[');
    if (open == std::string::npos || type.empty() || type.back() != ']')
        return std::nullopt;
    std::string element = type.substr(0, open);
    // Qualifiers of the pointee say nothing about its bytes.
    for (const std::string_view qualifier : {"const ", "volatile ", "restrict "}) {
        while (element.rfind(qualifier, 0) == 0)
            element.erase(0, qualifier.size());
    }
    while (!element.empty() && element.back() == ' ')
        element.pop_back();
    return element;
}

// One component as the plugin writes it: a char is followed by its character ("65 'A'").
std::string numberText(const std::string &value)
{
    return value.substr(0, value.find(' '));
}

} // namespace

DebugBuffer debugBuffer(const DebugValue &buffer)
{
    DebugBuffer out;
    out.elements = buffer.elements;
    if (!buffer.error.empty()) {
        out.problem = buffer.error;
        return out;
    }
    const std::optional<std::string> name = elementTypeName(buffer.type);
    const std::optional<ElementType> type = name ? parseElementType(*name) : std::nullopt;
    if (!type || type->isRaw() || type->complex) {
        out.problem =
            "its elements (" + name.value_or(buffer.type) + ") are not numbers or vectors of numbers";
        return out;
    }
    BufferData data;
    data.name = buffer.name;
    data.type = *type;
    data.count = buffer.children.size();
    data.bytes.assign(data.count * type->size(), 0);
    const std::size_t scalar = scalarSize(type->scalar);
    for (std::size_t i = 0; i < buffer.children.size(); ++i) {
        const DebugValue &element = buffer.children[i];
        const std::string what = buffer.name + element.name;
        // A scalar is its own value; a vector's components are its children (x, y, z, w or s0..sF).
        std::vector<const DebugValue *> components;
        if (type->width == 1) {
            components.push_back(&element);
        } else {
            for (const DebugValue &c : element.children)
                components.push_back(&c);
        }
        try {
            if (components.size() != std::size_t(type->width))
                throw Error(what + " has " + std::to_string(components.size()) + " components, not " +
                            std::to_string(type->width));
            for (std::size_t c = 0; c < components.size(); ++c) {
                if (!components[c]->error.empty())
                    throw Error(what + ": " + components[c]->error);
                encodeNumber(parseNumber(numberText(components[c]->value), type->scalar, what), type->scalar,
                             data.bytes.data() + i * type->size() + c * scalar, what);
            }
        } catch (const std::exception &e) {
            out.problem = e.what();
            return out;
        }
    }
    out.data = std::move(data);
    return out;
}

} // namespace clscope::ui
