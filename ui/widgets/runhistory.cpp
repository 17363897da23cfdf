// The run history list.
#include "runhistory.h"

#include "display/recordformat.h"
#include "models/eventtablemodel.h"

#include <QBrush>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPalette>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

RunHistoryPanel::RunHistoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QTreeWidget)
    , m_clear(new QPushButton(tr("Clear")))
{
    setObjectName(QStringLiteral("runHistory"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("#"), tr("Time"), tr("Kernel"), tr("Device"), tr("NDRange"),
                             tr("Kernel time"), tr("Run"), tr("Result"), tr("Arguments")});
    m_list->header()->setStretchLastSection(true);
    auto *rerun = new QPushButton(tr("Re-run"));
    rerun->setEnabled(false);
    m_clear->setObjectName(QStringLiteral("runHistoryClear"));
    m_clear->setToolTip(tr("Forget every run in the list"));
    m_clear->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(rerun);
    buttons->addStretch();
    buttons->addWidget(m_clear);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);

    auto request = [this] {
        const int row = m_list->indexOfTopLevelItem(m_list->currentItem());
        if (row >= 0 && row < m_entries.size())
            emit rerunRequested(m_entries[row].state);
    };
    connect(rerun, &QPushButton::clicked, this, request);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, request);
    connect(m_list, &QTreeWidget::currentItemChanged, this,
            [rerun](QTreeWidgetItem *item) { rerun->setEnabled(item); });
    connect(m_clear, &QPushButton::clicked, this, &RunHistoryPanel::clear);
}

void RunHistoryPanel::runStarted(const QString &device, std::chrono::steady_clock::time_point start)
{
    m_pending = Pending{device, start};
}

void RunHistoryPanel::addFailure(const ArgumentsState &state, const QString &message)
{
    RunHistoryEntry entry;
    entry.when = QDateTime::currentDateTime();
    entry.state = state;
    entry.outcome = message;
    entry.failed = true;
    add(std::move(entry));
}

void RunHistoryPanel::clear()
{
    m_entries.clear();
    m_list->clear();
    m_clear->setEnabled(false);
}

void RunHistoryPanel::add(RunHistoryEntry entry)
{
    if (m_pending) {
        if (entry.device.isEmpty())
            entry.device = m_pending->device;
        if (entry.wallMs <= 0)
            entry.wallMs =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_pending->start)
                    .count();
        m_pending.reset();
    }
    m_entries << entry;
    auto *item = new QTreeWidgetItem(m_list);
    const ArgumentsState &s = entry.state;
    QString range = s.global;
    if (!s.local.isEmpty())
        range += QStringLiteral(" / ") + s.local;
    if (!s.offset.isEmpty())
        range += QStringLiteral(" + ") + s.offset;
    if (s.repeat > 1)
        range += QStringLiteral(" ×") + QString::number(s.repeat);
    item->setText(NumberColumn, QString::number(m_entries.size()));
    item->setText(TimeColumn, entry.when.toString(QStringLiteral("HH:mm:ss")));
    item->setText(KernelColumn, s.kernel);
    item->setText(DeviceColumn, entry.device);
    item->setToolTip(DeviceColumn, entry.device);
    item->setText(RangeColumn, range);
    item->setText(KernelTimeColumn, entry.kernelUs > 0 ? durationText(entry.kernelUs * 1e3) : QString());
    item->setText(RunColumn, entry.wallMs > 0 ? durationText(entry.wallMs * 1e6) : QString());
    item->setText(ResultColumn, entry.outcome);
    item->setToolTip(ResultColumn, entry.outcome);
    if (entry.failed)
        item->setForeground(ResultColumn, QBrush(QColor(0xc0, 0x20, 0x20)));
    item->setText(ArgumentsColumn, s.specs.join(QStringLiteral("  ")));
    item->setToolTip(ArgumentsColumn, s.specs.join(u'\n'));
    m_list->scrollToItem(item);
    for (int c = 0; c < ArgumentsColumn; ++c)
        m_list->resizeColumnToContents(c);
    m_clear->setEnabled(true);
}

} // namespace clscope::ui
