// The memory pool's bin histogram: per bin (labelled with its block size) the active and held blocks as
// stacked bars, so one sees at a glance which sizes the pool is keeping and which it hands out.
#pragma once

#include "clscope/pool.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPBars;
class QMouseEvent;

namespace clscope::ui {

class PoolBinChart : public QWidget
{
    Q_OBJECT
public:
    explicit PoolBinChart(QWidget *parent = nullptr);

    // Redraws only when something changed (the monitor calls this at every refresh).
    void setBins(const std::vector<PoolBinStats> &bins);
    const std::vector<PoolBinStats> &bins() const { return m_bins; }
    // The bins' sizes as shown under the bars ("1023 B", "64 KiB").
    QStringList labels() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();
    void showToolTip(QMouseEvent *event);

    QCustomPlot *m_plot;
    QCPBars *m_active;
    QCPBars *m_held;
    std::vector<PoolBinStats> m_bins;
    bool m_drawn = false;
};

} // namespace clscope::ui
