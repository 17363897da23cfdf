// The editor's autosave (editorautosave.h).
#include "editorautosave.h"

#include "editorfiles.h"
#include "editortabs.h"
#include "files/readfile.h"
#include "kerneleditor.h"
#include "noticebar.h"

#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>

namespace clscope::ui {

namespace {
constexpr int kDefaultAutosaveMs = 3000;
} // namespace

EditorAutosave::EditorAutosave(EditorTabs &tabs)
    : QObject(&tabs)
    , m_tabs(tabs)
    , m_store(std::make_unique<AutosaveStore>())
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(kDefaultAutosaveMs);
    connect(m_timer, &QTimer::timeout, this, [this] { saveNow(); });
}

EditorAutosave::~EditorAutosave() = default;

void EditorAutosave::setInterval(int msec)
{
    m_timer->setInterval(qMax(1, msec));
}

int EditorAutosave::interval() const
{
    return m_timer->interval();
}

void EditorAutosave::edited()
{
    if (!m_timer->isActive()) // also while the store is down: saveNow retries it
        m_timer->start();
}

void EditorAutosave::finalSave()
{
    m_timer->stop();
    m_destroying = true; // no notices now: widgets cannot be made while the window goes
    saveNow();
}

void EditorAutosave::remove(EditorDocument &doc)
{
    m_store->remove(doc.autosaveId);
    doc.autosavedEdits = 0;
}

int EditorAutosave::saveNow()
{
    // A store that could not start (its folder was a file, the disk was full) is tried again each time.
    const bool storeOpen = m_store->reopen();
    int written = 0;
    bool failed = false;
    for (int i = 0; i < m_tabs.count(); ++i) {
        const KernelEditor *e = m_tabs.editor(i);
        EditorDocument *doc = m_tabs.document(i);
        if (!e || !doc)
            continue;
        if (!e->isModified()) {
            m_tabs.hideNotice(i, QStringLiteral("autosaveNotice")); // nothing left to lose
            continue;
        }
        if (storeOpen && doc->edits == doc->autosavedEdits && m_store->contains(doc->autosaveId))
            continue;
        if (storeOpen && m_store->write(doc->autosaveId, e->text(), doc->path, m_tabs.title(i))) {
            doc->autosavedEdits = doc->edits;
            ++written;
            m_tabs.hideNotice(i, QStringLiteral("autosaveNotice"));
            continue;
        }
        failed = true;
        if (m_destroying)
            continue;
        // Said in the window, without a modal box every few seconds: these edits are only in memory.
        NoticeBar *bar = m_tabs.showNotice(
            i, QStringLiteral("autosaveNotice"),
            tr("%1. Your changes to %2 are only in memory until they are saved; autosave keeps trying.")
                .arg(m_store->error(), m_tabs.title(i)));
        QPushButton *saveAsButton = bar->button(QStringLiteral("saveAsButton"), tr("Save As…"));
        disconnect(saveAsButton, nullptr, this, nullptr);
        connect(saveAsButton, &QPushButton::clicked, this, [this, e] {
            const int index = m_tabs.indexOf(const_cast<KernelEditor *>(e));
            const QString target = m_tabs.m_files->askSavePath(index);
            if (!target.isEmpty())
                m_tabs.saveAs(target, index);
        });
    }
    m_error = failed ? m_store->error() : QString();
    if (failed) {
        m_tabs.m_lastError = m_error;
        m_timer->start(); // keep trying
    }
    emit m_tabs.autosaved(written);
    return written;
}

QList<AutosaveRecord> EditorAutosave::pendingRecoveries()
{
    return m_store->orphans();
}

int EditorAutosave::restoreRecoveries()
{
    const QList<AutosaveRecord> records = m_store->orphans();
    static const QRegularExpression untitledPattern(QStringLiteral("^untitled-(\\d+)\\.cl$"));
    QList<KernelEditor *> restored;
    for (const AutosaveRecord &record : records) {
        const int existing = record.originalPath.isEmpty() ? -1 : m_tabs.indexOfPath(record.originalPath);
        if (existing >= 0) {
            KernelEditor *e = m_tabs.editor(existing);
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
                m_tabs.m_untitledCounter = qMax(m_tabs.m_untitledCounter, match.captured(1).toInt());
            untitled = record.title.isEmpty() ? m_tabs.nextUntitledName() : record.title;
        } else {
            path = EditorTabs::normalizedPath(record.originalPath);
            // The file as it is on disk becomes the unmodified state, so undo leads back to it.
            // Checked: what is at the path now may be a FIFO or a device.
            diskBytes = readCheckedFile(path, EditorTabs::kMaxFileSize).bytes;
            onDisk = QString::fromUtf8(diskBytes);
        }
        const int index = m_tabs.addDocument(path, untitled, onDisk, &record.text);
        restored << m_tabs.editor(index);
        if (!path.isEmpty()) {
            m_tabs.document(index)->utf8Bom = diskBytes.startsWith("\xEF\xBB\xBF");
            m_tabs.m_files->track(restored.last(), path, diskBytes);
        }
    }
    if (records.isEmpty())
        return 0;
    m_tabs.closePristineUntitled(m_tabs.count() - 1);
    // The claimed autosaves go only once this session holds its own copy of every restored buffer.
    saveNow();
    bool allSaved = m_store->isActive();
    for (const KernelEditor *e : std::as_const(restored)) {
        const EditorDocument *doc = m_tabs.document(m_tabs.indexOf(e));
        if (doc && e->isModified()) // an empty recovered buffer has nothing to keep
            allSaved = allSaved && m_store->contains(doc->autosaveId);
    }
    if (allSaved)
        m_store->discardOrphans();
    return int(records.size());
}

void EditorAutosave::discardRecoveries()
{
    m_store->orphans(); // claims any dead session not seen yet
    m_store->discardOrphans();
}

} // namespace clscope::ui
