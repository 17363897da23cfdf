// The parts of the main window (panels, coordinators, the device manager) as tests reach them: through
// findChild, as any scripted user of the window does, since MainWindow has no accessors for tests.
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <QtGlobal>

namespace clscope::test {

// The window's one child of type T (named `name`, when given). A window without it, or with several, ends
// the test at once with a message that names the part: the test cannot go on without it.
template<class T> T *part(const QObject &window, const QString &name = {})
{
    const QList<T *> found = window.findChildren<T *>(name);
    if (found.size() != 1)
        qFatal("%s has %d parts of type %s%s%s, expected one", qPrintable(window.objectName()),
               int(found.size()), T::staticMetaObject.className(), name.isEmpty() ? "" : " named ",
               qPrintable(name));
    return found.front();
}

} // namespace clscope::test
