// The centre of the main window: the start page while no kernel is open, the editor (with its find bar)
// when one is, and a capture's views while it is looked at. A tab bar over them (Kernels | Capture) appears
// once there is a capture and switches between the two.
#pragma once

#include <QWidget>

class QStackedWidget;
class QTabBar;

namespace clscope::ui {

class CaptureDock;
class CaptureSession;
class EditorTabs;
class FindBar;
class StartPage;

class WindowCentre : public QWidget
{
    Q_OBJECT
public:
    explicit WindowCentre(EditorTabs *editors, QWidget *parent = nullptr);

    StartPage *startPage() const { return m_startPage; }
    FindBar *findBar() const { return m_findBar; }
    CaptureDock *captureDock() const { return m_captureDock; }

    // The capture shown in the Capture tab; when it loads, the tab bar appears and the capture comes to
    // the centre.
    void setCaptureSession(const CaptureSession *session);
    // The capture's views (when there is a capture), else the editor or the start page.
    void showCentre(bool capture);
    // The capture's views, when there is a capture (false otherwise).
    bool showCapture();

private:
    EditorTabs *m_editors;
    const CaptureSession *m_session = nullptr;
    StartPage *m_startPage;
    FindBar *m_findBar;
    CaptureDock *m_captureDock;
    QStackedWidget *m_stack;
    QTabBar *m_tabs;
};

} // namespace clscope::ui
