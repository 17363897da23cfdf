// Struct values in the `--arg` syntax: `x=1,y=2.5,v=(1,2,3,4),inner={a=3}` read into a ValueTree,
// encoded field by field into the device's layout (missing fields zero, every value checked against its
// field's type), and the bytes of a struct written back in the same form.
#include "clscope/structs.h"
#include "clscope/text.h"

#include "runinternal.h"

#include <cstring>

namespace clscope {
namespace {

using detail::argMessage;
using detail::failArgument;

bool isName(std::string_view s)
{
    if (s.empty() || (s.front() >= '0' && s.front() <= '9'))
        return false;
    for (char c : s) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

class ValueReader
{
public:
    ValueReader(std::string_view text, std::string_view what)
        : m_text(text)
        , m_what(what)
    {}

    ValueTree record(char close)
    {
        ValueTree out;
        out.kind = ValueTree::Kind::Record;
        skipBlanks();
        if (peek() == close)
            return out;
        while (true) {
            skipBlanks();
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] != '=' && m_text[m_pos] != ',' &&
                   m_text[m_pos] != close && !isBracket(m_text[m_pos]))
                ++m_pos;
            const std::string name(trimBlanks(m_text.substr(start, m_pos - start)));
            if (peek() != '=' || !isName(name))
                failArgument(m_what,
                             "expected FIELD=VALUE at '" + std::string(m_text.substr(start, 24)) + "'");
            ++m_pos;
            for (const ValueTree &item : out.items) {
                if (item.name == name)
                    failArgument(m_what, "the field " + name + " is given twice");
            }
            ValueTree value = this->value(close);
            value.name = name;
            out.items.push_back(std::move(value));
            skipBlanks();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() == close || (close == '\0' && m_pos >= m_text.size()))
                return out;
            failArgument(m_what, "expected ',' or '" + std::string(1, close ? close : ' ') + "' at '" +
                                     std::string(m_text.substr(m_pos, 24)) + "'");
        }
    }

    void end()
    {
        skipBlanks();
        if (m_pos != m_text.size())
            failArgument(m_what,
                         "unexpected '" + std::string(m_text.substr(m_pos, 24)) + "' after the value");
    }

    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    void advance() { ++m_pos; }

private:
    static bool isBracket(char c) { return c == '{' || c == '}' || c == '(' || c == ')'; }

    void skipBlanks()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    ValueTree value(char close)
    {
        skipBlanks();
        if (++m_depth > 64)
            failArgument(m_what, "the value is nested too deeply");
        ValueTree out;
        if (peek() == '{') {
            ++m_pos;
            out = record('}');
            expect('}');
        } else if (peek() == '(') {
            ++m_pos;
            out.kind = ValueTree::Kind::List;
            skipBlanks();
            if (peek() != ')') {
                while (true) {
                    out.items.push_back(value(')'));
                    skipBlanks();
                    if (peek() != ',')
                        break;
                    ++m_pos;
                }
            }
            expect(')');
        } else {
            out.kind = ValueTree::Kind::Atom;
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] != ',' && m_text[m_pos] != close &&
                   !isBracket(m_text[m_pos]))
                ++m_pos;
            out.text = std::string(trimBlanks(m_text.substr(start, m_pos - start)));
            if (out.text.empty())
                failArgument(m_what, "a value is missing at '" + std::string(m_text.substr(start, 24)) + "'");
        }
        --m_depth;
        return out;
    }

    void expect(char c)
    {
        skipBlanks();
        if (peek() != c)
            failArgument(m_what, std::string("expected '") + c + "' at '" +
                                     std::string(m_text.substr(m_pos, 24)) + "'");
        ++m_pos;
    }

    std::string_view m_text;
    std::string_view m_what;
    std::size_t m_pos = 0;
    int m_depth = 0;
};

// A value inside another: records in braces.
std::string inner(const ValueTree &v)
{
    return v.kind == ValueTree::Kind::Record ? "{" + toString(v) + "}" : toString(v);
}

std::size_t componentsOf(const ElementType &t)
{
    return t.isRaw() ? 1 : std::size_t(t.width);
}

// The values of an array field's elements, in order: nested per dimension ((1,2),(3,4)), flat (1,2,3,4),
// or, for vectors and complex numbers, their components flat (1,2,3,4,5,6,7,8 for float4[2]).
std::vector<ValueTree> arrayElements(const FieldLayout &f, const ValueTree &v, const std::string &what)
{
    const std::size_t n = f.elements();
    if (v.kind != ValueTree::Kind::List)
        failArgument(what, f.declaration() + " is an array: give its " + std::to_string(n) +
                               " elements as (A,B,...)");
    std::vector<ValueTree> out;
    const auto nested = [&](const auto &self, const ValueTree &at, std::size_t dim) -> bool {
        if (dim == f.dims.size()) {
            out.push_back(at);
            return true;
        }
        if (at.kind != ValueTree::Kind::List || at.items.size() != f.dims[dim])
            return false;
        for (const ValueTree &item : at.items) {
            if (!self(self, item, dim + 1))
                return false;
        }
        return true;
    };
    if (nested(nested, v, 0))
        return out;
    out.clear();
    if (v.items.size() == n)
        return v.items;
    if (f.element && !f.element->isRaw() && componentsOf(*f.element) > 1) {
        const std::size_t w = componentsOf(*f.element);
        const bool atoms = std::all_of(v.items.begin(), v.items.end(),
                                       [](const ValueTree &i) { return i.kind == ValueTree::Kind::Atom; });
        if (atoms && v.items.size() == n * w) {
            for (std::size_t e = 0; e < n; ++e) {
                ValueTree element;
                element.kind = ValueTree::Kind::List;
                element.items.assign(v.items.begin() + std::ptrdiff_t(e * w),
                                     v.items.begin() + std::ptrdiff_t((e + 1) * w));
                out.push_back(std::move(element));
            }
            return out;
        }
    }
    failArgument(what, f.declaration() + " needs " + std::to_string(n) + " elements, got " +
                           std::to_string(v.items.size()));
}

void encodeElement(const FieldLayout &f, const ValueTree &v, unsigned char *dest, const std::string &what)
{
    const std::size_t size = f.elementSize();
    if (f.nested) {
        if (v.kind != ValueTree::Kind::Record)
            failArgument(what, "give a struct value {FIELD=VALUE,...} for the " + f.nested->label() +
                                   " field (got '" + inner(v) + "')");
        const std::vector<unsigned char> bytes = encodeStruct(*f.nested, v, what);
        std::memcpy(dest, bytes.data(), std::min(size, bytes.size()));
        return;
    }
    const ElementType &type = *f.element;
    // A bool field (one byte on the device, Rodinia b+tree's is_leaf) takes true and false as C writes them.
    const bool isBool = f.type == "bool" || f.type == "_Bool";
    const auto atom = [&](const std::string &t) -> std::string {
        if (isBool && (t == "true" || t == "false"))
            return t == "true" ? "1" : "0";
        return t;
    };
    std::string text;
    if (v.kind == ValueTree::Kind::Record) {
        failArgument(what, "a struct value was given for the " + f.declaration() + " field");
    } else if (v.kind == ValueTree::Kind::List) {
        for (const ValueTree &item : v.items) {
            if (item.kind != ValueTree::Kind::Atom)
                failArgument(what, "'" + inner(v) + "' is not a value for the " + type.name() + " field");
            text += (text.empty() ? "" : ",") + atom(item.text);
        }
    } else {
        text = atom(v.text);
    }
    const std::vector<unsigned char> bytes = parseValue(text, type, what);
    std::memcpy(dest, bytes.data(), std::min(size, bytes.size()));
}

void encodeField(const FieldLayout &f, const ValueTree &v, unsigned char *dest, const std::string &what)
{
    if (f.dims.empty()) {
        encodeElement(f, v, dest, what);
        return;
    }
    const std::vector<ValueTree> elements = arrayElements(f, v, what);
    for (std::size_t i = 0; i < elements.size(); ++i)
        encodeElement(f, elements[i], dest + i * f.elementSize(), what + "[" + std::to_string(i) + "]");
}

std::string formatElement(const FieldLayout &f, const unsigned char *p)
{
    if (f.nested)
        return formatStruct(*f.nested, p);
    const ElementType &t = *f.element;
    if (t.isRaw()) {
        static constexpr char kHex[] = "0123456789abcdef";
        std::string out = "0x";
        for (std::size_t i = 0; i < t.rawSize; ++i) {
            out += kHex[p[i] >> 4];
            out += kHex[p[i] & 15];
        }
        return out;
    }
    const std::size_t component = scalarSize(t.scalar);
    if (t.complex)
        return formatComplex(toDouble(decodeNumber(t.scalar, p)),
                             toDouble(decodeNumber(t.scalar, p + component)), t.scalar);
    if (t.width == 1)
        return formatNumber(decodeNumber(t.scalar, p), t.scalar);
    std::string out = "(";
    for (int i = 0; i < t.width; ++i)
        out +=
            (i ? "," : "") + formatNumber(decodeNumber(t.scalar, p + std::size_t(i) * component), t.scalar);
    return out + ")";
}

std::string formatArray(const FieldLayout &f, const unsigned char *p, std::size_t dim, std::size_t &index)
{
    if (dim == f.dims.size())
        return formatElement(f, p + (index++) * f.elementSize());
    std::string out = "(";
    for (std::size_t i = 0; i < f.dims[dim]; ++i)
        out += (i ? "," : "") + formatArray(f, p, dim + 1, index);
    return out + ")";
}

} // namespace

ValueTree parseStructValue(std::string_view text, std::string_view what)
{
    std::string_view body = trimBlanks(text);
    ValueReader reader(body, what);
    if (reader.peek() == '{') {
        reader.advance();
        ValueTree out = reader.record('}');
        if (reader.peek() != '}')
            failArgument(what, "the '{' is not closed");
        reader.advance();
        reader.end();
        return out;
    }
    ValueTree out = reader.record('\0');
    reader.end();
    return out;
}

std::string toString(const ValueTree &value)
{
    switch (value.kind) {
    case ValueTree::Kind::Atom:
        return value.text;
    case ValueTree::Kind::List: {
        std::string out = "(";
        for (std::size_t i = 0; i < value.items.size(); ++i)
            out += (i ? "," : "") + inner(value.items[i]);
        return out + ")";
    }
    case ValueTree::Kind::Record:
        break;
    }
    std::string out;
    for (std::size_t i = 0; i < value.items.size(); ++i)
        out += (i ? "," : "") + value.items[i].name + "=" + inner(value.items[i]);
    return out;
}

std::vector<unsigned char> encodeStruct(const StructLayout &layout, const ValueTree &value,
                                        std::string_view what)
{
    if (value.kind != ValueTree::Kind::Record)
        failArgument(what, "give a struct value {FIELD=VALUE,...} for " + layout.label());
    std::vector<unsigned char> bytes(layout.size, 0);
    for (const ValueTree &item : value.items) {
        const FieldLayout *f = layout.field(item.name);
        if (!f)
            failArgument(what, layout.label() + " has no field '" + item.name +
                                   "' (fields: " + layout.fieldNames() + ")");
        if (f->offset + f->size > bytes.size())
            failArgument(what, "the field " + item.name + " lies outside " + layout.label());
        encodeField(*f, item, bytes.data() + f->offset, std::string(what) + "." + item.name);
    }
    return bytes;
}

std::string formatStruct(const StructLayout &layout, const unsigned char *bytes)
{
    std::string out = "{";
    for (std::size_t i = 0; i < layout.fields.size(); ++i) {
        const FieldLayout &f = layout.fields[i];
        std::size_t index = 0;
        out += (i ? "," : "") + f.name + "=" + formatArray(f, bytes + f.offset, 0, index);
    }
    return out + "}";
}

} // namespace clscope
