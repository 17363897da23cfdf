// The workbench context: the current program and launch, and the services behind them.
#include "workbench.h"

namespace clscope::ui {

QString WorkbenchProgram::allText() const
{
    QString all = text;
    for (const BuildJobSource &part : more) {
        all += u'\n';
        all += part.text;
    }
    return all;
}

Workbench::Workbench(QObject *parent)
    : QObject(parent)
{
    setObjectName(QStringLiteral("workbench"));
}

void Workbench::setProgram(const WorkbenchProgram &program)
{
    m_program = program;
    emit programChanged();
}

void Workbench::publishLaunch(const ArgumentsState &launch)
{
    if (launch == m_launch)
        return;
    m_launch = launch;
    emit launchChanged();
}

QStringList Workbench::openLaunch(const ArgumentsState &launch)
{
    emit launchRequested(launch);
    if (!m_view)
        return {tr("there is no Arguments panel to open the launch in")};
    return m_view->openLaunch(launch);
}

} // namespace clscope::ui
