// Chart colours from the palette.
#include "plottheme.h"

namespace clscope::ui {

void applyPlotTheme(QCustomPlot *plot, const QPalette &palette, std::initializer_list<QCPAxis *> axes)
{
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlpha(40);
    plot->setBackground(palette.brush(QPalette::Base));
    for (QCPAxis *axis : axes) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setTextColor(text);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace clscope::ui
