// The editor's recent files (recentfiles.h).
#include "recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace clscope::ui {

namespace {
const QString kRecentKey = QStringLiteral("editor/recentFiles");
constexpr int kMaxRecent = 10;
} // namespace

QStringList RecentFiles::list()
{
    QSettings settings;
    const QStringList stored = settings.value(kRecentKey).toStringList();
    QStringList out;
    for (const QString &path : stored) {
        if (out.size() < kMaxRecent && !out.contains(path) && QFileInfo(path).isFile())
            out << path;
    }
    if (out != stored)
        settings.setValue(kRecentKey, out);
    return out;
}

bool RecentFiles::add(const QString &path)
{
    QStringList list = RecentFiles::list();
    if (!list.isEmpty() && list.first() == path)
        return false;
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
    return true;
}

void RecentFiles::clear()
{
    QSettings().remove(kRecentKey);
}

} // namespace clscope::ui
