// The timeline's counter track under the lanes: a memory series (the runner's pool, or a capture's device
// memory) as two filled step lines, held + active and active, that keep each pixel column's peak so spikes
// narrower than a pixel survive; its title and key in the label column, the peak in view over the plot.
#pragma once

#include "timelinetrack.h"

#include "clscope/profile.h"

#include <QCoreApplication>

#include <vector>

namespace clscope::ui {

class TimelineCounterTrack final : public TimelineTrack
{
    Q_DECLARE_TR_FUNCTIONS(TimelineCounterTrack)
public:
    static constexpr int kGap = 6; // above the plot, between it and the lanes
    static constexpr int kPlotHeight = 72;

    void setSeries(std::vector<PoolSeriesPoint> series) { m_series = std::move(series); }
    const std::vector<PoolSeriesPoint> &series() const { return m_series; }
    // "Memory pool" (the runner's pool) unless set ("Device memory" of a capture).
    void setTitle(const QString &title) { m_title = title; }

    int height(int) const override { return m_series.empty() ? 0 : kPlotHeight + kGap; }
    void paint(QPainter &p, const TimelineTrackContext &c) const override;

private:
    // Each column's largest total (held + active) and active in view, and whether the series reaches it.
    struct Columns
    {
        std::vector<std::uint64_t> total;
        std::vector<std::uint64_t> active;
        std::vector<char> known;
        std::uint64_t peak = 0;
    };
    Columns columns(const TimelineData &d) const;
    void paintKey(QPainter &p, const TimelineTrackContext &c, int top) const;

    std::vector<PoolSeriesPoint> m_series;
    QString m_title;
};

} // namespace clscope::ui
