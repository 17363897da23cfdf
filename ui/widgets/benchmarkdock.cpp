// Benchmarks page (see benchmarkdock.h).
#include "benchmarkdock.h"

#include "benchmarkchart.h"

#include "controllers/benchmarkrunner.h"
#include "files/safewrite.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

namespace clscope::ui {

namespace {
enum Column { ColName, ColValue, ColBaseline, ColRatio, ColumnCount };

const QColor kBetter(0x1b, 0x87, 0x3f);
const QColor kWorse(0xc6, 0x28, 0x28);

QString formatNumber(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    return QString::number(value, 'f', std::abs(value) < 100 ? 2 : 0);
}

QString traitText(const BenchTraitValue &value)
{
    return std::visit(
        [](const auto &v) -> QString {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return BenchmarkDock::tr("n/a");
            else if constexpr (std::is_same_v<T, bool>)
                return v ? BenchmarkDock::tr("yes") : BenchmarkDock::tr("no");
            else if constexpr (std::is_same_v<T, std::string>)
                return QString::fromStdString(v);
            else if constexpr (std::is_same_v<T, double>)
                return formatNumber(v);
            else
                return QString::number(v);
        },
        value);
}

} // namespace

BenchmarkDock::BenchmarkDock(DeviceManager *manager, std::shared_ptr<DeviceWorkers> workers, QWidget *parent)
    : QWidget(parent)
    , m_manager(manager)
    , m_runner(new BenchmarkRunner(std::move(workers), this))
    , m_kind(new QComboBox)
    , m_effort(new QComboBox)
    , m_run(new QPushButton(tr("Run")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_save(new QPushButton(tr("Save results…")))
    , m_clearBaseline(new QPushButton(tr("Clear")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_baselineLabel(new QLabel(tr("No baseline: load a saved run to compare with it.")))
    , m_tree(new QTreeWidget)
    , m_tabs(new QTabWidget)
{
    setObjectName(QStringLiteral("benchmarkDock"));
    m_kind->setObjectName(QStringLiteral("benchmarkKind"));
    m_kind->addItem(tr("All"), QStringLiteral("all"));
    for (const BenchKindInfo &k : benchKinds()) {
        m_kind->addItem(QString::fromLatin1(k.name), QString::fromLatin1(k.name));
        m_kind->setItemData(m_kind->count() - 1, QString::fromLatin1(k.description), Qt::ToolTipRole);
    }
    m_effort->setObjectName(QStringLiteral("benchmarkEffort"));
    m_effort->addItem(tr("Accurate"), int(BenchEffort::Full));
    m_effort->addItem(tr("Quick"), int(BenchEffort::Quick));
    m_effort->addItem(tr("Smoke test"), int(BenchEffort::Tiny));
    m_effort->setToolTip(tr("Accurate: a few seconds a kind, large buffers on GPUs. Quick: about a tenth of "
                            "that. Smoke test: tiny sizes, figures without meaning."));
    m_run->setObjectName(QStringLiteral("benchmarkRun"));
    m_cancel->setObjectName(QStringLiteral("benchmarkCancel"));
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, [this] {
        start(m_kind->currentData().toString(), BenchEffort(m_effort->currentData().toInt()));
    });
    connect(m_cancel, &QPushButton::clicked, this, &BenchmarkDock::cancel);

    m_progress->setObjectName(QStringLiteral("benchmarkProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_status->setObjectName(QStringLiteral("benchmarkStatus"));
    m_status->setText(tr("Choose what to measure and press Run."));

    auto *loadBaseline = new QPushButton(tr("Load baseline…"));
    loadBaseline->setObjectName(QStringLiteral("benchmarkLoadBaseline"));
    connect(loadBaseline, &QPushButton::clicked, this, &BenchmarkDock::chooseBaseline);
    m_save->setObjectName(QStringLiteral("benchmarkSave"));
    m_save->setEnabled(false);
    connect(m_save, &QPushButton::clicked, this, &BenchmarkDock::chooseSaveFile);
    m_clearBaseline->setEnabled(false);
    connect(m_clearBaseline, &QPushButton::clicked, this, &BenchmarkDock::clearBaseline);
    m_baselineLabel->setObjectName(QStringLiteral("benchmarkBaseline"));
    m_baselineLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_tree->setObjectName(QStringLiteral("benchmarkFigures"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Figure"), tr("Value"), tr("Baseline"), tr("Ratio")});
    m_tree->setRootIsDecorated(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(false);

    for (const QString &name : BenchmarkChart::names()) {
        auto *chart = new BenchmarkChart(name);
        m_charts.insert(name, chart);
        m_tabs->addTab(chart, chart->title());
    }
    m_tabs->setObjectName(QStringLiteral("benchmarkCharts"));

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Measure:")));
    controls->addWidget(m_kind);
    controls->addWidget(m_effort);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    controls->addWidget(m_progress, 1);
    auto *baselineRow = new QHBoxLayout;
    baselineRow->addWidget(loadBaseline);
    baselineRow->addWidget(m_clearBaseline);
    baselineRow->addWidget(m_baselineLabel, 1);
    baselineRow->addWidget(m_save);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addLayout(baselineRow);
    layout->addWidget(splitter, 1);

    connect(m_runner, &BenchmarkRunner::progressChanged, this, [this](int permille, const QString &stage) {
        m_progress->setValue(permille);
        m_status->setText(stage);
    });
    connect(m_runner, &BenchmarkRunner::kindFinished, this, &BenchmarkDock::onKindFinished);
    connect(m_runner, &BenchmarkRunner::finished, this, [this](const BenchDocument &doc) {
        m_document = doc;
        refresh();
        onStopped(tr("Done: %n kind(s) measured on %1.", nullptr, int(doc.results.size()))
                      .arg(QString::fromStdString(doc.device)));
    });
    connect(m_runner, &BenchmarkRunner::cancelled, this, [this](const BenchDocument &partial) {
        m_document = partial;
        refresh();
        onStopped(tr("Cancelled; the kinds that finished are shown."));
    });
    connect(m_runner, &BenchmarkRunner::failed, this,
            [this](const QString &message) { onStopped(tr("Failed: %1").arg(message)); });
    refresh();
}

BenchmarkDock::~BenchmarkDock() = default;

bool BenchmarkDock::start(const QString &kind, BenchEffort effort)
{
    const DeviceSnapshot *device = m_manager ? m_manager->currentDeviceSnapshot() : nullptr;
    if (!device || !device->id) {
        m_status->setText(tr("No device selected: choose one in the Devices panel."));
        return false;
    }
    if (!m_runner->start(device->id, {kind}, effort))
        return false;
    // The controls show what runs, whoever started it (the Run button, a script, a test).
    if (const int k = m_kind->findData(kind); k >= 0)
        m_kind->setCurrentIndex(k);
    if (const int e = m_effort->findData(int(effort)); e >= 0)
        m_effort->setCurrentIndex(e);
    m_document = BenchDocument{};
    m_document.device = device->name();
    refresh();
    setRunning(true);
    m_progress->setValue(0);
    m_status->setText(tr("Measuring %1 on %2…").arg(kind, QString::fromStdString(device->name())));
    return true;
}

void BenchmarkDock::cancel()
{
    if (!m_runner->isRunning())
        return;
    m_runner->cancel();
    m_status->setText(tr("Cancelling after the current step…"));
}

void BenchmarkDock::onKindFinished(const BenchResult &result)
{
    m_document.results.push_back(result);
    refresh();
}

void BenchmarkDock::onStopped(const QString &message)
{
    setRunning(false);
    m_status->setText(message);
}

void BenchmarkDock::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_kind->setEnabled(!running);
    m_effort->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_save->setEnabled(!running && !m_document.results.empty());
}

QCustomPlot *BenchmarkDock::chart(const QString &name) const
{
    return m_charts.value(name);
}

void BenchmarkDock::showDocument(const BenchDocument &document)
{
    m_document = document;
    refresh();
    m_save->setEnabled(!m_runner->isRunning() && !m_document.results.empty());
}

void BenchmarkDock::refresh()
{
    fillTree();
    for (BenchmarkChart *chart : std::as_const(m_charts))
        chart->showRun(m_document, m_baseline ? &*m_baseline : nullptr);
}

void BenchmarkDock::fillTree()
{
    m_tree->clear();
    const std::vector<BenchComparison> comparison =
        m_baseline ? compareBench(m_document, *m_baseline) : std::vector<BenchComparison>{};
    QFont bold = m_tree->font();
    bold.setBold(true);
    for (const BenchResult &r : m_document.results) {
        auto *kind = new QTreeWidgetItem(m_tree, {QString::fromStdString(r.report.kind)});
        kind->setFont(ColName, bold);
        kind->setText(ColValue, tr("%1 s").arg(formatNumber(r.seconds)));
        kind->setToolTip(ColValue, tr("Wall time of this kind, compiles included"));
        for (const BenchFigure &f : r.report.figures) {
            auto *item = new QTreeWidgetItem(kind, {QString::fromStdString(f.key)});
            item->setText(ColValue,
                          formatNumber(f.value) + QLatin1Char(' ') + QString::fromStdString(f.unit));
            item->setTextAlignment(ColValue, Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(ColName, QString::fromStdString(f.definition));
            item->setToolTip(ColValue, QString::fromStdString(f.definition));
            const auto c = std::find_if(comparison.begin(), comparison.end(),
                                        [&](const BenchComparison &b) { return b.key == f.key; });
            if (c == comparison.end())
                continue;
            item->setText(ColBaseline,
                          formatNumber(c->baseline) + QLatin1Char(' ') + QString::fromStdString(f.unit));
            item->setTextAlignment(ColBaseline, Qt::AlignRight | Qt::AlignVCenter);
            if (c->baseline == 0)
                continue;
            item->setText(ColRatio, QStringLiteral("×") + QString::number(c->ratio, 'f', 2));
            item->setTextAlignment(ColRatio, Qt::AlignRight | Qt::AlignVCenter);
            item->setData(ColRatio, Qt::UserRole, c->ratio);
            item->setData(ColRatio, Qt::UserRole + 1, QString::fromLatin1(verdictName(c->verdict).data()));
            item->setToolTip(
                ColRatio,
                tr("%1 than the baseline").arg(QString::fromLatin1(verdictName(c->verdict).data())));
            if (c->verdict == BenchVerdict::Better || c->verdict == BenchVerdict::Worse) {
                const QColor colour = c->verdict == BenchVerdict::Better ? kBetter : kWorse;
                QColor background = colour;
                background.setAlpha(40);
                for (int col : {ColValue, ColRatio}) {
                    item->setForeground(col, colour);
                    item->setBackground(col, background);
                }
            }
        }
        for (const BenchTrait &t : r.traits) {
            auto *item = new QTreeWidgetItem(kind, {QString::fromStdString(t.key), traitText(t.value)});
            item->setTextAlignment(ColValue, Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(ColName, QString::fromStdString(t.definition));
            item->setToolTip(ColValue, traitText(t.value));
            if (m_baseline) {
                if (const BenchTrait *b = m_baseline->findTrait(t.key))
                    item->setText(ColBaseline, traitText(b->value));
            }
        }
    }
    m_tree->expandAll();
    // Values and baselines at most a few words wide: a trait that says why it is unknown keeps its
    // whole sentence in its tooltip.
    for (int column = 0; column < ColumnCount; ++column) {
        m_tree->resizeColumnToContents(column);
        if (column == ColValue || column == ColBaseline)
            m_tree->setColumnWidth(
                column, std::min(m_tree->columnWidth(column), 16 * fontMetrics().averageCharWidth()));
    }
    // Notes span the row and come after the sizing: a long sentence must not widen the value column.
    for (int i = 0; i < m_tree->topLevelItemCount() && i < int(m_document.results.size()); ++i) {
        for (const std::string &n : m_document.results[std::size_t(i)].notes) {
            auto *item =
                new QTreeWidgetItem(m_tree->topLevelItem(i), {tr("Note: %1").arg(QString::fromStdString(n))});
            item->setFirstColumnSpanned(true);
            item->setForeground(ColName, palette().color(QPalette::PlaceholderText));
            item->setToolTip(ColName, QString::fromStdString(n));
        }
    }
}

QString BenchmarkDock::loadBaseline(const QString &path)
{
    try {
        setBaseline(loadBenchFile(path.toStdString()), QFileInfo(path).fileName());
    } catch (const BenchFileError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void BenchmarkDock::setBaseline(const BenchDocument &baseline, const QString &name)
{
    m_baseline = baseline;
    m_baselineName = name;
    QString text = tr("Baseline: %1 — %2").arg(name, QString::fromStdString(baseline.device));
    if (!baseline.created.empty())
        text += tr(", %1").arg(QString::fromStdString(baseline.created));
    if (!m_document.device.empty() && baseline.device != m_document.device)
        text += tr(" (another device)");
    m_baselineLabel->setText(text);
    m_clearBaseline->setEnabled(true);
    refresh();
}

void BenchmarkDock::clearBaseline()
{
    m_baseline.reset();
    m_baselineName.clear();
    m_baselineLabel->setText(tr("No baseline: load a saved run to compare with it."));
    m_clearBaseline->setEnabled(false);
    refresh();
}

QString BenchmarkDock::saveResults(const QString &path) const
{
    // The same document saveBenchFile writes, through the checked write (a full disk is an error).
    const QString error = writeFileSafely(path, QByteArray::fromStdString(benchToJson(m_document)) + '\n');
    if (!error.isEmpty())
        return tr("cannot write %1: %2").arg(path, error);
    return {};
}

void BenchmarkDock::chooseBaseline()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load a baseline"), QString(),
                                                      tr("Benchmark results (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = loadBaseline(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Baseline not loaded"), error);
}

void BenchmarkDock::chooseSaveFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save benchmark results"), QStringLiteral("clscope-bench.json"), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = saveResults(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Results not saved"), error);
}

} // namespace clscope::ui
