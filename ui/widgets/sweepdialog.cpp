// The local-size sweep window (see sweepdialog.h).
#include "sweepdialog.h"
#include "display/stdstring.h"

#include "controllers/sweepcontroller.h"
#include "display/recordformat.h"
#include "files/readfile.h"
#include "sweepchart.h"
#include "sweeptable.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {
// A sweep document of thousands of local sizes is a few MB.
constexpr qint64 kMaxResultsBytes = 64 << 20;
QString localText(const std::vector<std::size_t> &local)
{
    return qs(localSizeLabel(local));
}

QString launchesText(int n)
{
    return n == 1 ? SweepDialog::tr("1 timed launch") : SweepDialog::tr("%1 timed launches").arg(n);
}

} // namespace

SweepDialog::SweepDialog(std::shared_ptr<DeviceWorkers> workers, QWidget *parent)
    : QDialog(parent)
    , m_controller(new SweepController(std::move(workers), this))
    , m_header(new QLabel)
    , m_candidates(new QLineEdit)
    , m_repeat(new QSpinBox)
    , m_sweep(new QPushButton(tr("&Sweep")))
    , m_progress(new QProgressBar)
    , m_cancel(new QPushButton(tr("&Cancel")))
    , m_status(new QLabel)
    , m_chart(new SweepChart)
    , m_table(new SweepTable)
    , m_splitter(new QSplitter(Qt::Vertical))
    , m_useBest(new QPushButton(tr("&Use best")))
    , m_open(new QPushButton(tr("&Open results…")))
{
    setObjectName(QStringLiteral("sweepDialog"));
    setWindowTitle(tr("Sweep local size"));
    setModal(false);
    setSizeGripEnabled(true);

    m_header->setObjectName(QStringLiteral("sweepHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true);
    m_header->setText(tr("Sweeps the launch of the Arguments panel over work-group sizes: each size runs the "
                         "kernel several times after a warm-up, and its outputs are compared with those of "
                         "the panel's own local size."));
    m_candidates->setObjectName(QStringLiteral("sweepCandidates"));
    m_candidates->setPlaceholderText(tr("auto: every size the device and kernel allow"));
    m_candidates->setToolTip(
        tr("Local sizes to try after the panel's own, separated by ';' or spaces: \"32;64;128\", "
           "\"16,16;32,8;driver\" (driver: the driver chooses). Empty or auto: every size the device and "
           "the kernel allow, and the driver's choice."));
    m_candidates->setClearButtonEnabled(true);
    m_repeat->setObjectName(QStringLiteral("sweepRepeat"));
    m_repeat->setRange(1, 100000);
    m_repeat->setValue(10);
    m_repeat->setToolTip(tr("Timed launches per local size, after one warm-up launch"));
    m_sweep->setObjectName(QStringLiteral("sweepStart"));
    m_sweep->setToolTip(tr("Sweep the Arguments panel's launch (built first if the source changed)"));
    m_progress->setObjectName(QStringLiteral("sweepProgress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_progress->setFormat(tr("%v of %m"));
    m_cancel->setObjectName(QStringLiteral("sweepCancel"));
    m_cancel->setEnabled(false);
    m_status->setObjectName(QStringLiteral("sweepStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_useBest->setObjectName(QStringLiteral("sweepUseBest"));
    m_useBest->setEnabled(false);
    m_useBest->setToolTip(tr("Put the best local size in the Arguments panel"));

    auto *controls = new QHBoxLayout;
    auto *sizesLabel = new QLabel(tr("&Local sizes:"));
    sizesLabel->setBuddy(m_candidates);
    auto *repeatLabel = new QLabel(tr("L&aunches each:"));
    repeatLabel->setBuddy(m_repeat);
    controls->addWidget(sizesLabel);
    controls->addWidget(m_candidates, 3);
    controls->addWidget(repeatLabel);
    controls->addWidget(m_repeat);
    controls->addWidget(m_sweep);
    controls->addWidget(m_progress, 2);
    controls->addWidget(m_cancel);

    m_splitter->setObjectName(QStringLiteral("sweepSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_chart);
    m_splitter->addWidget(m_table);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_splitMoved = true; });

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_useBest, QDialogButtonBox::ActionRole);
    buttons->addButton(m_open, QDialogButtonBox::ActionRole);
    m_open->setObjectName(QStringLiteral("sweepOpen"));
    m_open->setAutoDefault(false);
    m_open->setToolTip(tr("Show a sweep saved by clscope-cli sweep --json (made on another machine, say)"));
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open sweep results"), QString(),
                                                          tr("Sweep results (*.json);;All files (*)"));
        if (!path.isEmpty())
            openResults(path);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &SweepDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(buttons);

    connect(m_sweep, &QPushButton::clicked, this, &SweepDialog::sweepRequested);
    connect(m_candidates, &QLineEdit::returnPressed, this, &SweepDialog::sweepRequested);
    connect(m_cancel, &QPushButton::clicked, this, &SweepDialog::cancel);
    connect(m_useBest, &QPushButton::clicked, this, &SweepDialog::useBest);
    connect(m_controller, &SweepController::progressChanged, this, &SweepDialog::onProgress);
    connect(m_controller, &SweepController::finished, this, &SweepDialog::onFinished);
    connect(m_controller, &SweepController::failed, this, &SweepDialog::onFailed);
    m_sweep->setDefault(false);
    m_sweep->setAutoDefault(false);
    m_useBest->setAutoDefault(false);
}

SweepDialog::~SweepDialog() = default;

void SweepDialog::showEvent(QShowEvent *event)
{
    // The first time: most of the main window, so the chart and the table both have room.
    if (!m_sized) {
        m_sized = true;
        if (QWidget *window = parentWidget() ? parentWidget()->window() : nullptr) {
            resize(std::min(1180, int(window->width() * 0.86)), std::min(860, int(window->height() * 0.9)));
            move(window->geometry().center() - rect().center());
        }
    }
    QDialog::showEvent(event);
}

bool SweepDialog::start(const RunRequest &launch)
{
    SweepRequest request;
    request.run = launch;
    request.repeat = m_repeat->value();
    const QString text = m_candidates->text().trimmed();
    if (!text.isEmpty() && text.compare(QStringLiteral("auto"), Qt::CaseInsensitive) != 0) {
        try {
            request.candidates = parseLocalCandidates(text.toStdString());
        } catch (const std::exception &e) {
            m_status->setText(tr("Not swept: %1").arg(qs(e.what())));
            m_candidates->setFocus();
            emit sweepFailed(qs(e.what()));
            return false;
        }
    }
    m_kernel = qs(launch.kernel);
    m_header->setText(tr("<b>%1</b>: global %2, reference local %3; %4 per local size after a warm-up")
                          .arg(m_kernel.toHtmlEscaped(), qs(formatSizeList(launch.range.global)),
                               localText(launch.range.local), launchesText(request.repeat)));
    // The last sweep's figures belong to another launch: away with them.
    m_result = SweepResult{};
    m_table->clear();
    m_chart->clear(tr("Sweeping: the chart shows every local size once the sweep is done"));
    setRunning(true);
    m_controller->start(request);
    return true;
}

void SweepDialog::cancel()
{
    if (!isRunning())
        return;
    m_controller->cancel();
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling: the launch in flight finishes first…"));
}

bool SweepDialog::isRunning() const
{
    return m_controller->isRunning();
}

void SweepDialog::reject()
{
    cancel();
    QDialog::reject();
}

void SweepDialog::setRunning(bool running)
{
    m_cancel->setEnabled(running);
    m_sweep->setEnabled(!running);
    m_candidates->setEnabled(!running);
    m_repeat->setEnabled(!running);
    if (running) {
        m_useBest->setEnabled(false);
        m_progress->setRange(0, 0); // busy until the candidates are known
        m_progress->setTextVisible(false);
        m_status->setText(tr("Sweeping %1…").arg(m_kernel));
    }
}

void SweepDialog::onProgress(int done, int total)
{
    if (total <= 0) {
        m_progress->setRange(0, 0);
        return;
    }
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setTextVisible(true);
    m_status->setText(tr("Sweeping %1: %2 of %3 local sizes done…").arg(m_kernel).arg(done).arg(total));
}

void SweepDialog::onFinished(const SweepResult &result)
{
    setRunning(false);
    m_progress->setRange(0, std::max<int>(1, int(result.points.size())));
    m_progress->setValue(m_progress->maximum());
    showResult(result);
    emit sweepFinished(result);
}

void SweepDialog::onFailed(const QString &message)
{
    setRunning(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_status->setText(tr("Sweep failed: %1").arg(message));
    emit sweepFailed(message);
}

void SweepDialog::showResult(const SweepResult &result)
{
    m_result = result;
    if (!result.kernel.empty()) {
        m_header->setText(
            tr("<b>%1</b> on %2: global %3; %4 per local size after %5")
                .arg(qs(result.kernel).toHtmlEscaped(),
                     (result.device.empty() ? tr("the device") : qs(result.device)).toHtmlEscaped(),
                     qs(formatSizeList(result.global)), launchesText(result.repeat),
                     result.warmup == 0   ? tr("no warm-up")
                     : result.warmup == 1 ? tr("a warm-up launch")
                                          : tr("%1 warm-up launches").arg(result.warmup)));
    }
    m_chart->setResult(result);
    m_table->setResult(result);
    fitTable();
    m_status->setText(summary());
    const std::optional<QString> best = bestLocal();
    m_useBest->setEnabled(best.has_value() && !isRunning());
    m_useBest->setText(!best             ? tr("&Use best")
                       : best->isEmpty() ? tr("&Use best (driver's choice)")
                                         : tr("&Use best (%1)").arg(*best));
}

bool SweepDialog::openResults(const QString &path, QString *error)
{
    QString why;
    if (isRunning()) {
        why = tr("a sweep is running");
    } else {
        // Checked: a FIFO would block the window, /dev/zero would be read until memory ran out.
        const FileRead read = readCheckedFile(path, kMaxResultsBytes);
        if (!read.ok()) {
            why = read.error;
        } else {
            try {
                const SweepResult result = sweepResultFromJson(read.bytes.toStdString());
                if (result.repeat > 0)
                    m_repeat->setValue(result.repeat); // a sweep from here repeats what was opened
                showResult(result);
                m_status->setText(tr("%1 (from %2)").arg(m_status->text(), QFileInfo(path).fileName()));
                return true;
            } catch (const std::exception &e) {
                why = qs(e.what());
            }
        }
    }
    m_status->setText(tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), why));
    if (error)
        *error = why;
    return false;
}

std::optional<QString> SweepDialog::bestLocal() const
{
    if (!m_result.best || *m_result.best >= m_result.points.size())
        return std::nullopt;
    const auto &local = m_result.points[*m_result.best].local;
    return local.empty() ? QString() : qs(formatSizeList(local));
}

void SweepDialog::useBest()
{
    if (const std::optional<QString> best = bestLocal())
        emit useLocalSize(*best);
}

void SweepDialog::fitTable()
{
    // The chart gets what a short table does not need; a long one keeps two fifths and scrolls.
    const int total = m_splitter->height();
    if (total <= 0)
        return;
    const int rows = std::max(3, m_table->topLevelItemCount() + 1); // and a blank one: the end is in view
    const QTreeWidgetItem *first = m_table->topLevelItem(0);
    const int laidOut = first ? m_table->visualItemRect(first).height() : 0;
    const int rowHeight = laidOut > 0 ? laidOut : m_table->fontMetrics().height() + 2;
    const int wanted =
        m_table->header()->sizeHint().height() + rows * rowHeight + 2 * m_table->frameWidth() + 4;
    const int table = std::min(wanted, total * 2 / 5);
    m_splitter->setSizes({total - table, table});
}

void SweepDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    if (!m_splitMoved)
        fitTable();
}

QString SweepDialog::summary() const
{
    const SweepResult &r = m_result;
    if (r.points.empty())
        return r.cancelled ? tr("Cancelled before any local size ran.") : QString();
    int differ = 0;
    int failed = 0;
    const SweepPoint *driver = nullptr;
    for (const SweepPoint &p : r.points) {
        differ += p.ran && !p.matches ? 1 : 0;
        failed += p.ran ? 0 : 1;
        if (p.local.empty() && p.ran)
            driver = &p;
    }
    QString text;
    if (r.best) {
        const SweepPoint &b = r.points[*r.best];
        text = tr("Best: local %1, median %2").arg(localText(b.local), durationText(b.stats.medianNs));
        if (driver && driver != &b && !driver->matches)
            text += tr("; the driver's choice (%1) gives other outputs")
                        .arg(durationText(driver->stats.medianNs));
        else if (driver && driver != &b && b.stats.medianNs > 0)
            text += tr(", %1× as fast as the driver's choice (%2)")
                        .arg(QString::number(driver->stats.medianNs / b.stats.medianNs, 'f', 2),
                             durationText(driver->stats.medianNs));
        text += u'.';
    } else {
        text = tr("No local size ran with the reference's outputs.");
    }
    text +=
        r.points.size() == 1 ? tr(" 1 local size tried") : tr(" %1 local sizes tried").arg(r.points.size());
    if (differ)
        text += tr(", %1 with outputs that differ from the reference's").arg(differ);
    if (failed)
        text += tr(", %1 that did not run").arg(failed);
    text += u'.';
    if (r.cancelled)
        text += tr(" Cancelled: the sizes that ran are shown.");
    return text;
}

} // namespace clscope::ui
