// The device tree: platform -> device -> parameter groups -> parameters, over an immutable snapshot.
// Qt Core/Gui only, so tests and any front end can use it without Widgets.
#pragma once

#include "clscope/deviceinfo.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace clscope::ui {

class DeviceTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, ColumnCount };
    enum Role {
        ParamNameRole = Qt::UserRole + 1, // "CL_DEVICE_NAME" on parameter rows
        NodeKindRole,                     // NodeKind
        PlatformIndexRole,
        DeviceIndexRole,
        RawValueRole,
        SymbolicValueRole, // "CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR" for bitfields and enums
    };
    enum NodeKind { PlatformNode, DeviceNode, GroupNode, ParamNode, ErrorNode };
    Q_ENUM(NodeKind)

    explicit DeviceTreeModel(QObject *parent = nullptr);
    ~DeviceTreeModel() override;

    void setSnapshot(std::shared_ptr<const SystemSnapshot> snapshot);
    std::shared_ptr<const SystemSnapshot> snapshot() const { return m_snapshot; }

    // Index of the device node, or an invalid index.
    QModelIndex deviceIndex(int platform, int device) const;
    // The current device's row is marked (an icon and "current" in its value column); -1, -1 for none.
    void setCurrentDevice(int platform, int device);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Node;

private:
    const Node *node(const QModelIndex &index) const;

    std::shared_ptr<const SystemSnapshot> m_snapshot;
    std::unique_ptr<Node> m_root;
    int m_currentPlatform = -1;
    int m_currentDevice = -1;
};

// The tree as indented text ("name\tvalue" per row), for copy and test snapshots.
QString modelToText(const QAbstractItemModel &model, const QModelIndex &parent = {}, int maxRows = -1);

} // namespace clscope::ui
