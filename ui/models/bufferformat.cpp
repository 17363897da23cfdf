// Formatting the typed bytes of a read-back buffer.
#include "bufferformat.h"

#include "clscope/structs.h"

#include <algorithm>

namespace clscope::ui {

namespace {

// Where a component is stored (3-vectors take 4 slots), as BufferData::number reads it.
std::size_t componentOffset(const BufferData &b, std::size_t component)
{
    if (b.type.isRaw())
        return component;
    const std::size_t width = std::size_t(b.type.width);
    return (component / width) * b.type.size() + (component % width) * scalarSize(b.type.scalar);
}

constexpr std::size_t kArrayColumns = 16; // elements of an array field shown one per column
constexpr std::size_t kMaxFieldColumns = 512;

void addFieldColumns(const StructLayout &layout, std::size_t base, const QString &prefix,
                     std::vector<FieldColumn> &out)
{
    for (const FieldLayout &f : layout.fields) {
        if (out.size() >= kMaxFieldColumns)
            return;
        const QString name = prefix + QString::fromStdString(f.name);
        const std::size_t n = f.elements();
        const std::size_t each = f.elementSize();
        const std::size_t shown = std::min(n, kArrayColumns);
        for (std::size_t i = 0; i < shown; ++i) {
            const QString label = f.dims.empty() ? name : name + QStringLiteral("[%1]").arg(i);
            const std::size_t at = base + f.offset + i * each;
            if (f.nested) {
                // An anonymous member's fields belong to the parent.
                addFieldColumns(*f.nested, at, f.name.empty() ? prefix : label + u'.', out);
            } else if (f.element && !f.element->isRaw() && f.opaque.empty()) {
                const ElementType &e = *f.element;
                const std::size_t scalar = scalarSize(e.scalar);
                if (e.complex)
                    out.push_back({label, at, 2 * scalar, e.scalar, true});
                else if (e.width == 1)
                    out.push_back({label, at, scalar, e.scalar, false});
                else
                    for (int c = 0; c < e.width; ++c)
                        out.push_back({label + u'.' + componentName(c, e.width), at + std::size_t(c) * scalar,
                                       scalar, e.scalar, false});
            } else {
                out.push_back({label, at, each, ScalarKind::Bytes, false});
            }
        }
        if (n > shown)
            out.push_back({name + QStringLiteral("[%1..%2]").arg(shown).arg(n - 1),
                           base + f.offset + shown * each, (n - shown) * each, ScalarKind::Bytes, false});
    }
}
} // namespace

QString componentName(int component, int width)
{
    static const char kNames[] = "xyzw";
    return width <= 4 ? QString(QChar::fromLatin1(kNames[component]))
                      : QStringLiteral("s%1").arg(component, 0, 16);
}

std::vector<FieldColumn> fieldColumns(const StructLayout &layout)
{
    std::vector<FieldColumn> out;
    addFieldColumns(layout, 0, QString(), out);
    return out;
}

QString hexBits(const BufferData &buffer, std::size_t component)
{
    const std::size_t size = buffer.type.isRaw() ? 1 : scalarSize(buffer.type.scalar);
    const std::size_t offset = componentOffset(buffer, component);
    if (offset + size > buffer.bytes.size())
        return {};
    std::uint64_t bits = 0;
    // Little-endian as stored on the host: the low byte first.
    for (std::size_t i = 0; i < size; ++i)
        bits |= std::uint64_t(buffer.bytes[offset + i]) << (8 * i);
    return QStringLiteral("0x%1").arg(bits, int(size * 2), 16, QLatin1Char('0'));
}

QString formatComponent(const BufferData &buffer, std::size_t component, NumberFormat format)
{
    const Number n = buffer.number(component);
    const ScalarKind kind = buffer.type.scalar;
    switch (format) {
    case NumberFormat::Hex:
        // The stored bits: what a float is made of, and two's complement for negative integers.
        return hexBits(buffer, component);
    case NumberFormat::Scientific:
        return QString::number(toDouble(n), 'e', kind == ScalarKind::Double ? 15 : 7);
    case NumberFormat::Decimal:
        break;
    }
    return QString::fromStdString(formatNumber(n, kind));
}

QString formatField(const BufferData &buffer, std::size_t element, const FieldColumn &field,
                    NumberFormat format)
{
    const std::size_t at = element * buffer.type.size() + field.offset;
    if (at + field.size > buffer.bytes.size())
        return {};
    const unsigned char *p = buffer.bytes.data() + at;
    if (field.scalar == ScalarKind::Bytes || format == NumberFormat::Hex) {
        // Stored bytes, most significant first for a number (as hexBits writes it), in memory order for
        // opaque bytes.
        QString hex = field.scalar == ScalarKind::Bytes ? QString() : QStringLiteral("0x");
        const std::size_t shown = std::min<std::size_t>(field.size, 32);
        for (std::size_t i = 0; i < shown; ++i) {
            const unsigned char b = field.scalar == ScalarKind::Bytes ? p[i] : p[field.size - 1 - i];
            hex += QStringLiteral("%1").arg(b, 2, 16, QChar(u'0'));
        }
        return shown < field.size ? hex + QStringLiteral("…") : hex;
    }
    if (field.complex) {
        const std::size_t part = field.size / 2;
        return QString::fromStdString(formatComplex(toDouble(decodeNumber(field.scalar, p)),
                                                    toDouble(decodeNumber(field.scalar, p + part)),
                                                    field.scalar));
    }
    const Number n = decodeNumber(field.scalar, p);
    if (format == NumberFormat::Scientific)
        return QString::number(toDouble(n), 'e', field.scalar == ScalarKind::Double ? 15 : 7);
    return QString::fromStdString(formatNumber(n, field.scalar));
}

} // namespace clscope::ui
