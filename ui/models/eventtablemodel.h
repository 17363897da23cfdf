// The profiling events table: one row per command record (shared, immutable vector), a proxy that filters
// by kernel name and command type and sorts on raw numbers, and the palette and number formats that the
// timeline shares with the tables so a kernel has one colour everywhere.
#pragma once

#include "clscope/profile.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QSortFilterProxyModel>

#include <memory>
#include <string>
#include <vector>

namespace clscope::ui {

using RecordsPtr = std::shared_ptr<const std::vector<CommandRecord>>;

// Palette entry of colourIndexFor() (timelinedata.h): fixed colours for command types, 16 for kernels.
QColor timelineColour(std::uint32_t colourIndex);
// "850 ns", "4.12 µs", "12.3 ms", "2.5 s": the unit that fits, three significant digits (trailing zeros
// dropped). Every time a person reads in the GUI (results, history, timeline) goes through this.
QString durationText(double ns);
// "4 KiB", "1.5 MiB".
QString bytesText(std::uint64_t bytes);
QString typeText(CommandRecord::Type type);

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
    std::uint64_t m_origin = 0;
};

// Filters by kernel/command name (case-insensitive substring) and by command type; sorts on SortRole.
class EventFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit EventFilterProxy(QObject *parent = nullptr);

    void setNameFilter(const QString &text);
    QString nameFilter() const { return m_name; }
    // -1: every type.
    void setTypeFilter(int type);
    int typeFilter() const { return m_type; }

    // The proxy index (column 0) of a record, or an invalid index when it is filtered out.
    QModelIndex indexOfRecord(int record) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_name;
    std::string m_needle; // lower-case UTF-8 of m_name
    int m_type = -1;
};

} // namespace clscope::ui
