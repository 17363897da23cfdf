// The buffer table model: rows, columns and roles over the formatting of bufferformat.h.
#include "buffertablemodel.h"

#include "clscope/structs.h"

#include <algorithm>
#include <limits>

namespace clscope::ui {

namespace {
int componentsPerElement(const BufferData &b)
{
    if (b.type.isRaw())
        return static_cast<int>(b.type.rawSize);
    return b.type.width;
}

constexpr int kMaxRows = std::numeric_limits<int>::max();

} // namespace

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
    return ui::formatComponent(m_buffer, component, m_format);
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
            return formatField(m_buffer, element, field, m_format);
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
                .arg(QString::fromStdString(m_other.name), formatField(m_other, element, field, m_format));
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
                theirs << ui::formatComponent(m_other, c, m_format);
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
    if (!m_buffer.type.isRaw() && m_columns <= 4)
        return componentName(section, m_columns);
    return QStringLiteral("s%1").arg(section, 0, 16);
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

} // namespace clscope::ui
