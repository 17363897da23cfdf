// Events table model and its filter/sort proxy; the shared palette and number formats.
#include "eventtablemodel.h"

#include "timelinedata.h"

#include "clscope/format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace clscope::ui {

namespace {

// Types: calm, distinct hues (transfers warm, sync grey). Kernels: a 16-colour qualitative palette that
// stays readable with dark text on it.
constexpr std::array<QRgb, kCommandTypeCount> kTypeColours = {
    0xff4e79a7, // kernel (only used when a kernel has no name)
    0xffe15759, // read
    0xfff28e2b, // write
    0xffedc948, // copy
    0xffb07aa1, // fill
    0xffff9da7, // map
    0xff9c755f, // migrate
    0xff76b7b2, // build (host)
    0xffbab0ac, // marker
};
constexpr std::array<QRgb, kKernelColourCount> kKernelColours = {
    0xff4e79a7, 0xff59a14f, 0xff8cd17d, 0xff499894, 0xff86bcb6, 0xfff1ce63, 0xffa0cbe8, 0xff79706e,
    0xffd37295, 0xfffabfd2, 0xffb6992d, 0xff8fbc8f, 0xff6a5acd, 0xffd4a6c8, 0xff9d7660, 0xff66c2a5,
};

bool containsFolded(const std::string &haystack, const std::string &needle)
{
    // ASCII case folding: kernel names are C identifiers; anything else still matches byte for byte.
    auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                       [&fold](char a, char b) { return fold(a) == b; }) != haystack.end();
}

QString ndRange(const std::array<std::size_t, 3> &sizes, int dims)
{
    return QString::fromStdString(ndRangeText(sizes, dims));
}

} // namespace

QColor timelineColour(std::uint32_t colourIndex)
{
    if (colourIndex < kKernelColourBase)
        return QColor::fromRgb(kTypeColours[colourIndex]);
    return QColor::fromRgb(kKernelColours[(colourIndex - kKernelColourBase) % kKernelColourCount]);
}

QString durationText(double ns)
{
    const double a = std::fabs(ns);
    if (std::llround(a) < 1000)
        return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
    static constexpr std::array<std::pair<double, const char *>, 3> units = {
        {{1e3, "\u00b5s"}, {1e6, "ms"}, {1e9, "s"}}};
    for (std::size_t u = 0; u < units.size(); ++u) {
        const double v = a / units[u].first;
        // Three significant digits: 1.23, 12.3, 123.
        const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
        const double scale = std::pow(10.0, decimals);
        const double rounded = std::round(v * scale) / scale;
        if (rounded >= 1000 && u + 1 < units.size())
            continue; // 999.7 µs is 1 ms
        QString text = QString::number(ns < 0 ? -rounded : rounded, 'f', decimals);
        if (text.contains(u'.')) {
            while (text.endsWith(u'0'))
                text.chop(1);
            if (text.endsWith(u'.'))
                text.chop(1);
        }
        return text + u' ' + QString::fromUtf8(units[u].second);
    }
    return {};
}

QString bytesText(std::uint64_t bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

QString typeText(CommandRecord::Type type)
{
    return QString::fromUtf8(typeName(type));
}

EventTableModel::EventTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
{}

void EventTableModel::setRecords(RecordsPtr records, std::uint64_t origin)
{
    beginResetModel();
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_origin = origin;
    endResetModel();
}

void EventTableModel::appendRecords(RecordsPtr records, std::uint64_t origin)
{
    const int old = rowCount();
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
    endInsertRows();
}

int EventTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_records->size());
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

EventFilterProxy::EventFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(EventTableModel::SortRole);
}

void EventFilterProxy::setNameFilter(const QString &text)
{
    if (text == m_name)
        return;
    m_name = text;
    m_needle = text.trimmed().toLower().toStdString();
    invalidateRowsFilter();
}

void EventFilterProxy::setTypeFilter(int type)
{
    if (type == m_type)
        return;
    m_type = type;
    invalidateRowsFilter();
}

QModelIndex EventFilterProxy::indexOfRecord(int record) const
{
    if (!sourceModel() || record < 0 || record >= sourceModel()->rowCount())
        return {};
    return mapFromSource(sourceModel()->index(record, 0));
}

bool EventFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const EventTableModel *>(sourceModel());
    if (!model || sourceParent.isValid())
        return true;
    const CommandRecord &r = model->record(sourceRow);
    if (m_type >= 0 && static_cast<int>(r.type) != m_type)
        return false;
    return m_needle.empty() || containsFolded(r.name, m_needle);
}

bool EventFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (const auto *model = qobject_cast<const EventTableModel *>(sourceModel()))
        return model->lessThan(left.row(), right.row(), left.column());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace clscope::ui
