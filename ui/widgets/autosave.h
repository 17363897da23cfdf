// Crash-safe autosave storage for editor buffers: one folder per running instance, guarded by a
// QLockFile, so a restarted app can tell the autosaves of a dead instance from those of a live one.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <memory>
#include <vector>

class QLockFile;

namespace clscope::ui {

// One buffer left behind by an instance that did not close cleanly.
struct AutosaveRecord
{
    QString originalPath; // empty for a buffer that was never saved
    QString title;        // tab title without the modified mark
    QDateTime timestamp;  // when the autosave was written (UTC)
    QString text;         // the exact buffer text
    QString session;      // folder name of the session that wrote it
};

// Layout under the root (AppDataLocation/autosave by default):
//   session-<pid>-<n>.lock   QLockFile held while the instance lives (created before the folder)
//   session-<pid>-<n>/       <doc>.txt (UTF-8 text) and <doc>.json (path, title, timestamp)
// A session whose lock can be taken belongs to a dead instance; taking the lock claims its autosaves,
// so two instances starting together never both restore them.
class AutosaveStore
{
public:
    // An empty root means QStandardPaths::AppDataLocation + "/autosave".
    explicit AutosaveStore(const QString &root = QString());
    ~AutosaveStore();
    AutosaveStore(const AutosaveStore &) = delete;
    AutosaveStore &operator=(const AutosaveStore &) = delete;

    static QString defaultRoot();

    // False when the session folder or its lock could not be created; see error().
    bool isActive() const { return m_active; }
    // Tries again to create the session (the folder may have become creatable); true once active.
    bool reopen();
    QString error() const { return m_error; }
    QString root() const { return m_root; }
    QString sessionPath() const;

    // Writes (atomically, text first) the autosave of one document of this session.
    bool write(const QString &docId, const QString &text, const QString &originalPath, const QString &title);
    void remove(const QString &docId);
    bool contains(const QString &docId) const;

    // Autosaves of dead sessions. Claims them (holds their locks) until discarded or this store ends.
    QList<AutosaveRecord> orphans();
    // Deletes every claimed orphan session.
    void discardOrphans();

private:
    struct Claimed
    {
        QString name;
        std::unique_ptr<QLockFile> lock;
    };
    bool open();
    QString lockPath(const QString &session) const;
    void claimDeadSessions();
    static QList<AutosaveRecord> readSession(const QString &dir, const QString &session);
    void dropClaim(Claimed &claimed, bool deleteFiles);

    QString m_root;
    QString m_session;
    std::unique_ptr<QLockFile> m_lock;
    std::vector<Claimed> m_claimed;
    bool m_active = false;
    QString m_error;
};

} // namespace clscope::ui
