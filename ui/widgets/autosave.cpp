// Autosave's on-disk store: folders, locks, recovery of what a dead instance left behind (the editor's
// side of it, the timer and the buffers, is editorautosave.cpp).
#include "autosave.h"

#include "files/readfile.h"
#include "files/safewrite.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSet>
#include <QStandardPaths>

#include <atomic>

namespace clscope::ui {

namespace {
const QString kSessionPrefix = QStringLiteral("session-");
const QString kLockSuffix = QStringLiteral(".lock");
const QString kTextSuffix = QStringLiteral(".txt");
const QString kMetaSuffix = QStringLiteral(".json");
constexpr qint64 kMaxMetaBytes = 1 << 20;  // an autosave's JSON: a path, a title and a time
constexpr qint64 kMaxTextBytes = 64 << 20; // an autosaved text (the editor opens files of up to 32 MiB)

bool writeAtomically(const QString &path, const QByteArray &data, QString *error)
{
    *error = writeFileSafely(path, data);
    return error->isEmpty();
}

std::unique_ptr<QLockFile> makeLock(const QString &path)
{
    auto lock = std::make_unique<QLockFile>(path);
    // Only a dead owner makes a lock stale: a live instance idle for hours keeps its autosaves.
    lock->setStaleLockTime(0);
    return lock;
}
} // namespace

AutosaveStore::AutosaveStore(const QString &root)
    : m_root(root.isEmpty() ? defaultRoot() : root)
{
    open();
}

bool AutosaveStore::reopen()
{
    return m_active || open();
}

bool AutosaveStore::open()
{
    const QString why = m_root.isEmpty() ? QStringLiteral("no writable data location") : makeFolder(m_root);
    if (!why.isEmpty()) {
        m_error = QCoreApplication::translate("AutosaveStore", "Cannot create the autosave folder %1: %2")
                      .arg(QDir::toNativeSeparators(m_root), why);
        return false;
    }
    static std::atomic<int> counter{0};
    // The lock comes first: a folder without a held lock would look abandoned to another instance.
    for (int attempt = 0; attempt < 100 && !m_lock; ++attempt) {
        const QString name = kSessionPrefix + QString::number(QCoreApplication::applicationPid()) + u'-' +
                             QString::number(QDateTime::currentMSecsSinceEpoch(), 36) + u'-' +
                             QString::number(counter++);
        auto lock = makeLock(lockPath(name));
        if (lock->tryLock(0)) {
            m_lock = std::move(lock);
            m_session = name;
        }
    }
    const QString folderError = m_lock ? makeFolder(sessionPath()) : QString();
    if (!m_lock || !folderError.isEmpty()) {
        m_error = QCoreApplication::translate("AutosaveStore", "Cannot lock an autosave session in %1%2")
                      .arg(QDir::toNativeSeparators(m_root),
                           folderError.isEmpty() ? QString() : QStringLiteral(": ") + folderError);
        m_lock.reset();
        m_session.clear();
        return false;
    }
    m_active = true;
    m_error.clear();
    return true;
}

AutosaveStore::~AutosaveStore()
{
    for (Claimed &claimed : m_claimed)
        dropClaim(claimed, false);
    if (m_active) {
        // A clean exit with nothing unsaved leaves nothing behind; unsaved buffers stay recoverable.
        QDir dir(sessionPath());
        if (dir.isEmpty(QDir::Files | QDir::NoDotAndDotDot))
            dir.removeRecursively();
    }
    m_lock.reset();
}

QString AutosaveStore::defaultRoot()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return base.isEmpty() ? QString() : base + QStringLiteral("/autosave");
}

QString AutosaveStore::sessionPath() const
{
    return m_session.isEmpty() ? QString() : m_root + u'/' + m_session;
}

QString AutosaveStore::lockPath(const QString &session) const
{
    return m_root + u'/' + session + kLockSuffix;
}

bool AutosaveStore::write(const QString &docId, const QString &text, const QString &originalPath,
                          const QString &title)
{
    if (!m_active)
        return false;
    const QString dir = sessionPath();
    if (const QString why = makeFolder(dir); !why.isEmpty()) {
        m_error = QCoreApplication::translate("AutosaveStore", "Autosave failed: %1").arg(why);
        return false;
    }
    QJsonObject meta;
    meta.insert(QStringLiteral("version"), 1);
    meta.insert(QStringLiteral("path"), originalPath);
    meta.insert(QStringLiteral("title"), title);
    meta.insert(QStringLiteral("timestamp"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    // Text first: a crash between the two writes leaves new text with old metadata, never the reverse.
    QString error;
    if (!writeAtomically(dir + u'/' + docId + kTextSuffix, text.toUtf8(), &error) ||
        !writeAtomically(dir + u'/' + docId + kMetaSuffix, QJsonDocument(meta).toJson(), &error)) {
        m_error = QCoreApplication::translate("AutosaveStore", "Autosave failed: %1").arg(error);
        return false;
    }
    return true;
}

void AutosaveStore::remove(const QString &docId)
{
    if (!m_active)
        return;
    const QString base = sessionPath() + u'/' + docId;
    QFile::remove(base + kMetaSuffix);
    QFile::remove(base + kTextSuffix);
}

bool AutosaveStore::contains(const QString &docId) const
{
    return m_active && QFile::exists(sessionPath() + u'/' + docId + kTextSuffix);
}

void AutosaveStore::claimDeadSessions()
{
    const QDir root(m_root);
    QSet<QString> names;
    const QStringList dirs = root.entryList({kSessionPrefix + u'*'}, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &d : dirs)
        names.insert(d);
    const QStringList locks = root.entryList({kSessionPrefix + u'*' + kLockSuffix}, QDir::Files);
    for (const QString &l : locks)
        names.insert(l.chopped(kLockSuffix.size()));
    names.remove(m_session);
    for (const Claimed &c : m_claimed)
        names.remove(c.name);

    QStringList sorted(names.begin(), names.end());
    sorted.sort();
    for (const QString &name : std::as_const(sorted)) {
        auto lock = makeLock(lockPath(name));
        // Fails while the owner lives (its pid runs and it holds the lock); succeeds once it is gone.
        if (!lock->tryLock(0))
            continue;
        Claimed claimed{name, std::move(lock)};
        if (readSession(m_root + u'/' + name, name).isEmpty())
            dropClaim(claimed, true); // an abandoned session with nothing unsaved: just tidy up
        else
            m_claimed.push_back(std::move(claimed));
    }
}

QList<AutosaveRecord> AutosaveStore::readSession(const QString &dirPath, const QString &session)
{
    QList<AutosaveRecord> out;
    const QDir dir(dirPath);
    const QStringList texts = dir.entryList({u'*' + kTextSuffix}, QDir::Files, QDir::Name);
    for (const QString &textName : texts) {
        const QString textPath = dir.filePath(textName);
        const FileRead text = readCheckedFile(textPath, kMaxTextBytes);
        if (!text.ok())
            continue;
        AutosaveRecord record;
        record.session = session;
        record.text = QString::fromUtf8(text.bytes);
        const FileRead metaFile =
            readCheckedFile(dir.filePath(textName.chopped(kTextSuffix.size()) + kMetaSuffix), kMaxMetaBytes);
        if (metaFile.ok()) {
            const QJsonObject meta = QJsonDocument::fromJson(metaFile.bytes).object();
            record.originalPath = meta.value(QStringLiteral("path")).toString();
            record.title = meta.value(QStringLiteral("title")).toString();
            record.timestamp =
                QDateTime::fromString(meta.value(QStringLiteral("timestamp")).toString(), Qt::ISODateWithMs);
        }
        if (!record.timestamp.isValid())
            record.timestamp = QFileInfo(textPath).lastModified().toUTC();
        out << record;
    }
    return out;
}

QList<AutosaveRecord> AutosaveStore::orphans()
{
    if (m_root.isEmpty())
        return {};
    claimDeadSessions();
    QList<AutosaveRecord> out;
    for (const Claimed &c : m_claimed)
        out << readSession(m_root + u'/' + c.name, c.name);
    return out;
}

void AutosaveStore::dropClaim(Claimed &claimed, bool deleteFiles)
{
    if (deleteFiles)
        QDir(m_root + u'/' + claimed.name).removeRecursively();
    claimed.lock.reset(); // unlocking removes the lock file
}

void AutosaveStore::discardOrphans()
{
    for (Claimed &claimed : m_claimed)
        dropClaim(claimed, true);
    m_claimed.clear();
}

} // namespace clscope::ui
