// The Capture panel: what a captured program did, live while it runs or from a .clscope file. A header
// (the program, its state, a progress line of commands, kernels and bytes recorded, Stop), the launch the
// actions work on (Open in workbench, Replay on every device, Export as pyopencl script), and tabs:
// per-kernel statistics, each kernel's percent of its roofline (rooflineview.h), device memory, programs
// (sources, options, build logs; open read-only or as a copy), API calls with their durations, the program's
// console output, and replay results per device.
#pragma once

#include "captureprograms.h"
#include "capturereplays.h"
#include "clscope/capture.h"
#include "controllers/capturesession.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace clscope::ui {

class CaptureMemoryView;
class RooflineView;

// A view of the CaptureSession: loaded and refreshed by it; its launch is the session's selected launch.
class CaptureDock : public QWidget, public CaptureViewer
{
    Q_OBJECT
public:
    using State = CaptureSession::State;
    explicit CaptureDock(QWidget *parent = nullptr);

    void onCaptureLoaded(const CaptureSession &session) override;
    void onCaptureUpdated(const CaptureSession &session, const CaptureChange &change) override;
    void onLaunchSelected(qint64 launch, const QString &kernel) override;
    State state() const { return m_state; }
    void setStatus(const QString &text);
    QString statusText() const;
    QString progressText() const;
    void appendConsole(const QString &text, bool error);
    void clearConsole();
    QString consoleText() const;
    // The launch the actions work on.
    void setCurrentLaunch(std::int64_t launch, const QString &kernel);
    std::int64_t currentLaunch() const;
    // A replay's outcome on one device (the Replay tab: device, time, equal or where it differs).
    void clearReplays();
    void addReplay(const QString &device, const QString &time, const QString &verdict, bool ok);
    // A replay whose outputs differ: its first differing element (a global buffer argument's, "ARGNO[INDEX]")
    // can be debugged: the work-item that writes it stops there (Debug the first difference).
    void setFirstDifference(qint64 launch, const QString &element);
    QPushButton *debugDifferenceButton() const { return m_replays->debugButton(); }
    // Why the current launch cannot be replayed or opened, and which capture option keeps what it lacks.
    void showLaunchProblem(const QString &text);

    QTabWidget *tabs() const { return m_tabs; }
    QTableWidget *kernelTable() const { return m_kernels; }
    QTableWidget *apiTable() const { return m_api; }
    QTableWidget *replayTable() const { return m_replays->table(); }
    QListWidget *programList() const { return m_programs->list(); }
    CaptureMemoryView *memoryView() const { return m_memory; }
    RooflineView *rooflineView() const { return m_roofline; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *openButton() const { return m_open; }
    QString launchProblemText() const;
    bool showTab(const QString &name);

signals:
    void stopRequested();
    void openInWorkbenchRequested(qint64 launch);
    void replayRequested(qint64 launch);
    void exportRequested(qint64 launch);
    void debugRequested(qint64 launch);
    void debugDifferenceRequested(qint64 launch, const QString &element);
    // A program's sources into the editor: read-only, or as an unsaved copy.
    void programOpenRequested(int program, bool copy);
    // The user chose another launch in the panel.
    void currentLaunchChanged(qint64 launch, const QString &kernel);

private:
    // The header, the launch range and the tables; programs only when asked (they rarely change).
    void show(const CaptureData &d, State state, bool programs);
    // The launch -> kernel map from records[from..].
    void mapLaunches(const CaptureData &d, std::size_t from);
    void fillKernels(const CaptureData &d);
    void fillApi(const CaptureData &d);
    void updateLaunchLabel();

    State m_state = State::Empty;
    QLabel *m_title;
    QLabel *m_progress;
    QLabel *m_status;
    QPushButton *m_stop;
    RooflineView *m_roofline;
    QSpinBox *m_launch;
    QLabel *m_launchInfo;
    QPushButton *m_open;
    QPushButton *m_replay;
    QPushButton *m_export;
    QPushButton *m_debug;
    QLabel *m_launchProblem;
    QTabWidget *m_tabs;
    QTableWidget *m_kernels;
    CaptureMemoryView *m_memory;
    CapturePrograms *m_programs;
    QTableWidget *m_api;
    QPlainTextEdit *m_console;
    CaptureReplays *m_replays;
    std::set<std::int64_t> m_withContents;
    std::vector<int> m_launchKernel; // launch index -> m_kernelNames index, from the records
    QStringList m_kernelNames;
    std::map<std::string, int> m_kernelIndex; // name -> m_kernelNames index
};

} // namespace clscope::ui
