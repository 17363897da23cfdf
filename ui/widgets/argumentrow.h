// One row of the arguments panel: the typed, validating editor of one kernel argument (a value, a buffer's
// element type, count, initialiser and read-back, local memory, an image, a sampler), made from the
// kernel's ArgSlot. The row parses its fields for the argument's type as the user types and hands the
// value to the panel (value()), takes a value written as the CLI's --arg (apply()), and shows the reason a
// run refused it (markError()).
#pragma once

#include "clscope/deviceinfo.h"
#include "clscope/kernelargs.h"
#include "clscope/structs.h"

#include <QObject>
#include <QString>

#include <optional>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QToolButton;
class QWidget;

namespace clscope::ui {

class ArgumentsPanel;
class StructEditor;

class ArgumentRow : public QObject
{
    Q_OBJECT
public:
    // What a row reads of its panel, as the panel has it at the time: the struct declarations of the
    // build's source and the device (for its allocation limit). The panel opens the struct field editor
    // and is the parent of the row's dialogs.
    struct Context
    {
        const SourceTypes &types;
        const std::optional<DeviceSnapshot> &device;
        ArgumentsPanel *panel;
    };

    // Makes the row's widgets; the panel puts label() and field() in its form.
    ArgumentRow(const ArgSlot &slot, const Context &context);

    const ArgSlot &slot() const { return m_slot; }
    QLabel *label() const { return m_label; }
    // The field with, under it, a buffer's file line and the reason a run refused the argument.
    QWidget *field() const { return m_field; }
    // The read-back box of a buffer or an image; null for other arguments.
    QCheckBox *readBack() const { return m_readBack; }

    // The argument's value parsed from the fields, or nothing with the reason in *error.
    std::optional<ArgValue> value(QString *error) const;
    // Marks the fields with the reason the value does not parse (hides a run's reason once fixed).
    void validate();
    // Writes a parsed --arg value into the fields; throws RunInputError when it does not fit the argument.
    void apply(const ArgValue &value);
    // Shows a run's error under the field when it names this argument ("n: ...", "buffer c of ...",
    // "... 'c' ..."); returns whether it did.
    bool markError(const QString &message);
    // The keyboard focus to the field a fix starts in.
    void focusField();
    // The struct field editor of a struct value or of the fill of a buffer of structs, whose acceptance
    // writes the fields; null when the argument is no struct of the program.
    StructEditor *structEditor(const QString &argument, QWidget *parent);

    // A field marked as invalid (a tinted background and the reason as its tooltip), or as valid.
    static void markValid(QWidget *w, const QString &error);

private:
    void makeValue(QHBoxLayout *h);
    void makeBuffer(QHBoxLayout *h);
    void makeBufferFileLine(QHBoxLayout *h);
    void makeBufferStructAction();
    void makeLocal(QHBoxLayout *h);
    void makeImage(QHBoxLayout *h);
    void makeSampler(QHBoxLayout *h);
    void makeLabelAndCell(QWidget *field);
    const StructDecl *structOf(const std::string &typeName) const;

    ArgSlot m_slot;
    Context m_context;
    QLabel *m_label = nullptr;
    QLineEdit *m_value = nullptr; // Value: the value; Local: the byte count
    QComboBox *m_type = nullptr;  // Buffer
    QLineEdit *m_count = nullptr;
    QComboBox *m_init = nullptr;
    QLineEdit *m_initParam = nullptr;
    QCheckBox *m_readBack = nullptr;
    QToolButton *m_editStruct = nullptr; // {…}: the struct field editor of a value or of a buffer's fill
    QWidget *m_field = nullptr;
    QWidget *m_fileLine = nullptr; // Buffer: the line under the row that holds a file= path and its browser
    QLabel *m_why = nullptr;       // the reason a run refused this argument, under its field
    QString m_error;
};

} // namespace clscope::ui
