// Builds kernel sources off the GUI thread and hands back immutable BuildResults. A newer build request
// makes an older one's result stale (it is dropped), so the editor always shows the latest build.
#pragma once

#include "clscope/build.h"

#include <QObject>
#include <QString>

#include <vector>

namespace clscope::ui {

class WorkQueue;

struct BuildJob
{
    QString sourcePath; // may be empty for an unsaved document
    QString source;     // the editor's text (what is built, saved or not)
    QString options;
    std::vector<cl_device_id> devices;
    QStringList deviceNames;
};

class BuildController : public QObject
{
    Q_OBJECT
public:
    explicit BuildController(WorkQueue *queue, QObject *parent = nullptr);

    void build(const BuildJob &job);
    bool isBusy() const { return m_busy; }
    const BuildResult &lastResult() const { return m_last; }

signals:
    void buildStarted(const QString &what);
    void buildFinished(const clscope::BuildResult &result);
    // The build could not be attempted (unreadable include, malformed options, driver error).
    void buildFailed(const QString &message);

private:
    WorkQueue *m_queue;
    BuildResult m_last;
    bool m_busy = false;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::BuildResult)
