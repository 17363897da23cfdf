// A capture's device memory: live bytes and objects over time on the Memory pool dock's chart (same
// widget, decimation and counters), a lifetime bar per memory object from its create to its release (hover
// for size, flags and the kernels that used it), and the objects listed, the largest and the longest-lived
// named above them.
#pragma once

#include "clscope/capture.h"
#include "display/poolhistory.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace clscope::ui {

class PoolChart;

// The bars: one row per memory object in creation order, time across (the capture's span).
class BufferLifetimes : public QWidget
{
    Q_OBJECT
public:
    explicit BufferLifetimes(QWidget *parent = nullptr);
    void setBuffers(const std::vector<CapturedBuffer> *buffers, std::uint64_t first, std::uint64_t last);
    // The object under a point, or -1.
    int bufferAt(const QPoint &pos) const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    const std::vector<CapturedBuffer> *m_buffers = nullptr;
    std::uint64_t m_first = 0, m_last = 0;
};

class CaptureMemoryView : public QWidget
{
    Q_OBJECT
public:
    explicit CaptureMemoryView(QWidget *parent = nullptr);

    // The objects, the live bytes per context, and the capture's time span (host ns).
    void setData(std::vector<CapturedBuffer> buffers, const std::vector<CaptureContextSeries> &contexts,
                 std::uint64_t first, std::uint64_t last);
    const PoolHistory &history() const { return m_history; }
    PoolChart *chart() const { return m_chart; }
    QTableWidget *table() const { return m_table; }
    BufferLifetimes *lifetimes() const { return m_lifetimes; }
    QString highlightsText() const;

private:
    std::vector<CapturedBuffer> m_buffers;
    PoolHistory m_history;
    PoolChart *m_chart;
    BufferLifetimes *m_lifetimes;
    QTableWidget *m_table;
    QLabel *m_highlights;
};

// "CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR".
QString memFlagsText(std::uint64_t flags);

} // namespace clscope::ui
