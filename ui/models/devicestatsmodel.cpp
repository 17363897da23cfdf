// Per-device kernel statistics.
#include "devicestatsmodel.h"

#include "display/recordformat.h"
#include "eventtablemodel.h"

#include <algorithm>
#include <unordered_map>

namespace clscope::ui {

std::vector<DeviceKernelStats> kernelStatsByDevice(const std::vector<CommandRecord> &records)
{
    std::vector<DeviceKernelStats> out;
    std::unordered_map<std::string, std::size_t> index;
    for (const CommandRecord &r : records) {
        if (r.type != CommandRecord::Type::Kernel || r.hostSpan || r.start == 0 || r.end < r.start)
            continue;
        auto [it, added] = index.try_emplace(r.device, out.size());
        if (added) {
            out.push_back({});
            out.back().device = r.device;
        }
        DeviceKernelStats &s = out[it->second];
        const std::uint64_t d = r.duration();
        s.minNs = s.kernels == 0 ? d : std::min(s.minNs, d);
        s.maxNs = std::max(s.maxNs, d);
        s.totalNs += d;
        ++s.kernels;
    }
    return out;
}

DeviceStatsModel::DeviceStatsModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void DeviceStatsModel::setRecords(const std::vector<CommandRecord> &records)
{
    beginResetModel();
    m_stats = kernelStatsByDevice(records);
    endResetModel();
}

int DeviceStatsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_stats.size());
}

int DeviceStatsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeviceStatsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const DeviceKernelStats &s = m_stats[static_cast<std::size_t>(index.row())];
    if (role == SortRole) {
        switch (index.column()) {
        case DeviceColumn:
            return QString::fromStdString(s.device);
        case KernelsColumn:
            return static_cast<qulonglong>(s.kernels);
        case TotalColumn:
            return static_cast<qulonglong>(s.totalNs);
        case MeanColumn:
            return s.meanNs();
        case MinColumn:
            return static_cast<qulonglong>(s.minNs);
        case MaxColumn:
            return static_cast<qulonglong>(s.maxNs);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == DeviceColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                              : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case DeviceColumn:
        return QString::fromStdString(s.device);
    case KernelsColumn:
        return static_cast<qulonglong>(s.kernels);
    case TotalColumn:
        return durationText(static_cast<double>(s.totalNs));
    case MeanColumn:
        return durationText(s.meanNs());
    case MinColumn:
        return durationText(static_cast<double>(s.minNs));
    case MaxColumn:
        return durationText(static_cast<double>(s.maxNs));
    default:
        return {};
    }
}

QVariant DeviceStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DeviceColumn:
        return tr("Device");
    case KernelsColumn:
        return tr("Kernels");
    case TotalColumn:
        return tr("Total");
    case MeanColumn:
        return tr("Mean");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    default:
        return {};
    }
}

} // namespace clscope::ui
