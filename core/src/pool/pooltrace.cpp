// Pool traces: the parser of `alloc ID SIZE` / `free ID` / `free_held` / `stop_holding` files, and the
// replay that runs them on a MemoryPool (clscope-cli pool replay, tests, and the GUI's workload generator).
#include "clscope/pool.h"
#include "clscope/text.h"

#include <charconv>
#include <iterator>
#include <unordered_map>

namespace clscope {

std::string toString(const PoolOp &op)
{
    switch (op.kind) {
    case PoolOpKind::Alloc:
        return "alloc " + op.id + ' ' + std::to_string(op.size);
    case PoolOpKind::Free:
        return "free " + op.id;
    case PoolOpKind::FreeHeld:
        return "free_held";
    case PoolOpKind::StopHolding:
        return "stop_holding";
    }
    return {};
}

PoolTraceError::PoolTraceError(int line, const std::string &message)
    : Error("line " + std::to_string(line) + ": " + message)
    , m_line(line)
{}

namespace {
// Messages must stay one line whatever bytes a trace holds (the parser is fuzzed): escape the rest.
std::string inQuotes(std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (unsigned char c : text) {
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        }
    }
    return out + "'";
}

// Whitespace-separated tokens up to a token that starts a comment.
struct Tokens
{
    std::string_view items[4];
    std::size_t count = 0; // one more than any op takes is enough to report junk
};

Tokens splitTraceLine(std::string_view line)
{
    Tokens t;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isAsciiSpace(line[i]))
            ++i;
        if (i >= line.size() || line[i] == '#')
            break;
        const std::size_t start = i;
        while (i < line.size() && !isAsciiSpace(line[i]))
            ++i;
        t.items[t.count++] = line.substr(start, i - start);
        if (t.count == std::size(t.items))
            break;
    }
    return t;
}

} // namespace

std::optional<PoolOp> PoolTraceParser::parseLine(std::string_view line)
{
    const int lineNo = ++m_line;
    auto &ids = m_ids;
    const Tokens t = splitTraceLine(line);
    if (t.count == 0)
        return std::nullopt;
    const std::string_view name = t.items[0];
    PoolOp op;
    op.line = lineNo;
    std::size_t expected = 1;
    if (name == "alloc") {
        op.kind = PoolOpKind::Alloc;
        expected = 3;
        if (t.count < 2)
            throw PoolTraceError(lineNo, "alloc needs an ID and a SIZE");
        if (t.count < 3)
            throw PoolTraceError(lineNo, "alloc " + inQuotes(t.items[1]) + " needs a SIZE");
        const std::string_view size = t.items[2];
        const auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), op.size);
        if (ec == std::errc::result_out_of_range)
            throw PoolTraceError(lineNo, "size " + inQuotes(size) + " is larger than 18446744073709551615");
        if (ec != std::errc() || p != size.data() + size.size())
            throw PoolTraceError(lineNo,
                                 "bad size " + inQuotes(size) + " (expected a whole number of bytes)");
    } else if (name == "free") {
        op.kind = PoolOpKind::Free;
        expected = 2;
        if (t.count < 2)
            throw PoolTraceError(lineNo, "free needs an ID");
    } else if (name == "free_held") {
        op.kind = PoolOpKind::FreeHeld;
    } else if (name == "stop_holding") {
        op.kind = PoolOpKind::StopHolding;
    } else {
        throw PoolTraceError(lineNo, "unknown operation " + inQuotes(name) +
                                         " (expected alloc, free, free_held or stop_holding)");
    }
    if (t.count > expected) {
        std::string before(name);
        for (std::size_t i = 1; i < expected; ++i)
            before += ' ' + std::string(t.items[i]);
        throw PoolTraceError(lineNo,
                             "unexpected " + inQuotes(t.items[expected]) + " after " + inQuotes(before));
    }

    if (op.kind == PoolOpKind::Alloc || op.kind == PoolOpKind::Free) {
        op.id = std::string(t.items[1]);
        auto it = ids.find(op.id);
        if (op.kind == PoolOpKind::Alloc) {
            if (it != ids.end() && it->second.live)
                throw PoolTraceError(lineNo, "alloc of id " + inQuotes(op.id) +
                                                 ", which is still allocated (line " +
                                                 std::to_string(it->second.line) + ")");
            ids[op.id] = IdState{true, lineNo};
        } else {
            if (it == ids.end())
                throw PoolTraceError(lineNo, "free of unknown id " + inQuotes(op.id));
            if (!it->second.live)
                throw PoolTraceError(lineNo, "double free of id " + inQuotes(op.id) + " (freed on line " +
                                                 std::to_string(it->second.line) + ")");
            it->second = IdState{false, lineNo};
        }
    }
    return op;
}

std::vector<PoolOp> parsePoolTrace(std::string_view text)
{
    std::vector<PoolOp> ops;
    PoolTraceParser parser;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        if (auto op = parser.parseLine(text.substr(pos, end - pos)))
            ops.push_back(std::move(*op));
        pos = end + 1;
    }
    return ops;
}

std::optional<PoolCounters> PoolTraceReplayer::step()
{
    if (finished())
        return std::nullopt;
    return step(m_ops[m_next++]);
}

PoolCounters PoolTraceReplayer::step(const PoolOp &op)
{
    try {
        switch (op.kind) {
        case PoolOpKind::Alloc: {
            if (m_live.contains(op.id))
                throw PoolTraceError(op.line,
                                     "alloc of id " + inQuotes(op.id) + ", which is still allocated");
            const PoolBlock block = m_pool.allocateBlock(static_cast<std::size_t>(op.size));
            m_live.emplace(op.id, block.id);
            break;
        }
        case PoolOpKind::Free: {
            auto it = m_live.find(op.id);
            if (it == m_live.end())
                throw PoolTraceError(op.line, "free of unknown id " + inQuotes(op.id));
            m_pool.freeBlock(it->second);
            m_live.erase(it);
            break;
        }
        case PoolOpKind::FreeHeld:
            m_pool.freeHeld();
            break;
        case PoolOpKind::StopHolding:
            m_pool.stopHolding();
            break;
        }
    } catch (const PoolTraceError &) {
        throw;
    } catch (const std::exception &e) {
        throw PoolTraceError(op.line, toString(op) + ": " + e.what());
    }
    return m_pool.counters();
}

void replayPoolTrace(MemoryPool &pool, const std::vector<PoolOp> &ops,
                     const std::function<void(const PoolOp &, const PoolCounters &)> &onStep)
{
    PoolTraceReplayer replayer(pool);
    for (const PoolOp &op : ops) {
        const PoolCounters counters = replayer.step(op);
        if (onStep)
            onStep(op, counters);
    }
}

} // namespace clscope
