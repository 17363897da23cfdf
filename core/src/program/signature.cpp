// Kernel signatures read from OpenCL C source, spelled the way drivers report them through
// clGetKernelArgInfo (checked against PoCL and Oclgrind in tst_program), for programs without arg info.
#include "clscope/build.h"
#include "clscope/text.h"

#include <algorithm>
#include <cctype>

namespace clscope {
namespace {

// Preprocessor lines (with their continuations) are dropped: macros are not expanded.
std::string dropDirectives(std::string_view src)
{
    std::string out;
    out.reserve(src.size());
    size_t pos = 0;
    bool continued = false;
    while (pos < src.size()) {
        size_t end = src.find('\n', pos);
        if (end == std::string_view::npos)
            end = src.size();
        const std::string_view line = src.substr(pos, end - pos);
        const size_t first = line.find_first_not_of(" \t\r");
        const bool directive = continued || (first != std::string_view::npos && line[first] == '#');
        if (directive) {
            const size_t last = line.find_last_not_of(" \t\r");
            continued = last != std::string_view::npos && line[last] == '\\';
        } else {
            out.append(line);
        }
        out += '\n';
        pos = end + 1;
    }
    return out;
}

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::vector<std::string> tokenize(std::string_view src)
{
    std::vector<std::string> tokens;
    size_t i = 0;
    while (i < src.size()) {
        const char c = src[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (isIdentStart(c)) {
            const size_t start = i;
            while (i < src.size() && isIdentChar(src[i]))
                ++i;
            tokens.emplace_back(src.substr(start, i - start));
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            const size_t start = i;
            while (i < src.size() && (isIdentChar(src[i]) || src[i] == '.'))
                ++i;
            tokens.emplace_back(src.substr(start, i - start));
        } else if (c == '"' || c == '\'') {
            const size_t start = i++;
            while (i < src.size() && src[i] != c) {
                if (src[i] == '\\')
                    ++i;
                ++i;
            }
            i = std::min(i + 1, src.size());
            tokens.emplace_back(src.substr(start, i - start));
        } else {
            tokens.emplace_back(1, c);
            ++i;
        }
    }
    return tokens;
}

bool isAttribute(const std::string &t)
{
    return t == "__attribute__" || t == "__attribute";
}

// Index just past the parenthesised group that starts at `open` (or at the end when unbalanced).
size_t skipGroup(const std::vector<std::string> &tokens, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < tokens.size(); ++i) {
        if (tokens[i] == "(")
            ++depth;
        else if (tokens[i] == ")" && --depth == 0)
            return i + 1;
    }
    return tokens.size();
}

std::string normalizeType(std::vector<std::string> words)
{
    // "unsigned int" is reported as "uint", "signed char" as "char", "long int" as "long".
    bool isUnsigned = false;
    std::vector<std::string> kept;
    for (const auto &w : words) {
        if (w == "unsigned")
            isUnsigned = true;
        else if (w != "signed")
            kept.push_back(w);
    }
    if (kept.size() == 2 && kept[1] == "int" && (kept[0] == "short" || kept[0] == "long"))
        kept.pop_back();
    if (kept.empty() && isUnsigned)
        kept.push_back("int"); // "unsigned" alone
    std::string out;
    for (const auto &w : kept) {
        if (!out.empty())
            out += ' ';
        out += w;
    }
    if (isUnsigned && (out == "char" || out == "short" || out == "int" || out == "long"))
        out = 'u' + out;
    return out;
}

bool isImageType(const std::string &type)
{
    return type.compare(0, 5, "image") == 0 && type.size() > 7 && type.compare(type.size() - 2, 2, "_t") == 0;
}

KernelArg parseParameter(const std::vector<std::string> &tokens)
{
    std::optional<AddressQualifier> address;
    std::optional<AccessQualifier> access;
    bool pointeeConst = false, pointeeVolatile = false, restrict = false, pipe = false;
    int stars = 0;
    std::vector<std::string> words;
    for (size_t i = 0; i < tokens.size();) {
        const std::string &t = tokens[i];
        if (isAttribute(t)) {
            i = (i + 1 < tokens.size() && tokens[i + 1] == "(") ? skipGroup(tokens, i + 1) : i + 1;
            continue;
        }
        if (t == "[") {
            // An array parameter is a pointer, as in C.
            ++stars;
            while (i < tokens.size() && tokens[i] != "]")
                ++i;
        } else if (t == "__global" || t == "global") {
            address = AddressQualifier::Global;
        } else if (t == "__local" || t == "local") {
            address = AddressQualifier::Local;
        } else if (t == "__constant" || t == "constant") {
            address = AddressQualifier::Constant;
        } else if (t == "__private" || t == "private") {
            address = AddressQualifier::Private;
        } else if (t == "__read_only" || t == "read_only") {
            access = AccessQualifier::ReadOnly;
        } else if (t == "__write_only" || t == "write_only") {
            access = AccessQualifier::WriteOnly;
        } else if (t == "__read_write" || t == "read_write") {
            access = AccessQualifier::ReadWrite;
        } else if (t == "const" || t == "__const") {
            // const after the star makes the pointer itself const, which drivers do not report.
            if (stars == 0)
                pointeeConst = true;
        } else if (t == "volatile") {
            if (stars == 0)
                pointeeVolatile = true;
        } else if (t == "restrict" || t == "__restrict" || t == "__restrict__") {
            restrict = true;
        } else if (t == "pipe" && i + 1 < tokens.size() && isIdentStart(tokens[i + 1].front())) {
            pipe = true; // a keyword only before a type: in OpenCL C 1.2 "pipe" can name a parameter
        } else if (t == "*") {
            ++stars;
        } else if (isIdentStart(t.front())) {
            words.push_back(t);
        }
        ++i;
    }
    KernelArg arg;
    // The last word is the name when there is a type before it (unnamed parameters have none).
    if (words.size() >= 2) {
        arg.name = words.back();
        words.pop_back();
    }
    std::string type = normalizeType(std::move(words));
    const bool image = isImageType(type);
    if (stars > 0)
        type.append(size_t(stars), '*');
    arg.typeName = type;
    if (address)
        arg.address = *address;
    else
        arg.address = (image || pipe) ? AddressQualifier::Global : AddressQualifier::Private;
    if (image || pipe)
        arg.access = access.value_or(AccessQualifier::ReadOnly);
    if (stars > 0) {
        if (pointeeConst || arg.address == AddressQualifier::Constant)
            arg.typeQualifiers |= TypeConst;
        if (pointeeVolatile)
            arg.typeQualifiers |= TypeVolatile;
        if (restrict)
            arg.typeQualifiers |= TypeRestrict;
    }
    if (pipe)
        arg.typeQualifiers |= TypePipe;
    return arg;
}

// Parses `name(params)` after a kernel keyword; returns the index after the parameter list.
size_t parseKernel(const std::vector<std::string> &tokens, size_t i, std::vector<KernelSignature> &out)
{
    std::string name;
    while (i < tokens.size()) {
        const std::string &t = tokens[i];
        if (t == ";" || t == "{" || t == "}")
            return i;
        if (isAttribute(t)) {
            i = (i + 1 < tokens.size() && tokens[i + 1] == "(") ? skipGroup(tokens, i + 1) : i + 1;
            continue;
        }
        if (isIdentStart(t.front()) && i + 1 < tokens.size() && tokens[i + 1] == "(") {
            name = t;
            ++i;
            break;
        }
        ++i;
    }
    if (name.empty() || i >= tokens.size())
        return i;
    const size_t close = skipGroup(tokens, i) - 1;
    KernelSignature sig;
    sig.name = name;
    std::vector<std::string> param;
    int depth = 0;
    for (size_t j = i + 1; j < close && j < tokens.size(); ++j) {
        const std::string &t = tokens[j];
        if (t == "(")
            ++depth;
        else if (t == ")")
            --depth;
        if (t == "," && depth == 0) {
            sig.args.push_back(parseParameter(param));
            param.clear();
        } else {
            param.push_back(t);
        }
    }
    if (!param.empty() && !(param.size() == 1 && param.front() == "void"))
        sig.args.push_back(parseParameter(param));
    // A prototype and the definition name the same kernel: keep the first.
    const bool known = std::any_of(out.begin(), out.end(), [&](const auto &s) { return s.name == sig.name; });
    if (!known)
        out.push_back(std::move(sig));
    return close + 1;
}

} // namespace

std::vector<KernelSignature> parseKernelSignatures(std::string_view source)
{
    const std::vector<std::string> tokens = tokenize(dropDirectives(withoutComments(source)));
    std::vector<KernelSignature> out;
    int depth = 0;
    for (size_t i = 0; i < tokens.size();) {
        const std::string &t = tokens[i];
        if (t == "{") {
            ++depth;
        } else if (t == "}") {
            depth = std::max(0, depth - 1);
        } else if (depth == 0 && (t == "__kernel" || t == "kernel")) {
            i = parseKernel(tokens, i + 1, out);
            continue;
        }
        ++i;
    }
    return out;
}

namespace {
// The line where `name(` first appears as a whole word (comments already blanked); 0 when it does not.
int lineOfCall(const std::string &text, const std::string &name)
{
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        size_t after = at + name.size();
        while (after < text.size() && (text[after] == ' ' || text[after] == '\t'))
            ++after;
        if ((at == 0 || !isIdentChar(text[at - 1])) && after < text.size() && text[after] == '(')
            return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
    }
    return 0;
}
} // namespace

FunctionNames functionNames(std::string_view source)
{
    const std::string text = withoutComments(source); // comments blanked, lines kept
    const std::vector<std::string> tokens = tokenize(dropDirectives(text));
    FunctionNames out;
    int depth = 0;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string &t = tokens[i];
        if (t == "{") {
            ++depth;
            continue;
        }
        if (t == "}") {
            depth = std::max(0, depth - 1);
            continue;
        }
        if (!isIdentStart(t[0]) || i + 1 >= tokens.size() || tokens[i + 1] != "(" || isAttribute(t))
            continue;
        if (depth > 0) {
            out.called.insert(t);
            continue;
        }
        // At file scope NAME(...) is followed by ';' (a declaration) or '{' (a definition), attributes
        // between.
        size_t next = skipGroup(tokens, i + 1);
        while (next < tokens.size() && isAttribute(tokens[next]))
            next = skipGroup(tokens, next + 1);
        if (next < tokens.size() && tokens[next] == ";")
            out.declared.emplace(t, lineOfCall(text, t));
        else if (next < tokens.size() && tokens[next] == "{")
            out.defined.insert(t);
    }
    return out;
}

} // namespace clscope
