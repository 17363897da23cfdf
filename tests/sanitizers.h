// Test helper: the sanitizer runtimes of this (sanitized) test process, for the programs it starts with
// CLScope's layer in them. The asan preset builds the layer with ASan and UBSan; the programs it is loaded
// into (Python, clinfo) are not, so their runtimes must be preloaded, ASan's first.
#pragma once

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>

namespace clscope::test {

[[maybe_unused]] inline QStringList sanitizerRuntimes()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    QStringList found;
    if (!maps.open(QIODevice::ReadOnly))
        return found;
    for (const QByteArray &line : maps.readAll().split('\n')) {
        const QString path = QString::fromLocal8Bit(line.mid(line.indexOf('/')));
        const QString name = QFileInfo(path).fileName();
        if ((name.startsWith(QStringLiteral("libasan.so")) ||
             name.startsWith(QStringLiteral("libubsan.so"))) &&
            line.contains('/') && !found.contains(path))
            found << path;
    }
    // ASan's runtime must come first in the list of libraries.
    std::stable_sort(found.begin(), found.end(), [](const QString &a, const QString &b) {
        return a.contains(QStringLiteral("libasan")) && !b.contains(QStringLiteral("libasan"));
    });
    return found;
}

} // namespace clscope::test
