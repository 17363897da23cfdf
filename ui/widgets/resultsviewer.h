// The results viewer: each read-back buffer in a table on a virtual model (a column per vector
// component), decimal/hex/scientific formats, a summary (min, max, mean, NaN and Inf counts), comparison
// with another buffer or a file within a tolerance (the differing elements coloured, a jump to the first,
// the target kept for the next run), a 2-D table and a grey-scale picture of the results of a 2-D
// NDRange, and save as .npy, .bin or .csv. The comparison is BufferCompareBar's, the picture's zoom row
// ImageZoomBar's; formatting, pictures and files are the models library's (bufferformat.h, bufferpicture.h,
// bufferexport.h).
#pragma once

#include "widgets/buffercomparebar.h"

#include "clscope/runner.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace clscope::ui {

class BufferImageView;
class BufferTableModel;
class ImageZoomBar;

class ResultsViewer : public QWidget
{
    Q_OBJECT
public:
    enum class Layout { Linear, Table2D, Image2D };

    explicit ResultsViewer(QWidget *parent = nullptr);

    // A run's result: shown, and kept as the last run's.
    void showResult(const RunResult &result);
    // What is shown: the last run's result, or contents shown with showSnapshot.
    const RunResult &result() const { return m_result; }
    // Contents that are not a run's result (the global buffers at a debugger stop), shown as a run's are
    // (table, formats, picture, comparison) under `label`, which is set apart in colour, with a button back
    // to the last run. The last run's result is kept: showLastRun (or the next showResult) brings it back.
    void showSnapshot(const RunResult &contents, const QString &label);
    void showLastRun();
    bool showsSnapshot() const { return m_snapshot; }
    const RunResult &lastRun() const { return m_lastRun; }
    QPushButton *lastRunButton() const { return m_back; }
    // The name of the buffer shown; empty when there is none.
    QString shownBuffer() const;
    bool selectBuffer(const QString &name);
    BufferTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    BufferImageView *imageView() const { return m_image; }
    QString headerText() const;
    QString summaryText() const;
    // Compares the shown buffer with another read-back buffer, or with a file (.npy or raw .bin): the
    // differing elements are coloured and the table scrolls to the first. The target and the tolerance are
    // kept, and the next run is compared with them again.
    QString compareWith(const QString &bufferOrPath, double tolerance)
    {
        return m_compare->compareWith(bufferOrPath, tolerance);
    }
    QString compareText() const { return m_compare->compareText(); }
    QString compareTarget() const { return m_compare->compareTarget(); }
    // Expected contents per buffer (a captured launch's "after" contents, .npy): after every run each buffer
    // that has one is compared with it, the verdict shown above the table (and in expectedText()), and the
    // first buffer that differs (else the first) is shown compared. An empty list forgets them.
    using Expected = BufferCompareBar::Expected;
    void setExpected(std::vector<Expected> expected, const QString &label)
    {
        m_compare->setExpected(std::move(expected), label);
    }
    const std::vector<Expected> &expected() const { return m_compare->expected(); }
    QString expectedText() const { return m_compare->expectedText(); }
    // True when the last run had every expected buffer and all were equal.
    bool expectedEqual() const { return m_compare->expectedEqual(); }
    // Scrolls to and selects the first differing element; false when there is none.
    bool showFirstDifference();
    // Layouts other than Linear need a 2-D (or 3-D) NDRange, the row width its first size, or an image
    // (shown as its picture, by default). Returns false (and keeps the layout) when neither.
    bool setLayout(Layout layout);
    // The layout shown: images and plain buffers each keep their own.
    Layout layout() const;
    // The row width of the 2-D layouts, in elements: an image's width (times its channels when a pixel is
    // several elements), global()[0] of a 2-D run, else 0.
    std::size_t rowWidth() const;
    // The pixel under the mouse in the picture, as the line under it shows it ("x 3, y 5: ...").
    QString pixelText() const;
    QString describePixel(int x, int y) const;
    // Saves the shown buffer; the format follows the extension (.npy, .bin, .csv). Returns an error.
    QString saveBuffer(const QString &path) const;

private:
    void showBuffers(const RunResult &result);
    void setSnapshotShown(bool shown);
    void onBufferChosen(int index);
    void updateSummary();
    void applyLayout();
    void fitColumns();
    bool scrollToFirstDifference();
    bool shownIsImage() const;

    RunResult m_result;  // shown
    RunResult m_lastRun; // the last run's, kept while a snapshot is shown
    bool m_hasRun = false;
    bool m_snapshot = false;
    QPushButton *m_back;
    BufferTableModel *m_model;
    QComboBox *m_buffer;
    QComboBox *m_format;
    QComboBox *m_layoutCombo;
    QStackedWidget *m_stack;
    QTableView *m_table;
    BufferImageView *m_image;
    QLabel *m_header;
    QLabel *m_summary;
    BufferCompareBar *m_compare;
    Layout m_layout = Layout::Linear;
    Layout m_imageLayout = Layout::Image2D; // read-back images: their picture unless the user chose
    ImageZoomBar *m_zoomBar = nullptr;      // fit, 1:1, -, +, the pixel under the mouse: with the picture
    QPlainTextEdit *m_printed = nullptr;    // the kernel's printf output; hidden when it printed nothing
};

} // namespace clscope::ui
