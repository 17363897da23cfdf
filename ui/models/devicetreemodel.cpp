// Builds the device tree nodes from a snapshot once; the model then only walks them.
#include "devicetreemodel.h"
#include "display/stdstring.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPalette>

#include <functional>

namespace clscope::ui {

struct DeviceTreeModel::Node
{
    NodeKind kind = GroupNode;
    QString name;
    QString value;
    QString tooltip;
    QString paramName;
    QString raw;
    QString symbolic;
    bool unsupported = false;
    int platform = -1;
    int device = -1;
    Node *parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;

    Node *add(std::unique_ptr<Node> child)
    {
        child->parent = this;
        child->row = static_cast<int>(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }
};

namespace {
using Node = DeviceTreeModel::Node;

std::unique_ptr<Node> makeNode(DeviceTreeModel::NodeKind kind, QString name, QString value = {})
{
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->name = std::move(name);
    n->value = std::move(value);
    return n;
}

std::unique_ptr<Node> paramNode(const InfoValue &v, int platform, int device)
{
    auto n = makeNode(DeviceTreeModel::ParamNode, qs(v.param->label), qs(v.display()));
    n->paramName = qs(v.param->name);
    n->raw = qs(v.rawText());
    n->unsupported = !v.supported();
    n->platform = platform;
    n->device = device;
    // Words in the tree ("GPU | Accelerator", "Global"); the CL_* names and the number in the tooltip.
    n->symbolic = qs(v.symbolic());
    n->tooltip = n->paramName + (n->symbolic.isEmpty() ? QString() : u'\n' + n->symbolic) +
                 QStringLiteral("\nraw: ") + n->raw;
    return n;
}

void addImageFormats(Node *images, const DeviceSnapshot &dev)
{
    if (dev.imageFormats.empty())
        return;
    Node *formats =
        images->add(makeNode(DeviceTreeModel::GroupNode, QStringLiteral("Supported image formats")));
    for (const ImageFormatSet &set : dev.imageFormats) {
        QStringList names;
        for (const cl_image_format &f : set.formats)
            names << qs(channelOrderName(f.image_channel_order)) + u'/' +
                         qs(channelTypeName(f.image_channel_data_type));
        auto n = makeNode(DeviceTreeModel::ParamNode,
                          qs(memFlagName(set.memFlags)) + u' ' + qs(imageTypeName(set.imageType)),
                          QStringLiteral("%1 formats").arg(set.formats.size()));
        n->tooltip = names.join(u'\n');
        n->raw = names.join(QStringLiteral(", "));
        formats->add(std::move(n));
    }
}

void addDevice(Node *platformNode, const PlatformSnapshot &plat, const DeviceSnapshot &dev)
{
    auto dn = makeNode(DeviceTreeModel::DeviceNode, qs(dev.name()), qs(dev.string("CL_DEVICE_VERSION")));
    dn->platform = plat.index;
    dn->device = dev.index;
    dn->tooltip = QStringLiteral("Device %1:%2").arg(plat.index).arg(dev.index);
    Node *devNode = platformNode->add(std::move(dn));
    for (const GroupedValues &group : groupValues(dev.values)) {
        auto g = makeNode(DeviceTreeModel::GroupNode, qs(groupName(group.group)));
        g->platform = plat.index;
        g->device = dev.index;
        Node *groupNode = devNode->add(std::move(g));
        for (const InfoValue *v : group.values) {
            groupNode->add(paramNode(*v, plat.index, dev.index));
            // clinfo's kernel-level multiple sits next to the device's own preferred multiple.
            if (v->param->name == "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE" &&
                dev.kernelPreferredWorkGroupSizeMultiple) {
                auto k = makeNode(DeviceTreeModel::ParamNode,
                                  QStringLiteral("Preferred work-group size multiple (kernel)"),
                                  QString::number(*dev.kernelPreferredWorkGroupSizeMultiple));
                k->paramName = QStringLiteral("CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
                k->raw = k->value;
                k->tooltip = k->paramName + QStringLiteral("\nraw: ") + k->raw;
                k->platform = plat.index;
                k->device = dev.index;
                groupNode->add(std::move(k));
            }
        }
        if (group.group == InfoGroup::Images)
            addImageFormats(groupNode, dev);
    }
    if (!dev.error.empty())
        devNode->add(makeNode(DeviceTreeModel::ErrorNode, QStringLiteral("Note"), qs(dev.error)));
}
} // namespace

DeviceTreeModel::DeviceTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{}

DeviceTreeModel::~DeviceTreeModel() = default;

void DeviceTreeModel::setSnapshot(std::shared_ptr<const SystemSnapshot> snapshot)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_root = std::make_unique<Node>();
    if (m_snapshot) {
        if (!m_snapshot->error.empty())
            m_root->add(makeNode(ErrorNode, QStringLiteral("Error"), qs(m_snapshot->error)));
        for (const PlatformSnapshot &plat : m_snapshot->platforms) {
            auto pn = makeNode(PlatformNode, qs(plat.name()), qs(plat.string("CL_PLATFORM_VERSION")));
            pn->platform = plat.index;
            pn->tooltip = QStringLiteral("Platform %1").arg(plat.index);
            Node *platNode = m_root->add(std::move(pn));
            if (!plat.error.empty())
                platNode->add(makeNode(ErrorNode, QStringLiteral("Error"), qs(plat.error)));
            auto info = makeNode(GroupNode, QStringLiteral("Platform"));
            info->platform = plat.index;
            Node *infoNode = platNode->add(std::move(info));
            for (const GroupedValues &group : groupValues(plat.values)) {
                for (const InfoValue *v : group.values)
                    infoNode->add(paramNode(*v, plat.index, -1));
            }
            for (const DeviceSnapshot &dev : plat.devices)
                addDevice(platNode, plat, dev);
        }
    }
    endResetModel();
}

const DeviceTreeModel::Node *DeviceTreeModel::node(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<const Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex DeviceTreeModel::deviceIndex(int platform, int device) const
{
    for (const auto &p : m_root->children) {
        if (p->kind != PlatformNode || p->platform != platform)
            continue;
        for (const auto &d : p->children) {
            if (d->kind == DeviceNode && d->device == device)
                return createIndex(d->row, 0, d.get());
        }
    }
    return {};
}

QModelIndex DeviceTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node *p = node(parent);
    return createIndex(row, column, p->children[static_cast<size_t>(row)].get());
}

QModelIndex DeviceTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const Node *n = node(child);
    Node *p = n->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, p);
}

int DeviceTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(node(parent)->children.size());
}

int DeviceTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

void DeviceTreeModel::setCurrentDevice(int platform, int device)
{
    const QModelIndex before = deviceIndex(m_currentPlatform, m_currentDevice);
    m_currentPlatform = platform;
    m_currentDevice = device;
    for (const QModelIndex &i : {before, deviceIndex(platform, device)}) {
        if (i.isValid())
            emit dataChanged(i, i.siblingAtColumn(ValueColumn), {Qt::DisplayRole, Qt::DecorationRole});
    }
}

QVariant DeviceTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node *n = node(index);
    const bool current =
        n->kind == DeviceNode && n->platform == m_currentPlatform && n->device == m_currentDevice;
    switch (role) {
    case Qt::DecorationRole:
        if (current && index.column() == NameColumn)
            return QColor(0x2e, 0x9d, 0x48); // a green square before the name (no Widgets here for icons)
        return {};
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return n->name;
        if (current)
            return n->value.isEmpty() ? tr("current device") : tr("%1 (current device)").arg(n->value);
        // One line in the tree; the whole list is in the tooltip.
        if (n->value.contains(u'\n'))
            return QString(n->value).replace(u'\n', QStringLiteral(" "));
        return n->value;
    case Qt::ToolTipRole:
        if (index.column() == ValueColumn && n->value.contains(u'\n'))
            return QString(n->value + QStringLiteral("\n\n") + n->tooltip);
        return n->tooltip.isEmpty() ? QVariant() : QVariant(n->tooltip);
    case Qt::FontRole:
        if (n->kind == PlatformNode || n->kind == DeviceNode || n->kind == GroupNode) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (n->unsupported)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        if (n->kind == ErrorNode)
            return QBrush(Qt::red);
        return {};
    case ParamNameRole:
        return n->paramName;
    case NodeKindRole:
        return n->kind;
    case PlatformIndexRole:
        return n->platform;
    case DeviceIndexRole:
        return n->device;
    case RawValueRole:
        return n->raw;
    case SymbolicValueRole:
        return n->symbolic;
    default:
        return {};
    }
}

QVariant DeviceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Parameter") : tr("Value");
}

QString modelToText(const QAbstractItemModel &model, const QModelIndex &parent, int maxRows)
{
    QString out;
    int emitted = 0;
    std::function<void(const QModelIndex &, int)> walk = [&](const QModelIndex &p, int depth) {
        for (int r = 0; r < model.rowCount(p); ++r) {
            if (maxRows >= 0 && emitted >= maxRows)
                return;
            const QModelIndex name = model.index(r, 0, p);
            const QModelIndex value = model.index(r, 1, p);
            out += QString(depth * 2, u' ') + name.data().toString();
            const QString v = value.data().toString();
            if (!v.isEmpty())
                out += u'\t' + v;
            out += u'\n';
            ++emitted;
            walk(name, depth + 1);
        }
    };
    walk(parent, 0);
    return out;
}

} // namespace clscope::ui
