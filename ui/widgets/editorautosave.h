// The editor's autosave: every few seconds after an edit, each modified buffer whose autosave is out of
// date is written to the AutosaveStore (autosave.h); a failure shows a notice above that buffer and keeps
// trying. At the start, the buffers a dead instance left behind are offered for recovery. A part of
// EditorTabs, whose public calls come here.
#pragma once

#include "widgets/autosave.h"

#include <QObject>
#include <QString>

#include <memory>

class QTimer;

namespace clscope::ui {

class EditorTabs;
struct EditorDocument;

class EditorAutosave : public QObject
{
    Q_OBJECT
public:
    explicit EditorAutosave(EditorTabs &tabs);
    ~EditorAutosave() override;

    const AutosaveStore &store() const { return *m_store; }
    // Why the last autosave of some buffer failed; empty while autosave works.
    QString error() const { return m_error; }
    void setInterval(int msec);
    int interval() const;

    // A buffer was edited: its autosave is due once the interval has passed.
    void edited();
    // The buffer is saved (or back to what is on disk): its autosave goes.
    void remove(EditorDocument &doc);
    // Writes every modified buffer whose autosave is out of date; returns how many were written.
    int saveNow();
    // The tabs are going: a last save, without notices.
    void finalSave();

    QList<AutosaveRecord> pendingRecoveries();
    int restoreRecoveries();
    void discardRecoveries();

private:
    EditorTabs &m_tabs;
    std::unique_ptr<AutosaveStore> m_store;
    QTimer *m_timer;
    QString m_error;
    bool m_destroying = false;
};

} // namespace clscope::ui
