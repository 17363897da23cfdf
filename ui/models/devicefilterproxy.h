// Filters the device tree by a text that may appear in a parameter's label, its value or its CL_* name;
// ancestors of a match stay so the match keeps its place in the tree.
#pragma once

#include <QSortFilterProxyModel>

namespace clscope::ui {

class DeviceFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit DeviceFilterProxy(QObject *parent = nullptr);
    void setFilterText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
};

} // namespace clscope::ui
