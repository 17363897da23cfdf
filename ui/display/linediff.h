// A line diff (Myers' O((N+M)D) algorithm) for comparing two listings of generated code, and its
// side-by-side form: runs of removed and added lines paired up as changed rows, so that two columns can be
// shown line against line.
#pragma once

#include <QStringList>

#include <vector>

namespace clscope::ui {

enum class DiffOp { Same, Removed, Added };

// One line of the edit script: Same has both indexes, Removed only `left`, Added only `right` (0-based).
struct DiffLine
{
    DiffOp op = DiffOp::Same;
    int left = -1;
    int right = -1;
    bool operator==(const DiffLine &) const = default;
};

// The shortest edit script from left to right, in order. Common lines at both ends are matched first;
// between them, past maxEdits differences (the work grows with their square), the rest is given as
// removed then added, which is still a correct (if longer) script.
std::vector<DiffLine> diffLines(const QStringList &left, const QStringList &right, int maxEdits = 3000);

enum class RowKind { Same, Changed, Removed, Added };

// A row of the side-by-side view: Same and Changed have a line on both sides, Removed only on the left,
// Added only on the right (-1 for the missing side).
struct DiffRow
{
    RowKind kind = RowKind::Same;
    int left = -1;
    int right = -1;
    bool operator==(const DiffRow &) const = default;
};

// Each block of differences becomes its removed lines paired with its added lines in order (Changed),
// then the removed or added lines left over.
std::vector<DiffRow> sideBySide(const std::vector<DiffLine> &script);

struct DiffCounts
{
    int same = 0;
    int removed = 0;
    int added = 0;
};
DiffCounts countDiff(const std::vector<DiffLine> &script);

} // namespace clscope::ui
