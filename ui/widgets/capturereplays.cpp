// The Capture panel's Replay tab (capturereplays.h).
#include "capturereplays.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clscope::ui {

CaptureReplays::CaptureReplays(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableWidget)
    , m_debug(new QPushButton(tr("Debug the first difference")))
{
    m_table->setObjectName(QStringLiteral("captureReplays"));
    m_table->setColumnCount(3);
    m_table->setHorizontalHeaderLabels({tr("Device"), tr("Kernel time"), tr("Result")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_debug->setObjectName(QStringLiteral("captureDebugDifference"));
    m_debug->setToolTip(
        tr("Replay the launch on the Oclgrind simulator and stop the work-item that writes the "
           "first element that differed"));
    m_debug->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_debug);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    connect(m_debug, &QPushButton::clicked, this, [this] {
        if (m_launch >= 0)
            emit debugRequested(m_launch, m_element);
    });
}

void CaptureReplays::clear()
{
    m_table->setRowCount(0);
    m_launch = -1;
    m_element.clear();
    m_debug->setEnabled(false);
    m_debug->setText(tr("Debug the first difference"));
}

void CaptureReplays::setFirstDifference(qint64 launch, const QString &element)
{
    if (m_launch >= 0)
        return; // the first device's first difference
    m_launch = launch;
    m_element = element;
    m_debug->setText(tr("Debug the first difference (%1)").arg(element));
    m_debug->setEnabled(true);
}

void CaptureReplays::add(const QString &device, const QString &time, const QString &verdict, bool ok)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(device));
    m_table->setItem(row, 1, new QTableWidgetItem(time));
    auto *v = new QTableWidgetItem(verdict);
    v->setForeground(ok ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    m_table->setItem(row, 2, v);
    m_table->resizeColumnsToContents();
}

} // namespace clscope::ui
