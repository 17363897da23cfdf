// Memory pool panel: pool and workload controls, the live chart, counters and the bin histogram.
#include "pooldock.h"

#include "poolbinchart.h"
#include "poolchart.h"
#include "poolworkloadbar.h"

#include "clscope/format.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {
QString bytes(std::uint64_t n)
{
    return QString::fromStdString(formatBytes(n));
}

QString count(std::uint64_t n)
{
    return QLocale().toString(quint64(n));
}

struct CounterInfo
{
    const char *key;
    const char *name;
    const char *help;
};
// Two columns; names and meanings as pyopencl's MemoryPool where it has them (shared/POOL.md).
const CounterInfo kCounters[] = {
    {"heldBlocks", QT_TRANSLATE_NOOP("PoolDock", "Held blocks"),
     QT_TRANSLATE_NOOP("PoolDock", "Freed blocks the pool keeps for reuse (pyopencl held_blocks)")},
    {"heldBytes", QT_TRANSLATE_NOOP("PoolDock", "Held bytes"),
     QT_TRANSLATE_NOOP("PoolDock", "Allocated size of the held blocks")},
    {"activeBlocks", QT_TRANSLATE_NOOP("PoolDock", "Active blocks"),
     QT_TRANSLATE_NOOP("PoolDock", "Blocks in use (pyopencl active_blocks)")},
    {"activeBytes", QT_TRANSLATE_NOOP("PoolDock", "Active bytes"),
     QT_TRANSLATE_NOOP("PoolDock", "Requested sizes of the blocks in use (pyopencl active_bytes)")},
    {"managedBytes", QT_TRANSLATE_NOOP("PoolDock", "Managed bytes"),
     QT_TRANSLATE_NOOP("PoolDock", "Allocated sizes of active and held blocks (pyopencl managed_bytes)")},
    {"peakManaged", QT_TRANSLATE_NOOP("PoolDock", "Peak managed"),
     QT_TRANSLATE_NOOP("PoolDock", "Highest managed bytes since the pool was made")},
    {"peakActive", QT_TRANSLATE_NOOP("PoolDock", "Peak active"),
     QT_TRANSLATE_NOOP("PoolDock", "Highest active bytes since the pool was made")},
    {"hitRate", QT_TRANSLATE_NOOP("PoolDock", "Hit rate"),
     QT_TRANSLATE_NOOP("PoolDock", "Requests served from a held block, of all requests")},
    {"hits", QT_TRANSLATE_NOOP("PoolDock", "Hits"),
     QT_TRANSLATE_NOOP("PoolDock", "Requests served from a held block")},
    {"misses", QT_TRANSLATE_NOOP("PoolDock", "Misses"),
     QT_TRANSLATE_NOOP("PoolDock", "Requests that had to ask the allocator")},
    {"allocatorCalls", QT_TRANSLATE_NOOP("PoolDock", "Allocator calls"),
     QT_TRANSLATE_NOOP("PoolDock", "Allocations asked of the device (failed ones in brackets)")},
    {"allocatorReleases", QT_TRANSLATE_NOOP("PoolDock", "Releases"),
     QT_TRANSLATE_NOOP("PoolDock", "Blocks given back to the device")},
    {"oomRecoveries", QT_TRANSLATE_NOOP("PoolDock", "OOM recoveries"),
     QT_TRANSLATE_NOOP("PoolDock",
                       "Requests that ran out of memory and succeeded after the pool gave back held blocks")},
    {"holding", QT_TRANSLATE_NOOP("PoolDock", "Holding"),
     QT_TRANSLATE_NOOP("PoolDock", "Whether freed blocks are kept (Stop holding turns this off for good)")},
};

} // namespace

PoolDock::PoolDock(std::shared_ptr<DeviceWorkers> workers, QWidget *parent)
    : QWidget(parent)
    , m_monitor(new PoolMonitor(std::move(workers), this))
    , m_chart(new PoolChart(m_monitor))
    , m_bins(new PoolBinChart)
{
    setObjectName(QStringLiteral("poolDock"));

    m_banner = new QFrame;
    m_banner->setObjectName(QStringLiteral("poolError"));
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setStyleSheet(QStringLiteral("#poolError { background: #fdecea; border: 1px solid #e0a8a3; }"
                                           "#poolError QLabel { color: #8a1c12; }"));
    m_bannerText = new QLabel;
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextFormat(Qt::PlainText);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *closeBanner = new QToolButton;
    closeBanner->setText(QStringLiteral("✕"));
    closeBanner->setAutoRaise(true);
    closeBanner->setToolTip(tr("Dismiss"));
    connect(closeBanner, &QToolButton::clicked, m_banner, &QWidget::hide);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(8, 4, 4, 4);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(closeBanner, 0, Qt::AlignTop);
    m_banner->hide();

    auto *bottom = new QWidget;
    auto *bottomLayout = new QHBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(createCounters());
    auto *binsBox = new QGroupBox(tr("Bins: blocks per size"));
    auto *binsLayout = new QVBoxLayout(binsBox);
    binsLayout->setContentsMargins(4, 4, 4, 4);
    binsLayout->addWidget(m_bins);
    bottomLayout->addWidget(binsBox, 1);

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_chart);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(createPoolBar());
    m_workloadBar = new PoolWorkloadBar(m_monitor);
    m_workloadBar->setObjectName(QStringLiteral("poolWorkloadBar"));
    connect(m_workloadBar, &PoolWorkloadBar::runRequested, this, &PoolDock::runWorkload);
    layout->addWidget(m_workloadBar);
    layout->addWidget(m_banner);
    layout->addWidget(splitter, 1);

    connect(m_monitor, &PoolMonitor::updated, this, &PoolDock::onUpdated);
    connect(m_monitor, &PoolMonitor::poolChanged, this, &PoolDock::onPoolChanged);
    connect(m_monitor, &PoolMonitor::errorOccurred, this, &PoolDock::showError);
    // After the workload bar's own (its status line, its rate clock).
    connect(m_monitor, &PoolMonitor::workloadFinished, this, &PoolDock::updateActions);
    connect(m_monitor, &PoolMonitor::workloadRunningChanged, this, &PoolDock::updateActions);
    connect(m_monitor, &PoolMonitor::deviceReady, this, [this](bool svm) {
        // SVM is offered only where the device has it.
        if (auto *model = qobject_cast<QStandardItemModel *>(m_allocator->model()))
            model->item(int(AllocatorKind::Svm))->setEnabled(svm);
        if (!svm && m_allocator->currentIndex() == int(AllocatorKind::Svm))
            m_allocator->setCurrentIndex(int(AllocatorKind::Immediate));
    });
    onPoolChanged();
}

PoolDock::~PoolDock() = default; // the monitor (a child) stops the workload; its worker drops the pools

QWidget *PoolDock::createPoolBar()
{
    auto *bar = new QWidget;
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    m_poolLabel = new QLabel;
    m_poolLabel->setObjectName(QStringLiteral("poolLabel"));
    m_poolLabel->setTextFormat(Qt::PlainText);
    QFont bold = m_poolLabel->font();
    bold.setBold(true);
    m_poolLabel->setFont(bold);
    m_freeHeld = new QPushButton(tr("Free held"));
    m_freeHeld->setObjectName(QStringLiteral("poolFreeHeld"));
    m_freeHeld->setToolTip(tr("Give every held block back to the device (pyopencl free_held)"));
    connect(m_freeHeld, &QPushButton::clicked, m_monitor, &PoolMonitor::freeHeld);
    m_stopHolding = new QPushButton(tr("Stop holding"));
    m_stopHolding->setObjectName(QStringLiteral("poolStopHolding"));
    m_stopHolding->setToolTip(tr("Free held blocks and never hold again: every free goes back to the device "
                                 "(pyopencl stop_holding; permanent for this pool)"));
    connect(m_stopHolding, &QPushButton::clicked, m_monitor, &PoolMonitor::stopHolding);

    m_leadingBits = new QSpinBox;
    m_leadingBits->setObjectName(QStringLiteral("poolLeadingBits"));
    m_leadingBits->setRange(0, kMaxLeadingBits);
    m_leadingBits->setValue(kDefaultLeadingBits);
    m_leadingBits->setToolTip(tr("Leading bits of a size kept in its bin: more bits, finer bins, less waste, "
                                 "fewer hits"));
    m_allocator = new QComboBox;
    m_allocator->setObjectName(QStringLiteral("poolAllocator"));
    for (AllocatorKind kind : {AllocatorKind::Deferred, AllocatorKind::Immediate, AllocatorKind::Svm})
        m_allocator->addItem(allocatorName(kind), int(kind));
    m_allocator->setCurrentIndex(int(AllocatorKind::Immediate));
    m_allocator->setItemData(int(AllocatorKind::Deferred),
                             tr("clCreateBuffer only: memory may appear on first use"), Qt::ToolTipRole);
    m_allocator->setItemData(
        int(AllocatorKind::Immediate),
        tr("clCreateBuffer and make the memory real at once, so out-of-memory shows here"), Qt::ToolTipRole);
    m_allocator->setItemData(int(AllocatorKind::Svm), tr("Coarse-grained shared virtual memory (clSVMAlloc)"),
                             Qt::ToolTipRole);
    // Offered once the device says it has shared virtual memory (deviceReady).
    if (auto *model = qobject_cast<QStandardItemModel *>(m_allocator->model()))
        model->item(int(AllocatorKind::Svm))->setEnabled(false);
    m_newPool = new QPushButton(tr("New pool"));
    m_newPool->setObjectName(QStringLiteral("poolNew"));
    m_newPool->setToolTip(tr("Replace the pool with an empty one using these settings"));
    connect(m_newPool, &QPushButton::clicked, this, [this] {
        m_monitor->newPool(m_leadingBits->value(), AllocatorKind(m_allocator->currentData().toInt()));
    });

    auto *separator = new QFrame;
    separator->setFrameShape(QFrame::VLine);
    separator->setFrameShadow(QFrame::Sunken);
    row->addWidget(m_poolLabel, 1);
    row->addWidget(m_freeHeld);
    row->addWidget(m_stopHolding);
    row->addWidget(separator);
    row->addWidget(new QLabel(tr("Leading bits")));
    row->addWidget(m_leadingBits);
    row->addWidget(new QLabel(tr("Allocator")));
    row->addWidget(m_allocator);
    row->addWidget(m_newPool);
    return bar;
}

QWidget *PoolDock::createCounters()
{
    auto *box = new QGroupBox(tr("Counters"));
    box->setObjectName(QStringLiteral("poolCounters"));
    auto *grid = new QGridLayout(box);
    grid->setContentsMargins(8, 4, 8, 4);
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(2);
    constexpr int kRows = (std::size(kCounters) + 1) / 2;
    for (std::size_t i = 0; i < std::size(kCounters); ++i) {
        const CounterInfo &c = kCounters[i];
        const int row = int(i) % kRows;
        const int column = int(i) / kRows * 2;
        auto *name = new QLabel(tr(c.name));
        name->setToolTip(tr(c.help));
        auto *value = new QLabel(QStringLiteral("–"));
        value->setObjectName(QStringLiteral("counter_") + QLatin1String(c.key));
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setToolTip(tr(c.help));
        value->setMinimumWidth(value->fontMetrics().horizontalAdvance(QStringLiteral("0000.00 MiB")));
        grid->addWidget(name, row, column);
        grid->addWidget(value, row, column + 1);
        m_counters.insert(QLatin1String(c.key), value);
        m_counterOrder << QLatin1String(c.key);
    }
    grid->setRowStretch(kRows, 1);
    return box;
}

void PoolDock::setDevice(cl_device_id device, const QString &name)
{
    if (device == m_monitor->device())
        return;
    m_monitor->setDevice(device, name);
    m_poolLabel->setText(device ? tr("Starting a pool on %1…").arg(name)
                                : tr("No device: pick one in the Devices panel"));
    updateActions();
}

void PoolDock::onCurrentDeviceChanged(const DeviceSnapshot *device)
{
    setDevice(device ? device->id : nullptr, device ? QString::fromStdString(device->name()) : QString());
}

void PoolDock::onRunPoolInUse(const std::shared_ptr<const RunPool> &pool)
{
    bool shown = false;
    const bool made = pool && pool->read([&](const MemoryPool &p) { shown = m_monitor->isShowing(&p); });
    if (made && !shown && !m_monitor->isWorkloadRunning())
        m_monitor->attachRunPool(pool, tr("Kernel runs"));
}

void PoolDock::attachPool(std::shared_ptr<MemoryPool> pool, const QString &label)
{
    m_monitor->attachPool(std::move(pool), label);
}

void PoolDock::setWorkload(WorkloadKind kind, double opsPerSecond, const QString &tracePath)
{
    m_workloadBar->setWorkload(kind, opsPerSecond, tracePath);
}

void PoolDock::runWorkload()
{
    m_banner->hide();
    m_workloadBar->start();
}

void PoolDock::stopWorkload()
{
    m_monitor->stopWorkload();
}

void PoolDock::requestNewPool(int leadingBits, AllocatorKind kind)
{
    m_leadingBits->setValue(leadingBits);
    m_allocator->setCurrentIndex(m_allocator->findData(int(kind)));
    m_newPool->click();
}

QString PoolDock::counterText(const QString &key) const
{
    const QLabel *label = m_counters.value(key);
    return label ? label->text() : QString();
}

QStringList PoolDock::counterKeys() const
{
    return m_counterOrder;
}

QString PoolDock::errorText() const
{
    return m_banner->isHidden() ? QString() : m_bannerText->text();
}

QString PoolDock::statusText() const
{
    return m_workloadBar->statusText();
}

void PoolDock::showError(const QString &message)
{
    m_bannerText->setText(message);
    m_banner->show();
}

void PoolDock::onPoolChanged()
{
    if (m_monitor->hasPool()) {
        m_poolLabel->setText(m_monitor->poolLabel());
    } else if (m_monitor->device()) {
        m_poolLabel->setText(tr("No pool on %1").arg(m_monitor->deviceName()));
    } else {
        m_poolLabel->setText(tr("No device: pick one in the Devices panel"));
    }
    onUpdated();
}

void PoolDock::onUpdated()
{
    const PoolStats &s = m_monitor->stats();
    const PoolCounters &c = s.counters;
    const bool has = m_monitor->hasPool();
    const auto set = [this, has](const char *key, const QString &text) {
        m_counters.value(QLatin1String(key))->setText(has ? text : QStringLiteral("–"));
    };
    set("heldBlocks", count(c.heldBlocks));
    set("heldBytes", bytes(c.heldBytes));
    set("activeBlocks", count(c.activeBlocks));
    set("activeBytes", bytes(c.activeBytes));
    set("managedBytes", bytes(c.managedBytes));
    set("peakManaged", bytes(s.peakManagedBytes));
    set("peakActive", bytes(s.peakActiveBytes));
    set("hits", count(s.hits));
    set("misses", count(s.misses));
    const std::uint64_t requests = s.hits + s.misses;
    set("hitRate", requests == 0 ? QStringLiteral("–")
                                 : QLocale().toString(100.0 * double(s.hits) / double(requests), 'f', 1) +
                                       QStringLiteral(" %"));
    set("allocatorCalls",
        s.allocatorFailures == 0
            ? count(s.allocatorCalls)
            : tr("%1 (%2 failed)").arg(count(s.allocatorCalls), count(s.allocatorFailures)));
    set("allocatorReleases", count(s.allocatorReleases));
    set("oomRecoveries", s.oomFailures == 0
                             ? count(s.oomRecoveries)
                             : tr("%1 (%2 failed)").arg(count(s.oomRecoveries), count(s.oomFailures)));
    set("holding", s.holding ? tr("yes") : tr("no (stopped)"));
    m_bins->setBins(s.bins);
    m_workloadBar->updateRunStatus();
    updateActions();
}

void PoolDock::updateActions()
{
    const bool has = m_monitor->hasPool();
    const bool running = m_monitor->isWorkloadRunning();
    m_freeHeld->setEnabled(has);
    m_stopHolding->setEnabled(has && m_monitor->stats().holding);
    m_newPool->setEnabled(m_monitor->device() != nullptr);
    m_workloadBar->setActionsEnabled(has, running);
}

} // namespace clscope::ui
