// Builds kernel sources on the worker of the (first) device and hands back immutable BuildResults. A newer
// build request makes an older one's result stale (it is dropped), on whichever device either runs, so the
// editor always shows the latest build. The last copy of a result releases its program and context on that
// worker, never on the GUI thread.
#pragma once

#include "controllers/buildjobsource.h"

#include "clscope/build.h"
#include "workers/jobtag.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace clscope::ui {

class CompilerChild;
class DeviceWorkers;

struct BuildJob
{
    QString sourcePath; // may be empty for an unsaved document
    QString source;     // the editor's text (what is built, saved or not)
    QString options;
    std::vector<cl_device_id> devices;
    QStringList deviceNames;
    // The program's other sources, after `source` (BuildRequest::moreSources), and whether each is compiled
    // apart and the objects linked (BuildRequest::link).
    QList<BuildJobSource> moreSources;
    bool link = false;
    // A program that is not OpenCL C (a tab that shows a program file, EditorTabs::openProgramFile), in
    // programKindName's words (programsource.h): "binary" (a device binary, used for every device), "il"
    // (SPIR-V), "built-in" (the device's built-in kernels, programFile being their names, ';'-separated);
    // empty: the source.
    QString programKind;
    QString programFile;
};

class BuildController : public QObject
{
    Q_OBJECT
public:
    explicit BuildController(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);

    void build(const BuildJob &job);
    // Gives up the build in flight: a queued one never starts, a running one (a driver's compile cannot be
    // interrupted) finishes on its worker and its result is dropped there. buildCancelled() follows.
    void cancel();
    bool isBusy() const { return m_busy; }
    const BuildResult &lastResult() const { return m_last; }
    // The clscope-cli whose child compiles each build from source first (compilerchild.h): beside the
    // executable by default; empty: none (every build compiles in this process).
    void setCliPath(const QString &path);
    QString cliPath() const;

signals:
    void buildStarted(const QString &what);
    void buildFinished(const clscope::BuildResult &result);
    // The build could not be attempted (unreadable include, malformed options, driver error).
    void buildFailed(const QString &message);
    void buildCancelled();

private:
    std::shared_ptr<DeviceWorkers> m_workers;
    JobTag m_tag{QStringLiteral("build")}; // a newer build supersedes an older one, on any device
    std::shared_ptr<const CompilerChild> m_compilerChild;
    BuildResult m_last;
    bool m_busy = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::BuildResult)
