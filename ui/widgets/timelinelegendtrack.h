// The timeline's legend, along its bottom: the kernels in order of first appearance (at most 64), then the
// other command types that occur, then the stage rows' colours when they are shown; "+N more" where the
// width ends. Records appended (a followed capture's refresh) only add what is new.
#pragma once

#include "timelinetrack.h"

#include "clscope/profile.h"

#include <QColor>
#include <QCoreApplication>

#include <array>
#include <string>
#include <unordered_set>
#include <vector>

namespace clscope::ui {

class TimelineLegendTrack final : public TimelineTrack
{
    Q_DECLARE_TR_FUNCTIONS(TimelineLegendTrack)
public:
    static constexpr int kHeight = 24;

    // The entries of records[from..] added to those of the records before (from = 0: of all of them).
    void update(const std::vector<CommandRecord> &records, std::size_t from, bool stages);

    int height(int) const override { return kHeight; }
    void paint(QPainter &p, const TimelineTrackContext &c) const override;

private:
    struct Entry
    {
        QString label;
        QColor colour;
    };

    std::vector<Entry> m_entries;
    std::vector<std::string> m_kernels; // in order of first appearance (at most 64)
    std::unordered_set<std::string> m_kernelSet;
    std::array<bool, kCommandTypeCount> m_types{};
};

} // namespace clscope::ui
