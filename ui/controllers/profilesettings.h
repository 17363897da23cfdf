// What File → Profile application… asks for (the program, its arguments, folder and environment, which
// launches keep their contents, the timestamps, where the capture goes), remembered per program. Qt Core.
#pragma once

#include <QString>
#include <QStringList>

namespace clscope::ui {

struct ProfileSettings
{
    QString program;
    QStringList arguments;
    QString workingFolder;
    QStringList environment; // KEY=VALUE
    enum class Contents { None, Kernels, All } contents = Contents::None;
    QStringList kernels;
    quint64 budgetBytes = 256ull << 20; // for All
    // Device times of the commands the program passed no event for (CaptureTimestamps::every): 1 every
    // one, N one in N, 0 none (only the program's own events).
    quint32 timestampEvery = 1;
    QString output; // the capture file

    // The settings last used for this program (QSettings), or the defaults for it.
    static ProfileSettings remembered(const QString &program);
    static bool isRemembered(const QString &program);
    void remember() const;
    // A new file in the application's captures folder, named after the script or program and the time.
    QString suggestedOutput() const;
    // A problem with them (no program, a folder that is not there, a bad KEY=VALUE), or empty.
    QString problem() const;
};

} // namespace clscope::ui
