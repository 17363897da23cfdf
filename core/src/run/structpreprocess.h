// Private to core/src/run: the small preprocessor of the struct reader (structparse.cpp). Comments, line
// splices, object-like macros, #include of the headers the build found, #if/#ifdef decided where it can;
// what comes out is the tokens of the declarations, each with the file and line it came from.
#pragma once

#include "clscope/structs.h"

#include <string>
#include <string_view>
#include <vector>

namespace clscope::detail {

struct Token
{
    enum Kind : unsigned char { Ident, Number, Punct, String };
    Kind kind = Punct;
    std::string text;
    int line = 0;
    int file = 0; // index into the reader's file names
};

struct PreprocessedSource
{
    std::vector<Token> tokens;
    std::vector<std::string> files; // Token::file's names: 0 the main source, i + 1 headers[i]
};

// defines: NAME or NAME=VALUE, as -D gives them. What could not be decided or found goes to notes.
PreprocessedSource preprocess(std::string_view source, const std::vector<IncludedFile> &headers,
                              const std::vector<std::string> &defines, std::vector<std::string> &notes);

} // namespace clscope::detail
