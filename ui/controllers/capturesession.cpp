// The capture as the views' shared context: one reader per capture on the device-less worker, a load, the
// refreshes of a followed capture applied to what is shown, and the launch the actions work on.
#include "capturesession.h"
#include "display/stdstring.h"

#include "clscope/bench.h"
#include "workers/deviceworkers.h"

#include <QCoreApplication>
#include <QTimer>

#include <algorithm>
#include <climits>

namespace clscope::ui {

namespace {

// CPU time of the calling thread (a refresh's cost on a machine busy with the profiled program).
double threadCpuMs()
{
    return double(threadCpuNs()) / 1e6;
}

// The host ns spanned by records[from..] and the buffers' lifetimes, widening [first, last].
void widenSpan(CaptureData &d, std::size_t from)
{
    std::uint64_t first = d.first ? d.first : UINT64_MAX, last = d.last;
    const std::vector<CommandRecord> &records = *d.records;
    for (std::size_t i = from; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        if (r.start && r.end >= r.start) {
            first = std::min(first, r.start);
            last = std::max(last, r.end);
        }
    }
    for (const CapturedBuffer &b : d.buffers) {
        first = std::min(first, b.createdNs);
        last = std::max(last, b.releasedNs.value_or(b.createdNs));
    }
    if (first > last)
        first = last = 0;
    d.first = first;
    d.last = last;
}

// Programs as the views list them: a change of one of these is a change to show.
bool sameProgramList(const std::vector<CapturedProgram> &a, const std::vector<CapturedProgram> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].id != b[i].id || a[i].builds.size() != b[i].builds.size() ||
            a[i].kernels.size() != b[i].kernels.size())
            return false;
    return true;
}

} // namespace

// The capture's reader, opened on the worker at its first use; jobs of one session run one at a time.
struct CaptureSession::Reader
{
    QString path;
    bool renamed = false; // the recorder renamed the followed file to `path`: follow it there
    std::unique_ptr<CaptureReader> reader;

    CaptureReader &get()
    {
        if (!reader)
            reader = std::make_unique<CaptureReader>(path.toStdString());
        return *reader;
    }
};

namespace {

// After the recorder renamed the followed file: the reader reads on from there, or (not the same rows)
// starts again from the file.
void followRename(CaptureSession::Reader &reader)
{
    if (!std::exchange(reader.renamed, false) || !reader.reader)
        return;
    try {
        reader.reader->followRename(reader.path.toStdString());
    } catch (const CaptureError &) {
        reader.reader.reset();
    }
}

} // namespace

// One read on the worker: the reader's update and everything else the views show (small tables).
struct CaptureSession::Read
{
    quint64 capture = 0;
    bool fresh = false; // the reader's first update: everything so far
    CaptureUpdate update;
    CaptureData data; // without records
    double cpuMs = 0;
};

namespace {

// One read (on the worker): the reader's update and the rest of what the views show (small tables).
void readOnce(CaptureSession::Reader &reader, CaptureSession::Read &r)
{
    const double cpu = threadCpuMs();
    try {
        followRename(reader);
        r.fresh = !reader.reader;
        CaptureReader &rd = reader.get();
        const CaptureReader::Snapshot snapshot(rd); // every call below reads the file as it is now
        r.update = rd.update();
        CaptureData &d = r.data;
        d.summary = rd.summary();
        d.progress = rd.progress();
        d.memory = rd.memorySeries();
        d.contexts = rd.memoryByContext();
        d.buffers = rd.buffers();
        d.programs = rd.programs();
        d.api = rd.apiTotals();
        for (std::int64_t l : rd.launchesWithContents())
            d.launchesWithContents.insert(l);
        d.launchCount = rd.launchCount();
    } catch (const std::exception &e) {
        r.data.error = qs(e.what());
        reader.reader.reset(); // the next read starts again from the file
    }
    r.cpuMs = threadCpuMs() - cpu;
}

// A first read as the views are given it: the commands, then the API calls.
CaptureData firstRead(CaptureSession::Read &r, const QString &path)
{
    CaptureData d = std::move(r.data);
    d.path = path;
    CaptureUpdate &u = r.update;
    d.records->reserve(u.commands.size() + u.apiCalls.size());
    std::move(u.commands.begin(), u.commands.end(), std::back_inserter(*d.records));
    std::move(u.apiCalls.begin(), u.apiCalls.end(), std::back_inserter(*d.records));
    widenSpan(d, 0);
    return d;
}

} // namespace

QString CaptureData::errorText() const
{
    if (error.isEmpty())
        return {};
    QString text = error.contains(path)
                       ? error
                       : QCoreApplication::translate("CaptureSession", "cannot read %1: %2").arg(path, error);
    text[0] = text[0].toUpper();
    return text;
}

CaptureData loadCapture(const QString &path)
{
    CaptureSession::Reader reader;
    reader.path = path;
    CaptureSession::Read r;
    readOnce(reader, r);
    return firstRead(r, path);
}

CaptureSession::CaptureSession(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_refresh(new QTimer(this))
{
    setObjectName(QStringLiteral("captureSession"));
    m_refresh->setInterval(700);
    connect(m_refresh, &QTimer::timeout, this, &CaptureSession::requestRead);
}

CaptureSession::~CaptureSession() = default;

void CaptureSession::addViewer(CaptureViewer *viewer)
{
    if (viewer && std::find(m_viewers.begin(), m_viewers.end(), viewer) == m_viewers.end())
        m_viewers.push_back(viewer);
}

void CaptureSession::removeViewer(CaptureViewer *viewer)
{
    m_viewers.erase(std::remove(m_viewers.begin(), m_viewers.end(), viewer), m_viewers.end());
}

void CaptureSession::setRefreshInterval(int ms)
{
    m_refresh->setInterval(ms);
}

void CaptureSession::open(const QString &path)
{
    start(path, State::Opened);
}

void CaptureSession::follow(const QString &writingPath)
{
    start(writingPath, State::Live);
    m_refresh->start();
}

void CaptureSession::finish(const QString &path)
{
    m_refresh->stop();
    if (m_state != State::Live || !m_reader) {
        start(path, State::Finished);
        return;
    }
    // The same capture, renamed into place: the reader follows it there and reads what came last.
    m_state = State::Finished;
    m_data.path = path;
    auto renamed = std::make_shared<Reader>();
    renamed->path = path;
    renamed->renamed = true;
    m_workers->deviceless().post([old = m_reader, renamed] {
        // On the worker, after the reads queued before: the reader moves to the renamed file.
        renamed->reader = std::move(old->reader);
    });
    m_reader = renamed;
    requestRead();
}

void CaptureSession::start(const QString &path, State state)
{
    m_refresh->stop();
    ++m_capture;
    m_state = state;
    m_reader = std::make_shared<Reader>();
    m_reader->path = path;
    m_data.path = path;
    m_loaded = false;
    m_reading = false;
    m_readAgain = false;
    m_launch = -1;
    m_kernel.clear();
    requestRead();
}

void CaptureSession::requestRead()
{
    if (!m_reader)
        return;
    if (m_reading) {
        m_readAgain = true; // one more after this one: the latest state is never skipped
        return;
    }
    m_reading = true;
    // One read at a time per capture, so none is ever superseded (a reader's update cannot be given twice);
    // a read of a capture shown before is superseded by the tag.
    m_workers->deviceless().submit<std::shared_ptr<Read>>(
        QStringLiteral("capture-session-read"),
        [reader = m_reader, capture = m_capture](const CancelToken &, const Progress &) {
            auto r = std::make_shared<Read>();
            r->capture = capture;
            readOnce(*reader, *r);
            return r;
        },
        this, [this](std::shared_ptr<Read> r) { showRead(std::move(r)); });
}

void CaptureSession::showRead(std::shared_ptr<Read> r)
{
    m_reading = false;
    if (r->capture != m_capture)
        return;
    const double cpu = threadCpuMs();
    const bool load = !m_loaded || r->fresh || !r->data.error.isEmpty();
    if (load) {
        // The first read of this capture (or one that failed): what is shown is replaced.
        m_commandsGiven = r->update.commands.size();
        m_commandBatches = {{0, 0}};
        m_data = firstRead(*r, m_data.path);
        m_loaded = m_data.error.isEmpty();
        ++m_loads;
        for (CaptureViewer *v : m_viewers)
            v->onCaptureLoaded(*this);
        emit loaded();
    } else {
        CaptureChange change = applyUpdate(*r);
        for (CaptureViewer *v : m_viewers)
            v->onCaptureUpdated(*this, change);
        ++m_refreshes;
        m_lastRefresh = {r->cpuMs, threadCpuMs() - cpu, change.newRecords};
        emit refreshed();
    }
    if (std::exchange(m_readAgain, false))
        requestRead();
}

CommandRecord &CaptureSession::command(std::uint64_t n)
{
    // The batch the command came in: its commands are together in the records.
    auto batch = std::upper_bound(m_commandBatches.begin(), m_commandBatches.end(), n,
                                  [](std::uint64_t v, const CommandBatch &b) { return v < b.firstCommand; });
    --batch;
    return (*m_data.records)[batch->at + std::size_t(n - batch->firstCommand)];
}

CaptureChange CaptureSession::applyUpdate(Read &r)
{
    CaptureUpdate &u = r.update;
    std::vector<CommandRecord> &records = *m_data.records;
    CaptureChange change;
    change.appendedFrom = records.size();
    if (!u.clockShifts.empty() || !u.late.empty()) {
        u.applyTo(m_commandsGiven, [this](std::uint64_t n) -> CommandRecord & { return command(n); });
        change.recordsMoved = true;
    }
    if (!u.commands.empty())
        m_commandBatches.push_back({m_commandsGiven, records.size()});
    m_commandsGiven += u.commands.size();
    change.newRecords = u.commands.size() + u.apiCalls.size();
    if (records.capacity() < records.size() + change.newRecords) // grown geometrically: not moved each time
        records.reserve(std::max(records.size() + change.newRecords, records.capacity() * 2));
    std::move(u.commands.begin(), u.commands.end(), std::back_inserter(records));
    std::move(u.apiCalls.begin(), u.apiCalls.end(), std::back_inserter(records));

    CaptureData &d = r.data;
    change.programsChanged = !sameProgramList(m_data.programs, d.programs);
    m_data.summary = std::move(d.summary);
    m_data.progress = d.progress;
    m_data.memory = std::move(d.memory);
    m_data.contexts = std::move(d.contexts);
    m_data.buffers = std::move(d.buffers);
    m_data.programs = std::move(d.programs);
    m_data.api = std::move(d.api);
    m_data.launchesWithContents = std::move(d.launchesWithContents);
    m_data.launchCount = d.launchCount;
    if (change.recordsMoved)
        m_data.first = m_data.last = 0;
    widenSpan(m_data, change.recordsMoved ? 0 : change.appendedFrom);
    return change;
}

void CaptureSession::selectLaunch(qint64 launch, const QString &kernel)
{
    if (launch == m_launch && kernel == m_kernel)
        return;
    m_launch = launch;
    m_kernel = kernel;
    for (CaptureViewer *v : m_viewers)
        v->onLaunchSelected(launch, kernel);
    emit launchSelected(launch, kernel);
}

void CaptureSession::withLaunch(
    qint64 launch, QObject *receiver,
    std::function<void(std::shared_ptr<const CapturedLaunch>, const QString &error)> then)
{
    if (!m_reader)
        return;
    using Result = std::pair<std::shared_ptr<const CapturedLaunch>, QString>;
    m_workers->deviceless().submit<std::shared_ptr<Result>>(
        QStringLiteral("capture-session-launch"),
        [reader = m_reader, launch](const CancelToken &, const Progress &) {
            auto r = std::make_shared<Result>();
            try {
                followRename(*reader);
                r->first = std::make_shared<const CapturedLaunch>(reader->get().launch(launch));
            } catch (const std::exception &e) {
                r->second = qs(e.what());
            }
            return r;
        },
        receiver, [then = std::move(then)](std::shared_ptr<Result> r) { then(r->first, r->second); });
}

} // namespace clscope::ui
