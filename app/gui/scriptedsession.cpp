// The command line's session in the main window: open, build, run or sweep, benchmark or play a pool
// workload, then (scripted) take the picture and exit.
#include "scriptedsession.h"

#include "controllers/benchmarkrunner.h"
#include "controllers/matrixcontroller.h"
#include "controllers/runallcontroller.h"
#include "files/safewrite.h"
#include "widgets/argumentspanel.h"
#include "widgets/benchmarkdock.h"
#include "widgets/buildmatrixdialog.h"
#include "widgets/capturedock.h"
#include "widgets/editortabs.h"
#include "widgets/generatedcodedialog.h"
#include "widgets/pooldock.h"
#include "widgets/resultsviewer.h"
#include "widgets/runalldialog.h"
#include "widgets/structeditor.h"
#include "widgets/sweepdialog.h"
#include "widgets/timelinedock.h"
#include "widgets/timelinewidget.h"
#include "windows/buildcoordinator.h"
#include "windows/capturecoordinator.h"
#include "windows/checkcoordinator.h"
#include "windows/comparecoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

using namespace clscope;
using namespace clscope::ui;

namespace {

// OUT.png -> OUT-03.png: the index-th picture of a series.
QString seriesPath(const QString &path, int index)
{
    const qsizetype dot = path.lastIndexOf(u'.');
    const QString stem = dot > 0 ? path.left(dot) : path;
    const QString ext = dot > 0 ? path.mid(dot) : QStringLiteral(".png");
    return QStringLiteral("%1-%2%3").arg(stem).arg(index, 2, 10, QLatin1Char('0')).arg(ext);
}

} // namespace

ScriptedSession::ScriptedSession(ScriptOptions options, MainWindow &window, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_window(window)
{}

template<class T> T *ScriptedSession::part() const
{
    return m_window.findChild<T *>();
}

void ScriptedSession::fail(const QString &message)
{
    // The first failure sets the exit status: a scripted session still takes its picture, then exits 1.
    m_failed = true;
    std::fprintf(stderr, "clscope: %s\n", qPrintable(message));
}

std::optional<int> ScriptedSession::start()
{
    if (m_options.windowSize)
        m_window.resize(*m_options.windowSize);
    if (scripted()) {
        // Nobody is there to close a message box: errors go to stderr and the exit status.
        m_window.setModalErrors(false);
        connect(part<EditorTabs>(), &EditorTabs::errorOccurred, this, &ScriptedSession::fail);
    }
    if (!m_window.openFiles(m_options.files) && scripted())
        return 1;
    m_window.show();
    if (!scripted() && m_options.files.isEmpty())
        m_window.restoreSession();
    if (!scripted())
        m_window.offerRecovery();
    // Panels are raised after show so that tabified docks come to the front.
    for (const QString &dock : std::as_const(m_options.showDocks)) {
        if (!m_window.showDock(dock)) {
            fail(QStringLiteral("no panel named '%1' (panels: %2)")
                     .arg(dock, m_window.dockNames().join(QStringLiteral(", "))));
            return 2;
        }
    }

    auto *bench = part<BenchmarkDock>();
    if (m_options.baseline) {
        const QString error = bench->loadBaseline(*m_options.baseline);
        if (!error.isEmpty()) {
            fail(error);
            return 1;
        }
    }
    if (m_options.bench) {
        // The benchmark instead of a build: the picture is taken once it has finished.
        connect(bench->runner(), &BenchmarkRunner::finished, this, [this] { finish(); });
        connect(bench->runner(), &BenchmarkRunner::failed, this, [this](const QString &message) {
            fail(message);
            finish();
        });
        connect(&m_window, &MainWindow::ready, bench, [this, bench] {
            if (!bench->start(*m_options.bench, BenchEffort::Quick)) {
                fail(QStringLiteral("cannot start benchmark '%1'").arg(*m_options.bench));
                finish();
            }
        });
    }
    if (m_options.workload) {
        // The pool dock makes its pool when the current device is known; the workload starts on it then.
        auto *pool = part<PoolDock>();
        connect(&m_window, &MainWindow::ready, pool, [this, pool] {
            pool->setWorkload(*m_options.workload, m_options.rate, m_options.trace);
            pool->runWorkload();
        });
    }
    connect(&m_window, &MainWindow::ready, this, &ScriptedSession::onReady);
    if (scripted()) {
        // A driver that hangs must not hang a scripted screenshot forever.
        QTimer::singleShot(180000 + m_options.shots * m_options.everyMs, this, [this] {
            fail(QStringLiteral("timed out waiting for the work to finish"));
            QApplication::exit(1);
        });
    }
    return std::nullopt;
}

void ScriptedSession::onReady()
{
    if (m_options.bench)
        return; // finishes when the benchmark has
    const bool captureOpened =
        std::any_of(m_options.files.begin(), m_options.files.end(), [](const QString &f) {
            return f.endsWith(QStringLiteral(".clscope"), Qt::CaseInsensitive);
        });
    if (captureOpened) {
        // The picture once the capture has been read into the panels.
        auto show = [this] {
            const CaptureData &capture = part<CaptureCoordinator>()->session()->data();
            if (!capture.error.isEmpty()) // a capture the window cannot read fails the session (issue 27)
                fail(capture.error);      // "cannot read FILE: why"
            if (m_options.captureTab && !part<CaptureDock>()->showTab(*m_options.captureTab))
                fail(QStringLiteral("the Capture panel has no tab '%1'").arg(*m_options.captureTab));
            finish();
        };
        CaptureSession *session = part<CaptureCoordinator>()->session();
        if (session->loads() > 0)
            show();
        else
            connect(session, &CaptureSession::loaded, this, show, Qt::SingleShotConnection);
        return;
    }
    if (m_options.sweepResults) {
        // A sweep made elsewhere (clscope-cli sweep --json), in the sweep window: nothing to build or run.
        auto *dialog = part<SweepDialog>();
        dialog->show();
        QString error;
        if (!dialog->openResults(*m_options.sweepResults, &error))
            fail(QStringLiteral("cannot open %1: %2").arg(*m_options.sweepResults, error));
        finish();
        return;
    }
    if (!m_options.build) {
        compare();
        return;
    }
    auto *builds = part<BuildCoordinator>();
    if (m_options.buildOptions)
        builds->optionsBox()->setEditText(*m_options.buildOptions);
    connect(builds, &BuildCoordinator::buildFinished, this, &ScriptedSession::onBuilt);
    connect(builds, &BuildCoordinator::buildFailed, this, [this](const QString &message) {
        fail(message);
        finish();
    });
    if (!builds->buildCurrent()) {
        fail(QStringLiteral("cannot build: no kernel is open or no device was found"));
        finish();
    }
}

void ScriptedSession::onBuilt(const BuildResult &result)
{
    if (!result.success()) {
        QString first = QStringLiteral("see the build log");
        for (const Diagnostic &d : result.diagnostics()) {
            if (d.severity == Severity::Error) {
                first = QStringLiteral("line %1: %2").arg(d.line).arg(QString::fromStdString(d.message));
                break;
            }
        }
        fail(QStringLiteral("the build failed (%1)").arg(first));
    }
    if (!result.success()) {
        finish();
        return;
    }
    if (m_options.sweep && !m_options.runKernel) {
        startSweep(); // the launch the source's clscope-run line put in the panel
        return;
    }
    if (!m_options.runKernel) {
        compare();
        return;
    }
    // The run the command line describes, through the arguments panel as a user would fill it.
    auto *panel = part<ArgumentsPanel>();
    QString error;
    bool ok = panel->setCurrentKernel(*m_options.runKernel);
    if (!ok)
        error = QStringLiteral("no kernel '%1' in the build").arg(*m_options.runKernel);
    for (qsizetype i = 0; ok && i < m_options.args.size(); ++i)
        ok = panel->applySpec(m_options.args[i], &error);
    if (!ok) {
        fail(error);
        finish();
        return;
    }
    panel->setRange(m_options.global, m_options.local);
    for (const QString &name : std::as_const(m_options.prints))
        panel->setReadBack(name, true);
    panel->setRepeat(m_options.repeat);
    if (m_options.sweep) {
        startSweep();
        return;
    }
    auto *runs = part<RunCoordinator>();
    auto *checks = part<CheckCoordinator>();
    connect(runs, &RunCoordinator::runFinished, this, &ScriptedSession::onRunFinished);
    connect(runs, &RunCoordinator::runFailed, this, [this](const QString &message) {
        fail(message);
        finish();
    });
    connect(checks, &CheckCoordinator::checkFinished, this, [this] { finish(); });
    connect(checks, &CheckCoordinator::checkFailed, this, [this](const QString &message) {
        fail(message);
        finish();
    });
    // Either reports its own failure through the signals above.
    if (m_options.memoryCheck)
        checks->checkCurrent();
    else
        runs->runCurrent();
}

void ScriptedSession::startSweep()
{
    auto *dialog = part<SweepDialog>();
    if (m_options.sweep->compare(QStringLiteral("auto"), Qt::CaseInsensitive) != 0)
        dialog->candidatesField()->setText(*m_options.sweep);
    connect(dialog, &SweepDialog::sweepFinished, this, [this] { finish(); });
    connect(dialog, &SweepDialog::sweepFailed, this, [this](const QString &message) {
        fail(message);
        finish();
    });
    connect(part<RunCoordinator>(), &RunCoordinator::sweepRefused, this, [this](const QString &why) {
        fail(QStringLiteral("not swept: %1").arg(why));
        finish();
    });
    m_window.findChild<QAction *>(QStringLiteral("sweepAction"))->trigger();
}

void ScriptedSession::onRunFinished()
{
    if (!m_options.prints.isEmpty())
        part<ResultsViewer>()->selectBuffer(m_options.prints.front());
    if (m_options.timelineView) {
        TimelineWidget *timeline = part<TimelineDock>()->timeline();
        timeline->setView(m_options.timelineView->first * 1e3, m_options.timelineView->second * 1e3);
    }
    compare();
}

void ScriptedSession::compare()
{
    if (m_options.editStruct) {
        // The field editor over the window, as the row's {…} button opens it (not modal: the session goes
        // on).
        StructEditor *editor = part<ArgumentsPanel>()->structEditor(*m_options.editStruct);
        if (!editor) {
            fail(QStringLiteral("--edit-struct: %1 is no struct argument of the kernel")
                     .arg(*m_options.editStruct));
        } else {
            editor->setAttribute(Qt::WA_DeleteOnClose);
            editor->show();
        }
    }
    auto *compare = part<CompareCoordinator>();
    if (m_options.matrix) {
        BuildMatrixDialog *dialog = compare->matrixDialog();
        connect(compare->matrix(), &MatrixController::finished, this, &ScriptedSession::afterMatrix,
                Qt::SingleShotConnection);
        compare->showMatrix(*m_options.matrix, true);
        if (!compare->matrix()->isBusy()) {
            fail(QStringLiteral("the build matrix did not start: %1")
                     .arg(dialog->findChild<QLabel *>(QStringLiteral("matrixStatus"))->text()));
            finish();
        }
        return;
    }
    if (m_options.showCode) {
        GeneratedCodeDialog *dialog = compare->codeDialog();
        connect(dialog, &GeneratedCodeDialog::shown, this, &ScriptedSession::finish,
                Qt::SingleShotConnection);
        if (!compare->showCode()) {
            fail(QStringLiteral("no generated code to show (see the status bar)"));
            finish();
        }
        return;
    }
    if (m_options.runAll) {
        connect(compare->runAll(), &RunAllController::finished, this, &ScriptedSession::finish,
                Qt::SingleShotConnection);
        connect(compare, &CompareCoordinator::runAllRefused, this, [this](const QString &why) {
            fail(QStringLiteral("not run on all devices: %1").arg(why));
            finish();
        });
        compare->runOnAllDevices();
        return;
    }
    finish();
}

void ScriptedSession::afterMatrix()
{
    auto *compare = part<CompareCoordinator>();
    BuildMatrixDialog *dialog = compare->matrixDialog();
    if (m_options.timeIt) {
        m_options.timeIt = false; // once
        connect(compare->matrix(), &MatrixController::timingFinished, this, &ScriptedSession::afterMatrix,
                Qt::SingleShotConnection);
        dialog->timeButton()->click();
        if (!compare->matrix()->isBusy()) {
            fail(QStringLiteral("cannot time the matrix: %1")
                     .arg(dialog->findChild<QLabel *>(QStringLiteral("matrixStatus"))->text()));
            finish();
        }
        return;
    }
    QTableWidget *table = dialog->table();
    if (m_options.codeDiff && table->rowCount() >= 2) {
        table->clearSelection();
        table->setRangeSelected(QTableWidgetSelectionRange(0, 0, 1, 0), true);
        GeneratedCodeDialog *code = compare->codeDialog();
        connect(code, &GeneratedCodeDialog::shown, this, &ScriptedSession::finish, Qt::SingleShotConnection);
        dialog->findChild<QPushButton *>(QStringLiteral("matrixDiffCode"))->click();
        if (code->isSettled() && code->isVisible())
            finish();
        return;
    }
    if (table->rowCount() > 0 && table->columnCount() > 0)
        table->setCurrentCell(0, 0); // its log below
    finish();
}

QString ScriptedSession::savePicture(const QString &path)
{
    // A sweep's picture is of its window alone: the chart and the table are what it is about.
    if (auto *sweep = m_options.sweep || m_options.sweepResults ? part<SweepDialog>() : nullptr;
        sweep && sweep->isVisible()) {
        if (const QString error = writeImageSafely(path, sweep->grab().toImage()); !error.isEmpty())
            return QStringLiteral("Cannot write %1: %2").arg(path, error);
        return {};
    }
    QList<QWidget *> dialogs;
    for (QWidget *w : {static_cast<QWidget *>(m_window.findChild<RunAllDialog *>()),
                       static_cast<QWidget *>(m_window.findChild<BuildMatrixDialog *>()),
                       static_cast<QWidget *>(m_window.findChild<GeneratedCodeDialog *>()),
                       static_cast<QWidget *>(m_window.findChild<StructEditor *>())}) {
        if (w && w->isVisible())
            dialogs << w;
    }
    if (dialogs.isEmpty())
        return m_window.saveScreenshot(path);
    // No window manager draws the dialogs' frames here: each gets a border and a title strip of its own.
    QPixmap picture = m_window.grab();
    QPainter painter(&picture);
    for (QWidget *dialog : std::as_const(dialogs)) {
        const QPixmap shot = dialog->grab();
        const QPoint at = dialog->mapToGlobal(QPoint(0, 0)) - m_window.mapToGlobal(QPoint(0, 0));
        const int titleHeight = dialog->fontMetrics().height() + 10;
        const QRect title(at.x(), at.y() - titleHeight, shot.width(), titleHeight);
        painter.fillRect(title.adjusted(-1, -1, 1, 0), QColor(0x3c, 0x4a, 0x5e));
        painter.setPen(Qt::white);
        painter.drawText(title.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignLeft,
                         dialog->windowTitle());
        painter.drawPixmap(at, shot);
        painter.setPen(QColor(0x3c, 0x4a, 0x5e));
        painter.drawRect(QRect(at, shot.size()).adjusted(-1, -1, 0, 0));
    }
    painter.end();
    if (const QString error = writeImageSafely(path, picture.toImage()); !error.isEmpty())
        return QStringLiteral("Cannot write %1: %2").arg(path, error);
    return {};
}

void ScriptedSession::finish()
{
    if (!scripted())
        return;
    for (const QString &dock : std::as_const(m_options.showDocks))
        m_window.showDock(dock);
    // One picture after pending layout requests (status bar, tree columns) have had a moment, or a series
    // --screenshot-every apart; the app exits after the last one or at the first error.
    const QString path = *m_options.screenshot;
    const int shots = m_options.shots;
    auto *timer = new QTimer(this);
    auto taken = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, timer, taken, path, shots] {
        ++*taken;
        const QString error = savePicture(shots == 1 ? path : seriesPath(path, *taken));
        if (!error.isEmpty() || *taken == shots) {
            timer->stop();
            if (!error.isEmpty())
                fail(error);
            QApplication::exit(m_failed ? 1 : 0);
        }
    });
    timer->start(shots == 1 ? 300 : m_options.everyMs);
}
