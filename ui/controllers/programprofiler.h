// Profile application: the program runs under CLScope's layer (QProcess, started and ended without a wait on
// the GUI thread) while its recorder writes the capture on a worker thread of its own, reporting back through
// the workers' delivery as every device job does; the CaptureSession follows the file meanwhile and loads it
// from its place at the end. Qt Core.
#pragma once

#include "clscope/capture.h"
#include "profilesettings.h"

#include <QObject>
#include <QProcess>
#include <QString>

#include <atomic>
#include <future>
#include <memory>
#include <optional>

namespace clscope::ui {

class CaptureSession;
class DeviceWorker;

class ProgramProfiler : public QObject
{
    Q_OBJECT
public:
    explicit ProgramProfiler(CaptureSession *session, QObject *parent = nullptr);
    // A program still running is killed and its recorder stopped; the recorder's thread finishes the
    // file within its shutdown wait.
    ~ProgramProfiler() override;

    // Starts the program under capture: empty, or why not (nothing is changed then). Whether it could be
    // started is told later: started() or failedToStart().
    QString profile(const ProfileSettings &settings);
    // The program runs, or its capture is being finished.
    bool isProfiling() const { return m_recording != nullptr; }
    bool isRunning() const { return m_process != nullptr; }
    // Ends the program (terminate, then kill after 3 s); what was captured is kept.
    void stop();

signals:
    void started(const QString &program, qint64 pid);
    void failedToStart(const QString &why);
    void output(const QString &text, bool error);
    // The program ended (exitStatus: 128 + signal when it was killed); the capture is being finished.
    void programEnded(int exitStatus, bool crashed);
    // The capture is complete at `path` (error: why it stopped early); exitStatus as programEnded's.
    void finished(const QString &path, int exitStatus, const QString &error);

private:
    void onStarted();
    void onError(QProcess::ProcessError error);
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void onRecorderDone(const QString &error);

    CaptureSession *m_session;
    std::unique_ptr<DeviceWorker> m_recorder; // the recorder's thread
    QProcess *m_process = nullptr;
    QString m_program;
    std::shared_ptr<CaptureRecording> m_recording;
    std::shared_ptr<std::atomic<bool>> m_exited;
    std::shared_ptr<std::promise<std::optional<int>>> m_exitStatus;
    bool m_exitGiven = false;
    std::optional<int> m_lastExit;
};

} // namespace clscope::ui
