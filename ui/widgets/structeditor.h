// The field editor of a struct argument (issue 14): the struct's fields as the program declares them, in a
// tree (nested structs and unions as branches; vectors and arrays as one value each, written as a list),
// each with its type and a value checked as it is typed. What it gives back is the struct value the CLI
// takes after `struct:` (`x=1,v=(1,2,3,4),inner={a=3}`): fields left empty are zero, as on the command
// line. The declarations come from the source (structs.h's parseSourceTypes), so the editor needs no
// device; the layout is still the device's, asked when the run binds the value.
#pragma once

#include "clscope/structs.h"

#include <QDialog>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace clscope::ui {

class StructEditor : public QDialog
{
    Q_OBJECT
public:
    // `decl` must be one of `types`' structs (or an inline one of theirs); `what` names the argument in
    // messages ("p", "particles fill").
    StructEditor(const SourceTypes &types, const StructDecl &decl, const QString &what,
                 QWidget *parent = nullptr);

    // Fills the fields from a struct value; false (and the fields it could read filled) when the text does
    // not parse or names a field the struct lacks: error() says which.
    bool setValue(const QString &text);
    // The value of the fields as typed, empty ones left out.
    QString value() const;
    // The first problem of the fields as typed (a value out of range, unbalanced brackets), empty when none.
    QString error() const { return m_error; }

    QTreeWidget *tree() const { return m_tree; }
    // The item of a field by its path ("inner.a", "v"), null when there is none.
    QTreeWidgetItem *item(const QString &path) const;

private:
    void addFields(const StructDecl &decl, QTreeWidgetItem *parent, const QString &prefix, int depth);
    void validate();
    bool fill(const ValueTree &record, const QString &prefix);
    QString valueOf(QTreeWidgetItem *parent, int count) const;

    const SourceTypes &m_types;
    QString m_what;
    QTreeWidget *m_tree;
    QLabel *m_status;
    QString m_error;
};

} // namespace clscope::ui
