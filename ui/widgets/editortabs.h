// The central editing area: one KernelEditor per tab, with open/save (atomic), recent files, dropped
// files, sample kernels, and crash-safe autosave with recovery after a crash. EditorTabs is the tab widget
// and its documents (tabs, closing, notices, samples); each other responsibility is a class of its
// own that works on it: EditorFiles (reading, saving, files changed on disk), EditorAutosave (autosave
// and recovery), EditorSession (quit and the last session), EditorDrops (dropped files) and RecentFiles.
#pragma once

#include "widgets/autosave.h"
#include "widgets/editorautosave.h"
#include "widgets/editordocument.h"
#include "widgets/editorfiles.h"
#include "widgets/editorsession.h"
#include "widgets/recentfiles.h"

#include <QHash>
#include <QTabWidget>
#include <QVariantMap>

#include <functional>
#include <memory>

class QMimeData;
class QTimer;

namespace clscope::ui {

class EditorDrops;
class KernelEditor;
class NoticeBar;

class EditorTabs : public QTabWidget
{
    Q_OBJECT
public:
    enum class CloseChoice { Save, Discard, Cancel };
    // Asked before a modified buffer is closed; the argument is the document title.
    using ConfirmCallback = std::function<CloseChoice(const QString &title)>;
    // Asked for a path when an untitled buffer is saved; returns empty to cancel.
    using SavePathCallback = std::function<QString(const QString &suggestedName)>;
    // Asked before a save would overwrite a file that changed on disk since it was loaded or saved;
    // true to overwrite it.
    using OverwriteCallback = std::function<bool(const QString &title)>;

    explicit EditorTabs(QWidget *parent = nullptr);
    ~EditorTabs() override;

    // Documents. Indices are tab indices; -1 means the current tab.
    int newDocument();
    // An unsaved document named `name` holding `text` (modified, so closing it asks): a captured program's
    // source opened as a copy. readOnly: a view that cannot be edited (and asks nothing on close).
    int newDocument(const QString &name, const QString &text, bool readOnly = false);
    // A .cl file (or any UTF-8 text) in an editor; SPIR-V (told by its magic number) and other binary files
    // in a program tab (openProgramFile).
    bool openFile(const QString &path) { return m_files->openFile(path); }
    // A program that is not OpenCL C, in a read-only tab that says what it is and how it is built: SPIR-V
    // when its first word is SPIR-V's magic number (clCreateProgramWithIL), else a device binary
    // (clCreateProgramWithBinary, for every device of the build, as pyopencl's program.binaries; NVIDIA's
    // are PTX text). Build builds the file as it is then.
    int openProgramFile(const QString &path) { return m_files->openProgramFile(path); }
    // The device's built-in kernels `names` (';'-separated, as CL_DEVICE_BUILT_IN_KERNELS lists them) as a
    // program tab: Build creates them with clCreateProgramWithBuiltInKernels.
    int openBuiltIns(const QString &names, const QString &deviceName)
    {
        return m_files->openBuiltIns(names, deviceName);
    }
    // What a tab's program is made of: "" for OpenCL C, else "binary", "il" or "builtin"; and the file (the
    // names for built-ins).
    QString programKind(int index = -1) const { return m_files->programKind(resolve(index)); }
    QString programFile(int index = -1) const { return m_files->programFile(resolve(index)); }
    // The build options of a tab's program: each tab has its own (a new tab none), so options that came
    // with one program (a captured launch's -I folders) never build another. Saved with the session.
    QString buildOptions(int index = -1) const;
    void setBuildOptions(const QString &options, int index = -1);
    bool openSample(const QString &name) { return m_files->openSample(name); }
    bool save(int index = -1) { return m_files->save(resolve(index)); }
    bool saveAs(const QString &path, int index = -1) { return m_files->saveAs(path, resolve(index)); }
    bool saveAll() { return m_files->saveAll(); }
    bool closeTab(int index);
    // Closes every tab, asking about each modified one; false (and nothing more closed) on Cancel.
    bool closeAll();
    // Quit: one question for all modified buffers (Save all / Discard / Cancel), then every tab closes;
    // false with every tab still open on Cancel or when a save fails (EditorSession).
    bool closeAllAsking() { return m_session->closeAllAsking(); }
    // What is open, for the next start: saved files by path, unmodified samples as "sample:NAME".
    QStringList sessionEntries() const { return m_session->entries(); }
    // The build options of the tabs sessionEntries() names, by entry (tabs without options are left out).
    QVariantMap sessionOptions() const { return m_session->options(); }
    // Reopens sessionEntries() that still exist, each with its options from `options`; returns how many.
    int restoreSession(const QStringList &entries, const QVariantMap &options = {})
    {
        return m_session->restore(entries, options);
    }

    KernelEditor *currentEditor() const;
    KernelEditor *editor(int index) const;
    QString currentPath() const;
    QString path(int index = -1) const;
    QString title(int index = -1) const;
    bool isModified(int index = -1) const;
    bool hasModified() const;
    int documentCount() const { return count(); }
    int indexOfPath(const QString &path) const;
    QString lastError() const { return m_lastError; }

    // Most recent first, at most 10, files that no longer exist pruned.
    QStringList recentFiles() const { return RecentFiles::list(); }
    void clearRecentFiles()
    {
        RecentFiles::clear();
        emit recentFilesChanged();
    }
    // Puts a file first in the list (files open themselves; the window adds the captures it opens).
    void addRecentFile(const QString &path)
    {
        if (RecentFiles::add(path))
            emit recentFilesChanged();
    }

    // Local files in a drag that the editor can open (.cl, .h, .clh, .txt).
    static QStringList openableFiles(const QMimeData *mime) { return EditorFiles::openableFiles(mime); }
    // Sample kernels compiled in under :/kernels.
    static QStringList sampleNames();

    void setConfirmCallback(ConfirmCallback callback) { m_confirm = std::move(callback); }
    // Asked once by closeAllAsking with the titles of every modified buffer.
    using ConfirmAllCallback = std::function<CloseChoice(const QStringList &titles)>;
    void setConfirmAllCallback(ConfirmAllCallback callback) { m_confirmAll = std::move(callback); }
    void setSavePathCallback(SavePathCallback callback) { m_savePath = std::move(callback); }
    void setOverwriteCallback(OverwriteCallback callback) { m_overwrite = std::move(callback); }

    // Files changed on disk by someone else: a notice above the editor offers Reload / Keep mine.
    bool isChangedOnDisk(int index = -1) const { return m_files->isChangedOnDisk(resolve(index)); }
    // Loads the file again (one undoable step); false, with the reason reported, if it cannot be read.
    bool reload(int index = -1) { return m_files->reload(resolve(index)); }
    // Keeps the buffer: the file as it is now counts as seen, so saving does not ask again.
    void keepMine(int index = -1) { m_files->keepMine(resolve(index)); }
    // The notice above a document's editor (objectName "diskChangedNotice" or "autosaveNotice"), or null.
    NoticeBar *notice(int index, const QString &name) const;
    // Why the last autosave of some buffer failed; empty while autosave works.
    QString autosaveError() const { return m_autosave->error(); }

    void setAutosaveInterval(int msec) { m_autosave->setInterval(msec); }
    int autosaveInterval() const { return m_autosave->interval(); }
    // Writes every modified buffer whose autosave is out of date; returns how many were written.
    int autosaveNow() { return m_autosave->saveNow(); }
    QString autosaveSessionPath() const { return m_autosave->store().sessionPath(); }

    // Buffers left by instances that died (crash, kill -9); claimed so no other instance takes them.
    QList<AutosaveRecord> pendingRecoveries() { return m_autosave->pendingRecoveries(); }
    // Reopens them as modified buffers with their original paths; returns how many.
    int restoreRecoveries() { return m_autosave->restoreRecoveries(); }
    void discardRecoveries() { m_autosave->discardRecoveries(); }

signals:
    void currentDocumentChanged();
    // The modified state of the current document (also sent when the current document changes).
    void documentModified(bool modified);
    void recentFilesChanged();
    // setBuildOptions changed the options of the tab at `index`.
    void buildOptionsChanged(int index);
    void errorOccurred(const QString &message);
    // .clscope files dropped on the editor: captures, for the window to open.
    void capturesDropped(const QStringList &paths);
    // A file open in a tab changed on disk (or was deleted) behind the editor's back.
    void changedOnDisk(const QString &path);
    void autosaved(int written);

private:
    // The parts that carry out one responsibility each work on the tabs and their documents.
    friend class EditorFiles;
    friend class EditorAutosave;
    friend class EditorSession;
    friend class EditorDrops;

    // Kernels are small; refusing huge files keeps a mistaken drop from freezing the editor.
    static constexpr qint64 kMaxFileSize = 32 * 1024 * 1024;

    // The form paths are compared in: canonical where the file exists, else absolute and clean.
    static QString normalizedPath(const QString &path);
    int addDocument(const QString &path, const QString &untitledName, const QString &savedText,
                    const QString *modifiedText = nullptr);
    EditorDocument *document(int index);
    const EditorDocument *document(int index) const;
    int resolve(int index) const { return index < 0 ? currentIndex() : index; }
    void updateTabText(int index);
    void onCurrentChanged();
    void onModificationChanged(KernelEditor *editor, bool modified);
    void onTextChanged(KernelEditor *editor);
    void reportError(const QString &message);
    NoticeBar *showNotice(int index, const QString &name, const QString &text);
    void hideNotice(int index, const QString &name);
    QString nextUntitledName();
    void closePristineUntitled(int keep);

    QHash<const KernelEditor *, EditorDocument> m_documents;
    EditorFiles *m_files;
    EditorAutosave *m_autosave;
    EditorSession *m_session;
    EditorDrops *m_drops;
    ConfirmCallback m_confirm;
    ConfirmAllCallback m_confirmAll;
    SavePathCallback m_savePath;
    OverwriteCallback m_overwrite;
    QString m_lastError;
    int m_untitledCounter = 0;
    int m_docCounter = 0;
};

} // namespace clscope::ui
