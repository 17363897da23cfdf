// The pool panel's workload row: kind, trace, rate, Run and Stop, and the achieved rate.
#include "poolworkloadbar.h"

#include "clscope/format.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QToolButton>

namespace clscope::ui {

namespace {
QString countText(std::uint64_t n)
{
    return QLocale().toString(quint64(n));
}

struct RateChoice
{
    const char *text;
    double opsPerSecond;
};
const RateChoice kRates[] = {{QT_TRANSLATE_NOOP("PoolWorkloadBar", "100 ops/s"), 100},
                             {QT_TRANSLATE_NOOP("PoolWorkloadBar", "1 000 ops/s"), 1000},
                             {QT_TRANSLATE_NOOP("PoolWorkloadBar", "10 000 ops/s"), 10000},
                             {QT_TRANSLATE_NOOP("PoolWorkloadBar", "100 000 ops/s"), 100000},
                             {QT_TRANSLATE_NOOP("PoolWorkloadBar", "1 000 000 ops/s"), 1000000},
                             {QT_TRANSLATE_NOOP("PoolWorkloadBar", "As fast as possible"), 0}};
} // namespace

PoolWorkloadBar::PoolWorkloadBar(PoolMonitor *monitor, QWidget *parent)
    : QWidget(parent)
    , m_monitor(monitor)
    , m_workload(new QComboBox)
    , m_tracePath(new QLineEdit)
    , m_browse(new QToolButton)
    , m_rate(new QComboBox)
    , m_run(new QPushButton(tr("Run")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_status(new QLabel)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_workload->setObjectName(QStringLiteral("poolWorkload"));
    for (WorkloadKind kind : {WorkloadKind::Churn, WorkloadKind::GrowingSet, WorkloadKind::FragmentationStorm,
                              WorkloadKind::Replay})
        m_workload->addItem(workloadName(kind), int(kind));
    m_workload->setItemData(0, tr("Allocate and free a mix of sizes around a steady working set"),
                            Qt::ToolTipRole);
    m_workload->setItemData(1, tr("Grow a working set to 96 MiB, drain it, and again"), Qt::ToolTipRole);
    m_workload->setItemData(2, tr("Scatter sizes over many bins and punch holes: held memory piles up"),
                            Qt::ToolTipRole);
    m_workload->setItemData(3, tr("Run a trace file: alloc ID SIZE / free ID / free_held / stop_holding"),
                            Qt::ToolTipRole);
    m_tracePath->setObjectName(QStringLiteral("poolTracePath"));
    m_tracePath->setPlaceholderText(tr("Trace file (as for clscope-cli pool replay)"));
    m_browse->setText(tr("…"));
    m_browse->setToolTip(tr("Choose a trace file"));
    connect(m_browse, &QToolButton::clicked, this, &PoolWorkloadBar::chooseTrace);
    const auto showTrace = [this] {
        const bool replay = WorkloadKind(m_workload->currentData().toInt()) == WorkloadKind::Replay;
        m_tracePath->setVisible(replay);
        m_browse->setVisible(replay);
    };
    connect(m_workload, &QComboBox::currentIndexChanged, this, showTrace);
    showTrace();

    m_rate->setObjectName(QStringLiteral("poolRate"));
    for (const RateChoice &r : kRates)
        m_rate->addItem(tr(r.text), r.opsPerSecond);
    m_rate->setCurrentIndex(2);
    m_rate->setToolTip(tr("Pool operations (allocations and frees) per second; applies at once"));
    connect(m_rate, &QComboBox::currentIndexChanged, this,
            [this] { m_monitor->setRate(m_rate->currentData().toDouble()); });

    m_run->setObjectName(QStringLiteral("poolRun"));
    connect(m_run, &QPushButton::clicked, this, &PoolWorkloadBar::runRequested);
    m_stop->setObjectName(QStringLiteral("poolStop"));
    connect(m_stop, &QPushButton::clicked, m_monitor, &PoolMonitor::stopWorkload);
    m_status->setObjectName(QStringLiteral("poolStatus"));
    m_status->setTextFormat(Qt::PlainText);

    row->addWidget(new QLabel(tr("Workload")));
    row->addWidget(m_workload);
    row->addWidget(m_tracePath, 1);
    row->addWidget(m_browse);
    row->addWidget(new QLabel(tr("Rate")));
    row->addWidget(m_rate);
    row->addWidget(m_run);
    row->addWidget(m_stop);
    row->addWidget(m_status, 1);

    // A finished workload's summary, a pool action's result; the rate is measured from each start.
    connect(m_monitor, &PoolMonitor::actionFinished, m_status, &QLabel::setText);
    connect(m_monitor, &PoolMonitor::workloadFinished, this, [this](const QString &summary, bool isError) {
        if (!isError)
            m_status->setText(summary);
    });
    connect(m_monitor, &PoolMonitor::workloadRunningChanged, this, [this](bool running) {
        if (running) {
            m_rateClock.start();
            m_rateOps = 0;
            m_achievedRate = 0;
        }
    });
}

void PoolWorkloadBar::setWorkload(WorkloadKind kind, double opsPerSecond, const QString &tracePath)
{
    m_workload->setCurrentIndex(m_workload->findData(int(kind)));
    int rate = m_rate->findData(opsPerSecond);
    if (rate < 0) { // a rate the list lacks: add it rather than silently use another
        m_rate->addItem(tr("%1 ops/s").arg(QLocale().toString(opsPerSecond, 'g', 12)), opsPerSecond);
        rate = m_rate->count() - 1;
    }
    m_rate->setCurrentIndex(rate);
    if (!tracePath.isNull())
        m_tracePath->setText(tracePath);
}

void PoolWorkloadBar::start()
{
    WorkloadSpec spec;
    spec.kind = WorkloadKind(m_workload->currentData().toInt());
    spec.opsPerSecond = m_rate->currentData().toDouble();
    spec.tracePath = m_tracePath->text().trimmed();
    m_status->setText(tr("Starting %1…").arg(workloadName(spec.kind)));
    m_monitor->startWorkload(spec);
}

void PoolWorkloadBar::setActionsEnabled(bool hasPool, bool running)
{
    m_run->setEnabled(hasPool && !running);
    m_stop->setEnabled(running);
}

void PoolWorkloadBar::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString PoolWorkloadBar::statusText() const
{
    return m_status->text();
}

void PoolWorkloadBar::chooseTrace()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a pool trace"), m_tracePath->text(),
                                                      tr("Pool traces (*.txt *.trace);;All files (*)"));
    if (!path.isEmpty())
        m_tracePath->setText(path);
}

void PoolWorkloadBar::updateRunStatus()
{
    if (!m_monitor->isWorkloadRunning())
        return;
    const quint64 ops = m_monitor->workloadOps();
    // The achieved rate over the last second (the first figure after a tenth of one), so a rate the
    // device cannot keep up with shows as such.
    const qint64 ms = m_rateClock.isValid() ? m_rateClock.elapsed() : 0;
    if (ms >= 100) {
        m_achievedRate = double(ops - m_rateOps) * 1000.0 / double(ms);
        if (ms >= 1000) {
            m_rateClock.restart();
            m_rateOps = ops;
        }
    }
    m_status->setText(
        m_achievedRate > 0
            ? tr("Running: %1 operations, %2 ops/s").arg(countText(ops), countText(quint64(m_achievedRate)))
            : tr("Running: %1 operations").arg(countText(ops)));
}

} // namespace clscope::ui
