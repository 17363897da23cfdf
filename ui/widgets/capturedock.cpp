// The Capture panel: a view of the CaptureSession.
#include "capturedock.h"
#include "display/stdstring.h"

#include "capturememoryview.h"
#include "captureprograms.h"
#include "capturereplays.h"
#include "display/recordformat.h"
#include "models/eventtablemodel.h"
#include "rooflineview.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTabWidget>
#include <QTextCursor>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace clscope::ui {

namespace {

QTableWidget *makeTable(const QString &name, const QStringList &headers)
{
    auto *t = new QTableWidget;
    t->setObjectName(name);
    t->setColumnCount(int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(20);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

// A cell that sorts by its number and shows its text.
QTableWidgetItem *numberItem(double value, const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

CaptureDock::CaptureDock(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel)
    , m_progress(new QLabel)
    , m_status(new QLabel)
    , m_stop(new QPushButton(tr("Stop")))
    , m_roofline(new RooflineView)
    , m_launch(new QSpinBox)
    , m_launchInfo(new QLabel)
    , m_open(new QPushButton(tr("Open in workbench")))
    , m_replay(new QPushButton(tr("Replay on every device")))
    , m_export(new QPushButton(tr("Export as pyopencl script…")))
    , m_debug(new QPushButton(tr("Debug")))
    , m_launchProblem(new QLabel)
    , m_tabs(new QTabWidget)
    , m_kernels(makeTable(QStringLiteral("captureKernels"), {tr("Kernel"), tr("Launches"), tr("Device time"),
                                                             tr("Mean"), tr("Share"), tr("With contents")}))
    , m_memory(new CaptureMemoryView)
    , m_programs(new CapturePrograms)
    , m_api(makeTable(QStringLiteral("captureApi"),
                      {tr("Function"), tr("Calls"), tr("Failed"), tr("Total"), tr("Mean"), tr("Longest")}))
    , m_console(new QPlainTextEdit)
    , m_replays(new CaptureReplays)
{
    setObjectName(QStringLiteral("capturePanel"));
    m_title->setObjectName(QStringLiteral("captureTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setText(tr("No capture. File → Profile application… runs a program and captures it; File → Open "
                        "opens a .clscope file."));
    m_title->setWordWrap(true);
    m_progress->setObjectName(QStringLiteral("captureProgress"));
    m_status->setObjectName(QStringLiteral("captureStatus"));
    m_status->setWordWrap(true);
    m_stop->setObjectName(QStringLiteral("captureStop"));
    m_stop->setToolTip(tr("End the program; what was captured is kept"));
    m_stop->setEnabled(false);
    m_launch->setObjectName(QStringLiteral("captureLaunch"));
    m_launch->setRange(0, 0);
    m_launch->setPrefix(tr("launch "));
    m_launch->setToolTip(tr("The launch the actions work on (also chosen from the timeline and its events)"));
    m_launchInfo->setObjectName(QStringLiteral("captureLaunchInfo"));
    m_open->setObjectName(QStringLiteral("captureOpenInWorkbench"));
    m_replay->setObjectName(QStringLiteral("captureReplayEverywhere"));
    m_export->setObjectName(QStringLiteral("captureExport"));
    m_debug->setObjectName(QStringLiteral("captureDebug"));
    m_debug->setToolTip(
        tr("Debug this launch: replay it on the Oclgrind simulator stopped at its first line, its "
           "program's source open (breakpoints in its margin)"));
    m_launchProblem->setObjectName(QStringLiteral("captureLaunchProblem"));
    m_launchProblem->setWordWrap(true);
    m_launchProblem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_launchProblem->setStyleSheet(QStringLiteral("color: #c62828"));
    m_launchProblem->hide();
    for (QPushButton *b : {m_open, m_replay, m_export, m_debug})
        b->setEnabled(false);

    auto *head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_progress);
    head->addWidget(m_stop);
    auto *launchRow = new QHBoxLayout;
    launchRow->addWidget(m_launch);
    launchRow->addWidget(m_launchInfo, 1);
    launchRow->addWidget(m_open);
    launchRow->addWidget(m_replay);
    launchRow->addWidget(m_export);
    launchRow->addWidget(m_debug);

    m_console->setObjectName(QStringLiteral("captureConsole"));
    m_console->setReadOnly(true);
    m_console->setMaximumBlockCount(20000);
    m_console->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_tabs->setObjectName(QStringLiteral("captureTabs"));
    m_roofline->setObjectName(QStringLiteral("captureRooflineView"));
    m_tabs->addTab(m_kernels, tr("Kernels"));
    m_tabs->addTab(m_roofline, tr("Roofline"));
    m_tabs->addTab(m_memory, tr("Device memory"));
    m_tabs->addTab(m_programs, tr("Programs"));
    m_tabs->addTab(m_api, tr("API calls"));
    m_tabs->addTab(m_console, tr("Console"));
    connect(m_replays, &CaptureReplays::debugRequested, this, &CaptureDock::debugDifferenceRequested);
    m_tabs->addTab(m_replays, tr("Replay"));
    m_kernels->setSortingEnabled(true);
    m_api->setSortingEnabled(true);
    // Names take the room; the numbers their width.
    for (QTableWidget *t : {m_kernels, m_api}) {
        t->horizontalHeader()->setStretchLastSection(false);
        t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(head);
    layout->addWidget(m_status);
    layout->addLayout(launchRow);
    layout->addWidget(m_launchProblem);
    layout->addWidget(m_tabs, 1);

    connect(m_stop, &QPushButton::clicked, this, &CaptureDock::stopRequested);
    connect(m_open, &QPushButton::clicked, this, [this] { emit openInWorkbenchRequested(currentLaunch()); });
    connect(m_replay, &QPushButton::clicked, this, [this] { emit replayRequested(currentLaunch()); });
    connect(m_export, &QPushButton::clicked, this, [this] { emit exportRequested(currentLaunch()); });
    connect(m_debug, &QPushButton::clicked, this, [this] { emit debugRequested(currentLaunch()); });
    connect(m_launch, &QSpinBox::valueChanged, this, [this] {
        updateLaunchLabel();
        const std::int64_t l = currentLaunch();
        const bool known =
            l >= 0 && std::size_t(l) < m_launchKernel.size() && m_launchKernel[std::size_t(l)] >= 0;
        emit currentLaunchChanged(l, known ? m_kernelNames[m_launchKernel[std::size_t(l)]] : QString());
    });
    connect(m_programs, &CapturePrograms::openRequested, this, &CaptureDock::programOpenRequested);
    // A kernel's row: its first launch with contents (else its first) becomes the current launch.
    connect(m_kernels, &QTableWidget::cellDoubleClicked, this, [this](int row) {
        const QTableWidgetItem *item = m_kernels->item(row, 0);
        const std::int64_t pick = item->data(Qt::UserRole).toLongLong();
        if (pick >= 0)
            setCurrentLaunch(pick, item->data(Qt::UserRole + 1).toString());
    });
}

void CaptureDock::onCaptureLoaded(const CaptureSession &session)
{
    m_kernelNames.clear();
    m_kernelIndex.clear();
    m_launchKernel.clear();
    mapLaunches(session.data(), 0);
    show(session.data(), session.state(), true);
}

void CaptureDock::onCaptureUpdated(const CaptureSession &session, const CaptureChange &change)
{
    mapLaunches(session.data(), change.appendedFrom);
    show(session.data(), session.state(), change.programsChanged);
}

void CaptureDock::onLaunchSelected(qint64 launch, const QString &kernel)
{
    setCurrentLaunch(launch, kernel);
}

void CaptureDock::mapLaunches(const CaptureData &d, std::size_t from)
{
    // Launch index -> kernel, from the commands among the records.
    m_launchKernel.resize(std::size_t(std::max<std::int64_t>(0, d.launchCount)), -1);
    const std::vector<CommandRecord> &records = *d.records;
    for (std::size_t i = from; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        if (r.hostSpan || r.launch < 0 || std::size_t(r.launch) >= m_launchKernel.size())
            continue;
        auto [it, added] = m_kernelIndex.try_emplace(r.name, int(m_kernelNames.size()));
        if (added)
            m_kernelNames << qs(r.name);
        m_launchKernel[std::size_t(r.launch)] = it->second;
    }
}

void CaptureDock::show(const CaptureData &s, State state, bool programs)
{
    m_state = state;
    m_stop->setEnabled(state == State::Live);
    if (!s.error.isEmpty()) {
        m_title->setText(s.errorText());
        return;
    }
    const CaptureSummary &sum = s.summary;
    QString how;
    if (state == State::Live)
        how = tr("running");
    else if (sum.exitStatus)
        how = tr("exit status %1").arg(*sum.exitStatus);
    else
        how = tr("exit status unknown");
    if (state != State::Live && !s.progress.complete && sum.apiCalls > 0)
        how += tr(", did not shut OpenCL down cleanly");
    m_title->setText(tr("<b>%1</b> — %2<br><span style='color:gray'>%3</span>")
                         .arg(qs(sum.program).toHtmlEscaped(), how, s.path.toHtmlEscaped()));
    const QLocale locale;
    QString progress = tr("%1 commands, %2 kernel launches, %3 API calls, %4 of contents")
                           .arg(locale.toString(s.progress.commands), locale.toString(s.progress.launches),
                                locale.toString(s.progress.apiCalls), bytesText(s.progress.contentBytes));
    if (s.progress.droppedRecords)
        progress += tr(", %1 records dropped").arg(locale.toString(s.progress.droppedRecords));
    m_progress->setText(progress);
    if (state != State::Live && sum.apiCalls == 0)
        setStatus(
            tr("No OpenCL call reached CLScope's layer: the program used no OpenCL, or its "
               "libOpenCL.so.1 ignores OPENCL_LAYERS (CUDA's own loader does; put ocl-icd's first, e.g. "
               "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu)."));

    m_withContents = s.launchesWithContents;
    {
        const QSignalBlocker block(m_launch);
        m_launch->setRange(
            0, int(std::max<std::int64_t>(0, std::min<std::int64_t>(s.launchCount, INT32_MAX) - 1)));
    }
    for (QPushButton *b : {m_open, m_replay, m_export, m_debug})
        b->setEnabled(s.launchCount > 0);
    updateLaunchLabel();

    fillKernels(s);
    m_memory->setData(s.buffers, s.contexts, s.first, s.last);
    if (programs)
        m_programs->setPrograms(s.programs);
    fillApi(s);
}

void CaptureDock::fillKernels(const CaptureData &s)
{
    std::uint64_t total = 0;
    for (const CaptureKernelTotal &k : s.summary.kernels)
        total += k.totalNs;
    m_kernels->setSortingEnabled(false);
    m_kernels->setRowCount(int(s.summary.kernels.size()));
    for (std::size_t i = 0; i < s.summary.kernels.size(); ++i) {
        const CaptureKernelTotal &k = s.summary.kernels[i];
        const int row = int(i);
        // A kernel is its name and its program's sources (CaptureKernelTotal): the label tells two apart.
        auto *name = new QTableWidgetItem(qs(k.label));
        name->setToolTip(k.label == k.name ? QString()
                                           : tr("%1 of program %2: another program of other sources (or "
                                                "build options) has a kernel of this name")
                                                 .arg(qs(k.name))
                                                 .arg(k.program));
        // Its first launch with contents, else its first: the launch a double click makes current.
        name->setData(Qt::UserRole,
                      qlonglong(k.contentLaunches.empty() ? k.firstLaunch : k.contentLaunches.front()));
        name->setData(Qt::UserRole + 1, qs(k.name));
        m_kernels->setItem(row, 0, name);
        m_kernels->setItem(row, 1, numberItem(double(k.launches), QLocale().toString(k.launches)));
        // With capture --timestamps N or program, the time is of the timed launches, and so is the mean.
        QString time = durationText(double(k.totalNs));
        if (k.timed == 0 && k.launches > 0)
            time = tr("none timed");
        else if (k.timed < k.launches)
            time += tr(" (%1 timed)").arg(QLocale().toString(k.timed));
        m_kernels->setItem(row, 2, numberItem(double(k.totalNs), time));
        const double mean = k.timed ? double(k.totalNs) / double(k.timed) : 0;
        m_kernels->setItem(row, 3, numberItem(mean, k.timed ? durationText(mean) : QStringLiteral("—")));
        const double share = total ? 100.0 * double(k.totalNs) / double(total) : 0;
        m_kernels->setItem(row, 4, numberItem(share, QStringLiteral("%1 %").arg(share, 0, 'f', 1)));
        const std::uint64_t c = k.contentLaunches.size();
        m_kernels->setItem(row, 5, numberItem(double(c), c ? QLocale().toString(c) : tr("none")));
    }
    m_kernels->setSortingEnabled(true);
    m_kernels->resizeColumnsToContents();
}

void CaptureDock::fillApi(const CaptureData &s)
{
    m_api->setSortingEnabled(false);
    m_api->setRowCount(int(s.api.size()));
    for (std::size_t i = 0; i < s.api.size(); ++i) {
        const CaptureApiTotal &a = s.api[i];
        const int row = int(i);
        m_api->setItem(row, 0, new QTableWidgetItem(qs(a.name)));
        m_api->setItem(row, 1, numberItem(double(a.calls), QLocale().toString(a.calls)));
        auto *failed = numberItem(double(a.failed), QLocale().toString(a.failed));
        if (a.failed)
            failed->setForeground(QColor(0xc6, 0x28, 0x28));
        m_api->setItem(row, 2, failed);
        m_api->setItem(row, 3, numberItem(double(a.totalNs), durationText(double(a.totalNs))));
        const double mean = a.calls ? double(a.totalNs) / double(a.calls) : 0;
        m_api->setItem(row, 4, numberItem(mean, durationText(mean)));
        m_api->setItem(row, 5, numberItem(double(a.maxNs), durationText(double(a.maxNs))));
    }
    m_api->setSortingEnabled(true);
    m_api->resizeColumnsToContents();
}

void CaptureDock::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString CaptureDock::statusText() const
{
    return m_status->text();
}

QString CaptureDock::progressText() const
{
    return m_progress->text();
}

void CaptureDock::appendConsole(const QString &text, bool error)
{
    QTextCursor c(m_console->document());
    c.movePosition(QTextCursor::End);
    QTextCharFormat f;
    if (error)
        f.setForeground(QColor(0xc6, 0x28, 0x28));
    c.insertText(text, f);
    m_console->verticalScrollBar()->setValue(m_console->verticalScrollBar()->maximum());
}

void CaptureDock::clearConsole()
{
    m_console->clear();
}

QString CaptureDock::consoleText() const
{
    return m_console->toPlainText();
}

void CaptureDock::setCurrentLaunch(std::int64_t launch, const QString &)
{
    if (launch < 0 || launch > m_launch->maximum())
        return;
    const QSignalBlocker block(m_launch); // chosen elsewhere: the session has it already
    m_launch->setValue(int(launch));
    updateLaunchLabel();
}

std::int64_t CaptureDock::currentLaunch() const
{
    return m_launch->value();
}

void CaptureDock::updateLaunchLabel()
{
    const std::int64_t l = currentLaunch();
    m_launchProblem->hide();
    if (l < 0 || std::size_t(l) >= m_launchKernel.size() || m_launchKernel[std::size_t(l)] < 0) {
        m_launchInfo->setText(m_launchKernel.empty() ? tr("no kernel launches") : QString());
        return;
    }
    m_launchInfo->setText(tr("%1 of %2: %3%4")
                              .arg(l)
                              .arg(m_launchKernel.size())
                              .arg(m_kernelNames[m_launchKernel[std::size_t(l)]],
                                   m_withContents.count(l) ? tr(" (contents kept)") : tr(" (no contents)")));
}

void CaptureDock::clearReplays()
{
    m_replays->clear();
}

void CaptureDock::setFirstDifference(qint64 launch, const QString &element)
{
    m_replays->setFirstDifference(launch, element);
}

void CaptureDock::addReplay(const QString &device, const QString &time, const QString &verdict, bool ok)
{
    m_replays->add(device, time, verdict, ok);
}

void CaptureDock::showLaunchProblem(const QString &text)
{
    m_launchProblem->setText(text);
    m_launchProblem->setVisible(!text.isEmpty());
}

QString CaptureDock::launchProblemText() const
{
    return m_launchProblem->isHidden() ? QString() : m_launchProblem->text();
}

bool CaptureDock::showTab(const QString &name)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->tabText(i).compare(name, Qt::CaseInsensitive) == 0) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

} // namespace clscope::ui
