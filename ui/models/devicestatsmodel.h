// Kernel time per device: how many kernels each device ran, their total, mean, shortest and longest time,
// so runs on PoCL, a GPU and Oclgrind can be told apart at a glance.
#pragma once

#include "clscope/profile.h"

#include <QAbstractTableModel>

#include <string>
#include <vector>

namespace clscope::ui {

struct DeviceKernelStats
{
    std::string device;
    std::uint64_t kernels = 0; // launches with a usable start and end
    std::uint64_t totalNs = 0;
    std::uint64_t minNs = 0;
    std::uint64_t maxNs = 0;
    double meanNs() const { return kernels ? double(totalNs) / double(kernels) : 0.0; }
};

// One entry per device in order of first appearance; only kernels count (transfers and host spans do not).
std::vector<DeviceKernelStats> kernelStatsByDevice(const std::vector<CommandRecord> &records);

class DeviceStatsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { DeviceColumn, KernelsColumn, TotalColumn, MeanColumn, MinColumn, MaxColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit DeviceStatsModel(QObject *parent = nullptr);

    void setRecords(const std::vector<CommandRecord> &records);
    const std::vector<DeviceKernelStats> &stats() const { return m_stats; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<DeviceKernelStats> m_stats;
};

} // namespace clscope::ui
