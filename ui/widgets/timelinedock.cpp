// The profiling panel: layout, selection sync between timeline and tables, histogram, exports.
#include "timelinedock.h"

#include "display/recordformat.h"
#include "files/safewrite.h"
#include "models/eventfilterproxy.h"
#include "timelinewidget.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
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
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace clscope::ui {

namespace {

enum ExportKind { TraceExport, CsvExport, PngExport };

} // namespace

TimelineDock::TimelineDock(QWidget *parent)
    : QWidget(parent)
    , m_records(std::make_shared<const std::vector<CommandRecord>>())
    , m_timeline(new TimelineWidget)
    , m_eventModel(new EventTableModel(this))
    , m_eventProxy(new EventFilterProxy(this))
    , m_statsPane(new TimelineStatsPane)
    , m_filter(new QLineEdit)
    , m_typeCombo(new QComboBox)
    , m_stagesCheck(new QCheckBox(tr("Stages")))
    , m_summary(new QLabel)
{
    setObjectName(QStringLiteral("timelineDock"));
    m_eventProxy->setSourceModel(m_eventModel);
    m_events = makeRecordTable(m_eventProxy, QStringLiteral("timelineEvents"));
    m_events->sortByColumn(-1, Qt::AscendingOrder); // record order until the user asks otherwise
    // Shift- and Ctrl-click select several rows; the timeline then spans them.
    m_events->setSelectionMode(QAbstractItemView::ExtendedSelection);
    const int charWidth = m_events->fontMetrics().averageCharWidth();
    // In average characters: enough for "16.3 ms", "Queued → start", "1048576".
    const std::array<int, EventTableModel::ColumnCount> widths = {7,  8,  18, 10, 18, 16, 11,
                                                                  16, 10, 12, 12, 8,  30};
    for (int c = 0; c < EventTableModel::ColumnCount; ++c)
        m_events->setColumnWidth(c, widths[static_cast<std::size_t>(c)] * charWidth);

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

    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_events);
    bottom->addWidget(m_statsPane);
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
    connect(
        m_statsPane, &TimelineStatsPane::kernelMenuRequested, this,
        [this](const QPoint &globalPos, const QString &kernel) { showLaunchMenu(globalPos, -1, kernel); });
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
    showRecords(true, session.state() == CaptureSession::State::Live);
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

void TimelineDock::showRecords(bool append, bool live)
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
    m_statsPane->setRecords(m_records, live);
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
        m_statsPane->selectGroupOf((*m_records)[static_cast<std::size_t>(record)]);
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
