// A build's stamp as the workbench context and the build job take it.
#include "buildstamp.h"

#include <QFileInfo>

namespace clscope::ui {

bool sameFile(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    return QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

WorkbenchProgram BuildStamp::program() const
{
    WorkbenchProgram p;
    p.editor = editor.data();
    p.path = path;
    p.title = title;
    p.text = text;
    p.more = moreSources();
    p.link = link;
    p.options = options;
    p.device = device;
    return p;
}

QList<BuildJobSource> BuildStamp::moreSources() const
{
    QList<BuildJobSource> sources;
    for (const BuildStampPart &part : more)
        sources.push_back({part.name, part.text});
    return sources;
}

} // namespace clscope::ui
