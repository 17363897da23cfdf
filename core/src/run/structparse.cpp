// The struct reader: the tokens of a small preprocessor (structpreprocess.cpp) read as declarations, keeping
// what a layout probe needs of each struct or union: its names, its fields' names and types, array
// dimensions as written. Sizes and offsets are never computed here: the device gives them
// (structlayout.cpp).
#include "structpreprocess.h"

#include "clscope/structs.h"
#include "clscope/text.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace clscope {
namespace {

using detail::Token;

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
    detail::PreprocessedSource pp = detail::preprocess(source, headers, defines, out.notes);
    DeclReader(std::move(pp.tokens), pp.files, out).run();
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
