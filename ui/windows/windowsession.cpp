// The window's session between runs (windowsession.h).
#include "windowsession.h"

#include "capturecoordinator.h"
#include "widgets/editortabs.h"

#include <QFileInfo>
#include <QSettings>

namespace clscope::ui::windowsession {

namespace {

const QString kFilesKey = QStringLiteral("window/openFiles");
const QString kOptionsKey = QStringLiteral("window/openFileOptions");
const QString kCaptureKey = QStringLiteral("window/openCapture");

} // namespace

void restore(EditorTabs &editors, CaptureCoordinator &captures)
{
    const QSettings settings;
    editors.restoreSession(settings.value(kFilesKey).toStringList(), settings.value(kOptionsKey).toMap());
    const QString capture = settings.value(kCaptureKey).toString();
    if (!capture.isEmpty() && QFileInfo(capture).isFile())
        captures.openCapture(capture);
}

bool closeAndSave(EditorTabs &editors, const CaptureCoordinator &captures, QSettings &settings)
{
    const QStringList files = editors.sessionEntries();
    const QVariantMap options = editors.sessionOptions();
    if (!editors.closeAllAsking())
        return false; // the user cancelled: nothing typed may be lost
    settings.setValue(kFilesKey, files);
    settings.setValue(kOptionsKey, options);
    // A capture still being written is not one to open again; a finished or opened one is.
    const QString capture = captures.capturePath();
    settings.setValue(kCaptureKey, !captures.isProfiling() && QFileInfo(capture).isFile()
                                       ? QFileInfo(capture).absoluteFilePath()
                                       : QString());
    return true;
}

} // namespace clscope::ui::windowsession
