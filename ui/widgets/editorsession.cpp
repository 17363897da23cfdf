// EditorTabs at quit and start: one question for every unsaved buffer, and the tabs of the last session.
#include "editortabs.h"
#include "kerneleditor.h"

#include <QFileInfo>
#include <QMessageBox>

namespace clscope::ui {

namespace {
const QString kSamplePrefix = QStringLiteral("sample:");
}

bool EditorTabs::closeAllAsking()
{
    QStringList titles;
    QList<int> modified;
    for (int i = 0; i < count(); ++i) {
        if (isModified(i)) {
            titles << title(i);
            modified << i;
        }
    }
    if (!titles.isEmpty()) {
        CloseChoice choice = CloseChoice::Cancel;
        if (m_confirmAll) {
            choice = m_confirmAll(titles);
        } else {
            QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                            tr("%n kernel(s) have unsaved changes:", nullptr, int(titles.size())),
                            QMessageBox::SaveAll | QMessageBox::Discard | QMessageBox::Cancel, this);
            box.setInformativeText(titles.join(u'\n'));
            box.setDefaultButton(QMessageBox::SaveAll);
            const int answer = box.exec();
            choice = answer == QMessageBox::SaveAll   ? CloseChoice::Save
                     : answer == QMessageBox::Discard ? CloseChoice::Discard
                                                      : CloseChoice::Cancel;
        }
        if (choice == CloseChoice::Cancel)
            return false;
        for (int i : std::as_const(modified)) {
            if (choice == CloseChoice::Save) {
                if (!save(i))
                    return false; // the failed one says why; every tab stays open
            } else if (KernelEditor *e = editor(i)) {
                e->setModified(false);
            }
        }
    }
    return closeAll();
}

QString EditorTabs::sessionEntry(int index) const
{
    const Document *doc = document(index);
    if (!doc)
        return {};
    if (!doc->path.isEmpty())
        return doc->path;
    if (sampleNames().contains(doc->untitledName) && !isModified(index))
        return kSamplePrefix + doc->untitledName;
    return {};
}

QStringList EditorTabs::sessionEntries() const
{
    QStringList entries;
    for (int i = 0; i < count(); ++i) {
        const QString entry = sessionEntry(i);
        if (!entry.isEmpty())
            entries << entry;
    }
    return entries;
}

QVariantMap EditorTabs::sessionOptions() const
{
    QVariantMap options;
    for (int i = 0; i < count(); ++i) {
        const QString entry = sessionEntry(i);
        const QString text = buildOptions(i);
        if (!entry.isEmpty() && !text.isEmpty())
            options.insert(entry, text);
    }
    return options;
}

int EditorTabs::restoreSession(const QStringList &entries, const QVariantMap &options)
{
    int opened = 0;
    for (const QString &entry : entries) {
        bool ok = false;
        if (entry.startsWith(kSamplePrefix)) {
            if (sampleNames().contains(entry.mid(kSamplePrefix.size())))
                ok = openSample(entry.mid(kSamplePrefix.size()));
        } else if (QFileInfo(entry).isFile()) {
            ok = openFile(entry);
        }
        if (!ok)
            continue;
        ++opened;
        // Settings are input too: anything but text is no options.
        const QVariant text = options.value(entry);
        if (text.typeId() == QMetaType::QString)
            setBuildOptions(text.toString());
    }
    return opened;
}

} // namespace clscope::ui
