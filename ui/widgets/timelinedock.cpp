// The profiling panel: layout, selection sync between timeline and tables, histogram, exports.
#include "timelinedock.h"

#include "display/recordformat.h"
#include "files/safewrite.h"
#include "models/devicestatsmodel.h"
#include "models/eventfilterproxy.h"
#include "models/kernelstatsmodel.h"
#include "plottheme.h"
#include "timelinewidget.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

// QCustomPlot 2.1's header uses `foreach` in two templates, which QT_NO_FOREACH rejects: a range-for
// stand-in exists for the length of the include only (the same trick as the pool panel's include header).
#if defined(foreach)
#include <qcustomplot.h>
#else
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach
#endif

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace clscope::ui {

namespace {

enum ExportKind { TraceExport, CsvExport, PngExport };

QTableView *makeTable(QAbstractItemModel *model, const QString &name)
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

} // namespace

TimelineDock::TimelineDock(QWidget *parent)
    : QWidget(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
    , m_timeline(new TimelineWidget)
    , m_eventModel(new EventTableModel(this))
    , m_eventProxy(new EventFilterProxy(this))
    , m_statsModel(new KernelStatsModel(this))
    , m_statsProxy(new QSortFilterProxyModel(this))
    , m_deviceStatsModel(new DeviceStatsModel(this))
    , m_deviceStatsProxy(new QSortFilterProxyModel(this))
    , m_plot(new QCustomPlot)
    , m_filter(new QLineEdit)
    , m_typeCombo(new QComboBox)
    , m_stagesCheck(new QCheckBox(tr("Stages")))
    , m_summary(new QLabel)
{
    setObjectName(QStringLiteral("timelineDock"));
    m_eventProxy->setSourceModel(m_eventModel);
    m_statsProxy->setSourceModel(m_statsModel);
    m_statsProxy->setSortRole(KernelStatsModel::SortRole);
    m_events = makeTable(m_eventProxy, QStringLiteral("timelineEvents"));
    m_stats = makeTable(m_statsProxy, QStringLiteral("timelineStats"));
    m_stats->sortByColumn(KernelStatsModel::TotalColumn, Qt::DescendingOrder);
    m_deviceStatsProxy->setSourceModel(m_deviceStatsModel);
    m_deviceStatsProxy->setSortRole(DeviceStatsModel::SortRole);
    m_deviceStats = makeTable(m_deviceStatsProxy, QStringLiteral("timelineDeviceStats"));
    m_deviceStats->sortByColumn(-1, Qt::AscendingOrder); // devices in order of first appearance
    m_events->sortByColumn(-1, Qt::AscendingOrder);      // record order until the user asks otherwise
    // Shift- and Ctrl-click select several rows; the timeline then spans them.
    m_events->setSelectionMode(QAbstractItemView::ExtendedSelection);
    const int charWidth = m_events->fontMetrics().averageCharWidth();
    // In average characters: enough for "16.3 ms", "Queued → start", "1048576".
    const std::array<int, EventTableModel::ColumnCount> widths = {7,  8,  18, 10, 18, 16, 11,
                                                                  16, 10, 12, 12, 8,  30};
    for (int c = 0; c < EventTableModel::ColumnCount; ++c)
        m_events->setColumnWidth(c, widths[static_cast<std::size_t>(c)] * charWidth);
    m_stats->setColumnWidth(KernelStatsModel::NameColumn, 18 * charWidth);
    m_deviceStats->setColumnWidth(DeviceStatsModel::DeviceColumn, 28 * charWidth);

    // Toolbar: view controls, filters, summary, exports.
    auto *clearButton = new QToolButton;
    clearButton->setObjectName(QStringLiteral("timelineClear"));
    clearButton->setText(tr("Clear"));
    clearButton->setToolTip(tr("Forget every command shown (the next run starts a new timeline)"));
    connect(clearButton, &QToolButton::clicked, this, &TimelineDock::clear);
    auto *fit = new QToolButton;
    fit->setText(tr("Fit all"));
    fit->setToolTip(tr("Show the whole run (double-click the timeline, or Home)"));
    connect(fit, &QToolButton::clicked, m_timeline, &TimelineWidget::fitAll);
    auto *lastRun = new QToolButton;
    lastRun->setObjectName(QStringLiteral("timelineLastRun"));
    lastRun->setText(tr("Last run"));
    lastRun->setToolTip(tr("Zoom to the commands of the latest run"));
    connect(lastRun, &QToolButton::clicked, this, &TimelineDock::zoomToLastRun);
    auto *toSelection = new QToolButton;
    toSelection->setObjectName(QStringLiteral("timelineZoomSelection"));
    toSelection->setText(tr("Zoom to selection"));
    toSelection->setToolTip(tr("Zoom to the rows selected in the events table (Shift- or Ctrl-click several: "
                               "the timeline follows by itself)"));
    connect(toSelection, &QToolButton::clicked, this, &TimelineDock::zoomToSelection);
    m_stagesCheck->setObjectName(QStringLiteral("timelineStages"));
    m_stagesCheck->setToolTip(
        tr("Show the queued and submitted stages above each command (and export them)"));
    connect(m_stagesCheck, &QCheckBox::toggled, m_timeline, &TimelineWidget::setShowStages);
    m_filter->setObjectName(QStringLiteral("timelineFilter"));
    m_filter->setPlaceholderText(tr("Filter by kernel or command name…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_eventProxy->setNameFilter(text);
        updateSummary();
    });
    m_typeCombo->setObjectName(QStringLiteral("timelineTypeFilter"));
    m_typeCombo->addItem(tr("All types"), -1);
    for (int t = 0; t < kCommandTypeCount; ++t)
        m_typeCombo->addItem(typeText(static_cast<CommandRecord::Type>(t)), t);
    connect(m_typeCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_eventProxy->setTypeFilter(m_typeCombo->itemData(index).toInt());
        updateSummary();
    });
    auto exportButton = [this](const QString &text, const QString &tip, int kind) {
        auto *b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, [this, kind] { chooseExport(kind); });
        return b;
    };
    auto *toolbar = new QHBoxLayout;
    toolbar->setContentsMargins(0, 0, 0, 0);
    toolbar->addWidget(clearButton);
    toolbar->addWidget(fit);
    toolbar->addWidget(lastRun);
    toolbar->addWidget(toSelection);
    toolbar->addWidget(m_stagesCheck);
    toolbar->addSpacing(12);
    toolbar->addWidget(m_filter, 1);
    toolbar->addWidget(m_typeCombo);
    toolbar->addWidget(m_summary, 1);
    toolbar->addWidget(exportButton(tr("Trace JSON…"),
                                    tr("Chrome trace event JSON (Perfetto, chrome://tracing)"), TraceExport));
    toolbar->addWidget(exportButton(tr("CSV…"), tr("One row per command"), CsvExport));
    toolbar->addWidget(exportButton(tr("PNG…"), tr("The timeline as a picture"), PngExport));

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

    auto *statsTabs = new QTabWidget;
    statsTabs->setObjectName(QStringLiteral("timelineStatsTabs"));
    statsTabs->setDocumentMode(true);
    statsTabs->addTab(m_stats, tr("By kernel"));
    statsTabs->addTab(m_deviceStats, tr("By device"));
    auto *statsSplit = new QSplitter(Qt::Vertical);
    statsSplit->addWidget(statsTabs);
    statsSplit->addWidget(m_plot);
    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_events);
    bottom->addWidget(statsSplit);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    auto *main = new QSplitter(Qt::Vertical);
    main->setObjectName(QStringLiteral("timelineSplitter"));
    main->addWidget(m_timeline);
    main->addWidget(bottom);
    main->setStretchFactor(0, 3);
    main->setStretchFactor(1, 2);
    main->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(toolbar);
    layout->addWidget(main, 1);

    connect(m_timeline, &TimelineWidget::recordClicked, this, &TimelineDock::onTimelineClicked);
    connect(m_events->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TimelineDock::onEventRowChanged);
    connect(m_events->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TimelineDock::onEventSelectionChanged);
    connect(m_stats->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TimelineDock::onStatsRowChanged);

    // A captured launch: its context menu opens it in the workbench, replays it, exports it.
    auto recordLaunch = [this](int record) -> qint64 {
        return record >= 0 && std::size_t(record) < m_records->size()
                   ? (*m_records)[std::size_t(record)].launch
                   : -1;
    };
    m_timeline->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_timeline, &QWidget::customContextMenuRequested, this, [this, recordLaunch](const QPoint &pos) {
        const int record = m_timeline->recordAt(pos);
        if (const qint64 launch = recordLaunch(record); launch >= 0)
            showLaunchMenu(m_timeline->mapToGlobal(pos), launch,
                           QString::fromStdString((*m_records)[std::size_t(record)].name));
    });
    m_events->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_events, &QWidget::customContextMenuRequested, this, [this, recordLaunch](const QPoint &pos) {
        const QModelIndex index = m_events->indexAt(pos);
        if (!index.isValid())
            return;
        const int record = m_eventProxy->mapToSource(index).row();
        if (const qint64 launch = recordLaunch(record); launch >= 0)
            showLaunchMenu(m_events->viewport()->mapToGlobal(pos), launch,
                           QString::fromStdString((*m_records)[std::size_t(record)].name));
    });
    m_stats->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_stats, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_stats->indexAt(pos);
        if (!index.isValid())
            return;
        const DurationStats &group = m_statsModel->stats(m_statsProxy->mapToSource(index).row());
        if (group.type == CommandRecord::Type::Kernel)
            showLaunchMenu(m_stats->viewport()->mapToGlobal(pos), -1, QString::fromStdString(group.name));
    });
    updateSummary();
}

void TimelineDock::showLaunchMenu(const QPoint &globalPos, qint64 launch, const QString &kernel)
{
    if (!m_launchActions)
        return;
    QMenu menu;
    const QString what = launch >= 0 ? tr("launch %1 (%2)").arg(launch).arg(kernel) : kernel;
    auto add = [&](const QString &text, LaunchAction action) {
        menu.addAction(text, this,
                       [this, launch, kernel, action] { emit launchRequested(launch, kernel, action); });
    };
    menu.addSection(what);
    add(tr("Open in workbench"), LaunchAction::OpenInWorkbench);
    add(tr("Replay on every device"), LaunchAction::ReplayOnEveryDevice);
    add(tr("Debug this launch"), LaunchAction::Debug);
    add(tr("Export as pyopencl script…"), LaunchAction::ExportPyopencl);
    menu.exec(globalPos);
}

void TimelineDock::setRecords(std::vector<CommandRecord> records, std::vector<PoolSeriesPoint> pool)
{
    m_records = std::make_shared<const std::vector<CommandRecord>>(std::move(records));
    m_pool = std::move(pool);
    m_lastRunBegin = 0;
    showRecords(false);
}

void TimelineDock::setRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool)
{
    m_records = records ? std::move(records) : std::make_shared<const std::vector<CommandRecord>>();
    m_pool = std::move(pool);
    m_lastRunBegin = 0;
    showRecords(false);
}

void TimelineDock::onRunFinished(const RunResult & /*result*/, const RunProfile &profile)
{
    appendRecords(profile.commands, profile.pool);
}

void TimelineDock::onCaptureLoaded(const CaptureSession &session)
{
    const CaptureData &d = session.data();
    if (!d.error.isEmpty())
        return; // the Capture panel says why
    setRecords(RecordsPtr(d.records), d.memory);
    m_timeline->setCounterTitle(tr("Device memory"));
}

void TimelineDock::onCaptureUpdated(const CaptureSession &session, const CaptureChange &change)
{
    const CaptureData &d = session.data();
    if (m_records != d.records || change.recordsMoved) {
        // Another vector (a run appended since), or records that moved: everything again.
        const std::size_t begin = m_lastRunBegin;
        setRecords(RecordsPtr(d.records), d.memory);
        m_lastRunBegin = std::min(begin, m_records->size());
        return;
    }
    if (change.newRecords == 0 && m_pool.size() == d.memory.size() &&
        session.state() == CaptureSession::State::Live)
        return;
    // The same vector, grown in place by the session: the views add what is after appendedFrom. The
    // last refresh (the program has ended) brings the statistics up to date.
    m_pool = d.memory;
    if (session.state() != CaptureSession::State::Live)
        m_statsCostMs = 0;
    showRecords(true);
}

void TimelineDock::appendRecords(std::vector<CommandRecord> records, std::vector<PoolSeriesPoint> pool)
{
    // Records are shared, immutable vectors (the models and the timeline hold the same one), so a new run
    // makes a new vector; the table only inserts the new rows.
    m_lastRunBegin = m_records->size();
    auto merged = std::make_shared<std::vector<CommandRecord>>();
    merged->reserve(m_records->size() + records.size());
    merged->insert(merged->end(), m_records->begin(), m_records->end());
    merged->insert(merged->end(), std::make_move_iterator(records.begin()),
                   std::make_move_iterator(records.end()));
    m_records = std::move(merged);
    m_pool.insert(m_pool.end(), pool.begin(), pool.end());
    std::stable_sort(m_pool.begin(), m_pool.end(), [](const PoolSeriesPoint &a, const PoolSeriesPoint &b) {
        return a.timestampNs < b.timestampNs;
    });
    showRecords(true);
}

void TimelineDock::clear()
{
    setRecords(std::vector<CommandRecord>{}, {});
}

void TimelineDock::showRecords(bool append)
{
    const QSignalBlocker block(m_events->selectionModel());
    if (append) {
        m_timeline->appendRecords(m_records, m_pool);
    } else {
        m_timeline->setRecords(m_records, m_pool);
        m_selected = -1;
    }
    const std::uint64_t origin = m_timeline->geometry().origin;
    if (append)
        m_eventModel->appendRecords(m_records, origin);
    else
        m_eventModel->setRecords(m_records, origin);
    // The statistics go over every record (medians): while a capture grows they are made again at most
    // once per ten times what they took, so that a million records keep the GUI thread mostly free.
    if (append && !m_statsStale.isValid())
        m_statsStale.start();
    if (append && m_statsStale.elapsed() < qint64(10 * m_statsCostMs)) {
        updateSummary();
        return;
    }
    QElapsedTimer cost;
    cost.start();
    m_statsModel->setRecords(*m_records);
    m_deviceStatsModel->setRecords(*m_records);
    m_statsCostMs = double(cost.nsecsElapsed()) / 1e6;
    m_statsStale.start();
    m_histogramGroup = -1;
    if (m_statsModel->rowCount() > 0)
        m_stats->setCurrentIndex(m_statsProxy->index(0, 0)); // the heaviest group, as sorted by total
    else
        showHistogramFor(-1);
    updateSummary();
}

void TimelineDock::selectRecord(int record)
{
    select(record, false);
}

void TimelineDock::select(int record, bool fromTable)
{
    if (record < 0 || record >= static_cast<int>(m_records->size()))
        record = -1;
    m_selected = record;
    m_timeline->setSelectedRecord(record);
    if (record >= 0)
        m_timeline->revealRecord(record);
    // A row picked in the table keeps the table's selection as it is (several rows may be selected).
    if (!fromTable) {
        const QSignalBlocker block(m_events->selectionModel());
        const QModelIndex index = m_eventProxy->indexOfRecord(record);
        if (index.isValid()) {
            m_events->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                                   QItemSelectionModel::Rows);
            m_events->scrollTo(index);
        } else {
            m_events->selectionModel()->clear();
        }
        m_events->viewport()->update();
    }
    if (record >= 0) {
        const CommandRecord &r = (*m_records)[static_cast<std::size_t>(record)];
        const int row = m_statsModel->rowOf(r.type, r.name);
        if (row >= 0)
            m_stats->setCurrentIndex(m_statsProxy->mapFromSource(m_statsModel->index(row, 0)));
    }
    emit recordSelected(record);
}

void TimelineDock::onTimelineClicked(int record)
{
    if (m_syncing)
        return;
    m_syncing = true;
    select(record, false);
    m_syncing = false;
}

void TimelineDock::onEventRowChanged(const QModelIndex &current)
{
    if (m_syncing)
        return;
    m_syncing = true;
    select(current.isValid() ? current.data(EventTableModel::RecordIndexRole).toInt() : -1, true);
    m_syncing = false;
}

void TimelineDock::onEventSelectionChanged()
{
    if (m_syncing)
        return;
    // One row is a selection (revealed by select()); several are a range to look at.
    if (m_events->selectionModel()->selectedRows().size() >= 2)
        zoomToSelection();
}

std::vector<std::size_t> TimelineDock::selectedRows() const
{
    std::vector<std::size_t> out;
    for (const QModelIndex &index : m_events->selectionModel()->selectedRows())
        out.push_back(static_cast<std::size_t>(index.data(EventTableModel::RecordIndexRole).toInt()));
    std::sort(out.begin(), out.end());
    return out;
}

bool TimelineDock::zoomToRecords(const std::vector<std::size_t> &records)
{
    return zoomToSpan(recordSpan(*m_records, records, m_timeline->showStages()));
}

bool TimelineDock::zoomToSpan(std::pair<std::uint64_t, std::uint64_t> span)
{
    const auto [first, last] = span;
    if (first == 0 && last == 0)
        return false;
    const TimelineData &g = m_timeline->geometry();
    const double from = g.relative(first);
    const double to = g.relative(last);
    const double pad = std::max((to - from) * 0.02, g.minSpan);
    m_timeline->setView(from - pad, to + pad);
    return true;
}

bool TimelineDock::zoomToLastRun()
{
    std::vector<std::size_t> records(m_records->size() - std::min(m_lastRunBegin, m_records->size()));
    std::iota(records.begin(), records.end(), m_lastRunBegin);
    return zoomToSpan(lastRunSpan(*m_records, records, m_timeline->showStages()));
}

bool TimelineDock::zoomToSelection()
{
    return zoomToRecords(selectedRows());
}

void TimelineDock::onStatsRowChanged(const QModelIndex &current)
{
    showHistogramFor(current.isValid() ? m_statsProxy->mapToSource(current).row() : -1);
}

void TimelineDock::showHistogramFor(int statsRow)
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

std::vector<std::uint64_t> TimelineDock::histogramCounts() const
{
    std::vector<std::uint64_t> out;
    for (auto it = m_bars->data()->constBegin(); it != m_bars->data()->constEnd(); ++it)
        out.push_back(static_cast<std::uint64_t>(std::llround(it->value)));
    return out;
}

void TimelineDock::updateSummary()
{
    const auto total = m_records->size();
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    if (total > 0) {
        first = m_timeline->lanes().first();
        last = m_timeline->lanes().last();
    }
    QString text = tr("%n command(s)", nullptr, static_cast<int>(total));
    if (last > first)
        text += tr(" over %1").arg(durationText(static_cast<double>(last - first)));
    const int shown = m_eventProxy->rowCount();
    if (shown != static_cast<int>(total))
        text += tr(" · %1 shown").arg(shown);
    m_summary->setText(text);
}

void TimelineDock::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPlotTheme();
}

void TimelineDock::applyPlotTheme()
{
    if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        title->setTextColor(palette().color(QPalette::WindowText));
    clscope::ui::applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis});
}

QString TimelineDock::exportTrace(const QString &path) const
{
    ChromeTraceOptions options;
    options.stages = m_stagesCheck->isChecked();
    std::string json;
    try {
        json = chromeTraceJson(*m_records, options, m_pool);
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    if (const QString error = writeFileSafely(path, QByteArray::fromStdString(json)); !error.isEmpty())
        return tr("cannot write %1: %2").arg(path, error);
    return {};
}

QString TimelineDock::exportCsv(const QString &path) const
{
    std::ostringstream csv;
    try {
        writeCsv(csv, *m_records);
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    if (const QString error = writeFileSafely(path, QByteArray::fromStdString(csv.str())); !error.isEmpty())
        return tr("cannot write %1: %2").arg(path, error);
    return {};
}

QString TimelineDock::exportPng(const QString &path) const
{
    const QImage image = m_timeline->renderImage(m_timeline->size().expandedTo(QSize(640, 240)));
    if (const QString error = writeImageSafely(path, image); !error.isEmpty())
        return tr("cannot write %1: %2").arg(path, error);
    return {};
}

void TimelineDock::chooseExport(int kind)
{
    static const QString filters[] = {tr("Chrome trace (*.json)"), tr("CSV (*.csv)"),
                                      tr("PNG image (*.png)")};
    static const QString names[] = {QStringLiteral("trace.json"), QStringLiteral("commands.csv"),
                                    QStringLiteral("timeline.png")};
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), names[kind], filters[kind]);
    if (path.isEmpty())
        return;
    const QString error = kind == TraceExport ? exportTrace(path)
                          : kind == CsvExport ? exportCsv(path)
                                              : exportPng(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace clscope::ui
