// A full disk for tests: a small tmpfs mounted on a folder (root only) and filled to the last byte.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <cerrno>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

class FullDisk
{
public:
    // Mounts a tmpfs of `bytes` on `folder` (created if needed). Check isMounted(): it fails when not root.
    explicit FullDisk(const QString &folder, int bytes = 64 * 1024)
        : m_folder(folder)
    {
        QDir().mkpath(folder);
        if (::geteuid() != 0)
            return;
        const QByteArray options = "size=" + QByteArray::number(bytes);
        m_mounted =
            ::mount("tmpfs", QFile::encodeName(folder).constData(), "tmpfs", 0, options.constData()) == 0;
    }
    ~FullDisk()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_folder).constData(), MNT_DETACH);
    }
    FullDisk(const FullDisk &) = delete;
    FullDisk &operator=(const FullDisk &) = delete;

    bool isMounted() const { return m_mounted; }
    QString filler() const { return m_folder + QStringLiteral("/.filler"); }

    // Writes into a filler file until the file system says ENOSPC; true when it did.
    bool fill()
    {
        const int fd = ::open(QFile::encodeName(filler()).constData(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd < 0)
            return false;
        const QByteArray block(4096, 'x');
        int error = 0;
        for (;;) {
            if (::write(fd, block.constData(), std::size_t(block.size())) < 0) {
                error = errno;
                break;
            }
        }
        // The last partial page: single bytes until not even one fits.
        while (error == ENOSPC && ::write(fd, "x", 1) == 1) {
        }
        ::close(fd);
        return error == ENOSPC;
    }
    void free() { QFile::remove(filler()); }

private:
    QString m_folder;
    bool m_mounted = false;
};

// Skips the test unless the tmpfs could be mounted (as root).
#define REQUIRE_TMPFS(disk)                                                                                  \
    do {                                                                                                     \
        if (!(disk).isMounted())                                                                             \
            QSKIP("mounting a tmpfs needs root: the full-disk case is not tested as this user");             \
    } while (false)
