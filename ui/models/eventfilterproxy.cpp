// The events table's filter (kernel name, command type) and sort (raw numbers) proxy.
#include "eventfilterproxy.h"

#include "eventtablemodel.h"

#include <algorithm>

namespace clscope::ui {

namespace {

bool containsFolded(const std::string &haystack, const std::string &needle)
{
    // ASCII case folding: kernel names are C identifiers; anything else still matches byte for byte.
    auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                       [&fold](char a, char b) { return fold(a) == b; }) != haystack.end();
}

} // namespace

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
