// std::string (UTF-8, as core gives its text) to QString: the one conversion every view of core's
// records uses, instead of a copy in each file.
#pragma once

#include <QString>

#include <string_view>

namespace clscope::ui {

inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace clscope::ui
