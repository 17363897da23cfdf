// The profiling panel: the timeline over an events table (sortable, filtered by name and type, its
// selection synchronised with the timeline's both ways; several rows selected zoom the timeline to span
// them), per-kernel and per-device statistics, a duration histogram of the selected kernel, Clear, zoom to
// the last run, and exports (Chrome trace JSON, CSV, PNG).
#pragma once

#include "clscope/profile.h"
#include "controllers/capturesession.h"
#include "models/eventfilterproxy.h"
#include "models/eventtablemodel.h"
#include "timelinestatspane.h"
#include "workbenchview.h"

#include <QWidget>

#include <cstdint>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace clscope::ui {

class DeviceStatsModel;
class KernelStatsModel;
class TimelineWidget;

class TimelineDock : public QWidget, public WorkbenchView, public CaptureViewer
{
    Q_OBJECT
public:
    explicit TimelineDock(QWidget *parent = nullptr);

    // As a view of the window (WorkbenchView): each run's commands, over its pool's samples, after the
    // ones shown.
    void onRunFinished(const RunResult &result, const RunProfile &profile) override;
    // As a view of the capture (CaptureViewer): its commands and API calls over its device memory; a
    // followed capture's new records are added to what is shown (the view stays where it is).
    void onCaptureLoaded(const CaptureSession &session) override;
    void onCaptureUpdated(const CaptureSession &session, const CaptureChange &change) override;

    void setRecords(std::vector<CommandRecord> records, std::vector<PoolSeriesPoint> pool = {});
    // The same records shared with their owner (a capture's million commands are not copied).
    void setRecords(RecordsPtr records, std::vector<PoolSeriesPoint> pool = {});
    // A new run's records (and pool samples) after the ones shown.
    void appendRecords(std::vector<CommandRecord> records, std::vector<PoolSeriesPoint> pool = {});
    // Forgets every record and pool sample (the Clear button).
    void clear();
    const std::vector<CommandRecord> &records() const { return *m_records; }
    // The first record of the latest setRecords() or appendRecords() (one run in the GUI).
    std::size_t lastRunBegin() const { return m_lastRunBegin; }
    const std::vector<PoolSeriesPoint> &poolSeries() const { return m_pool; }

    TimelineWidget *timeline() const { return m_timeline; }
    QTableView *eventsView() const { return m_events; }
    EventTableModel *eventsModel() const { return m_eventModel; }
    EventFilterProxy *eventsProxy() const { return m_eventProxy; }
    TimelineStatsPane *statsPane() const { return m_statsPane; }
    QTableView *statsView() const { return m_statsPane->statsView(); }
    KernelStatsModel *statsModel() const { return m_statsPane->statsModel(); }
    QTableView *deviceStatsView() const { return m_statsPane->deviceStatsView(); }
    DeviceStatsModel *deviceStatsModel() const { return m_statsPane->deviceStatsModel(); }
    QCustomPlot *histogramPlot() const { return m_statsPane->histogramPlot(); }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *typeCombo() const { return m_typeCombo; }
    QCheckBox *stagesCheck() const { return m_stagesCheck; }
    QLabel *summaryLabel() const { return m_summary; }

    // The record selected in the table and the timeline, or -1.
    int selectedRecord() const { return m_selected; }
    // Selects in both views (revealing it in the timeline) and shows its group's histogram.
    void selectRecord(int record);
    // The statistics row (of statsModel()) the histogram shows, or -1; and its bar counts.
    int histogramGroup() const { return m_statsPane->histogramGroup(); }
    std::vector<std::uint64_t> histogramCounts() const { return m_statsPane->histogramCounts(); }
    void showHistogramFor(int statsRow) { m_statsPane->showHistogramFor(statsRow); }

    // Zooms the timeline to span records (with a small margin); false when none of them has timestamps.
    bool zoomToRecords(const std::vector<std::size_t> &records);
    // The kernel launches of the latest run (lastRunSpan: its other commands when it has none).
    bool zoomToLastRun();
    // The rows selected in the events table.
    bool zoomToSelection();
    std::vector<std::size_t> selectedRows() const; // record indices, in record order

    // Each returns an error message, or an empty string on success.
    QString exportTrace(const QString &path) const; // with stage slices when the Stages box is checked
    QString exportCsv(const QString &path) const;
    QString exportPng(const QString &path) const;

    // What a captured launch can be asked for from its context menu (timeline box, events row, statistics).
    enum class LaunchAction { OpenInWorkbench, ReplayOnEveryDevice, ExportPyopencl, Debug };
    // The records' launches (CommandRecord::launch) get a context menu with the LaunchActions.
    void setLaunchActionsEnabled(bool enabled) { m_launchActions = enabled; }

signals:
    void recordSelected(int record);
    // launch -1: the user asked for a kernel's row of statistics, any launch of `kernel`.
    void launchRequested(qint64 launch, const QString &kernel,
                         clscope::ui::TimelineDock::LaunchAction action);

private:
    // live: a capture that is still growing (its statistics are made again only when due).
    void showRecords(bool append, bool live = false);
    // Zooms to [first, last] (absolute ns) with a small margin; false for 0, 0.
    bool zoomToSpan(std::pair<std::uint64_t, std::uint64_t> span);
    void onTimelineClicked(int record);
    void onEventRowChanged(const QModelIndex &current);
    void onEventSelectionChanged();
    void select(int record, bool fromTable);
    void updateSummary();
    void showLaunchMenu(const QPoint &globalPos, qint64 launch, const QString &kernel);
    void chooseExport(int kind);

    RecordsPtr m_records;
    std::vector<PoolSeriesPoint> m_pool;
    TimelineWidget *m_timeline;
    EventTableModel *m_eventModel;
    EventFilterProxy *m_eventProxy;
    QTableView *m_events;
    TimelineStatsPane *m_statsPane;
    QLineEdit *m_filter;
    QComboBox *m_typeCombo;
    QCheckBox *m_stagesCheck;
    QLabel *m_summary;
    int m_selected = -1;
    std::size_t m_lastRunBegin = 0;
    bool m_syncing = false;
    bool m_launchActions = false;
};

} // namespace clscope::ui
