// The pool's live chart (see poolchart.h): decimated graphs from PoolHistory, byte and count tickers,
// the window, pause and export controls.
#include "poolchart.h"

#include "plottheme.h"

#include "controllers/poolmonitor.h"
#include "display/decimate.h"
#include "files/safewrite.h"

#include <QBuffer>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPageSize>
#include <QPdfWriter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace clscope::ui {

// ---- Tickers ----------------------------------------------------------------------------------------

namespace {
const std::array<const char *, 7> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

// The smallest of 1, 2, 2.5, 5 times a power of ten that is >= value (value > 0).
double niceStep(double value)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * magnitude >= value * (1 - 1e-9))
            return m * magnitude;
    }
    return 10 * magnitude;
}
} // namespace

QString BytesAxisTicker::label(double bytes, double unit, int decimals)
{
    if (bytes == 0)
        return QStringLiteral("0");
    int index = 0;
    for (double u = unit; u >= 1024 && index + 1 < int(kUnits.size()); u /= 1024)
        ++index;
    return QString::number(bytes / unit, 'f', decimals) + QLatin1Char(' ') +
           QLatin1String(kUnits[size_t(index)]);
}

double BytesAxisTicker::getTickStep(const QCPRange &range)
{
    const double raw = std::max(range.size() / std::max(tickCount(), 1), 1.0);
    double unit = 1;
    while (unit * 1024 <= raw && unit < std::pow(1024.0, double(kUnits.size() - 1)))
        unit *= 1024;
    const double step = unit == 1 ? std::max(1.0, std::round(niceStep(raw))) : niceStep(raw / unit) * unit;
    m_unit = unit;
    // 2.5 MiB needs one decimal, 0.25 of a unit never happens (the unit is at most the step).
    const double inUnit = step / unit;
    m_decimals = std::abs(inUnit - std::round(inUnit)) < 1e-9 ? 0 : 1;
    return step;
}

int BytesAxisTicker::getSubTickCount(double tickStep)
{
    const double inUnit = tickStep / m_unit;
    const double lead = inUnit / std::pow(10.0, std::floor(std::log10(inUnit)));
    return std::abs(lead - 2.5) < 1e-6 ? 4 : (std::abs(lead - 2) < 1e-6 ? 3 : 4);
}

QString BytesAxisTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return label(tick, m_unit, m_decimals);
}

double CountAxisTicker::getTickStep(const QCPRange &range)
{
    return std::max(1.0, std::round(niceStep(std::max(range.size() / std::max(tickCount(), 1), 1e-9))));
}

int CountAxisTicker::getSubTickCount(double tickStep)
{
    return tickStep >= 5 ? 4 : int(tickStep) - 1;
}

// ---- Chart ------------------------------------------------------------------------------------------

namespace {
struct GraphStyle
{
    const char *name;
    QColor color;
    Qt::PenStyle pen;
    bool rightAxis;
};
// Held orange, active blue, managed purple (with a faint fill: the envelope the other two live in);
// blocks dashed in their bytes' colour, on the right axis.
const GraphStyle kStyles[kPoolChannelCount] = {
    {QT_TRANSLATE_NOOP("PoolChart", "Held bytes"), QColor(0xe8, 0x71, 0x0a), Qt::SolidLine, false},
    {QT_TRANSLATE_NOOP("PoolChart", "Active bytes"), QColor(0x1a, 0x73, 0xe8), Qt::SolidLine, false},
    {QT_TRANSLATE_NOOP("PoolChart", "Managed bytes"), QColor(0x7b, 0x5f, 0xc7), Qt::SolidLine, false},
    {QT_TRANSLATE_NOOP("PoolChart", "Held blocks (right)"), QColor(0xe8, 0x71, 0x0a), Qt::DashLine, true},
    {QT_TRANSLATE_NOOP("PoolChart", "Active blocks (right)"), QColor(0x1a, 0x73, 0xe8), Qt::DashLine, true},
};

struct WindowChoice
{
    const char *text;
    double seconds;
};
const WindowChoice kWindows[] = {{QT_TRANSLATE_NOOP("PoolChart", "10 s"), 10},
                                 {QT_TRANSLATE_NOOP("PoolChart", "1 min"), 60},
                                 {QT_TRANSLATE_NOOP("PoolChart", "10 min"), 600},
                                 {QT_TRANSLATE_NOOP("PoolChart", "All"), 0}};
} // namespace

PoolChart::PoolChart(PoolMonitor *monitor, QWidget *parent)
    : PoolChart(monitor, nullptr, parent)
{}

PoolChart::PoolChart(const PoolHistory *history, QWidget *parent)
    : PoolChart(nullptr, history, parent)
{}

PoolChart::PoolChart(PoolMonitor *monitor, const PoolHistory *history, QWidget *parent)
    : QWidget(parent)
    , m_monitor(monitor)
    , m_history(history)
    , m_plot(new QCustomPlot(this))
    , m_windowBox(new QComboBox(this))
    , m_pauseButton(new QToolButton(this))
    , m_exportButton(new QToolButton(this))
    , m_info(new QLabel(this))
{
    setObjectName(QStringLiteral("poolChart"));
    m_plot->setObjectName(QStringLiteral("poolTimeline"));
    m_plot->setMinimumHeight(180);
    // Queued replots coalesce, and plain (not antialiased) lines keep a replot in the low milliseconds.
    m_plot->setNotAntialiasedElements(QCP::aeAll);
    m_plot->setAntialiasedElements(QCP::aeLegend | QCP::aeAxes);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->xAxis->setLabel(tr("Time (s)"));
    m_plot->yAxis->setLabel(tr("Bytes"));
    m_plot->yAxis->setTicker(QSharedPointer<BytesAxisTicker>::create());
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(tr("Blocks"));
    m_plot->yAxis2->setTicker(QSharedPointer<CountAxisTicker>::create());
    for (int c = 0; c < kPoolChannelCount; ++c) {
        const GraphStyle &s = kStyles[c];
        QCPGraph *g = m_plot->addGraph(m_plot->xAxis, s.rightAxis ? m_plot->yAxis2 : m_plot->yAxis);
        g->setName(tr(s.name));
        g->setLineStyle(QCPGraph::lsStepLeft); // a counter holds its value until the next change
        // One-pixel cosmetic pens take the raster engine's fast path; a 2 px pen goes through the path
        // stroker and costs most of a replot on a busy step line.
        QPen pen(s.color, 1, s.pen);
        pen.setCosmetic(true);
        g->setPen(pen);
        g->setAdaptiveSampling(false); // decimated already, keeping peaks the way we want
        m_graphs[c] = g;
    }
    m_graphs[int(PoolChannel::ManagedBytes)]->setBrush(QColor(0x7b, 0x5f, 0xc7, 28));
    // The legend in a row of its own above the plot: inside, it would hide the newest data.
    m_plot->legend->setVisible(true);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setMargins(QMargins(4, 2, 4, 2));
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            &PoolChart::onUserRangeChanged);

    for (const WindowChoice &w : kWindows)
        m_windowBox->addItem(tr(w.text), w.seconds);
    m_windowBox->setCurrentIndex(1);
    m_windowBox->setToolTip(tr("How much of the past the chart shows while it follows the pool"));
    m_windowBox->setObjectName(QStringLiteral("poolWindow"));
    connect(m_windowBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setWindowSeconds(m_windowBox->itemData(index).toDouble());
        setPaused(false);
    });
    m_pauseButton->setText(tr("Pause"));
    m_pauseButton->setCheckable(true);
    m_pauseButton->setObjectName(QStringLiteral("poolPause"));
    m_pauseButton->setToolTip(tr("Freeze the view (recording goes on). Dragging or zooming the chart pauses "
                                 "it too; click again to follow the pool."));
    connect(m_pauseButton, &QToolButton::toggled, this, &PoolChart::setPaused);
    m_exportButton->setText(tr("Export"));
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(m_exportButton);
    menu->addAction(tr("Chart as PNG…"), this, [this] { chooseExport(QStringLiteral("png")); });
    menu->addAction(tr("Chart as PDF…"), this, [this] { chooseExport(QStringLiteral("pdf")); });
    menu->addAction(tr("Full series as CSV…"), this, [this] { chooseExport(QStringLiteral("csv")); });
    m_exportButton->setMenu(menu);
    m_info->setObjectName(QStringLiteral("poolChartInfo"));
    m_info->setTextFormat(Qt::PlainText);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Window:"), this));
    bar->addWidget(m_windowBox);
    bar->addWidget(m_pauseButton);
    bar->addWidget(m_exportButton);
    bar->addStretch(1);
    bar->addWidget(m_info);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);

    applyTheme();
    if (m_monitor) {
        connect(m_monitor, &PoolMonitor::updated, this, &PoolChart::refresh);
        connect(m_monitor, &PoolMonitor::poolChanged, this, [this] { setPaused(false); });
    }
}

const PoolHistory &PoolChart::history() const
{
    return m_monitor ? m_monitor->history() : *m_history;
}

void PoolChart::setWindowSeconds(double seconds)
{
    m_window = std::max(seconds, 0.0);
    for (int i = 0; i < m_windowBox->count(); ++i) {
        if (m_windowBox->itemData(i).toDouble() == m_window) {
            const QSignalBlocker block(m_windowBox);
            m_windowBox->setCurrentIndex(i);
        }
    }
    refresh();
}

void PoolChart::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    {
        const QSignalBlocker block(m_pauseButton);
        m_pauseButton->setChecked(paused);
    }
    emit pausedChanged(paused);
    if (!paused)
        refresh();
}

void PoolChart::refresh()
{
    const PoolHistory &h = history();
    QString info = tr("%1 samples").arg(QLocale().toString(h.sampleCount()));
    if (m_monitor && m_monitor->droppedSamples() > 0)
        info += tr(", %1 overwritten before a refresh").arg(QLocale().toString(m_monitor->droppedSamples()));
    m_info->setText(info);
    m_info->setToolTip(tr("Buckets of %1 ms keep the lowest and highest value of each counter.")
                           .arg(h.bucketSeconds() * 1000, 0, 'g', 3));
    if (m_paused || !isVisible())
        return; // a hidden chart draws when shown again: the next refresh comes within 25 ms
    // While the history is shorter than the window, it fills the window from the left, as a scope
    // trace does, rather than hugging the right edge.
    const double now = m_monitor ? m_monitor->now() : h.lastKey();
    const double start = std::min(0.0, h.isEmpty() ? 0.0 : h.firstKey());
    const double lower = m_window > 0 ? std::max(now - m_window, start) : start;
    const double upper = m_window > 0 ? lower + m_window : std::max(now, lower + 1);
    m_settingRange = true;
    m_plot->xAxis->setRange(lower, upper);
    m_settingRange = false;
    redraw();
}

void PoolChart::redraw()
{
    const PoolHistory &h = history();
    const QCPRange range = m_plot->xAxis->range();
    const int buckets = std::clamp(m_plot->axisRect()->width() / 2, 50, kMaxBuckets);
    QList<double> keys;
    QList<double> values;
    double maxBytes = 0;
    double maxBlocks = 0;
    m_pointsDrawn = 0;
    for (int c = 0; c < kPoolChannelCount; ++c) {
        decimateMinMax(h.keys(), h.values(PoolChannel(c)), range.lower, range.upper, buckets, keys, values);
        const double top = values.isEmpty() ? 0 : *std::max_element(values.cbegin(), values.cend());
        double &axisMax = kStyles[c].rightAxis ? maxBlocks : maxBytes;
        axisMax = std::max(axisMax, top);
        m_pointsDrawn = std::max(m_pointsDrawn, int(keys.size()));
        m_graphs[c]->setData(keys, values, /*alreadySorted*/ true);
    }
    // Headroom above the highest point so a peak never sits on the frame.
    m_plot->yAxis->setRange(0, std::max(maxBytes * 1.12, 1024.0));
    m_plot->yAxis2->setRange(0, std::max(std::ceil(maxBlocks * 1.12), 4.0));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    ++m_redraws;
}

void PoolChart::onUserRangeChanged()
{
    if (m_settingRange)
        return;
    // The user dragged or zoomed: stay there and draw that range at full detail.
    setPaused(true);
    redraw();
}

void PoolChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

void PoolChart::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void PoolChart::applyTheme()
{
    m_plot->yAxis2->grid()->setVisible(false);
    applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2});
}

QString PoolChart::exportPng(const QString &path)
{
    QImage image = m_plot->toPixmap(0, 0, 1.0).toImage();
    constexpr int kDotsPerMeter = 3780; // 96 dpi, as the PNG export has always said
    image.setDotsPerMeterX(kDotsPerMeter);
    image.setDotsPerMeterY(kDotsPerMeter);
    if (const QString error = writeImageSafely(path, image); !error.isEmpty())
        return tr("Cannot write %1: %2").arg(path, error);
    return {};
}

QString PoolChart::exportPdf(const QString &path)
{
    // Drawn into memory and written in one checked step: QCustomPlot::savePdf writes the file itself
    // and does not notice a full disk.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        constexpr int kDpi = 96;
        const int width = m_plot->width();
        const int height = m_plot->height();
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("CLScope"));
        writer.setTitle(tr("Memory pool"));
        writer.setResolution(kDpi);
        writer.setPageSize(QPageSize(QSizeF(width * 72.0 / kDpi, height * 72.0 / kDpi), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        if (!painter.begin(&writer))
            return tr("Cannot write %1: the PDF could not be drawn").arg(path);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setMode(QCPPainter::pmNonCosmetic);
        m_plot->toPainter(&painter, width, height);
        painter.end();
    }
    if (const QString error = writeFileSafely(path, buffer.data()); !error.isEmpty())
        return tr("Cannot write %1: %2").arg(path, error);
    return {};
}

QString PoolChart::exportCsv(const QString &path) const
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly | QIODevice::Text);
    QString error;
    if (!history().writeCsv(buffer, &error))
        return tr("Cannot write %1: %2").arg(path, error);
    error = writeFileSafely(path, buffer.data());
    if (!error.isEmpty())
        return tr("Cannot write %1: %2").arg(path, error);
    return {};
}

void PoolChart::chooseExport(const QString &kind)
{
    const QString filter = kind == QLatin1String("csv")   ? tr("CSV files (*.csv)")
                           : kind == QLatin1String("pdf") ? tr("PDF documents (*.pdf)")
                                                          : tr("PNG images (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export memory pool"),
                                                      QStringLiteral("clscope-pool.") + kind, filter);
    if (path.isEmpty())
        return;
    const QString error = kind == QLatin1String("csv")   ? exportCsv(path)
                          : kind == QLatin1String("pdf") ? exportPdf(path)
                                                         : exportPng(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace clscope::ui
