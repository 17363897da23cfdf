// Device explorer panel: tree view over DeviceTreeModel with a recursive filter and actions.
#include "devicedock.h"

#include "files/safewrite.h"
#include "models/devicefilterproxy.h"
#include "models/devicetreemodel.h"
#include "noticebar.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QResizeEvent>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

DeviceDock::DeviceDock(DeviceManager *manager, QWidget *parent)
    : QWidget(parent)
    , m_manager(manager)
    , m_model(new DeviceTreeModel(this))
    , m_proxy(new DeviceFilterProxy(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTreeView)
    , m_filter(new QLineEdit)
    , m_emptyLabel(new QLabel)
    , m_driverNotice(new NoticeBar)
{
    setObjectName(QStringLiteral("deviceDock"));
    m_proxy->setSourceModel(m_model);

    m_filter->setPlaceholderText(tr("Filter parameters (name, value or CL_ name)…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("deviceFilter"));
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterText(text);
        if (!text.isEmpty())
            m_view->expandAll();
    });

    auto *copyButton = new QToolButton;
    copyButton->setText(tr("Copy"));
    copyButton->setToolTip(tr("Copy the selected rows as text (Ctrl+C)"));
    connect(copyButton, &QToolButton::clicked, this, &DeviceDock::copySelection);
    auto *exportButton = new QToolButton;
    exportButton->setText(tr("Export JSON…"));
    exportButton->setToolTip(
        tr("Save every platform and device as JSON (the same as clscope-cli info --json)"));
    connect(exportButton, &QToolButton::clicked, this, &DeviceDock::chooseExportFile);
    auto *refreshButton = new QToolButton;
    refreshButton->setText(tr("Refresh"));
    connect(refreshButton, &QToolButton::clicked, m_manager, &DeviceManager::refresh);

    auto *copyAction = new QAction(tr("Copy"), this);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copyAction, &QAction::triggered, this, &DeviceDock::copySelection);
    m_view->addAction(copyAction);
    auto *useAction = new QAction(tr("Use this device"), this);
    connect(useAction, &QAction::triggered, this, [this] { onActivated(m_view->currentIndex()); });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTreeView::customContextMenuRequested, this,
            [this, copyAction, useAction](const QPoint &pos) {
                QMenu menu(this);
                menu.addAction(useAction);
                menu.addAction(copyAction);
                menu.exec(m_view->viewport()->mapToGlobal(pos));
            });

    m_view->setModel(m_proxy);
    m_view->setObjectName(QStringLiteral("deviceTree"));
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->header()->setSectionResizeMode(DeviceTreeModel::NameColumn, QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(true);
    // One click on a device row makes it current (double click anywhere under a device too).
    connect(m_view, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        if (index.data(DeviceTreeModel::NodeKindRole).toInt() == DeviceTreeModel::DeviceNode)
            onActivated(index);
    });
    connect(m_view, &QTreeView::doubleClicked, this, &DeviceDock::onActivated);

    auto *toolbar = new QHBoxLayout;
    toolbar->setContentsMargins(0, 0, 0, 0);
    toolbar->addWidget(m_filter, 1);
    toolbar->addWidget(copyButton);
    toolbar->addWidget(exportButton);
    toolbar->addWidget(refreshButton);

    m_treePage = new QWidget;
    auto *treeLayout = new QVBoxLayout(m_treePage);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    treeLayout->addLayout(toolbar);
    treeLayout->addWidget(m_view, 1);

    m_loadingPage = new QWidget;
    auto *loadingLayout = new QVBoxLayout(m_loadingPage);
    auto *busy = new QProgressBar;
    busy->setRange(0, 0);
    loadingLayout->addStretch();
    loadingLayout->addWidget(new QLabel(tr("Looking for OpenCL platforms and devices…")));
    loadingLayout->addWidget(busy);
    loadingLayout->addStretch();

    m_emptyPage = new QWidget;
    auto *emptyLayout = new QVBoxLayout(m_emptyPage);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setTextFormat(Qt::RichText);
    m_emptyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *retry = new QToolButton;
    retry->setText(tr("Look again"));
    connect(retry, &QToolButton::clicked, m_manager, &DeviceManager::refresh);
    emptyLayout->addStretch();
    emptyLayout->addWidget(m_emptyLabel);
    emptyLayout->addWidget(retry, 0, Qt::AlignLeft);
    emptyLayout->addStretch();

    m_stack->addWidget(m_loadingPage);
    m_stack->addWidget(m_treePage);
    m_stack->addWidget(m_emptyPage);
    // Above every page: the tree shows the drivers that work, the empty page says none does.
    m_driverNotice->setObjectName(QStringLiteral("driverNotice"));
    m_driverNotice->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_driverNotice);
    layout->addWidget(m_stack);

    connect(m_manager, &DeviceManager::enumerationStarted, this, [this] {
        if (!m_model->snapshot())
            m_stack->setCurrentWidget(m_loadingPage);
    });
    connect(m_manager, &DeviceManager::devicesAvailable, this, &DeviceDock::showSnapshot);
    connect(m_manager, &DeviceManager::currentDeviceChanged, this, &DeviceDock::onCurrentDeviceChanged);
    if (m_manager->snapshot())
        showSnapshot(m_manager->snapshot());
}

QString DeviceDock::currentPage() const
{
    if (m_stack->currentWidget() == m_treePage)
        return QStringLiteral("tree");
    if (m_stack->currentWidget() == m_emptyPage)
        return QStringLiteral("empty");
    return QStringLiteral("loading");
}

void DeviceDock::showSnapshot(const SnapshotPtr &snapshot)
{
    m_model->setSnapshot(snapshot);
    const QStringList skipped = m_manager->skippedDrivers();
    m_driverNotice->setText(skipped.join(u'\n'));
    m_driverNotice->setVisible(!skipped.isEmpty());
    const bool empty = !snapshot || snapshot->platforms.empty();
    if (empty) {
        QString why = snapshot && !snapshot->error.empty()
                          ? tr("<p>The OpenCL loader failed: <b>%1</b></p>")
                                .arg(QString::fromStdString(snapshot->error).toHtmlEscaped())
                          : QString();
        m_emptyLabel->setText(
            tr("<h3>No OpenCL platform found</h3>%1"
               "<p>CLScope needs at least one OpenCL driver (an ICD). Without a GPU, install PoCL, which "
               "runs OpenCL on the CPU:</p><pre>sudo apt-get install pocl-opencl-icd</pre>"
               "<p>GPU drivers: NVIDIA's driver package provides <tt>libnvidia-opencl</tt>; AMD's ROCm "
               "provides <tt>rocm-opencl-icd</tt>; Intel GPUs use <tt>intel-opencl-icd</tt>.</p>"
               "<p>Installed drivers are listed in <tt>/etc/OpenCL/vendors/*.icd</tt> (or the folder named "
               "by "
               "<tt>OCL_ICD_VENDORS</tt>). Check with <tt>clinfo -l</tt>, then press <i>Look again</i>.</p>")
                .arg(why));
        m_stack->setCurrentWidget(m_emptyPage);
        return;
    }
    m_stack->setCurrentWidget(m_treePage);
    // Platforms and devices open, parameter groups closed: the first screen shows what is there.
    for (int p = 0; p < m_proxy->rowCount(); ++p) {
        const QModelIndex pi = m_proxy->index(p, 0);
        m_view->expand(pi);
        for (int d = 0; d < m_proxy->rowCount(pi); ++d) {
            const QModelIndex di = m_proxy->index(d, 0, pi);
            if (di.data(DeviceTreeModel::NodeKindRole).toInt() == DeviceTreeModel::DeviceNode) {
                m_view->expand(di);
                m_view->expand(m_proxy->index(0, 0, di)); // the General group
            }
        }
    }
    m_view->resizeColumnToContents(DeviceTreeModel::NameColumn);
    m_nameWidth = m_view->columnWidth(DeviceTreeModel::NameColumn);
    fitColumns();
    onCurrentDeviceChanged(m_manager->currentDevice());
}

void DeviceDock::fitColumns()
{
    // Parameter names get about 40 % of the width (never more than they need), values the rest: a narrow
    // dock still shows both.
    const int width = m_view->viewport()->width();
    m_view->setColumnWidth(DeviceTreeModel::NameColumn, std::max(80, std::min(m_nameWidth, width * 2 / 5)));
}

void DeviceDock::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitColumns();
}

void DeviceDock::onCurrentDeviceChanged(DeviceKey key)
{
    m_model->setCurrentDevice(key.platform, key.device);
    const QModelIndex source = m_model->deviceIndex(key.platform, key.device);
    if (!source.isValid())
        return;
    const QModelIndex proxy = m_proxy->mapFromSource(source);
    m_view->setCurrentIndex(proxy);
}

void DeviceDock::onActivated(const QModelIndex &proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    const int platform = proxyIndex.data(DeviceTreeModel::PlatformIndexRole).toInt();
    const int device = proxyIndex.data(DeviceTreeModel::DeviceIndexRole).toInt();
    if (device >= 0)
        m_manager->setCurrentDevice({platform, device});
}

QString DeviceDock::selectionText() const
{
    QStringList lines;
    QModelIndexList rows =
        m_view->selectionModel() ? m_view->selectionModel()->selectedRows(0) : QModelIndexList{};
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) {
        return a.parent() == b.parent() ? a.row() < b.row() : a.internalPointer() < b.internalPointer();
    });
    for (const QModelIndex &name : rows) {
        const QModelIndex value = name.siblingAtColumn(DeviceTreeModel::ValueColumn);
        const QModelIndex source = m_proxy->mapToSource(name);
        // Whole subtrees (a device, a group) are copied with everything under them.
        if (m_model->rowCount(source) > 0) {
            lines << name.data().toString() + u'\t' + value.data().toString();
            lines << modelToText(*m_model, source).trimmed();
        } else {
            const QString cl = name.data(DeviceTreeModel::ParamNameRole).toString();
            lines << name.data().toString() + u'\t' + value.data().toString() +
                         (cl.isEmpty() ? QString() : QStringLiteral("\t") + cl);
        }
    }
    return lines.join(u'\n');
}

void DeviceDock::copySelection()
{
    const QString text = selectionText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

QString DeviceDock::exportJson(const QString &path) const
{
    const auto snapshot = m_model->snapshot();
    if (!snapshot)
        return tr("No devices have been read yet.");
    const QString error = writeFileSafely(path, QByteArray::fromStdString(snapshotToJson(*snapshot)) + '\n');
    if (!error.isEmpty())
        return tr("Cannot write %1: %2").arg(path, error);
    return {};
}

void DeviceDock::chooseExportFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export devices as JSON"), QStringLiteral("clscope-devices.json"), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = exportJson(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace clscope::ui
