// Rooflines in the window (issue 30), both through a child `clscope-cli roofline ... --json`:
// - of a capture: the Capture panel's Roofline tab; each kernel's work counted on Oclgrind with CLScope's
//   line profiler, its device time from the capture, the roofs of the device it ran on (measured once and
//   kept); a kernel's source opens read-only with the heat gutter of its counted launch;
// - of the workbench's launch (Build > Roofline and line profile, the Roofline panel): the built source
//   and the Arguments panel's launch, counted on Oclgrind, timed on the current device (10 launches at
//   least), against that device's roofs; the heat goes into the built editor while its text is the one
//   counted.
// The child is watched through QProcess's signals, never waited on; its document is read as hostile input
// (rooflinedoc.h). One child at a time.
#pragma once

#include "display/rooflinedoc.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>

#include <memory>

class QAction;
class QStatusBar;
class QTemporaryDir;

namespace clscope::ui {

class CaptureCoordinator;
class DeviceManager;
class KernelEditor;
class RooflineView;
class Workbench;

class RooflineCoordinator : public QObject
{
    Q_OBJECT
public:
    RooflineCoordinator(CaptureCoordinator *captures, RooflineView *captureView, Workbench *workbench,
                        DeviceManager *devices, RooflineView *launchView, QStatusBar *statusBar,
                        QObject *parent = nullptr);
    ~RooflineCoordinator() override;

    // Build > Roofline and line profile (Alt+F5): countLaunch.
    QAction *launchAction() const { return m_action; }

    // The clscope-cli that counts (beside the GUI's executable by default).
    void setCliPath(const QString &path) { m_cli = path; }
    // Extra arguments for the child (tests: "--effort quick"; a shared peaks folder comes from the
    // environment, CLSCOPE_PEAKS_DIR).
    void setExtraArguments(const QStringList &args) { m_extra = args; }

    // Counts the capture shown; false (with the reason in the panel) when there is none, or it is still
    // being recorded.
    bool countCapture();
    // Counts the workbench's launch (the latest build's source, the Arguments panel's launch) on the current
    // device; false (with the reason in the Roofline panel) when there is none.
    bool countLaunch();
    void stop();
    bool isBusy() const { return m_process != nullptr; }
    // A kernel's source with the heat gutter of its lines: a captured program read-only, or the built editor
    // (while its text is the one counted).
    KernelEditor *openCapturedSource(int kernel);
    KernelEditor *showLaunchHeat();
    // What the last child was started with (after `clscope-cli`).
    QStringList lastArguments() const { return m_lastArgs; }

signals:
    void countFinished(const QString &error); // empty when the document is shown

private:
    enum class Target { Capture, Launch };
    bool start(Target target, const QStringList &args, const QString &what);
    bool refuse(RooflineView *view, const QString &why);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void finish(const QString &error);
    RooflineView *viewOf(Target target) const
    {
        return target == Target::Capture ? m_captureView : m_launchView;
    }

    CaptureCoordinator *m_captures;
    RooflineView *m_captureView;
    Workbench *m_workbench;
    DeviceManager *m_devices;
    RooflineView *m_launchView;
    QStatusBar *m_statusBar;
    QAction *m_action;
    Target m_target = Target::Capture;
    std::unique_ptr<QTemporaryDir> m_folder; // the counted source of the workbench's launch
    QPointer<KernelEditor> m_countedEditor;  // the built editor whose text was counted
    QString m_countedText;
    QString m_cli;
    QStringList m_extra;
    QStringList m_lastArgs;
    QProcess *m_process = nullptr;
    QString m_countedPath; // the capture the capture view's document (or the running child) is of
    QByteArray m_err;      // the child's stderr so far
    bool m_stopping = false;
};

} // namespace clscope::ui
