// Statistics table over DurationStats groups.
#include "kernelstatsmodel.h"

#include "display/recordformat.h"
#include "display/timelinedata.h"
#include "eventtablemodel.h"

namespace clscope::ui {

KernelStatsModel::KernelStatsModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void KernelStatsModel::setRecords(const std::vector<CommandRecord> &records)
{
    setStats(statsByName(records));
}

void KernelStatsModel::setStats(std::vector<DurationStats> stats)
{
    beginResetModel();
    m_stats = std::move(stats);
    m_grandTotal = 0;
    for (const DurationStats &s : m_stats) {
        // Host spans (builds) would dwarf device time in the share column; the share is of device time.
        if (s.type != CommandRecord::Type::Build)
            m_grandTotal += s.totalNs;
    }
    endResetModel();
}

int KernelStatsModel::rowOf(CommandRecord::Type type, const std::string &name) const
{
    for (std::size_t i = 0; i < m_stats.size(); ++i) {
        if (m_stats[i].type == type && m_stats[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

int KernelStatsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_stats.size());
}

int KernelStatsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelStatsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const DurationStats &s = stats(index.row());
    const bool shared = s.type != CommandRecord::Type::Build && m_grandTotal > 0;
    const double share =
        shared ? 100.0 * static_cast<double>(s.totalNs) / static_cast<double>(m_grandTotal) : 0;
    const bool timed = s.count > 0;
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(s.name);
        case TypeColumn:
            return static_cast<int>(s.type);
        case CountColumn:
            return static_cast<qulonglong>(s.count);
        case TotalColumn:
            return static_cast<qulonglong>(s.totalNs);
        case ShareColumn:
            return share;
        case MinColumn:
            return static_cast<qulonglong>(s.minNs);
        case MedianColumn:
            return s.medianNs;
        case MeanColumn:
            return s.meanNs;
        case MaxColumn:
            return static_cast<qulonglong>(s.maxNs);
        case StddevColumn:
            return s.stddevNs;
        case BandwidthColumn:
            return s.gbPerSecond;
        }
        return {};
    }
    if (role == TypeRole)
        return static_cast<int>(s.type);
    if (role == Qt::DecorationRole && index.column() == NameColumn) {
        CommandRecord probe;
        probe.type = s.type;
        probe.name = s.name;
        return timelineColour(colourIndexFor(probe));
    }
    if (role == Qt::TextAlignmentRole && index.column() >= CountColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && s.skipped > 0)
        return tr("%n record(s) without usable start/end timestamps left out", nullptr,
                  static_cast<int>(s.skipped));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(s.name);
    case TypeColumn:
        return typeText(s.type);
    case CountColumn:
        return static_cast<qulonglong>(s.count);
    case TotalColumn:
        return timed ? durationText(static_cast<double>(s.totalNs)) : QString();
    case ShareColumn:
        return shared ? QString(QString::number(share, 'f', 1) + QStringLiteral(" %")) : QString();
    case MinColumn:
        return timed ? durationText(static_cast<double>(s.minNs)) : QString();
    case MedianColumn:
        return timed ? durationText(s.medianNs) : QString();
    case MeanColumn:
        return timed ? durationText(s.meanNs) : QString();
    case MaxColumn:
        return timed ? durationText(static_cast<double>(s.maxNs)) : QString();
    case StddevColumn:
        return s.count > 1 ? durationText(s.stddevNs) : QString();
    case BandwidthColumn:
        return s.gbPerSecond > 0 ? QString::number(s.gbPerSecond, 'f', 2) + QStringLiteral(" GB/s")
                                 : QString();
    }
    return {};
}

QVariant KernelStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case CountColumn:
        return tr("Count");
    case TotalColumn:
        return tr("Total");
    case ShareColumn:
        return tr("Share");
    case MinColumn:
        return tr("Min");
    case MedianColumn:
        return tr("Median");
    case MeanColumn:
        return tr("Mean");
    case MaxColumn:
        return tr("Max");
    case StddevColumn:
        return tr("Std dev");
    case BandwidthColumn:
        return tr("Bandwidth");
    }
    return {};
}

} // namespace clscope::ui
