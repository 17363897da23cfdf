// Run history: every run with its arguments, NDRange and duration; select one and re-run it.
#pragma once

#include "widgets/argumentspanel.h"

#include <QDateTime>
#include <QWidget>

class QTreeWidget;

namespace clscope::ui {

struct RunHistoryEntry
{
    QDateTime when;
    ArgumentsState state;
    QString device;
    double kernelUs = 0; // mean END - START of the launches
    double wallMs = 0;
    QString outcome; // "ok", "stopped", or the error
};

class RunHistoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunHistoryPanel(QWidget *parent = nullptr);

    void add(const RunHistoryEntry &entry);
    const QList<RunHistoryEntry> &entries() const { return m_entries; }
    QTreeWidget *list() const { return m_list; }

signals:
    void rerunRequested(const clscope::ui::ArgumentsState &state);

private:
    QList<RunHistoryEntry> m_entries;
    QTreeWidget *m_list;
};

} // namespace clscope::ui
