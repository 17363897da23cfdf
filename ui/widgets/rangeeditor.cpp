// The arguments panel's NDRange (rangeeditor.h).
#include "rangeeditor.h"

#include "argumentrow.h"
#include "display/stdstring.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

namespace clscope::ui {

RangeEditor::RangeEditor(QWidget *parent)
    : QGroupBox(tr("NDRange"), parent)
    , m_global(new QLineEdit(QStringLiteral("1024")))
    , m_local(new QLineEdit)
    , m_offset(new QLineEdit)
    , m_repeat(new QSpinBox)
    , m_limits(new QLabel)
    , m_rangeError(new QLabel)
{
    m_global->setObjectName(QStringLiteral("globalSize"));
    m_local->setObjectName(QStringLiteral("localSize"));
    m_offset->setObjectName(QStringLiteral("globalOffset"));
    m_global->setPlaceholderText(tr("global: 1024 or 64,64"));
    m_local->setPlaceholderText(tr("driver chooses"));
    m_offset->setPlaceholderText(tr("0"));
    m_limits->setWordWrap(true);
    m_limits->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_repeat->setRange(1, 1000000);

    // Two lines, so that the argument rows keep the height.
    auto *rangeGrid = new QGridLayout(this);
    rangeGrid->setContentsMargins(6, 4, 6, 4);
    rangeGrid->addWidget(new QLabel(tr("Global")), 0, 0);
    rangeGrid->addWidget(m_global, 0, 1);
    rangeGrid->addWidget(new QLabel(tr("Local")), 0, 2);
    rangeGrid->addWidget(m_local, 0, 3);
    rangeGrid->addWidget(new QLabel(tr("Offset")), 1, 0);
    rangeGrid->addWidget(m_offset, 1, 1);
    rangeGrid->addWidget(new QLabel(tr("Repeat")), 1, 2);
    rangeGrid->addWidget(m_repeat, 1, 3);
    rangeGrid->addWidget(m_limits, 2, 0, 1, 4);
    m_rangeError->setWordWrap(true);
    m_rangeError->setStyleSheet(QStringLiteral("color: #a01010;"));
    m_rangeError->hide();
    rangeGrid->addWidget(m_rangeError, 3, 0, 1, 4);
    for (QLineEdit *e : {m_global, m_local, m_offset}) {
        connect(e, &QLineEdit::textEdited, this, [this, e] {
            ArgumentRow::markValid(e, {});
            m_rangeError->hide();
        });
    }
    rangeGrid->setColumnStretch(1, 1);
    rangeGrid->setColumnStretch(3, 1);
    m_global->setToolTip(tr("Global size: X, X,Y or X,Y,Z work-items"));
    m_local->setToolTip(tr("Local size (work-group), or empty to let the driver choose"));
    m_offset->setToolTip(tr("Global offset, or empty for 0"));
}

QString RangeEditor::global() const
{
    return m_global->text().trimmed();
}

QString RangeEditor::local() const
{
    return m_local->text().trimmed();
}

QString RangeEditor::offset() const
{
    return m_offset->text().trimmed();
}

int RangeEditor::repeat() const
{
    return m_repeat->value();
}

void RangeEditor::setRange(const QString &global, const QString &local, const QString &offset)
{
    m_global->setText(global);
    m_local->setText(local);
    m_offset->setText(offset);
}

void RangeEditor::setLocalSize(const QString &local)
{
    m_local->setText(local);
}

void RangeEditor::setRepeat(int repeat)
{
    m_repeat->setValue(repeat);
}

QString RangeEditor::rangeText() const
{
    QString text = tr("global %1").arg(m_global->text().trimmed());
    if (!m_local->text().trimmed().isEmpty())
        text += tr(", local %1").arg(m_local->text().trimmed());
    if (!m_offset->text().trimmed().isEmpty())
        text += tr(", offset %1").arg(m_offset->text().trimmed());
    if (m_repeat->value() > 1)
        text += tr(", ×%1").arg(m_repeat->value());
    return text;
}

std::optional<NDRange> RangeEditor::range(QString *error) const
{
    NDRange range;
    try {
        range.global = parseSizeList(m_global->text().trimmed().toStdString(), "global size");
        if (!m_local->text().trimmed().isEmpty())
            range.local = parseSizeList(m_local->text().trimmed().toStdString(), "local size");
        if (!m_offset->text().trimmed().isEmpty())
            range.offset = parseSizeList(m_offset->text().trimmed().toStdString(), "offset");
    } catch (const std::exception &e) {
        *error = qs(e.what());
        return std::nullopt;
    }
    return range;
}

void RangeEditor::showLimits(const std::optional<DeviceSnapshot> &device, const KernelInfo *kernel)
{
    if (!device) {
        m_limits->clear();
        return;
    }
    QString text = tr("Device: max work-group size %1, max work-item sizes %2")
                       .arg(device->integer("CL_DEVICE_MAX_WORK_GROUP_SIZE"))
                       .arg(qs(device->find("CL_DEVICE_MAX_WORK_ITEM_SIZES")
                                   ? device->find("CL_DEVICE_MAX_WORK_ITEM_SIZES")->display()
                                   : std::string()));
    if (kernel && !kernel->workGroups.empty()) {
        const WorkGroupInfo &wg = kernel->workGroups.front();
        text += tr("\nKernel: work-group size ≤ %1, preferred multiple %2, local memory %3 B, private %4 B")
                    .arg(wg.workGroupSize)
                    .arg(wg.preferredWorkGroupSizeMultiple)
                    .arg(wg.localMemSize)
                    .arg(wg.privateMemSize);
        if (wg.compileWorkGroupSize[0] != 0)
            text += tr(", required %1×%2×%3")
                        .arg(wg.compileWorkGroupSize[0])
                        .arg(wg.compileWorkGroupSize[1])
                        .arg(wg.compileWorkGroupSize[2]);
    }
    m_limits->setText(text);
}

QWidget *RangeEditor::markError(const QString &message)
{
    QLineEdit *field =
        message.startsWith(QStringLiteral("local size")) || message.contains(QStringLiteral("WORK_GROUP"))
            ? m_local
        : message.startsWith(QStringLiteral("offset"))      ? m_offset
        : message.startsWith(QStringLiteral("global size")) ? m_global
                                                            : nullptr;
    if (!field)
        return nullptr;
    ArgumentRow::markValid(field, message);
    m_rangeError->setText(message);
    m_rangeError->show();
    field->setFocus();
    return field;
}

void RangeEditor::save(QSettings &settings) const
{
    settings.setValue(QStringLiteral("@global"), m_global->text());
    settings.setValue(QStringLiteral("@local"), m_local->text());
    settings.setValue(QStringLiteral("@offset"), m_offset->text());
    settings.setValue(QStringLiteral("@repeat"), m_repeat->value());
}

void RangeEditor::restore(const QSettings &settings)
{
    m_global->setText(settings.value(QStringLiteral("@global"), m_global->text()).toString());
    m_local->setText(settings.value(QStringLiteral("@local")).toString());
    m_offset->setText(settings.value(QStringLiteral("@offset")).toString());
    m_repeat->setValue(settings.value(QStringLiteral("@repeat"), 1).toInt());
}

} // namespace clscope::ui
