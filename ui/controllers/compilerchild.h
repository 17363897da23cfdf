// The window's builds from source compile first in a child clscope-cli (core's buildchild.h), so that a
// driver's compiler that crashes in spite of its large stack ends the child, and the window reports a failed
// build instead of ending with it. The child fills the binary cache; the build in the window's process then
// hits it and runs no compiler. Used on the device's worker, which blocks while the child compiles (the GUI
// thread never waits on it); a newer build cancels the worker's job, and that stops the child.
#pragma once

#include "workers/canceltoken.h"

#include "clscope/build.h"

#include <QString>

#include <atomic>
#include <optional>

namespace clscope::ui {

class CompilerChild
{
public:
    // cli: the clscope-cli to run (empty: none; every build then compiles in this process).
    explicit CompilerChild(QString cli);

    const QString &cliPath() const { return m_cli; }

    // Compiles request in the child. Nothing: build in this process now (the cache holds the program, the
    // child compiled, failed or refused the input without a crash, or there is no child to run: said once on
    // stderr). A result: the build's, failed: the compiler crashed (the child's line in every log and as the
    // one diagnostic), or the build was cancelled.
    std::optional<BuildResult> compile(const BuildRequest &request, const CancelToken &cancel) const;

private:
    void warnOnce(const QString &why) const;

    QString m_cli;
    mutable std::atomic<bool> m_warned{false};
};

} // namespace clscope::ui
