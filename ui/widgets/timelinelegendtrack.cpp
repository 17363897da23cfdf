// The timeline's legend.
#include "timelinelegendtrack.h"

#include "display/recordformat.h"
#include "display/stdstring.h"

#include <QFontMetrics>
#include <QPainter>

namespace clscope::ui {

void TimelineLegendTrack::update(const std::vector<CommandRecord> &records, std::size_t from, bool stages)
{
    if (from == 0) {
        m_kernels.clear();
        m_kernelSet.clear();
        m_types = {};
    }
    for (std::size_t i = from; i < records.size(); ++i) {
        const CommandRecord &r = records[i];
        if (r.type == CommandRecord::Type::Kernel) {
            if (m_kernelSet.size() < 64 && m_kernelSet.insert(r.name).second)
                m_kernels.push_back(r.name);
        } else {
            m_types[static_cast<std::size_t>(r.type)] = true;
        }
    }
    m_entries.clear();
    for (const std::string &k : m_kernels) {
        CommandRecord kernel;
        kernel.name = k;
        m_entries.push_back({qs(k), timelineColour(colourIndexFor(kernel))});
    }
    for (int t = 1; t < kCommandTypeCount; ++t) {
        if (m_types[static_cast<std::size_t>(t)])
            m_entries.push_back({typeText(static_cast<CommandRecord::Type>(t)),
                                 timelineColour(static_cast<std::uint32_t>(t))});
    }
    if (stages) {
        m_entries.push_back({tr("queued → submit"), QColor::fromRgb(kTimelineQueuedRgb)});
        m_entries.push_back({tr("submit → start"), QColor::fromRgb(kTimelineSubmittedRgb)});
    }
}

void TimelineLegendTrack::paint(QPainter &p, const TimelineTrackContext &c) const
{
    const QPalette &pal = c.palette;
    const int top = c.rect.top();
    const int height = c.rect.height();
    const int width = c.size.width();
    p.fillRect(0, top, width, height, pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, top, width, top);
    const QFontMetrics fm(c.font);
    int x = 8;
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const Entry &e = m_entries[i];
        const int w = 14 + fm.horizontalAdvance(e.label) + 14;
        if (x + w > width - 60) {
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(QRect(x, top, 80, height), Qt::AlignVCenter, tr("+%1 more").arg(m_entries.size() - i));
            break;
        }
        p.fillRect(x, top + (height - 10) / 2, 10, 10, e.colour);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(x + 14, top, w, height), Qt::AlignVCenter, e.label);
        x += w;
    }
}

} // namespace clscope::ui
