// Helpers the argument model's tests share (tst_argvalues, tst_argbind, tst_argbuffers).
#pragma once

#include "clscope/kernelargs.h"

#include <QString>

#include <string>
#include <vector>

namespace argtest {

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

inline QString hex(const std::vector<unsigned char> &bytes)
{
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(bytes.data()), qsizetype(bytes.size())).toHex());
}

// The message of the RunInputError that f throws, or "no error".
template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const clscope::RunInputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

} // namespace argtest
