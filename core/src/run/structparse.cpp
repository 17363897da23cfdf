// The struct reader: a small preprocessor (comments, line splices, object-like macros, #include of the
// headers the build found, #if/#ifdef decided where it can) and a declaration reader that keeps what a
// layout probe needs of each struct or union: its names, its fields' names and types, array dimensions
// as written. Sizes and offsets are never computed here: the device gives them (structlayout.cpp).
#include "clscope/structs.h"
#include "clscope/text.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace clscope {
namespace {

struct Token
{
    enum Kind : unsigned char { Ident, Number, Punct, String };
    Kind kind = Punct;
    std::string text;
    int line = 0;
    int file = 0; // index into the reader's file names
};

bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentChar(char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
}

// Comments become one space (newlines inside block comments stay, so line numbers do too); string and
// character literals are kept as they are.
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

struct Line
{
    std::string text;
    int number = 0; // of its first physical line
};

// Physical lines joined where one ends in a backslash.
std::vector<Line> logicalLines(std::string_view text)
{
    std::vector<Line> lines;
    int number = 1;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        Line line{{}, number};
        while (true) {
            std::size_t end = text.find('\n', pos);
            if (end == std::string_view::npos)
                end = text.size();
            std::string_view part = text.substr(pos, end - pos);
            if (!part.empty() && part.back() == '\r')
                part.remove_suffix(1);
            pos = end + 1;
            ++number;
            if (!part.empty() && part.back() == '\\' && pos <= text.size()) {
                line.text.append(part.substr(0, part.size() - 1));
                continue;
            }
            line.text.append(part);
            break;
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<Token> tokenize(std::string_view text, int line, int file)
{
    std::vector<Token> out;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
            ++i;
        } else if (isIdentStart(c)) {
            const std::size_t start = i;
            while (i < text.size() && isIdentChar(text[i]))
                ++i;
            out.push_back({Token::Ident, std::string(text.substr(start, i - start)), line, file});
        } else if ((c >= '0' && c <= '9') ||
                   (c == '.' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9')) {
            const std::size_t start = i;
            while (i < text.size() &&
                   (isIdentChar(text[i]) || text[i] == '.' ||
                    ((text[i] == '+' || text[i] == '-') &&
                     (text[i - 1] == 'e' || text[i - 1] == 'E' || text[i - 1] == 'p' || text[i - 1] == 'P'))))
                ++i;
            out.push_back({Token::Number, std::string(text.substr(start, i - start)), line, file});
        } else if (c == '"' || c == '\'') {
            const std::size_t start = i++;
            while (i < text.size() && text[i] != c) {
                if (text[i] == '\\')
                    ++i;
                ++i;
            }
            i = std::min(text.size(), i + 1);
            out.push_back({Token::String, std::string(text.substr(start, i - start)), line, file});
        } else {
            // Two-character operators that #if expressions use; the declaration reader needs none.
            static constexpr std::string_view kPairs[] = {
                "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "##"};
            std::string op(1, c);
            if (i + 1 < text.size()) {
                const std::string_view two = text.substr(i, 2);
                if (std::find(std::begin(kPairs), std::end(kPairs), two) != std::end(kPairs))
                    op = std::string(two);
            }
            i += op.size();
            out.push_back({Token::Punct, op, line, file});
        }
    }
    return out;
}

struct Macro
{
    bool functionLike = false;
    std::vector<Token> body;
};

// #if expressions: integers, defined, the C operators. Unknown identifiers are 0, as in the preprocessor.
class ConditionEvaluator
{
public:
    explicit ConditionEvaluator(const std::vector<Token> &tokens)
        : m_tokens(tokens)
    {}

    std::optional<long long> evaluate()
    {
        const auto value = ternary();
        if (!value || m_pos != m_tokens.size())
            return std::nullopt;
        return value;
    }

private:
    bool at(std::string_view text) const { return m_pos < m_tokens.size() && m_tokens[m_pos].text == text; }

    std::optional<long long> ternary()
    {
        auto cond = binary(0);
        if (!cond || !at("?"))
            return cond;
        ++m_pos;
        auto a = ternary();
        if (!a || !at(":"))
            return std::nullopt;
        ++m_pos;
        auto b = ternary();
        if (!b)
            return std::nullopt;
        return *cond ? a : b;
    }

    static int precedence(std::string_view op)
    {
        static constexpr std::pair<std::string_view, int> kOps[] = {
            {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},  {">", 7},
            {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10},
        };
        for (const auto &[name, p] : kOps) {
            if (name == op)
                return p;
        }
        return 0;
    }

    std::optional<long long> binary(int minimum)
    {
        auto left = unary();
        while (left && m_pos < m_tokens.size()) {
            const std::string op = m_tokens[m_pos].text;
            const int p = m_tokens[m_pos].kind == Token::Punct ? precedence(op) : 0;
            if (p == 0 || p <= minimum)
                break;
            ++m_pos;
            const auto right = binary(p);
            if (!right)
                return std::nullopt;
            const long long a = *left, b = *right;
            if ((op == "/" || op == "%") && b == 0)
                return std::nullopt;
            if (op == "||")
                left = (a || b) ? 1 : 0;
            else if (op == "&&")
                left = (a && b) ? 1 : 0;
            else if (op == "|")
                left = a | b;
            else if (op == "^")
                left = a ^ b;
            else if (op == "&")
                left = a & b;
            else if (op == "==")
                left = a == b;
            else if (op == "!=")
                left = a != b;
            else if (op == "<")
                left = a < b;
            else if (op == ">")
                left = a > b;
            else if (op == "<=")
                left = a <= b;
            else if (op == ">=")
                left = a >= b;
            else if (op == "<<")
                left = (b < 0 || b > 62) ? 0 : a << b;
            else if (op == ">>")
                left = (b < 0 || b > 62) ? 0 : a >> b;
            else if (op == "+")
                left = a + b;
            else if (op == "-")
                left = a - b;
            else if (op == "*")
                left = a * b;
            else if (op == "/")
                left = a / b;
            else
                left = a % b;
        }
        return left;
    }

    std::optional<long long> unary()
    {
        if (m_pos >= m_tokens.size())
            return std::nullopt;
        const Token &t = m_tokens[m_pos];
        if (t.kind == Token::Punct && (t.text == "!" || t.text == "-" || t.text == "+" || t.text == "~")) {
            ++m_pos;
            const auto v = unary();
            if (!v)
                return std::nullopt;
            return t.text == "!" ? (*v ? 0 : 1) : t.text == "-" ? -*v : t.text == "~" ? ~*v : *v;
        }
        if (t.text == "(") {
            ++m_pos;
            const auto v = ternary();
            if (!v || !at(")"))
                return std::nullopt;
            ++m_pos;
            return v;
        }
        ++m_pos;
        if (t.kind == Token::Ident)
            return 0;
        if (t.kind == Token::Number) {
            std::string_view digits = t.text;
            while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' ||
                                       digits.back() == 'L'))
                digits.remove_suffix(1);
            int base = 10;
            if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
                base = 16;
                digits.remove_prefix(2);
            } else if (digits.size() > 1 && digits[0] == '0') {
                base = 8;
                digits.remove_prefix(1);
            }
            long long value = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
            if (ec != std::errc() || end != digits.data() + digits.size())
                return std::nullopt;
            return value;
        }
        return std::nullopt;
    }

    const std::vector<Token> &m_tokens;
    std::size_t m_pos = 0;
};

// Turns the text (and the headers it includes) into the tokens outside directives, macros expanded.
class Preprocessor
{
public:
    Preprocessor(const std::vector<IncludedFile> &headers, const std::vector<std::string> &defines,
                 std::vector<std::string> &notes)
        : m_headers(headers)
        , m_notes(notes)
    {
        m_files.emplace_back();
        for (const std::string &d : defines) {
            const std::size_t eq = d.find('=');
            Macro m;
            m.body = tokenize(
                eq == std::string::npos ? std::string_view("1") : std::string_view(d).substr(eq + 1), 0, 0);
            m_macros[d.substr(0, eq)] = std::move(m);
        }
        // The version macros every OpenCL C compiler defines; __OPENCL_VERSION__ and the like are the
        // device's and stay unknown (0).
        for (const auto &[name, value] : {std::pair{"CL_VERSION_1_0", "100"},
                                          {"CL_VERSION_1_1", "110"},
                                          {"CL_VERSION_1_2", "120"},
                                          {"CL_VERSION_2_0", "200"},
                                          {"CL_VERSION_3_0", "300"},
                                          {"__ENDIAN_LITTLE__", "1"}}) {
            if (!m_macros.count(name))
                m_macros[name] = Macro{false, tokenize(value, 0, 0)};
        }
    }

    const std::vector<std::string> &files() const { return m_files; }
    std::vector<Token> take() { return std::move(m_out); }

    void run(std::string_view text, int file, int depth = 0)
    {
        const std::size_t conditionals = m_stack.size();
        for (const Line &line : logicalLines(withoutComments(text))) {
            const std::string_view body = trimSpace(line.text);
            if (body.starts_with('#')) {
                directive(trimSpace(body.substr(1)), line.number, file, depth);
                continue;
            }
            if (!active())
                continue;
            expandInto(tokenize(line.text, line.number, file), m_out, {});
        }
        // An #if left open in a header ends with it.
        m_stack.resize(std::min(m_stack.size(), conditionals));
    }

private:
    struct Conditional
    {
        bool taking = false;   // this branch is read
        bool taken = false;    // some branch of this #if was
        bool enclosing = true; // the #if itself is inside a branch that is read
    };

    bool active() const { return m_stack.empty() || m_stack.back().taking; }

    void note(const std::string &text)
    {
        if (std::find(m_notes.begin(), m_notes.end(), text) == m_notes.end() && m_notes.size() < 32)
            m_notes.push_back(text);
    }

    void expandInto(const std::vector<Token> &tokens, std::vector<Token> &out, std::set<std::string> disabled,
                    int depth = 0)
    {
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const Token &t = tokens[i];
            const auto it = t.kind == Token::Ident ? m_macros.find(t.text) : m_macros.end();
            if (it == m_macros.end() || disabled.count(t.text) || depth > 64) {
                out.push_back(t);
                continue;
            }
            if (it->second.functionLike) {
                if (i + 1 < tokens.size() && tokens[i + 1].text == "(")
                    note("the function-like macro " + t.text + "(...) is not expanded");
                out.push_back(t);
                continue;
            }
            std::vector<Token> body = it->second.body;
            for (Token &b : body) {
                b.line = t.line;
                b.file = t.file;
            }
            std::set<std::string> inner = disabled;
            inner.insert(t.text);
            expandInto(body, out, std::move(inner), depth + 1);
        }
    }

    std::optional<long long> condition(std::string_view text)
    {
        // `defined X` and `defined(X)` are decided before macros are expanded.
        const std::vector<Token> raw = tokenize(text, 0, 0);
        std::vector<Token> replaced;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i].text != "defined") {
                replaced.push_back(raw[i]);
                continue;
            }
            std::size_t j = i + 1;
            const bool paren = j < raw.size() && raw[j].text == "(";
            if (paren)
                ++j;
            if (j >= raw.size() || raw[j].kind != Token::Ident)
                return std::nullopt;
            replaced.push_back({Token::Number, m_macros.count(raw[j].text) ? "1" : "0", 0, 0});
            i = j + (paren ? 1 : 0);
        }
        std::vector<Token> expanded;
        expandInto(replaced, expanded, {});
        return ConditionEvaluator(expanded).evaluate();
    }

    void pushConditional(bool value)
    {
        Conditional c;
        c.enclosing = active();
        c.taking = c.enclosing && value;
        c.taken = value;
        m_stack.push_back(c);
    }

    bool decide(std::string_view expression, int line)
    {
        const auto value = condition(expression);
        if (!value) {
            note("line " + std::to_string(line) + ": #if " + std::string(expression) +
                 " was not understood and is taken as true");
            return true;
        }
        return *value != 0;
    }

    void directive(std::string_view text, int line, int file, int depth)
    {
        std::size_t nameEnd = 0;
        while (nameEnd < text.size() && isIdentChar(text[nameEnd]))
            ++nameEnd;
        const std::string_view name = text.substr(0, nameEnd);
        const std::string_view rest = trimSpace(text.substr(nameEnd));
        if (name == "if") {
            pushConditional(active() ? decide(rest, line) : false);
        } else if (name == "ifdef" || name == "ifndef") {
            std::string_view macro = rest;
            std::size_t end = 0;
            while (end < macro.size() && isIdentChar(macro[end]))
                ++end;
            const bool defined = m_macros.count(std::string(macro.substr(0, end))) > 0;
            pushConditional(name == "ifdef" ? defined : !defined);
        } else if (name == "elif") {
            if (m_stack.empty())
                return;
            Conditional &c = m_stack.back();
            const bool value = !c.taken && c.enclosing && decide(rest, line);
            c.taking = c.enclosing && value;
            c.taken = c.taken || value;
        } else if (name == "else") {
            if (m_stack.empty())
                return;
            Conditional &c = m_stack.back();
            c.taking = c.enclosing && !c.taken;
            c.taken = true;
        } else if (name == "endif") {
            if (!m_stack.empty())
                m_stack.pop_back();
        } else if (!active()) {
            return;
        } else if (name == "define") {
            std::size_t end = 0;
            while (end < rest.size() && isIdentChar(rest[end]))
                ++end;
            if (end == 0)
                return;
            Macro m;
            m.functionLike = end < rest.size() && rest[end] == '(';
            if (!m.functionLike)
                m.body = tokenize(rest.substr(end), line, file);
            m_macros[std::string(rest.substr(0, end))] = std::move(m);
        } else if (name == "undef") {
            std::size_t end = 0;
            while (end < rest.size() && isIdentChar(rest[end]))
                ++end;
            m_macros.erase(std::string(rest.substr(0, end)));
        } else if (name == "pragma") {
            if (trimSpace(rest) == "once")
                m_once.insert(file);
        } else if (name == "include") {
            include(rest, line, depth);
        }
    }

    void include(std::string_view rest, int line, int depth)
    {
        if (rest.size() < 2 || !((rest.front() == '"' && rest.find('"', 1) != std::string_view::npos) ||
                                 (rest.front() == '<' && rest.find('>') != std::string_view::npos))) {
            note("line " + std::to_string(line) + ": #include " + std::string(rest) + " is not followed");
            return;
        }
        const char close = rest.front() == '"' ? '"' : '>';
        const std::string spelling(rest.substr(1, rest.find(close, 1) - 1));
        const auto it = std::find_if(m_headers.begin(), m_headers.end(), [&](const IncludedFile &h) {
            return h.found && h.spelling == spelling;
        });
        if (it == m_headers.end()) {
            note("the header " + spelling + " was not found");
            return;
        }
        const std::size_t index = std::size_t(it - m_headers.begin());
        const int headerFile = int(index) + 1;
        if (m_once.count(headerFile) || depth > 40)
            return;
        if (m_files.size() <= index + 1)
            m_files.resize(m_headers.size() + 1);
        m_files[index + 1] = it->path;
        run(it->contents, headerFile, depth + 1);
    }

    const std::vector<IncludedFile> &m_headers;
    std::vector<std::string> &m_notes;
    std::vector<std::string> m_files; // 0: the main source, i + 1: headers[i]
    std::map<std::string, Macro> m_macros;
    std::vector<Conditional> m_stack;
    std::set<int> m_once;
    std::vector<Token> m_out;
};

bool isQualifier(std::string_view t)
{
    static constexpr std::string_view kWords[] = {
        "const",     "volatile",    "restrict",  "__restrict",   "static",     "extern",       "inline",
        "__inline",  "__global",    "global",    "__local",      "local",      "__constant",   "constant",
        "__private", "private",     "__generic", "generic",      "__kernel",   "kernel",       "register",
        "auto",      "__read_only", "read_only", "__write_only", "write_only", "__read_write", "read_write"};
    return std::find(std::begin(kWords), std::end(kWords), t) != std::end(kWords);
}

bool isBasicWord(std::string_view t)
{
    static constexpr std::string_view kWords[] = {"void",   "char", "short", "int",      "long",   "float",
                                                  "double", "half", "bool",  "unsigned", "signed", "_Bool"};
    return std::find(std::begin(kWords), std::end(kWords), t) != std::end(kWords);
}

// "unsigned long int" -> "ulong", "long int" -> "long", "signed" -> "int": the OpenCL names.
std::string basicTypeName(const std::vector<std::string> &words)
{
    int longs = 0;
    bool isUnsigned = false;
    std::string base;
    for (const std::string &w : words) {
        if (w == "unsigned")
            isUnsigned = true;
        else if (w == "signed")
            continue; // the default of every integer but char, and OpenCL's char is signed
        else if (w == "long")
            ++longs;
        else if (w == "int" && (longs || !base.empty()))
            continue;
        else
            base = w == "_Bool" ? "bool" : w;
    }
    if (base == "short" || base == "char") {
        // "short int", "unsigned char": the base says it
    } else if (longs == 1 && (base.empty() || base == "int")) {
        base = "long";
    } else if (longs == 2 && (base.empty() || base == "int")) {
        base = "long long"; // not OpenCL C; the device will say so
    } else if (longs == 1 && base == "double") {
        return "long double";
    } else if (base.empty()) {
        base = "int";
    }
    if (isUnsigned && (base == "char" || base == "short" || base == "int" || base == "long"))
        return "u" + base;
    if (isUnsigned)
        return "unsigned " + base;
    return base;
}

class DeclReader
{
public:
    DeclReader(std::vector<Token> tokens, const std::vector<std::string> &files, SourceTypes &out)
        : m_t(std::move(tokens))
        , m_files(files)
        , m_out(out)
    {}

    void run()
    {
        while (m_pos < m_t.size()) {
            const std::string &t = m_t[m_pos].text;
            if (t == "typedef") {
                ++m_pos;
                typedefDeclaration();
            } else if (t == "struct" || t == "union") {
                // A definition at file scope; whatever follows it (a variable, a function) is skipped below.
                specifiers();
            } else if (t == "{" || t == "(" || t == "[") {
                skipBalanced();
            } else {
                ++m_pos;
            }
        }
        for (auto &d : m_structs) {
            if (!d->names.empty())
                m_out.structs.push_back(d);
        }
    }

private:
    struct Spec
    {
        std::string type; // "float", "struct Tag", "THREE_VECTOR"; "" for an anonymous definition
        std::shared_ptr<StructDecl> defined; // a struct or union defined here
        bool valid = false;
    };

    bool at(std::string_view text) const { return m_pos < m_t.size() && m_t[m_pos].text == text; }
    bool atIdent() const { return m_pos < m_t.size() && m_t[m_pos].kind == Token::Ident; }

    void note(const std::string &text)
    {
        if (std::find(m_out.notes.begin(), m_out.notes.end(), text) == m_out.notes.end() &&
            m_out.notes.size() < 32)
            m_out.notes.push_back(text);
    }

    // Skips a bracketed group starting at the current token.
    void skipBalanced()
    {
        int depth = 0;
        while (m_pos < m_t.size()) {
            const std::string &t = m_t[m_pos++].text;
            if (t == "{" || t == "(" || t == "[")
                ++depth;
            else if ((t == "}" || t == ")" || t == "]") && --depth <= 0)
                return;
        }
    }

    // To the end of a declaration: past the ';' (or to the '}' that closes the enclosing body).
    void skipDeclaration()
    {
        while (m_pos < m_t.size() && !at(";") && !at("}")) {
            if (at("{") || at("(") || at("["))
                skipBalanced();
            else
                ++m_pos;
        }
        if (at(";"))
            ++m_pos;
    }

    // __attribute__((packed, aligned(16))): "packed", "aligned(16)".
    std::vector<std::string> attributes()
    {
        std::vector<std::string> out;
        while (at("__attribute__") || at("__attribute")) {
            ++m_pos;
            if (!at("("))
                return out;
            const std::size_t start = m_pos;
            skipBalanced();
            // The tokens between the double parentheses, split at top-level commas.
            std::string current;
            int depth = 0;
            for (std::size_t i = start; i < m_pos; ++i) {
                const std::string &t = m_t[i].text;
                if (t == "(" && ++depth <= 2)
                    continue;
                if (t == ")" && depth-- <= 2)
                    continue;
                if (t == "," && depth == 2) {
                    out.push_back(current);
                    current.clear();
                    continue;
                }
                std::string word = t;
                if (word.size() > 4 && word.starts_with("__") && word.ends_with("__"))
                    word = word.substr(2, word.size() - 4);
                current += word;
            }
            if (!current.empty())
                out.push_back(current);
        }
        return out;
    }

    Spec specifiers()
    {
        Spec spec;
        std::vector<std::string> words;
        while (m_pos < m_t.size()) {
            const Token &t = m_t[m_pos];
            if (t.kind != Token::Ident)
                break;
            if (isQualifier(t.text)) {
                ++m_pos;
            } else if (t.text == "__attribute__" || t.text == "__attribute") {
                attributes();
            } else if (t.text == "struct" || t.text == "union") {
                if (spec.valid)
                    break;
                structSpecifier(spec);
            } else if (t.text == "enum") {
                if (spec.valid)
                    break;
                ++m_pos;
                attributes();
                spec.type = "enum";
                if (atIdent()) {
                    spec.type += " " + m_t[m_pos].text;
                    ++m_pos;
                }
                if (at("{"))
                    skipBalanced();
                spec.valid = true;
            } else if (isBasicWord(t.text)) {
                if (spec.valid && words.empty())
                    break; // a typedef name was already the type
                words.push_back(t.text);
                ++m_pos;
            } else if (!spec.valid && words.empty()) {
                spec.type = t.text; // a typedef name, a vector type (float4), cfloat_t
                spec.valid = true;
                ++m_pos;
            } else {
                break;
            }
        }
        if (!words.empty()) {
            spec.type = basicTypeName(words);
            spec.valid = true;
        }
        return spec;
    }

    void structSpecifier(Spec &spec)
    {
        const bool isUnion = m_t[m_pos].text == "union";
        const int line = m_t[m_pos].line;
        const int file = m_t[m_pos].file;
        ++m_pos;
        std::vector<std::string> attrs = attributes();
        std::string tag;
        if (atIdent() && m_t[m_pos].text != "__attribute__") {
            tag = m_t[m_pos].text;
            ++m_pos;
        }
        for (std::string &a : attributes())
            attrs.push_back(std::move(a));
        const std::string keyword = isUnion ? "union " : "struct ";
        spec.valid = true;
        spec.type = tag.empty() ? std::string() : keyword + tag;
        if (!at("{")) {
            if (tag.empty())
                spec.valid = false;
            return;
        }
        auto decl = std::make_shared<StructDecl>();
        decl->isUnion = isUnion;
        decl->line = line;
        decl->file = std::size_t(file) < m_files.size() ? m_files[std::size_t(file)] : std::string();
        if (!tag.empty())
            decl->names.push_back(keyword + tag);
        ++m_pos; // {
        fields(*decl);
        if (at("}"))
            ++m_pos;
        for (std::string &a : attributes())
            attrs.push_back(std::move(a));
        decl->attributes = std::move(attrs);
        // A tagged definition anywhere, also inside another struct, names a type of the whole file.
        m_structs.push_back(decl);
        spec.defined = decl;
    }

    void fields(StructDecl &decl)
    {
        while (m_pos < m_t.size() && !at("}")) {
            if (at(";")) {
                ++m_pos;
                continue;
            }
            const std::size_t start = m_pos;
            const int line = m_t[m_pos].line;
            Spec spec = specifiers();
            if (!spec.valid) {
                if (m_pos == start)
                    ++m_pos;
                note("line " + std::to_string(line) + ": a member of " +
                     (decl.names.empty() ? std::string("a struct") : decl.names.front()) +
                     " was not understood");
                skipDeclaration();
                continue;
            }
            if (at(";")) {
                // No declarator: an anonymous struct or union member (C11), whose fields are the parent's.
                if (spec.defined && spec.type.empty()) {
                    FieldDecl f;
                    f.inlineType = spec.defined;
                    f.line = line;
                    decl.fields.push_back(std::move(f));
                }
                ++m_pos;
                continue;
            }
            declarators(spec, line, [&](FieldDecl f) { decl.fields.push_back(std::move(f)); });
        }
    }

    // The declarators after a member's or a typedef's type: `*p`, `a[4][N]`, `x, y, z`.
    template<typename Add> void declarators(const Spec &spec, int line, Add add)
    {
        while (m_pos < m_t.size()) {
            FieldDecl f;
            f.type = spec.type;
            f.inlineType = spec.defined;
            f.line = line;
            while (at("*") || (atIdent() && isQualifier(m_t[m_pos].text))) {
                f.pointer = f.pointer || at("*");
                ++m_pos;
            }
            attributes();
            if (at("(")) {
                note("line " + std::to_string(line) +
                     ": a function pointer or parenthesised declarator is skipped");
                skipDeclaration();
                return;
            }
            if (!atIdent()) {
                skipDeclaration();
                return;
            }
            f.name = m_t[m_pos].text;
            ++m_pos;
            bool flexible = false;
            while (at("[")) {
                const std::size_t open = m_pos;
                skipBalanced();
                std::string dim;
                for (std::size_t i = open + 1; i + 1 < m_pos; ++i)
                    dim += (dim.empty() ? "" : " ") + m_t[i].text;
                flexible = flexible || dim.empty();
                f.dims.push_back(dim);
            }
            if (at(":")) {
                note("line " + std::to_string(line) + ": the bit-field " + f.name +
                     " is skipped (OpenCL C has none)");
                while (m_pos < m_t.size() && !at(",") && !at(";") && !at("}"))
                    ++m_pos;
                flexible = true;
            }
            attributes();
            if (at("=")) { // an initialiser (a typedef has none; skip it anyway)
                while (m_pos < m_t.size() && !at(",") && !at(";") && !at("}")) {
                    if (at("{") || at("("))
                        skipBalanced();
                    else
                        ++m_pos;
                }
            }
            if (flexible)
                note("line " + std::to_string(line) + ": the member " + f.name +
                     " has no size and is skipped");
            else
                add(std::move(f));
            if (at(",")) {
                ++m_pos;
                continue;
            }
            if (at(";"))
                ++m_pos;
            return;
        }
    }

    void typedefDeclaration()
    {
        const int line = m_pos < m_t.size() ? m_t[m_pos].line : 0;
        const Spec spec = specifiers();
        if (!spec.valid) {
            skipDeclaration();
            return;
        }
        declarators(spec, line, [&](FieldDecl f) {
            if (f.pointer || !f.dims.empty())
                return; // a pointer or array typedef: fields of that type are raw bytes
            if (spec.defined) {
                spec.defined->names.push_back(f.name);
                if (!spec.type.empty())
                    m_out.aliases[f.name] = spec.type;
            } else if (f.name != spec.type) {
                m_out.aliases[f.name] = spec.type;
            }
        });
    }

    std::vector<Token> m_t;
    std::size_t m_pos = 0;
    const std::vector<std::string> &m_files;
    SourceTypes &m_out;
    std::vector<std::shared_ptr<StructDecl>> m_structs;
};

} // namespace

std::string StructDecl::cName() const
{
    for (const std::string &n : names) {
        if (!n.starts_with("struct ") && !n.starts_with("union "))
            return n;
    }
    return names.empty() ? std::string() : names.front();
}

std::string SourceTypes::resolve(std::string_view name) const
{
    std::string current(trimBlanks(name));
    for (int steps = 0; steps < 32; ++steps) {
        const auto it = aliases.find(current);
        if (it == aliases.end())
            break;
        current = it->second;
    }
    return current;
}

const StructDecl *SourceTypes::find(std::string_view name) const
{
    const std::string resolved = resolve(name);
    for (const auto &s : structs) {
        if (std::find(s->names.begin(), s->names.end(), resolved) != s->names.end())
            return s.get();
    }
    return nullptr;
}

std::string SourceTypes::structNames() const
{
    std::string out;
    for (const auto &s : structs)
        out += (out.empty() ? "" : ", ") + s->cName();
    return out.empty() ? std::string("none") : out;
}

SourceTypes parseSourceTypes(std::string_view source, const std::vector<IncludedFile> &headers,
                             const std::vector<std::string> &defines)
{
    SourceTypes out;
    Preprocessor pp(headers, defines, out.notes);
    pp.run(source, 0);
    const std::vector<std::string> files = pp.files();
    DeclReader(pp.take(), files, out).run();
    return out;
}

std::vector<std::string> optionDefines(std::string_view options)
{
    std::vector<std::string> out;
    std::vector<std::string> tokens;
    try {
        tokens = splitOptions(options);
    } catch (const BuildInputError &) {
        return out;
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i] == "-D" && i + 1 < tokens.size())
            out.push_back(tokens[++i]);
        else if (tokens[i].starts_with("-D") && tokens[i].size() > 2)
            out.push_back(tokens[i].substr(2));
    }
    return out;
}

} // namespace clscope
