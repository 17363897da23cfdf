// The memory check flow: panel -> worker (a CheckSession and its child) -> diagnostics.
#include "checkcoordinator.h"

#include "buildcoordinator.h"
#include "models/safewrite.h"
#include "models/workqueue.h"
#include "widgets/argumentspanel.h"
#include "widgets/kerneleditor.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStatusBar>

#include <filesystem>
#include <optional>

namespace clscope::ui {

namespace {
const QString kCheckTag = QStringLiteral("check");

struct Outcome
{
    std::optional<CheckChildResult> result;
    QString error; // the check could not run at all
};

// "... (vector_add, Global(8,0,0) Local(0,0,0) Group(1,0,0); 24 work-items)".
std::string describe(const CheckDiagnostic &d)
{
    std::string text = d.diagnostic.message;
    std::string where = d.kernel;
    if (!d.sites.empty() && !d.sites.front().entity.empty())
        where += (where.empty() ? "" : ", ") + d.sites.front().entity;
    if (d.occurrences > 1)
        where += (where.empty() ? "" : "; ") + std::to_string(d.occurrences) + " reports";
    if (!where.empty())
        text += " (" + where + ")";
    return text;
}

std::string firstLine(const std::string &text)
{
    const auto end = text.find('\n');
    return text.substr(0, end);
}
} // namespace

CheckOutcomeView viewOfCheck(const CheckChildResult &result)
{
    CheckOutcomeView view;
    for (const CheckDiagnostic &d : result.report.diagnostics) {
        Diagnostic shown = d.diagnostic;
        shown.message = describe(d);
        view.diagnostics.push_back(std::move(shown));
    }
    const auto errors = result.report.errorCount();
    if (result.exitCode == 0 || result.exitCode == 3) {
        if (errors == 0)
            view.summary = QCoreApplication::translate("CheckCoordinator", "Memory check (Oclgrind): clean");
        else if (errors == 1)
            view.summary =
                QCoreApplication::translate("CheckCoordinator", "Memory check (Oclgrind): 1 error");
        else
            view.summary =
                QCoreApplication::translate("CheckCoordinator", "Memory check (Oclgrind): %1 errors")
                    .arg(errors);
        return view;
    }
    // The run itself failed under Oclgrind: its stderr has the one line that says why.
    QString why = QString::fromStdString(firstLine(result.err)).trimmed();
    if (why.startsWith(QLatin1String("clscope-cli: ")))
        why = why.mid(13);
    if (why.isEmpty())
        why = result.signal
                  ? QCoreApplication::translate("CheckCoordinator", "the checked run ended by signal %1")
                        .arg(result.signal)
                  : QCoreApplication::translate("CheckCoordinator", "the checked run exited with %1")
                        .arg(result.exitCode);
    view.summary = QCoreApplication::translate("CheckCoordinator", "Memory check failed: %1").arg(why);
    return view;
}

CheckCoordinator::CheckCoordinator(WorkQueue *queue, ArgumentsPanel *panel, BuildCoordinator *builds,
                                   QStatusBar *statusBar, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
    , m_panel(panel)
    , m_builds(builds)
    , m_statusBar(statusBar)
    , m_action(new QAction(tr("Run with &memory check"), this))
    , m_cli(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("clscope-cli")))
{
    m_action->setObjectName(QStringLiteral("memoryCheckAction"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    m_action->setToolTip(
        tr("Run the kernel on Oclgrind with its checks on: out-of-bounds accesses, data races, "
           "uninitialised values and barrier divergence appear at their lines (Ctrl+F5)"));
    connect(m_action, &QAction::triggered, this, &CheckCoordinator::checkCurrent);
}

bool CheckCoordinator::checkCurrent()
{
    QString error;
    auto request = m_panel->makeRequest(&error);
    if (!request) {
        m_statusBar->showMessage(tr("Cannot check: %1").arg(error), 10000);
        emit checkFailed(error);
        return false;
    }
    // The text of the built editor (what the user sees), written into the session's folder; headers are
    // still found next to the user's file through -I.
    KernelEditor *editor = m_builds->builtEditor();
    const QString userPath = m_builds->builtPath();
    const std::string source = editor ? editor->text().toStdString() : std::string();
    if (!editor && userPath.isEmpty()) {
        m_statusBar->showMessage(tr("Cannot check: the built kernel's tab is closed"), 10000);
        emit checkFailed(tr("the built kernel's tab is closed"));
        return false;
    }
    // An unsaved buffer's reports name no file: they belong to its tab, not to the session's copy.
    const std::string shownName = userPath.toStdString();
    const std::string fileName =
        userPath.isEmpty() ? std::string("untitled.cl") : QFileInfo(userPath).fileName().toStdString();
    std::string options = request->build.options();
    const QString folder = userPath.isEmpty() ? QString() : QFileInfo(userPath).absolutePath();
    if (!folder.isEmpty() && !folder.contains(u' '))
        options += (options.empty() ? "-I " : " -I ") + folder.toStdString();

    if (m_cancel)
        m_cancel->store(true); // a newer check supersedes one still running
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_busy = true;
    m_action->setEnabled(true);
    m_statusBar->showMessage(tr("Checking %1 on Oclgrind (%2)…")
                                 .arg(QString::fromStdString(request->kernel), m_panel->rangeText()));

    std::vector<std::string> environment;
    for (const QString &entry : QProcessEnvironment::systemEnvironment().toStringList())
        environment.push_back(entry.toStdString());
    const std::string cli = m_cli.toStdString();
    m_queue->submit<Outcome>(
        kCheckTag,
        [request = std::move(*request), environment, source, shownName, fileName, options, cli,
         cancel = std::shared_ptr<const std::atomic<bool>>(m_cancel)]() -> Outcome {
            try {
                CheckSession session(environment);
                const std::filesystem::path file = session.directory() / fileName;
                if (const QString error = writeFileSafely(QString::fromStdString(file.string()),
                                                          QByteArray::fromStdString(source));
                    !error.isEmpty())
                    return {std::nullopt,
                            QStringLiteral("cannot write %1: %2").arg(QString::fromStdString(file), error)};
                CheckSources sources;
                sources.sourceFile = shownName;
                sources.texts[shownName] = source;
                return {session.run(cli, checkRunArguments(request, file.string(), options), sources, cancel),
                        {}};
            } catch (const std::exception &e) {
                return {std::nullopt, QString::fromStdString(e.what())};
            }
        },
        this,
        [this](Outcome outcome) {
            m_busy = false;
            if (!outcome.result) {
                m_statusBar->showMessage(tr("Memory check could not run: %1").arg(outcome.error));
                emit checkFailed(outcome.error);
                return;
            }
            m_last = viewOfCheck(*outcome.result);
            m_builds->showDiagnostics(m_last.diagnostics);
            m_statusBar->showMessage(m_last.summary);
            const int code = outcome.result->exitCode;
            if (code == 0 || code == 3)
                emit checkFinished(m_last.summary, int(outcome.result->report.errorCount()));
            else
                emit checkFailed(m_last.summary);
        });
    return true;
}

void CheckCoordinator::abandon()
{
    if (!m_busy)
        return;
    if (m_cancel)
        m_cancel->store(true);
    m_queue->cancel(kCheckTag);
    m_busy = false;
    m_statusBar->showMessage(tr("Memory check stopped"));
}

} // namespace clscope::ui
