// Writing the user's files without ever leaving a truncated or empty one behind: every file the GUI
// writes goes through writeFileSafely. QSaveFile is not enough: in Qt 6.4 its commit() returns true
// when the buffered flush fails with ENOSPC, and renames a 0-byte file over the user's.
#pragma once

#include <QByteArray>
#include <QString>

class QImage;

namespace clscope::ui {

// Writes data to a new file in the target's folder, checking every write, fsyncs it, then renames it
// over the target (a symbolic link is followed, so the link stays and its target changes). An existing
// file keeps its permissions. Returns an empty string on success, else the reason by name ("No space
// left on device", "Permission denied"); on failure the target is untouched and no temporary file is
// left behind.
QString writeFileSafely(const QString &path, const QByteArray &data);

// Encodes an image (format from the suffix, PNG without one) and writes it with writeFileSafely.
QString writeImageSafely(const QString &path, const QImage &image);

// Creates a folder and its parents. Returns an empty string on success, else why not, naming the
// part of the path in the way ("/x/y is a file, not a folder").
QString makeFolder(const QString &path);

// The text of an errno value ("No space left on device").
QString errnoText(int error);

} // namespace clscope::ui
