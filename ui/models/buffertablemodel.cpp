// Buffer table model, summary statistics, comparison and export.
#include "buffertablemodel.h"

#include "clscope/npy.h"
#include "safewrite.h"

#include <cmath>
#include <limits>

namespace clscope::ui {

namespace {
int componentsPerRow(const BufferData &b)
{
    if (b.type.isRaw())
        return static_cast<int>(b.type.rawSize);
    return b.type.width;
}
} // namespace

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

Comparison compareBuffers(const BufferData &a, const BufferData &b, double tolerance)
{
    Comparison c;
    if (a.componentCount() != b.componentCount()) {
        c.error = QObject::tr("%1 has %2 values, %3 has %4")
                      .arg(QString::fromStdString(a.name))
                      .arg(a.componentCount())
                      .arg(QString::fromStdString(b.name))
                      .arg(b.componentCount());
        return c;
    }
    c.compared = a.componentCount();
    for (std::size_t i = 0; i < c.compared; ++i) {
        const double x = a.value(i);
        const double y = b.value(i);
        if (std::isnan(x) && std::isnan(y))
            continue;
        const double err = std::abs(x - y);
        if (!(err <= tolerance)) {
            if (c.mismatches == 0)
                c.firstMismatch = i;
            ++c.mismatches;
        }
        if (std::isfinite(err))
            c.maxAbsError = std::max(c.maxAbsError, err);
    }
    return c;
}

BufferTableModel::BufferTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void BufferTableModel::setBuffer(BufferData buffer)
{
    beginResetModel();
    m_buffer = std::move(buffer);
    m_columns = std::max(1, componentsPerRow(m_buffer));
    endResetModel();
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
    // Views address rows with int: beyond that the table shows the first 2^31-1 elements.
    return static_cast<int>(std::min<std::size_t>(m_buffer.count, std::numeric_limits<int>::max()));
}

int BufferTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

QString BufferTableModel::formatComponent(std::size_t component) const
{
    const Number n = m_buffer.number(component);
    const ScalarKind kind = m_buffer.type.scalar;
    switch (m_format) {
    case NumberFormat::Hex:
        if (const auto *u = std::get_if<std::uint64_t>(&n))
            return QStringLiteral("0x") + QString::number(*u, 16);
        if (const auto *i = std::get_if<std::int64_t>(&n))
            return (*i < 0 ? QStringLiteral("-0x") : QStringLiteral("0x")) +
                   QString::number(std::llabs(*i), 16);
        return QString::number(std::get<double>(n), 'a');
    case NumberFormat::Scientific:
        return QString::number(toDouble(n), 'e', kind == ScalarKind::Double ? 15 : 7);
    case NumberFormat::Decimal:
        break;
    }
    return QString::fromStdString(formatNumber(n, kind));
}

QVariant BufferTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const std::size_t component =
        std::size_t(index.row()) * std::size_t(m_columns) + std::size_t(index.column());
    if (component >= m_buffer.componentCount())
        return {};
    if (role == Qt::DisplayRole)
        return formatComponent(component);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole)
        return m_buffer.value(component);
    return {};
}

QVariant BufferTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section;
    if (m_columns == 1)
        return QString::fromStdString(m_buffer.type.name());
    static const char kNames[] = "xyzw";
    if (!m_buffer.type.isRaw() && m_columns <= 4)
        return QString(QChar::fromLatin1(kNames[section]));
    return QStringLiteral("s%1").arg(section, 0, 16);
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
