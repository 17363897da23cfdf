// What the debugger runs (issue 29): a launch made ready for the child clscope-cli, either the workbench's
// (the built tab's text in a private folder, the Arguments panel's launch, once, without read-backs) or a
// captured one (`replay` of the open capture, its program's sources open read-only). Preparing it is all
// this does; DebugCoordinator starts and follows it.
#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace clscope::ui {

class CaptureCoordinator;
class EditorTabs;
class KernelEditor;
class Workbench;

class DebugLaunch
{
    Q_DECLARE_TR_FUNCTIONS(DebugLaunch)
public:
    // The workbench's launch: the built source, the Arguments panel's launch (unoptimised: built with
    // -cl-opt-disable). Nothing, with *why, when there is none to debug.
    static std::optional<DebugLaunch> fromWorkbench(const Workbench &workbench, const EditorTabs &editors,
                                                    bool unoptimised, QString *why);
    // A captured launch of the open capture. watch "ARGNO[INDEX]": it stops the work-item that writes that
    // element, instead of at the first line.
    static std::optional<DebugLaunch> fromCapture(CaptureCoordinator &captures, qint64 launch,
                                                  const QString &kernel, int programIndex,
                                                  const QString &watch, QString *why);

    QStringList args; // the child clscope-cli's
    QString kernel;
    QPointer<KernelEditor> editor; // whose breakpoints stop it, and where its stops are marked
    QString mainFile;              // the source as its stops name it (as its tab does)
    QString what;                  // what the Debugger panel says while it runs to its first stop
    QString watch;
    std::unique_ptr<QTemporaryDir> folder; // the debugged source of the workbench's launch
};

} // namespace clscope::ui
