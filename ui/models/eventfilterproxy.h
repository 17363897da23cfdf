// The events table's proxy: filters by kernel name and command type, sorts on raw numbers.
#pragma once

#include <QSortFilterProxyModel>

#include <string>

namespace clscope::ui {

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
