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

QStringList EditorTabs::sessionEntries() const
{
    QStringList entries;
    const QStringList samples = sampleNames();
    for (int i = 0; i < count(); ++i) {
        const Document *doc = document(i);
        if (!doc)
            continue;
        if (!doc->path.isEmpty())
            entries << doc->path;
        else if (samples.contains(doc->untitledName) && !isModified(i))
            entries << kSamplePrefix + doc->untitledName;
    }
    return entries;
}

int EditorTabs::restoreSession(const QStringList &entries)
{
    int opened = 0;
    for (const QString &entry : entries) {
        if (entry.startsWith(kSamplePrefix)) {
            if (sampleNames().contains(entry.mid(kSamplePrefix.size())))
                opened += openSample(entry.mid(kSamplePrefix.size())) ? 1 : 0;
        } else if (QFileInfo(entry).isFile()) {
            opened += openFile(entry) ? 1 : 0;
        }
    }
    return opened;
}

} // namespace clscope::ui
