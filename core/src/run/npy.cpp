// NumPy .npy reading and writing: the magic, the version, the Python-literal header dict ('descr',
// 'fortran_order', 'shape') and the C-order little-endian body, byte for byte as numpy.save writes it.
#include "clscope/npy.h"
#include "clscope/imagedata.h"

#include "clscope/checkedmath.h"
#include "clscope/fileio.h"
#include "clscope/structs.h"

#include "runinternal.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace clscope {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kAlign = 64; // numpy aligns the data to 64 bytes since 1.14

struct DescrInfo
{
    ScalarKind kind;
    std::string_view code; // without the byte-order character
};

constexpr DescrInfo kDescrs[] = {
    {ScalarKind::Char, "i1"},   {ScalarKind::UChar, "u1"},  {ScalarKind::Short, "i2"},
    {ScalarKind::UShort, "u2"}, {ScalarKind::Int, "i4"},    {ScalarKind::UInt, "u4"},
    {ScalarKind::Long, "i8"},   {ScalarKind::ULong, "u8"},  {ScalarKind::Half, "f2"},
    {ScalarKind::Float, "f4"},  {ScalarKind::Double, "f8"},
};

struct Code
{
    ScalarKind kind = ScalarKind::UChar;
    bool complex = false;
    std::size_t voidSize = 0; // '|VN'
};

// '<f4', '|u1', '<c8', '|V12'; nothing for big-endian and anything else.
std::optional<Code> parseCode(std::string_view descr)
{
    if (descr.size() >= 3 && descr[0] == '|' && descr[1] == 'V') {
        std::size_t n = 0;
        const auto [end, ec] = std::from_chars(descr.data() + 2, descr.data() + descr.size(), n);
        if (ec != std::errc() || end != descr.data() + descr.size() || n == 0)
            return std::nullopt;
        return Code{ScalarKind::UChar, false, n};
    }
    // numpy's bool: one byte, 0 or 1, as OpenCL C's bool in a struct (Rodinia b+tree's is_leaf).
    if (descr == "|b1")
        return Code{ScalarKind::UChar, false, 0};
    if (descr == "<c8" || descr == "=c8")
        return Code{ScalarKind::Float, true, 0};
    if (descr == "<c16" || descr == "=c16")
        return Code{ScalarKind::Double, true, 0};
    if (const auto kind = scalarFromDescr(descr))
        return Code{*kind, false, 0};
    return std::nullopt;
}

using detail::shapeText;

// A reader for the one Python literal numpy writes: a dict of strings, booleans and tuples of integers.
class HeaderParser
{
public:
    explicit HeaderParser(std::string_view text)
        : m_text(text)
    {}

    NpyArray parse()
    {
        NpyArray out;
        bool haveDescr = false, haveShape = false, haveOrder = false, fortran = false;
        expect('{');
        while (true) {
            skipSpace();
            if (peek() == '}')
                break;
            const std::string key = string();
            expect(':');
            skipSpace();
            if (key == "descr") {
                if (peek() == '[') {
                    out.fields = fieldList(out.recordSize);
                    if (out.recordSize == 0)
                        throw NpyError("a structured dtype without fields is not supported");
                } else {
                    const std::string descr = string();
                    const auto code = parseCode(descr);
                    if (!code || code->voidSize)
                        throw NpyError(descr.starts_with('>')
                                           ? "big-endian dtype '" + descr + "' is not supported"
                                           : "dtype '" + descr + "' is not supported");
                    out.dtype = code->kind;
                    out.complex = code->complex;
                }
                haveDescr = true;
            } else if (key == "fortran_order") {
                fortran = boolean();
                haveOrder = true;
            } else if (key == "shape") {
                out.shape = tuple();
                haveShape = true;
            } else {
                throw NpyError("unexpected key '" + key + "' in the header");
            }
            skipSpace();
            if (peek() == ',')
                ++m_pos;
        }
        if (!haveDescr || !haveShape || !haveOrder)
            throw NpyError("the header lacks descr, fortran_order or shape");
        // Fortran and C order only differ when two dimensions have more than one value.
        std::size_t bigDims = 0;
        for (std::size_t d : out.shape)
            bigDims += d > 1;
        if (fortran && bigDims > 1)
            throw NpyError(
                "Fortran-order arrays are not supported (save a C-order copy: np.ascontiguousarray)");
        return out;
    }

private:
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }

    // [('x', '<f4'), ('v', '<f4', (4,)), ('inner', [...]), ('', '|V4')]: fields one after another.
    std::vector<NpyField> fieldList(std::size_t &recordSize, int depth = 0)
    {
        if (depth > 16)
            throw NpyError("the structured dtype is nested too deeply");
        std::vector<NpyField> out;
        std::size_t offset = 0;
        expect('[');
        while (true) {
            skipSpace();
            if (peek() == ']') {
                ++m_pos;
                break;
            }
            expect('(');
            NpyField f;
            f.name = string();
            expect(',');
            skipSpace();
            if (peek() == '[') {
                std::size_t inner = 0;
                f.fields = fieldList(inner, depth + 1);
                if (inner == 0)
                    throw NpyError("the field '" + f.name + "' has no fields");
            } else {
                const std::string descr = string();
                const auto code = parseCode(descr);
                if (!code)
                    throw NpyError("dtype '" + descr + "' of the field '" + f.name + "' is not supported");
                f.dtype = code->kind;
                f.complex = code->complex;
                f.voidSize = code->voidSize;
            }
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                skipSpace();
                if (peek() == '(')
                    f.shape = tuple();
            }
            expect(')');
            f.offset = offset;
            const auto size = checkedMul<std::size_t>(
                f.elementSize(), checkedProduct<std::size_t>(f.shape).value_or(SIZE_MAX));
            if (!size || !checkedAdd<std::size_t>(offset, *size))
                throw NpyError("the field '" + f.name + "' is too large");
            offset += *size;
            out.push_back(std::move(f));
            skipSpace();
            if (peek() == ',')
                ++m_pos;
        }
        recordSize = offset;
        return out;
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n'))
            ++m_pos;
    }

    void expect(char c)
    {
        skipSpace();
        if (peek() != c)
            throw NpyError(std::string("malformed header: expected '") + c + "' at offset " +
                           std::to_string(m_pos));
        ++m_pos;
    }

    std::string string()
    {
        skipSpace();
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            throw NpyError("malformed header: expected a string at offset " + std::to_string(m_pos));
        const std::size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string_view::npos)
            throw NpyError("malformed header: unterminated string");
        std::string s(m_text.substr(m_pos + 1, end - m_pos - 1));
        m_pos = end + 1;
        return s;
    }

    bool boolean()
    {
        if (m_text.substr(m_pos, 4) == "True") {
            m_pos += 4;
            return true;
        }
        if (m_text.substr(m_pos, 5) == "False") {
            m_pos += 5;
            return false;
        }
        throw NpyError("malformed header: fortran_order is not True or False");
    }

    std::vector<std::size_t> tuple()
    {
        std::vector<std::size_t> out;
        expect('(');
        while (true) {
            skipSpace();
            if (peek() == ')') {
                ++m_pos;
                return out;
            }
            std::size_t value = 0;
            bool digits = false;
            while (peek() >= '0' && peek() <= '9') {
                const std::size_t digit = std::size_t(peek() - '0');
                if (value > (SIZE_MAX - digit) / 10)
                    throw NpyError("malformed header: a dimension is too large");
                value = value * 10 + digit;
                digits = true;
                ++m_pos;
            }
            if (!digits)
                throw NpyError("malformed header: shape is not a tuple of sizes");
            if (peek() == 'L') // Python 2 wrote longs with a suffix
                ++m_pos;
            out.push_back(value);
            skipSpace();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != ')')
                throw NpyError("malformed header: shape is not a tuple of sizes");
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

std::size_t shapeProduct(const std::vector<std::size_t> &shape)
{
    // A zero anywhere makes an empty array however large the other dimensions are.
    if (std::find(shape.begin(), shape.end(), std::size_t(0)) != shape.end())
        return 0;
    const auto n = checkedProduct<std::size_t>(shape);
    if (!n)
        throw NpyError("shape " + shapeText(shape) + " is too large");
    return *n;
}

} // namespace

std::size_t NpyArray::valueCount() const
{
    return shapeProduct(shape);
}

std::size_t NpyArray::valueSize() const
{
    if (!fields.empty())
        return recordSize;
    return scalarSize(dtype) * (complex ? 2 : 1);
}

std::size_t NpyField::elementSize() const
{
    if (!fields.empty()) {
        std::size_t end = 0;
        for (const NpyField &f : fields)
            end = std::max(end, f.offset + f.size());
        return end;
    }
    if (voidSize)
        return voidSize;
    return scalarSize(dtype) * (complex ? 2 : 1);
}

std::size_t NpyField::elements() const
{
    return checkedProduct<std::size_t>(shape).value_or(0);
}

namespace {

std::string fieldsDescr(const std::vector<NpyField> &fields, std::size_t size)
{
    std::vector<const NpyField *> sorted;
    for (const NpyField &f : fields)
        sorted.push_back(&f);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const NpyField *a, const NpyField *b) { return a->offset < b->offset; });
    std::string out = "[";
    std::size_t pos = 0;
    const auto item = [&](const std::string &text) { out += (out.size() > 1 ? ", " : "") + text; };
    for (const NpyField *f : sorted) {
        if (f->offset < pos)
            throw NpyError("the fields " + f->name +
                           " and the one before it overlap (numpy's list form has "
                           "no unions)");
        if (f->offset > pos)
            item("('', '|V" + std::to_string(f->offset - pos) + "')");
        std::string format;
        if (!f->fields.empty())
            format = fieldsDescr(f->fields, f->elementSize());
        else if (f->voidSize)
            format = "'|V" + std::to_string(f->voidSize) + "'";
        else
            format = "'" + *npyDescr(f->dtype, f->complex) + "'";
        item("('" + f->name + "', " + format +
             (f->shape.empty() ? std::string() : ", " + shapeText(f->shape)) + ")");
        pos = f->offset + f->size();
    }
    if (pos < size)
        item("('', '|V" + std::to_string(size - pos) + "')");
    return out + "]";
}

} // namespace

std::string NpyArray::descr() const
{
    if (!fields.empty())
        return fieldsDescr(fields, recordSize);
    const auto d = npyDescr(dtype, complex);
    if (!d)
        throw NpyError("raw bytes have no .npy dtype");
    return "'" + *d + "'";
}

std::optional<std::string> npyDescr(ScalarKind kind, bool complex)
{
    if (complex && kind == ScalarKind::Float)
        return std::string("<c8");
    if (complex && kind == ScalarKind::Double)
        return std::string("<c16");
    if (complex)
        return std::nullopt;
    return npyDescr(kind);
}

std::optional<std::string> npyDescr(ScalarKind kind)
{
    for (const DescrInfo &d : kDescrs) {
        if (d.kind == kind)
            return std::string(scalarSize(kind) == 1 ? "|" : "<") + std::string(d.code);
    }
    return std::nullopt;
}

std::optional<ScalarKind> scalarFromDescr(std::string_view descr)
{
    if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '='))
        return std::nullopt;
    for (const DescrInfo &d : kDescrs) {
        // '|' (not applicable) only fits one-byte types; '<' and '=' (native: little-endian hosts) fit all.
        if (d.code == descr.substr(1) && (descr[0] != '|' || scalarSize(d.kind) == 1))
            return d.kind;
    }
    return std::nullopt;
}

NpyArray parseNpy(std::string_view bytes)
{
    if (bytes.size() < 10 || bytes.substr(0, kMagic.size()) != kMagic)
        throw NpyError("not an .npy file (no \\x93NUMPY magic)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    const auto minor = static_cast<unsigned char>(bytes[7]);
    std::size_t headerLength = 0, headerStart = 0;
    if (major == 1) {
        headerLength = std::size_t(static_cast<unsigned char>(bytes[8])) |
                       std::size_t(static_cast<unsigned char>(bytes[9])) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) { // 3.0 differs from 2.0 only in allowing UTF-8 in the header
        if (bytes.size() < 12)
            throw NpyError("truncated .npy header");
        for (int i = 0; i < 4; ++i)
            headerLength |= std::size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
        headerStart = 12;
    } else {
        throw NpyError("unsupported .npy format version " + std::to_string(major) + "." +
                       std::to_string(minor));
    }
    if (bytes.size() < headerStart + headerLength)
        throw NpyError("truncated .npy header");
    NpyArray array = HeaderParser(bytes.substr(headerStart, headerLength)).parse();
    const std::string_view body = bytes.substr(headerStart + headerLength);
    const std::size_t values = array.valueCount();
    const auto checkedBytes = checkedMul<std::size_t>(values, array.valueSize());
    if (!checkedBytes)
        throw NpyError("shape " + shapeText(array.shape) + " is too large");
    const std::size_t expected = *checkedBytes;
    if (body.size() != expected)
        throw NpyError("data has " + std::to_string(body.size()) + " bytes, shape " + shapeText(array.shape) +
                       " of " +
                       (array.fields.empty() ? *npyDescr(array.dtype, array.complex)
                                             : std::to_string(array.recordSize) + "-byte records") +
                       " needs " + std::to_string(expected));
    array.data.assign(body.begin(), body.end());
    return array;
}

NpyArray readNpyFile(const std::string &path)
{
    std::string bytes;
    try {
        bytes = readRegularFile(path, kMaxDataFileBytes);
    } catch (const FileError &e) {
        throw NpyError(e.what());
    }
    return parseNpy(bytes);
}

std::string encodeNpy(const NpyArray &array)
{
    const std::string descr = array.descr();
    if (array.data.size() != array.valueCount() * array.valueSize())
        throw NpyError("data has " + std::to_string(array.data.size()) + " bytes, shape " +
                       shapeText(array.shape) + " of " +
                       (array.fields.empty() ? *npyDescr(array.dtype, array.complex)
                                             : std::to_string(array.recordSize) + "-byte records") +
                       " needs " + std::to_string(array.valueCount() * array.valueSize()));
    const std::string dict =
        "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shapeText(array.shape) + ", }";
    // numpy's padding: spaces and a newline so that the data starts on a 64-byte boundary.
    auto header = [&](std::size_t lengthBytes) {
        const std::size_t used = kMagic.size() + 2 + lengthBytes + dict.size() + 1;
        return dict + std::string(kAlign - used % kAlign, ' ') + '\n';
    };
    std::string h = header(2);
    std::string out(kMagic);
    if (h.size() <= 0xffff) {
        out += '\x01';
        out += '\x00';
        out += char(h.size() & 0xff);
        out += char(h.size() >> 8);
    } else {
        h = header(4);
        out += '\x02';
        out += '\x00';
        for (int i = 0; i < 4; ++i)
            out += char((h.size() >> (8 * i)) & 0xff);
    }
    out += h;
    out.append(reinterpret_cast<const char *>(array.data.data()), array.data.size());
    return out;
}

void writeNpyFile(const std::string &path, const NpyArray &array)
{
    const std::string bytes = encodeNpy(array);
    try {
        writeWholeFile(path, bytes);
    } catch (const FileError &e) {
        throw NpyError(e.what());
    }
}

NpyArray toNpy(const BufferData &buffer)
{
    NpyArray array;
    if (buffer.image)
        return imageToNpy(buffer);
    if (buffer.layout && !buffer.layout->isUnion && buffer.type.isRaw())
        return detail::structsToNpy(buffer);
    if (buffer.type.complex) {
        const std::size_t elements = std::min(buffer.count, buffer.bytes.size() / buffer.type.size());
        array.dtype = buffer.type.scalar;
        array.complex = true;
        array.shape = {elements};
        array.data.assign(buffer.bytes.begin(),
                          buffer.bytes.begin() + std::ptrdiff_t(elements * buffer.type.size()));
        return array;
    }
    if (buffer.type.isRaw()) {
        array.dtype = ScalarKind::UChar;
        array.shape = {buffer.count, buffer.type.rawSize};
        array.data.assign(
            buffer.bytes.begin(),
            buffer.bytes.begin() +
                std::ptrdiff_t(std::min(buffer.bytes.size(), buffer.count * buffer.type.rawSize)));
        return array;
    }
    const std::size_t width = std::size_t(buffer.type.width);
    const std::size_t component = scalarSize(buffer.type.scalar);
    const std::size_t elements = std::min(buffer.count, buffer.bytes.size() / buffer.type.size());
    array.dtype = buffer.type.scalar;
    array.shape = width == 1 ? std::vector<std::size_t>{elements} : std::vector<std::size_t>{elements, width};
    array.data.resize(elements * width * component);
    // 3-vectors leave their padding component out.
    for (std::size_t e = 0; e < elements; ++e)
        std::memcpy(array.data.data() + e * width * component, buffer.bytes.data() + e * buffer.type.size(),
                    width * component);
    return array;
}

namespace {

// A plain float32 (float64) array for cfloat_t (cdouble_t), whose last dimension is the real and the
// imaginary part, as pyopencl programs that treat cfloat_t as the float2 it is save them.
bool pairOfReals(const NpyArray &array, const ElementType &type)
{
    return type.complex && !array.complex && !array.shape.empty() && array.shape.back() == 2;
}

} // namespace

std::vector<unsigned char> fromNpy(const NpyArray &array, const ElementType &type, std::size_t count)
{
    if (!checkedMul<std::size_t>(count, type.size()))
        throw NpyError("a buffer of " + std::to_string(count) + " " + type.name() + " is too large");
    if (type.isRaw()) {
        if (array.data.size() != count * type.rawSize)
            throw NpyError("data has " + std::to_string(array.data.size()) + " bytes, the buffer needs " +
                           std::to_string(count * type.rawSize) + " (" + std::to_string(count) + " " +
                           type.name() + ")");
        return array.data;
    }
    if (!array.fields.empty())
        throw NpyError("a structured dtype " + array.descr() + " does not match " + type.name() + " (" +
                       *npyDescr(type.scalar, type.complex) + ")");
    if (array.dtype != type.scalar || (array.complex != type.complex && !pairOfReals(array, type)))
        throw NpyError("dtype " + *npyDescr(array.dtype, array.complex) + " does not match " + type.name() +
                       " (" + *npyDescr(type.scalar, type.complex) + ")");
    if (type.complex && !array.complex) {
        // cfloat_t is float2 (pyopencl-complex.h's typedef): float32 of shape (N, 2) is N of them.
        if (array.valueCount() != count * 2)
            throw NpyError("shape " + shapeText(array.shape) + " holds " +
                           std::to_string(array.valueCount()) + " values, the buffer needs " +
                           std::to_string(count * 2) + " (" + std::to_string(count) + " " + type.name() +
                           " as real and imaginary parts)");
        return array.data;
    }
    if (type.complex) {
        if (array.valueCount() != count)
            throw NpyError("shape " + shapeText(array.shape) + " holds " +
                           std::to_string(array.valueCount()) + " values, the buffer needs " +
                           std::to_string(count) + " (" + std::to_string(count) + " " + type.name() + ")");
        return array.data;
    }
    const std::size_t width = std::size_t(type.width);
    if (array.valueCount() != count * width)
        throw NpyError("shape " + shapeText(array.shape) + " holds " + std::to_string(array.valueCount()) +
                       " values, the buffer needs " + std::to_string(count * width) + " (" +
                       std::to_string(count) + " " + type.name() + ")");
    if (type.storedWidth() == type.width)
        return array.data;
    const std::size_t component = scalarSize(type.scalar);
    std::vector<unsigned char> out(count * type.size(), 0);
    for (std::size_t e = 0; e < count; ++e)
        std::memcpy(out.data() + e * type.size(), array.data.data() + e * width * component,
                    width * component);
    return out;
}

} // namespace clscope
