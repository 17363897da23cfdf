// What a build was made from (BuildStamp), kept by BuildCoordinator for every build so that F5 runs only
// what the user sees (docs/architecture.md, "The workbench context").
#pragma once

#include "controllers/buildjobsource.h"
#include "controllers/workbench.h"
#include "widgets/kerneleditor.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace clscope::ui {

// Whether two paths name one file (never an empty one: an unsaved buffer is no file).
bool sameFile(const QString &a, const QString &b);

// Another open tab of a program built from every open tab (Build → Build open tabs as one program).
struct BuildStampPart
{
    QPointer<KernelEditor> editor;
    QString name; // its file, or for an unsaved tab its title (made unique): the diagnostics' file
    QString text;
    bool operator==(const BuildStampPart &o) const
    {
        return editor == o.editor && name == o.name && text == o.text;
    }
};

// What a build was made from: the tab, its text, the other tabs of the program, the options, the device,
// and when the headers it read last changed. F5 runs a build only while its stamp equals what the user sees
// now, so an edit in any tab of the program makes it stale.
struct BuildStamp
{
    QPointer<KernelEditor> editor;
    QString path;  // empty for an unsaved buffer
    QString title; // the tab's name
    QString text;
    QList<BuildStampPart> more; // the other tabs, in tab order, after this one; empty for one tab
    bool link = false;          // each tab compiled apart, the objects linked
    QString options;
    cl_device_id device = nullptr;
    QStringList headerTimes; // "path@mtime" of the headers the build read (a program file's own)
    // A tab of a program that is not OpenCL C (EditorTabs::openProgramFile): "binary", "il", "built-in"
    // (programsource.h's words), and its file (the names for built-ins); empty for a source.
    QString programKind;
    QString programFile;
    bool sameInput(const BuildStamp &o) const
    {
        return editor == o.editor && text == o.text && more == o.more && link == o.link &&
               options == o.options && device == o.device && headerTimes == o.headerTimes &&
               programKind == o.programKind && programFile == o.programFile;
    }
    // The other tabs as a build takes them.
    QList<BuildJobSource> moreSources() const;
    // What the Workbench context keeps of it (no result, no device snapshot).
    WorkbenchProgram program() const;
};

} // namespace clscope::ui
