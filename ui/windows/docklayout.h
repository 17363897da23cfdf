// The main window's panels as docks and their layout: each panel in a dock of its own (scrolling below its
// minimum size), the default arrangement and sizes (View → Reset layout), the window's geometry and dock
// state saved at quit and restored at the next start, the window kept on its screen, and the Arguments
// panel kept tall enough for its rows whatever the bottom panels ask for.
#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QStringList>

class QDockWidget;
class QMainWindow;
class QSettings;
class QWidget;

namespace clscope::ui {

class ArgumentsPanel;

class DockLayout : public QObject
{
    Q_OBJECT
public:
    // The layout of `window`'s docks; `arguments` is the panel whose rows it keeps room for.
    DockLayout(QMainWindow *window, ArgumentsPanel *arguments);

    // A dock for `panel` in `area`, named `objectName` (what the saved layout and showDock know it by).
    QDockWidget *addPanel(QWidget *panel, const QString &title, const QString &objectName,
                          Qt::DockWidgetArea area);
    const QList<QDockWidget *> &docks() const { return m_docks; }
    QStringList dockNames() const;
    // Raises the dock whose object name or title matches (case-insensitive); false when none does.
    bool showDock(const QString &name);

    // The arrangement as made now is the default one; `side` and `bottom` are the docks whose sizes the
    // defaults set. Restores the window's saved geometry.
    void setDefault(QDockWidget *side, QDockWidget *bottom);
    // Once the window shows: the layout as the user left it, else the default one.
    void restore();
    // The window's geometry and dock state, for restore() at the next start.
    void save(QSettings &settings) const;
    // The panels where a first start puts them, at the default sizes.
    void reset();

    // Gives the bottom panels `bottomWanted` pixels of height (-1: what they have), less where the Arguments
    // panel beside them would show fewer than four argument rows.
    void keepArgumentsRoom(int bottomWanted = -1);

private:
    void applyDefaultSizes();
    // Moves and shrinks the window so that all of it, status bar included, is on its screen.
    void keepOnScreen();

    QMainWindow *m_window;
    ArgumentsPanel *m_arguments;
    QList<QDockWidget *> m_docks;
    QDockWidget *m_sideDock = nullptr;
    QDockWidget *m_bottomDock = nullptr;
    QByteArray m_defaultState;
};

} // namespace clscope::ui
