// The editor at quit and start: one question for every unsaved buffer (Save all / Discard / Cancel), and
// the tabs of the last session (saved files by path, unmodified samples as "sample:NAME", each with its
// build options). A part of EditorTabs, whose public calls come here.
#pragma once

#include <QObject>
#include <QStringList>
#include <QVariantMap>

namespace clscope::ui {

class EditorTabs;

class EditorSession : public QObject
{
    Q_OBJECT
public:
    explicit EditorSession(EditorTabs &tabs);

    bool closeAllAsking();
    QStringList entries() const;
    QVariantMap options() const;
    int restore(const QStringList &entries, const QVariantMap &options);

private:
    // What entries() lists for a tab: its file, "sample:NAME" for an unmodified sample, else empty.
    QString entryOf(int index) const;

    EditorTabs &m_tabs;
};

} // namespace clscope::ui
