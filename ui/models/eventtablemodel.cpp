// The events table model: one row per command record.
#include "eventtablemodel.h"

#include "display/recordformat.h"
#include "display/timelinedata.h"

#include "clscope/format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace clscope::ui {

namespace {

QString ndRange(const std::array<std::size_t, 3> &sizes, int dims)
{
    return QString::fromStdString(ndRangeText(sizes, dims));
}

} // namespace

EventTableModel::EventTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
{}

void EventTableModel::setRecords(RecordsPtr records, std::uint64_t origin)
{
    beginResetModel();
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_rows = static_cast<int>(m_records->size());
    m_origin = origin;
    endResetModel();
}

void EventTableModel::appendRecords(RecordsPtr records, std::uint64_t origin)
{
    const int old = m_rows;
    if (!records || static_cast<int>(records->size()) < old || origin != m_origin) {
        setRecords(std::move(records), origin);
        return;
    }
    if (static_cast<int>(records->size()) == old) {
        m_records = std::move(records);
        return;
    }
    beginInsertRows({}, old, static_cast<int>(records->size()) - 1);
    m_records = std::move(records);
    m_rows = static_cast<int>(m_records->size());
    endInsertRows();
}

int EventTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int EventTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventTableModel::display(const CommandRecord &r, int row, int column) const
{
    switch (column) {
    case IndexColumn:
        return row;
    case TypeColumn:
        return typeText(r.type);
    case NameColumn:
        return QString::fromStdString(r.name);
    case QueueColumn:
        return QString::fromStdString(r.queue);
    case DeviceColumn:
        return r.hostSpan ? QStringLiteral("host") : QString::fromStdString(r.device);
    case StartColumn:
        if (r.start == 0)
            return QStringLiteral("—");
        // After the timeline's origin, in the unit that fits (the raw ns are in the sort key and the CSV).
        return durationText(static_cast<double>(static_cast<std::int64_t>(r.start - m_origin)));
    case DurationColumn:
        return r.start != 0 && r.end >= r.start ? durationText(static_cast<double>(r.duration()))
                                                : QStringLiteral("—");
    case WaitColumn:
        return r.queued != 0 && r.start >= r.queued ? durationText(static_cast<double>(r.start - r.queued))
                                                    : QString();
    case BytesColumn:
        return r.bytes ? bytesText(r.bytes) : QString();
    case BandwidthColumn:
        return r.hasBandwidth() ? QString::number(r.gbPerSecond(), 'f', 2) + QStringLiteral(" GB/s")
                                : QString();
    case GlobalColumn:
        return ndRange(r.global, r.dims);
    case LocalColumn:
        return ndRange(r.local, r.dims);
    case IssuesColumn:
        return QString::fromStdString(describeIssues(checkTimestamps(r)));
    }
    return {};
}

QVariant EventTableModel::sortKey(const CommandRecord &r, int row, int column) const
{
    switch (column) {
    case IndexColumn:
        return row;
    case TypeColumn:
        return static_cast<int>(r.type);
    case StartColumn:
        return static_cast<qulonglong>(r.start);
    case DurationColumn:
        return static_cast<qulonglong>(r.duration());
    case WaitColumn:
        return static_cast<qulonglong>(r.queued != 0 && r.start >= r.queued ? r.start - r.queued : 0);
    case BytesColumn:
        return static_cast<qulonglong>(r.bytes);
    case BandwidthColumn:
        return r.gbPerSecond();
    case IssuesColumn:
        return checkTimestamps(r).mask;
    default:
        return display(r, row, column);
    }
}

bool EventTableModel::lessThan(int left, int right, int column) const
{
    const CommandRecord &a = record(left);
    const CommandRecord &b = record(right);
    switch (column) {
    case IndexColumn:
        return left < right;
    case TypeColumn:
        return a.type < b.type;
    case NameColumn:
        return a.name < b.name;
    case QueueColumn:
        return a.queue < b.queue;
    case DeviceColumn:
        return a.device < b.device;
    case StartColumn:
        return a.start < b.start;
    case DurationColumn:
        return a.duration() < b.duration();
    case BytesColumn:
        return a.bytes < b.bytes;
    case BandwidthColumn:
        return a.gbPerSecond() < b.gbPerSecond();
    default: {
        const QVariant l = sortKey(a, left, column);
        const QVariant r = sortKey(b, right, column);
        return QVariant::compare(l, r) == QPartialOrdering::Less;
    }
    }
}

QVariant EventTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const CommandRecord &r = record(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.row(), index.column());
    case SortRole:
        return sortKey(r, index.row(), index.column());
    case RecordIndexRole:
        return index.row();
    case TypeRole:
        return static_cast<int>(r.type);
    case Qt::DecorationRole:
        if (index.column() == NameColumn)
            return timelineColour(colourIndexFor(r));
        return {};
    case Qt::ToolTipRole:
        // The exact value behind the rounded one.
        if (index.column() == StartColumn && r.start != 0)
            return tr("%L1 ns after the timeline's origin")
                .arg(static_cast<qlonglong>(static_cast<std::int64_t>(r.start - m_origin)));
        if (index.column() == DurationColumn && r.start != 0 && r.end >= r.start)
            return tr("%L1 ns").arg(static_cast<qulonglong>(r.duration()));
        if (index.column() == IssuesColumn)
            return QString::fromStdString(describeIssues(checkTimestamps(r)));
        return {};
    case Qt::ForegroundRole:
        if (index.column() == IssuesColumn && checkTimestamps(r).isError())
            return QColor(Qt::red);
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case IndexColumn:
        case StartColumn:
        case DurationColumn:
        case WaitColumn:
        case BytesColumn:
        case BandwidthColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("#");
    case TypeColumn:
        return tr("Type");
    case NameColumn:
        return tr("Name");
    case QueueColumn:
        return tr("Queue");
    case DeviceColumn:
        return tr("Device");
    case StartColumn:
        return tr("Start");
    case DurationColumn:
        return tr("Duration");
    case WaitColumn:
        return tr("Queued → start");
    case BytesColumn:
        return tr("Bytes");
    case BandwidthColumn:
        return tr("Bandwidth");
    case GlobalColumn:
        return tr("Global");
    case LocalColumn:
        return tr("Local");
    case IssuesColumn:
        return tr("Timestamp checks");
    }
    return {};
}

} // namespace clscope::ui
