// Argument rows, validation as the user types, NDRange limits, and per-kernel persistence.
#include "argumentspanel.h"
#include "argumentsrow.h"
#include "elidinglineedit.h"
#include "structeditor.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

using namespace argumentsrow;

namespace {

// "{}" drawn in the text colour: the struct editor's action inside a buffer's fill field.
QIcon structEditIcon()
{
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    QFont font = painter.font();
    font.setBold(true);
    font.setPixelSize(12);
    painter.setFont(font);
    painter.setPen(QApplication::palette().color(QPalette::Text));
    painter.drawText(pixmap.rect(), Qt::AlignCenter, QStringLiteral("{}"));
    return QIcon(pixmap);
}

QStringList bufferTypeChoices(const ArgSlot &slot, bool programType)
{
    QStringList out;
    if (slot.type)
        out << qs(slot.type->name());
    else if (programType)
        out << qs(slot.baseType()); // a struct of the program: "Particle", "struct Tagged"
    for (const char *t : {"float", "int", "uint", "double", "char", "uchar", "short", "ushort", "long",
                          "ulong", "half", "float2", "float4", "int4", "uint4"}) {
        const QString name = QString::fromLatin1(t);
        if (!out.contains(name))
            out << name;
    }
    return out;
}
} // namespace

ArgumentsPanel::ArgumentsPanel(QWidget *parent)
    : QWidget(parent)
    , m_kernel(new QComboBox)
    , m_rowsHost(new QWidget)
    , m_rows(new QFormLayout(m_rowsHost))
    , m_global(new QLineEdit(QStringLiteral("1024")))
    , m_local(new QLineEdit)
    , m_offset(new QLineEdit)
    , m_limits(new QLabel)
    , m_repeat(new QSpinBox)
    , m_run(new QPushButton(tr("Run (F5)")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_message(new QLabel)
{
    setObjectName(QStringLiteral("argumentsPanel"));
    m_kernel->setObjectName(QStringLiteral("kernelChoice"));
    m_rows->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_global->setObjectName(QStringLiteral("globalSize"));
    m_local->setObjectName(QStringLiteral("localSize"));
    m_offset->setObjectName(QStringLiteral("globalOffset"));
    m_global->setPlaceholderText(tr("global: 1024 or 64,64"));
    m_local->setPlaceholderText(tr("local: none (driver chooses)"));
    m_offset->setPlaceholderText(tr("offset: none"));
    m_limits->setWordWrap(true);
    m_limits->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_repeat->setRange(1, 1000000);
    m_stop->setEnabled(false);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #a01010;"));

    auto *scroll = m_rowsScroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_rowsHost);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // rows fit the width, never scroll sideways

    // Two lines of NDRange, so that the argument rows keep the height.
    auto *range = new QGroupBox(tr("NDRange"));
    auto *rangeGrid = new QGridLayout(range);
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
    m_rangeError = new QLabel;
    m_rangeError->setWordWrap(true);
    m_rangeError->setStyleSheet(QStringLiteral("color: #a01010;"));
    m_rangeError->hide();
    rangeGrid->addWidget(m_rangeError, 3, 0, 1, 4);
    for (QLineEdit *e : {m_global, m_local, m_offset}) {
        connect(e, &QLineEdit::textEdited, this, [this, e] {
            markValid(e, {});
            m_rangeError->hide();
        });
    }
    rangeGrid->setColumnStretch(1, 1);
    rangeGrid->setColumnStretch(3, 1);
    m_global->setToolTip(tr("Global size: X, X,Y or X,Y,Z work-items"));
    m_local->setToolTip(tr("Local size (work-group), or empty to let the driver choose"));
    m_offset->setToolTip(tr("Global offset, or empty for 0"));
    m_local->setPlaceholderText(tr("driver chooses"));
    m_offset->setPlaceholderText(tr("0"));

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
    layout->addWidget(range);

    connect(m_run, &QPushButton::clicked, this, [this] {
        saveValues();
        emit runRequested();
    });
    connect(m_stop, &QPushButton::clicked, this, &ArgumentsPanel::stopRequested);
    connect(m_kernel, &QComboBox::currentTextChanged, this, [this] {
        if (!m_restoring)
            rebuildRows();
    });
    m_message->setText(tr("Build a kernel (Ctrl+B) to fill in its arguments."));
    m_run->setEnabled(false);
}

ArgumentsPanel::~ArgumentsPanel() = default;

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
        row = std::max(row, r->field->sizeHint().height());
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
    while (m_rows->rowCount() > 0)
        m_rows->removeRow(0);
    m_rowState.clear();
    const KernelInfo *kernel = m_build.kernel(currentKernel().toStdString());
    m_run->setEnabled(kernel != nullptr);
    if (!kernel) {
        m_message->setText(m_build.success() ? tr("The program has no kernels.")
                                             : tr("Build a kernel (Ctrl+B) to fill in its arguments."));
        return;
    }
    std::vector<ArgSlot> kernelSlots;
    try {
        kernelSlots = argSlots(*kernel);
    } catch (const std::exception &e) {
        m_message->setText(qs(e.what()));
        m_run->setEnabled(false);
        return;
    }
    m_message->clear();
    for (const ArgSlot &slot : kernelSlots) {
        auto row = std::make_unique<Row>();
        row->slot = slot;
        auto *field = new QWidget;
        auto *h = new QHBoxLayout(field);
        h->setContentsMargins(0, 0, 0, 0);
        switch (slot.kind) {
        case ArgKind::Value:
            row->value = new ElidingLineEdit;
            row->value->setPlaceholderText(slot.type && slot.type->width > 1
                                               ? tr("comma list of %1 values").arg(slot.type->width)
                                               : tr("value (decimal, 0x hex, hex-float)"));
            h->addWidget(row->value);
            if (!slot.type && structOf(slot.baseType())) {
                // A struct by value: its fields as the CLI writes them, or in the field editor.
                row->value->setPlaceholderText(tr("fields: x=1,v=(1,2,3,4),inner={a=3}; empty: all zero"));
                row->editStruct = new QToolButton;
                row->editStruct->setText(QStringLiteral("{…}"));
                row->editStruct->setObjectName(QStringLiteral("editStruct_") + qs(slot.name));
                row->editStruct->setToolTip(tr("Edit the fields of %1").arg(qs(slot.baseType())));
                h->addWidget(row->editStruct);
                const QString name = qs(slot.name);
                connect(row->editStruct, &QToolButton::clicked, this, [this, name] {
                    std::unique_ptr<StructEditor> editor(structEditor(name));
                    if (editor)
                        editor->exec();
                });
            }
            break;
        case ArgKind::Buffer:
            row->type = new QComboBox;
            row->type->setEditable(true);
            row->type->addItems(bufferTypeChoices(slot, structOf(slot.baseType()) != nullptr));
            row->count = new QLineEdit(QStringLiteral("1024"));
            row->count->setPlaceholderText(tr("elements"));
            row->count->setToolTip(tr("Number of elements"));
            row->count->setMinimumWidth(
                row->count->fontMetrics().horizontalAdvance(QStringLiteral("1048576")) + 12);
            row->count->setMaximumWidth(100);
            row->init = new QComboBox;
            row->init->addItems(kInitKinds);
            row->init->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            row->init->setMinimumContentsLength(5);
            // file=PATH: a long path shows its folder's start and its name, the whole path in the tooltip.
            row->initParam = new ElidingLineEdit;
            row->initParam->setPlaceholderText(
                tr("fill=V, iota=START:STEP, random=SEED:LO:HI, file=PATH, copy=NAME"));
            // No text beside the box (the rows must fit a side panel); the tooltip and the header line say
            // it.
            row->readBack = new QCheckBox;
            row->readBack->setToolTip(tr("Read the buffer back after the run and show it in Results"));
            row->initParam->setToolTip(
                tr("The initialiser's parameter: fill=V, iota=START:STEP, random=SEED:LO:HI, file=PATH, "
                   "copy=NAME"));
            row->initParam->setMinimumWidth(28);
            row->type->setMinimumContentsLength(4);
            row->type->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            row->readBack->setChecked((slot.typeQualifiers & TypeConst) == 0);
            h->addWidget(row->type);
            h->addWidget(row->count);
            h->addWidget(row->init);
            h->addWidget(row->initParam, 1);
            {
                // file=: the path on a line of its own under the row (beside the type, count and initialiser
                // a side panel leaves it ~25 px at 1280x800), with a browser; back in the row otherwise.
                row->fileLine = new QWidget;
                auto *fileRow = new QHBoxLayout(row->fileLine);
                fileRow->setContentsMargins(0, 2, 0, 0);
                auto *browse = new QToolButton;
                browse->setText(QStringLiteral("…"));
                browse->setToolTip(tr("Choose the file (.npy or raw bytes)"));
                fileRow->addWidget(browse);
                row->fileLine->hide();
                QLineEdit *param = row->initParam;
                QWidget *fileLine = row->fileLine;
                connect(row->init, &QComboBox::currentTextChanged, fileLine,
                        [h, fileRow, fileLine, param](const QString &kind) {
                            const bool file = kind == QStringLiteral("file");
                            if (file == (fileRow->indexOf(param) >= 0))
                                return;
                            (file ? h : fileRow)->removeWidget(param);
                            if (file)
                                fileRow->insertWidget(0, param, 1);
                            else
                                h->insertWidget(3, param, 1); // after type, count and initialiser
                            fileLine->setVisible(file);
                        });
                connect(browse, &QToolButton::clicked, this, [this, param] {
                    const QString path =
                        QFileDialog::getOpenFileName(this, tr("Initialise the buffer from"), QString(),
                                                     tr("NumPy or raw (*.npy *.bin);;All files (*)"));
                    if (!path.isEmpty())
                        param->setText(path);
                });
            }
            {
                // fill= of a buffer of structs: the field editor as an action inside the field, so that the
                // row keeps the width of a side panel (a button beside it would push the read-back box out).
                QAction *edit = row->initParam->addAction(structEditIcon(), QLineEdit::TrailingPosition);
                edit->setObjectName(QStringLiteral("editStruct_") + qs(slot.name));
                edit->setToolTip(tr("Edit the fields every element is filled with"));
                Row *raw = row.get();
                const auto showEditor = [this, raw, edit] {
                    edit->setVisible(raw->init->currentText() == QStringLiteral("fill") &&
                                     structOf(raw->type->currentText().trimmed().toStdString()));
                };
                connect(row->init, &QComboBox::currentTextChanged, edit, showEditor);
                connect(row->type, &QComboBox::currentTextChanged, edit, showEditor);
                showEditor();
                const QString name = qs(slot.name);
                connect(edit, &QAction::triggered, this, [this, name] {
                    std::unique_ptr<StructEditor> editor(structEditor(name));
                    if (editor)
                        editor->exec();
                });
            }
            h->addWidget(row->readBack);
            break;
        case ArgKind::Local:
            row->value = new QLineEdit(QStringLiteral("4096"));
            row->value->setPlaceholderText(tr("bytes of local memory"));
            h->addWidget(row->value);
            h->addWidget(new QLabel(tr("bytes")));
            break;
        case ArgKind::Image: {
            // The image after NAME= as the CLI writes it; read back (and shown as a picture) unless the
            // kernel only reads it.
            row->value = new ElidingLineEdit(qs(defaultImageSpec(slot.image.value_or(ImageDim::Image2D))));
            row->value->setPlaceholderText(
                tr("%1:ORDER:TYPE:%2[:INIT]")
                    .arg(qs(std::string(imageDimName(slot.image.value_or(ImageDim::Image2D)))),
                         qs(std::string(imageSizeForm(slot.image.value_or(ImageDim::Image2D))))));
            row->readBack = new QCheckBox;
            row->readBack->setToolTip(tr("Read the image back after the run and show it in Results"));
            row->readBack->setChecked(slot.access != AccessQualifier::ReadOnly);
            h->addWidget(row->value, 1);
            h->addWidget(row->readBack);
            break;
        }
        case ArgKind::Sampler:
            row->value = new ElidingLineEdit(QStringLiteral("unnormalized,clamp_to_edge,nearest"));
            row->value->setPlaceholderText(tr("normalized|unnormalized, addressing, nearest|linear"));
            h->addWidget(row->value);
            break;
        case ArgKind::Unsupported: {
            auto *why = new QLabel(qs(slot.unsupported));
            why->setStyleSheet(QStringLiteral("color: #a01010;"));
            h->addWidget(why);
            break;
        }
        }
        // The name and the type, short; the whole declaration in the tooltip.
        row->label = new QLabel(QStringLiteral("<b>%1</b> <span style='color: palette(mid)'>%2</span>")
                                    .arg(qs(slot.name).toHtmlEscaped(), qs(slot.typeName).toHtmlEscaped()));
        row->label->setToolTip(
            tr("argument %1: %2 %3").arg(slot.index).arg(qs(slot.declaration()), qs(slot.name)));
        // The field and, under it, the reason a run refused it (hidden until then).
        row->why = new QLabel;
        row->why->setWordWrap(true);
        row->why->setStyleSheet(QStringLiteral("color: #a01010;"));
        row->why->hide();
        auto *cell = new QWidget;
        auto *cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->setSpacing(0);
        cellLayout->addWidget(field);
        if (row->fileLine)
            cellLayout->addWidget(row->fileLine);
        cellLayout->addWidget(row->why);
        row->field = cell;
        m_rows->addRow(row->label, cell);
        Row *raw = row.get();
        auto revalidate = [this, raw] { validateRow(*raw); };
        for (QLineEdit *e : {row->value, row->count, row->initParam}) {
            if (e)
                connect(e, &QLineEdit::textChanged, this, revalidate);
        }
        for (QComboBox *c : {row->type, row->init}) {
            if (c)
                connect(c, &QComboBox::currentTextChanged, this, revalidate);
        }
        m_rowState.push_back(std::move(row));
    }
    restoreValues();
    for (auto &row : m_rowState)
        validateRow(*row);
    updateLimits();
}

const StructDecl *ArgumentsPanel::structOf(const std::string &typeName) const
{
    return typeName.empty() ? nullptr : m_sourceTypes.find(typeName);
}

StructEditor *ArgumentsPanel::structEditor(const QString &argument)
{
    for (auto &row : m_rowState) {
        if (qs(row->slot.name) != argument)
            continue;
        if (row->slot.kind == ArgKind::Value && row->value) {
            const StructDecl *decl = structOf(row->slot.baseType());
            if (!decl)
                return nullptr;
            auto *editor = new StructEditor(m_sourceTypes, *decl, argument, this);
            editor->setValue(row->value->text());
            QLineEdit *field = row->value;
            connect(editor, &QDialog::accepted, field, [editor, field] { field->setText(editor->value()); });
            return editor;
        }
        if (row->slot.kind == ArgKind::Buffer && row->type) {
            const StructDecl *decl = structOf(row->type->currentText().trimmed().toStdString());
            if (!decl)
                return nullptr;
            auto *editor = new StructEditor(m_sourceTypes, *decl, argument + tr(" fill"), this);
            QString fill = row->initParam->text().trimmed();
            if (fill.startsWith(u'{') && fill.endsWith(u'}'))
                fill = fill.mid(1, fill.size() - 2);
            editor->setValue(fill);
            Row *raw = row.get();
            connect(editor, &QDialog::accepted, raw->initParam, [editor, raw] {
                raw->init->setCurrentText(QStringLiteral("fill"));
                raw->initParam->setText(u'{' + editor->value() + u'}');
            });
            return editor;
        }
        return nullptr;
    }
    return nullptr;
}

std::optional<ArgValue> ArgumentsPanel::rowValue(const Row &row, QString *error) const
{
    const std::string name = row.slot.name;
    try {
        switch (row.slot.kind) {
        case ArgKind::Value: {
            const std::string text = row.value->text().trimmed().toStdString();
            if (!row.slot.type) {
                // A struct: its fields (all zero when none are given), or struct:TYPE:..., bytesN:HEX.
                if (text.starts_with("struct:") || text.starts_with("bytes"))
                    return parseArgSpec(name + "=" + text);
                if (structOf(row.slot.baseType()) || text.find('=') != std::string::npos) {
                    parseStructValue(text, name); // brackets and names checked as the user types
                    return ArgValue{name, StructArg{std::string(), text}};
                }
            }
            if (text.empty())
                throw RunInputError(name + ": no value given", name);
            if (!row.slot.type)
                return ArgValue{name, ScalarArg{std::nullopt, text}};
            // Parsed once, here: the run binds these bytes (ScalarArg::parsed).
            std::vector<unsigned char> bytes = parseValue(text, *row.slot.type, name);
            return ArgValue{name, ScalarArg{std::nullopt, text, *row.slot.type, std::move(bytes)}};
        }
        case ArgKind::Buffer: {
            BufferArg b;
            const std::string typeText = row.type->currentText().trimmed().toStdString();
            const auto type = parseElementType(typeText);
            if (!type && structOf(typeText))
                b.typeName = typeText; // the device's layout gives its size when the run binds it
            else if (!type)
                throw RunInputError(name + ": unknown element type '" +
                                        row.type->currentText().toStdString() +
                                        "' (types: " + elementTypeNames() + ")",
                                    name);
            b.type = type;
            bool ok = false;
            const qulonglong count = row.count->text().trimmed().toULongLong(&ok);
            if (!ok || count == 0)
                throw RunInputError(name + ": the element count must be a positive number", name);
            b.count = count;
            QString init = row.init->currentText();
            QString param = row.initParam->text().trimmed();
            if (param.startsWith(init + u'='))
                param = param.mid(init.size() + 1);
            if (!param.isEmpty())
                init += u'=' + param;
            b.init = parseBufferInit(init.toStdString(), name);
            // Against the device's limit here, before the run makes any host memory for it.
            if (m_device && type) {
                const std::uint64_t limit = m_device->integer("CL_DEVICE_MAX_MEM_ALLOC_SIZE");
                const std::size_t element = type->size();
                if (limit > 0 && (count > limit / element || count * element > limit))
                    throw RunInputError(name + ": " + std::to_string(count) + " elements of " + type->name() +
                                            " exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE (" + std::to_string(limit) +
                                            " bytes) of " + m_device->name(),
                                        name);
            }
            return ArgValue{name, b};
        }
        case ArgKind::Local: {
            bool ok = false;
            const qulonglong bytes = row.value->text().trimmed().toULongLong(&ok);
            if (!ok || bytes == 0)
                throw RunInputError(name + ": local memory size must be a positive number of bytes", name);
            return ArgValue{name, LocalArg{bytes}};
        }
        case ArgKind::Image: {
            ArgValue value = parseArgSpec(name + "=" + row.value->text().trimmed().toStdString());
            if (!std::holds_alternative<ImageArg>(value.value))
                throw RunInputError(
                    name + ": an image is " +
                        std::string(imageDimName(row.slot.image.value_or(ImageDim::Image2D))) +
                        ":ORDER:TYPE:SIZE[:INIT]",
                    name);
            return value;
        }
        case ArgKind::Sampler:
            return ArgValue{name, parseSamplerSpec(row.value->text().toStdString(), name)};
        case ArgKind::Unsupported:
            throw RunInputError(row.slot.unsupported, name);
        }
    } catch (const std::exception &e) {
        if (error)
            *error = qs(e.what());
    }
    return std::nullopt;
}

void ArgumentsPanel::validateRow(Row &row) const
{
    row.error.clear();
    rowValue(row, &row.error);
    if (row.why && row.why->isVisible() && row.error.isEmpty())
        row.why->hide(); // fixed since the run refused it
    for (QWidget *w : std::initializer_list<QWidget *>{row.value, row.count, row.initParam}) {
        if (w)
            markValid(w, row.error);
    }
}

void ArgumentsPanel::updateLimits()
{
    if (!m_device) {
        m_limits->clear();
        return;
    }
    const KernelInfo *kernel = m_build.kernel(currentKernel().toStdString());
    QString text = tr("Device: max work-group size %1, max work-item sizes %2")
                       .arg(m_device->integer("CL_DEVICE_MAX_WORK_GROUP_SIZE"))
                       .arg(qs(m_device->find("CL_DEVICE_MAX_WORK_ITEM_SIZES")
                                   ? m_device->find("CL_DEVICE_MAX_WORK_ITEM_SIZES")->display()
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
    try {
        request.range.global = parseSizeList(m_global->text().trimmed().toStdString(), "global size");
        if (!m_local->text().trimmed().isEmpty())
            request.range.local = parseSizeList(m_local->text().trimmed().toStdString(), "local size");
        if (!m_offset->text().trimmed().isEmpty())
            request.range.offset = parseSizeList(m_offset->text().trimmed().toStdString(), "offset");
    } catch (const std::exception &e) {
        *error = qs(e.what());
        return std::nullopt;
    }
    request.repeat = m_repeat->value();
    for (const auto &row : m_rowState) {
        auto value = rowValue(*row, error);
        if (!value)
            return std::nullopt;
        request.args.push_back(*value);
        if (row->readBack && row->readBack->isChecked())
            request.readBack.push_back(row->slot.name);
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
    // The argument the message names ("n: ...", "buffer c of ...", "... 'c' ..."), else the NDRange field.
    for (auto &row : m_rowState) {
        const QString name = qs(row->slot.name);
        if (message.startsWith(name + u':') || message.startsWith(QStringLiteral("buffer ") + name + u' ') ||
            message.contains(u'\'' + name + u'\'') ||
            message.startsWith(QStringLiteral("clSetKernelArg(") + name)) {
            row->why->setText(message);
            row->why->show();
            for (QWidget *w : std::initializer_list<QWidget *>{row->value, row->count, row->initParam}) {
                if (w)
                    markValid(w, message);
            }
            m_rowsScroll->ensureWidgetVisible(row->field);
            QWidget *focus = row->value ? static_cast<QWidget *>(row->value) : row->count;
            if (focus)
                focus->setFocus();
            return row->field;
        }
    }
    QLineEdit *field =
        message.startsWith(QStringLiteral("local size")) || message.contains(QStringLiteral("WORK_GROUP"))
            ? m_local
        : message.startsWith(QStringLiteral("offset"))      ? m_offset
        : message.startsWith(QStringLiteral("global size")) ? m_global
                                                            : nullptr;
    if (!field)
        return nullptr;
    markValid(field, message);
    m_rangeError->setText(message);
    m_rangeError->show();
    field->setFocus();
    return field;
}

void ArgumentsPanel::setRange(const QString &global, const QString &local, const QString &offset)
{
    m_global->setText(global);
    m_local->setText(local);
    m_offset->setText(offset);
}

void ArgumentsPanel::setLocalSize(const QString &local)
{
    m_local->setText(local);
}

void ArgumentsPanel::setReadBack(const QString &name, bool readBack)
{
    for (auto &row : m_rowState) {
        if (row->readBack && qs(row->slot.name) == name)
            row->readBack->setChecked(readBack);
    }
}

void ArgumentsPanel::setRepeat(int repeat)
{
    m_repeat->setValue(repeat);
}

void ArgumentsPanel::setRunning(bool running)
{
    m_run->setEnabled(!running && m_build.kernel(currentKernel().toStdString()));
    m_stop->setEnabled(running);
}

} // namespace clscope::ui
