// Bin histogram of the memory pool (see poolbinchart.h).
#include "poolbinchart.h"

#include "clscope/format.h"

#include "plottheme.h"

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {
QString sizeLabel(std::uint64_t bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

bool sameBins(const std::vector<PoolBinStats> &a, const std::vector<PoolBinStats> &b)
{
    return std::equal(
        a.begin(), a.end(), b.begin(), b.end(), [](const PoolBinStats &x, const PoolBinStats &y) {
            return x.bin == y.bin && x.heldBlocks == y.heldBlocks && x.activeBlocks == y.activeBlocks;
        });
}
} // namespace

PoolBinChart::PoolBinChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_active(new QCPBars(m_plot->xAxis, m_plot->yAxis))
    , m_held(new QCPBars(m_plot->xAxis, m_plot->yAxis))
{
    setObjectName(QStringLiteral("poolBins"));
    m_plot->setObjectName(QStringLiteral("poolBinPlot"));
    m_plot->setMinimumSize(260, 150);
    m_active->setName(tr("Active blocks"));
    m_active->setPen(Qt::NoPen);
    m_active->setBrush(QColor(0x1a, 0x73, 0xe8));
    m_held->setName(tr("Held blocks"));
    m_held->setPen(Qt::NoPen);
    m_held->setBrush(QColor(0xe8, 0x71, 0x0a));
    m_held->moveAbove(m_active); // stacked: the height of a bar is every block of that size
    m_active->setWidth(0.75);
    m_held->setWidth(0.75);
    m_plot->xAxis->setLabel(tr("Block size (bin)"));
    m_plot->xAxis->setTickLabelRotation(50);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->setLabel(tr("Blocks"));
    m_plot->legend->setVisible(true);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &PoolBinChart::showToolTip);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    applyTheme();
    setBins({});
}

void PoolBinChart::setBins(const std::vector<PoolBinStats> &bins)
{
    if (m_drawn && sameBins(bins, m_bins))
        return;
    m_drawn = true;
    m_bins = bins;
    QList<double> x;
    QList<double> active;
    QList<double> held;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // Label at most about 24 bars so that the sizes stay readable; the tooltip names every bar.
    const int stride = std::max<int>(1, int(std::ceil(double(bins.size()) / 24)));
    double top = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        const double pos = double(i + 1);
        x << pos;
        active << double(bins[i].activeBlocks);
        held << double(bins[i].heldBlocks);
        top = std::max(top, double(bins[i].activeBlocks + bins[i].heldBlocks));
        if (i % std::size_t(stride) == 0)
            ticker->addTick(pos, sizeLabel(bins[i].allocSize));
    }
    m_plot->xAxis->setTicker(ticker);
    m_active->setData(x, active, true);
    m_held->setData(x, held, true);
    m_plot->xAxis->setRange(0.3, std::max<double>(double(bins.size()) + 0.7, 4));
    m_plot->yAxis->setRange(0, std::max(4.0, std::ceil(top * 1.15)));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QStringList PoolBinChart::labels() const
{
    QStringList out;
    for (const PoolBinStats &b : m_bins)
        out << sizeLabel(b.allocSize);
    return out;
}

void PoolBinChart::showToolTip(QMouseEvent *event)
{
    const double x = m_plot->xAxis->pixelToCoord(event->position().x());
    const long index = std::lround(x) - 1;
    if (index < 0 || index >= long(m_bins.size()) || std::abs(x - double(index + 1)) > 0.4) {
        QToolTip::hideText();
        return;
    }
    const PoolBinStats &b = m_bins[std::size_t(index)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("Bin %1: blocks of %2 (%3 bytes)\n%4 active, %5 held")
                           .arg(b.bin)
                           .arg(sizeLabel(b.allocSize))
                           .arg(b.allocSize)
                           .arg(b.activeBlocks)
                           .arg(b.heldBlocks),
                       m_plot);
}

void PoolBinChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

void PoolBinChart::applyTheme()
{
    applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis});
}

} // namespace clscope::ui
