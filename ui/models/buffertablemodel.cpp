// Buffer table model, summary statistics and export.
#include "buffertablemodel.h"

#include "clscope/imagedata.h"
#include "clscope/npy.h"
#include "clscope/structs.h"
#include "files/safewrite.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

namespace {
int componentsPerElement(const BufferData &b)
{
    if (b.type.isRaw())
        return static_cast<int>(b.type.rawSize);
    return b.type.width;
}

// Where a component is stored (3-vectors take 4 slots), as BufferData::number reads it.
std::size_t componentOffset(const BufferData &b, std::size_t component)
{
    if (b.type.isRaw())
        return component;
    const std::size_t width = std::size_t(b.type.width);
    return (component / width) * b.type.size() + (component % width) * scalarSize(b.type.scalar);
}

constexpr int kMaxRows = std::numeric_limits<int>::max();
constexpr std::size_t kArrayColumns = 16; // elements of an array field shown one per column
constexpr std::size_t kMaxFieldColumns = 512;

QString componentName(int c, int width)
{
    static const char kNames[] = "xyzw";
    return width <= 4 ? QString(QChar::fromLatin1(kNames[c])) : QStringLiteral("s%1").arg(c, 0, 16);
}

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

BufferSummary summarize(const BufferData &buffer)
{
    BufferSummary s;
    double sum = 0;
    s.min = std::numeric_limits<double>::infinity();
    s.max = -std::numeric_limits<double>::infinity();
    const std::size_t n = buffer.componentCount();
    for (std::size_t i = 0; i < n; ++i) {
        const double v = buffer.value(i);
        if (std::isnan(v)) {
            ++s.nanCount;
        } else if (std::isinf(v)) {
            ++s.infCount;
        } else {
            s.min = std::min(s.min, v);
            s.max = std::max(s.max, v);
            sum += v;
            ++s.count;
        }
    }
    if (s.count == 0) {
        s.min = s.max = 0;
    } else {
        s.mean = sum / double(s.count);
    }
    return s;
}

std::vector<FieldColumn> fieldColumns(const StructLayout &layout)
{
    std::vector<FieldColumn> out;
    addFieldColumns(layout, 0, QString(), out);
    return out;
}

BufferTableModel::BufferTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void BufferTableModel::resetColumns()
{
    m_components = std::max(1, componentsPerElement(m_buffer));
    m_fields.clear();
    if (m_buffer.layout && m_rowWidth == 0 && m_buffer.type.isRaw() &&
        m_buffer.type.rawSize == m_buffer.layout->size)
        m_fields = fieldColumns(*m_buffer.layout);
    if (!m_fields.empty())
        m_columns = int(m_fields.size());
    else if (m_rowWidth > 0)
        m_columns = static_cast<int>(std::min<std::size_t>(m_rowWidth, kMaxRows));
    else
        m_columns = m_components;
}

void BufferTableModel::setBuffer(BufferData buffer)
{
    beginResetModel();
    m_buffer = std::move(buffer);
    m_other = {};
    m_differs.clear();
    resetColumns();
    endResetModel();
}

void BufferTableModel::setRowWidth(std::size_t rowWidth)
{
    if (rowWidth == m_rowWidth)
        return;
    beginResetModel();
    m_rowWidth = rowWidth;
    resetColumns();
    endResetModel();
}

void BufferTableModel::setComparison(BufferData other, std::vector<bool> differs)
{
    m_other = std::move(other);
    m_differs = std::move(differs);
    m_differs.resize(m_buffer.componentCount(), false);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                         {Qt::BackgroundRole, Qt::ToolTipRole});
}

void BufferTableModel::clearComparison()
{
    if (m_differs.empty())
        return;
    m_other = {};
    m_differs.clear();
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                         {Qt::BackgroundRole, Qt::ToolTipRole});
}

bool BufferTableModel::componentDiffers(std::size_t component) const
{
    return component < m_differs.size() && m_differs[component];
}

bool BufferTableModel::elementDiffers(std::size_t element) const
{
    const std::size_t first = element * std::size_t(m_components);
    for (std::size_t c = first; c < first + std::size_t(m_components); ++c) {
        if (componentDiffers(c))
            return true;
    }
    return false;
}

QModelIndex BufferTableModel::indexOfComponent(std::size_t component) const
{
    if (component >= m_buffer.componentCount())
        return {};
    std::size_t row = 0;
    std::size_t column = 0;
    if (!m_fields.empty()) {
        row = component / std::size_t(m_components);
        const std::size_t byte = component % std::size_t(m_components);
        for (std::size_t i = 0; i < m_fields.size(); ++i) {
            if (byte >= m_fields[i].offset && byte < m_fields[i].offset + m_fields[i].size) {
                column = i;
                break;
            }
        }
    } else if (m_rowWidth > 0) {
        const std::size_t element = component / std::size_t(m_components);
        row = element / m_rowWidth;
        column = element % m_rowWidth;
    } else {
        row = component / std::size_t(m_columns);
        column = component % std::size_t(m_columns);
    }
    if (row >= std::size_t(rowCount()) || column >= std::size_t(m_columns))
        return {};
    return index(int(row), int(column));
}

std::optional<std::size_t> BufferTableModel::componentAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return std::nullopt;
    if (!m_fields.empty()) {
        if (index.column() >= int(m_fields.size()))
            return std::nullopt;
        const std::size_t component =
            std::size_t(index.row()) * std::size_t(m_components) + m_fields[size_t(index.column())].offset;
        if (component >= m_buffer.componentCount())
            return std::nullopt;
        return component;
    }
    const std::size_t component =
        m_rowWidth > 0 ? (std::size_t(index.row()) * m_rowWidth + std::size_t(index.column())) *
                             std::size_t(m_components)
                       : std::size_t(index.row()) * std::size_t(m_columns) + std::size_t(index.column());
    if (component >= m_buffer.componentCount())
        return std::nullopt;
    return component;
}

void BufferTableModel::setFormat(NumberFormat format)
{
    m_format = format;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
}

int BufferTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    // Views address rows with int: beyond that the table shows the first 2^31-1 rows.
    const std::size_t rows = m_rowWidth > 0 ? (m_buffer.count + m_rowWidth - 1) / m_rowWidth : m_buffer.count;
    return static_cast<int>(std::min<std::size_t>(rows, kMaxRows));
}

int BufferTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

QString BufferTableModel::formatComponent(std::size_t component) const
{
    return formatComponent(m_buffer, component, m_format);
}

QString BufferTableModel::formatComponent(const BufferData &buffer, std::size_t component,
                                          NumberFormat format)
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

QColor BufferTableModel::differsColour()
{
    return QColor(0xf4, 0xa6, 0xa6);
}

QColor BufferTableModel::rowDiffersColour()
{
    return QColor(0xfb, 0xdc, 0xdc);
}

QVariant BufferTableModel::data(const QModelIndex &index, int role) const
{
    const std::optional<std::size_t> first = componentAt(index);
    if (!first)
        return {};
    const std::size_t component = *first;
    const bool grid = m_rowWidth > 0;
    if (!m_fields.empty()) {
        const std::size_t element = std::size_t(index.row());
        const FieldColumn &field = m_fields[std::size_t(index.column())];
        switch (role) {
        case Qt::DisplayRole:
            return formatField(m_buffer, element, field);
        case Qt::TextAlignmentRole:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::UserRole:
            return field.scalar == ScalarKind::Bytes
                       ? QVariant()
                       : QVariant(toDouble(decodeNumber(field.scalar, m_buffer.bytes.data() +
                                                                          element * m_buffer.type.size() +
                                                                          field.offset)));
        case Qt::BackgroundRole:
            if (m_differs.empty())
                return {};
            if (fieldDiffers(element, field))
                return differsColour();
            return elementDiffers(element) ? QVariant(rowDiffersColour()) : QVariant();
        case Qt::ToolTipRole:
            if (m_differs.empty() || !fieldDiffers(element, field) || element >= m_other.count)
                return {};
            return tr("%1 has %2")
                .arg(QString::fromStdString(m_other.name), formatField(m_other, element, field));
        default:
            return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole: {
        if (!grid || m_components == 1)
            return formatComponent(component);
        // One element per cell: its components together.
        QStringList parts;
        for (int c = 0; c < m_components; ++c)
            parts << formatComponent(component + std::size_t(c));
        return parts.join(QStringLiteral(", "));
    }
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::UserRole:
        return m_buffer.value(component);
    case Qt::BackgroundRole: {
        if (m_differs.empty())
            return {};
        if (grid)
            return elementDiffers(component / std::size_t(m_components)) ? QVariant(differsColour())
                                                                         : QVariant();
        if (componentDiffers(component))
            return differsColour();
        return elementDiffers(component / std::size_t(m_columns)) ? QVariant(rowDiffersColour()) : QVariant();
    }
    case Qt::ToolTipRole: {
        if (m_differs.empty())
            return {};
        const std::size_t count = grid ? std::size_t(m_components) : 1;
        QStringList theirs;
        bool differs = false;
        for (std::size_t c = component; c < component + count; ++c) {
            differs |= componentDiffers(c);
            if (c < m_other.componentCount())
                theirs << formatComponent(m_other, c, m_format);
        }
        if (!differs)
            return {};
        return tr("%1 has %2").arg(QString::fromStdString(m_other.name), theirs.join(QStringLiteral(", ")));
    }
    default:
        return {};
    }
}

QVariant BufferTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (m_rowWidth > 0) {
        // Rows are y and columns x of the NDRange.
        return section;
    }
    if (orientation == Qt::Vertical)
        return section;
    if (!m_fields.empty())
        return section < int(m_fields.size()) ? m_fields[std::size_t(section)].header : QVariant();
    if (m_columns == 1)
        return QString::fromStdString(m_buffer.type.name());
    static const char kNames[] = "xyzw";
    if (!m_buffer.type.isRaw() && m_columns <= 4)
        return QString(QChar::fromLatin1(kNames[section]));
    return QStringLiteral("s%1").arg(section, 0, 16);
}

QString BufferTableModel::formatField(const BufferData &buffer, std::size_t element,
                                      const FieldColumn &field) const
{
    const std::size_t at = element * buffer.type.size() + field.offset;
    if (at + field.size > buffer.bytes.size())
        return {};
    const unsigned char *p = buffer.bytes.data() + at;
    if (field.scalar == ScalarKind::Bytes || m_format == NumberFormat::Hex) {
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
    if (m_format == NumberFormat::Scientific)
        return QString::number(toDouble(n), 'e', field.scalar == ScalarKind::Double ? 15 : 7);
    return QString::fromStdString(formatNumber(n, field.scalar));
}

bool BufferTableModel::fieldDiffers(std::size_t element, const FieldColumn &field) const
{
    const std::size_t first = element * std::size_t(m_components) + field.offset;
    for (std::size_t c = first; c < first + field.size; ++c) {
        if (componentDiffers(c))
            return true;
    }
    return false;
}

QImage bufferImage(const BufferData &buffer, std::size_t rowWidth)
{
    if (rowWidth == 0 || buffer.count == 0 || buffer.componentCount() == 0)
        return {};
    const std::size_t components = buffer.componentCount() / buffer.count;
    const std::size_t height = (buffer.count + rowWidth - 1) / rowWidth;
    // QImage sizes are int, and a picture larger than 32k on a side is no use on a screen anyway.
    if (rowWidth > 32768 || height > 32768)
        return {};
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (std::size_t e = 0; e < buffer.count; ++e) {
        const double v = buffer.value(e * components);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    QImage image(int(rowWidth), int(height), QImage::Format_RGB32);
    image.fill(QColor(0x80, 0x80, 0x80)); // past the end of the buffer
    const double range = hi > lo ? hi - lo : 0;
    for (std::size_t e = 0; e < buffer.count; ++e) {
        const double v = buffer.value(e * components);
        QRgb rgb = 0;
        if (std::isnan(v)) {
            rgb = qRgb(255, 0, 255);
        } else {
            const double t = std::isinf(v) ? (v > 0 ? 1.0 : 0.0) : range > 0 ? (v - lo) / range : 0.5;
            const int g = std::clamp(int(std::lround(t * 255)), 0, 255);
            rgb = qRgb(g, g, g);
        }
        image.setPixel(int(e % rowWidth), int(e / rowWidth), rgb);
    }
    return image;
}

QImage imagePicture(const BufferData &buffer, QString *why)
{
    if (!buffer.image)
        return {};
    PngImage png;
    try {
        png = imageToPng(buffer);
    } catch (const std::exception &e) {
        if (why)
            *why = QString::fromStdString(e.what());
        return {};
    }
    if (png.width == 0 || png.height == 0 || png.width > 32768 || png.height > 32768)
        return {};
    QImage image(int(png.width), int(png.height), QImage::Format_ARGB32);
    const int shift = png.bitDepth == 16 ? 8 : 0;
    const std::size_t channels = std::size_t(png.channels);
    for (std::size_t y = 0; y < png.height; ++y) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(int(y)));
        for (std::size_t x = 0; x < png.width; ++x) {
            const std::uint16_t *s = png.samples.data() + (y * png.width + x) * channels;
            const auto v = [&](std::size_t i) { return int(s[i] >> shift); };
            switch (png.channels) {
            case 1:
                line[x] = qRgb(v(0), v(0), v(0));
                break;
            case 2:
                line[x] = qRgba(v(0), v(0), v(0), v(1));
                break;
            case 3:
                line[x] = qRgb(v(0), v(1), v(2));
                break;
            default:
                line[x] = qRgba(v(0), v(1), v(2), v(3));
                break;
            }
        }
    }
    return image;
}

namespace {
QString writeBytes(const QString &path, const QByteArray &bytes)
{
    const QString error = writeFileSafely(path, bytes);
    if (!error.isEmpty())
        return QObject::tr("Cannot write %1: %2").arg(path, error);
    return {};
}
} // namespace

QString writeBufferCsv(const BufferData &buffer, const QString &path)
{
    BufferTableModel model;
    model.setBuffer(buffer);
    QByteArray out;
    const int cols = model.columnCount();
    for (int c = 0; c < cols; ++c)
        out += (c ? "," : "") + model.headerData(c, Qt::Horizontal).toString().toUtf8();
    out += '\n';
    if (buffer.layout) {
        // A row per struct, a column per field.
        for (int r = 0; r < model.rowCount(); ++r) {
            for (int c = 0; c < cols; ++c)
                out += (c ? "," : "") + model.index(r, c).data().toString().toUtf8();
            out += '\n';
        }
        return writeBytes(path, out);
    }
    const std::size_t components = buffer.componentCount();
    for (std::size_t i = 0; i < components; ++i) {
        out += model.formatComponent(i).toUtf8();
        out += (i % std::size_t(cols) == std::size_t(cols - 1)) ? '\n' : ',';
    }
    return writeBytes(path, out);
}

QString writeBufferBin(const BufferData &buffer, const QString &path)
{
    return writeBytes(path, QByteArray(reinterpret_cast<const char *>(buffer.bytes.data()),
                                       qsizetype(buffer.bytes.size())));
}

QString writeBufferNpy(const BufferData &buffer, const QString &path)
{
    try {
        const std::string bytes = encodeNpy(toNpy(buffer));
        return writeBytes(path, QByteArray(bytes.data(), qsizetype(bytes.size())));
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

} // namespace clscope::ui
