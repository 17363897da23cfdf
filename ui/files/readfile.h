// Every file the GUI reads goes through core's checked reader (clscope/fileio.h): a FIFO, /dev/zero, a
// socket or a folder is refused at once and without blocking, and a file larger than the reader's limit is
// refused from its size before a byte is read. This is the Qt face of it.
#pragma once

#include <QByteArray>
#include <QString>

namespace clscope::ui {

struct FileRead
{
    QByteArray bytes;
    QString error; // why not, as core says it ("not a regular file (a FIFO)"); null when bytes hold the file

    bool ok() const { return error.isNull(); }
};

// The whole file, at most maxBytes.
FileRead readCheckedFile(const QString &path, qint64 maxBytes);
// At most maxBytes from offset (fewer at the end): the head of a file, or what a log gained since offset.
FileRead readCheckedFileAt(const QString &path, qint64 offset, qint64 maxBytes);
// The SHA-256 of the file, read in pieces of any size.
FileRead hashCheckedFile(const QString &path);

} // namespace clscope::ui
