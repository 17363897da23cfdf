// The struct field editor: a tree of fields, values checked against their declared types as they are typed.
#include "structeditor.h"
#include "display/stdstring.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

namespace {

enum StructColumn { NameColumn, TypeColumn, ValueColumn };
// Item data: the field's path ("inner.a") and, for a leaf, its number type as text (empty when it is a
// list, a struct written by hand, or bytes).
constexpr int PathRole = Qt::UserRole;
constexpr int ElementRole = Qt::UserRole + 1;

QString declText(const FieldDecl &f)
{
    QString t = qs(f.inlineType ? (f.inlineType->isUnion ? "union {…}" : "struct {…}") : f.type);
    if (f.pointer)
        t += u'*';
    for (const std::string &d : f.dims)
        t += u'[' + qs(d) + u']';
    return t;
}

bool isBranch(const QTreeWidgetItem *item)
{
    return item->childCount() > 0;
}

} // namespace

StructEditor::StructEditor(const SourceTypes &types, const StructDecl &decl, const QString &what,
                           QWidget *parent)
    : QDialog(parent)
    , m_types(types)
    , m_what(what)
    , m_tree(new QTreeWidget)
    , m_status(new QLabel)
{
    setObjectName(QStringLiteral("structEditor"));
    setWindowTitle(tr("%1: %2").arg(what, qs(decl.cName().empty() ? std::string("struct") : decl.cName())));
    m_tree->setObjectName(QStringLiteral("structFields"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Field"), tr("Type"), tr("Value")});
    m_tree->setAlternatingRowColors(true);
    m_tree->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_tree->header()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(TypeColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    addFields(decl, nullptr, QString(), 0);
    m_tree->expandAll();
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("structStatus"));

    auto *hint =
        new QLabel(tr("Empty fields are zero. Vectors and arrays as lists: (1,2,3,4); a struct inside "
                      "an array as {a=1,b=2}. The device lays the struct out when the kernel runs."));
    hint->setWordWrap(true);
    hint->setStyleSheet(QStringLiteral("color: palette(mid);"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto *clear = buttons->addButton(tr("Clear"), QDialogButtonBox::ResetRole);
    connect(clear, &QPushButton::clicked, this, [this] { setValue(QString()); });
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_error.isEmpty())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this, buttons](QTreeWidgetItem *, int column) {
        if (column != ValueColumn)
            return;
        validate();
        buttons->button(QDialogButtonBox::Ok)->setEnabled(m_error.isEmpty());
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tree, 1);
    layout->addWidget(hint);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    // As tall as the fields need, within reason.
    int rows = 0;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        ++rows;
    resize(540, std::clamp(190 + rows * (fontMetrics().height() + 6), 280, 600));
    validate();
}

void StructEditor::addFields(const StructDecl &decl, QTreeWidgetItem *parent, const QString &prefix,
                             int depth)
{
    for (const FieldDecl &f : decl.fields) {
        // A struct inside: its declaration inline, or by its name; an array of them is one value.
        const StructDecl *nested =
            f.inlineType ? f.inlineType.get() : (f.pointer ? nullptr : m_types.find(f.type));
        if (f.name.empty()) {
            // An anonymous member's fields belong to this struct.
            if (nested && depth < 16)
                addFields(*nested, parent, prefix, depth + 1);
            continue;
        }
        const QString path = prefix + qs(f.name);
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
        item->setText(NameColumn, qs(f.name));
        item->setText(TypeColumn, declText(f));
        item->setData(NameColumn, PathRole, path);
        if (nested && f.dims.empty() && depth < 16) {
            addFields(*nested, item, path + u'.', depth + 1);
            if (item->childCount() > 0) {
                item->setFlags(item->flags() & ~Qt::ItemIsEditable);
                continue;
            }
        }
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        const std::optional<ElementType> element =
            f.pointer || !f.dims.empty() ? std::nullopt : parseElementType(m_types.resolve(f.type));
        if (element)
            item->setData(NameColumn, ElementRole, qs(element->name()));
        QString tip;
        if (f.pointer)
            tip = tr("a pointer: its bits as a number (usually left zero)");
        else if (!f.dims.empty())
            tip = tr("an array: (v0,v1,...); missing elements are zero");
        else if (element && element->complex)
            tip = tr("a complex number: 1+2j or (1,2)");
        else if (element && element->width > 1)
            tip = tr("a vector: (%1 values)").arg(element->width);
        else if (element)
            tip = tr("a number: decimal, 0x hex, hex-float, inf, nan");
        else
            tip = tr("a value of %1").arg(qs(f.type));
        item->setToolTip(ValueColumn, tip);
    }
}

QTreeWidgetItem *StructEditor::item(const QString &path) const
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(NameColumn, PathRole).toString() == path)
            return *it;
    }
    return nullptr;
}

void StructEditor::validate()
{
    const QSignalBlocker block(m_tree);
    m_error.clear();
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        QTreeWidgetItem *item = *it;
        if (isBranch(item))
            continue;
        const QString text = item->text(ValueColumn).trimmed();
        const QString path = item->data(NameColumn, PathRole).toString();
        const std::string what = QString(m_what + u'.' + path).toStdString();
        QString problem;
        if (!text.isEmpty()) {
            try {
                const QString elementName = item->data(NameColumn, ElementRole).toString();
                if (const auto element = parseElementType(elementName.toStdString());
                    element && !elementName.isEmpty()) {
                    // Vectors may be written with brackets, as in a struct value.
                    QString bare = text;
                    if (element->width > 1 && bare.startsWith(u'(') && bare.endsWith(u')'))
                        bare = bare.mid(1, bare.size() - 2);
                    parseValue(bare.toStdString(), *element, what);
                } else {
                    // A list or a record: its brackets must balance (the device's layout checks the rest).
                    parseStructValue("v=" + text.toStdString(), what);
                }
            } catch (const std::exception &e) {
                problem = qs(e.what());
            }
        }
        item->setBackground(ValueColumn, problem.isEmpty() ? QBrush() : QBrush(QColor(0xfd, 0xe8, 0xe8)));
        if (!problem.isEmpty()) {
            item->setToolTip(NameColumn, problem);
            if (m_error.isEmpty())
                m_error = problem;
        } else {
            item->setToolTip(NameColumn, QString());
        }
    }
    m_status->setText(m_error.isEmpty() ? tr("Value: %1").arg(value().isEmpty() ? tr("all zero") : value())
                                        : m_error);
    m_status->setStyleSheet(m_error.isEmpty() ? QString() : QStringLiteral("color: #a01010;"));
}

QString StructEditor::valueOf(QTreeWidgetItem *parent, int count) const
{
    QStringList parts;
    for (int i = 0; i < count; ++i) {
        QTreeWidgetItem *item = parent ? parent->child(i) : m_tree->topLevelItem(i);
        if (isBranch(item)) {
            const QString inner = valueOf(item, item->childCount());
            if (!inner.isEmpty())
                parts << item->text(NameColumn) + QStringLiteral("={") + inner + u'}';
            continue;
        }
        QString text = item->text(ValueColumn).trimmed();
        if (text.isEmpty())
            continue;
        const auto element = parseElementType(item->data(NameColumn, ElementRole).toString().toStdString());
        // A vector as a list, so that its commas stay inside the field.
        if (element && element->width > 1 && !element->complex && !text.startsWith(u'('))
            text = u'(' + text + u')';
        parts << item->text(NameColumn) + u'=' + text;
    }
    return parts.join(u',');
}

QString StructEditor::value() const
{
    return valueOf(nullptr, m_tree->topLevelItemCount());
}

bool StructEditor::fill(const ValueTree &record, const QString &prefix)
{
    bool ok = true;
    for (const ValueTree &field : record.items) {
        QTreeWidgetItem *item = this->item(prefix + qs(field.name));
        if (!item) {
            if (m_error.isEmpty())
                m_error = tr("%1 has no field '%2'").arg(m_what, prefix + qs(field.name));
            ok = false;
            continue;
        }
        if (isBranch(item) && field.kind == ValueTree::Kind::Record) {
            ok = fill(field, prefix + qs(field.name) + u'.') && ok;
            continue;
        }
        std::string text = toString(field);
        if (field.kind == ValueTree::Kind::Record)
            text = "{" + text + "}";
        item->setText(ValueColumn, qs(text));
    }
    return ok;
}

bool StructEditor::setValue(const QString &text)
{
    {
        const QSignalBlocker block(m_tree);
        for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
            (*it)->setText(ValueColumn, QString());
    }
    m_error.clear();
    bool ok = true;
    QString problem;
    if (!text.trimmed().isEmpty()) {
        try {
            const QSignalBlocker block(m_tree);
            ok = fill(parseStructValue(text.toStdString(), m_what.toStdString()), QString());
            problem = m_error;
        } catch (const std::exception &e) {
            problem = qs(e.what());
            ok = false;
        }
    }
    validate();
    if (!problem.isEmpty()) {
        m_error = problem;
        m_status->setText(problem);
        m_status->setStyleSheet(QStringLiteral("color: #a01010;"));
    }
    return ok;
}

} // namespace clscope::ui
