// What the editor accepts as a text file: UTF-8 without NUL bytes. Anything else is refused with the
// byte offset that makes it so, rather than turned into U+FFFD or cut at the NUL and then saved back.
#pragma once

#include <QByteArray>
#include <QString>

namespace clscope::ui {

// Offset of the first byte that does not belong to well-formed UTF-8 (overlong forms, surrogates and
// code points above U+10FFFF included), or -1 when all of it is UTF-8.
qsizetype firstInvalidUtf8(const QByteArray &bytes);

// Empty when the bytes are editable text; else why not, with the offset ("it is not UTF-8 text: byte
// 0xE9 at offset 12").
QString textProblem(const QByteArray &bytes);

} // namespace clscope::ui
