// One bar chart of the Benchmarks page (BenchmarkDock): global memory, compute, local memory or transfers,
// one group of bars per vector width (or operation), one bar per series of the run, and beside each the
// saved baseline's, paler and dashed.
#pragma once

#include "clscope/devicebench.h"

#include "qcustomplotinclude.h"

#include <QStringList>

namespace clscope::ui {

class BenchmarkChart : public QCustomPlot
{
    Q_OBJECT
public:
    // The charts there are, in the order the page shows them ("bandwidth", "compute", "local", "transfer").
    static QStringList names();

    explicit BenchmarkChart(const QString &name, QWidget *parent = nullptr);

    QString title() const; // for its tab
    // Draws the run's series of this chart and, when there is one, the baseline's beside them.
    void showRun(const BenchDocument &run, const BenchDocument *baseline);

private:
    int m_spec; // in the table of charts
    QCPBarsGroup *m_group;
};

} // namespace clscope::ui
