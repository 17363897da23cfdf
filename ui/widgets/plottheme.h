// One look for every QCustomPlot chart, taken from the widget's palette (light or dark): base-coloured
// background, axes and labels in the text colour, dotted faint grid, a borderless legend.
#pragma once

#include "qcustomplotinclude.h"

#include <QPalette>

#include <initializer_list>

namespace clscope::ui {

// Styles the given axes of the plot and its legend from the palette and queues a replot.
void applyPlotTheme(QCustomPlot *plot, const QPalette &palette, std::initializer_list<QCPAxis *> axes);

} // namespace clscope::ui
