// Autosave: the on-disk store (folders, locks, recovery of what a dead instance left behind) and the
// EditorTabs side of it (the timer, writing modified buffers, restoring recovered ones).
#include "autosave.h"

#include "editortabs.h"
#include "files/filewatch.h"
#include "files/readfile.h"
#include "files/safewrite.h"
#include "kerneleditor.h"
#include "noticebar.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTimer>

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

// ---- EditorTabs: autosave and recovery ------------------------------------------------------

void EditorTabs::setAutosaveInterval(int msec)
{
    m_autosaveTimer->setInterval(qMax(1, msec));
}

int EditorTabs::autosaveInterval() const
{
    return m_autosaveTimer->interval();
}

void EditorTabs::removeAutosave(Document &doc)
{
    m_store->remove(doc.autosaveId);
    doc.autosavedEdits = 0;
}

int EditorTabs::autosaveNow()
{
    // A store that could not start (its folder was a file, the disk was full) is tried again each time.
    const bool storeOpen = m_store->reopen();
    int written = 0;
    bool failed = false;
    for (int i = 0; i < count(); ++i) {
        const KernelEditor *e = editor(i);
        Document *doc = document(i);
        if (!e || !doc)
            continue;
        if (!e->isModified()) {
            hideNotice(i, QStringLiteral("autosaveNotice")); // nothing left to lose
            continue;
        }
        if (storeOpen && doc->edits == doc->autosavedEdits && m_store->contains(doc->autosaveId))
            continue;
        if (storeOpen && m_store->write(doc->autosaveId, e->text(), doc->path, title(i))) {
            doc->autosavedEdits = doc->edits;
            ++written;
            hideNotice(i, QStringLiteral("autosaveNotice"));
            continue;
        }
        failed = true;
        if (m_destroying)
            continue;
        // Said in the window, without a modal box every few seconds: these edits are only in memory.
        NoticeBar *bar = showNotice(
            i, QStringLiteral("autosaveNotice"),
            tr("%1. Your changes to %2 are only in memory until they are saved; autosave keeps trying.")
                .arg(m_store->error(), title(i)));
        QPushButton *saveAsButton = bar->button(QStringLiteral("saveAsButton"), tr("Save As…"));
        disconnect(saveAsButton, nullptr, this, nullptr);
        connect(saveAsButton, &QPushButton::clicked, this, [this, e] {
            const int index = indexOf(const_cast<KernelEditor *>(e));
            const QString target = askSavePath(index);
            if (!target.isEmpty())
                saveAs(target, index);
        });
    }
    m_autosaveFailing = failed;
    m_autosaveError = failed ? m_store->error() : QString();
    if (failed) {
        m_lastError = m_autosaveError;
        m_autosaveTimer->start(); // keep trying
    }
    emit autosaved(written);
    return written;
}

QList<AutosaveRecord> EditorTabs::pendingRecoveries()
{
    return m_store->orphans();
}

int EditorTabs::restoreRecoveries()
{
    const QList<AutosaveRecord> records = m_store->orphans();
    static const QRegularExpression untitledPattern(QStringLiteral("^untitled-(\\d+)\\.cl$"));
    QList<KernelEditor *> restored;
    for (const AutosaveRecord &record : records) {
        const int existing = record.originalPath.isEmpty() ? -1 : indexOfPath(record.originalPath);
        if (existing >= 0) {
            KernelEditor *e = editor(existing);
            e->SendScintilla(QsciScintillaBase::SCI_SETTEXT, record.text.toUtf8().constData());
            restored << e;
            continue;
        }
        QString onDisk;
        QByteArray diskBytes;
        QString path;
        QString untitled;
        if (record.originalPath.isEmpty()) {
            const auto match = untitledPattern.match(record.title);
            if (match.hasMatch())
                m_untitledCounter = qMax(m_untitledCounter, match.captured(1).toInt());
            untitled = record.title.isEmpty() ? nextUntitledName() : record.title;
        } else {
            path = normalizedPath(record.originalPath);
            // The file as it is on disk becomes the unmodified state, so undo leads back to it.
            // Checked: what is at the path now may be a FIFO or a device.
            diskBytes = readCheckedFile(path, kMaxFileSize).bytes;
            onDisk = QString::fromUtf8(diskBytes);
        }
        const int index = addDocument(path, untitled, onDisk, &record.text);
        restored << editor(index);
        if (!path.isEmpty()) {
            document(index)->utf8Bom = diskBytes.startsWith("\xEF\xBB\xBF");
            m_watch->track(restored.last(), path, diskBytes);
        }
    }
    if (records.isEmpty())
        return 0;
    closePristineUntitled(count() - 1);
    // The claimed autosaves go only once this session holds its own copy of every restored buffer.
    autosaveNow();
    bool allSaved = m_store->isActive();
    for (const KernelEditor *e : std::as_const(restored)) {
        const Document *doc = document(indexOf(e));
        if (doc && e->isModified()) // an empty recovered buffer has nothing to keep
            allSaved = allSaved && m_store->contains(doc->autosaveId);
    }
    if (allSaved)
        m_store->discardOrphans();
    return int(records.size());
}

void EditorTabs::discardRecoveries()
{
    m_store->orphans(); // claims any dead session not seen yet
    m_store->discardOrphans();
}

} // namespace clscope::ui
