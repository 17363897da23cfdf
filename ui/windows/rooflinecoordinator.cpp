// Capture -> child clscope-cli roofline --json -> document -> Roofline tab -> source with heat.
#include "rooflinecoordinator.h"

#include "capturecoordinator.h"
#include "checkcoordinator.h"
#include "controllers/devicemanager.h"
#include "controllers/workbench.h"
#include "display/stdstring.h"
#include "widgets/kerneleditor.h"
#include "widgets/rooflineview.h"

#include "clscope/check.h"
#include "clscope/lineprofile.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>

#include <stdexcept>

namespace clscope::ui {

namespace {
// A roofline document of a capture is kilobytes per kernel; more than this is not one.
constexpr qint64 kMaxRooflineBytes = 64 * 1024 * 1024;
// The QSettings key of the work-group budget of a count (--sample-groups).
constexpr const char *kSampleGroupsKey = "roofline/sampleGroups";

} // namespace

RooflineCoordinator::RooflineCoordinator(CaptureCoordinator *captures, RooflineView *captureView,
                                         Workbench *workbench, DeviceManager *devices,
                                         RooflineView *launchView, QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_captures(captures)
    , m_captureView(captureView)
    , m_workbench(workbench)
    , m_devices(devices)
    , m_launchView(launchView)
    , m_statusBar(statusBar)
    , m_action(new QAction(tr("Roofline and &line profile"), this))
    , m_cli(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("clscope-cli")))
{
    setObjectName(QStringLiteral("rooflineCoordinator"));
    m_action->setObjectName(QStringLiteral("rooflineAction"));
    m_action->setShortcut(QKeySequence(Qt::ALT | Qt::Key_F5));
    m_action->setToolTip(tr("Count the kernel's work line by line on Oclgrind, time it on the current device "
                            "and set it against the device's roofs (Alt+F5)"));
    connect(m_action, &QAction::triggered, this, &RooflineCoordinator::countLaunch);

    m_captureView->countButton()->setToolTip(
        tr("Replay one launch of each kernel on Oclgrind to count its flops and bytes, and set them over its "
           "captured device time against the roofs of the device it ran on (measured once and kept)"));
    m_captureView->clear(
        tr("Each kernel's percent of its roof: Count replays one launch of each kernel on "
           "the Oclgrind simulator (the capture needs its buffer contents: --contents all or "
           "--launch N) and sets the work over the captured device times."));
    m_launchView->countButton()->setText(tr("Roofline of the launch"));
    m_launchView->countButton()->setToolTip(m_action->toolTip());
    m_launchView->clear(tr("The workbench's launch against the current device's roofs: build a kernel, set "
                           "its launch in the Arguments panel, then Build > Roofline and line profile "
                           "(Alt+F5). Its lines' heat goes into the editor."));
    for (RooflineView *view : {m_captureView, m_launchView})
        connect(view->stopButton(), &QPushButton::clicked, this, &RooflineCoordinator::stop);
    // One work-group budget for both panels, kept between sessions.
    {
        const int kept =
            QSettings().value(QLatin1String(kSampleGroupsKey), int(kDefaultSampleGroups)).toInt();
        for (RooflineView *view : {m_captureView, m_launchView}) {
            view->sampleGroupsBox()->setValue(kept);
            connect(view->sampleGroupsBox(), &QSpinBox::valueChanged, this, [this](int n) {
                for (RooflineView *other : {m_captureView, m_launchView})
                    other->sampleGroupsBox()->setValue(n);
                QSettings().setValue(QLatin1String(kSampleGroupsKey), n);
            });
        }
    }
    connect(m_captureView->countButton(), &QPushButton::clicked, this, &RooflineCoordinator::countCapture);
    connect(m_launchView->countButton(), &QPushButton::clicked, this, &RooflineCoordinator::countLaunch);
    connect(m_captureView, &RooflineView::sourceRequested, this,
            [this](int kernel) { openCapturedSource(kernel); });
    connect(m_captureView, &RooflineView::lineRequested, this, [this](int kernel, int line) {
        if (KernelEditor *editor = openCapturedSource(kernel); editor && line > 0)
            editor->goTo(line, 1);
    });
    connect(m_launchView, &RooflineView::sourceRequested, this, [this] { showLaunchHeat(); });
    connect(m_launchView, &RooflineView::lineRequested, this, [this](int, int line) {
        if (KernelEditor *editor = showLaunchHeat(); editor && line > 0)
            editor->goTo(line, 1);
    });
    // Another capture shown: the document (and a count under way) was of the one before.
    connect(m_captures->session(), &CaptureSession::loaded, this, [this] {
        if (m_countedPath.isEmpty() || m_captures->capturePath() == m_countedPath)
            return;
        if (isBusy() && m_target == Target::Capture)
            stop();
        m_countedPath.clear();
        m_captureView->clear(tr("A new capture: Count sets its kernels against their roofs."));
        m_captureView->setBusy(false, QString());
    });
}

RooflineCoordinator::~RooflineCoordinator() = default;

bool RooflineCoordinator::refuse(RooflineView *view, const QString &why)
{
    view->setStatus(tr("Cannot count: %1").arg(why));
    m_statusBar->showMessage(tr("Roofline: cannot count: %1").arg(why), 10000);
    emit countFinished(why);
    return false;
}

bool RooflineCoordinator::countCapture()
{
    const QString path = m_captures->capturePath();
    if (path.isEmpty() || !m_captures->session()->data().error.isEmpty())
        return refuse(m_captureView, tr("open or record a capture first"));
    if (m_captures->isProfiling())
        return refuse(m_captureView, tr("the program is still being captured; count when it has ended"));
    if (isBusy())
        return refuse(m_captureView, tr("a count is already under way"));
    m_countedPath = path;
    return start(Target::Capture, {QStringLiteral("roofline"), path, QStringLiteral("--json")},
                 tr("Counting each kernel of %1 on Oclgrind…").arg(QDir::toNativeSeparators(path)));
}

bool RooflineCoordinator::countLaunch()
{
    if (isBusy())
        return refuse(m_launchView, tr("a count is already under way"));
    QString error;
    const std::optional<RunRequest> request = m_workbench->launchView()->makeRequest(&error);
    if (!request)
        return refuse(m_launchView, error);
    const WorkbenchProgram &built = m_workbench->program();
    if (!built.more.isEmpty())
        return refuse(m_launchView,
                      tr("the roofline counts a program of one tab; turn off Build > Build open "
                         "tabs as one program and build again"));
    KernelEditor *editor = qobject_cast<KernelEditor *>(built.editor.data());
    if (!editor)
        return refuse(m_launchView, tr("the built kernel's tab is closed; build it again"));
    const DeviceKey device = m_devices->currentDevice();
    if (!device.isValid())
        return refuse(m_launchView, tr("no device is chosen"));
    // The text the user sees, in a private folder; headers are still found beside the user's file (-I).
    QString why;
    std::optional<WorkbenchSource> source = writeWorkbenchSource(*editor, built.path, &why);
    if (!source)
        return refuse(m_launchView, why);
    std::string options = request->build.userOptions();
    if (!source->includeOption.empty())
        options += (options.empty() ? "" : " ") + source->includeOption;
    // The child's loader may list the platforms in another order than this process does (the window prepares
    // its own): the platform by its name, the device by its index in it, as drivers keep their order.
    std::string spec = std::to_string(device.platform) + ":" + std::to_string(device.device);
    if (const SnapshotPtr snapshot = m_devices->snapshot()) {
        for (const auto &p : snapshot->platforms) {
            const std::string name = p.name();
            if (p.index == device.platform && !name.empty() &&
                name.find_first_of(":;,") == std::string::npos &&
                name.find_first_not_of("0123456789 ") != std::string::npos)
                spec = name + ":" + std::to_string(device.device);
        }
    }
    QStringList args;
    for (const std::string &a : rooflineArguments(*request, source->file.toStdString(), options, spec))
        args << qs(a);
    m_folder = std::move(source->folder);
    m_countedEditor = editor;
    m_countedText = editor->text();
    return start(Target::Launch, args,
                 tr("Counting %1 on Oclgrind, then timing it on %2…")
                     .arg(qs(request->kernel), m_devices->currentDeviceName()));
}

bool RooflineCoordinator::start(Target target, const QStringList &args, const QString &what)
{
    m_target = target;
    m_err.clear();
    m_stopping = false;
    m_lastArgs = args +
                 QStringList{QStringLiteral("--sample-groups"),
                             QString::number(viewOf(target)->sampleGroupsBox()->value())} +
                 m_extra;
    auto *process = new QProcess(this);
    m_process = process;
    process->setStandardInputFile(QProcess::nullDevice());
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        m_err += process->readAllStandardError();
        if (m_err.size() > kMaxRooflineBytes)
            m_err = m_err.right(kMaxRooflineBytes / 2);
        const QString line = childStatusLine(m_err);
        if (!line.isEmpty() && m_process == process)
            viewOf(m_target)->setStatus(tr("Counting: %1").arg(line));
    });
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        process->deleteLater();
        if (m_process == process)
            onFinished(exitCode, status);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || m_process != process)
            return; // the others end in finished()
        process->deleteLater();
        m_process = nullptr;
        finish(tr("cannot start %1: %2").arg(m_cli, process->errorString()));
    });
    viewOf(target)->setBusy(true, what);
    m_statusBar->showMessage(tr("Roofline: %1").arg(what));
    process->start(m_cli, m_lastArgs);
    return true;
}

void RooflineCoordinator::onFinished(int exitCode, QProcess::ExitStatus status)
{
    QProcess *process = m_process;
    m_process = nullptr;
    m_err += process->readAllStandardError();
    if (m_stopping) {
        finish(tr("stopped"));
        return;
    }
    const QByteArray out = process->readAllStandardOutput();
    if (status == QProcess::CrashExit) {
        finish(tr("clscope-cli roofline ended by a signal"));
        return;
    }
    // Exit 1 with a document: no kernel could be counted, each says why in its row.
    QJsonParseError parseError{};
    const QJsonDocument json =
        out.size() <= kMaxRooflineBytes ? QJsonDocument::fromJson(out, &parseError) : QJsonDocument();
    if (!json.isObject()) {
        const QString why = childStatusLine(m_err);
        finish(why.isEmpty() ? tr("clscope-cli roofline exited with %1").arg(exitCode) : why);
        return;
    }
    try {
        viewOf(m_target)->setDocument(rooflineFromJson(json.object()));
    } catch (const std::exception &e) {
        finish(tr("its document is not one: %1").arg(qs(e.what())));
        return;
    }
    finish(QString());
}

void RooflineCoordinator::finish(const QString &error)
{
    RooflineView *view = viewOf(m_target);
    if (error.isEmpty()) {
        int counted = 0;
        for (const RooflineKernel &k : view->document().kernels)
            counted += k.counted ? 1 : 0;
        const QString done =
            m_target == Target::Capture
                ? tr("%1 of %2 kernels counted; double-click one for its source with the heat of its lines")
                      .arg(counted)
                      .arg(view->document().kernels.size())
                : tr("counted on Oclgrind, timed on %1; the editor's gutter shows each line's share of the "
                     "instructions")
                      .arg(view->document().kernels.empty() ? QString()
                                                            : view->document().kernels.front().device);
        view->setBusy(false, done);
        m_statusBar->showMessage(tr("Roofline: %1").arg(done), 10000);
        if (m_target == Target::Launch)
            showLaunchHeat();
    } else {
        view->setBusy(false, tr("Not counted: %1").arg(error));
        m_statusBar->showMessage(tr("Roofline not counted: %1").arg(error), 10000);
    }
    emit countFinished(error);
}

void RooflineCoordinator::stop()
{
    if (!m_process || m_stopping)
        return;
    m_stopping = true;
    terminateChild(m_process, this);
}

KernelEditor *RooflineCoordinator::openCapturedSource(int kernel)
{
    const RooflineDocument &doc = m_captureView->document();
    if (kernel < 0 || std::size_t(kernel) >= doc.kernels.size())
        return nullptr;
    const RooflineKernel &k = doc.kernels[std::size_t(kernel)];
    if (m_countedPath != m_captures->capturePath()) {
        m_captureView->setStatus(tr("The roofline is of another capture; count again"));
        return nullptr;
    }
    const std::vector<CapturedProgram> &programs = m_captures->session()->data().programs;
    for (std::size_t i = 0; i < programs.size(); ++i) {
        if (programs[i].id != k.program)
            continue;
        KernelEditor *editor = m_captures->openProgram(int(i), false);
        if (!editor) {
            m_captureView->setStatus(
                tr("%1's program has no sources to show (built from a binary)").arg(k.kernel));
            return nullptr;
        }
        if (k.hasLines)
            editor->setLineHeat(k.lines.ofMain());
        m_statusBar->showMessage(
            tr("%1: the gutter shows each line's share of its instructions (click it for "
               "the counts)")
                .arg(k.kernel),
            10000);
        return editor;
    }
    m_captureView->setStatus(tr("%1's program is not in the capture shown").arg(k.kernel));
    return nullptr;
}

KernelEditor *RooflineCoordinator::showLaunchHeat()
{
    const RooflineDocument &doc = m_launchView->document();
    if (doc.kernels.empty() || !doc.kernels.front().hasLines)
        return nullptr;
    if (!m_countedEditor || m_countedEditor->text() != m_countedText) {
        m_launchView->setStatus(tr("The source changed since it was counted: count again for its heat"));
        return nullptr;
    }
    m_countedEditor->setLineHeat(doc.kernels.front().lines.ofMain());
    m_countedEditor->setFocus();
    return m_countedEditor;
}

} // namespace clscope::ui
