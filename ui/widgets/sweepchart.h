// The chart of a work-group size sweep (clscope/sweep.h): time against local size.
// - 1-D sizes: the median of each size that ran with ± one standard deviation as error bars, sizes whose
//   outputs differ from the reference's drawn over them in the warning colour, the best starred, the
//   driver's choice as a dashed line across, sizes that did not run crossed at the bottom;
// - 2-D sizes (two or more widths and heights): a heat map of the median, x the local width and y the
//   local height (one column or row per size tried), the same marks on its cells;
// - anything else (3-D, mixed dimensions, a single row of shapes): the 1-D chart with one labelled
//   position per size, in the order tried.
// Hovering a point or a cell names it with its figures. The kind, the unit, the time axis and the texts
// are SweepChartData's (ui/display); this class draws.
#pragma once

#include "clscope/sweep.h"
#include "display/sweepchartdata.h"

#include <QWidget>

#include <vector>

class QCPColorMap;
class QCPErrorBars;
class QCPGraph;
class QCPItemText;
class QCPRange;
class QCustomPlot;
class QMouseEvent;

namespace clscope::ui {

class SweepChart : public QWidget
{
    Q_OBJECT
public:
    using Kind = SweepChartData::Kind;

    explicit SweepChart(QWidget *parent = nullptr);

    void setResult(const SweepResult &result);
    // No sweep: the message (or "No sweep yet") where the chart would be.
    void clear(const QString &message = {});
    Kind kind() const { return m_kind; }
    QCustomPlot *plot() const { return m_plot; }

    // What is drawn, for tests and scripts; null where the kind has no such layer.
    QCPGraph *timesGraph() const { return m_times; }     // every size that ran (Sizes, Labels)
    QCPErrorBars *errorBars() const { return m_errors; } // ± std dev on timesGraph
    QCPGraph *differGraph() const { return m_differ; }   // sizes or cells whose outputs differ
    QCPGraph *failedGraph() const { return m_failed; }   // sizes or cells that did not run
    QCPGraph *bestGraph() const { return m_best; } // the best size or cell (empty when the driver's is best)
    QCPGraph *driverGraph() const { return m_driver; } // the driver's choice across (Sizes)
    QCPColorMap *heatMap() const { return m_map; }     // HeatMap

    // The point of the result drawn nearest to a position in the plot's pixels, or -1.
    int pointAt(const QPointF &pixel) const;
    // What the tooltip says of a point.
    QString describe(int point) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Placed
    {
        double x = 0;
        double y = 0;
        int point = -1;
    };

    double toUnit(double ns) const { return ns / m_unitNs; }
    void resetPlot();
    void applyTheme();
    void drawSeries(bool byLabel);
    void drawHeatMap();
    QString bestName() const;
    QCPGraph *addMarks(const QString &name, const QColor &pen, const QColor &brush, int shape, double size);
    void addCellLabels(const QCPRange &range);
    void fitCellLabels();
    void finishLegend();
    void showToolTip(QMouseEvent *event);

    QCustomPlot *m_plot = nullptr;
    SweepResult m_result;
    Kind m_kind = Kind::Empty;
    double m_unitNs = 1e3; // the time axis's unit
    QString m_unit;
    QString m_emptyText;
    QCPGraph *m_times = nullptr;
    QCPErrorBars *m_errors = nullptr;
    QCPGraph *m_differ = nullptr;
    QCPGraph *m_failed = nullptr;
    QCPGraph *m_best = nullptr;
    QCPGraph *m_driver = nullptr;
    QCPColorMap *m_map = nullptr;
    std::vector<Placed> m_placed;            // in plot coordinates
    std::vector<QCPItemText *> m_cellLabels; // the heat map's medians
};

} // namespace clscope::ui
