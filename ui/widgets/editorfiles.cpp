// Editor tabs and the files behind them: reading (only UTF-8 text within the size limit), atomic saves that
// keep a byte order mark, Save as / Save all, and files changed on disk behind the editor (Reload / Keep
// mine).
#include "editortabs.h"

#include "files/filewatch.h"
#include "files/readfile.h"
#include "files/safewrite.h"
#include "files/textfile.h"
#include "kerneleditor.h"
#include "noticebar.h"

#include "clscope/build.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLayout>
#include <QMessageBox>
#include <QPushButton>

namespace clscope::ui {

namespace {
const QByteArray kUtf8Bom("\xEF\xBB\xBF");
} // namespace

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
    // A FIFO (which would block), /dev/zero (which never ends) or a file that grows while it is read: the
    // checked reader refuses them.
    FileRead read;
    if (why.isEmpty()) {
        read = readCheckedFile(path, kMaxFileSize);
        why = read.error;
    }
    if (!why.isEmpty()) {
        reportError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), why));
        return false;
    }
    const QByteArray data = read.bytes;
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

namespace {
const char *const kProgramKind = "clscopeProgramKind";
const char *const kProgramFile = "clscopeProgramFile";

// The first `n` bytes of a file (fewer when it is shorter; none when it cannot be read or is not a regular
// file, which readFile then refuses saying why).
QByteArray fileHead(const QString &path, qint64 n)
{
    return readCheckedFileAt(path, 0, n).bytes;
}

bool spirvHead(const QByteArray &head)
{
    return isSpirv(std::span<const unsigned char>(reinterpret_cast<const unsigned char *>(head.constData()),
                                                  std::size_t(head.size())));
}

// SPIR-V (whatever its name; its magic number is its first word), or a file not named as a source with bytes
// no text has (a NUL within the first 64 KiB): a program file, not a source. A source with a stray NUL is a
// broken source (refused as text, saying where), not a binary.
bool isProgramFile(const QString &path)
{
    static const QStringList kSourceSuffixes = {
        QStringLiteral("cl"), QStringLiteral("clh"), QStringLiteral("h"),  QStringLiteral("hpp"),
        QStringLiteral("c"),  QStringLiteral("cpp"), QStringLiteral("txt")};
    const bool sourceName = kSourceSuffixes.contains(QFileInfo(path).suffix(), Qt::CaseInsensitive);
    const QByteArray head = fileHead(path, sourceName ? 4 : 64 * 1024);
    return spirvHead(head) || (!sourceName && head.contains('\0'));
}
} // namespace

int EditorTabs::openProgramFile(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isFile()) {
        reportError(tr("Cannot open %1: %2")
                        .arg(QDir::toNativeSeparators(path),
                             info.exists() ? tr("it is not a regular file") : tr("the file does not exist")));
        return -1;
    }
    const bool il = spirvHead(fileHead(path, 4));
    const QString absolute = info.absoluteFilePath();
    for (int i = 0; i < count(); ++i) {
        if (programFile(i) == absolute &&
            programKind(i) == (il ? QStringLiteral("il") : QStringLiteral("binary"))) {
            setCurrentIndex(i); // open already
            return i;
        }
    }
    // Short lines: the tab is read next to the Arguments panel.
    const QString text =
        tr("// %1: %2\n// %3 bytes, modified %4.\n//\n// Build (Ctrl+B) creates the program from it with\n// "
           "%5 on "
           "the current device%6.\n// The kernels and their arguments are the driver's; Run (F5) as with any "
           "build.\n// The file is read again at each build: a newer one makes F5 build again.\n")
            .arg(il ? tr("SPIR-V module") : tr("Device binary"), QDir::toNativeSeparators(absolute))
            .arg(info.size())
            .arg(info.lastModified().toString(Qt::ISODate),
                 il ? QStringLiteral("clCreateProgramWithIL") : QStringLiteral("clCreateProgramWithBinary"),
                 il ? QString()
                    : tr("\n// (a binary is the program of one kind of device: another refuses it)"));
    const int index = newDocument(info.fileName(), text, true);
    editor(index)->setProperty(kProgramKind, il ? QStringLiteral("il") : QStringLiteral("binary"));
    editor(index)->setProperty(kProgramFile, absolute);
    editor(index)->setToolTip(QDir::toNativeSeparators(absolute));
    closePristineUntitled(index);
    addRecentFile(absolute);
    return index;
}

int EditorTabs::openBuiltIns(const QString &names, const QString &deviceName)
{
    QString list;
    for (const QString &n : names.split(u';', Qt::SkipEmptyParts))
        list += QStringLiteral("//   %1\n").arg(n.trimmed());
    const QString text = tr("// Built-in kernels of %1:\n%2//\n// Build (Ctrl+B) creates them with "
                            "clCreateProgramWithBuiltInKernels; Run (F5) as with any build.\n")
                             .arg(deviceName, list);
    const int index = newDocument(tr("built-in kernels"), text, true);
    editor(index)->setProperty(kProgramKind, QStringLiteral("builtin"));
    editor(index)->setProperty(kProgramFile, names);
    closePristineUntitled(index);
    return index;
}

QString EditorTabs::programKind(int index) const
{
    const KernelEditor *e = editor(resolve(index));
    return e ? e->property(kProgramKind).toString() : QString();
}

QString EditorTabs::programFile(int index) const
{
    const KernelEditor *e = editor(resolve(index));
    return e ? e->property(kProgramFile).toString() : QString();
}

bool EditorTabs::openFile(const QString &path)
{
    if (path.isEmpty()) {
        reportError(tr("Cannot open a file without a name"));
        return false;
    }
    if (isProgramFile(path))
        return openProgramFile(path) >= 0;
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

} // namespace clscope::ui
