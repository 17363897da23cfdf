// The one interface of the window's views: what the user works on now (the current device, the latest
// build, the latest run), told by MainWindow to every view it registered, as qrenderdoc tells its
// ICaptureViewers of the capture and the selected event. A view overrides the hooks it shows; the others
// do nothing. MainWindow calls them on the GUI thread, in the order the views were registered.
#pragma once

#include "clscope/build.h"
#include "clscope/deviceinfo.h"
#include "clscope/runner.h"

#include <memory>

namespace clscope::ui {

class RunPool;

class WorkbenchView
{
public:
    virtual ~WorkbenchView() = default;

    // The device that builds and runs now; null when there is none (no platform, none chosen yet). The
    // snapshot is the device manager's and a refresh replaces it: a view copies what it keeps.
    virtual void onCurrentDeviceChanged(const DeviceSnapshot * /*device*/) {}
    // A build finished, good or failed; `device` is the one it was made for (the current one when that is
    // gone from the snapshot), with the same lifetime as above.
    virtual void onProgramBuilt(const BuildResult & /*result*/, const DeviceSnapshot * /*device*/) {}
    // Runs take their buffers from `pool` now: told as a run starts (it holds no pool before the first run)
    // and when a run has made a new one (the first run on a build's context).
    virtual void onRunPoolInUse(const std::shared_ptr<const RunPool> & /*pool*/) {}
    // A run finished; `profile` is its commands and its pool's samples, on the host clock (hostProfile).
    virtual void onRunFinished(const RunResult & /*result*/, const RunProfile & /*profile*/) {}

protected:
    WorkbenchView() = default;
    WorkbenchView(const WorkbenchView &) = default;
    WorkbenchView &operator=(const WorkbenchView &) = default;
};

} // namespace clscope::ui
