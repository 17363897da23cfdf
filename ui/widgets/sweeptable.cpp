// The sweep window's table (see sweeptable.h).
#include "sweeptable.h"

#include "display/stdstring.h"

#include <QHeaderView>

#include <limits>

namespace clscope::ui {

namespace {
const QColor kWarningText(0xc6, 0x28, 0x28);
const QColor kBestText(0x18, 0x80, 0x38);

QString sizeText(const std::vector<std::size_t> &local)
{
    return qs(localSizeLabel(local));
}

// Microseconds with three significant digits or more: 0.123, 12.35, 1234.5.
QString usText(double ns)
{
    const double us = ns / 1e3;
    const int decimals = us >= 100 ? 1 : us >= 10 ? 2 : 3;
    return QString::number(us, 'f', decimals);
}

// Sorts by the number each cell keeps (Qt::UserRole), not by its text; a size that did not run sorts last.
class SweepItem : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        if (column == SweepTable::OutputsColumn)
            return text(column) < other.text(column);
        return data(column, Qt::UserRole).toDouble() < other.data(column, Qt::UserRole).toDouble();
    }
};
} // namespace

SweepTable::SweepTable(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("sweepTable"));
    setColumnCount(OutputsColumn + 1);
    setHeaderLabels({tr("Local"), tr("Work-items"), tr("Median µs"), tr("Min µs"), tr("Mean µs"),
                     tr("Std dev µs"), tr("Outputs")});
    setRootIsDecorated(false);
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setSortingEnabled(true);
    header()->setStretchLastSection(true);
    header()->setSortIndicatorShown(true);
    sortByColumn(-1, Qt::AscendingOrder); // the order tried until a header is clicked
}

void SweepTable::setResult(const SweepResult &result)
{
    setSortingEnabled(false);
    clear();
    const QColor muted = palette().color(QPalette::PlaceholderText);
    for (std::size_t i = 0; i < result.points.size(); ++i) {
        const SweepPoint &p = result.points[i];
        auto *item = new SweepItem(this);
        std::size_t items = 1;
        for (std::size_t s : p.local)
            items *= s;
        item->setText(LocalColumn, sizeText(p.local));
        item->setData(LocalColumn, Qt::UserRole, double(i)); // the order tried
        item->setText(ItemsColumn, p.local.empty() ? QString() : QString::number(items));
        item->setData(ItemsColumn, Qt::UserRole, p.local.empty() ? 0.0 : double(items));
        for (int c = LocalColumn; c <= StddevColumn; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(LocalColumn, Qt::AlignLeft | Qt::AlignVCenter);
        if (!p.ran) {
            for (int c = MedianColumn; c <= StddevColumn; ++c)
                item->setData(c, Qt::UserRole, std::numeric_limits<double>::infinity());
            item->setText(OutputsColumn, tr("did not run: %1").arg(qs(p.error)));
            item->setToolTip(OutputsColumn, qs(p.error));
            for (int c = 0; c <= OutputsColumn; ++c)
                item->setForeground(c, muted);
            continue;
        }
        const double figures[] = {p.stats.medianNs, double(p.stats.minNs), p.stats.meanNs, p.stats.stddevNs};
        for (int c = MedianColumn; c <= StddevColumn; ++c) {
            item->setText(c, usText(figures[c - MedianColumn]));
            item->setData(c, Qt::UserRole, figures[c - MedianColumn]);
        }
        QString outputs;
        if (result.reference == i) {
            outputs = tr("reference");
        } else if (p.matches) {
            outputs = tr("equal");
        } else {
            QStringList names;
            for (const std::string &n : p.differing)
                names << qs(n);
            outputs = tr("DIFFER: %1").arg(names.join(QStringLiteral(", ")));
            for (int c = 0; c <= OutputsColumn; ++c)
                item->setForeground(c, kWarningText);
        }
        if (result.best == i) {
            outputs += tr(" — best");
            QFont bold = item->font(0);
            bold.setBold(true);
            for (int c = 0; c <= OutputsColumn; ++c) {
                item->setFont(c, bold);
                item->setForeground(c, kBestText);
            }
        }
        item->setText(OutputsColumn, outputs);
    }
    setSortingEnabled(true);
    for (int c = LocalColumn; c < OutputsColumn; ++c)
        resizeColumnToContents(c);
}

} // namespace clscope::ui
