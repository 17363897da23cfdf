// The workbench's launch or a captured one -> the arguments of the child that debugs it.
#include "debuglaunch.h"

#include "capturecoordinator.h"
#include "checkcoordinator.h"
#include "controllers/workbench.h"
#include "display/stdstring.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include "clscope/debug.h"

#include <QFileInfo>

namespace clscope::ui {

std::optional<DebugLaunch> DebugLaunch::fromWorkbench(const Workbench &workbench, const EditorTabs &editors,
                                                      bool unoptimised, QString *why)
{
    std::optional<RunRequest> request = workbench.launchView()->makeRequest(why);
    if (!request)
        return std::nullopt;
    const WorkbenchProgram &built = workbench.program();
    if (!built.more.isEmpty()) {
        *why = tr("the debugger runs a program of one tab; turn off Build > Build open tabs as one "
                  "program and build again");
        return std::nullopt;
    }
    KernelEditor *editor = qobject_cast<KernelEditor *>(built.editor.data());
    if (!editor) {
        *why = tr("the built kernel's tab is closed; build it again");
        return std::nullopt;
    }
    const QString userPath = built.path;
    std::optional<WorkbenchSource> source = writeWorkbenchSource(*editor, userPath, why);
    if (!source)
        return std::nullopt;
    const QString file = source->file;
    std::string options = withoutDebugOption(request->build.userOptions());
    if (unoptimised)
        options += options.empty() ? "-cl-opt-disable" : " -cl-opt-disable";
    if (!source->includeOption.empty())
        options += (options.empty() ? "" : " ") + source->includeOption;
    request->repeat = 1;
    request->readBack.clear();
    request->readBackAll = false;
    DebugLaunch launch;
    for (const std::string &a : checkRunArguments(*request, file.toStdString(), options)) {
        if (a != "--check" && a != "--json")
            launch.args << qs(a);
    }
    launch.folder = std::move(source->folder);
    // Stops name the source as its tab does.
    QString shown = QFileInfo(userPath).fileName();
    for (int i = 0; shown.isEmpty() && i < editors.count(); ++i) {
        if (editors.editor(i) == editor)
            shown = editors.tabText(i).remove(u'&').remove(u'*').trimmed();
    }
    launch.kernel = qs(request->kernel);
    launch.editor = editor;
    launch.mainFile = shown.isEmpty() ? QFileInfo(file).fileName() : shown;
    launch.what = tr("Running %1 on Oclgrind to its first breakpoint…").arg(launch.kernel);
    return launch;
}

std::optional<DebugLaunch> DebugLaunch::fromCapture(CaptureCoordinator &captures, qint64 launch,
                                                    const QString &kernel, int programIndex,
                                                    const QString &watch, QString *why)
{
    const QString path = captures.capturePath();
    if (path.isEmpty()) {
        *why = tr("open a capture first");
        return std::nullopt;
    }
    KernelEditor *editor = captures.openProgram(programIndex, false);
    if (!editor) {
        *why = tr("launch %1's program has no sources to show (built from a binary)").arg(launch);
        return std::nullopt;
    }
    const auto element = parseWatchSpec(watch.toStdString());
    if (!watch.isEmpty() && !element) {
        *why = tr("%1 is not an element of a buffer argument").arg(watch);
        return std::nullopt;
    }
    DebugLaunch replay;
    replay.args = {QStringLiteral("replay"), path, QStringLiteral("--launch"), QString::number(launch)};
    replay.kernel = kernel;
    replay.editor = editor;
    replay.mainFile = QStringLiteral("program");
    replay.watch = watch;
    replay.what = element
                      ? tr("Replaying launch %1 (%2) on Oclgrind to the work-item that writes %3…")
                            .arg(launch)
                            .arg(kernel, watch)
                      : tr("Replaying launch %1 (%2) on Oclgrind: it stops at its first line; breakpoints "
                           "go in its source's margin")
                            .arg(launch)
                            .arg(kernel);
    return replay;
}

} // namespace clscope::ui
