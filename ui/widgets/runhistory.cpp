// The run history list.
#include "runhistory.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

RunHistoryPanel::RunHistoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QTreeWidget)
{
    setObjectName(QStringLiteral("runHistory"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("#"), tr("Time"), tr("Kernel"), tr("NDRange"), tr("Kernel time"), tr("Run"),
                             tr("Result"), tr("Arguments")});
    m_list->header()->setStretchLastSection(true);
    auto *rerun = new QPushButton(tr("Re-run"));
    rerun->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(rerun);
    buttons->addStretch();
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
}

void RunHistoryPanel::add(const RunHistoryEntry &entry)
{
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
    item->setText(0, QString::number(m_entries.size()));
    item->setText(1, entry.when.toString(QStringLiteral("HH:mm:ss")));
    item->setText(2, s.kernel);
    item->setText(3, range);
    item->setText(4, entry.kernelUs > 0 ? QStringLiteral("%1 us").arg(entry.kernelUs, 0, 'f', 1) : QString());
    item->setText(5, QStringLiteral("%1 ms").arg(entry.wallMs, 0, 'f', 1));
    item->setText(6, entry.outcome);
    item->setToolTip(6, entry.outcome);
    item->setText(7, s.specs.join(QStringLiteral("  ")));
    item->setToolTip(7, s.specs.join(u'\n'));
    m_list->scrollToItem(item);
    for (int c = 0; c < 7; ++c)
        m_list->resizeColumnToContents(c);
}

} // namespace clscope::ui
