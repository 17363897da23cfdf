// Build requests to the device's worker and their results back.
#include "buildcontroller.h"

#include "controllers/compilerchild.h"
#include "workers/deviceworkers.h"

#include "clscope/error.h"
#include "clscope/fileio.h"
#include "clscope/programsource.h"

#include <variant>

namespace clscope::ui {

namespace {
using BuildOutcome = std::variant<BuildResult, QString>;
} // namespace

void addSources(BuildRequest &request, const QList<BuildJobSource> &moreSources, bool link)
{
    for (const BuildJobSource &more : moreSources) {
        SourceText part{more.path.toStdString(), more.text.toStdString()};
        if (part.text.empty())
            part.text.push_back('\n'); // an empty tab is an empty source, not a file to read
        request.moreSources.push_back(std::move(part));
    }
    request.link = link;
}

BuildController::BuildController(std::shared_ptr<DeviceWorkers> workers, QObject *parent)
    : QObject(parent)
    , m_workers(std::move(workers))
    , m_compilerChild(CompilerChild::besideApplication())
{
    qRegisterMetaType<BuildResult>();
}

void BuildController::setCliPath(const QString &path)
{
    m_compilerChild = std::make_shared<CompilerChild>(path);
}

QString BuildController::cliPath() const
{
    return m_compilerChild->cliPath();
}

void BuildController::build(const BuildJob &job)
{
    BuildRequest request;
    request.devices = job.devices;
    request.sourcePath = job.sourcePath.toStdString();
    request.source = job.source.toStdString();
    request.options = job.options.toStdString();
    if (request.source.empty())
        request.source.push_back(
            '\n'); // an empty buffer is still a (trivially empty) program, not a file to read
    addSources(request, job.moreSources, job.link);
    DeviceWorker &worker = m_workers->forDevice(request.devices.empty() ? nullptr : request.devices.front());
    request.releaseOn = worker.releaser();
    m_busy = true;
    emit buildStarted(job.deviceNames.join(QStringLiteral(", ")));
    // The tab's kind in the capture format's words (programsource.h); none: the editor's OpenCL C.
    const ProgramKind kind = parseProgramKind(job.programKind.toStdString()).value_or(ProgramKind::Source);
    const std::string file = job.programFile.toStdString();
    worker.submit<BuildOutcome>(
        m_tag,
        [request, kind, file, child = m_compilerChild](const CancelToken &cancel,
                                                       const Progress &) mutable -> BuildOutcome {
            try {
                ProgramSource program{kind, {}, {}};
                if (kind == ProgramKind::BuiltIns) {
                    program.builtIns = file;
                } else if (kind != ProgramKind::Source) {
                    // Read here, on the worker, as a build reads its headers: the file as it is now.
                    const std::string read = readRegularFile(file, kMaxDocumentBytes);
                    program.bytes.assign(read.begin(), read.end());
                    request.sourcePath = file; // what a crash of its build and the driver's log name
                }
                // Compiled in a child first: a compiler crash there is a failed build, not the window's end.
                return child->build(program, request, BinaryCache::fromEnvironment(), cancel);
            } catch (const std::exception &e) {
                return QString::fromStdString(e.what());
            }
        },
        this,
        [this](BuildOutcome outcome) {
            m_busy = false;
            if (auto *result = std::get_if<BuildResult>(&outcome)) {
                m_last = *result;
                emit buildFinished(*result);
            } else {
                emit buildFailed(std::get<QString>(outcome));
            }
        });
}

void BuildController::cancel()
{
    if (!m_busy)
        return;
    m_tag.discard(); // the result of the build in flight no longer belongs to anyone
    m_busy = false;
    emit buildCancelled();
}

} // namespace clscope::ui
