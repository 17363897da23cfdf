// A Benchmarks page chart (see benchmarkchart.h).
#include "benchmarkchart.h"

#include <algorithm>
#include <vector>

namespace clscope::ui {

namespace {
struct ChartSpec
{
    const char *name;
    const char *title;
    const char *yLabel;
    const char *xLabel;
    std::vector<const char *> keys;
};

const std::vector<ChartSpec> &chartSpecs()
{
    static const std::vector<ChartSpec> specs = {
        {"bandwidth",
         QT_TRANSLATE_NOOP("BenchmarkChart", "Global memory"),
         "GB/s",
         "vector width (float)",
         {"global_read_gbps", "global_write_gbps", "global_copy_gbps"}},
        {"compute",
         QT_TRANSLATE_NOOP("BenchmarkChart", "Compute"),
         "GFLOPS / GIOPS",
         "vector width",
         {"compute_sp_gflops", "compute_dp_gflops", "compute_hp_gflops", "compute_int_giops"}},
        {"local",
         QT_TRANSLATE_NOOP("BenchmarkChart", "Local memory"),
         "GB/s",
         "vector width (float)",
         {"local_bandwidth_gbps"}},
        {"transfer",
         QT_TRANSLATE_NOOP("BenchmarkChart", "Transfers"),
         "GB/s",
         "operation",
         {"transfer_gbps", "transfer_pinned_gbps"}},
    };
    return specs;
}

const QColor kPalette[] = {QColor(0x1a, 0x73, 0xe8), QColor(0xe8, 0x71, 0x0a), QColor(0x18, 0x80, 0x38),
                           QColor(0x9c, 0x27, 0xb0)};
// The vector widths of "float4" and "uint16": a shared axis for series of different types.
QString axisLabel(const std::string &label)
{
    const QString text = QString::fromStdString(label);
    qsizetype digits = text.size();
    while (digits > 0 && text.at(digits - 1).isDigit())
        --digits;
    if (digits == text.size())
        return text.contains(QLatin1String("float")) || text.contains(QLatin1String("double")) ||
                       text.contains(QLatin1String("uint")) || text.contains(QLatin1String("half"))
                   ? QStringLiteral("1")
                   : text;
    return text.mid(digits);
}
} // namespace

QStringList BenchmarkChart::names()
{
    QStringList names;
    for (const ChartSpec &spec : chartSpecs())
        names << QString::fromLatin1(spec.name);
    return names;
}

BenchmarkChart::BenchmarkChart(const QString &name, QWidget *parent)
    : QCustomPlot(parent)
    , m_spec(0)
    , m_group(new QCPBarsGroup(this))
{
    while (m_spec + 1 < int(chartSpecs().size()) &&
           name != QLatin1String(chartSpecs()[std::size_t(m_spec)].name))
        ++m_spec;
    const ChartSpec &spec = chartSpecs()[std::size_t(m_spec)];
    setObjectName(QStringLiteral("benchmarkChart_") + name);
    setMinimumSize(300, 180);
    yAxis->setLabel(QString::fromLatin1(spec.yLabel));
    xAxis->setLabel(QString::fromLatin1(spec.xLabel));
    xAxis->grid()->setVisible(false);
    // The legend above the bars, never over them: one row, or two when a baseline pairs each series.
    legend->setVisible(true);
    legend->setFont(font());
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    legend->setMargins(QMargins(4, 2, 4, 2));
}

QString BenchmarkChart::title() const
{
    return tr(chartSpecs()[std::size_t(m_spec)].title);
}

void BenchmarkChart::showRun(const BenchDocument &run, const BenchDocument *baseline)
{
    const ChartSpec *spec = &chartSpecs()[std::size_t(m_spec)];
    m_group->clear();
    clearPlottables();
    legend->setWrap(baseline ? 2 : 1); // each series above its baseline
    QVector<QString> labels;
    double top = 0;
    int colour = 0;
    for (const char *key : spec->keys) {
        const QColor base = kPalette[colour++ % std::size(kPalette)];
        const BenchSeries *mine = run.findSeries(key);
        const BenchSeries *theirs = baseline ? baseline->findSeries(key) : nullptr;
        for (const BenchSeries *s : {mine, theirs}) {
            if (!s || s->values.empty())
                continue;
            if (labels.isEmpty()) {
                for (const std::string &l : s->labels)
                    labels << axisLabel(l);
            }
            auto *bars = new QCPBars(xAxis, yAxis);
            const bool isBaseline = s == theirs;
            bars->setName(QString::fromStdString(s->key) + (isBaseline ? tr(" (baseline)") : QString()));
            QColor fill = base;
            if (isBaseline)
                fill.setAlpha(70);
            bars->setBrush(fill);
            bars->setPen(isBaseline ? QPen(base, 1, Qt::DashLine) : QPen(Qt::NoPen));
            bars->setWidthType(QCPBars::wtPlotCoords);
            QVector<double> keys, values;
            for (std::size_t i = 0; i < s->values.size(); ++i) {
                keys << double(i);
                values << s->values[i];
                top = std::max(top, s->values[i]);
            }
            bars->setData(keys, values, /*alreadySorted*/ true);
            bars->setBarsGroup(m_group);
        }
    }
    const int bars = plottableCount();
    for (int i = 0; i < bars; ++i)
        qobject_cast<QCPBars *>(plottable(i))->setWidth(0.8 / std::max(bars, 1));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (qsizetype i = 0; i < labels.size(); ++i)
        ticker->addTick(double(i), labels[i]);
    xAxis->setTicker(ticker);
    xAxis->setRange(-0.6, std::max<double>(double(labels.size()) - 0.4, 0.4));
    yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
    legend->setVisible(bars > 0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace clscope::ui
