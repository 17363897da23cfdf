// The editor's recent files, kept in QSettings: most recent first, at most 10, files that no longer exist
// pruned when the list is read.
#pragma once

#include <QStringList>

namespace clscope::ui {

class RecentFiles
{
public:
    static QStringList list();
    // Puts a file first; false when it was first already (nothing changed).
    static bool add(const QString &path);
    static void clear();
};

} // namespace clscope::ui
