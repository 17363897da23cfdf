// Run history: every run with its device, arguments, NDRange and duration, failures included; select one
// and re-run it; Clear empties the list.
#pragma once

#include "widgets/argumentspanel.h"

#include <QDateTime>
#include <QWidget>

#include <chrono>
#include <optional>

class QPushButton;
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
    bool failed = false;
};

class RunHistoryPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        NumberColumn,
        TimeColumn,
        KernelColumn,
        DeviceColumn,
        RangeColumn,
        KernelTimeColumn,
        RunColumn,
        ResultColumn,
        ArgumentsColumn,
        ColumnCount
    };

    explicit RunHistoryPanel(QWidget *parent = nullptr);

    // A run is on its way to `device`: a failure added next (an entry without a device or a duration) gets
    // this device and the time from `start` to its add() as its duration. A failed run has no RunResult to
    // say either, and its time is what the user waited.
    void runStarted(const QString &device,
                    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
    void add(RunHistoryEntry entry);
    // Shorthand for a failed run started with runStarted().
    void addFailure(const ArgumentsState &state, const QString &message);
    void clear();
    const QList<RunHistoryEntry> &entries() const { return m_entries; }
    QTreeWidget *list() const { return m_list; }
    QPushButton *clearButton() const { return m_clear; }

signals:
    void rerunRequested(const clscope::ui::ArgumentsState &state);

private:
    struct Pending
    {
        QString device;
        std::chrono::steady_clock::time_point start;
    };

    QList<RunHistoryEntry> m_entries;
    std::optional<Pending> m_pending;
    QTreeWidget *m_list;
    QPushButton *m_clear;
};

} // namespace clscope::ui
