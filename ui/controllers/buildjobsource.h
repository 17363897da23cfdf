// The other sources of a program built from several open tabs, as the build controllers take them. Apart from
// buildcontroller.h so that the run-on-all-devices and build-matrix controllers take them without its
// metatype declarations.
#pragma once

#include "clscope/build.h"

#include <QList>
#include <QString>

namespace clscope::ui {

// One more source of a program built from several (another open tab): what its diagnostics are named by,
// and the editor's text.
struct BuildJobSource
{
    QString path; // the file, or an unsaved tab's name (then never read: the text is what is built)
    QString text;

    bool operator==(const BuildJobSource &) const = default;
};

// Puts a program's other sources and its link choice into a request (every build of the GUI's current
// program, on one device or on many, is made of the same sources). Implemented in buildcontroller.cpp.
void addSources(BuildRequest &request, const QList<BuildJobSource> &moreSources, bool link);

} // namespace clscope::ui
