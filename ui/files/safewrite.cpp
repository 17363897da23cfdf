// writeFileSafely: temporary file in the same folder, checked writes, fsync, rename, fsync of the folder.
#include "safewrite.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clscope::ui {

namespace {
// Retries a system call interrupted by a signal.
template<typename F> auto retry(F call)
{
    decltype(call()) result;
    do {
        result = call();
    } while (result == -1 && errno == EINTR);
    return result;
}

// Opens a new file next to the target, named after it. The kernel applies the umask, so a new file gets
// the same permissions as any other file the user creates.
int createTemporary(const QString &folder, const QString &name, QByteArray *tempPath)
{
    for (int attempt = 0; attempt < 100; ++attempt) {
        const QString candidate = folder + u'/' + u'.' + name + u'.' +
                                  QString::number(QRandomGenerator::global()->generate(), 36) +
                                  QStringLiteral(".tmp");
        *tempPath = QFile::encodeName(candidate);
        const int fd = retry(
            [&] { return ::open(tempPath->constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666); });
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

bool writeAll(int fd, const QByteArray &data)
{
    const char *p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n = retry([&] { return ::write(fd, p, std::size_t(left)); });
        if (n < 0)
            return false;
        if (n == 0) { // never expected from a regular file; do not spin
            errno = EIO;
            return false;
        }
        p += n;
        left -= n;
    }
    return true;
}
} // namespace

QString errnoText(int error)
{
    return qt_error_string(error);
}

QString writeFileSafely(const QString &path, const QByteArray &data)
{
    if (path.isEmpty())
        return QStringLiteral("no file name");
    QFileInfo info(path);
    // Follow links to the file they name: replacing the link itself would cut it off from its target.
    QString target = info.absoluteFilePath();
    if (info.isSymLink()) {
        const QString linked = info.symLinkTarget();
        if (!linked.isEmpty())
            target = linked;
        info = QFileInfo(target);
    }
    if (info.exists() && !info.isFile())
        return QStringLiteral("%1 is not a regular file").arg(QDir::toNativeSeparators(target));
    const QString folder = info.absolutePath();
    const QByteArray targetName = QFile::encodeName(target);

    struct stat existing = {};
    const bool replacing = ::stat(targetName.constData(), &existing) == 0;
    // A file the user may not write stays as it is, as QSaveFile refused it too (renaming over it
    // would only need the folder's permission).
    if (replacing && ::access(targetName.constData(), W_OK) != 0)
        return errnoText(errno);

    QByteArray tempPath;
    const int fd = createTemporary(folder, info.fileName(), &tempPath);
    if (fd < 0)
        return errnoText(errno);
    auto fail = [&](int error, bool open) {
        if (open)
            ::close(fd);
        ::unlink(tempPath.constData());
        return errnoText(error);
    };
    if (replacing) {
        // Keep the mode of the file being replaced; its owner too where we may (root editing a user's file).
        if (::fchmod(fd, existing.st_mode & 07777) != 0)
            return fail(errno, true);
        if ((existing.st_uid != ::geteuid() || existing.st_gid != ::getegid()) &&
            ::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
            // Not permitted to an ordinary user: the new file stays theirs, as with any editor.
        }
    }
    if (!writeAll(fd, data))
        return fail(errno, true);
    // The data must be on the disk before the name points at it, or a power cut leaves an empty file.
    if (retry([&] { return ::fsync(fd); }) != 0)
        return fail(errno, true);
    if (::close(fd) != 0) // NFS reports write errors as late as this
        return fail(errno, false);
    if (::rename(tempPath.constData(), targetName.constData()) != 0)
        return fail(errno, false);
    // Make the rename itself durable. The file is already complete under its name, so a folder that
    // cannot be synced (some file systems refuse) is not a failed save.
    const int dir = retry(
        [&] { return ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); });
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return {};
}

QString writeImageSafely(const QString &path, const QImage &image)
{
    QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    if (format.isEmpty() || !QImageWriter::supportedImageFormats().contains(format))
        format = "png";
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (!writer.write(image))
        return writer.errorString();
    return writeFileSafely(path, buffer.data());
}

QString makeFolder(const QString &path)
{
    const QString clean = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    if (QFileInfo(clean).isDir())
        return {};
    // Find the deepest part that exists: if it is not a folder, that is the reason.
    QString existing = clean;
    while (!QFileInfo::exists(existing) && existing != QDir::rootPath())
        existing = QFileInfo(existing).absolutePath();
    if (!QFileInfo(existing).isDir())
        return QStringLiteral("%1 is a file, not a folder").arg(QDir::toNativeSeparators(existing));
    // Create the rest one level at a time, so the error names the level that failed.
    const QStringList rest = clean.mid(existing.size()).split(u'/', Qt::SkipEmptyParts);
    QString current = existing == QDir::rootPath() ? QString() : existing;
    for (const QString &part : rest) {
        current += u'/' + part;
        if (::mkdir(QFile::encodeName(current).constData(), 0777) != 0 && errno != EEXIST)
            return QStringLiteral("cannot create %1: %2")
                .arg(QDir::toNativeSeparators(current), errnoText(errno));
        if (!QFileInfo(current).isDir())
            return QStringLiteral("%1 is a file, not a folder").arg(QDir::toNativeSeparators(current));
    }
    return {};
}

} // namespace clscope::ui
