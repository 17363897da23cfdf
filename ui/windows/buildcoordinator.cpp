// Build flow between the editor and the build panels.
#include "buildcoordinator.h"

#include "builddiagnostics.h"
#include "buildoptionsfield.h"

#include "controllers/buildcontroller.h"
#include "widgets/buildlogpanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include "clscope/programsource.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QLineEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>

#include <algorithm>
#include <utility>

namespace clscope::ui {

namespace {
const QString kAllTabsKey = QStringLiteral("build/allTabs");
const QString kLinkKey = QStringLiteral("build/linkTabs");

// The tabs that join a program built from every open tab: OpenCL C sources one can edit. Headers reach the
// program through #include (a second copy would define everything twice), and read-only views of a
// captured program are someone else's.
bool isProgramSource(const QString &title, const KernelEditor *editor)
{
    return editor && !editor->isReadOnly() && title.endsWith(QStringLiteral(".cl"), Qt::CaseInsensitive);
}
} // namespace

BuildCoordinator::BuildCoordinator(std::shared_ptr<DeviceWorkers> workers, Workbench *workbench,
                                   DeviceManager *devices, EditorTabs *editors, BuildLogPanel *log,
                                   DiagnosticsPanel *diagnostics, QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_workbench(workbench)
    , m_devices(devices)
    , m_editors(editors)
    , m_log(log)
    , m_statusBar(statusBar)
    , m_controller(new BuildController(std::move(workers), this))
    , m_buildAction(new QAction(tr("&Build"), this))
    , m_buildAllAction(new QAction(tr("Build for &all devices of the platform"), this))
    , m_allTabsAction(new QAction(tr("Build open &tabs as one program"), this))
    , m_linkAction(new QAction(tr("Compile separately and &link (clLinkProgram)"), this))
    , m_busy(new QProgressBar)
    , m_cancel(new QToolButton)
{
    setObjectName(QStringLiteral("buildCoordinator"));
    m_buildAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_buildAction->setToolTip(tr("Build the current kernel on the current device (Ctrl+B)"));
    m_buildAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    connect(m_buildAction, &QAction::triggered, this, [this] { buildCurrent(false); });
    connect(m_buildAllAction, &QAction::triggered, this, [this] { buildCurrent(true); });

    m_allTabsAction->setObjectName(QStringLiteral("buildAllTabsAction"));
    m_allTabsAction->setCheckable(true);
    m_allTabsAction->setStatusTip(
        tr("Build and Run take the current tab and then every other open .cl tab, in tab order, as one "
           "program"));
    m_linkAction->setObjectName(QStringLiteral("linkTabsAction"));
    m_linkAction->setCheckable(true);
    m_linkAction->setStatusTip(tr("Compile each tab on its own (clCompileProgram) and link the objects "
                                  "(clLinkProgram); such builds are not cached"));
    // Remembered as the options history is, so that a session of several tabs builds the same after a
    // restart.
    const QSettings settings;
    m_allTabsAction->setChecked(settings.value(kAllTabsKey, false).toBool());
    m_linkAction->setChecked(settings.value(kLinkKey, false).toBool());
    m_linkAction->setEnabled(m_allTabsAction->isChecked());
    connect(m_allTabsAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(kAllTabsKey, on);
        m_linkAction->setEnabled(on);
    });
    connect(m_linkAction, &QAction::toggled, this, [](bool on) { QSettings().setValue(kLinkKey, on); });

    m_options = new BuildOptionsField(
        m_editors, [this] { return programEditor(); }, this);
    connect(m_options->box()->lineEdit(), &QLineEdit::returnPressed, m_buildAction, &QAction::trigger);

    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setVisible(false);
    m_statusBar->addPermanentWidget(m_busy);
    m_cancel->setObjectName(QStringLiteral("cancelBuild"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Give up this build: its result is dropped when the driver is done"));
    m_cancel->setVisible(false);
    m_statusBar->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &BuildCoordinator::cancelBuild);

    connect(m_controller, &BuildController::buildFinished, this, &BuildCoordinator::onFinished);
    connect(m_controller, &BuildController::buildFailed, this, &BuildCoordinator::onFailed);
    connect(m_controller, &BuildController::buildCancelled, this, &BuildCoordinator::onCancelled);
    m_shown = new BuildDiagnostics(m_editors, diagnostics, this);
}

QComboBox *BuildCoordinator::optionsBox() const
{
    return m_options->box();
}

KernelEditor *BuildCoordinator::programEditor() const
{
    KernelEditor *current = m_editors->currentEditor();
    if (!current || current == m_built.editor || !m_built.editor)
        return current;
    // A header of the latest build builds (and runs) the program that includes it.
    const QString path = m_editors->currentPath();
    for (const QString &header : m_builtHeaders) {
        if (sameFile(path, header))
            return m_built.editor;
    }
    return current;
}

QStringList BuildCoordinator::headerTimes(const QStringList &headers) const
{
    QStringList out;
    for (const QString &h : headers)
        out << h + u'@' + QString::number(QFileInfo(h).lastModified().toMSecsSinceEpoch());
    return out;
}

BuildStamp BuildCoordinator::currentStamp() const
{
    BuildStamp stamp;
    stamp.editor = programEditor();
    if (!stamp.editor)
        return stamp;
    const int index = m_editors->indexOf(stamp.editor);
    stamp.path = m_editors->path(index);
    stamp.title = m_editors->title(index);
    stamp.text = stamp.editor->text();
    stamp.options = m_editors->buildOptions(index).trimmed();
    const DeviceSnapshot *device = m_devices->currentDeviceSnapshot();
    stamp.device = device ? device->id : nullptr;
    // The latest build's headers, as far as it read them: an edited header makes the build stale.
    if (stamp.editor == m_built.editor)
        stamp.headerTimes = headerTimes(m_builtHeaders);
    stamp.programKind = m_editors->programKind(index);
    stamp.programFile = m_editors->programFile(index);
    if (!stamp.programKind.isEmpty()) {
        // A binary or SPIR-V file is built as it is on disk: a newer one makes the build stale.
        if (parseProgramKind(stamp.programKind.toStdString()) != ProgramKind::BuiltIns)
            stamp.headerTimes = headerTimes({stamp.programFile});
        return stamp; // one program file is the whole program
    }
    if (!m_allTabsAction->isChecked())
        return stamp;
    // The other tabs, saved or not, as the editors show them. An unsaved tab is named by its title (made
    // unique), so that its diagnostics find it again.
    QStringList names{stamp.path};
    for (int i = 0; i < m_editors->count(); ++i) {
        KernelEditor *e = m_editors->editor(i);
        const QString title = m_editors->title(i);
        if (e == stamp.editor || !isProgramSource(title, e))
            continue;
        QString name = m_editors->path(i);
        if (name.isEmpty()) {
            name = title;
            for (int n = 2; names.contains(name); ++n)
                name = QStringLiteral("%1 (%2)").arg(title).arg(n);
        }
        names << name;
        stamp.more.push_back({e, name, e->text()});
    }
    stamp.link = m_linkAction->isChecked();
    return stamp;
}

bool BuildCoordinator::buildCurrent(bool allDevicesOfPlatform)
{
    // A build asked for by hand supersedes a run that waited for the previous one.
    m_then = nullptr;
    m_refused = nullptr;
    return startBuild(currentStamp(), allDevicesOfPlatform);
}

bool BuildCoordinator::buildThen(std::function<void()> then, std::function<void(const QString &)> refused)
{
    const BuildStamp now = currentStamp();
    if (!now.editor) {
        refused(tr("nothing to run: open a sample or a kernel first (File menu)"));
        return false;
    }
    if (!now.device) {
        refused(tr("no device: choose one in the Devices panel"));
        return false;
    }
    if (m_busy->isVisible() && m_pending.sameInput(now)) {
        m_then = std::move(then); // that very build is under way
        m_refused = std::move(refused);
        return true;
    }
    if (m_built.editor && m_built.sameInput(now)) {
        if (m_builtOk) {
            then();
            return true;
        }
        refused(
            tr("the build of %1 failed; fix the errors in Diagnostics and press F5 again").arg(now.title));
        return false;
    }
    m_then = std::move(then);
    m_refused = std::move(refused);
    if (!startBuild(now, false)) {
        m_then = nullptr;
        if (auto r = std::exchange(m_refused, nullptr))
            r(tr("the build could not start"));
        return false;
    }
    return true;
}

bool BuildCoordinator::startBuild(const BuildStamp &stamp, bool allDevicesOfPlatform)
{
    KernelEditor *editor = stamp.editor;
    if (!editor) {
        m_statusBar->showMessage(tr("Nothing to build: open or write a kernel first"), 5000);
        return false;
    }
    const DeviceSnapshot *device = m_devices->currentDeviceSnapshot();
    if (!device) {
        m_statusBar->showMessage(tr("No device to build on: choose one in the Devices panel"), 5000);
        return false;
    }
    BuildJob job;
    job.source = stamp.text;
    job.sourcePath = stamp.path;
    job.options = stamp.options;
    job.moreSources = stamp.moreSources();
    job.link = stamp.link;
    job.programKind = stamp.programKind;
    job.programFile = stamp.programFile;
    if (!job.programKind.isEmpty()) {
        job.source.clear(); // the tab only describes the program
        job.sourcePath.clear();
    }
    if (allDevicesOfPlatform) {
        const auto &platform =
            m_devices->snapshot()->platforms[static_cast<size_t>(m_devices->currentDevice().platform)];
        for (const DeviceSnapshot &d : platform.devices) {
            job.devices.push_back(d.id);
            job.deviceNames << QString::fromStdString(d.name());
        }
    } else {
        job.devices.push_back(device->id);
        job.deviceNames << QString::fromStdString(device->name());
    }
    m_options->remember(job.options);
    m_pending = stamp;
    setBusy(true);
    const QString what = stamp.more.isEmpty()
                             ? stamp.title
                             : tr("%1 and %n other tab(s)", nullptr, int(stamp.more.size())).arg(stamp.title);
    m_statusBar->showMessage(tr("Building %1 on %2…").arg(what, job.deviceNames.join(QStringLiteral(", "))));
    m_controller->build(job);
    return true;
}

void BuildCoordinator::cancelBuild()
{
    m_controller->cancel();
}

void BuildCoordinator::onCancelled()
{
    setBusy(false);
    m_pending = {};
    m_statusBar->showMessage(tr("Build cancelled"));
    m_then = nullptr;
    if (auto refused = std::exchange(m_refused, nullptr))
        refused(tr("the build was cancelled"));
}

void BuildCoordinator::setBusy(bool busy)
{
    m_busy->setVisible(busy);
    m_cancel->setVisible(busy);
    m_buildAction->setEnabled(true); // a new build supersedes the running one; the editor stays usable
}

void BuildCoordinator::onFinished(const BuildResult &result)
{
    setBusy(false);
    m_builtHeaders.clear();
    for (const std::string &h : result.headers())
        m_builtHeaders << QString::fromStdString(h);
    m_built = m_pending;
    // The headers as the build read them; a program file's own time as the build started (its stamp's).
    if (m_built.programKind.isEmpty())
        m_built.headerTimes = headerTimes(m_builtHeaders);
    m_builtOk = result.success();
    // The context first: the Arguments panel takes a good build's kernels before anyone hears of it.
    WorkbenchProgram program = m_built.program();
    program.result = result;
    // The build's own device, for the limits shown; the current one when a refresh lost it.
    const DeviceSnapshot *device = m_devices->deviceSnapshot(m_built.device);
    if (!device)
        device = m_devices->currentDeviceSnapshot();
    if (device)
        program.deviceSnapshot = *device;
    m_workbench->setProgram(program);
    m_options->showProgramOptions(); // a header of this build now stands for the program that includes it
    m_log->showResult(result);
    m_shown->setBuild(m_built);
    m_shown->show(result.diagnostics());
    m_statusBar->showMessage(buildSummary(result));
    emit buildFinished(result);
    auto then = std::exchange(m_then, nullptr);
    auto refused = std::exchange(m_refused, nullptr);
    if (result.success() && then)
        then();
    else if (!result.success() && refused)
        refused(tr("the build of %1 failed; fix the errors in Diagnostics and press F5 again")
                    .arg(m_built.title));
}

KernelEditor *BuildCoordinator::builtEditor() const
{
    return m_built.editor;
}

void BuildCoordinator::showRunDiagnostics(const std::vector<Diagnostic> &reports)
{
    std::vector<Diagnostic> all = reports;
    for (const Diagnostic &d : m_controller->lastResult().diagnostics()) {
        if (d.severity != Severity::Error && std::find(all.begin(), all.end(), d) == all.end())
            all.push_back(d);
    }
    m_shown->show(all);
}

void BuildCoordinator::onFailed(const QString &message)
{
    setBusy(false);
    m_log->showFailure(message);
    m_statusBar->showMessage(tr("Build could not start: %1").arg(message));
    m_then = nullptr;
    if (auto refused = std::exchange(m_refused, nullptr))
        refused(tr("the build could not start: %1").arg(message));
    emit buildFailed(message);
}

} // namespace clscope::ui
