// Editor tabs: document bookkeeping, atomic saves, recent files, drops, samples and autosave/recovery.
#include "editortabs.h"

#include "files/filewatch.h"
#include "files/safewrite.h"
#include "files/textfile.h"
#include "kerneleditor.h"
#include "noticebar.h"

#include <Qsci/qsciapis.h>
#include <Qsci/qscilexer.h>

#include <QCoreApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLayout>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QUrl>

namespace clscope::ui {

namespace {
const QString kRecentKey = QStringLiteral("editor/recentFiles");
constexpr int kMaxRecent = 10;
constexpr int kDefaultAutosaveMs = 3000;
const QByteArray kUtf8Bom("\xEF\xBB\xBF");

// QsciAPIs prepares completions on a worker thread that calls back into the lexer. Deleted as the
// lexer's child it joins that thread only once the lexer is half destroyed, and the worker crashes on
// the dead vtable. So stop it while the lexer is whole, then drop the "finished" event the worker may
// already have posted (QsciAPIs would dereference the deleted worker on it). Safe to repeat.
void stopCompletionWorker(KernelEditor *e)
{
    if (auto *apis = e->lexer() ? qobject_cast<QsciAPIs *>(e->lexer()->apis()) : nullptr) {
        apis->cancelPreparation();
        QCoreApplication::removePostedEvents(apis);
    }
}
} // namespace

EditorTabs::EditorTabs(QWidget *parent)
    : QTabWidget(parent)
    , m_store(std::make_unique<AutosaveStore>())
    , m_autosaveTimer(new QTimer(this))
    , m_watch(new FileWatch(this))
{
    setObjectName(QStringLiteral("editorTabs"));
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    setAcceptDrops(true);
    if (!m_store->isActive())
        m_lastError = m_store->error();

    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(kDefaultAutosaveMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, [this] { autosaveNow(); });
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) { closeTab(index); });
    connect(this, &QTabWidget::currentChanged, this, &EditorTabs::onCurrentChanged);
    connect(m_watch, &FileWatch::changedOnDisk, this, [this](const QObject *owner) {
        for (int i = 0; i < count(); ++i) {
            if (editor(i) == owner)
                onChangedOnDisk(i);
        }
    });
}

EditorTabs::~EditorTabs()
{
    m_autosaveTimer->stop();
    m_destroying = true; // no notices now: widgets cannot be made while the window goes
    // Whatever is still unsaved goes to disk now, so quitting without a prompt loses nothing.
    autosaveNow();
    disconnect(this, nullptr, this, nullptr);
    for (int i = 0; i < count(); ++i) {
        if (KernelEditor *e = editor(i)) {
            disconnect(e, nullptr, this, nullptr);
            e->viewport()->removeEventFilter(this);
            stopCompletionWorker(e);
        }
    }
}

QString EditorTabs::normalizedPath(const QString &path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

// ---- documents -------------------------------------------------------------------------------

int EditorTabs::addDocument(const QString &path, const QString &untitledName, const QString &savedText,
                            const QString *modifiedText)
{
    auto *e = new KernelEditor;
    e->setText(savedText); // also empties the undo history
    e->setModified(false);
    Document doc;
    doc.path = path;
    doc.untitledName = untitledName;
    doc.autosaveId = QStringLiteral("doc-%1").arg(++m_docCounter, 6, 10, QLatin1Char('0'));
    if (modifiedText) {
        // One undoable step on top of the saved text: undo gets back to what is on disk.
        e->SendScintilla(QsciScintillaBase::SCI_SETTEXT, modifiedText->toUtf8().constData());
        doc.edits = 1;
    }
    m_documents.insert(e, doc);

    connect(e, &QsciScintilla::modificationChanged, this,
            [this, e](bool modified) { onModificationChanged(e, modified); });
    connect(e, &QsciScintilla::textChanged, this, [this, e] { onTextChanged(e); });
    e->viewport()->installEventFilter(this);

    const int index = addTab(e, QString());
    updateTabText(index);
    setCurrentIndex(index);
    return index;
}

EditorTabs::Document *EditorTabs::document(int index)
{
    auto it = m_documents.find(editor(resolve(index)));
    return it == m_documents.end() ? nullptr : &it.value();
}

const EditorTabs::Document *EditorTabs::document(int index) const
{
    auto it = m_documents.constFind(editor(resolve(index)));
    return it == m_documents.cend() ? nullptr : &it.value();
}

QString EditorTabs::nextUntitledName()
{
    return QStringLiteral("untitled-%1.cl").arg(++m_untitledCounter);
}

int EditorTabs::newDocument()
{
    return addDocument(QString(), nextUntitledName(), QString());
}

int EditorTabs::newDocument(const QString &name, const QString &text, bool readOnly)
{
    if (readOnly) {
        const int index = addDocument(QString(), name, text);
        editor(index)->setReadOnly(true);
        return index;
    }
    return addDocument(QString(), name, QString(), &text);
}

bool EditorTabs::readFile(const QString &path, QString *text, QByteArray *bytes)
{
    const QFileInfo info(path);
    QString why;
    if (!info.exists())
        why = tr("the file does not exist");
    else if (info.isDir())
        why = tr("it is a folder");
    else if (info.size() > kMaxFileSize)
        why = tr("the file is too large (%1 MiB)").arg(info.size() / (1024 * 1024));
    QFile file(path);
    if (why.isEmpty() && !file.open(QIODevice::ReadOnly))
        why = file.errorString();
    if (!why.isEmpty()) {
        reportError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), why));
        return false;
    }
    const QByteArray data = file.readAll();
    // Bytes that are not UTF-8 text would come back as U+FFFD, and text after a NUL would be cut off;
    // saving would then destroy them. Refuse instead, saying where.
    if (const QString problem = textProblem(data); !problem.isEmpty()) {
        reportError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), problem));
        return false;
    }
    *text = QString::fromUtf8(data);
    if (bytes)
        *bytes = data;
    return true;
}

bool EditorTabs::openFile(const QString &path)
{
    if (path.isEmpty()) {
        reportError(tr("Cannot open a file without a name"));
        return false;
    }
    const QString normalized = normalizedPath(path);
    const int existing = indexOfPath(normalized);
    if (existing >= 0) {
        setCurrentIndex(existing);
        addRecentFile(normalized);
        return true;
    }
    QString text;
    QByteArray bytes;
    if (!readFile(normalized, &text, &bytes))
        return false;
    const int index = addDocument(normalized, QString(), text);
    document(index)->utf8Bom = bytes.startsWith(kUtf8Bom);
    m_watch->track(editor(index), normalized, bytes);
    closePristineUntitled(index);
    addRecentFile(normalized);
    return true;
}

bool EditorTabs::openSample(const QString &name)
{
    QFile file(QStringLiteral(":/kernels/") + name);
    if (!sampleNames().contains(name) || !file.open(QIODevice::ReadOnly)) {
        reportError(tr("There is no sample kernel named %1").arg(name));
        return false;
    }
    // A copy: the user edits an untitled buffer named after the sample, never the resource.
    const int index = addDocument(QString(), name, QString::fromUtf8(file.readAll()));
    closePristineUntitled(index);
    return true;
}

void EditorTabs::closePristineUntitled(int keep)
{
    // Opening a file replaces a lone untitled buffer nobody has typed into, as most editors do.
    if (count() != 2)
        return;
    const int other = keep == 0 ? 1 : 0;
    const Document *doc = document(other);
    const KernelEditor *e = editor(other);
    if (doc && e && doc->path.isEmpty() && !e->isModified() && e->length() == 0)
        closeTab(other);
}

// ---- saving ----------------------------------------------------------------------------------

bool EditorTabs::writeFile(int index, const QString &path)
{
    KernelEditor *e = editor(index);
    Document *doc = document(index);
    if (!e || !doc)
        return false;
    // Someone else changed the file since we loaded or saved it: saving would silently undo that.
    // (A deleted file has nothing to overwrite: saving writes it again.)
    if (doc->path == normalizedPath(path) && QFileInfo::exists(path) && m_watch->isChangedOnDisk(e)) {
        const bool overwrite = m_overwrite ? m_overwrite(title(index)) : [this, index] {
            return QMessageBox::warning(this, tr("File changed on disk"),
                                        tr("%1 has changed on disk since it was opened or saved here. "
                                           "Overwrite it with the text in the editor?")
                                            .arg(title(index)),
                                        QMessageBox::Save | QMessageBox::Cancel,
                                        QMessageBox::Cancel) == QMessageBox::Save;
        }();
        if (!overwrite)
            return false;
    }
    // A temporary file renamed over the target once it is complete, so a full disk or a lost
    // permission never leaves the user's file truncated; the buffer stays modified on failure.
    // The editor never holds the byte order mark (QString::fromUtf8 drops it): put it back.
    const QByteArray data = (doc->utf8Bom ? kUtf8Bom : QByteArray()) + e->text().toUtf8();
    if (const QString error = writeFileSafely(path, data); !error.isEmpty()) {
        reportError(tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    const bool pathChanged = doc->path != normalizedPath(path);
    doc->path = normalizedPath(path);
    m_watch->track(e, doc->path, data);
    hideNotice(index, QStringLiteral("diskChangedNotice"));
    hideNotice(index, QStringLiteral("autosaveNotice"));
    if (e->isModified())
        e->setModified(false); // removes the autosave through modificationChanged
    removeAutosave(*doc);
    updateTabText(index);
    addRecentFile(doc->path);
    if (pathChanged && index == currentIndex())
        emit currentDocumentChanged();
    return true;
}

bool EditorTabs::save(int index)
{
    const int i = resolve(index);
    const Document *doc = document(i);
    if (!doc)
        return false;
    if (!doc->path.isEmpty())
        return writeFile(i, doc->path);
    const QString target = askSavePath(i);
    if (target.isEmpty())
        return false; // cancelled
    return saveAs(target, i);
}

QString EditorTabs::askSavePath(int index)
{
    const QString suggested = path(index).isEmpty() ? title(index) : path(index);
    return m_savePath
               ? m_savePath(suggested)
               : QFileDialog::getSaveFileName(this, tr("Save kernel"), suggested,
                                              tr("OpenCL sources (*.cl *.clh *.h);;Text files (*.txt);;"
                                                 "All files (*)"));
}

// ---- changed on disk -------------------------------------------------------------------------

bool EditorTabs::isChangedOnDisk(int index) const
{
    const KernelEditor *e = editor(resolve(index));
    return e && m_watch->isChangedOnDisk(e);
}

void EditorTabs::onChangedOnDisk(int index)
{
    const Document *doc = document(index);
    if (!doc)
        return;
    const QString name = QDir::toNativeSeparators(doc->path);
    const bool deleted = !QFileInfo::exists(doc->path);
    // Never reloaded by itself, modified or not: the user decides, and nothing is lost either way.
    QString text = deleted ? tr("%1 was deleted on disk. Saving writes it again.").arg(name)
                           : tr("%1 changed on disk.").arg(name);
    if (!deleted && isModified(index))
        text += u' ' + tr("Reloading discards your unsaved changes (Undo brings them back).");
    NoticeBar *bar = showNotice(index, QStringLiteral("diskChangedNotice"), text);
    KernelEditor *e = editor(index);
    QPushButton *reloadButton = bar->button(QStringLiteral("reloadButton"), tr("Reload"));
    reloadButton->setVisible(!deleted);
    QPushButton *keep = bar->button(QStringLiteral("keepMineButton"), tr("Keep mine"));
    disconnect(reloadButton, nullptr, this, nullptr);
    disconnect(keep, nullptr, this, nullptr);
    connect(reloadButton, &QPushButton::clicked, this, [this, e] { reload(indexOf(e)); });
    connect(keep, &QPushButton::clicked, this, [this, e] { keepMine(indexOf(e)); });
    emit changedOnDisk(doc->path);
}

bool EditorTabs::reload(int index)
{
    const int i = resolve(index);
    KernelEditor *e = editor(i);
    Document *doc = document(i);
    if (!e || !doc || doc->path.isEmpty())
        return false;
    QString text;
    QByteArray bytes;
    if (!readFile(doc->path, &text, &bytes))
        return false;
    // One undoable step: Undo gets the text from before the reload back.
    e->SendScintilla(QsciScintillaBase::SCI_SETTEXT, text.toUtf8().constData());
    e->setModified(false);
    doc->utf8Bom = bytes.startsWith(kUtf8Bom);
    m_watch->track(e, doc->path, bytes);
    hideNotice(i, QStringLiteral("diskChangedNotice"));
    return true;
}

void EditorTabs::keepMine(int index)
{
    const int i = resolve(index);
    if (KernelEditor *e = editor(i))
        m_watch->acknowledge(e);
    hideNotice(i, QStringLiteral("diskChangedNotice"));
}

NoticeBar *EditorTabs::notice(int index, const QString &name) const
{
    // Looked up, never created here: this also runs while the window is being destroyed.
    KernelEditor *e = editor(resolve(index));
    return e ? e->findChild<NoticeBar *>(name) : nullptr;
}

NoticeBar *EditorTabs::showNotice(int index, const QString &name, const QString &text)
{
    KernelEditor *e = editor(index);
    NoticeBar *bar = notice(index, name);
    if (!bar) {
        bar = new NoticeBar(e->noticeArea());
        bar->setObjectName(name);
        e->noticeArea()->layout()->addWidget(bar);
    }
    bar->setText(text);
    bar->show();
    return bar;
}

void EditorTabs::hideNotice(int index, const QString &name)
{
    if (NoticeBar *bar = notice(index, name))
        bar->hide();
}

bool EditorTabs::saveAs(const QString &path, int index)
{
    const int i = resolve(index);
    if (!document(i))
        return false;
    if (path.isEmpty()) {
        reportError(tr("Cannot save a file without a name"));
        return false;
    }
    const int other = indexOfPath(path);
    if (other >= 0 && other != i) {
        reportError(
            tr("Cannot save as %1: that file is open in another tab").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    return writeFile(i, path);
}

bool EditorTabs::saveAll()
{
    bool ok = true;
    for (int i = 0; i < count(); ++i) {
        if (isModified(i))
            ok = save(i) && ok;
    }
    return ok;
}

// ---- closing ---------------------------------------------------------------------------------

bool EditorTabs::closeTab(int index)
{
    KernelEditor *e = editor(index);
    Document *doc = document(index);
    if (!e || !doc)
        return false;
    if (e->isModified()) {
        setCurrentIndex(index);
        const CloseChoice choice = m_confirm ? m_confirm(title(index)) : [this, index] {
            const auto answer = QMessageBox::warning(
                this, tr("Unsaved changes"),
                tr("%1 has unsaved changes. Save them before closing?").arg(title(index)),
                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
            return answer == QMessageBox::Save      ? CloseChoice::Save
                   : answer == QMessageBox::Discard ? CloseChoice::Discard
                                                    : CloseChoice::Cancel;
        }();
        if (choice == CloseChoice::Cancel)
            return false;
        if (choice == CloseChoice::Save && !save(index))
            return false;
    }
    removeAutosave(*doc);
    disconnect(e, nullptr, this, nullptr);
    e->viewport()->removeEventFilter(this);
    m_documents.remove(e);
    removeTab(index);
    stopCompletionWorker(e);
    e->deleteLater();
    return true;
}

bool EditorTabs::closeAll()
{
    while (count() > 0) {
        if (!closeTab(0))
            return false;
    }
    return true;
}

// ---- accessors -------------------------------------------------------------------------------

KernelEditor *EditorTabs::currentEditor() const
{
    return editor(currentIndex());
}

KernelEditor *EditorTabs::editor(int index) const
{
    return qobject_cast<KernelEditor *>(widget(index));
}

QString EditorTabs::currentPath() const
{
    return path(currentIndex());
}

QString EditorTabs::path(int index) const
{
    const Document *doc = document(index);
    return doc ? doc->path : QString();
}

QString EditorTabs::title(int index) const
{
    const Document *doc = document(index);
    if (!doc)
        return QString();
    return doc->path.isEmpty() ? doc->untitledName : QFileInfo(doc->path).fileName();
}

bool EditorTabs::isModified(int index) const
{
    const KernelEditor *e = editor(resolve(index));
    return e && e->isModified();
}

bool EditorTabs::hasModified() const
{
    for (int i = 0; i < count(); ++i) {
        if (isModified(i))
            return true;
    }
    return false;
}

int EditorTabs::indexOfPath(const QString &path) const
{
    if (path.isEmpty())
        return -1;
    const QString normalized = normalizedPath(path);
    for (int i = 0; i < count(); ++i) {
        const Document *doc = document(i);
        if (doc && doc->path == normalized)
            return i;
    }
    return -1;
}

void EditorTabs::updateTabText(int index)
{
    const Document *doc = document(index);
    if (!doc)
        return;
    QString text = title(index);
    if (isModified(index))
        text += u'*';
    setTabText(index, text.replace(u'&', QStringLiteral("&&")));
    setTabToolTip(index, doc->path.isEmpty() ? title(index) : QDir::toNativeSeparators(doc->path));
}

void EditorTabs::onCurrentChanged()
{
    emit currentDocumentChanged();
    emit documentModified(isModified());
}

void EditorTabs::onModificationChanged(KernelEditor *e, bool modified)
{
    const int index = indexOf(e);
    Document *doc = document(index);
    if (!doc)
        return;
    updateTabText(index);
    if (!modified)
        removeAutosave(*doc); // saved, or undone back to what is on disk
    if (index == currentIndex())
        emit documentModified(modified);
}

void EditorTabs::onTextChanged(KernelEditor *e)
{
    Document *doc = document(indexOf(e));
    if (!doc)
        return;
    ++doc->edits;
    if (!m_autosaveTimer->isActive()) // also while the store is down: autosaveNow retries it
        m_autosaveTimer->start();
}

void EditorTabs::reportError(const QString &message)
{
    m_lastError = message;
    emit errorOccurred(message);
}

// ---- recent files ----------------------------------------------------------------------------

QStringList EditorTabs::recentFiles() const
{
    QSettings settings;
    const QStringList stored = settings.value(kRecentKey).toStringList();
    QStringList out;
    for (const QString &path : stored) {
        if (out.size() < kMaxRecent && !out.contains(path) && QFileInfo(path).isFile())
            out << path;
    }
    if (out != stored)
        settings.setValue(kRecentKey, out);
    return out;
}

void EditorTabs::addRecentFile(const QString &path)
{
    QStringList list = recentFiles();
    if (!list.isEmpty() && list.first() == path)
        return;
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
    emit recentFilesChanged();
}

void EditorTabs::clearRecentFiles()
{
    QSettings().remove(kRecentKey);
    emit recentFilesChanged();
}

// ---- drag and drop ---------------------------------------------------------------------------

QStringList EditorTabs::openableFiles(const QMimeData *mime)
{
    QStringList out;
    if (!mime || !mime->hasUrls())
        return out;
    static const QStringList kSuffixes = {QStringLiteral("cl"), QStringLiteral("h"), QStringLiteral("clh"),
                                          QStringLiteral("txt"), QStringLiteral("clscope")};
    const QList<QUrl> urls = mime->urls();
    for (const QUrl &url : urls) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (kSuffixes.contains(QFileInfo(path).suffix(), Qt::CaseInsensitive) && !out.contains(path))
            out << path;
    }
    return out;
}

void EditorTabs::dragEnterEvent(QDragEnterEvent *event)
{
    if (!openableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QTabWidget::dragEnterEvent(event);
}

void EditorTabs::dragMoveEvent(QDragMoveEvent *event)
{
    if (!openableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QTabWidget::dragMoveEvent(event);
}

void EditorTabs::dropEvent(QDropEvent *event)
{
    const QStringList files = openableFiles(event->mimeData());
    if (files.isEmpty()) {
        QTabWidget::dropEvent(event);
        return;
    }
    event->acceptProposedAction();
    QStringList captures;
    for (const QString &file : files) {
        if (file.endsWith(QStringLiteral(".clscope"), Qt::CaseInsensitive))
            captures << file; // not text: the window opens it in the Capture panel
        else
            openFile(file);
    }
    if (!captures.isEmpty())
        emit capturesDropped(captures);
}

bool EditorTabs::eventFilter(QObject *watched, QEvent *event)
{
    // Editors take text drops themselves; dropped files are opened here instead of pasted as URLs.
    const QEvent::Type type = event->type();
    if (type == QEvent::DragEnter || type == QEvent::DragMove || type == QEvent::Drop) {
        auto *drop = static_cast<QDropEvent *>(event);
        if (!openableFiles(drop->mimeData()).isEmpty()) {
            if (type == QEvent::Drop)
                dropEvent(drop);
            else
                drop->acceptProposedAction();
            return true;
        }
    }
    return QTabWidget::eventFilter(watched, event);
}

// ---- samples ---------------------------------------------------------------------------------

QStringList EditorTabs::sampleNames()
{
    return QDir(QStringLiteral(":/kernels")).entryList(QDir::Files, QDir::Name);
}

} // namespace clscope::ui
