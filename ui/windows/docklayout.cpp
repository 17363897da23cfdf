// The main window's docks and their layout.
#include "docklayout.h"

#include "widgets/argumentspanel.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace clscope::ui {

namespace {
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
constexpr int kStateVersion = 1;
// The argument rows the Arguments panel keeps room for whatever the bottom panels show (issue 31).
constexpr int kArgumentRows = 4;
// The lowest the bottom panels go to make that room.
constexpr int kMinBottomHeight = 150;

// The dock of a tab group that shows now, or null. The others of its group count as visible too: Qt keeps
// them outside the window instead of hiding them.
QDockWidget *shownDock(const QList<QDockWidget *> &docks, const QMainWindow &window, Qt::DockWidgetArea area)
{
    for (QDockWidget *dock : docks) {
        if (!dock->isFloating() && dock->isVisible() && window.dockWidgetArea(dock) == area &&
            window.rect().contains(dock->geometry()))
            return dock;
    }
    return nullptr;
}
} // namespace

DockLayout::DockLayout(QMainWindow *window, ArgumentsPanel *arguments)
    : QObject(window)
    , m_window(window)
    , m_arguments(arguments)
{
    setObjectName(QStringLiteral("dockLayout"));
}

QDockWidget *DockLayout::addPanel(QWidget *panel, const QString &title, const QString &objectName,
                                  Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, m_window);
    dock->setObjectName(objectName);
    // No panel may force a minimum window size (charts and forms have large minimums, and tabified docks
    // count even when hidden): below its minimum a panel scrolls inside its dock.
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    scroll->setMinimumSize(120, 80);
    dock->setWidget(scroll);
    m_window->addDockWidget(area, dock);
    m_docks << dock;
    return dock;
}

QStringList DockLayout::dockNames() const
{
    QStringList names;
    for (QDockWidget *dock : m_docks)
        names << dock->objectName();
    return names;
}

bool DockLayout::showDock(const QString &name)
{
    for (QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->objectName().compare(name, Qt::CaseInsensitive) == 0 ||
            dock->windowTitle().compare(name, Qt::CaseInsensitive) == 0 ||
            dock->objectName().compare(name + QStringLiteral("Dock"), Qt::CaseInsensitive) == 0) {
            dock->show();
            dock->raise();
            return true;
        }
    }
    return false;
}

void DockLayout::setDefault(QDockWidget *side, QDockWidget *bottom)
{
    m_sideDock = side;
    m_bottomDock = bottom;
    m_defaultState = m_window->saveState(kStateVersion);
    m_window->resize(1280, 800);
    if (m_window->restoreGeometry(QSettings().value(kGeometryKey).toByteArray()))
        keepOnScreen();
}

void DockLayout::restore()
{
    // The layout as the user left it, now that the window has its final size; else the default one.
    if (!m_window->restoreState(QSettings().value(kStateKey).toByteArray(), kStateVersion))
        applyDefaultSizes();
    keepOnScreen(); // now with the window manager's frame
    // A layout saved with tall bottom panels (an earlier version let a capture grow them) gives the
    // Arguments panel its rows back, once the docks have their places.
    QTimer::singleShot(0, this, [this] { keepArgumentsRoom(); });
}

void DockLayout::save(QSettings &settings) const
{
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState(kStateVersion));
}

void DockLayout::reset()
{
    m_window->restoreState(m_defaultState, kStateVersion);
    for (QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->isFloating())
            dock->setFloating(false);
        dock->show();
    }
    m_window->findChild<QDockWidget *>(QStringLiteral("devicesDock"))->raise();
    m_window->findChild<QDockWidget *>(QStringLiteral("diagnosticsDock"))->raise();
    applyDefaultSizes();
}

void DockLayout::keepOnScreen()
{
    // Qt moves a window back only when it is wholly off screen; a window whose status bar is below the
    // screen's edge (a smaller screen now, a panel at the bottom) is moved up and made to fit.
    const QRect frame = m_window->frameGeometry();
    QScreen *onScreen = QGuiApplication::screenAt(frame.center());
    if (!onScreen)
        onScreen = m_window->screen();
    if (!onScreen)
        return;
    const QRect available = onScreen->availableGeometry();
    const QRect inner = m_window->geometry();
    const QSize decoration = frame.size() - inner.size();
    const QSize size =
        inner.size().boundedTo(available.size() - decoration).expandedTo(m_window->minimumSize());
    QRect fitted(frame.topLeft(), size + decoration);
    fitted.moveRight(std::min(fitted.right(), available.right()));
    fitted.moveBottom(std::min(fitted.bottom(), available.bottom()));
    fitted.moveLeft(std::max(fitted.left(), available.left()));
    fitted.moveTop(std::max(fitted.top(), available.top()));
    if (size != inner.size())
        m_window->resize(size);
    if (fitted.topLeft() != frame.topLeft())
        m_window->move(fitted.topLeft());
}

void DockLayout::keepArgumentsRoom(int bottomWanted)
{
    // Measured as laid out now: a restored or resized layout is applied on the next event otherwise.
    if (QLayout *docks = m_window->layout())
        docks->activate();
    // The arrangement the window makes: Arguments (with Devices) on the right, above the bottom panels.
    QDockWidget *side =
        shownDock({m_sideDock, m_window->findChild<QDockWidget *>(QStringLiteral("devicesDock"))}, *m_window,
                  Qt::RightDockWidgetArea);
    QDockWidget *bottom = shownDock(m_docks, *m_window, Qt::BottomDockWidgetArea);
    if (!side || !bottom || !side->widget())
        return;
    const int titleBar = side->height() - side->widget()->height();
    const int need = titleBar + m_arguments->heightForRows(kArgumentRows, side->widget()->width());
    // What the bottom panels may have: the column is shared, what one gets the other loses.
    const int most = std::max(kMinBottomHeight, bottom->height() + side->height() - need);
    const int wanted = bottomWanted < 0 ? bottom->height() : bottomWanted;
    const int height = std::min(wanted, most);

    if (height != bottom->height())
        m_window->resizeDocks({bottom}, {height}, Qt::Vertical);
}

void DockLayout::applyDefaultSizes()
{
    // The editor holds the centre: the side panels about a third of the width, the bottom tabs a quarter of
    // the height.
    const int width = m_window->width();
    const int height = m_window->height();
    m_window->resizeDocks({m_sideDock}, {std::clamp(width * 17 / 50, 320, 520)}, Qt::Horizontal);
    m_window->resizeDocks({m_bottomDock}, {std::max(150, height * 26 / 100)}, Qt::Vertical);
}

} // namespace clscope::ui
