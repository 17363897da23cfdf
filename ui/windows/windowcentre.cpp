// The main window's centre: start page, editor or capture.
#include "windowcentre.h"

#include "controllers/capturesession.h"
#include "widgets/capturedock.h"
#include "widgets/editortabs.h"
#include "widgets/findbar.h"
#include "widgets/startpage.h"

#include <QScrollArea>
#include <QStackedWidget>
#include <QTabBar>
#include <QVBoxLayout>

namespace clscope::ui {

WindowCentre::WindowCentre(EditorTabs *editors, QWidget *parent)
    : QWidget(parent)
    , m_editors(editors)
    , m_startPage(new StartPage(EditorTabs::sampleNames()))
    , m_findBar(new FindBar(editors))
    , m_captureDock(new CaptureDock)
    , m_stack(new QStackedWidget)
    , m_tabs(new QTabBar)
{
    // The start page scrolls rather than set the window's minimum height (ten recent files are taller than
    // a 700-pixel screen).
    auto *startScroll = new QScrollArea;
    startScroll->setWidgetResizable(true);
    startScroll->setFrameShape(QFrame::NoFrame);
    startScroll->setWidget(m_startPage);
    m_stack->addWidget(startScroll);
    auto *editorArea = new QWidget;
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_editors, 1);
    editorLayout->addWidget(m_findBar);
    m_stack->addWidget(editorArea);
    // A capture's views are the centre while it is looked at: the tab bar switches between the kernels
    // (start page or editor) and the capture once there is one.
    // In a scroll area, as the start page: the capture's tables do not set the window's minimum size.
    auto *captureScroll = new QScrollArea;
    captureScroll->setWidgetResizable(true);
    captureScroll->setFrameShape(QFrame::NoFrame);
    captureScroll->setWidget(m_captureDock);
    m_stack->addWidget(captureScroll);
    m_tabs->setObjectName(QStringLiteral("centreTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setExpanding(false);
    m_tabs->addTab(tr("Kernels"));
    m_tabs->addTab(tr("Capture"));
    m_tabs->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_tabs);
    layout->addWidget(m_stack, 1);

    connect(m_tabs, &QTabBar::currentChanged, this, [this](int tab) { showCentre(tab == 1); });
    connect(m_editors, &EditorTabs::currentDocumentChanged, this, [this] { showCentre(false); });
    connect(m_startPage, &StartPage::sampleRequested, this,
            [this](const QString &name) { m_editors->openSample(name); });
    connect(m_editors, &EditorTabs::recentFilesChanged, this,
            [this] { m_startPage->setRecentFiles(m_editors->recentFiles()); });
    m_startPage->setRecentFiles(m_editors->recentFiles());
    showCentre(false);
}

void WindowCentre::setCaptureSession(const CaptureSession *session)
{
    m_session = session;
    // A capture loaded (opened, or the program's first read) comes to the centre.
    connect(session, &CaptureSession::loaded, this, [this] {
        m_tabs->show();
        showCentre(true);
    });
}

bool WindowCentre::showCapture()
{
    showCentre(true);
    return m_stack->currentIndex() == 2;
}

void WindowCentre::showCentre(bool capture)
{
    const bool haveCapture = m_session && m_session->state() != CaptureSession::State::Empty;
    capture = capture && haveCapture;
    m_stack->setCurrentIndex(capture ? 2 : (m_editors->count() > 0 ? 1 : 0));
    const QSignalBlocker block(m_tabs);
    m_tabs->setCurrentIndex(capture ? 1 : 0);
}

} // namespace clscope::ui
