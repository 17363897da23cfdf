// The profiling events table: one row per command record (shared, immutable vector). Its filter and sort
// proxy is EventFilterProxy (eventfilterproxy.h); the palette and number formats it shares with the
// timeline are in display/recordformat.h.
#pragma once

#include "clscope/profile.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace clscope::ui {

using RecordsPtr = std::shared_ptr<const std::vector<CommandRecord>>;

class EventTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        TypeColumn,
        NameColumn,
        QueueColumn,
        DeviceColumn,
        StartColumn,
        DurationColumn,
        WaitColumn,
        BytesColumn,
        BandwidthColumn,
        GlobalColumn,
        LocalColumn,
        IssuesColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw number (or text) to sort on
        RecordIndexRole,             // index into the records vector
        TypeRole,                    // int(CommandRecord::Type)
    };

    explicit EventTableModel(QObject *parent = nullptr);

    // origin: absolute ns shown as 0 in the Start column (the timeline's origin).
    void setRecords(RecordsPtr records, std::uint64_t origin);
    // `records` must begin with the current ones: only the new rows are inserted.
    void appendRecords(RecordsPtr records, std::uint64_t origin);
    const RecordsPtr &records() const { return m_records; }
    const CommandRecord &record(int row) const { return (*m_records)[static_cast<std::size_t>(row)]; }
    std::uint64_t origin() const { return m_origin; }

    // Compares two rows on a column without building QVariants (a million-row sort stays fast).
    bool lessThan(int left, int right, int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const CommandRecord &r, int row, int column) const;
    QVariant sortKey(const CommandRecord &r, int row, int column) const;

    RecordsPtr m_records;
    // The rows shown: a capture's records grow in place (CaptureSession) before the model is told.
    int m_rows = 0;
    std::uint64_t m_origin = 0;
};

} // namespace clscope::ui
