// Files dropped on the editor: dragged files the editor can open are accepted on the tabs and on every
// editor (which would otherwise paste their URLs as text), opened in tabs, and the captures among them
// passed on (EditorTabs::capturesDropped) for the window to open. A part of EditorTabs.
#pragma once

#include <QObject>

namespace clscope::ui {

class EditorTabs;
class KernelEditor;

class EditorDrops : public QObject
{
    Q_OBJECT
public:
    // Watches the tabs themselves from now on; editors are added with watch().
    explicit EditorDrops(EditorTabs &tabs);

    void watch(KernelEditor *editor);
    void unwatch(KernelEditor *editor);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    EditorTabs &m_tabs;
};

} // namespace clscope::ui
