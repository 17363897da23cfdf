// The run-on-all-devices table.
#include "runalldialog.h"

#include "display/recordformat.h"
#include "display/stdstring.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {
const QColor kAgree(0xe6, 0xf4, 0xe6);
const QColor kDiffer(0xfb, 0xdc, 0xdc);
const QColor kReference(0xe4, 0xee, 0xfa);
} // namespace

RunAllDialog::RunAllDialog(RunAllController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_launch(new QLabel)
    , m_summary(new QLabel)
    , m_table(new QTableWidget(0, ColumnCount))
    , m_again(new QPushButton(tr("Run &again")))
    , m_cancel(new QPushButton(tr("Cancel")))
{
    setObjectName(QStringLiteral("runAllDialog"));
    setWindowTitle(tr("Run on all devices"));
    m_launch->setObjectName(QStringLiteral("runAllLaunch"));
    m_launch->setWordWrap(true);
    m_launch->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setObjectName(QStringLiteral("runAllSummary"));
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("runAllTable"));
    m_table->setHorizontalHeaderLabels({tr("Device"), tr("Kernel (median)"), tr("Launches"), tr("Wall"),
                                        tr("Build"), tr("Outputs"), tr("Buffers")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true);
    m_table->verticalHeader()->hide();
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(DetailsColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_again->setObjectName(QStringLiteral("runAllAgain"));
    m_cancel->setObjectName(QStringLiteral("runAllCancel"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_summary, 1);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_again);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_launch);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_again, &QPushButton::clicked, this, &RunAllDialog::runRequested);
    connect(m_cancel, &QPushButton::clicked, m_controller, &RunAllController::cancel);
    connect(m_controller, &RunAllController::started, this,
            [this] { showRows(m_controller->rows(), false); });
    connect(m_controller, &RunAllController::rowChanged, this,
            [this] { showRows(m_controller->rows(), false); });
    connect(m_controller, &RunAllController::finished, this, [this](bool cancelled) {
        showRows(m_controller->rows(), true);
        if (cancelled)
            showStatus(tr("Cancelled"));
    });
    showRows({}, true);
    resize(1000, 420);
}

void RunAllDialog::setLaunchText(const QString &text)
{
    m_launch->setText(text);
}

void RunAllDialog::showStatus(const QString &text)
{
    m_summary->setText(text);
}

QString RunAllDialog::summaryText() const
{
    return m_summary->text();
}

bool RunAllDialog::isFlagged(int row) const
{
    return row >= 0 && row < int(m_flagged.size()) && m_flagged[std::size_t(row)];
}

void RunAllDialog::showRows(const std::vector<RunAllRow> &rows, bool finished)
{
    m_table->setRowCount(int(rows.size()));
    m_flagged.assign(rows.size(), false);
    QString reference;
    int ran = 0, differ = 0, failed = 0;
    for (const RunAllRow &r : rows) {
        if (r.reference)
            reference = r.device.name;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const RunAllRow &r = rows[i];
        const int row = int(i);
        auto set = [this, row](int column, const QString &text, const QString &tip = {}) {
            auto *item = new QTableWidgetItem(text);
            item->setToolTip(tip.isEmpty() ? text : tip);
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
            return item;
        };
        set(DeviceColumn, r.device.name, r.device.name + QStringLiteral(" — ") + r.device.platform);
        QString outputs, details, tip;
        bool flagged = false;
        if (!r.done) {
            outputs = tr("running…");
        } else if (!r.ran) {
            outputs = tr("✗ failed");
            details = r.error;
            flagged = true;
            ++failed;
        } else if (r.reference) {
            outputs = tr("reference");
            QStringList names;
            for (const BufferData &b : r.result.buffers())
                names << QString::fromStdString(b.name);
            details = tr("%n buffer(s) read back: %1", nullptr, int(names.size()))
                          .arg(names.join(QStringLiteral(", ")));
            ++ran;
        } else if (!r.compared) {
            outputs = finished ? tr("not compared") : tr("comparing…");
            ++ran;
        } else {
            ++ran;
            QStringList parts;
            for (const BufferComparison &b : r.buffers)
                parts << QStringLiteral("%1: %2").arg(qs(b.name), qs(comparisonText(b)));
            details = parts.join(QStringLiteral("; "));
            tip = parts.join(u'\n');
            if (r.agrees()) {
                outputs = tr("✓ agree");
            } else {
                outputs = tr("✗ differ");
                flagged = true;
                ++differ;
            }
        }
        set(KernelColumn, r.medianNs ? durationText(*r.medianNs) : QString());
        set(LaunchesColumn, r.launches ? QString::number(r.launches) : QString());
        set(WallColumn, r.ran ? durationText(r.wallMs * 1e6) : QString());
        set(BuildColumn, r.done && r.buildMs > 0 ? durationText(r.buildMs * 1e6) : QString());
        QTableWidgetItem *out = set(OutputsColumn, outputs);
        set(DetailsColumn, details, tip);
        const QColor background = flagged       ? kDiffer
                                  : r.reference ? kReference
                                                : (r.compared ? kAgree : QColor());
        if (background.isValid()) {
            for (int c = 0; c < ColumnCount; ++c)
                m_table->item(row, c)->setBackground(background);
        }
        if (flagged) {
            QFont bold = out->font();
            bold.setBold(true);
            out->setFont(bold);
            out->setForeground(QColor(0xa0, 0x10, 0x10));
        }
        m_flagged[i] = flagged;
    }
    m_table->resizeRowsToContents();
    m_again->setEnabled(finished);
    m_cancel->setEnabled(!finished);
    if (!finished) {
        m_summary->setText(tr("Building and running on %n device(s)…", nullptr, int(rows.size())));
    } else if (rows.empty()) {
        m_summary->setText(
            tr("Build → Run on all devices runs the Arguments panel's launch on every device."));
    } else if (ran == 0) {
        m_summary->setText(tr("No device ran the kernel"));
    } else {
        QString text = differ ? tr("%n device(s) differ from %1", nullptr, differ).arg(reference)
                              : tr("The outputs of %n device(s) agree", nullptr, ran);
        if (failed)
            text += tr("; %n failed", nullptr, failed);
        m_summary->setText(text + u'.');
    }
}

} // namespace clscope::ui
