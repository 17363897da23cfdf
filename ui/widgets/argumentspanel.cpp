// The arguments panel: the kernel choice, the rows of its arguments (ArgumentRow) in a scrolled form, the
// NDRange (RangeEditor), Run and Stop; the run request made of them, a run's error shown where it points,
// the panel's values as text (CLI --arg specs, a saved state, a // clscope-run: line) and per kernel in
// QSettings.
#include "argumentspanel.h"

#include "argumentrow.h"
#include "display/stdstring.h"
#include "rangeeditor.h"
#include "structeditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

namespace {

QString settingsGroup(const QString &kernel)
{
    return QStringLiteral("runArgs/") + kernel;
}

} // namespace

ArgumentsPanel::ArgumentsPanel(QWidget *parent)
    : QWidget(parent)
    , m_kernel(new QComboBox)
    , m_rowsHost(new QWidget)
    , m_rows(new QFormLayout(m_rowsHost))
    , m_run(new QPushButton(tr("Run (F5)")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_message(new QLabel)
{
    setObjectName(QStringLiteral("argumentsPanel"));
    m_kernel->setObjectName(QStringLiteral("kernelChoice"));
    m_rows->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_stop->setEnabled(false);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #a01010;"));

    auto *scroll = m_rowsScroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_rowsHost);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // rows fit the width, never scroll sideways

    m_range = new RangeEditor;

    // Kernel, Run and Stop on one line at the top; the rows take the height that is left.
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Kernel")));
    top->addWidget(m_kernel, 1);
    top->addWidget(m_run);
    top->addWidget(m_stop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_message);
    auto *legend = new QLabel(tr("Buffers: element type, count, initialiser and its value; a ticked box "
                                 "shows the buffer in Results after the run."));
    legend->setWordWrap(true);
    legend->setStyleSheet(QStringLiteral("color: palette(mid);"));
    layout->addWidget(legend);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_range);

    // Run and Stop are the workbench's: whoever runs launches hears them there.
    connect(m_run, &QPushButton::clicked, this, [this] {
        saveValues();
        if (m_workbench)
            m_workbench->requestRun();
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_workbench)
            m_workbench->requestStop();
    });
    connect(m_kernel, &QComboBox::currentTextChanged, this, [this] {
        if (!m_restoring)
            rebuildRows();
    });
    m_message->setText(tr("Build a kernel (Ctrl+B) to fill in its arguments."));
    m_run->setEnabled(false);
    followFields();
}

ArgumentsPanel::~ArgumentsPanel()
{
    // The fields are destroyed after this: what they still say on the way goes nowhere.
    m_workbench = nullptr;
}

void ArgumentsPanel::setWorkbench(Workbench *workbench)
{
    if (m_workbench)
        m_workbench->disconnect(this);
    m_workbench = workbench;
    if (!workbench)
        return;
    workbench->setLaunchView(this);
    // A good build fills the panel, with the limits of the device it was made for; a failed one leaves the
    // kernels of the last good one.
    connect(workbench, &Workbench::programChanged, this, [this] {
        const WorkbenchProgram &program = m_workbench->program();
        if (program.result.success())
            setBuild(program.result, program.deviceSnapshot ? &*program.deviceSnapshot : nullptr);
    });
    publishLaunch();
}

void ArgumentsPanel::publishLaunch()
{
    // Not halfway: while the kernels or the rows are made anew, once they are done.
    if (m_workbench && !m_restoring && !m_rebuilding)
        m_workbench->publishLaunch(state());
}

void ArgumentsPanel::followFields()
{
    // Every edit, typed or set (a spec applied, a restored value), passes through one of these signals.
    for (QLineEdit *edit : findChildren<QLineEdit *>())
        connect(edit, &QLineEdit::textChanged, this, &ArgumentsPanel::publishLaunch, Qt::UniqueConnection);
    for (QComboBox *box : findChildren<QComboBox *>())
        connect(box, &QComboBox::currentTextChanged, this, &ArgumentsPanel::publishLaunch,
                Qt::UniqueConnection);
    for (QCheckBox *box : findChildren<QCheckBox *>())
        connect(box, &QCheckBox::toggled, this, &ArgumentsPanel::publishLaunch, Qt::UniqueConnection);
    for (QSpinBox *box : findChildren<QSpinBox *>())
        connect(box, &QSpinBox::valueChanged, this, &ArgumentsPanel::publishLaunch, Qt::UniqueConnection);
}

void ArgumentsPanel::setBuild(const BuildResult &build, const DeviceSnapshot *device)
{
    saveValues();
    const QString previous = currentKernel();
    m_build = build;
    // The struct declarations for the field editor, read from the text (no device call: the GUI thread
    // never waits on a driver); the layout is the device's, asked when a run binds the value.
    m_sourceTypes = parseSourceTypes(build.source(), build.includes(), optionDefines(build.options()));
    m_device = device ? std::optional<DeviceSnapshot>(*device) : std::nullopt;
    m_deviceName = device ? device->name() : std::string();
    m_restoring = true;
    m_kernel->clear();
    for (const KernelInfo &k : build.kernels())
        m_kernel->addItem(qs(k.name));
    const int keep = m_kernel->findText(previous);
    m_kernel->setCurrentIndex(keep >= 0 ? keep : 0);
    m_restoring = false;
    rebuildRows();
}

QStringList ArgumentsPanel::kernelNames() const
{
    QStringList names;
    for (int i = 0; i < m_kernel->count(); ++i)
        names << m_kernel->itemText(i);
    return names;
}

QString ArgumentsPanel::currentKernel() const
{
    return m_kernel->currentText();
}

bool ArgumentsPanel::setCurrentKernel(const QString &name)
{
    const int i = m_kernel->findText(name);
    if (i < 0)
        return false;
    m_kernel->setCurrentIndex(i);
    return true;
}

int ArgumentsPanel::rowPitch() const
{
    // A buffer row is the tallest kind: combo boxes beside line edits.
    int row = std::max(QComboBox().sizeHint().height(), QLineEdit().sizeHint().height());
    for (const auto &r : m_rowState)
        row = std::max(row, r->field()->sizeHint().height());
    return row + std::max(0, m_rows->verticalSpacing());
}

int ArgumentsPanel::rowsShown() const
{
    // What of the rows' viewport is inside each of its parents up to the window: clipped by the dock's own
    // scrolling, and nothing while its dock is a tab behind another (Qt keeps those outside the window).
    if (!isVisible())
        return 0;
    QWidget *w = m_rowsScroll->viewport();
    QRect shown = w->rect();
    for (; !w->isWindow() && w->parentWidget(); w = w->parentWidget())
        shown = shown.translated(w->pos()).intersected(w->parentWidget()->rect());
    if (shown.isEmpty())
        return 0;
    return (shown.height() + std::max(0, m_rows->verticalSpacing())) / rowPitch();
}

int ArgumentsPanel::heightForRows(int rows, int width) const
{
    // From the layout's preferred heights, not the geometry: a panel behind another tab has none yet.
    QLayout *panel = layout();
    const int preferred =
        panel->hasHeightForWidth() ? panel->totalHeightForWidth(width) : panel->totalSizeHint().height();
    return preferred - m_rowsScroll->sizeHint().height() + rows * rowPitch();
}

void ArgumentsPanel::rebuildRows()
{
    m_rebuilding = true;
    while (m_rows->rowCount() > 0)
        m_rows->removeRow(0);
    m_rowState.clear();
    const KernelInfo *kernel = m_build.kernel(currentKernel().toStdString());
    m_run->setEnabled(kernel != nullptr);
    if (!kernel) {
        m_message->setText(m_build.success() ? tr("The program has no kernels.")
                                             : tr("Build a kernel (Ctrl+B) to fill in its arguments."));
        m_rebuilding = false;
        publishLaunch();
        return;
    }
    std::vector<ArgSlot> kernelSlots;
    try {
        kernelSlots = argSlots(*kernel);
    } catch (const std::exception &e) {
        m_message->setText(qs(e.what()));
        m_run->setEnabled(false);
        m_rebuilding = false;
        publishLaunch();
        return;
    }
    m_message->clear();
    const ArgumentRow::Context context{m_sourceTypes, m_device, this};
    for (const ArgSlot &slot : kernelSlots) {
        auto row = std::make_unique<ArgumentRow>(slot, context);
        m_rows->addRow(row->label(), row->field());
        m_rowState.push_back(std::move(row));
    }
    restoreValues();
    for (auto &row : m_rowState)
        row->validate();
    m_range->showLimits(m_device, m_build.kernel(currentKernel().toStdString()));
    followFields();
    m_rebuilding = false;
    publishLaunch();
}

StructEditor *ArgumentsPanel::structEditor(const QString &argument)
{
    for (auto &row : m_rowState) {
        if (qs(row->slot().name) == argument)
            return row->structEditor(argument, this);
    }
    return nullptr;
}

std::optional<RunRequest> ArgumentsPanel::makeRequest(QString *error) const
{
    RunRequest request;
    request.build = m_build;
    request.device = m_device ? m_device->id : nullptr;
    request.kernel = currentKernel().toStdString();
    if (!m_build.kernel(request.kernel)) {
        *error = tr("No kernel to run: build one first");
        return std::nullopt;
    }
    const std::optional<NDRange> range = m_range->range(error);
    if (!range)
        return std::nullopt;
    request.range = *range;
    request.repeat = m_range->repeat();
    for (const auto &row : m_rowState) {
        auto value = row->value(error);
        if (!value)
            return std::nullopt;
        request.args.push_back(*value);
        if (row->readBack() && row->readBack()->isChecked())
            request.readBack.push_back(row->slot().name);
    }
    return request;
}

void ArgumentsPanel::showMessage(const QString &text)
{
    m_message->setText(text);
}

QWidget *ArgumentsPanel::markError(const QString &message)
{
    m_message->setText(message);
    // The argument the message names, else the NDRange field.
    for (auto &row : m_rowState) {
        if (row->markError(message)) {
            m_rowsScroll->ensureWidgetVisible(row->field());
            row->focusField();
            return row->field();
        }
    }
    return m_range->markError(message);
}

void ArgumentsPanel::setRange(const QString &global, const QString &local, const QString &offset)
{
    m_range->setRange(global, local, offset);
}

void ArgumentsPanel::setLocalSize(const QString &local)
{
    m_range->setLocalSize(local);
}

void ArgumentsPanel::setReadBack(const QString &name, bool readBack)
{
    for (auto &row : m_rowState) {
        if (row->readBack() && qs(row->slot().name) == name)
            row->readBack()->setChecked(readBack);
    }
}

void ArgumentsPanel::setRepeat(int repeat)
{
    m_range->setRepeat(repeat);
}

void ArgumentsPanel::setRunning(bool running)
{
    m_run->setEnabled(!running && m_build.kernel(currentKernel().toStdString()));
    m_stop->setEnabled(running);
}

// ---- the panel's values as text ----------------------------------------------------------------

QStringList ArgumentsPanel::argSpecs() const
{
    QStringList specs;
    for (const auto &row : m_rowState) {
        if (auto value = row->value(nullptr))
            specs << qs(toString(*value));
    }
    return specs;
}

QString ArgumentsPanel::rangeText() const
{
    return m_range->rangeText();
}

ArgumentsState ArgumentsPanel::state() const
{
    ArgumentsState st;
    st.kernel = currentKernel();
    st.specs = argSpecs();
    for (const auto &row : m_rowState) {
        if (row->readBack() && row->readBack()->isChecked())
            st.readBack << qs(row->slot().name);
    }
    st.global = m_range->global();
    st.local = m_range->local();
    st.offset = m_range->offset();
    st.repeat = m_range->repeat();
    return st;
}

bool ArgumentsPanel::applyState(const ArgumentsState &state, QString *error)
{
    if (!setCurrentKernel(state.kernel)) {
        if (error)
            *error = tr("the current build has no kernel '%1'").arg(state.kernel);
        return false;
    }
    for (const QString &spec : state.specs) {
        if (!applySpec(spec, error))
            return false;
    }
    for (const auto &row : m_rowState) {
        if (row->readBack())
            row->readBack()->setChecked(state.readBack.contains(qs(row->slot().name)));
    }
    setRange(state.global, state.local, state.offset);
    m_range->setRepeat(state.repeat);
    return true;
}

bool ArgumentsPanel::applySpec(const QString &spec, QString *error)
{
    try {
        const ArgValue value = parseArgSpec(spec.toStdString());
        for (auto &row : m_rowState) {
            if (row->slot().name != value.name)
                continue;
            row->apply(value);
            return true;
        }
        throw RunInputError(
            "kernel " + currentKernel().toStdString() + " has no argument '" + value.name + "'", value.name);
    } catch (const std::exception &e) {
        if (error)
            *error = qs(e.what());
        return false;
    }
}

QStringList ArgumentsPanel::openLaunch(const ArgumentsState &launch)
{
    setCurrentKernel(launch.kernel);
    QStringList errors;
    for (const QString &spec : launch.specs) {
        QString error;
        if (!applySpec(spec, &error))
            errors << error;
    }
    setRange(launch.global, launch.local, launch.offset);
    setRepeat(launch.repeat);
    for (const QString &name : launch.readBack)
        setReadBack(name, true);
    return errors;
}

bool ArgumentsPanel::applyDirective(const RunDirective &directive, QString *error)
{
    if (!setCurrentKernel(QString::fromStdString(directive.kernel))) {
        if (error)
            *error = tr("line %1: the program has no kernel '%2'")
                         .arg(directive.line)
                         .arg(QString::fromStdString(directive.kernel));
        return false;
    }
    for (const std::string &spec : directive.args) {
        if (!applySpec(QString::fromStdString(spec), error))
            return false;
    }
    for (auto &row : m_rowState) {
        if (row->readBack() && !directive.prints.empty())
            row->readBack()->setChecked(std::find(directive.prints.begin(), directive.prints.end(),
                                                  row->slot().name) != directive.prints.end());
    }
    setRange(QString::fromStdString(directive.global), QString::fromStdString(directive.local),
             QString::fromStdString(directive.offset));
    m_range->setRepeat(directive.repeat);
    return true;
}

void ArgumentsPanel::saveValues() const
{
    const QString kernel = currentKernel();
    if (kernel.isEmpty() || m_rowState.empty())
        return;
    QSettings settings;
    settings.beginGroup(settingsGroup(kernel));
    for (const auto &row : m_rowState) {
        if (auto value = row->value(nullptr))
            settings.setValue(qs(row->slot().name), qs(toString(*value)));
        if (row->readBack())
            settings.setValue(qs(row->slot().name) + QStringLiteral("@readback"),
                              row->readBack()->isChecked());
    }
    m_range->save(settings);
}

void ArgumentsPanel::restoreValues()
{
    QSettings settings;
    settings.beginGroup(settingsGroup(currentKernel()));
    if (settings.childKeys().isEmpty())
        return;
    for (auto &row : m_rowState) {
        const QString spec = settings.value(qs(row->slot().name)).toString();
        if (!spec.isEmpty())
            applySpec(spec);
        const QVariant rb = settings.value(qs(row->slot().name) + QStringLiteral("@readback"));
        if (row->readBack() && rb.isValid())
            row->readBack()->setChecked(rb.toBool());
    }
    m_range->restore(settings);
}

} // namespace clscope::ui
