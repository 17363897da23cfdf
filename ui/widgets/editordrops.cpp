// Dropped files: accepted and opened instead of pasted.
#include "editordrops.h"

#include "editorfiles.h"
#include "editortabs.h"
#include "kerneleditor.h"

#include <QDropEvent>

namespace clscope::ui {

EditorDrops::EditorDrops(EditorTabs &tabs)
    : QObject(&tabs)
    , m_tabs(tabs)
{
    tabs.installEventFilter(this);
}

void EditorDrops::watch(KernelEditor *editor)
{
    editor->viewport()->installEventFilter(this);
}

void EditorDrops::unwatch(KernelEditor *editor)
{
    editor->viewport()->removeEventFilter(this);
}

bool EditorDrops::eventFilter(QObject *watched, QEvent *event)
{
    // Editors take text drops themselves, and the tabs take dragged tabs: only drags of files the editor
    // can open are taken here; anything else goes on to the widget.
    const QEvent::Type type = event->type();
    if (type != QEvent::DragEnter && type != QEvent::DragMove && type != QEvent::Drop)
        return QObject::eventFilter(watched, event);
    auto *drop = static_cast<QDropEvent *>(event);
    const QStringList files = EditorFiles::openableFiles(drop->mimeData());
    if (files.isEmpty())
        return QObject::eventFilter(watched, event);
    drop->acceptProposedAction();
    if (type == QEvent::Drop) {
        if (const QStringList captures = m_tabs.m_files->openDropped(files); !captures.isEmpty())
            emit m_tabs.capturesDropped(captures);
    }
    return true;
}

} // namespace clscope::ui
