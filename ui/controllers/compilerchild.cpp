// A build's compile in a child clscope-cli, and what the window makes of its end.
#include "compilerchild.h"

#include "clscope/buildchild.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

namespace clscope::ui {

CompilerChild::CompilerChild(QString cli)
    : m_cli(std::move(cli))
{}

std::shared_ptr<const CompilerChild> CompilerChild::besideApplication()
{
    return std::make_shared<const CompilerChild>(
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("clscope-cli")));
}

BuildResult CompilerChild::build(const BuildRequest &request, const BinaryCache &cache,
                                 const CancelToken &cancel) const
{
    return build(ProgramSource{}, request, cache, cancel);
}

BuildResult CompilerChild::build(const ProgramSource &program, const BuildRequest &request,
                                 const BinaryCache &cache, const CancelToken &cancel) const
{
    // Built-in kernels compile nothing, and a program the cache holds is not compiled at all: no child, and
    // none of its start-up time.
    if (program.kind == ProgramKind::BuiltIns ||
        (program.kind == ProgramKind::Source && inBinaryCache(request, cache)) || !childThere())
        return buildProgramSource(program, request, cache);
    const ChildCompile child = compileInChild(m_cli.toStdString(), request, program, cancel.flag());
    switch (child.outcome) {
    case ChildCompile::Outcome::Compiled:
        break;
    case ChildCompile::Outcome::NotStarted:
        warnOnce(QString::fromStdString(child.message));
        break;
    case ChildCompile::Outcome::Cancelled:
        // A newer build took over: this result is dropped, and nothing of the stale program is compiled.
        return crashedBuild(request, "the build was cancelled", child.durationMs);
    case ChildCompile::Outcome::Crashed:
        return crashedBuild(request, child.message, child.durationMs);
    }
    const BuildResult result = buildProgramSource(program, request, cache);
    // The compile was the child's: the window's build hit the entry it stored, which is news to nobody.
    if (child.cache == CacheState::Miss && result.cache() == CacheState::Hit)
        return result.compiledElsewhere(child.durationMs);
    return result;
}

bool CompilerChild::childThere() const
{
    if (!m_cli.isEmpty() && QFileInfo(m_cli).isExecutable())
        return true;
    warnOnce(QStringLiteral("%1 is not there").arg(m_cli.isEmpty() ? QStringLiteral("clscope-cli") : m_cli));
    return false;
}

void CompilerChild::warnOnce(const QString &why) const
{
    if (m_warned.exchange(true))
        return;
    // Once, not at every build: the window works as before, only without the protection.
    std::fprintf(stderr,
                 "clscope: warning: builds compile in the window's process (%s): a crash of the driver's "
                 "compiler ends the window\n",
                 qPrintable(why));
}

} // namespace clscope::ui
