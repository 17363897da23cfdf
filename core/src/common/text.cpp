// Text helpers of text.h that are not inline.
#include "clscope/text.h"

namespace clscope {

std::string withoutComments(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n') {
                // A line comment ending in a backslash continues on the next line, as in C.
                if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
                    out += '\n';
                    i += 2;
                    continue;
                }
                ++i;
            }
            out += ' ';
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            i += 2;
            while (i < text.size() && !(text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/')) {
                if (text[i] == '\n')
                    out += '\n';
                ++i;
            }
            i = std::min(text.size(), i + 2);
            out += ' ';
        } else if (c == '"' || c == '\'') {
            out += c;
            ++i;
            while (i < text.size() && text[i] != c && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < text.size())
                    out += text[i++];
                out += text[i++];
            }
            if (i < text.size() && text[i] == c)
                out += text[i++];
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

} // namespace clscope
