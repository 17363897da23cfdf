// Where a program's kernel time goes and how far each kernel is from what its device can do (issue 30): a
// roofline document (rooflinedoc.h, from `clscope-cli roofline ... --json`) as
// - the kernels table, by device time: launches, time, share, GB/s, GFLOP/s, flops per byte, the roof that
//   limits it and its percent of that roof (or why it was not counted);
// - the roofline plot, log-log: GFLOP/s against flops per byte, the device's bandwidth roof rising to its
//   compute roof (single, and double where the device has it), each counted kernel a labelled point (a
//   kernel without flops sits at the left edge on the line of its achieved bandwidth: its distance below
//   the roof is its percent of it);
// - the selected kernel's lines by cost (instructions, flops, bytes, atomics, barriers, divergence).
// Double-clicking a kernel or "Open source with heat" asks for its source with the heat gutter; a line of
// the lines table asks to go to that line.
#pragma once

#include "display/rooflinedoc.h"

#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace clscope::ui {

class RooflineView : public QWidget
{
    Q_OBJECT
public:
    explicit RooflineView(QWidget *parent = nullptr);

    void setDocument(const RooflineDocument &doc);
    // No document: the message (what to do, that it is counting, or what went wrong).
    void clear(const QString &message);
    const RooflineDocument &document() const { return m_doc; }
    bool hasDocument() const { return !m_doc.kernels.empty(); }

    int currentKernel() const; // an index into document().kernels, or -1
    void selectKernel(int index);

    QTableWidget *kernelTable() const { return m_kernels; }
    QTableWidget *lineTable() const { return m_lines; }
    QLabel *linesTitle() const { return m_linesTitle; } // the selected kernel's, with what was sampled
    QCustomPlot *plot() const { return m_plot; }
    QPushButton *openButton() const { return m_open; }
    // Count (start a roofline of what the panel belongs to) and Stop, with the state said beside them.
    QPushButton *countButton() const { return m_count; }
    QPushButton *stopButton() const { return m_stop; }
    // The work-group budget of a count (`--sample-groups`: a launch of more groups is sampled, 0 counts all).
    QSpinBox *sampleGroupsBox() const { return m_sampleGroups; }
    void setBusy(bool busy, const QString &status);
    void setStatus(const QString &status);
    QString statusText() const;
    QString messageText() const;
    // The plotted points: one per counted kernel, in document order (x flops per byte, y GFLOP/s).
    QCPGraph *pointsGraph() const { return m_points; }

signals:
    void sourceRequested(int kernel); // its source, with the heat gutter of its lines
    void lineRequested(int kernel, int line);

protected:
    void changeEvent(QEvent *event) override;

private:
    void fillKernels();
    void fillLines();
    void drawPlot();

    RooflineDocument m_doc;
    QLabel *m_message;
    QLabel *m_status;
    QPushButton *m_count;
    QPushButton *m_stop;
    QSpinBox *m_sampleGroups;
    QLabel *m_peaks;
    QTableWidget *m_kernels;
    QTableWidget *m_lines;
    QLabel *m_linesTitle;
    QPushButton *m_open;
    QCustomPlot *m_plot;
    QCPGraph *m_points = nullptr;
};

} // namespace clscope::ui
