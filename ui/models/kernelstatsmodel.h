// Per-kernel (and per transfer name) duration statistics as a table: count, total, share, min, median,
// mean, max, standard deviation, achieved bandwidth.
#pragma once

#include "clscope/profile.h"

#include <QAbstractTableModel>

#include <vector>

namespace clscope::ui {

class KernelStatsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        TypeColumn,
        CountColumn,
        TotalColumn,
        ShareColumn,
        MinColumn,
        MedianColumn,
        MeanColumn,
        MaxColumn,
        StddevColumn,
        BandwidthColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw number to sort on
        TypeRole,                    // int(CommandRecord::Type)
    };

    explicit KernelStatsModel(QObject *parent = nullptr);

    // Groups by (type, name) with statsByName().
    void setRecords(const std::vector<CommandRecord> &records);
    void setStats(std::vector<DurationStats> stats);
    const std::vector<DurationStats> &stats() const { return m_stats; }
    const DurationStats &stats(int row) const { return m_stats[static_cast<std::size_t>(row)]; }
    // Row of a group, or -1.
    int rowOf(CommandRecord::Type type, const std::string &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<DurationStats> m_stats;
    std::uint64_t m_grandTotal = 0;
};

} // namespace clscope::ui
