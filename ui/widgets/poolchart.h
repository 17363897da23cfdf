// The memory pool's live chart: held, active and managed bytes over time (left axis) and held and active
// blocks (right axis), drawn from the monitor's history with peak-keeping decimation. A scrolling window
// (10 s, 1 min, 10 min, all), pause, horizontal zoom and pan, and export as PNG, PDF or CSV.
#pragma once

#include "qcustomplotinclude.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QToolButton;

namespace clscope::ui {

class PoolHistory;
class PoolMonitor;

// Byte ticks on 1024-based units: steps of 1, 2, 2.5 or 5 times a power of ten of one unit, labelled
// "512 KiB", "1.5 MiB"; every label of an axis uses the same unit.
class BytesAxisTicker : public QCPAxisTicker
{
public:
    static QString label(double bytes, double unit, int decimals);

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

private:
    double m_unit = 1;
    int m_decimals = 0;
};

// Whole numbers only (block counts): never a step below 1.
class CountAxisTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
};

class PoolChart : public QWidget
{
    Q_OBJECT
public:
    explicit PoolChart(PoolMonitor *monitor, QWidget *parent = nullptr);
    // A chart of a history that someone else fills (a capture's device memory): refresh() after changes.
    explicit PoolChart(const PoolHistory *history, QWidget *parent = nullptr);

    // Seconds shown while following; 0 shows the whole history.
    void setWindowSeconds(double seconds);
    double windowSeconds() const { return m_window; }
    // Paused: the view stays where it is (the monitor keeps recording). Zooming or panning pauses.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }

    // Follows the monitor's latest refresh (connected to PoolMonitor::updated).
    void refresh();
    // Redraws the current x range from the history.
    void redraw();

    // Return an error message, or empty on success.
    QString exportPng(const QString &path);
    QString exportPdf(const QString &path);
    QString exportCsv(const QString &path) const;

    QCustomPlot *plot() const { return m_plot; }
    QCPGraph *graph(int channel) const { return m_graphs[channel]; }
    int pointsDrawn() const { return m_pointsDrawn; } // most points of one graph in the last redraw
    int redrawCount() const { return m_redraws; }
    static constexpr int kMaxBuckets = 500; // per view: at most 2 * 500 + 2 points per graph

signals:
    void pausedChanged(bool paused);

protected:
    void changeEvent(QEvent *event) override;
    // A chart refreshed while hidden drew nothing: it draws when shown.
    void showEvent(QShowEvent *event) override;

private:
    PoolChart(PoolMonitor *monitor, const PoolHistory *history, QWidget *parent);
    const PoolHistory &history() const;
    void applyTheme();
    void onUserRangeChanged();
    void chooseExport(const QString &kind);

    PoolMonitor *m_monitor; // or:
    const PoolHistory *m_history;
    QCustomPlot *m_plot;
    QCPGraph *m_graphs[5] = {};
    QComboBox *m_windowBox;
    QToolButton *m_pauseButton;
    QToolButton *m_exportButton;
    QLabel *m_info;
    double m_window = 60;
    bool m_paused = false;
    bool m_settingRange = false;
    int m_pointsDrawn = 0;
    int m_redraws = 0;
};

} // namespace clscope::ui
