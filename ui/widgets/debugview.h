// The Debugger panel: where a debugged work-item stopped, its variables, the work-group's __local arrays,
// the call stack, the kernel's global buffers (Show in results puts them in the results viewer), and the
// group's work-items with where each is; buttons to continue, step over, into and
// out, and stop; a chooser that switches to another work-item of the group; progress while the launch runs.
// It shows what DebugCoordinator gives it and says what the user asked for through signals; it never talks
// to the debugged process itself.
#pragma once

#include "clscope/debug.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace clscope::ui {

class DebugView : public QWidget
{
    Q_OBJECT
public:
    explicit DebugView(QWidget *parent = nullptr);

    enum class State { Idle, Running, Paused };
    // Idle: text says what happened last; Running: text says what runs (progress comes apart); Paused: the
    // stop is shown with setStop.
    void setState(State state, const QString &text);
    State state() const { return m_state; }
    void setProgress(std::uint64_t started, std::uint64_t total);
    void setStop(const DebugStop &stop, const QString &sourceLine);

    void setVariables(const DebugItem &item, const std::vector<DebugValue> &values, const QString &error);
    void setLocalArrays(const std::vector<DebugValue> &values);
    void setBuffers(const std::vector<DebugValue> &values);
    // The global buffers of the stop as the plugin sent them; empty while not paused.
    const std::vector<DebugValue> &buffers() const { return m_bufferValues; }
    void setFrames(const std::vector<DebugFrame> &frames);
    void setItems(const std::vector<DebugItem> &items, const WorkItemId &selected);

    QString statusText() const;
    QTreeWidget *variablesTree() const { return m_variables; }
    QTreeWidget *localsTree() const { return m_locals; }
    QTreeWidget *buffersTree() const { return m_buffers; }
    QTreeWidget *framesTree() const { return m_frames; }
    QComboBox *itemChooser() const { return m_chooser; }
    QLineEdit *itemEdit() const { return m_itemEdit; }
    QPushButton *continueButton() const { return m_continue; }
    QPushButton *stepOverButton() const { return m_stepOver; }
    QPushButton *stepIntoButton() const { return m_stepInto; }
    QPushButton *stepOutButton() const { return m_stepOut; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *pauseButton() const { return m_pause; }
    // Shown while a variable of the stop is optimised out: debug again with -cl-opt-disable.
    QPushButton *unoptimisedButton() const { return m_unoptimised; }
    // Asks for the stop's global buffers in the results viewer, the one chosen in the Buffers tab first.
    QPushButton *showInResultsButton() const { return m_showInResults; }
    QTabWidget *tabs() const { return m_tabs; }
    // The breakpoints' conditions: only this work-item (its global id), only when this holds
    // ("VARIABLE OP NUMBER"). Either may be empty. The work-item's text is checked: *ok false when it is not
    // an id.
    std::optional<WorkItemId> onlyItem(bool *ok) const;
    QString onlyWhen() const;
    QLineEdit *onlyItemEdit() const { return m_onlyItem; }
    QLineEdit *onlyWhenEdit() const { return m_onlyWhen; }
    // The text of a variable's row by its path of names ("p", "scale"); "" when there is none.
    QString valueOf(const QStringList &path) const;

signals:
    void continueRequested();
    void stepRequested(const QString &kind); // over, into, out
    void stopRequested();
    void pauseRequested();
    void unoptimisedRequested();
    // `buffer`: the buffer chosen in the Buffers tab (an element chosen: its buffer), or empty.
    void showInResultsRequested(const QString &buffer);
    void itemRequested(const clscope::WorkItemId &global);
    void frameActivated(const QString &file, int line);
    void conditionsChanged();

private:
    void fill(QTreeWidget *tree, const std::vector<DebugValue> &values);
    void chooseTypedItem();

    State m_state = State::Idle;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPushButton *m_continue;
    QPushButton *m_stepOver;
    QPushButton *m_stepInto;
    QPushButton *m_stepOut;
    QPushButton *m_stop;
    QPushButton *m_pause;
    QPushButton *m_unoptimised;
    QPushButton *m_showInResults;
    QComboBox *m_chooser;
    QLineEdit *m_itemEdit;
    QLineEdit *m_onlyItem;
    QLineEdit *m_onlyWhen;
    QTabWidget *m_tabs;
    QTreeWidget *m_variables;
    QTreeWidget *m_locals;
    QTreeWidget *m_buffers;
    QTreeWidget *m_frames;
    std::vector<DebugItem> m_items;
    std::vector<DebugValue> m_bufferValues;
    bool m_filling = false;
};

} // namespace clscope::ui
