// Device tree filter: label, value, CL_* name and the CL_* names of a value, case-insensitive.
#include "devicefilterproxy.h"

#include "devicetreemodel.h"

namespace clscope::ui {

DeviceFilterProxy::DeviceFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setAutoAcceptChildRows(true);
}

void DeviceFilterProxy::setFilterText(const QString &text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

bool DeviceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_text.isEmpty())
        return true;
    const QAbstractItemModel *model = sourceModel();
    const QModelIndex name = model->index(sourceRow, DeviceTreeModel::NameColumn, sourceParent);
    const QModelIndex value = model->index(sourceRow, DeviceTreeModel::ValueColumn, sourceParent);
    return name.data().toString().contains(m_text, Qt::CaseInsensitive) ||
           value.data().toString().contains(m_text, Qt::CaseInsensitive) ||
           name.data(DeviceTreeModel::ParamNameRole).toString().contains(m_text, Qt::CaseInsensitive) ||
           name.data(DeviceTreeModel::SymbolicValueRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace clscope::ui
