// The build matrix dialog: sets and devices in, a table of cells out.
#include "buildmatrixdialog.h"

#include "controllers/matrixcontroller.h"
#include "display/recordformat.h"

#include "clscope/buildmatrix.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

namespace {

const QColor kBuilt(0xe6, 0xf4, 0xe6);
const QColor kFailed(0xfb, 0xdc, 0xdc);
const QColor kPending(0xf2, 0xf2, 0xf2);

QString setName(const QString &set)
{
    return set.isEmpty() ? QObject::tr("(defaults)") : set;
}

QString optionalBytes(const std::optional<std::uint64_t> &v)
{
    return v ? QString::number(*v) : QStringLiteral("?");
}

} // namespace

QString matrixCellText(const MatrixCellResult &c)
{
    if (!c.done)
        return QObject::tr("building…");
    const MatrixCell &m = c.cell;
    QStringList lines;
    if (m.success)
        lines << QObject::tr("built in %1 · %n warning(s)", nullptr, m.warnings)
                     .arg(durationText(m.buildMs * 1e6));
    else
        lines << QObject::tr("FAILED in %1 · %n error(s)", nullptr, std::max(1, m.errors))
                     .arg(durationText(m.buildMs * 1e6));
    if (!m.success) {
        QString first = QString::fromStdString(m.firstError);
        if (first.size() > 80)
            first = first.left(77) + QStringLiteral("…");
        if (!first.isEmpty())
            lines << first;
        return lines.join(u'\n');
    }
    lines << QObject::tr("binary %1").arg(bytesText(m.binaryBytes));
    for (const KernelInfo &k : m.kernels) {
        QString line = QString::fromStdString(k.name);
        if (!k.workGroups.empty()) {
            const WorkGroupInfo &w = k.workGroups.front();
            line += QObject::tr(": work-group ≤ %1, multiple of %2")
                        .arg(w.workGroupSize)
                        .arg(w.preferredWorkGroupSizeMultiple);
            lines << line;
            line = QObject::tr("  local %1 · private %2")
                       .arg(bytesText(w.localMemSize), bytesText(w.privateMemSize));
        }
        lines << line;
        for (const KernelResources &r : m.resources) {
            if (r.kernel != k.name)
                continue;
            lines << QObject::tr("  %1 registers · spills %2/%3 B · stack %4 B")
                         .arg(r.registers ? QString::number(*r.registers) : QStringLiteral("?"),
                              optionalBytes(r.spillStores), optionalBytes(r.spillLoads),
                              optionalBytes(r.stackFrame));
        }
    }
    if (c.timing)
        lines << QObject::tr("timing…");
    else if (c.medianNs)
        lines << QObject::tr("kernel %1 (median of %2)").arg(durationText(*c.medianNs)).arg(c.launches);
    else if (!c.timeError.isEmpty())
        lines << QObject::tr("not timed: %1").arg(c.timeError.left(70));
    return lines.join(u'\n');
}

QString BuildMatrixDialog::cellLabel(const QString &set)
{
    return QStringLiteral("“%1” (matrix)").arg(setName(set));
}

BuildMatrixDialog::BuildMatrixDialog(MatrixController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_sets(new QLineEdit)
    , m_devices(new QListWidget)
    , m_build(new QPushButton(tr("&Build")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_time(new QPushButton(tr("&Time it")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_table(new QTableWidget)
    , m_log(new QPlainTextEdit)
    , m_code(new QPushButton(tr("Show &code")))
    , m_diff(new QPushButton(tr("Compare code of the two selected")))
{
    setObjectName(QStringLiteral("buildMatrixDialog"));
    setWindowTitle(tr("Build matrix"));
    m_sets->setObjectName(QStringLiteral("matrixSets"));
    m_sets->setPlaceholderText(
        tr("Option sets, '|' between them: -O0|-cl-fast-relaxed-math|-cl-mad-enable -DTILE=32"));
    m_sets->setToolTip(
        tr("Each set is added to the build options of the toolbar; an empty set builds with "
           "those alone. NVIDIA's compiler also gets -cl-nv-verbose, for registers and spills."));
    m_devices->setObjectName(QStringLiteral("matrixDevices"));
    m_devices->setFlow(QListView::LeftToRight);
    m_devices->setWrapping(true);
    m_devices->setResizeMode(QListView::Adjust);
    m_devices->setSpacing(2);
    m_devices->setFixedHeight(m_devices->fontMetrics().height() * 2 + 16);
    m_build->setObjectName(QStringLiteral("matrixBuild"));
    m_cancel->setObjectName(QStringLiteral("matrixCancel"));
    m_time->setObjectName(QStringLiteral("matrixTime"));
    m_time->setToolTip(tr("Run the current launch (the Arguments panel's, as F5 runs it) with every built "
                          "cell's program on its device, at least %1 times, and show the median kernel time")
                           .arg(MatrixController::kMinLaunches));
    m_status->setObjectName(QStringLiteral("matrixStatus"));
    m_status->setWordWrap(true);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_table->setObjectName(QStringLiteral("matrixTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(220);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setTextElideMode(Qt::ElideRight);
    // A selected cell keeps a light tint and dark text: its figures must stay readable.
    m_table->setStyleSheet(
        QStringLiteral("QTableWidget::item:selected { background: #cfe0f5; color: black; }"));
    m_log->setObjectName(QStringLiteral("matrixLog"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("Click a cell for its build log"));
    m_code->setObjectName(QStringLiteral("matrixShowCode"));
    m_diff->setObjectName(QStringLiteral("matrixDiffCode"));

    auto *form = new QGridLayout;
    form->addWidget(new QLabel(tr("Option sets:")), 0, 0);
    form->addWidget(m_sets, 0, 1);
    form->addWidget(new QLabel(tr("Devices:")), 1, 0, Qt::AlignTop);
    form->addWidget(m_devices, 1, 1);
    form->setColumnStretch(1, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_build);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_time);
    buttons->addWidget(m_progress);
    buttons->addWidget(m_status, 1);
    auto *logBox = new QWidget;
    auto *logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    auto *logButtons = new QHBoxLayout;
    logButtons->addWidget(new QLabel(tr("Log of the selected cell")), 1);
    logButtons->addWidget(m_code);
    logButtons->addWidget(m_diff);
    logLayout->addLayout(logButtons);
    logLayout->addWidget(m_log, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(logBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);

    connect(m_build, &QPushButton::clicked, this, &BuildMatrixDialog::startBuild);
    connect(m_sets, &QLineEdit::returnPressed, this, &BuildMatrixDialog::startBuild);
    connect(m_cancel, &QPushButton::clicked, m_controller, &MatrixController::cancel);
    connect(m_time, &QPushButton::clicked, this, &BuildMatrixDialog::timeRequested);
    connect(m_controller, &MatrixController::started, this, &BuildMatrixDialog::onStarted);
    connect(m_controller, &MatrixController::cellChanged, this, &BuildMatrixDialog::onCellChanged);
    connect(m_controller, &MatrixController::progress, this, &BuildMatrixDialog::onProgress);
    connect(m_controller, &MatrixController::finished, this, [this](bool c) { onDone(c, false); });
    connect(m_controller, &MatrixController::timingFinished, this, [this](bool c) { onDone(c, true); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &BuildMatrixDialog::showSelected);
    connect(m_code, &QPushButton::clicked, this, [this] {
        const auto items = m_table->selectedItems();
        if (items.isEmpty())
            return;
        const MatrixCellResult &c = m_controller->cell(items.front()->row(), items.front()->column());
        emit codeRequested(cellLabel(m_controller->job().sets[items.front()->row()]), c.build,
                           QString::fromStdString(c.cell.device));
    });
    connect(m_diff, &QPushButton::clicked, this, [this] {
        const auto items = m_table->selectedItems();
        if (items.size() != 2)
            return;
        const MatrixCellResult &a = m_controller->cell(items[0]->row(), items[0]->column());
        const MatrixCellResult &b = m_controller->cell(items[1]->row(), items[1]->column());
        emit diffRequested(cellLabel(m_controller->job().sets[items[0]->row()]), a.build,
                           QString::fromStdString(a.cell.device),
                           cellLabel(m_controller->job().sets[items[1]->row()]), b.build,
                           QString::fromStdString(b.cell.device));
    });
    updateButtons();
    resize(1100, 720);
}

void BuildMatrixDialog::setDevices(const std::vector<DeviceTarget> &devices)
{
    QStringList unchecked; // by platform and name: a refresh gives devices new ids
    for (int i = 0; i < m_devices->count(); ++i) {
        if (m_devices->item(i)->checkState() != Qt::Checked)
            unchecked << m_devices->item(i)->text();
    }
    m_targets = devices;
    m_devices->clear();
    for (const DeviceTarget &d : devices) {
        auto *item = new QListWidgetItem(QStringLiteral("%1 (%2)").arg(d.name, d.platform), m_devices);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(unchecked.contains(item->text()) ? Qt::Unchecked : Qt::Checked);
    }
    updateButtons();
}

std::vector<DeviceTarget> BuildMatrixDialog::checkedDevices() const
{
    std::vector<DeviceTarget> out;
    for (int i = 0; i < m_devices->count() && i < int(m_targets.size()); ++i) {
        if (m_devices->item(i)->checkState() == Qt::Checked)
            out.push_back(m_targets[std::size_t(i)]);
    }
    return out;
}

void BuildMatrixDialog::setOptionSets(const QString &text)
{
    m_sets->setText(text);
}

QString BuildMatrixDialog::optionSetsText() const
{
    return m_sets->text();
}

void BuildMatrixDialog::showStatus(const QString &text)
{
    m_status->setText(text);
}

QString BuildMatrixDialog::logText() const
{
    return m_log->toPlainText();
}

void BuildMatrixDialog::startBuild()
{
    if (m_controller->isBusy())
        return;
    QStringList sets;
    try {
        for (const std::string &s : parseOptionSets(m_sets->text().toStdString()))
            sets << QString::fromStdString(s);
    } catch (const std::exception &e) {
        showStatus(tr("Cannot build: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    const std::vector<DeviceTarget> devices = checkedDevices();
    if (devices.empty()) {
        showStatus(tr("Cannot build: check at least one device"));
        return;
    }
    emit buildRequested(sets, devices);
}

void BuildMatrixDialog::onStarted(int sets, int devices)
{
    m_table->clear();
    m_table->setRowCount(sets);
    m_table->setColumnCount(devices);
    QStringList rows, columns;
    for (const QString &s : m_controller->job().sets)
        rows << setName(s);
    for (const DeviceTarget &d : m_controller->job().devices)
        columns << d.name;
    m_table->setVerticalHeaderLabels(rows);
    m_table->setHorizontalHeaderLabels(columns);
    for (int s = 0; s < sets; ++s) {
        for (int d = 0; d < devices; ++d)
            onCellChanged(s, d);
    }
    m_log->clear();
    updateButtons();
}

void BuildMatrixDialog::onCellChanged(int set, int device)
{
    const MatrixCellResult &c = m_controller->cell(set, device);
    auto *item = m_table->item(set, device);
    if (!item) {
        item = new QTableWidgetItem;
        m_table->setItem(set, device, item);
    }
    item->setText(matrixCellText(c));
    item->setTextAlignment(Qt::AlignLeft | Qt::AlignTop);
    item->setBackground(!c.done ? kPending : c.cell.success ? kBuilt : kFailed);
    item->setToolTip(c.done && !c.cell.success ? QString::fromStdString(c.cell.firstError) : QString());
    m_table->resizeRowToContents(set);
    if (item->isSelected())
        showSelected();
}

void BuildMatrixDialog::onProgress(int done, int total)
{
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_progress->setFormat(tr("%1 of %2").arg(done).arg(total));
    m_progress->setVisible(m_controller->isBusy());
    updateButtons();
}

void BuildMatrixDialog::onDone(bool cancelled, bool timing)
{
    m_progress->hide();
    int built = 0, failed = 0, timed = 0;
    for (int s = 0; s < m_controller->rows(); ++s) {
        for (int d = 0; d < m_controller->columns(); ++d) {
            const MatrixCellResult &c = m_controller->cell(s, d);
            built += c.done && c.cell.success;
            failed += c.done && !c.cell.success;
            timed += bool(c.medianNs);
            onCellChanged(s, d);
        }
    }
    if (cancelled)
        showStatus(timing ? tr("Timing cancelled")
                          : tr("Cancelled: %1 built, %2 failed").arg(built).arg(failed));
    else if (timing)
        showStatus(tr("Timed %1 of %2 built cells").arg(timed).arg(built));
    else
        showStatus(
            tr("%1 built, %2 failed. Click a cell for its log; Time it runs the current launch on each.")
                .arg(built)
                .arg(failed));
    updateButtons();
}

void BuildMatrixDialog::showSelected()
{
    const auto items = m_table->selectedItems();
    updateButtons();
    if (items.isEmpty())
        return;
    const MatrixCellResult &c = m_controller->cell(items.front()->row(), items.front()->column());
    if (!c.done) {
        m_log->setPlainText(tr("Still building…"));
        return;
    }
    QString text =
        tr("Options: %1\nDevice: %2\n")
            .arg(setName(QString::fromStdString(c.cell.options)), QString::fromStdString(c.cell.device));
    if (c.build.logs().empty() && !c.cell.firstError.empty())
        text += tr("Could not build: %1\n").arg(QString::fromStdString(c.cell.firstError));
    else
        text += tr("Effective options: %1\n").arg(QString::fromStdString(c.build.options()));
    text +=
        u'\n' + (c.cell.log.empty() ? tr("(the compiler said nothing)") : QString::fromStdString(c.cell.log));
    m_log->setPlainText(text);
}

void BuildMatrixDialog::updateButtons()
{
    const bool busy = m_controller->isBusy();
    m_build->setEnabled(!busy && m_devices->count() > 0);
    m_cancel->setEnabled(busy);
    bool anyBuilt = false;
    for (int s = 0; s < m_controller->rows() && !anyBuilt; ++s) {
        for (int d = 0; d < m_controller->columns(); ++d)
            anyBuilt |= m_controller->cell(s, d).done && m_controller->cell(s, d).build.success();
    }
    m_time->setEnabled(!busy && anyBuilt);
    const auto items = m_table->selectedItems();
    auto builtAt = [this](const QTableWidgetItem *i) {
        const MatrixCellResult &c = m_controller->cell(i->row(), i->column());
        return c.done && c.build.success();
    };
    m_code->setEnabled(items.size() >= 1 && builtAt(items.front()));
    m_diff->setEnabled(items.size() == 2 && builtAt(items[0]) && builtAt(items[1]));
}

} // namespace clscope::ui
