// One row of the arguments panel (argumentrow.h): its widgets per kind of argument, its value parsed as the
// user types, a --arg value written into it, and a run's error shown under it.
#include "argumentrow.h"

#include "argumentspanel.h"
#include "display/stdstring.h"
#include "elidinglineedit.h"
#include "structeditor.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

const QStringList kInitKinds = {QStringLiteral("zeros"),  QStringLiteral("fill"), QStringLiteral("iota"),
                                QStringLiteral("random"), QStringLiteral("file"), QStringLiteral("copy")};

// A first image for an argument of this type: RGBA/UNORM_INT8 (every device with images has it) with a
// gradient, so that a run shows something at once.
std::string defaultImageSpec(ImageDim dim)
{
    static constexpr const char *sizes[] = {"256", "256", "256x4", "256x256", "256x256x4", "64x64x64"};
    return std::string(imageDimName(dim)) + ":RGBA:UNORM_INT8:" + sizes[int(dim)] + ":gradient";
}

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

void ArgumentRow::markValid(QWidget *w, const QString &error)
{
    w->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("background: #fde8e8;"));
    // A valid field's tooltip is its whole text: side-panel fields are narrow, file= paths are long.
    const auto *edit = qobject_cast<QLineEdit *>(w);
    w->setToolTip(error.isEmpty() && edit ? edit->text() : error);
}

ArgumentRow::ArgumentRow(const ArgSlot &slot, const Context &context)
    : m_slot(slot)
    , m_context(context)
{
    auto *field = new QWidget;
    auto *h = new QHBoxLayout(field);
    h->setContentsMargins(0, 0, 0, 0);
    switch (slot.kind) {
    case ArgKind::Value:
        makeValue(h);
        break;
    case ArgKind::Buffer:
        makeBuffer(h);
        break;
    case ArgKind::Local:
        makeLocal(h);
        break;
    case ArgKind::Image:
        makeImage(h);
        break;
    case ArgKind::Sampler:
        makeSampler(h);
        break;
    case ArgKind::Unsupported: {
        auto *why = new QLabel(qs(slot.unsupported));
        why->setStyleSheet(QStringLiteral("color: #a01010;"));
        h->addWidget(why);
        break;
    }
    }
    makeLabelAndCell(field);
    auto revalidate = [this] { validate(); };
    for (QLineEdit *e : {m_value, m_count, m_initParam}) {
        if (e)
            connect(e, &QLineEdit::textChanged, this, revalidate);
    }
    for (QComboBox *c : {m_type, m_init}) {
        if (c)
            connect(c, &QComboBox::currentTextChanged, this, revalidate);
    }
}

void ArgumentRow::makeValue(QHBoxLayout *h)
{
    m_value = new ElidingLineEdit;
    m_value->setPlaceholderText(m_slot.type && m_slot.type->width > 1
                                    ? tr("comma list of %1 values").arg(m_slot.type->width)
                                    : tr("value (decimal, 0x hex, hex-float)"));
    h->addWidget(m_value);
    if (!m_slot.type && structOf(m_slot.baseType())) {
        // A struct by value: its fields as the CLI writes them, or in the field editor.
        m_value->setPlaceholderText(tr("fields: x=1,v=(1,2,3,4),inner={a=3}; empty: all zero"));
        m_editStruct = new QToolButton;
        m_editStruct->setText(QStringLiteral("{…}"));
        m_editStruct->setObjectName(QStringLiteral("editStruct_") + qs(m_slot.name));
        m_editStruct->setToolTip(tr("Edit the fields of %1").arg(qs(m_slot.baseType())));
        h->addWidget(m_editStruct);
        const QString name = qs(m_slot.name);
        ArgumentsPanel *panel = m_context.panel;
        connect(m_editStruct, &QToolButton::clicked, panel, [panel, name] {
            std::unique_ptr<StructEditor> editor(panel->structEditor(name));
            if (editor)
                editor->exec();
        });
    }
}

void ArgumentRow::makeBuffer(QHBoxLayout *h)
{
    m_type = new QComboBox;
    m_type->setEditable(true);
    m_type->addItems(bufferTypeChoices(m_slot, structOf(m_slot.baseType()) != nullptr));
    m_count = new QLineEdit(QStringLiteral("1024"));
    m_count->setPlaceholderText(tr("elements"));
    m_count->setToolTip(tr("Number of elements"));
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(QStringLiteral("1048576")) + 12);
    m_count->setMaximumWidth(100);
    m_init = new QComboBox;
    m_init->addItems(kInitKinds);
    m_init->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_init->setMinimumContentsLength(5);
    // file=PATH: a long path shows its folder's start and its name, the whole path in the tooltip.
    m_initParam = new ElidingLineEdit;
    m_initParam->setPlaceholderText(tr("fill=V, iota=START:STEP, random=SEED:LO:HI, file=PATH, copy=NAME"));
    // No text beside the box (the rows must fit a side panel); the tooltip and the header line say it.
    m_readBack = new QCheckBox;
    m_readBack->setToolTip(tr("Read the buffer back after the run and show it in Results"));
    m_initParam->setToolTip(tr("The initialiser's parameter: fill=V, iota=START:STEP, random=SEED:LO:HI, "
                               "file=PATH, copy=NAME"));
    m_initParam->setMinimumWidth(28);
    m_type->setMinimumContentsLength(4);
    m_type->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_readBack->setChecked((m_slot.typeQualifiers & TypeConst) == 0);
    h->addWidget(m_type);
    h->addWidget(m_count);
    h->addWidget(m_init);
    h->addWidget(m_initParam, 1);
    makeBufferFileLine(h);
    makeBufferStructAction();
    h->addWidget(m_readBack);
}

// file=: the path on a line of its own under the row (beside the type, count and initialiser a side panel
// leaves it ~25 px at 1280x800), with a browser; back in the row otherwise.
void ArgumentRow::makeBufferFileLine(QHBoxLayout *h)
{
    m_fileLine = new QWidget;
    auto *fileRow = new QHBoxLayout(m_fileLine);
    fileRow->setContentsMargins(0, 2, 0, 0);
    auto *browse = new QToolButton;
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose the file (.npy or raw bytes)"));
    fileRow->addWidget(browse);
    m_fileLine->hide();
    QLineEdit *param = m_initParam;
    QWidget *fileLine = m_fileLine;
    connect(m_init, &QComboBox::currentTextChanged, fileLine,
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
    ArgumentsPanel *panel = m_context.panel;
    connect(browse, &QToolButton::clicked, panel, [panel, param] {
        const QString path = QFileDialog::getOpenFileName(panel, tr("Initialise the buffer from"), QString(),
                                                          tr("NumPy or raw (*.npy *.bin);;All files (*)"));
        if (!path.isEmpty())
            param->setText(path);
    });
}

// fill= of a buffer of structs: the field editor as an action inside the field, so that the row keeps the
// width of a side panel (a button beside it would push the read-back box out).
void ArgumentRow::makeBufferStructAction()
{
    QAction *edit = m_initParam->addAction(structEditIcon(), QLineEdit::TrailingPosition);
    edit->setObjectName(QStringLiteral("editStruct_") + qs(m_slot.name));
    edit->setToolTip(tr("Edit the fields every element is filled with"));
    const auto showEditor = [this, edit] {
        edit->setVisible(m_init->currentText() == QStringLiteral("fill") &&
                         structOf(m_type->currentText().trimmed().toStdString()));
    };
    connect(m_init, &QComboBox::currentTextChanged, edit, showEditor);
    connect(m_type, &QComboBox::currentTextChanged, edit, showEditor);
    showEditor();
    const QString name = qs(m_slot.name);
    ArgumentsPanel *panel = m_context.panel;
    connect(edit, &QAction::triggered, panel, [panel, name] {
        std::unique_ptr<StructEditor> editor(panel->structEditor(name));
        if (editor)
            editor->exec();
    });
}

void ArgumentRow::makeLocal(QHBoxLayout *h)
{
    m_value = new QLineEdit(QStringLiteral("4096"));
    m_value->setPlaceholderText(tr("bytes of local memory"));
    h->addWidget(m_value);
    h->addWidget(new QLabel(tr("bytes")));
}

// The image after NAME= as the CLI writes it; read back (and shown as a picture) unless the kernel only
// reads it.
void ArgumentRow::makeImage(QHBoxLayout *h)
{
    m_value = new ElidingLineEdit(qs(defaultImageSpec(m_slot.image.value_or(ImageDim::Image2D))));
    m_value->setPlaceholderText(
        tr("%1:ORDER:TYPE:%2[:INIT]")
            .arg(qs(std::string(imageDimName(m_slot.image.value_or(ImageDim::Image2D)))),
                 qs(std::string(imageSizeForm(m_slot.image.value_or(ImageDim::Image2D))))));
    m_readBack = new QCheckBox;
    m_readBack->setToolTip(tr("Read the image back after the run and show it in Results"));
    m_readBack->setChecked(m_slot.access != AccessQualifier::ReadOnly);
    h->addWidget(m_value, 1);
    h->addWidget(m_readBack);
}

void ArgumentRow::makeSampler(QHBoxLayout *h)
{
    m_value = new ElidingLineEdit(QStringLiteral("unnormalized,clamp_to_edge,nearest"));
    m_value->setPlaceholderText(tr("normalized|unnormalized, addressing, nearest|linear"));
    h->addWidget(m_value);
}

void ArgumentRow::makeLabelAndCell(QWidget *field)
{
    // The name and the type, short; the whole declaration in the tooltip.
    m_label = new QLabel(QStringLiteral("<b>%1</b> <span style='color: palette(mid)'>%2</span>")
                             .arg(qs(m_slot.name).toHtmlEscaped(), qs(m_slot.typeName).toHtmlEscaped()));
    m_label->setToolTip(
        tr("argument %1: %2 %3").arg(m_slot.index).arg(qs(m_slot.declaration()), qs(m_slot.name)));
    // The field and, under it, the reason a run refused it (hidden until then).
    m_why = new QLabel;
    m_why->setWordWrap(true);
    m_why->setStyleSheet(QStringLiteral("color: #a01010;"));
    m_why->hide();
    auto *cell = new QWidget;
    auto *cellLayout = new QVBoxLayout(cell);
    cellLayout->setContentsMargins(0, 0, 0, 0);
    cellLayout->setSpacing(0);
    cellLayout->addWidget(field);
    if (m_fileLine)
        cellLayout->addWidget(m_fileLine);
    cellLayout->addWidget(m_why);
    m_field = cell;
}

const StructDecl *ArgumentRow::structOf(const std::string &typeName) const
{
    return typeName.empty() ? nullptr : m_context.types.find(typeName);
}

std::optional<ArgValue> ArgumentRow::value(QString *error) const
{
    const std::string name = m_slot.name;
    try {
        switch (m_slot.kind) {
        case ArgKind::Value: {
            const std::string text = m_value->text().trimmed().toStdString();
            if (!m_slot.type) {
                // A struct: its fields (all zero when none are given), or struct:TYPE:..., bytesN:HEX.
                if (text.starts_with("struct:") || text.starts_with("bytes"))
                    return parseArgSpec(name + "=" + text);
                if (structOf(m_slot.baseType()) || text.find('=') != std::string::npos) {
                    parseStructValue(text, name); // brackets and names checked as the user types
                    return ArgValue{name, StructArg{std::string(), text}};
                }
            }
            if (text.empty())
                throw RunInputError(name + ": no value given", name);
            if (!m_slot.type)
                return ArgValue{name, ScalarArg{std::nullopt, text}};
            // Parsed once, here: the run binds these bytes (ScalarArg::parsed).
            std::vector<unsigned char> bytes = parseValue(text, *m_slot.type, name);
            return ArgValue{name, ScalarArg{std::nullopt, text, *m_slot.type, std::move(bytes)}};
        }
        case ArgKind::Buffer: {
            BufferArg b;
            const std::string typeText = m_type->currentText().trimmed().toStdString();
            const auto type = parseElementType(typeText);
            if (!type && structOf(typeText))
                b.typeName = typeText; // the device's layout gives its size when the run binds it
            else if (!type)
                throw RunInputError(name + ": unknown element type '" + m_type->currentText().toStdString() +
                                        "' (types: " + elementTypeNames() + ")",
                                    name);
            b.type = type;
            bool ok = false;
            const qulonglong count = m_count->text().trimmed().toULongLong(&ok);
            if (!ok || count == 0)
                throw RunInputError(name + ": the element count must be a positive number", name);
            b.count = count;
            QString init = m_init->currentText();
            QString param = m_initParam->text().trimmed();
            if (param.startsWith(init + u'='))
                param = param.mid(init.size() + 1);
            if (!param.isEmpty())
                init += u'=' + param;
            b.init = parseBufferInit(init.toStdString(), name);
            // Against the device's limit here, before the run makes any host memory for it.
            if (m_context.device && type) {
                const std::uint64_t limit = m_context.device->integer("CL_DEVICE_MAX_MEM_ALLOC_SIZE");
                const std::size_t element = type->size();
                if (limit > 0 && (count > limit / element || count * element > limit))
                    throw RunInputError(name + ": " + std::to_string(count) + " elements of " + type->name() +
                                            " exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE (" + std::to_string(limit) +
                                            " bytes) of " + m_context.device->name(),
                                        name);
            }
            return ArgValue{name, b};
        }
        case ArgKind::Local: {
            bool ok = false;
            const qulonglong bytes = m_value->text().trimmed().toULongLong(&ok);
            if (!ok || bytes == 0)
                throw RunInputError(name + ": local memory size must be a positive number of bytes", name);
            return ArgValue{name, LocalArg{bytes}};
        }
        case ArgKind::Image: {
            ArgValue value = parseArgSpec(name + "=" + m_value->text().trimmed().toStdString());
            if (!std::holds_alternative<ImageArg>(value.value))
                throw RunInputError(name + ": an image is " +
                                        std::string(imageDimName(m_slot.image.value_or(ImageDim::Image2D))) +
                                        ":ORDER:TYPE:SIZE[:INIT]",
                                    name);
            return value;
        }
        case ArgKind::Sampler:
            return ArgValue{name, parseSamplerSpec(m_value->text().toStdString(), name)};
        case ArgKind::Unsupported:
            throw RunInputError(m_slot.unsupported, name);
        }
    } catch (const std::exception &e) {
        if (error)
            *error = qs(e.what());
    }
    return std::nullopt;
}

void ArgumentRow::validate()
{
    m_error.clear();
    value(&m_error);
    if (m_why && m_why->isVisible() && m_error.isEmpty())
        m_why->hide(); // fixed since the run refused it
    for (QWidget *w : std::initializer_list<QWidget *>{m_value, m_count, m_initParam}) {
        if (w)
            markValid(w, m_error);
    }
}

void ArgumentRow::apply(const ArgValue &value)
{
    if (const auto *s = std::get_if<ScalarArg>(&value.value); s && m_value) {
        m_value->setText(qs(s->text));
    } else if (const auto *st = std::get_if<StructArg>(&value.value);
               st && m_value && m_slot.kind == ArgKind::Value) {
        m_value->setText(qs(st->typeName.empty() ? st->text : "struct:" + st->typeName + ":" + st->text));
    } else if (const auto *b = std::get_if<BufferArg>(&value.value); b && m_type) {
        if (b->type)
            m_type->setCurrentText(qs(b->type->name()));
        else if (!b->typeName.empty())
            m_type->setCurrentText(qs(b->typeName));
        m_count->setText(QString::number(b->count));
        const QString init = qs(toString(b->init));
        const qsizetype eq = init.indexOf(u'=');
        m_init->setCurrentText(eq < 0 ? init : init.left(eq));
        m_initParam->setText(eq < 0 ? QString() : init.mid(eq + 1));
    } else if (const auto *l = std::get_if<LocalArg>(&value.value); l && m_value) {
        m_value->setText(QString::number(l->bytes));
    } else if (const auto *i = std::get_if<ImageArg>(&value.value);
               i && m_value && m_slot.kind == ArgKind::Image) {
        m_value->setText(qs(toString(*i)));
    } else if (const auto *m = std::get_if<SamplerArg>(&value.value);
               m && m_value && m_slot.kind == ArgKind::Sampler) {
        m_value->setText(qs(toString(*m)));
    } else {
        throw RunInputError(value.name + ": that kind of value does not fit " + m_slot.declaration(),
                            value.name);
    }
    // The start of a long value in view (an image's kind and format, not the end of its path).
    for (QLineEdit *e : {m_value, m_initParam}) {
        if (e)
            e->setCursorPosition(0);
    }
    validate();
}

bool ArgumentRow::markError(const QString &message)
{
    const QString name = qs(m_slot.name);
    if (!(message.startsWith(name + u':') || message.startsWith(QStringLiteral("buffer ") + name + u' ') ||
          message.contains(u'\'' + name + u'\'') ||
          message.startsWith(QStringLiteral("clSetKernelArg(") + name)))
        return false;
    m_why->setText(message);
    m_why->show();
    for (QWidget *w : std::initializer_list<QWidget *>{m_value, m_count, m_initParam}) {
        if (w)
            markValid(w, message);
    }
    return true;
}

void ArgumentRow::focusField()
{
    QWidget *focus = m_value ? static_cast<QWidget *>(m_value) : m_count;
    if (focus)
        focus->setFocus();
}

StructEditor *ArgumentRow::structEditor(const QString &argument, QWidget *parent)
{
    if (m_slot.kind == ArgKind::Value && m_value) {
        const StructDecl *decl = structOf(m_slot.baseType());
        if (!decl)
            return nullptr;
        auto *editor = new StructEditor(m_context.types, *decl, argument, parent);
        editor->setValue(m_value->text());
        QLineEdit *field = m_value;
        connect(editor, &QDialog::accepted, field, [editor, field] { field->setText(editor->value()); });
        return editor;
    }
    if (m_slot.kind == ArgKind::Buffer && m_type) {
        const StructDecl *decl = structOf(m_type->currentText().trimmed().toStdString());
        if (!decl)
            return nullptr;
        auto *editor = new StructEditor(m_context.types, *decl, argument + tr(" fill"), parent);
        QString fill = m_initParam->text().trimmed();
        if (fill.startsWith(u'{') && fill.endsWith(u'}'))
            fill = fill.mid(1, fill.size() - 2);
        editor->setValue(fill);
        QComboBox *init = m_init;
        QLineEdit *param = m_initParam;
        connect(editor, &QDialog::accepted, param, [editor, init, param] {
            init->setCurrentText(QStringLiteral("fill"));
            param->setText(u'{' + editor->value() + u'}');
        });
        return editor;
    }
    return nullptr;
}

} // namespace clscope::ui
