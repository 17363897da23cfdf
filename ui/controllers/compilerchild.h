// The window's builds from source compile first in a child clscope-cli (core's buildchild.h), so that a
// driver's compiler that crashes in spite of its large stack ends the child, and the window reports a failed
// build instead of ending with it. The child fills the binary cache; the build in the window's process then
// hits it and runs no compiler. Used on the device's worker, which blocks while the child compiles (the GUI
// thread never waits on it); a newer build cancels the worker's job, and that stops the child. A SPIR-V or
// binary program tab builds in the child first too (a crash pre-flight: the driver's back end runs on the
// file's bytes, and nothing of it is cached), then here.
#pragma once

#include "workers/canceltoken.h"

#include "clscope/build.h"
#include "clscope/programsource.h"

#include <QString>

#include <atomic>
#include <memory>

namespace clscope::ui {

class CompilerChild
{
public:
    // cli: the clscope-cli to run (empty: none; every build then compiles in this process).
    explicit CompilerChild(QString cli);
    // The clscope-cli beside the application's executable (as the package and the build tree install it).
    static std::shared_ptr<const CompilerChild> besideApplication();

    const QString &cliPath() const { return m_cli; }

    // Builds request from source through cache: compiled in the child first unless the cache holds the
    // program already, then built here. A crash of the child's compiler is a failed build whose every log
    // and one diagnostic are the child's line, and nothing is built here; a cancelled child, a failed build
    // that says so. Where there is no child to run the build is made here alone (said once on stderr).
    // A program the child compiled is reported as the child's miss, with its time (compiledElsewhere).
    // Throws what buildProgram throws.
    BuildResult build(const BuildRequest &request, const BinaryCache &cache, const CancelToken &cancel) const;
    // A program of any kind (programsource.h): Source as above; SPIR-V and a binary built in the child, then
    // here unless the child crashed; built-in kernels (nothing to compile) here alone. Throws what
    // buildProgramSource throws.
    BuildResult build(const ProgramSource &program, const BuildRequest &request, const BinaryCache &cache,
                      const CancelToken &cancel) const;

private:
    // Whether a child can be started; says once why not.
    bool childThere() const;
    void warnOnce(const QString &why) const;

    QString m_cli;
    mutable std::atomic<bool> m_warned{false};
};

} // namespace clscope::ui
