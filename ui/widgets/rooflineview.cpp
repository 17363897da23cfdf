// The roofline panel: kernels table, log-log plot, lines by cost.
#include "rooflineview.h"

#include "display/stdstring.h"
#include "plottheme.h"
#include "qcustomplotinclude.h"

#include "clscope/format.h"
#include "clscope/lineprofile.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {

// Where a kernel without flops is drawn: the left edge of the plot, on the line of its bandwidth.
constexpr double kLeftEdge = 1.0 / 256;

QTableWidgetItem *cell(const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString fixed(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

QString countText(std::uint64_t n)
{
    return n ? QString::number(n) : QString();
}

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    return table;
}

} // namespace

RooflineView::RooflineView(QWidget *parent)
    : QWidget(parent)
    , m_message(new QLabel(this))
    , m_status(new QLabel(this))
    , m_count(new QPushButton(tr("Count work against the roofs"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_sampleGroups(new QSpinBox(this))
    , m_peaks(new QLabel(this))
    , m_kernels(makeTable({tr("Kernel"), tr("Launches"), tr("Device time"), tr("Share"), tr("GB/s"),
                           tr("GFLOP/s"), tr("Flops/B"), tr("Limit"), tr("% of roof")},
                          this))
    , m_lines(makeTable({tr("Line"), tr("Instr"), tr("%"), tr("Flops"), tr("Global B"), tr("Local B"),
                         tr("Atomics"), tr("Barriers"), tr("Diverged"), tr("Source")},
                        this))
    , m_linesTitle(new QLabel(this))
    , m_open(new QPushButton(tr("Open source with heat"), this))
    , m_plot(new QCustomPlot(this))
{
    setObjectName(QStringLiteral("rooflineView"));
    m_kernels->setObjectName(QStringLiteral("rooflineKernels"));
    m_lines->setObjectName(QStringLiteral("rooflineLines"));
    m_plot->setObjectName(QStringLiteral("rooflinePlot"));
    m_open->setObjectName(QStringLiteral("rooflineOpenSource"));
    m_message->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("rooflineStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_count->setObjectName(QStringLiteral("rooflineCount"));
    m_stop->setObjectName(QStringLiteral("rooflineStop"));
    m_stop->setEnabled(false);
    m_sampleGroups->setObjectName(QStringLiteral("rooflineSampleGroups"));
    m_sampleGroups->setRange(0, 1 << 30);
    m_sampleGroups->setValue(int(kDefaultSampleGroups));
    m_sampleGroups->setSpecialValueText(tr("every work-group"));
    m_sampleGroups->setPrefix(tr("sample "));
    m_sampleGroups->setSuffix(tr(" work-groups"));
    m_sampleGroups->setToolTip(
        tr("A counted launch of more work-groups than this runs only this many on Oclgrind, evenly spread "
           "(first and last included), and its counts are scaled; 0 counts every work-group (slow: about a "
           "microsecond an instruction)"));
    m_peaks->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // one line; the tooltip has it all
    m_peaks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_open->setEnabled(false);
    m_open->setToolTip(
        tr("Open the kernel's source with each line's share of its instructions in the gutter"));
    m_plot->setMinimumSize(240, 120);
    m_kernels->setMinimumHeight(60);
    m_lines->setMinimumHeight(60);

    auto *linesBox = new QWidget(this);
    auto *linesLayout = new QVBoxLayout(linesBox);
    linesLayout->setContentsMargins(0, 0, 0, 0);
    auto *linesHeader = new QHBoxLayout;
    linesHeader->addWidget(m_linesTitle, 1);
    linesHeader->addWidget(m_open);
    linesLayout->addLayout(linesHeader);
    linesLayout->addWidget(m_lines);

    // The tables on the left, kernels over lines; the plot on the right: at 1280x800 the Capture panel is a
    // few rows high, and every part keeps some of them.
    auto *tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(m_kernels);
    tables->addWidget(linesBox);
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tables);
    split->addWidget(m_plot);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *head = new QHBoxLayout;
    head->addWidget(m_status, 1);
    head->addWidget(m_sampleGroups);
    head->addWidget(m_count);
    head->addWidget(m_stop);
    layout->addLayout(head);
    layout->addWidget(m_message);
    layout->addWidget(m_peaks);
    layout->addWidget(split, 1);

    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_plot->xAxis->setLabel(tr("flops per byte"));
    m_plot->yAxis->setLabel(tr("GFLOP/s"));
    applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis});

    connect(m_kernels, &QTableWidget::currentCellChanged, this, [this] { fillLines(); });
    connect(m_kernels, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (row >= 0 && std::size_t(row) < m_doc.kernels.size() && m_doc.kernels[std::size_t(row)].hasLines)
            emit sourceRequested(row);
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (currentKernel() >= 0)
            emit sourceRequested(currentKernel());
    });
    connect(m_lines, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const QTableWidgetItem *item = m_lines->item(row, 0);
        if (item && currentKernel() >= 0)
            emit lineRequested(currentKernel(), item->data(Qt::UserRole).toInt());
    });
    clear(tr("No roofline yet"));
}

void RooflineView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPlotTheme(m_plot, palette(), {m_plot->xAxis, m_plot->yAxis});
    QWidget::changeEvent(event);
}

void RooflineView::setBusy(bool busy, const QString &status)
{
    m_count->setEnabled(!busy);
    m_stop->setEnabled(busy);
    setStatus(status);
}

void RooflineView::setStatus(const QString &status)
{
    m_status->setText(status);
}

QString RooflineView::statusText() const
{
    return m_status->text();
}

QString RooflineView::messageText() const
{
    return m_message->text();
}

void RooflineView::clear(const QString &message)
{
    m_doc = RooflineDocument{};
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
    m_peaks->clear();
    fillKernels();
    drawPlot();
}

void RooflineView::setDocument(const RooflineDocument &doc)
{
    m_doc = doc;
    m_message->clear();
    m_message->hide();
    QStringList peaks;
    for (const RooflinePeaks &p : m_doc.peaks) {
        QString line = tr("Roofs of %1: %2 GB/s, %3 GFLOP/s single")
                           .arg(p.device, fixed(p.bandwidthGBps, 1), fixed(p.singleGflops, 1));
        if (p.doubleGflops > 0)
            line += tr(", %1 GFLOP/s double").arg(fixed(p.doubleGflops, 1));
        if (!p.from.isEmpty())
            line += tr(" (%1)").arg(p.from);
        peaks << line;
    }
    m_peaks->setText(peaks.join(u'\n'));
    m_peaks->setToolTip(peaks.join(u'\n'));
    fillKernels();
    drawPlot();
    if (!m_doc.kernels.empty())
        selectKernel(0);
}

int RooflineView::currentKernel() const
{
    const int row = m_kernels->currentRow();
    return row >= 0 && std::size_t(row) < m_doc.kernels.size() ? row : -1;
}

void RooflineView::selectKernel(int index)
{
    if (index >= 0 && index < m_kernels->rowCount())
        m_kernels->setCurrentCell(index, 0);
}

void RooflineView::fillKernels()
{
    m_kernels->setRowCount(0);
    m_kernels->setRowCount(int(m_doc.kernels.size()));
    for (std::size_t i = 0; i < m_doc.kernels.size(); ++i) {
        const RooflineKernel &k = m_doc.kernels[i];
        const int row = int(i);
        m_kernels->setItem(row, 0, cell(k.kernel, false));
        m_kernels->setItem(row, 1, cell(QString::number(k.launches), true));
        m_kernels->setItem(row, 2, cell(qs(formatNanoseconds(double(k.totalNs))), true));
        m_kernels->setItem(row, 3, cell(QStringLiteral("%1 %").arg(fixed(100 * k.share, 1)), true));
        if (!k.counted) {
            QTableWidgetItem *why = cell(tr("not counted: %1").arg(k.error), false);
            why->setToolTip(k.error);
            m_kernels->setItem(row, 4, why);
            m_kernels->setSpan(row, 4, 1, 5);
            continue;
        }
        m_kernels->setItem(row, 4, cell(fixed(k.gbps, 1), true));
        m_kernels->setItem(row, 5, cell(fixed(k.gflops, 1), true));
        m_kernels->setItem(row, 6, cell(fixed(k.intensity, 3), true));
        m_kernels->setItem(row, 7, cell(k.memoryBound ? tr("memory") : tr("compute"), false));
        QTableWidgetItem *percent = cell(QStringLiteral("%1 %").arg(fixed(k.percentOfRoof, 1)), true);
        percent->setToolTip(roofText(k, m_doc.peaksOf(k.device)));
        m_kernels->setItem(row, 8, percent);
    }
    m_kernels->resizeColumnsToContents();
    fillLines();
}

void RooflineView::fillLines()
{
    m_lines->setRowCount(0);
    const int index = currentKernel();
    const RooflineKernel *k = index >= 0 ? &m_doc.kernels[std::size_t(index)] : nullptr;
    m_open->setEnabled(k && k->hasLines);
    if (!k || !k->hasLines) {
        m_linesTitle->setText(
            k ? tr("%1: no line profile (%2)").arg(k->kernel, k->counted ? tr("not counted") : k->error)
              : QString());
        return;
    }
    const std::vector<LineHeat> lines = k->lines.byCost();
    m_linesTitle->setText(
        tr("%1 by line, the costliest first: %2 instructions of %3 work-items%4")
            .arg(k->kernel)
            .arg(k->lines.executed)
            .arg(k->lines.workItems)
            .arg(k->countedLaunch >= 0 ? tr(" (launch %1)").arg(k->countedLaunch) : QString()) +
        (k->lines.sampling.isEmpty() ? QString() : QStringLiteral("; ") + k->lines.sampling));
    m_lines->setRowCount(int(lines.size()));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const LineHeat &l = lines[i];
        const int row = int(i);
        QTableWidgetItem *line =
            cell(l.file == k->lines.mainFile ? QString::number(l.line)
                                             : QStringLiteral("%1:%2").arg(l.file).arg(l.line),
                 true);
        line->setData(Qt::UserRole, l.file == k->lines.mainFile ? l.line : 0);
        m_lines->setItem(row, 0, line);
        m_lines->setItem(row, 1, cell(QString::number(l.executed), true));
        m_lines->setItem(row, 2, cell(fixed(100 * l.share, 1), true));
        m_lines->setItem(row, 3, cell(countText(l.flops), true));
        m_lines->setItem(row, 4, cell(countText(l.globalBytes), true));
        m_lines->setItem(row, 5, cell(countText(l.localBytes), true));
        m_lines->setItem(row, 6, cell(countText(l.atomics), true));
        m_lines->setItem(row, 7, cell(countText(l.barriers), true));
        m_lines->setItem(row, 8, cell(countText(l.divergentGroups), true));
        m_lines->setItem(row, 9, cell(l.source, false));
    }
    m_lines->resizeColumnsToContents();
}

void RooflineView::drawPlot()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_points = nullptr;
    if (m_doc.peaks.empty()) {
        m_plot->replot();
        return;
    }
    // The axes span the roofs' corner and every point, in whole decades.
    double xMin = kLeftEdge, xMax = 64, yMin = 1e9, yMax = 0;
    for (const RooflinePeaks &p : m_doc.peaks) {
        xMax = std::max(xMax, 4 * p.singleGflops / p.bandwidthGBps);
        yMax = std::max(yMax, std::max(p.singleGflops, p.doubleGflops));
        yMin = std::min(yMin, kLeftEdge * p.bandwidthGBps);
    }
    struct Point
    {
        double x, y;
        QString label;
    };
    std::vector<Point> points;
    for (const RooflineKernel &k : m_doc.kernels) {
        if (!k.counted)
            continue;
        const bool noFlops = k.flops == 0 || k.intensity <= 0;
        const double x = noFlops ? kLeftEdge : std::max(k.intensity, kLeftEdge);
        const double y = noFlops ? std::max(kLeftEdge * k.gbps, 1e-9) : std::max(k.gflops, 1e-9);
        points.push_back({x, y,
                          noFlops ? tr("%1 (no flops, %2 GB/s): %3 %")
                                        .arg(k.kernel, fixed(k.gbps, 1), fixed(k.percentOfRoof, 1))
                                  : tr("%1: %2 %").arg(k.kernel, fixed(k.percentOfRoof, 1))});
        xMax = std::max(xMax, 2 * x);
        yMin = std::min(yMin, y / 2);
        yMax = std::max(yMax, 2 * y);
    }
    const auto decadeDown = [](double v) { return std::pow(10.0, std::floor(std::log10(v))); };
    const auto decadeUp = [](double v) { return std::pow(10.0, std::ceil(std::log10(v))); };
    xMin = decadeDown(xMin);
    xMax = decadeUp(xMax);
    yMin = decadeDown(yMin);
    yMax = decadeUp(yMax * 1.5);

    const QColor roofColour = palette().color(QPalette::Text);
    for (const RooflinePeaks &p : m_doc.peaks) {
        for (const bool dbl : {false, true}) {
            const double peak = dbl ? p.doubleGflops : p.singleGflops;
            if (!(peak > 0))
                continue;
            QCPGraph *roof = m_plot->addGraph();
            roof->setName(dbl ? tr("%1 double").arg(p.device) : p.device);
            QPen pen(roofColour, dbl ? 1 : 2, dbl ? Qt::DashLine : Qt::SolidLine);
            roof->setPen(pen);
            const double ridge = peak / p.bandwidthGBps;
            roof->setData({xMin, ridge, xMax}, {xMin * p.bandwidthGBps, peak, peak});
            auto *label = new QCPItemText(m_plot);
            label->setPositionAlignment(Qt::AlignRight | (dbl ? Qt::AlignTop : Qt::AlignBottom));
            label->position->setCoords(xMax, peak);
            label->setText(dbl ? tr("%1 GFLOP/s double").arg(fixed(peak, 0))
                               : tr("%1 GFLOP/s single").arg(fixed(peak, 0)));
            label->setColor(roofColour);
        }
        auto *bw = new QCPItemText(m_plot);
        bw->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        bw->position->setCoords(xMin * 3, xMin * 3 * p.bandwidthGBps * 1.3);
        bw->setText(tr("%1 GB/s").arg(fixed(p.bandwidthGBps, 0)));
        bw->setColor(roofColour);
    }
    m_points = m_plot->addGraph();
    m_points->setName(tr("kernels"));
    m_points->setLineStyle(QCPGraph::lsNone);
    m_points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0xc0, 0x30, 0x30), 8));
    for (const Point &p : points) {
        m_points->addData(p.x, p.y);
        auto *label = new QCPItemText(m_plot);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setCoords(p.x * 1.15, p.y);
        label->setText(p.label);
        label->setColor(QColor(0xc0, 0x30, 0x30));
    }
    m_plot->xAxis->setRange(xMin, xMax);
    m_plot->yAxis->setRange(yMin, yMax);
    m_plot->replot();
}

} // namespace clscope::ui
