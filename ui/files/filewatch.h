// Watches the files open in the editor and tells when one is no longer what its document loaded or last
// saved: changed by another program, replaced (editors and git write a new file and rename it over the
// old one), or deleted. Our own saves are not reported: the document tells the watch what it wrote.
#pragma once

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

namespace clscope::ui {

class FileWatch : public QObject
{
    Q_OBJECT
public:
    explicit FileWatch(QObject *parent = nullptr);

    // `owner` (a document) holds `contents` as the file at `path` is now: just loaded or just saved.
    // Forgotten when the owner is destroyed.
    void track(const QObject *owner, const QString &path, const QByteArray &contents);
    void untrack(const QObject *owner);
    bool isTracked(const QObject *owner) const { return m_entries.contains(owner); }

    // The file is not what the owner last loaded, saved or acknowledged.
    bool isChangedOnDisk(const QObject *owner) const;
    bool isDeletedOnDisk(const QObject *owner) const;
    // The owner keeps its own text: the file as it is now counts as seen, until it changes again.
    void acknowledge(const QObject *owner);

    // What the underlying QFileSystemWatcher watches now (files and their folders), for tests.
    QStringList watchedPaths() const;

signals:
    // Sent once per change the owner has not been told about yet.
    void changedOnDisk(const QObject *owner);

private:
    struct Stamp
    {
        bool exists = false;
        qint64 size = 0;
        qint64 mtimeNs = 0;
        quint64 inode = 0;
        quint64 device = 0;
        bool operator==(const Stamp &) const = default;
    };
    struct Entry
    {
        QString path;
        Stamp stamp;     // of the version the owner knows
        QByteArray hash; // of its contents
        Stamp notified;  // the version last reported, so each change is reported once
        bool hasNotified = false;
    };

    static Stamp stampOf(const QString &path);
    static QByteArray hashOf(const QString &path, bool *readable);
    bool differs(Entry &entry, const Stamp &now) const;
    void onPathChanged(const QString &path);
    void checkPending();
    void updateWatchedPaths();

    QFileSystemWatcher m_watcher;
    QHash<const QObject *, Entry> m_entries;
    QSet<QString> m_pending; // folders whose files are to be checked
    QTimer m_coalesce;
};

} // namespace clscope::ui
