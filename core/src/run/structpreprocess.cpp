// The struct reader's preprocessor (structpreprocess.h).
#include "structpreprocess.h"

#include "clscope/text.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

namespace clscope::detail {
namespace {

struct Macro
{
    bool functionLike = false;
    std::vector<Token> body;
};

bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentChar(char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
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

} // namespace

PreprocessedSource preprocess(std::string_view source, const std::vector<IncludedFile> &headers,
                              const std::vector<std::string> &defines, std::vector<std::string> &notes)
{
    Preprocessor pp(headers, defines, notes);
    pp.run(source, 0);
    PreprocessedSource out;
    out.files = pp.files();
    out.tokens = pp.take();
    return out;
}

} // namespace clscope::detail
