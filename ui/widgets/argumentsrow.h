// Private to ui/widgets: one row of the arguments panel (argumentspanel.cpp builds it, argumentsstate.cpp
// saves and restores it) and the small helpers both files use.
#pragma once

#include "argumentspanel.h"
#include "display/stdstring.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QString>
#include <QStringList>
#include <QToolButton>

namespace clscope::ui {

struct ArgumentsPanel::Row
{
    ArgSlot slot;
    QLabel *label = nullptr;
    QLineEdit *value = nullptr; // Value: the value; Local: the byte count
    QComboBox *type = nullptr;  // Buffer
    QLineEdit *count = nullptr;
    QComboBox *init = nullptr;
    QLineEdit *initParam = nullptr;
    QCheckBox *readBack = nullptr;
    QToolButton *editStruct = nullptr; // {…}: the struct field editor of a value or of a buffer's fill
    QWidget *field = nullptr;
    QWidget *fileLine = nullptr; // Buffer: the line under the row that holds a file= path and its browser
    QLabel *why = nullptr;       // the reason a run refused this argument, under its field
    QString error;
};

namespace argumentsrow {

inline const QStringList kInitKinds = {QStringLiteral("zeros"), QStringLiteral("fill"),
                                       QStringLiteral("iota"),  QStringLiteral("random"),
                                       QStringLiteral("file"),  QStringLiteral("copy")};

// A first image for an argument of this type: RGBA/UNORM_INT8 (every device with images has it) with a
// gradient, so that a run shows something at once.
inline std::string defaultImageSpec(ImageDim dim)
{
    static constexpr const char *sizes[] = {"256", "256", "256x4", "256x256", "256x256x4", "64x64x64"};
    return std::string(imageDimName(dim)) + ":RGBA:UNORM_INT8:" + sizes[int(dim)] + ":gradient";
}

inline QString settingsGroup(const QString &kernel)
{
    return QStringLiteral("runArgs/") + kernel;
}

inline void markValid(QWidget *w, const QString &error)
{
    w->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("background: #fde8e8;"));
    // A valid field's tooltip is its whole text: side-panel fields are narrow, file= paths are long.
    const auto *edit = qobject_cast<QLineEdit *>(w);
    w->setToolTip(error.isEmpty() && edit ? edit->text() : error);
}

} // namespace argumentsrow

} // namespace clscope::ui
