// The capture the window shows: the one shared context that every capture view reads (the Capture panel,
// the timeline, the roofline's counts, the launch actions), in the manner of qrenderdoc's ICaptureViewer
// panels. It is loaded once from its file on the device-less worker; while a program is being profiled it is
// followed: each refresh reads only what the recorder added since (CaptureReader::update()) and the views
// are told what changed. One reader per capture, which also reads the launches the actions ask for. Qt Core.
#pragma once

#include "clscope/capture.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QTimer;

namespace clscope::ui {

class DeviceWorkers;

// What the views show of a capture.
struct CaptureData
{
    QString path;
    CaptureSummary summary;
    CaptureProgress progress;
    // The commands that succeeded (host clock) and the API calls as host spans (CommandRecord::hostSpan):
    // on a load the commands in enqueue order, then the calls; while followed, each refresh's commands and
    // calls after those before. Shared with the timeline; changed only on the GUI thread, by the session.
    std::shared_ptr<std::vector<CommandRecord>> records = std::make_shared<std::vector<CommandRecord>>();
    std::vector<PoolSeriesPoint> memory;        // live bytes of all contexts summed over time
    std::vector<CaptureContextSeries> contexts; // per context
    std::vector<CapturedBuffer> buffers;
    std::vector<CapturedProgram> programs;
    std::vector<CaptureApiTotal> api;
    std::set<std::int64_t> launchesWithContents;
    std::int64_t launchCount = 0;
    std::uint64_t first = 0, last = 0; // host ns spanned
    QString error;                     // the file could not be read

    // The reason for the user, naming the file once: the reader's messages mostly name it already.
    QString errorText() const;
};

// What a session's first read of a capture gives, read on the calling thread (the timeline benchmark).
CaptureData loadCapture(const QString &path);

// What a refresh of a followed capture changed.
struct CaptureChange
{
    std::size_t appendedFrom = 0; // records before this index are the ones shown before
    bool recordsMoved = false;    // some of those moved (a queue's clock, a late command's times)
    bool programsChanged = false;
    std::size_t newRecords = 0;
};

class CaptureSession;

// A view of the capture: told when one is loaded (another, or the same again when its program has ended),
// when a followed one grew, and when a launch is selected (the one the actions work on).
class CaptureViewer
{
public:
    virtual ~CaptureViewer() = default;
    virtual void onCaptureLoaded(const CaptureSession &session) = 0;
    virtual void onCaptureUpdated(const CaptureSession &session, const CaptureChange &change) = 0;
    virtual void onLaunchSelected(qint64 launch, const QString &kernel)
    {
        (void)launch;
        (void)kernel;
    }
};

class CaptureSession : public QObject
{
    Q_OBJECT
public:
    enum class State { Empty, Live, Finished, Opened };
    // The CPU a refresh of a followed capture cost: its read on the worker and its views on the GUI thread.
    struct RefreshCost
    {
        double readCpuMs = 0;
        double viewsCpuMs = 0;
        std::size_t newRecords = 0;
    };

    explicit CaptureSession(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);
    ~CaptureSession() override;

    // Views are told in the order added; one removed (or destroyed: remove it first) hears nothing more.
    void addViewer(CaptureViewer *viewer);
    void removeViewer(CaptureViewer *viewer);

    // A .clscope file, read on the worker, then shown (State::Opened).
    void open(const QString &path);
    // The file a recorder is writing: loaded, then followed every refresh interval (State::Live).
    void follow(const QString &writingPath);
    // The recorder is done and the capture is at `path`: the reader follows it there (State::Finished).
    void finish(const QString &path);

    State state() const { return m_state; }
    QString path() const { return m_data.path; }
    const CaptureData &data() const { return m_data; }
    // Loads and refreshes shown so far (tests wait on these).
    quint64 loads() const { return m_loads; }
    quint64 refreshes() const { return m_refreshes; }
    // A read is under way (or one more is due).
    bool isReading() const { return m_reading || m_readAgain; }
    const RefreshCost &lastRefresh() const { return m_lastRefresh; }
    void setRefreshInterval(int ms);

    // The launch the actions work on (the Capture panel's, the timeline's selection).
    void selectLaunch(qint64 launch, const QString &kernel);
    qint64 selectedLaunch() const { return m_launch; }
    QString selectedKernel() const { return m_kernel; }

    // Reads a launch through the capture's reader on the worker; then(launch, error) on the GUI thread
    // while receiver lives. A newer request supersedes one not yet answered.
    void withLaunch(qint64 launch, QObject *receiver,
                    std::function<void(std::shared_ptr<const CapturedLaunch>, const QString &error)> then);

signals:
    // After the viewers were told.
    void loaded();
    void refreshed();
    void launchSelected(qint64 launch, const QString &kernel);

public:
    // The capture's reader on the worker, and one read of it (capturesession.cpp).
    struct Reader;
    struct Read;

private:
    void start(const QString &path, State state);
    void requestRead();
    void showRead(std::shared_ptr<Read> read);
    CaptureChange applyUpdate(Read &read);
    // The reader's command number n in the records.
    CommandRecord &command(std::uint64_t n);

    std::shared_ptr<DeviceWorkers> m_workers;
    std::vector<CaptureViewer *> m_viewers;
    QTimer *m_refresh;
    State m_state = State::Empty;
    CaptureData m_data;
    std::shared_ptr<Reader> m_reader; // used on the worker only, one job at a time
    quint64 m_capture = 0;            // which open/follow/finish a read belongs to
    bool m_loaded = false;            // the current capture's first read was shown
    bool m_reading = false;
    bool m_readAgain = false;
    quint64 m_loads = 0;
    quint64 m_refreshes = 0;
    RefreshCost m_lastRefresh;
    // Where the reader's commands are in the records: each refresh's after the API calls of the one before.
    struct CommandBatch
    {
        std::uint64_t firstCommand = 0;
        std::size_t at = 0;
    };
    std::vector<CommandBatch> m_commandBatches;
    std::uint64_t m_commandsGiven = 0;
    qint64 m_launch = -1;
    QString m_kernel;
};

} // namespace clscope::ui
