// The start page: buttons and links only (no shortcuts of its own), so a click never reaches a menu.
#include "startpage.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

namespace clscope::ui {

StartPage::StartPage(const QStringList &samples, QWidget *parent)
    : QWidget(parent)
    , m_recent(new QVBoxLayout)
{
    setObjectName(QStringLiteral("startPage"));
    auto *title = new QLabel(tr("<h2>CLScope</h2><p>Write an OpenCL kernel, build it, run it, see where the "
                                "time goes.</p>"));
    title->setWordWrap(true);

    auto *sample = new QCommandLinkButton(tr("Open a sample"), tr("A kernel with its arguments filled in"));
    sample->setObjectName(QStringLiteral("startSample"));
    auto *menu = new QMenu(sample);
    for (const QString &name : samples)
        menu->addAction(name, this, [this, name] { emit sampleRequested(name); });
    sample->setMenu(menu);
    auto *fresh = new QCommandLinkButton(tr("New kernel"), tr("From a template that builds and runs"));
    fresh->setObjectName(QStringLiteral("startNew"));
    auto *open = new QCommandLinkButton(tr("Open a file…"), tr(".cl sources and headers"));
    open->setObjectName(QStringLiteral("startOpen"));
    connect(fresh, &QCommandLinkButton::clicked, this, &StartPage::newKernelRequested);
    connect(open, &QCommandLinkButton::clicked, this, &StartPage::openFileRequested);

    auto *steps = new QLabel(tr("<h3>Three steps</h3><ol>"
                                "<li><b>Ctrl+B</b> builds the kernel on the current device (pick one in "
                                "Devices or in the toolbar); errors appear at their lines.</li>"
                                "<li>The <b>Arguments</b> panel fills from the kernel's signature: give each "
                                "argument a value or a buffer and set the NDRange.</li>"
                                "<li><b>F5</b> runs it; Results shows the buffers, Timeline the time.</li>"
                                "</ol>"));
    steps->setWordWrap(true);

    auto *recentTitle = new QLabel(tr("<h3>Recent files</h3>"));
    auto *left = new QVBoxLayout;
    left->addWidget(sample);
    left->addWidget(fresh);
    left->addWidget(open);
    left->addWidget(recentTitle);
    left->addLayout(m_recent);
    left->addStretch();

    auto *grid = new QGridLayout;
    grid->addWidget(title, 0, 0, 1, 2);
    grid->addLayout(left, 1, 0, Qt::AlignTop);
    grid->addWidget(steps, 1, 1, Qt::AlignTop);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);

    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(24, 16, 24, 16);
    outer->addLayout(grid);
    outer->addStretch();
    setRecentFiles({});
}

void StartPage::setRecentFiles(const QStringList &paths)
{
    while (QLayoutItem *item = m_recent->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (paths.isEmpty()) {
        auto *none = new QLabel(tr("None yet."));
        none->setEnabled(false);
        m_recent->addWidget(none);
        return;
    }
    for (const QString &path : paths) {
        auto *link = new QPushButton(QFileInfo(path).fileName());
        link->setFlat(true);
        link->setToolTip(QDir::toNativeSeparators(path));
        link->setStyleSheet(QStringLiteral("text-align: left; color: palette(link);"));
        connect(link, &QPushButton::clicked, this, [this, path] { emit recentFileRequested(path); });
        m_recent->addWidget(link);
    }
}

QString StartPage::kernelTemplate()
{
    return QStringLiteral(
        "// A new kernel: Ctrl+B builds it, the clscope-run line fills the Arguments panel, F5 runs it.\n"
        "// clscope-run: --kernel scale --global 1024 --arg x=buffer:float:1024:iota --arg factor=float:2\n"
        "// clscope-run: --print x\n"
        "__kernel void scale(__global float *x, const float factor)\n"
        "{\n"
        "    const size_t i = get_global_id(0);\n"
        "    x[i] *= factor;\n"
        "}\n");
}

} // namespace clscope::ui
