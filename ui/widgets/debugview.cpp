// The Debugger panel's widgets (see debugview.h).
#include "debugview.h"

#include "display/stdstring.h"

#include <QComboBox>

#include <algorithm>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

QString idText(const WorkItemId &id)
{
    return qs(formatWorkItemId(id));
}

QString whereText(const DebugItem &item)
{
    QString text = idText(item.global) + QStringLiteral("  local ") + idText(item.local) +
                   QStringLiteral("  — ") + qs(item.state);
    if (item.line > 0)
        text += QObject::tr(", line %1").arg(item.line);
    return text;
}

void addValue(QTreeWidgetItem *parent, QTreeWidget *tree, const DebugValue &v)
{
    auto *row = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    row->setText(0, qs(v.name));
    row->setText(1, v.error.empty() ? qs(v.value) : QObject::tr("<%1>").arg(qs(v.error)));
    QString type = qs(v.type);
    if (v.elements > v.children.size() && !v.children.empty())
        type += QObject::tr(" (first %1 of %2)").arg(v.children.size()).arg(v.elements);
    row->setText(2, type);
    if (!v.error.empty())
        row->setForeground(1, QColor(0x90, 0x60, 0x00));
    for (const DebugValue &c : v.children)
        addValue(row, tree, c);
}

QTreeWidget *valueTree(const QString &name)
{
    auto *tree = new QTreeWidget;
    tree->setObjectName(name);
    tree->setColumnCount(3);
    tree->setHeaderLabels({QObject::tr("Name"), QObject::tr("Value"), QObject::tr("Type")});
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    return tree;
}

} // namespace

DebugView::DebugView(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_continue(new QPushButton(tr("Continue"), this))
    , m_stepOver(new QPushButton(tr("Step over"), this))
    , m_stepInto(new QPushButton(tr("Step into"), this))
    , m_stepOut(new QPushButton(tr("Step out"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_pause(new QPushButton(tr("Pause"), this))
    , m_unoptimised(new QPushButton(tr("Debug again with -cl-opt-disable"), this))
    , m_showInResults(new QPushButton(tr("Show in results"), this))
    , m_chooser(new QComboBox(this))
    , m_itemEdit(new QLineEdit(this))
    , m_onlyItem(new QLineEdit(this))
    , m_onlyWhen(new QLineEdit(this))
    , m_tabs(new QTabWidget(this))
    , m_variables(valueTree(QStringLiteral("debugVariables")))
    , m_locals(valueTree(QStringLiteral("debugLocalMemory")))
    , m_buffers(valueTree(QStringLiteral("debugBuffers")))
    , m_frames(new QTreeWidget)
{
    setObjectName(QStringLiteral("debugView"));
    m_continue->setObjectName(QStringLiteral("debugContinue"));
    m_stepOver->setObjectName(QStringLiteral("debugStepOver"));
    m_stepInto->setObjectName(QStringLiteral("debugStepInto"));
    m_stepOut->setObjectName(QStringLiteral("debugStepOut"));
    m_stop->setObjectName(QStringLiteral("debugStop"));
    m_pause->setObjectName(QStringLiteral("debugPause"));
    m_unoptimised->setObjectName(QStringLiteral("debugUnoptimised"));
    m_unoptimised->setToolTip(
        tr("Variables the compiler optimised out have no place to be read from: end this "
           "launch and debug it again built without optimisation"));
    m_unoptimised->hide();
    m_showInResults->setObjectName(QStringLiteral("debugShowInResults"));
    m_showInResults->setToolTip(tr("Show the global buffers as they are at this stop in the Results panel "
                                   "(its table, number formats and picture), the one chosen under Buffers "
                                   "first; the last run's result stays there to go back to"));
    m_pause->setToolTip(tr("Stop the running launch at the next line any work-item starts"));
    m_chooser->setObjectName(QStringLiteral("debugItemChooser"));
    m_itemEdit->setObjectName(QStringLiteral("debugItemEdit"));
    m_status->setObjectName(QStringLiteral("debugStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_continue->setToolTip(tr("Run to the next breakpoint (F6)"));
    m_stepOver->setToolTip(tr("Run the work-item to its next line, over calls (F10)"));
    m_stepInto->setToolTip(tr("Run the work-item to its next line, into calls (F11)"));
    m_stepOut->setToolTip(tr("Run the work-item until its function returns (Shift+F11)"));
    m_stop->setToolTip(tr("End the debugged launch (Shift+F6)"));
    m_chooser->setToolTip(tr("The work-items of the stopped work-group and where each is: choose one to read "
                             "its variables; step and continue act on it"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_chooser->setMinimumContentsLength(28);
    m_itemEdit->setPlaceholderText(tr("X,Y,Z or local X,Y,Z"));
    m_itemEdit->setToolTip(tr("A work-item of the stopped group by its global id, or by its local id "
                              "(local 2,0,0); Enter shows it"));
    m_itemEdit->setMaximumWidth(140);
    m_onlyItem->setObjectName(QStringLiteral("debugOnlyItem"));
    m_onlyWhen->setObjectName(QStringLiteral("debugOnlyWhen"));
    m_onlyItem->setPlaceholderText(tr("any work-item"));
    m_onlyItem->setToolTip(tr("Breakpoints stop only this work-item: its global id X[,Y[,Z]]"));
    m_onlyItem->setMaximumWidth(120);
    m_onlyWhen->setPlaceholderText(tr("always, or e.g. i == 3"));
    m_onlyWhen->setToolTip(
        tr("Breakpoints stop only when this holds there: VARIABLE OP NUMBER, OP one of == != "
           "< <= > >= (the variable may be a[2], p.x, v.y)"));
    m_onlyWhen->setMaximumWidth(180);
    m_progress->setMaximumHeight(14);
    m_progress->setTextVisible(false);
    m_progress->hide();

    m_frames->setObjectName(QStringLiteral("debugCallStack"));
    m_frames->setColumnCount(3);
    m_frames->setHeaderLabels({tr("Function"), tr("File"), tr("Line")});
    m_frames->setRootIsDecorated(false);
    m_tabs->addTab(m_variables, tr("Variables"));
    m_tabs->addTab(m_locals, tr("Local memory"));
    m_tabs->addTab(m_buffers, tr("Buffers"));
    m_tabs->addTab(m_frames, tr("Call stack"));

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b :
         {m_continue, m_stepOver, m_stepInto, m_stepOut, m_pause, m_stop, m_unoptimised, m_showInResults})
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(new QLabel(tr("Breakpoints stop:"), this));
    buttons->addWidget(m_onlyItem);
    buttons->addWidget(new QLabel(tr("when"), this));
    buttons->addWidget(m_onlyWhen);
    // The work-item chooser rides in the tabs' corner: the rows below keep the height for the variables.
    auto *corner = new QWidget(this);
    auto *items = new QHBoxLayout(corner);
    items->setContentsMargins(0, 0, 0, 2);
    items->addWidget(new QLabel(tr("Work-item:"), corner));
    items->addWidget(m_chooser, 1);
    items->addWidget(m_itemEdit);
    m_tabs->setCornerWidget(corner, Qt::TopRightCorner);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_tabs, 1);

    connect(m_continue, &QPushButton::clicked, this, &DebugView::continueRequested);
    connect(m_stepOver, &QPushButton::clicked, this, [this] { emit stepRequested(QStringLiteral("over")); });
    connect(m_stepInto, &QPushButton::clicked, this, [this] { emit stepRequested(QStringLiteral("into")); });
    connect(m_stepOut, &QPushButton::clicked, this, [this] { emit stepRequested(QStringLiteral("out")); });
    connect(m_stop, &QPushButton::clicked, this, &DebugView::stopRequested);
    connect(m_pause, &QPushButton::clicked, this, &DebugView::pauseRequested);
    connect(m_unoptimised, &QPushButton::clicked, this, &DebugView::unoptimisedRequested);
    connect(m_showInResults, &QPushButton::clicked, this, [this] {
        QTreeWidgetItem *item = m_buffers->currentItem();
        while (item && item->parent())
            item = item->parent();
        emit showInResultsRequested(item ? item->text(0) : QString());
    });
    connect(m_chooser, &QComboBox::activated, this, [this](int index) {
        if (!m_filling && index >= 0 && std::size_t(index) < m_items.size())
            emit itemRequested(m_items[std::size_t(index)].global);
    });
    connect(m_itemEdit, &QLineEdit::returnPressed, this, &DebugView::chooseTypedItem);
    for (QLineEdit *e : {m_onlyItem, m_onlyWhen})
        connect(e, &QLineEdit::editingFinished, this, &DebugView::conditionsChanged);
    connect(m_frames, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem *item) { emit frameActivated(item->text(1), item->text(2).toInt()); });
    setState(
        State::Idle,
        tr("Set breakpoints with a click left of a line's number (F9), then Debug > Debug launch (F6) runs "
           "the launch on the Oclgrind simulator to the first one. A captured launch: Debug in the Capture "
           "panel, or right-click it in the timeline."));
}

void DebugView::setState(State state, const QString &text)
{
    m_state = state;
    const bool paused = state == State::Paused;
    for (QPushButton *b : {m_continue, m_stepOver, m_stepInto, m_stepOut})
        b->setEnabled(paused);
    m_stop->setEnabled(state != State::Idle);
    m_pause->setEnabled(state == State::Running);
    m_chooser->setEnabled(paused);
    m_itemEdit->setEnabled(paused);
    m_status->setText(text);
    if (state != State::Running)
        m_progress->hide();
    if (state != State::Paused) {
        m_unoptimised->hide();
        m_showInResults->setObjectName(QStringLiteral("debugShowInResults"));
        m_showInResults->setToolTip(
            tr("Show the global buffers as they are at this stop in the Results panel "
               "(its table, number formats and picture), the one chosen under Buffers "
               "first; the last run's result stays there to go back to"));
        m_tabs->setTabText(0, tr("Variables"));
        m_variables->clear();
        m_locals->clear();
        m_buffers->clear();
        m_bufferValues.clear();
        m_showInResults->setEnabled(false);
        m_frames->clear();
        m_filling = true;
        m_chooser->clear();
        m_filling = false;
        m_items.clear();
    }
}

void DebugView::setProgress(std::uint64_t started, std::uint64_t total)
{
    if (m_state != State::Running || total == 0)
        return;
    m_progress->setRange(0, 1000);
    m_progress->setValue(int(1000.0 * double(std::min(started, total)) / double(total)));
    m_progress->show();
}

void DebugView::setStop(const DebugStop &stop, const QString &sourceLine)
{
    QString reason = qs(stop.reason);
    if (stop.reason == "barrier")
        reason = tr("the work-group reached the barrier");
    else if (stop.reason == "error")
        reason = tr("Oclgrind reported an error");
    else if (stop.reason == "start")
        reason = tr("its first line");
    else if (stop.reason == "cursor")
        reason = tr("run to cursor");
    else if (stop.reason == "watch")
        reason = tr("it writes the watched element");
    QString text =
        tr("Stopped before line %1 of %2 in %3 (%4): work-item %5, local %6, group %7")
            .arg(stop.line)
            .arg(qs(stop.file).isEmpty() ? tr("the source") : qs(stop.file), qs(stop.function), reason,
                 idText(stop.item.global), idText(stop.item.local), idText(stop.item.group));
    if (!sourceLine.isEmpty())
        text += QStringLiteral("\n    ") + sourceLine;
    if (!stop.message.empty())
        text += QStringLiteral("\n") + qs(stop.message).trimmed();
    setState(State::Paused, text);
}

void DebugView::fill(QTreeWidget *tree, const std::vector<DebugValue> &values)
{
    // Rows the user opened stay open across steps, by their path of names.
    QSet<QString> open;
    std::function<void(QTreeWidgetItem *, const QString &)> remember = [&](QTreeWidgetItem *item,
                                                                           const QString &path) {
        for (int i = 0; i < item->childCount(); ++i) {
            QTreeWidgetItem *c = item->child(i);
            const QString p = path + u'/' + c->text(0);
            if (c->isExpanded())
                open.insert(p);
            remember(c, p);
        }
    };
    remember(tree->invisibleRootItem(), QString());
    tree->clear();
    for (const DebugValue &v : values)
        addValue(nullptr, tree, v);
    std::function<void(QTreeWidgetItem *, const QString &)> restore = [&](QTreeWidgetItem *item,
                                                                          const QString &path) {
        for (int i = 0; i < item->childCount(); ++i) {
            QTreeWidgetItem *c = item->child(i);
            const QString p = path + u'/' + c->text(0);
            if (open.contains(p))
                c->setExpanded(true);
            restore(c, p);
        }
    };
    restore(tree->invisibleRootItem(), QString());
}

void DebugView::setVariables(const DebugItem &item, const std::vector<DebugValue> &values,
                             const QString &error)
{
    m_tabs->setTabText(0, tr("Variables of %1").arg(idText(item.global)));
    if (!error.isEmpty()) {
        m_variables->clear();
        auto *row = new QTreeWidgetItem(m_variables);
        row->setText(0, error);
        row->setFirstColumnSpanned(true);
        return;
    }
    fill(m_variables, values);
    const bool optimisedOut = std::any_of(values.begin(), values.end(), [](const DebugValue &v) {
        return v.error.find("optimised out") != std::string::npos;
    });
    m_unoptimised->setVisible(optimisedOut);
}

void DebugView::setLocalArrays(const std::vector<DebugValue> &values)
{
    fill(m_locals, values);
    if (values.empty()) {
        auto *row = new QTreeWidgetItem(m_locals);
        row->setText(0,
                     tr("The kernel declares no __local arrays (a __local pointer argument is a variable)"));
        row->setFirstColumnSpanned(true);
    }
}

void DebugView::setBuffers(const std::vector<DebugValue> &values)
{
    m_bufferValues = values;
    m_showInResults->setEnabled(!values.empty());
    fill(m_buffers, values);
}

void DebugView::setFrames(const std::vector<DebugFrame> &frames)
{
    m_frames->clear();
    for (const DebugFrame &f : frames)
        new QTreeWidgetItem(m_frames, {qs(f.function), qs(f.file), QString::number(f.line)});
    m_frames->resizeColumnToContents(0);
}

void DebugView::setItems(const std::vector<DebugItem> &items, const WorkItemId &selected)
{
    m_items = items;
    m_filling = true;
    m_chooser->clear();
    int current = -1;
    for (std::size_t i = 0; i < items.size(); ++i) {
        m_chooser->addItem(whereText(items[i]));
        if (items[i].global == selected)
            current = int(i);
    }
    m_chooser->setCurrentIndex(current);
    m_filling = false;
}

void DebugView::chooseTypedItem()
{
    // "X,Y,Z": a global id; "local X,Y,Z": the stopped group's work-item of that local id.
    QString text = m_itemEdit->text().trimmed();
    const bool local = text.startsWith(QLatin1String("local"), Qt::CaseInsensitive);
    if (local)
        text = text.mid(5).trimmed();
    const auto id = parseWorkItemId(text.toStdString());
    if (!id) {
        m_status->setText(m_status->text().section(u'\n', 0, 0) +
                          tr("\nA work-item is X[,Y[,Z]], its global id, or local X[,Y[,Z]] in the stopped "
                             "group: %1")
                              .arg(m_itemEdit->text()));
        return;
    }
    if (!local) {
        emit itemRequested(*id);
        return;
    }
    for (const DebugItem &item : m_items) {
        if (item.local == *id) {
            emit itemRequested(item.global);
            return;
        }
    }
    m_status->setText(
        m_status->text().section(u'\n', 0, 0) +
        tr("\nThe stopped group has no work-item of local id %1").arg(qs(formatWorkItemId(*id))));
}

std::optional<WorkItemId> DebugView::onlyItem(bool *ok) const
{
    const QString text = m_onlyItem->text().trimmed();
    *ok = true;
    if (text.isEmpty())
        return std::nullopt;
    const auto id = parseWorkItemId(text.toStdString());
    *ok = id.has_value();
    return id;
}

QString DebugView::onlyWhen() const
{
    return m_onlyWhen->text().trimmed();
}

QString DebugView::statusText() const
{
    return m_status->text();
}

QString DebugView::valueOf(const QStringList &path) const
{
    QTreeWidgetItem *at = m_variables->invisibleRootItem();
    for (const QString &name : path) {
        QTreeWidgetItem *next = nullptr;
        for (int i = 0; i < at->childCount() && !next; ++i) {
            if (at->child(i)->text(0) == name)
                next = at->child(i);
        }
        if (!next)
            return {};
        at = next;
    }
    return at == m_variables->invisibleRootItem() ? QString() : at->text(1);
}

} // namespace clscope::ui
