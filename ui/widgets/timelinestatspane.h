// The Timeline panel's statistics: per kernel (and command type) and per device, and a histogram of the
// selected group's durations. Made again from every record when they change; while a capture grows, at most
// once per ten times what that took (medians need every record), so that a million records leave the GUI
// thread mostly free.
#pragma once

#include "models/eventtablemodel.h"

#include <QElapsedTimer>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCPBars;
class QCustomPlot;
class QModelIndex;
class QSortFilterProxyModel;
class QTableView;

namespace clscope::ui {

class DeviceStatsModel;
class KernelStatsModel;

class TimelineStatsPane : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineStatsPane(QWidget *parent = nullptr);

    // The records' statistics, the heaviest group selected. growing: the same records and more (a live
    // capture): made again only when due.
    void setRecords(RecordsPtr records, bool growing);
    // The group of the record, selected.
    void selectGroupOf(const CommandRecord &record);

    QTableView *statsView() const { return m_stats; }
    KernelStatsModel *statsModel() const { return m_statsModel; }
    QTableView *deviceStatsView() const { return m_deviceStats; }
    DeviceStatsModel *deviceStatsModel() const { return m_deviceStatsModel; }
    QCustomPlot *histogramPlot() const { return m_plot; }
    // The statistics row (of statsModel()) the histogram shows, or -1; and its bar counts.
    int histogramGroup() const { return m_histogramGroup; }
    std::vector<std::uint64_t> histogramCounts() const;
    void showHistogramFor(int statsRow);

signals:
    // A kernel's row asked for its launches' menu.
    void kernelMenuRequested(const QPoint &globalPos, const QString &kernel);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPlotTheme();

    RecordsPtr m_records;
    KernelStatsModel *m_statsModel;
    QSortFilterProxyModel *m_statsProxy;
    QTableView *m_stats;
    DeviceStatsModel *m_deviceStatsModel;
    QSortFilterProxyModel *m_deviceStatsProxy;
    QTableView *m_deviceStats;
    QCustomPlot *m_plot;
    QCPBars *m_bars;
    int m_histogramGroup = -1;
    QElapsedTimer m_madeAgo; // since the statistics were last made
    double m_costMs = 0;     // what that took
};

// A table of a panel's: rows selected whole, sortable, fixed row heights (a million rows are not measured).
QTableView *makeRecordTable(QAbstractItemModel *model, const QString &name);

} // namespace clscope::ui
