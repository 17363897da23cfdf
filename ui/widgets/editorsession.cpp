// The editor at quit and start (editorsession.h).
#include "editorsession.h"

#include "editortabs.h"
#include "kerneleditor.h"

#include <QFileInfo>
#include <QMessageBox>

namespace clscope::ui {

namespace {
const QString kSamplePrefix = QStringLiteral("sample:");
}

EditorSession::EditorSession(EditorTabs &tabs)
    : QObject(&tabs)
    , m_tabs(tabs)
{}

bool EditorSession::closeAllAsking()
{
    QStringList titles;
    QList<int> modified;
    for (int i = 0; i < m_tabs.count(); ++i) {
        if (m_tabs.isModified(i)) {
            titles << m_tabs.title(i);
            modified << i;
        }
    }
    if (!titles.isEmpty()) {
        EditorTabs::CloseChoice choice = EditorTabs::CloseChoice::Cancel;
        if (m_tabs.m_confirmAll) {
            choice = m_tabs.m_confirmAll(titles);
        } else {
            QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                            tr("%n kernel(s) have unsaved changes:", nullptr, int(titles.size())),
                            QMessageBox::SaveAll | QMessageBox::Discard | QMessageBox::Cancel, &m_tabs);
            box.setInformativeText(titles.join(u'\n'));
            box.setDefaultButton(QMessageBox::SaveAll);
            const int answer = box.exec();
            choice = answer == QMessageBox::SaveAll   ? EditorTabs::CloseChoice::Save
                     : answer == QMessageBox::Discard ? EditorTabs::CloseChoice::Discard
                                                      : EditorTabs::CloseChoice::Cancel;
        }
        if (choice == EditorTabs::CloseChoice::Cancel)
            return false;
        for (int i : std::as_const(modified)) {
            if (choice == EditorTabs::CloseChoice::Save) {
                if (!m_tabs.save(i))
                    return false; // the failed one says why; every tab stays open
            } else if (KernelEditor *e = m_tabs.editor(i)) {
                e->setModified(false);
            }
        }
    }
    return m_tabs.closeAll();
}

QString EditorSession::entryOf(int index) const
{
    const EditorDocument *doc = m_tabs.document(index);
    if (!doc)
        return {};
    if (!doc->path.isEmpty())
        return doc->path;
    if (EditorTabs::sampleNames().contains(doc->untitledName) && !m_tabs.isModified(index))
        return kSamplePrefix + doc->untitledName;
    return {};
}

QStringList EditorSession::entries() const
{
    QStringList entries;
    for (int i = 0; i < m_tabs.count(); ++i) {
        const QString entry = entryOf(i);
        if (!entry.isEmpty())
            entries << entry;
    }
    return entries;
}

QVariantMap EditorSession::options() const
{
    QVariantMap options;
    for (int i = 0; i < m_tabs.count(); ++i) {
        const QString entry = entryOf(i);
        const QString text = m_tabs.buildOptions(i);
        if (!entry.isEmpty() && !text.isEmpty())
            options.insert(entry, text);
    }
    return options;
}

int EditorSession::restore(const QStringList &entries, const QVariantMap &options)
{
    int opened = 0;
    for (const QString &entry : entries) {
        bool ok = false;
        if (entry.startsWith(kSamplePrefix)) {
            if (EditorTabs::sampleNames().contains(entry.mid(kSamplePrefix.size())))
                ok = m_tabs.openSample(entry.mid(kSamplePrefix.size()));
        } else if (QFileInfo(entry).isFile()) {
            ok = m_tabs.openFile(entry);
        }
        if (!ok)
            continue;
        ++opened;
        // Settings are input too: anything but text is no options.
        const QVariant text = options.value(entry);
        if (text.typeId() == QMetaType::QString)
            m_tabs.setBuildOptions(text.toString());
    }
    return opened;
}

} // namespace clscope::ui
