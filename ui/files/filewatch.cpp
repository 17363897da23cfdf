// FileWatch: QFileSystemWatcher on each file and its folder, stat first, contents hash when the stat
// differs (a touch or a rewrite with the same text is not a change).
#include "filewatch.h"

#include "readfile.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

#include <utility>

namespace clscope::ui {

namespace {
// A burst of events (truncate, write, rename) is checked once, when it has settled.
constexpr int kCoalesceMs = 50;
} // namespace

FileWatch::FileWatch(QObject *parent)
    : QObject(parent)
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(kCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &FileWatch::checkPending);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &FileWatch::onPathChanged);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &FileWatch::onPathChanged);
}

FileWatch::Stamp FileWatch::stampOf(const QString &path)
{
    struct stat st = {};
    Stamp s;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return s;
    s.exists = true;
    s.size = qint64(st.st_size);
    s.mtimeNs = qint64(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    s.inode = quint64(st.st_ino);
    s.device = quint64(st.st_dev);
    return s;
}

QByteArray FileWatch::hashOf(const QString &path, bool *readable)
{
    // Checked: a FIFO or device put where the file was must neither block nor be read without end.
    const FileRead hash = hashCheckedFile(path);
    *readable = hash.ok();
    return hash.bytes;
}

void FileWatch::track(const QObject *owner, const QString &path, const QByteArray &contents)
{
    if (!m_entries.contains(owner))
        connect(owner, &QObject::destroyed, this, [this, owner] { untrack(owner); });
    Entry entry;
    entry.path = path;
    entry.stamp = stampOf(path);
    entry.hash = QCryptographicHash::hash(contents, QCryptographicHash::Sha256);
    m_entries.insert(owner, entry);
    // After our own save the name points at a new file: watch that one, not the replaced one.
    m_watcher.removePath(path);
    updateWatchedPaths();
}

void FileWatch::untrack(const QObject *owner)
{
    if (m_entries.remove(owner) > 0) {
        disconnect(owner, &QObject::destroyed, this, nullptr);
        updateWatchedPaths();
    }
}

bool FileWatch::differs(Entry &entry, const Stamp &now) const
{
    if (now == entry.stamp)
        return false;
    if (!now.exists || !entry.stamp.exists)
        return now.exists != entry.stamp.exists;
    bool readable = false;
    const QByteArray hash = hashOf(entry.path, &readable);
    if (!readable || hash != entry.hash)
        return true;
    entry.stamp = now; // the same bytes under a new stamp: remember it, so it is not read again
    return false;
}

bool FileWatch::isChangedOnDisk(const QObject *owner) const
{
    auto it = m_entries.constFind(owner);
    if (it == m_entries.cend())
        return false;
    // differs() only caches a stamp that proved to hold the same bytes.
    return differs(const_cast<Entry &>(*it), stampOf(it->path));
}

bool FileWatch::isDeletedOnDisk(const QObject *owner) const
{
    auto it = m_entries.constFind(owner);
    return it != m_entries.cend() && it->stamp.exists && !QFileInfo::exists(it->path);
}

void FileWatch::acknowledge(const QObject *owner)
{
    auto it = m_entries.find(owner);
    if (it == m_entries.end())
        return;
    it->stamp = stampOf(it->path);
    bool readable = false;
    it->hash = it->stamp.exists ? hashOf(it->path, &readable) : QByteArray();
    it->hasNotified = false;
}

QStringList FileWatch::watchedPaths() const
{
    QStringList out = m_watcher.files() + m_watcher.directories();
    out.sort();
    return out;
}

void FileWatch::onPathChanged(const QString &path)
{
    // A file's own event or its folder's (created, deleted, renamed over): check the files of that folder.
    m_pending.insert(QFileInfo(path).isDir() ? path : QFileInfo(path).absolutePath());
    m_coalesce.start();
}

void FileWatch::checkPending()
{
    const QSet<QString> folders = std::exchange(m_pending, {});
    // A file replaced by rename is a new inode that the watcher no longer follows: watch it again.
    for (const Entry &e : std::as_const(m_entries)) {
        if (folders.contains(QFileInfo(e.path).absolutePath()))
            m_watcher.removePath(e.path);
    }
    updateWatchedPaths();
    QList<const QObject *> changed;
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (!folders.contains(QFileInfo(it->path).absolutePath()))
            continue;
        const Stamp now = stampOf(it->path);
        if (!differs(*it, now)) {
            it->hasNotified = false;
            continue;
        }
        if (it->hasNotified && it->notified == now)
            continue;
        it->notified = now;
        it->hasNotified = true;
        changed << it.key();
    }
    for (const QObject *owner : std::as_const(changed))
        emit changedOnDisk(owner);
}

void FileWatch::updateWatchedPaths()
{
    QSet<QString> files, folders;
    for (const Entry &e : std::as_const(m_entries)) {
        folders.insert(QFileInfo(e.path).absolutePath());
        if (QFileInfo::exists(e.path))
            files.insert(e.path);
    }
    const QStringList watchedFiles = m_watcher.files();
    const QStringList watchedFolders = m_watcher.directories();
    for (const QString &f : watchedFiles) {
        if (!files.contains(f))
            m_watcher.removePath(f);
    }
    for (const QString &d : watchedFolders) {
        if (!folders.contains(d))
            m_watcher.removePath(d);
    }
    QStringList add;
    for (const QString &f : std::as_const(files)) {
        if (!watchedFiles.contains(f))
            add << f;
    }
    for (const QString &d : std::as_const(folders)) {
        if (!watchedFolders.contains(d))
            add << d;
    }
    if (!add.isEmpty())
        m_watcher.addPaths(add);
}

} // namespace clscope::ui
