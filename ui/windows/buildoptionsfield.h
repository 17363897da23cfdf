// The build options field of the build tool bar: it shows and edits the options of the current tab's program
// (each tab has its own: EditorTabs::buildOptions) and offers the options of earlier builds, remembered in
// QSettings, to choose from.
#pragma once

#include <QObject>

#include <functional>

class QComboBox;

namespace clscope::ui {

class EditorTabs;
class KernelEditor;

class BuildOptionsField : public QObject
{
    Q_OBJECT
public:
    // programEditor: the editor whose program the current tab belongs to (a header's includer).
    BuildOptionsField(EditorTabs *editors, std::function<KernelEditor *()> programEditor,
                      QObject *parent = nullptr);

    QComboBox *box() const { return m_box; } // for a tool bar, which takes it
    // Puts options first in the history of built options.
    void remember(const QString &options);
    // Shows the options of the current tab's program.
    void showProgramOptions();

private:
    EditorTabs *m_editors;
    std::function<KernelEditor *()> m_programEditor;
    QComboBox *m_box;
    bool m_showing = false; // the field is being set from a tab, not typed into
};

} // namespace clscope::ui
