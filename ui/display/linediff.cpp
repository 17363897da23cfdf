// Myers' diff over line ids (each distinct line text gets a number, so comparisons are of ints), with the
// common prefix and suffix taken off first and a bound on the differences searched for.
#include "linediff.h"

#include <QHash>

#include <algorithm>

namespace clscope::ui {

namespace {

// The edit script of a[0, n) to b[0, m) by Myers' greedy forward search, keeping for each d the furthest
// x of every diagonal k in [-d, d] to walk back from. False when more than maxEdits edits are needed.
bool myers(const std::vector<int> &a, const std::vector<int> &b, int maxEdits, std::vector<DiffLine> &out,
           int leftBase, int rightBase)
{
    const int n = int(a.size());
    const int m = int(b.size());
    const int limit = std::min(n + m, maxEdits);
    std::vector<int> v(std::size_t(2 * limit + 3), 0);
    const int offset = limit + 1;
    std::vector<std::vector<int>> trace; // trace[d][k + d]: v after step d
    int found = -1;
    for (int d = 0; d <= limit && found < 0; ++d) {
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[std::size_t(offset + k - 1)] < v[std::size_t(offset + k + 1)]))
                        ? v[std::size_t(offset + k + 1)]
                        : v[std::size_t(offset + k - 1)] + 1;
            int y = x - k;
            while (x < n && y < m && a[std::size_t(x)] == b[std::size_t(y)]) {
                ++x;
                ++y;
            }
            v[std::size_t(offset + k)] = x;
            if (x >= n && y >= m)
                found = d;
        }
        trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
    }
    if (found < 0)
        return false;

    std::vector<DiffLine> reversed;
    int x = n, y = m;
    for (int d = found; d > 0; --d) {
        const std::vector<int> &prev = trace[std::size_t(d - 1)]; // k in [-(d-1), d-1]
        const int k = x - y;
        auto at = [&prev, d](int kk) { return prev[std::size_t(kk + d - 1)]; };
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const int prevK = down ? k + 1 : k - 1;
        const int prevX = at(prevK);
        const int prevY = prevX - prevK;
        // The snake after the edit: lines in common.
        const int startX = down ? prevX : prevX + 1;
        while (x > startX) {
            --x;
            --y;
            reversed.push_back({DiffOp::Same, leftBase + x, rightBase + y});
        }
        if (down)
            reversed.push_back({DiffOp::Added, -1, rightBase + prevY});
        else
            reversed.push_back({DiffOp::Removed, leftBase + prevX, -1});
        x = prevX;
        y = prevY;
    }
    while (x > 0) {
        --x;
        --y;
        reversed.push_back({DiffOp::Same, leftBase + x, rightBase + y});
    }
    out.insert(out.end(), reversed.rbegin(), reversed.rend());
    return true;
}

} // namespace

std::vector<DiffLine> diffLines(const QStringList &left, const QStringList &right, int maxEdits)
{
    QHash<QString, int> ids;
    auto idsOf = [&ids](const QStringList &lines) {
        std::vector<int> out;
        out.reserve(std::size_t(lines.size()));
        for (const QString &line : lines) {
            auto it = ids.constFind(line);
            if (it == ids.constEnd())
                it = ids.insert(line, int(ids.size())); // QHash::emplace would replace the id
            out.push_back(it.value());
        }
        return out;
    };
    const std::vector<int> a = idsOf(left);
    const std::vector<int> b = idsOf(right);
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;

    std::vector<DiffLine> out;
    out.reserve(std::max(a.size(), b.size()));
    for (std::size_t i = 0; i < prefix; ++i)
        out.push_back({DiffOp::Same, int(i), int(i)});
    const std::vector<int> midA(a.begin() + std::ptrdiff_t(prefix), a.end() - std::ptrdiff_t(suffix));
    const std::vector<int> midB(b.begin() + std::ptrdiff_t(prefix), b.end() - std::ptrdiff_t(suffix));
    if (!myers(midA, midB, std::max(0, maxEdits), out, int(prefix), int(prefix))) {
        for (std::size_t i = 0; i < midA.size(); ++i)
            out.push_back({DiffOp::Removed, int(prefix + i), -1});
        for (std::size_t i = 0; i < midB.size(); ++i)
            out.push_back({DiffOp::Added, -1, int(prefix + i)});
    }
    for (std::size_t i = suffix; i > 0; --i)
        out.push_back({DiffOp::Same, int(a.size() - i), int(b.size() - i)});
    return out;
}

std::vector<DiffRow> sideBySide(const std::vector<DiffLine> &script)
{
    std::vector<DiffRow> rows;
    rows.reserve(script.size());
    std::size_t i = 0;
    while (i < script.size()) {
        if (script[i].op == DiffOp::Same) {
            rows.push_back({RowKind::Same, script[i].left, script[i].right});
            ++i;
            continue;
        }
        std::vector<int> removed, added;
        for (; i < script.size() && script[i].op != DiffOp::Same; ++i) {
            if (script[i].op == DiffOp::Removed)
                removed.push_back(script[i].left);
            else
                added.push_back(script[i].right);
        }
        const std::size_t paired = std::min(removed.size(), added.size());
        for (std::size_t j = 0; j < paired; ++j)
            rows.push_back({RowKind::Changed, removed[j], added[j]});
        for (std::size_t j = paired; j < removed.size(); ++j)
            rows.push_back({RowKind::Removed, removed[j], -1});
        for (std::size_t j = paired; j < added.size(); ++j)
            rows.push_back({RowKind::Added, -1, added[j]});
    }
    return rows;
}

DiffCounts countDiff(const std::vector<DiffLine> &script)
{
    DiffCounts c;
    for (const DiffLine &l : script) {
        c.same += l.op == DiffOp::Same;
        c.removed += l.op == DiffOp::Removed;
        c.added += l.op == DiffOp::Added;
    }
    return c;
}

} // namespace clscope::ui
