// The Timeline panel's statistics and duration histogram (timelinestatspane.h).
#include "timelinestatspane.h"

#include "display/recordformat.h"
#include "display/timelinedata.h"
#include "models/devicestatsmodel.h"
#include "models/kernelstatsmodel.h"
#include "plottheme.h"
#include "qcustomplotinclude.h"

#include <QEvent>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace clscope::ui {

QTableView *makeRecordTable(QAbstractItemModel *model, const QString &name)
{
    auto *view = new QTableView;
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    // Fixed row heights: a million rows must not be measured one by one.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

TimelineStatsPane::TimelineStatsPane(QWidget *parent)
    : QWidget(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
    , m_statsModel(new KernelStatsModel(this))
    , m_statsProxy(new QSortFilterProxyModel(this))
    , m_deviceStatsModel(new DeviceStatsModel(this))
    , m_deviceStatsProxy(new QSortFilterProxyModel(this))
    , m_plot(new QCustomPlot)
{
    m_statsProxy->setSourceModel(m_statsModel);
    m_statsProxy->setSortRole(KernelStatsModel::SortRole);
    m_stats = makeRecordTable(m_statsProxy, QStringLiteral("timelineStats"));
    m_stats->sortByColumn(KernelStatsModel::TotalColumn, Qt::DescendingOrder);
    m_deviceStatsProxy->setSourceModel(m_deviceStatsModel);
    m_deviceStatsProxy->setSortRole(DeviceStatsModel::SortRole);
    m_deviceStats = makeRecordTable(m_deviceStatsProxy, QStringLiteral("timelineDeviceStats"));
    m_deviceStats->sortByColumn(-1, Qt::AscendingOrder); // devices in order of first appearance
    const int charWidth = m_stats->fontMetrics().averageCharWidth();
    m_stats->setColumnWidth(KernelStatsModel::NameColumn, 18 * charWidth);
    m_deviceStats->setColumnWidth(DeviceStatsModel::DeviceColumn, 28 * charWidth);

    // Histogram of the selected kernel's durations.
    m_plot->setObjectName(QStringLiteral("timelineHistogram"));
    m_plot->setMinimumHeight(140);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0,
                                     new QCPTextElement(m_plot, tr("Select a kernel to see its durations")));
    m_bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bars->setName(tr("durations"));
    m_bars->setPen(QPen(QColor(0x2f, 0x55, 0x7f)));
    m_bars->setBrush(QColor(0x4e, 0x79, 0xa7));
    m_plot->yAxis->setLabel(tr("count"));
    // Counts are whole: ticks at multiples of 1 (2, 5, 10... when there are many).
    auto counts = QSharedPointer<QCPAxisTickerFixed>::create();
    counts->setTickStep(1.0);
    counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(counts);
    applyPlotTheme();

    auto *tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("timelineStatsTabs"));
    tabs->setDocumentMode(true);
    tabs->addTab(m_stats, tr("By kernel"));
    tabs->addTab(m_deviceStats, tr("By device"));
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(tabs);
    split->addWidget(m_plot);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_stats->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                showHistogramFor(current.isValid() ? m_statsProxy->mapToSource(current).row() : -1);
            });
    m_stats->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_stats, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_stats->indexAt(pos);
        if (!index.isValid())
            return;
        const DurationStats &group = m_statsModel->stats(m_statsProxy->mapToSource(index).row());
        if (group.type == CommandRecord::Type::Kernel)
            emit kernelMenuRequested(m_stats->viewport()->mapToGlobal(pos),
                                     QString::fromStdString(group.name));
    });
}

void TimelineStatsPane::setRecords(RecordsPtr records, bool growing)
{
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    if (growing && !m_madeAgo.isValid())
        m_madeAgo.start();
    if (growing && m_madeAgo.elapsed() < qint64(10 * m_costMs))
        return;
    QElapsedTimer cost;
    cost.start();
    m_statsModel->setRecords(*m_records);
    m_deviceStatsModel->setRecords(*m_records);
    m_costMs = double(cost.nsecsElapsed()) / 1e6;
    m_madeAgo.start();
    m_histogramGroup = -1;
    if (m_statsModel->rowCount() > 0)
        m_stats->setCurrentIndex(m_statsProxy->index(0, 0)); // the heaviest group, as sorted by total
    else
        showHistogramFor(-1);
}

void TimelineStatsPane::selectGroupOf(const CommandRecord &r)
{
    const int row = m_statsModel->rowOf(r.type, r.name);
    if (row >= 0)
        m_stats->setCurrentIndex(m_statsProxy->mapFromSource(m_statsModel->index(row, 0)));
}

void TimelineStatsPane::showHistogramFor(int statsRow)
{
    m_histogramGroup = statsRow;
    auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0));
    if (statsRow < 0 || statsRow >= m_statsModel->rowCount()) {
        m_bars->data()->clear();
        if (title)
            title->setText(tr("Select a kernel to see its durations"));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const DurationStats &group = m_statsModel->stats(statsRow);
    std::vector<std::uint64_t> durations;
    for (const CommandRecord &r : *m_records) {
        if (r.type == group.type && r.name == group.name && r.start != 0 && r.end != 0 && r.start <= r.end)
            durations.push_back(r.duration());
    }
    const DurationHistogram h = histogram(durations);
    // One unit for the whole axis, picked from the longest duration so that labels stay short.
    const double unit = group.maxNs >= 1e9 ? 1e9 : group.maxNs >= 1e6 ? 1e6 : group.maxNs >= 1e3 ? 1e3 : 1;
    const QString unitText = QString::fromUtf8(unitName(unit));
    QVector<double> keys;
    QVector<double> values;
    double top = 0;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        keys << (h.minNs + (static_cast<double>(i) + 0.5) * h.binWidthNs) / unit;
        values << static_cast<double>(h.counts[i]);
        top = std::max(top, values.back());
    }
    m_bars->setWidth(h.binWidthNs / unit);
    m_bars->setData(keys, values, /*alreadySorted*/ true);
    m_plot->xAxis->setLabel(tr("duration (%1)").arg(unitText));
    if (!keys.isEmpty()) {
        const double pad = h.binWidthNs / unit;
        m_plot->xAxis->setRange(keys.front() - pad, keys.back() + pad);
        m_plot->yAxis->setRange(0, top * 1.1 + 1);
    }
    if (title) {
        title->setText(tr("%1 — %2 runs, median %3, σ %4")
                           .arg(QString::fromStdString(group.name))
                           .arg(group.count)
                           .arg(durationText(group.medianNs), durationText(group.stddevNs)));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<std::uint64_t> TimelineStatsPane::histogramCounts() const
{
    std::vector<std::uint64_t> out;
    for (auto it = m_bars->data()->constBegin(); it != m_bars->data()->constEnd(); ++it)
        out.push_back(static_cast<std::uint64_t>(std::llround(it->value)));
    return out;
}

void TimelineStatsPane::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPlotTheme();
}

void TimelineStatsPane::applyPlotTheme()
{
    if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        title->setTextColor(palette().color(QPalette::WindowText));
    clscope::ui::applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis});
}

} // namespace clscope::ui
