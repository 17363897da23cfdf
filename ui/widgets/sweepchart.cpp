// The sweep's chart (see sweepchart.h).
#include "sweepchart.h"

#include "display/recordformat.h"
#include "display/sweepchartdata.h"
#include "plottheme.h"

#include <QEvent>
#include <QFontMetrics>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace clscope::ui {

namespace {
const QColor kSeries(0x1a, 0x73, 0xe8);
const QColor kWarning(0xd3, 0x2f, 0x2f);
const QColor kBest(0x18, 0x80, 0x38);
const QColor kDriver(0xe8, 0x71, 0x0a);
// How far left of a heat-map cell's centre its marks stand (in cells).
constexpr double kMarkOffset = 0.28;

QString label(const std::vector<std::size_t> &local)
{
    return QString::fromStdString(localSizeLabel(local));
}

bool isPowerOfTwo(std::size_t v)
{
    return v && !(v & (v - 1));
}

// Viridis, dark for fast and bright for slow: even steps to the eye, and readable without colour vision.
QCPColorGradient timeGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    g.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    g.setNanHandling(QCPColorGradient::nhTransparent); // a shape that was not tried
    return g;
}

// Tick labels of an index axis: every position when they fit, else every k-th.
QSharedPointer<QCPAxisTickerText> indexTicker(const QStringList &labels, int most)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int stride = std::max(1, int(std::ceil(double(labels.size()) / most)));
    for (qsizetype i = 0; i < labels.size(); i += stride)
        ticker->addTick(double(i), labels[i]);
    return ticker;
}
} // namespace

SweepChart::SweepChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sweepChart"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    clear();
}

void SweepChart::clear(const QString &message)
{
    m_emptyText = message;
    setResult(SweepResult{});
}

void SweepChart::resetPlot()
{
    // A result of another kind needs other axes, layers and layout: a fresh plot is simpler than undoing.
    if (m_plot && QToolTip::isVisible())
        QToolTip::hideText(); // it may name the old plot
    delete m_plot;
    m_times = m_differ = m_failed = m_best = m_driver = nullptr;
    m_errors = nullptr;
    m_map = nullptr;
    m_placed.clear();
    m_cellLabels.clear(); // the plot's items
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("sweepPlot"));
    m_plot->setMinimumSize(320, 200);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &SweepChart::showToolTip);
    // The legend above the plot, never over the points, its entries side by side from the left (a spacer
    // beside it takes the rest of the row, which the legend's columns would otherwise spread over).
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->plotLayout()->insertRow(0);
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, legendRow);
    legendRow->addElement(0, 0, m_plot->legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(m_plot));
    legendRow->setColumnStretchFactors({0.001, 1});
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
    m_plot->legend->setIconSize(28, 20); // room for the best's ring
    layout()->addWidget(m_plot);
}

void SweepChart::setResult(const SweepResult &result)
{
    m_result = result;
    resetPlot();
    const SweepChartData::TimeUnit unit = SweepChartData::timeUnitOf(result);
    m_unitNs = unit.ns;
    m_unit = unit.name;
    m_kind = SweepChartData::kindOf(result);

    if (m_kind == Kind::HeatMap) {
        drawHeatMap();
    } else if (m_kind == Kind::Empty) {
        auto *text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setText(m_emptyText.isEmpty() ? tr("No sweep yet") : m_emptyText);
        text->setColor(palette().color(QPalette::PlaceholderText));
        m_plot->xAxis->setTicks(false);
        m_plot->yAxis->setTicks(false);
    } else {
        drawSeries(m_kind == Kind::Labels);
    }
    finishLegend();
    applyTheme();
}

QString SweepChart::bestName() const
{
    if (!m_result.best || *m_result.best >= m_result.points.size())
        return tr("best");
    const SweepPoint &b = m_result.points[*m_result.best];
    return tr("best: %1, %2").arg(label(b.local), durationText(b.stats.medianNs));
}

QCPGraph *SweepChart::addMarks(const QString &name, const QColor &pen, const QColor &brush, int shape,
                               double size)
{
    auto *graph = m_plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setPen(QPen(pen, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ScatterShape(shape), QPen(pen, 2),
                                           brush.isValid() ? QBrush(brush) : QBrush(Qt::NoBrush), size));
    return graph;
}

void SweepChart::drawSeries(bool byLabel)
{
    const std::vector<SweepPoint> &points = m_result.points;
    struct Row
    {
        double x;
        int point;
    };
    std::vector<Row> rows;
    bool logScale = false;
    QStringList labels;
    std::optional<int> driver;
    if (byLabel) {
        for (std::size_t i = 0; i < points.size(); ++i) {
            rows.push_back({double(rows.size()), int(i)});
            labels << label(points[i].local);
        }
    } else {
        bool powers = true;
        std::size_t lo = std::numeric_limits<std::size_t>::max(), hi = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (points[i].local.empty()) {
                driver = int(i);
                continue;
            }
            const std::size_t v = points[i].local[0];
            rows.push_back({double(v), int(i)});
            powers = powers && isPowerOfTwo(v);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.x < b.x; });
        logScale = powers && hi >= 8 * lo;
    }

    const SweepChartData::TimeAxis axis = SweepChartData::seriesTimeAxis(points, m_unitNs);
    const double failedY = axis.failed;

    m_times = m_plot->addGraph();
    m_times->setName(tr("median ± std dev"));
    m_times->setPen(QPen(kSeries, 1.5));
    m_times->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kSeries, 1.5), palette().brush(QPalette::Base), 7));
    if (byLabel)
        m_times->setLineStyle(QCPGraph::lsNone); // no order between shapes of different dimensions
    m_errors = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
    m_errors->setName(tr("std dev"));
    m_errors->setPen(QPen(kSeries, 1));
    m_errors->setWhiskerWidth(7);
    m_differ = addMarks(tr("outputs differ"), kWarning, kWarning, QCPScatterStyle::ssDiamond, 11);
    m_failed =
        addMarks(tr("did not run"), palette().color(QPalette::WindowText), {}, QCPScatterStyle::ssCross, 10);
    m_best = addMarks(bestName(), kBest, {}, QCPScatterStyle::ssCircle, 16);
    m_best->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kBest, 2.5), Qt::NoBrush, 16));

    QList<double> tx, ty, te, dx, dy, fx, fy, bx, by;
    for (const Row &r : rows) {
        const SweepPoint &p = points[std::size_t(r.point)];
        if (!p.ran) {
            fx << r.x;
            fy << failedY;
            m_placed.push_back({r.x, failedY, r.point});
            continue;
        }
        const double y = toUnit(p.stats.medianNs);
        tx << r.x;
        ty << y;
        te << toUnit(p.stats.stddevNs);
        m_placed.push_back({r.x, y, r.point});
        if (!p.matches) {
            dx << r.x;
            dy << y;
        }
        if (m_result.best == std::size_t(r.point)) {
            bx << r.x;
            by << y;
        }
    }
    m_times->setData(tx, ty, true);
    m_errors->setDataPlottable(m_times);
    m_errors->setData(te);
    m_differ->setData(dx, dy, true);
    m_failed->setData(fx, fy, true);
    m_best->setData(bx, by, true);

    if (byLabel) {
        m_plot->xAxis->setTicker(indexTicker(labels, 32));
        m_plot->xAxis->setTickLabelRotation(labels.size() > 10 ? 45 : 0);
        m_plot->xAxis->setRange(-0.6, double(labels.size()) - 0.4);
        m_plot->xAxis->setLabel(tr("Local size, in the order tried"));
        m_plot->xAxis->grid()->setVisible(false);
    } else {
        const double lo = rows.empty() ? 1 : rows.front().x;
        const double hi = rows.empty() ? 1 : rows.back().x;
        if (logScale) {
            m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
            auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
            ticker->setLogBase(2);
            ticker->setSubTickCount(0);
            ticker->setTickCount(std::min(12, int(std::log2(hi / lo)) + 1)); // each power of two that fits
            m_plot->xAxis->setTicker(ticker);
            m_plot->xAxis->setNumberFormat(QStringLiteral("f"));
            m_plot->xAxis->setNumberPrecision(0);
            m_plot->xAxis->setRange(lo / 1.4, hi * 1.4);
        } else {
            const double pad = hi > lo ? (hi - lo) * 0.06 : std::max(1.0, lo * 0.5);
            m_plot->xAxis->setRange(lo - pad, hi + pad);
        }
        m_plot->xAxis->setLabel(tr("Local size (work-items)"));
        // The driver's choice has no size to stand at: a dashed line across, at its median.
        if (driver && points[std::size_t(*driver)].ran) {
            const SweepPoint &d = points[std::size_t(*driver)];
            const bool best = m_result.best == std::size_t(*driver);
            m_driver = m_plot->addGraph();
            m_driver->setName(best ? tr("driver's choice (best), %1").arg(durationText(d.stats.medianNs))
                              : d.matches ? tr("driver's choice, %1").arg(durationText(d.stats.medianNs))
                                          : tr("driver's choice, outputs differ"));
            m_driver->setPen(QPen(best        ? kBest
                                  : d.matches ? kDriver
                                              : kWarning,
                                  best ? 2 : 1.5, Qt::DashLine));
            const QCPRange range = m_plot->xAxis->range();
            m_driver->setData({range.lower, range.upper},
                              {toUnit(d.stats.medianNs), toUnit(d.stats.medianNs)}, true);
        }
    }
    m_plot->yAxis->setLabel(tr("Median time (%1)").arg(m_unit));
    m_plot->yAxis->setRange(axis.low, axis.high);
}

void SweepChart::drawHeatMap()
{
    const std::vector<SweepPoint> &points = m_result.points;
    std::vector<std::size_t> xs;
    std::vector<std::size_t> ys;
    for (const SweepPoint &p : points) {
        if (p.local.size() == 2) {
            xs.push_back(p.local[0]);
            ys.push_back(p.local[1]);
        }
    }
    for (auto *v : {&xs, &ys}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    auto indexOf = [](const std::vector<std::size_t> &v, std::size_t value) {
        return double(std::lower_bound(v.begin(), v.end(), value) - v.begin());
    };
    const int nx = int(xs.size());
    const int ny = int(ys.size());
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setName(tr("median"));
    m_map->data()->setSize(nx, ny);
    m_map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    m_map->data()->fill(std::numeric_limits<double>::quiet_NaN());
    m_map->setInterpolate(false);

    m_differ = addMarks(tr("outputs differ"), kWarning, kWarning, QCPScatterStyle::ssDiamond, 12);
    m_differ->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::white, 1.5), QBrush(kWarning), 12));
    m_failed =
        addMarks(tr("did not run"), palette().color(QPalette::WindowText), {}, QCPScatterStyle::ssCross, 11);
    // A white star on a dark one: it shows on the darkest cells and the brightest alike. The dark one
    // stands for both in the legend, whose background is light.
    QCPGraph *halo = addMarks(bestName(), Qt::black, {}, QCPScatterStyle::ssStar, 16);
    halo->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(0x20, 0x20, 0x20), 5.5), Qt::NoBrush, 17));
    m_best = addMarks(tr("best"), Qt::white, {}, QCPScatterStyle::ssStar, 16);
    m_best->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::white, 2.5), Qt::NoBrush, 16));
    m_best->removeFromLegend();

    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    QList<double> dx, dy, fx, fy, bx, by;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint &p = points[i];
        if (p.local.size() != 2)
            continue;
        const double x = indexOf(xs, p.local[0]);
        const double y = indexOf(ys, p.local[1]);
        m_placed.push_back({x, y, int(i)});
        // The marks stand in the cell's left part, leaving the right to its median.
        const double markX = x - kMarkOffset;
        if (!p.ran) {
            fx << markX;
            fy << y;
            continue;
        }
        const double median = toUnit(p.stats.medianNs);
        m_map->data()->setCell(int(x), int(y), median);
        lo = std::min(lo, median);
        hi = std::max(hi, median);
        if (!p.matches) {
            dx << markX;
            dy << y;
        }
        if (m_result.best == i) {
            bx << markX;
            by << y;
        }
    }
    m_differ->setData(dx, dy);
    m_failed->setData(fx, fy);
    m_best->setData(bx, by);
    halo->setData(bx, by);
    if (!(hi >= lo)) {
        lo = 0;
        hi = 1;
    } else if (hi == lo) {
        hi = lo * 1.01 + 1e-3;
    }

    auto *scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(1, 1, scale);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(14);
    scale->axis()->setLabel(tr("Median time (%1)").arg(m_unit));
    m_map->setColorScale(scale); // the map takes the scale's gradient and range from now on
    scale->setGradient(timeGradient());
    scale->setDataRange(QCPRange(lo, hi));
    addCellLabels(QCPRange(lo, hi));
    auto *group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);

    QStringList xLabels;
    QStringList yLabels;
    for (std::size_t v : xs)
        xLabels << QString::number(v);
    for (std::size_t v : ys)
        yLabels << QString::number(v);
    m_plot->xAxis->setTicker(indexTicker(xLabels, 24));
    m_plot->yAxis->setTicker(indexTicker(yLabels, 24));
    m_plot->xAxis->setRange(-0.5, nx - 0.5);
    m_plot->yAxis->setRange(-0.5, ny - 0.5);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->setLabel(tr("Local size x (work-items)"));
    m_plot->yAxis->setLabel(tr("Local size y"));
}

void SweepChart::addCellLabels(const QCPRange &range)
{
    // Each cell's median on it, dark or light against its colour; shown while the cells can hold them.
    QCPColorGradient gradient = timeGradient();
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (const Placed &placed : m_placed) {
        const SweepPoint &p = m_result.points[std::size_t(placed.point)];
        if (!p.ran)
            continue;
        auto *text = new QCPItemText(m_plot);
        text->position->setCoords(placed.x + 0.5, placed.y);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
        text->setPadding(QMargins(0, 0, 5, 0));
        text->setFont(small);
        text->setText(durationText(p.stats.medianNs));
        text->setColor(qGray(gradient.color(toUnit(p.stats.medianNs), range)) > 130 ? Qt::black : Qt::white);
        text->setClipToAxisRect(true);
        m_cellLabels.push_back(text);
    }
    connect(m_plot, &QCustomPlot::afterLayout, this, &SweepChart::fitCellLabels);
}

void SweepChart::fitCellLabels()
{
    if (m_cellLabels.empty())
        return;
    const double cellWidth = std::abs(m_plot->xAxis->coordToPixel(1) - m_plot->xAxis->coordToPixel(0));
    const double cellHeight = std::abs(m_plot->yAxis->coordToPixel(1) - m_plot->yAxis->coordToPixel(0));
    const QFontMetrics metrics(m_cellLabels.front()->font());
    int widest = 0;
    for (const QCPItemText *t : m_cellLabels)
        widest = std::max(widest, metrics.horizontalAdvance(t->text()));
    // The text, its padding and a mark beside it.
    const bool fits =
        cellWidth >= widest + 5 + cellWidth * (0.5 - kMarkOffset) + 10 && cellHeight >= metrics.height() + 2;
    for (QCPItemText *t : m_cellLabels)
        t->setVisible(fits);
}

void SweepChart::finishLegend()
{
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = m_plot->plottable(i);
        auto *graph = qobject_cast<QCPGraph *>(p);
        if (!graph || graph->data()->isEmpty())
            p->removeFromLegend();
    }
    m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);
}

void SweepChart::applyTheme()
{
    applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis});
    if (m_map && m_map->colorScale())
        applyPlotTheme(m_plot, palette(), {m_map->colorScale()->axis()});
}

void SweepChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (m_plot && (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange))
        applyTheme();
}

int SweepChart::pointAt(const QPointF &pixel) const
{
    if (m_kind == Kind::HeatMap) {
        const double x = m_plot->xAxis->pixelToCoord(pixel.x());
        const double y = m_plot->yAxis->pixelToCoord(pixel.y());
        for (const Placed &p : m_placed) {
            if (std::abs(p.x - x) <= 0.5 && std::abs(p.y - y) <= 0.5)
                return p.point;
        }
        return -1;
    }
    int nearest = -1;
    double best = 12.0 * 12.0; // pixels, squared
    for (const Placed &p : m_placed) {
        const double dx = m_plot->xAxis->coordToPixel(p.x) - pixel.x();
        const double dy = m_plot->yAxis->coordToPixel(p.y) - pixel.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            nearest = p.point;
        }
    }
    return nearest;
}

QString SweepChart::describe(int point) const
{
    return SweepChartData::describe(m_result, point);
}

void SweepChart::showToolTip(QMouseEvent *event)
{
    const int point = pointAt(event->position());
    if (point < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), describe(point), m_plot);
}

} // namespace clscope::ui
