// Buffers of structs as structured .npy arrays: written with the device's offsets (numpy's list form,
// padding as void fields, so that np.load gives a dtype whose offsets and itemsize equal the device's,
// as pyopencl's match_dtype_to_c_struct makes them), and read by field name into the device's layout.
#include "clscope/checkedmath.h"
#include "clscope/npy.h"
#include "clscope/structs.h"

#include "runinternal.h"

#include <algorithm>
#include <cstring>

namespace clscope {
namespace {

using detail::shapeText;

// "<f4 (3,)", "|V8", "a struct": what a field of the file holds, for messages.
std::string fieldText(const NpyField &f)
{
    std::string out = !f.fields.empty() ? std::string("a struct")
                      : f.voidSize      ? "|V" + std::to_string(f.voidSize)
                                        : npyDescr(f.dtype, f.complex).value_or("?");
    return f.shape.empty() ? out : out + " " + shapeText(f.shape);
}

// A trailing void field so that a nested record is as long as the device's struct.
void padTo(std::vector<NpyField> &fields, std::size_t size)
{
    std::size_t end = 0;
    for (const NpyField &f : fields)
        end = std::max(end, f.offset + f.size());
    if (end < size) {
        NpyField pad;
        pad.voidSize = size - end;
        pad.offset = end;
        fields.push_back(std::move(pad));
    }
}

std::optional<std::vector<NpyField>> fieldsOf(const StructLayout &layout);

NpyField fieldOf(const FieldLayout &f)
{
    NpyField n;
    n.name = f.name;
    n.offset = f.offset;
    n.shape = f.dims;
    if (f.nested) {
        auto inner = f.nested->isUnion ? std::nullopt : fieldsOf(*f.nested);
        if (!inner) {
            n.voidSize = f.elementSize();
            return n;
        }
        n.fields = std::move(*inner);
        return n;
    }
    const ElementType &t = *f.element;
    if (t.isRaw()) {
        n.voidSize = f.elementSize();
        return n;
    }
    n.dtype = t.scalar;
    n.complex = t.complex;
    if (!t.complex && t.width > 1)
        n.shape.push_back(std::size_t(t.width == 3 && f.dims.empty() ? 3 : t.storedWidth()));
    return n;
}

// Nothing when fields overlap (a union inside): numpy's list form cannot say that.
std::optional<std::vector<NpyField>> fieldsOf(const StructLayout &layout)
{
    std::vector<NpyField> out;
    for (const FieldLayout &f : layout.fields)
        out.push_back(fieldOf(f));
    std::vector<const NpyField *> sorted;
    for (const NpyField &f : out)
        sorted.push_back(&f);
    std::sort(sorted.begin(), sorted.end(),
              [](const NpyField *a, const NpyField *b) { return a->offset < b->offset; });
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        if (sorted[i]->offset < sorted[i - 1]->offset + sorted[i - 1]->size())
            return std::nullopt;
    }
    padTo(out, layout.size);
    return out;
}

void copyRecord(const std::vector<NpyField> &fields, const StructLayout &layout, const unsigned char *src,
                unsigned char *dst, const std::string &path);

void copyField(const NpyField &nf, const FieldLayout &lf, const unsigned char *src, unsigned char *dst,
               const std::string &path, const StructLayout &owner)
{
    const std::string theirs = "the field " + path + " is " + fieldText(nf) + " in the file, but " + lf.name +
                               " of " + owner.label() + " is " + lf.declaration();
    if (lf.nested && !lf.nested->isUnion) {
        if (nf.fields.empty() || nf.elements() != lf.elements())
            throw NpyError(theirs);
        for (std::size_t e = 0; e < lf.elements(); ++e)
            copyRecord(nf.fields, *lf.nested, src + e * nf.elementSize(), dst + e * lf.elementSize(),
                       path + ".");
        return;
    }
    if (lf.nested || lf.element->isRaw()) {
        if (nf.size() != lf.size)
            throw NpyError(theirs + " (" + std::to_string(nf.size()) + " bytes there, " +
                           std::to_string(lf.size) + " here)");
        std::memcpy(dst, src, lf.size);
        return;
    }
    const ElementType &t = *lf.element;
    if (!nf.fields.empty() || nf.voidSize || nf.dtype != t.scalar || nf.complex != t.complex)
        throw NpyError(theirs + " (" + npyDescr(t.scalar, t.complex).value_or("?") + ")");
    // Complex numbers are one value each in the file; vectors are their components (3 or 4 for a 3-vector).
    const std::size_t width = t.complex ? 1 : std::size_t(t.width);
    const std::size_t stored = t.complex ? 1 : std::size_t(t.storedWidth());
    const std::size_t component = scalarSize(t.scalar) * (t.complex ? 2 : 1);
    const std::size_t n = lf.elements();
    const std::size_t total = nf.elements();
    const std::size_t step = total == n * width ? width : total == n * stored ? stored : 0;
    if (step == 0)
        throw NpyError(theirs + " (" + std::to_string(n * width) + " values)");
    for (std::size_t e = 0; e < n; ++e) {
        for (std::size_t c = 0; c < width; ++c)
            std::memcpy(dst + e * lf.elementSize() + c * component, src + (e * step + c) * component,
                        component);
    }
}

void copyRecord(const std::vector<NpyField> &fields, const StructLayout &layout, const unsigned char *src,
                unsigned char *dst, const std::string &path)
{
    for (const NpyField &nf : fields) {
        if (nf.name.empty())
            continue; // padding
        const FieldLayout *lf = layout.field(nf.name);
        if (!lf)
            throw NpyError("the field " + path + nf.name + " of the file is not a field of " +
                           layout.label() + " (fields: " + layout.fieldNames() + ")");
        copyField(nf, *lf, src + nf.offset, dst + lf->offset, path + nf.name, layout);
    }
}

} // namespace

namespace detail {

NpyArray structsToNpy(const BufferData &buffer)
{
    const StructLayout &layout = *buffer.layout;
    NpyArray array;
    const std::size_t size = layout.size;
    const std::size_t elements = size ? std::min(buffer.count, buffer.bytes.size() / size) : 0;
    array.data.assign(buffer.bytes.begin(), buffer.bytes.begin() + std::ptrdiff_t(elements * size));
    if (auto fields = fieldsOf(layout); fields && size) {
        array.fields = std::move(*fields);
        array.recordSize = size;
        array.shape = {elements};
    } else {
        array.dtype = ScalarKind::UChar;
        array.shape = {elements, size};
    }
    return array;
}

} // namespace detail

std::vector<unsigned char> fromNpyStructs(const NpyArray &array, const StructLayout &layout,
                                          std::size_t count)
{
    const auto total = checkedMul<std::size_t>(count, layout.size);
    if (!total)
        throw NpyError("a buffer of " + std::to_string(count) + " " + layout.label() + " is too large");
    if (array.fields.empty()) {
        if ((array.dtype == ScalarKind::UChar || array.dtype == ScalarKind::Char) && !array.complex &&
            array.data.size() == *total)
            return array.data;
        throw NpyError("a buffer of " + layout.label() + " needs a structured dtype with its fields (" +
                       layout.fieldNames() + "), or uint8 bytes of its size, not " + array.descr());
    }
    if (array.valueCount() != count)
        throw NpyError("shape " + shapeText(array.shape) + " holds " + std::to_string(array.valueCount()) +
                       " records, the buffer needs " + std::to_string(count) + " (" + std::to_string(count) +
                       " " + layout.label() + ")");
    std::vector<unsigned char> out(*total, 0);
    for (std::size_t i = 0; i < count; ++i)
        copyRecord(array.fields, layout, array.data.data() + i * array.recordSize,
                   out.data() + i * layout.size, "");
    return out;
}

} // namespace clscope
