// Editor tabs: the tabs and their documents, closing, notices and samples. Files, autosave, the session,
// dropped files and recent files are their own classes (editorfiles.h, editorautosave.h, editorsession.h,
// editordrops.h, recentfiles.h); the public calls for them are passed on at the end of this file.
#include "editortabs.h"

#include "editorautosave.h"
#include "editordrops.h"
#include "editorfiles.h"
#include "editorsession.h"
#include "kerneleditor.h"
#include "noticebar.h"

#include <Qsci/qsciapis.h>
#include <Qsci/qscilexer.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLayout>
#include <QMessageBox>

namespace clscope::ui {

namespace {

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
    , m_files(new EditorFiles(*this))
    , m_autosave(new EditorAutosave(*this))
    , m_session(new EditorSession(*this))
    , m_drops(new EditorDrops(*this))
{
    setObjectName(QStringLiteral("editorTabs"));
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    setAcceptDrops(true);
    if (!m_autosave->store().isActive())
        m_lastError = m_autosave->store().error();

    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) { closeTab(index); });
    connect(this, &QTabWidget::currentChanged, this, &EditorTabs::onCurrentChanged);
}

EditorTabs::~EditorTabs()
{
    // Whatever is still unsaved goes to disk now, so quitting without a prompt loses nothing.
    m_autosave->finalSave();
    disconnect(this, nullptr, this, nullptr);
    for (int i = 0; i < count(); ++i) {
        if (KernelEditor *e = editor(i)) {
            disconnect(e, nullptr, this, nullptr);
            m_drops->unwatch(e);
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
    EditorDocument doc;
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
    m_drops->watch(e);

    const int index = addTab(e, QString());
    updateTabText(index);
    setCurrentIndex(index);
    return index;
}

EditorDocument *EditorTabs::document(int index)
{
    auto it = m_documents.find(editor(resolve(index)));
    return it == m_documents.end() ? nullptr : &it.value();
}

const EditorDocument *EditorTabs::document(int index) const
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

void EditorTabs::closePristineUntitled(int keep)
{
    // Opening a file replaces a lone untitled buffer nobody has typed into, as most editors do.
    if (count() != 2)
        return;
    const int other = keep == 0 ? 1 : 0;
    const EditorDocument *doc = document(other);
    const KernelEditor *e = editor(other);
    if (doc && e && doc->path.isEmpty() && !e->isModified() && e->length() == 0)
        closeTab(other);
}

// ---- closing ---------------------------------------------------------------------------------

bool EditorTabs::closeTab(int index)
{
    KernelEditor *e = editor(index);
    EditorDocument *doc = document(index);
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
    m_autosave->remove(*doc);
    disconnect(e, nullptr, this, nullptr);
    m_drops->unwatch(e);
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
    const EditorDocument *doc = document(index);
    return doc ? doc->path : QString();
}

QString EditorTabs::title(int index) const
{
    const EditorDocument *doc = document(index);
    if (!doc)
        return QString();
    return doc->path.isEmpty() ? doc->untitledName : QFileInfo(doc->path).fileName();
}

QString EditorTabs::buildOptions(int index) const
{
    const EditorDocument *doc = document(index);
    return doc ? doc->buildOptions : QString();
}

void EditorTabs::setBuildOptions(const QString &options, int index)
{
    index = resolve(index);
    EditorDocument *doc = document(index);
    if (!doc || doc->buildOptions == options)
        return;
    doc->buildOptions = options;
    emit buildOptionsChanged(index);
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
        const EditorDocument *doc = document(i);
        if (doc && doc->path == normalized)
            return i;
    }
    return -1;
}

void EditorTabs::updateTabText(int index)
{
    const EditorDocument *doc = document(index);
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
    EditorDocument *doc = document(index);
    if (!doc)
        return;
    updateTabText(index);
    if (!modified)
        m_autosave->remove(*doc); // saved, or undone back to what is on disk
    if (index == currentIndex())
        emit documentModified(modified);
}

void EditorTabs::onTextChanged(KernelEditor *e)
{
    EditorDocument *doc = document(indexOf(e));
    if (!doc)
        return;
    ++doc->edits;
    m_autosave->edited();
}

void EditorTabs::reportError(const QString &message)
{
    m_lastError = message;
    emit errorOccurred(message);
}

// ---- samples ---------------------------------------------------------------------------------

QStringList EditorTabs::sampleNames()
{
    return QDir(QStringLiteral(":/kernels")).entryList(QDir::Files, QDir::Name);
}

// ---- notices ---------------------------------------------------------------------------------

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

} // namespace clscope::ui
