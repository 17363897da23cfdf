// Token rules of PTX, LLVM IR and SPIR-V assembly for the generated-code view.
#include "codelexer.h"

#include <Qsci/qsciscintilla.h>

#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QSet>

#include <algorithm>

namespace clscope::ui {

namespace {

QSet<QByteArray> wordSet(const char *words)
{
    QSet<QByteArray> out;
    for (const QByteArray &w : QByteArray(words).split(' '))
        if (!w.isEmpty())
            out.insert(w);
    return out;
}

const QSet<QByteArray> &llvmKeywords()
{
    static const QSet<QByteArray> set = wordSet(
        "define declare ret br switch indirectbr invoke resume unreachable fneg add fadd sub fsub mul fmul "
        "udiv "
        "sdiv fdiv urem srem frem shl lshr ashr and or xor extractelement insertelement shufflevector "
        "extractvalue insertvalue alloca load store fence cmpxchg atomicrmw getelementptr trunc zext sext "
        "fptrunc fpext fptoui fptosi uitofp sitofp ptrtoint inttoptr bitcast addrspacecast icmp fcmp phi "
        "select call tail musttail freeze to nuw nsw exact inbounds align global constant private internal "
        "external dso_local unnamed_addr local_unnamed_addr attributes target datalayout triple "
        "source_filename "
        "eq ne ugt uge ult ule sgt sge slt sle oeq ogt oge olt ole one ord ueq une uno true false null "
        "undef poison zeroinitializer nocapture readonly writeonly noundef nonnull volatile atomic seq_cst "
        "acquire release monotonic fast nnan ninf nsz arcp contract afn reassoc spir_kernel spir_func "
        "comdat section metadata label");
    return set;
}

const QSet<QByteArray> &llvmTypes()
{
    static const QSet<QByteArray> set = wordSet("void half float double fp128 x86_fp80 ptr opaque x");
    return set;
}

const QSet<QByteArray> &ptxKeywords()
{
    static const QSet<QByteArray> set = wordSet(
        "abs add addc and atom bar bfe bfi bra brev brkpt call clz cnot copysign cos cvt cvta div ex2 exit "
        "fma ld ldu lg2 mad mad24 max membar min mov mul mul24 neg not or popc prmt rcp red rem ret rsqrt "
        "sad selp set setp shf shl shr sin slct sqrt st sub subc suld sust tex tld4 trap vote xor "
        "shfl fence isspacep prefetch testp");
    return set;
}

bool isWordStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '$';
}

bool isWordChar(char c)
{
    return isWordStart(c) || (c >= '0' && c <= '9');
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

CodeLexer::CodeLexer(QObject *parent)
    : QsciLexerCustom(parent)
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setDefaultFont(mono);
    setFont(mono);
    setColor(QColor(0x20, 0x20, 0x20), Default);
    setColor(QColor(0x60, 0x80, 0x60), Comment);
    setColor(QColor(0x00, 0x00, 0xaa), Keyword);
    setColor(QColor(0x00, 0x70, 0x70), Type);
    setColor(QColor(0x80, 0x30, 0x00), Register);
    setColor(QColor(0x80, 0x00, 0x80), Global);
    setColor(QColor(0x20, 0x60, 0xa0), Number);
    setColor(QColor(0xa0, 0x20, 0x20), String);
    setColor(QColor(0x70, 0x50, 0x00), Directive);
}

void CodeLexer::setLanguage(CodeLanguage language)
{
    m_language = language;
    if (editor())
        editor()->recolor();
}

const char *CodeLexer::language() const
{
    switch (m_language) {
    case CodeLanguage::Ptx:
        return "PTX";
    case CodeLanguage::LlvmIr:
        return "LLVM IR";
    case CodeLanguage::SpirV:
        return "SPIR-V";
    case CodeLanguage::Plain:
        break;
    }
    return "Text";
}

QString CodeLexer::description(int style) const
{
    switch (style) {
    case Default:
        return tr("Default");
    case Comment:
        return tr("Comment");
    case Keyword:
        return tr("Instruction or keyword");
    case Type:
        return tr("Type");
    case Register:
        return tr("Register or value");
    case Global:
        return tr("Global or metadata");
    case Number:
        return tr("Number");
    case String:
        return tr("String");
    case Directive:
        return tr("Directive");
    default:
        return {};
    }
}

QByteArray CodeLexer::styleLine(const QByteArray &line) const
{
    QByteArray styles(line.size(), char(Default));
    if (m_language == CodeLanguage::Plain)
        return styles;
    auto fill = [&styles](qsizetype from, qsizetype to, Style s) {
        for (qsizetype i = from; i < to; ++i)
            styles[i] = char(s);
    };
    const bool ptx = m_language == CodeLanguage::Ptx;
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        const char c = line[i];
        const bool comment = ptx ? (c == '/' && i + 1 < n && line[i + 1] == '/') : c == ';';
        if (comment) {
            fill(i, n, Comment);
            break;
        }
        if (c == '"') {
            qsizetype j = i + 1;
            while (j < n && line[j] != '"')
                j += line[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, n);
            fill(i, j, String);
            i = j;
            continue;
        }
        if (c == '%' || c == '@' || (c == '!' && !ptx)) {
            qsizetype j = i + 1;
            if (j < n && line[j] == '"') { // @"quoted name"
                ++j;
                while (j < n && line[j] != '"')
                    ++j;
                j = std::min(j + 1, n);
            } else {
                while (j < n && (isWordChar(line[j]) || line[j] == '-'))
                    ++j;
            }
            fill(i, j, c == '%' ? Register : Global);
            i = j;
            continue;
        }
        if (isDigit(c) || (c == '-' && i + 1 < n && isDigit(line[i + 1]))) {
            qsizetype j = i + 1;
            // 42, 0x1F, 1.5e+00, PTX's 0f3F800000
            while (j < n &&
                   ((isWordChar(line[j]) && line[j] != '$') ||
                    ((line[j] == '+' || line[j] == '-') && (line[j - 1] == 'e' || line[j - 1] == 'E'))))
                ++j;
            fill(i, j, Number);
            i = j;
            continue;
        }
        if (isWordStart(c)) {
            qsizetype j = i + 1;
            while (j < n && isWordChar(line[j]))
                ++j;
            const QByteArray word = line.mid(i, j - i);
            Style s = Default;
            if (m_language == CodeLanguage::LlvmIr) {
                const bool intType =
                    word.size() > 1 && word[0] == 'i' &&
                    std::all_of(word.begin() + 1, word.end(), [](char x) { return isDigit(x); });
                if (intType || llvmTypes().contains(word))
                    s = Type;
                else if (llvmKeywords().contains(word))
                    s = Keyword;
            } else if (m_language == CodeLanguage::SpirV) {
                if (word.startsWith("Op"))
                    s = Keyword;
            } else if (ptx) {
                if (word.startsWith('.'))
                    s = Directive;
                else if (ptxKeywords().contains(
                             word.left(word.indexOf('.') < 0 ? word.size() : word.indexOf('.'))))
                    s = Keyword;
            }
            fill(i, j, s);
            i = j;
            continue;
        }
        ++i;
    }
    return styles;
}

void CodeLexer::styleText(int start, int end)
{
    if (!editor() || end <= start)
        return;
    const QByteArray text = editor()->bytes(start, end).left(end - start);
    startStyling(start);
    qsizetype from = 0;
    while (from < text.size()) {
        qsizetype eol = text.indexOf('\n', from);
        const qsizetype lineEnd = eol < 0 ? text.size() : eol + 1;
        const QByteArray styles = styleLine(text.mid(from, lineEnd - from));
        // Runs of one style, one setStyling each.
        qsizetype run = 0;
        for (qsizetype k = 1; k <= styles.size(); ++k) {
            if (k == styles.size() || styles[k] != styles[run]) {
                setStyling(int(k - run), int(styles[run]));
                run = k;
            }
        }
        from = lineEnd;
    }
}

} // namespace clscope::ui
