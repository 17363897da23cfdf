// The files behind the editor's tabs (editorfiles.h).
#include "editorfiles.h"

#include "editorautosave.h"
#include "editortabs.h"

#include "display/stdstring.h"
#include "files/filewatch.h"
#include "files/readfile.h"
#include "files/safewrite.h"
#include "files/textfile.h"
#include "kerneleditor.h"
#include "noticebar.h"

#include "clscope/programsource.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QUrl>

namespace clscope::ui {

namespace {
const QByteArray kUtf8Bom("\xEF\xBB\xBF");
} // namespace

EditorFiles::EditorFiles(EditorTabs &tabs)
    : QObject(&tabs)
    , m_tabs(tabs)
    , m_watch(new FileWatch(this))
{
    connect(m_watch, &FileWatch::changedOnDisk, this, [this](const QObject *owner) {
        for (int i = 0; i < m_tabs.count(); ++i) {
            if (m_tabs.editor(i) == owner)
                onChangedOnDisk(i);
        }
    });
}

bool EditorFiles::readFile(const QString &path, QString *text, QByteArray *bytes)
{
    const QFileInfo info(path);
    QString why;
    if (!info.exists())
        why = tr("the file does not exist");
    else if (info.isDir())
        why = tr("it is a folder");
    else if (info.size() > EditorTabs::kMaxFileSize)
        why = tr("the file is too large (%1 MiB)").arg(info.size() / (1024 * 1024));
    // A FIFO (which would block), /dev/zero (which never ends) or a file that grows while it is read: the
    // checked reader refuses them.
    FileRead read;
    if (why.isEmpty()) {
        read = readCheckedFile(path, EditorTabs::kMaxFileSize);
        why = read.error;
    }
    if (!why.isEmpty()) {
        m_tabs.reportError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), why));
        return false;
    }
    const QByteArray data = read.bytes;
    // Bytes that are not UTF-8 text would come back as U+FFFD, and text after a NUL would be cut off;
    // saving would then destroy them. Refuse instead, saying where.
    if (const QString problem = textProblem(data); !problem.isEmpty()) {
        m_tabs.reportError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), problem));
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

// A file opened as a program file: SPIR-V by its magic number, else a device binary (programsource.h).
ProgramKind programFileKindOf(const QByteArray &head)
{
    return programFileKind(
        std::span<const unsigned char>(reinterpret_cast<const unsigned char *>(head.constData()),
                                       std::size_t(head.size())),
        ProgramKind::Binary);
}

QString kindName(ProgramKind kind)
{
    return qs(programKindName(kind));
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
    return programFileKindOf(head) == ProgramKind::Il || (!sourceName && head.contains('\0'));
}
} // namespace

int EditorFiles::openProgramFile(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isFile()) {
        m_tabs.reportError(tr("Cannot open %1: %2")
                               .arg(QDir::toNativeSeparators(path), info.exists()
                                                                        ? tr("it is not a regular file")
                                                                        : tr("the file does not exist")));
        return -1;
    }
    const ProgramKind kind = programFileKindOf(fileHead(path, 4));
    const bool il = kind == ProgramKind::Il;
    const QString absolute = info.absoluteFilePath();
    for (int i = 0; i < m_tabs.count(); ++i) {
        if (programFile(i) == absolute && programKind(i) == kindName(kind)) {
            m_tabs.setCurrentIndex(i); // open already
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
    const int index = m_tabs.newDocument(info.fileName(), text, true);
    m_tabs.editor(index)->setProperty(kProgramKind, kindName(kind));
    m_tabs.editor(index)->setProperty(kProgramFile, absolute);
    m_tabs.editor(index)->setToolTip(QDir::toNativeSeparators(absolute));
    m_tabs.closePristineUntitled(index);
    m_tabs.addRecentFile(absolute);
    return index;
}

int EditorFiles::openBuiltIns(const QString &names, const QString &deviceName)
{
    QString list;
    for (const QString &n : names.split(u';', Qt::SkipEmptyParts))
        list += QStringLiteral("//   %1\n").arg(n.trimmed());
    const QString text = tr("// Built-in kernels of %1:\n%2//\n// Build (Ctrl+B) creates them with "
                            "clCreateProgramWithBuiltInKernels; Run (F5) as with any build.\n")
                             .arg(deviceName, list);
    const int index = m_tabs.newDocument(tr("built-in kernels"), text, true);
    m_tabs.editor(index)->setProperty(kProgramKind, kindName(ProgramKind::BuiltIns));
    m_tabs.editor(index)->setProperty(kProgramFile, names);
    m_tabs.closePristineUntitled(index);
    return index;
}

QString EditorFiles::programKind(int index) const
{
    const KernelEditor *e = m_tabs.editor(m_tabs.resolve(index));
    return e ? e->property(kProgramKind).toString() : QString();
}

QString EditorFiles::programFile(int index) const
{
    const KernelEditor *e = m_tabs.editor(m_tabs.resolve(index));
    return e ? e->property(kProgramFile).toString() : QString();
}

bool EditorFiles::openFile(const QString &path)
{
    if (path.isEmpty()) {
        m_tabs.reportError(tr("Cannot open a file without a name"));
        return false;
    }
    if (isProgramFile(path))
        return openProgramFile(path) >= 0;
    const QString normalized = EditorTabs::normalizedPath(path);
    const int existing = m_tabs.indexOfPath(normalized);
    if (existing >= 0) {
        m_tabs.setCurrentIndex(existing);
        m_tabs.addRecentFile(normalized);
        return true;
    }
    QString text;
    QByteArray bytes;
    if (!readFile(normalized, &text, &bytes))
        return false;
    const int index = m_tabs.addDocument(normalized, QString(), text);
    m_tabs.document(index)->utf8Bom = bytes.startsWith(kUtf8Bom);
    m_watch->track(m_tabs.editor(index), normalized, bytes);
    m_tabs.closePristineUntitled(index);
    m_tabs.addRecentFile(normalized);
    return true;
}

bool EditorFiles::openSample(const QString &name)
{
    QFile file(QStringLiteral(":/kernels/") + name);
    if (!EditorTabs::sampleNames().contains(name) || !file.open(QIODevice::ReadOnly)) {
        m_tabs.reportError(tr("There is no sample kernel named %1").arg(name));
        return false;
    }
    // A copy: the user edits an untitled buffer named after the sample, never the resource.
    const int index = m_tabs.addDocument(QString(), name, QString::fromUtf8(file.readAll()));
    m_tabs.closePristineUntitled(index);
    return true;
}

QStringList EditorFiles::openableFiles(const QMimeData *mime)
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

QStringList EditorFiles::openDropped(const QStringList &files)
{
    QStringList captures;
    for (const QString &file : files) {
        if (file.endsWith(QStringLiteral(".clscope"), Qt::CaseInsensitive))
            captures << file; // not text: the window opens it in the Capture panel
        else
            m_tabs.openFile(file);
    }
    return captures;
}

// ---- saving ----------------------------------------------------------------------------------

bool EditorFiles::writeFile(int index, const QString &path)
{
    KernelEditor *e = m_tabs.editor(index);
    EditorDocument *doc = m_tabs.document(index);
    if (!e || !doc)
        return false;
    // Someone else changed the file since we loaded or saved it: saving would silently undo that.
    // (A deleted file has nothing to overwrite: saving writes it again.)
    if (doc->path == EditorTabs::normalizedPath(path) && QFileInfo::exists(path) &&
        m_watch->isChangedOnDisk(e)) {
        const bool overwrite = m_tabs.m_overwrite ? m_tabs.m_overwrite(m_tabs.title(index)) : [this, index] {
            return QMessageBox::warning(&m_tabs, tr("File changed on disk"),
                                        tr("%1 has changed on disk since it was opened or saved here. "
                                           "Overwrite it with the text in the editor?")
                                            .arg(m_tabs.title(index)),
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
        m_tabs.reportError(tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    const bool pathChanged = doc->path != EditorTabs::normalizedPath(path);
    doc->path = EditorTabs::normalizedPath(path);
    m_watch->track(e, doc->path, data);
    m_tabs.hideNotice(index, QStringLiteral("diskChangedNotice"));
    m_tabs.hideNotice(index, QStringLiteral("autosaveNotice"));
    if (e->isModified())
        e->setModified(false); // removes the autosave through modificationChanged
    m_tabs.m_autosave->remove(*doc);
    m_tabs.updateTabText(index);
    m_tabs.addRecentFile(doc->path);
    if (pathChanged && index == m_tabs.currentIndex())
        emit m_tabs.currentDocumentChanged();
    return true;
}

bool EditorFiles::save(int index)
{
    const int i = m_tabs.resolve(index);
    const EditorDocument *doc = m_tabs.document(i);
    if (!doc)
        return false;
    if (!doc->path.isEmpty())
        return writeFile(i, doc->path);
    const QString target = askSavePath(i);
    if (target.isEmpty())
        return false; // cancelled
    return saveAs(target, i);
}

QString EditorFiles::askSavePath(int index)
{
    const QString suggested = m_tabs.path(index).isEmpty() ? m_tabs.title(index) : m_tabs.path(index);
    return m_tabs.m_savePath
               ? m_tabs.m_savePath(suggested)
               : QFileDialog::getSaveFileName(&m_tabs, tr("Save kernel"), suggested,
                                              tr("OpenCL sources (*.cl *.clh *.h);;Text files (*.txt);;"
                                                 "All files (*)"));
}

// ---- changed on disk -------------------------------------------------------------------------

void EditorFiles::track(const QObject *editor, const QString &path, const QByteArray &contents)
{
    m_watch->track(editor, path, contents);
}

bool EditorFiles::isChangedOnDisk(int index) const
{
    const KernelEditor *e = m_tabs.editor(m_tabs.resolve(index));
    return e && m_watch->isChangedOnDisk(e);
}

void EditorFiles::onChangedOnDisk(int index)
{
    const EditorDocument *doc = m_tabs.document(index);
    if (!doc)
        return;
    const QString name = QDir::toNativeSeparators(doc->path);
    const bool deleted = !QFileInfo::exists(doc->path);
    // Never reloaded by itself, modified or not: the user decides, and nothing is lost either way.
    QString text = deleted ? tr("%1 was deleted on disk. Saving writes it again.").arg(name)
                           : tr("%1 changed on disk.").arg(name);
    if (!deleted && m_tabs.isModified(index))
        text += u' ' + tr("Reloading discards your unsaved changes (Undo brings them back).");
    NoticeBar *bar = m_tabs.showNotice(index, QStringLiteral("diskChangedNotice"), text);
    KernelEditor *e = m_tabs.editor(index);
    QPushButton *reloadButton = bar->button(QStringLiteral("reloadButton"), tr("Reload"));
    reloadButton->setVisible(!deleted);
    QPushButton *keep = bar->button(QStringLiteral("keepMineButton"), tr("Keep mine"));
    disconnect(reloadButton, nullptr, this, nullptr);
    disconnect(keep, nullptr, this, nullptr);
    connect(reloadButton, &QPushButton::clicked, this, [this, e] { m_tabs.reload(m_tabs.indexOf(e)); });
    connect(keep, &QPushButton::clicked, this, [this, e] { m_tabs.keepMine(m_tabs.indexOf(e)); });
    emit m_tabs.changedOnDisk(doc->path);
}

bool EditorFiles::reload(int index)
{
    const int i = m_tabs.resolve(index);
    KernelEditor *e = m_tabs.editor(i);
    EditorDocument *doc = m_tabs.document(i);
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
    m_tabs.hideNotice(i, QStringLiteral("diskChangedNotice"));
    return true;
}

void EditorFiles::keepMine(int index)
{
    const int i = m_tabs.resolve(index);
    if (KernelEditor *e = m_tabs.editor(i))
        m_watch->acknowledge(e);
    m_tabs.hideNotice(i, QStringLiteral("diskChangedNotice"));
}

bool EditorFiles::saveAs(const QString &path, int index)
{
    const int i = m_tabs.resolve(index);
    if (!m_tabs.document(i))
        return false;
    if (path.isEmpty()) {
        m_tabs.reportError(tr("Cannot save a file without a name"));
        return false;
    }
    const int other = m_tabs.indexOfPath(path);
    if (other >= 0 && other != i) {
        m_tabs.reportError(
            tr("Cannot save as %1: that file is open in another tab").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    return writeFile(i, path);
}

bool EditorFiles::saveAll()
{
    bool ok = true;
    for (int i = 0; i < m_tabs.count(); ++i) {
        if (m_tabs.isModified(i))
            ok = save(i) && ok;
    }
    return ok;
}

} // namespace clscope::ui
