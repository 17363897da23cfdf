// Results viewer widgets and actions.
#include "resultsviewer.h"
#include "display/stdstring.h"

#include "bufferimageview.h"
#include "display/recordformat.h"
#include "imagezoombar.h"
#include "models/bufferexport.h"
#include "models/bufferpicture.h"
#include "models/buffersummary.h"
#include "models/buffertablemodel.h"
#include "models/eventtablemodel.h"

#include "clscope/imagedata.h"
#include "clscope/structs.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

ResultsViewer::ResultsViewer(QWidget *parent)
    : QWidget(parent)
    , m_back(new QPushButton(tr("Back to the last run")))
    , m_model(new BufferTableModel(this))
    , m_buffer(new QComboBox)
    , m_format(new QComboBox)
    , m_layoutCombo(new QComboBox)
    , m_stack(new QStackedWidget)
    , m_table(new QTableView)
    , m_image(new BufferImageView)
    , m_header(new QLabel(tr("No run yet. Fill the arguments and press F5.")))
    , m_summary(new QLabel)
    , m_compare(new BufferCompareBar(m_model))
{
    setObjectName(QStringLiteral("resultsViewer"));
    m_format->addItems({tr("Decimal"), tr("Hex"), tr("Scientific")});
    m_format->setToolTip(tr("Hex shows the stored bits: float 1.0 is 0x3f800000"));
    m_layoutCombo->setObjectName(QStringLiteral("resultsLayout"));
    m_layoutCombo->addItems({tr("1-D"), tr("2-D table"), tr("2-D image")});
    m_layoutCombo->setToolTip(tr("A 2-D NDRange can be shown as rows of its first size, or as a grey-scale "
                                 "picture (min black, max white, NaN magenta)"));
    m_layoutCombo->setEnabled(false);
    m_table->setModel(m_model);
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_stack->addWidget(m_table);
    m_stack->addWidget(m_image);
    m_image->setDescriber([this](int x, int y) { return describePixel(x, y); });
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buffer->setMinimumContentsLength(14);
    m_buffer->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);

    auto *save = new QPushButton(tr("Save as…"));

    // One row of controls and one of text around the table: the bottom docks get a quarter of the window.
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Buffer")));
    top->addWidget(m_buffer, 2);
    top->addWidget(m_format);
    top->addWidget(m_layoutCombo);
    top->addSpacing(12);
    top->addWidget(m_compare, 1);
    top->addSpacing(12);
    top->addWidget(save);
    // Zoom and the pixel under the mouse: a row of its own under the controls, shown with the picture (the
    // controls' row is as wide as a 1280-pixel window allows, and a short dock scrolls its bottom lines out
    // of view).
    m_zoomBar = new ImageZoomBar(m_image);
    m_zoomBar->hide();
    connect(m_image, &BufferImageView::hovered, this,
            [this](int x, int y) { m_zoomBar->setPixelText(x >= 0 ? describePixel(x, y) : QString()); });
    auto *texts = new QHBoxLayout;
    texts->addWidget(m_summary, 1);
    texts->addWidget(m_compare->resultLabel(), 1);
    // One line each, whatever their length: a word-wrapped label asks its height for the narrowest width,
    // and the dock (a scroll area under its minimum) then scrolled these very lines out of view.
    for (QLabel *line : {m_summary, m_compare->resultLabel()}) {
        line->setWordWrap(false);
        line->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        line->setMinimumWidth(1);
    }
    m_table->setMinimumHeight(40);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    // The header, and while contents other than a run's are shown, the way back to the run's.
    auto *head = new QHBoxLayout;
    head->addWidget(m_header, 1);
    head->addWidget(m_back, 0, Qt::AlignTop);
    m_back->setObjectName(QStringLiteral("resultsLastRun"));
    m_back->setToolTip(tr("Show the last run's result again"));
    m_back->hide();
    m_header->setObjectName(QStringLiteral("resultsHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addLayout(head);
    layout->addWidget(m_compare->expectedLabel());
    layout->addLayout(top);
    layout->addWidget(m_zoomBar);
    // The kernel's printf beside the buffer (a results dock is short: below it would be out of sight).
    m_printed = new QPlainTextEdit;
    m_printed->setObjectName(QStringLiteral("resultsPrintf"));
    m_printed->setReadOnly(true);
    m_printed->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_printed->setMaximumBlockCount(100000);
    m_printed->setPlaceholderText(tr("printf output"));
    m_printed->hide();
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_stack);
    split->addWidget(m_printed);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    layout->addLayout(texts);

    connect(m_buffer, &QComboBox::currentIndexChanged, this, &ResultsViewer::onBufferChosen);
    // Another buffer chosen by hand is not compared again after the next run (its target may not fit).
    connect(m_buffer, &QComboBox::activated, m_compare, &BufferCompareBar::forgetTarget);
    connect(m_format, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_model->setFormat(static_cast<NumberFormat>(i));
        fitColumns();
    });
    connect(m_layoutCombo, &QComboBox::activated, this, [this](int i) { setLayout(static_cast<Layout>(i)); });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save buffer"), qs(m_model->buffer().name) + QStringLiteral(".npy"),
            tr("NumPy (*.npy);;Raw bytes (*.bin);;CSV (*.csv)"));
        if (path.isEmpty())
            return;
        const QString error = saveBuffer(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Save failed"), error);
    });
    connect(m_back, &QPushButton::clicked, this, &ResultsViewer::showLastRun);
    connect(m_compare, &BufferCompareBar::firstDifferenceRequested, this,
            &ResultsViewer::showFirstDifference);
    connect(m_compare, &BufferCompareBar::differencesShown, this, &ResultsViewer::scrollToFirstDifference);
}

void ResultsViewer::showResult(const RunResult &result)
{
    m_lastRun = result;
    m_hasRun = true;
    setSnapshotShown(false);
    double total = 0;
    for (const auto &l : result.launches())
        total += double(l.duration());
    const auto launches = result.launches().size();
    m_header->setText(
        tr("%1 on %2: %n launch(es), kernel time %3 (mean %4), run %5%6", nullptr, int(launches))
            .arg(qs(result.kernel()), qs(result.device()), durationText(total),
                 durationText(launches ? total / double(launches) : 0.0),
                 durationText(result.durationMs() * 1e6),
                 result.cancelled() ? tr(" — stopped before the end") : QString()));
    // The kernel's printf, as the driver wrote it to stdout during the run.
    const QString printed = QString::fromUtf8(result.printed().data(), qsizetype(result.printed().size()));
    m_printed->setPlainText(printed);
    m_printed->setToolTip(result.printedDropped()
                              ? tr("printf output; %1 more bytes were left out").arg(result.printedDropped())
                              : tr("printf output of the kernel"));
    m_printed->setVisible(!printed.isEmpty());
    showBuffers(result);
    if (!m_compare->expected().empty()) {
        // Every expected buffer checked, then the one to look at shown with its differences.
        const Expected *show = m_compare->checkExpected();
        if (show && selectBuffer(show->buffer))
            m_compare->showExpected(*show);
    } else {
        m_compare->compareAgain();
    }
}

void ResultsViewer::showBuffers(const RunResult &result)
{
    const QString previous = m_buffer->currentData().toString();
    m_result = result;
    m_buffer->blockSignals(true);
    m_buffer->clear();
    for (const BufferData &b : result.buffers()) {
        // "c  (float × 4096)", "out  (image2d 40×30 RGBA/UNORM_INT8)", "p  (Particle × 8)".
        QString what = qs(b.type.name()) + QStringLiteral(" × ") + QString::number(b.count);
        if (b.image)
            what = qs(std::string(imageDimName(b.image->dim))) + u' ' +
                   qs(formatImageShape(b.image->shape, b.image->dim)).replace(u'x', QChar(0xd7)) + u' ' +
                   qs(formatText(b.image->format));
        else if (b.layout && !b.layout->name.empty())
            what = qs(b.layout->name) + QStringLiteral(" × ") + QString::number(b.count);
        m_buffer->addItem(qs(b.name) + QStringLiteral("  (") + what + u')', qs(b.name));
    }
    m_buffer->blockSignals(false);
    m_compare->setRun(&m_result);
    const int keep = m_buffer->findData(previous);
    m_buffer->setCurrentIndex(keep >= 0 ? keep : 0);
    onBufferChosen(m_buffer->currentIndex());
}

void ResultsViewer::showSnapshot(const RunResult &contents, const QString &label)
{
    setSnapshotShown(true);
    m_header->setText(label);
    m_printed->hide();
    showBuffers(contents);
}

void ResultsViewer::showLastRun()
{
    if (!m_snapshot)
        return;
    if (m_hasRun) {
        showResult(m_lastRun);
        return;
    }
    setSnapshotShown(false);
    m_header->setText(tr("No run yet. Fill the arguments and press F5."));
    showBuffers(RunResult());
}

void ResultsViewer::setSnapshotShown(bool shown)
{
    m_snapshot = shown;
    m_back->setVisible(shown);
    // Set apart, so that contents at a debugger stop are not read as a run's result; a long label wraps.
    m_header->setStyleSheet(shown ? QStringLiteral("background: #fff1c2; color: #4a3800; padding: 2px")
                                  : QString());
    m_header->setWordWrap(shown);
    // The verdict about the last run's expected contents is not about these.
    m_compare->expectedLabel()->setVisible(!shown && !m_compare->expected().empty());
}

QString ResultsViewer::shownBuffer() const
{
    return m_buffer->currentData().toString();
}

bool ResultsViewer::selectBuffer(const QString &name)
{
    const int i = m_buffer->findData(name);
    if (i < 0)
        return false;
    m_buffer->setCurrentIndex(i);
    return true;
}

void ResultsViewer::onBufferChosen(int index)
{
    const auto &buffers = m_result.buffers();
    m_compare->clearResult();
    if (index < 0 || index >= int(buffers.size())) {
        m_model->setBuffer({});
        m_summary->clear();
        applyLayout();
        return;
    }
    m_model->setBuffer(buffers[size_t(index)]);
    m_zoomBar->setPixelText(QString());
    applyLayout();
    updateSummary();
}

bool ResultsViewer::shownIsImage() const
{
    return m_model->buffer().image.has_value();
}

std::size_t ResultsViewer::rowWidth() const
{
    const BufferData &b = m_model->buffer();
    if (b.image) {
        const std::size_t pixels = b.image->shape.pixels();
        return pixels > 0 ? b.image->shape.width * std::max<std::size_t>(1, b.count / pixels) : 0;
    }
    const auto &global = m_result.global();
    return global.size() >= 2 ? global[0] : 0;
}

ResultsViewer::Layout ResultsViewer::layout() const
{
    if (shownIsImage())
        return m_imageLayout;
    return rowWidth() == 0 ? Layout::Linear : m_layout;
}

bool ResultsViewer::setLayout(Layout layout)
{
    if (layout != Layout::Linear && rowWidth() == 0) {
        m_layoutCombo->setCurrentIndex(int(this->layout()));
        return false;
    }
    (shownIsImage() ? m_imageLayout : m_layout) = layout;
    applyLayout();
    return true;
}

void ResultsViewer::applyLayout()
{
    // The chosen layout is kept for the next 2-D run; a 1-D run is shown as a list; an image as its
    // picture until another layout is chosen for images.
    const std::size_t width = rowWidth();
    const Layout shown = layout();
    {
        const QSignalBlocker block(m_layoutCombo);
        m_layoutCombo->setCurrentIndex(int(shown));
        m_layoutCombo->setEnabled(width > 0);
    }
    m_model->setRowWidth(shown == Layout::Linear ? 0 : width);
    fitColumns();
    if (shown == Layout::Image2D) {
        QString why;
        QImage picture = imagePicture(m_model->buffer(), &why);
        if (picture.isNull())
            picture = bufferImage(m_model->buffer(), width); // a packed image: its words in grey
        m_image->setImage(std::move(picture));
        m_image->setToolTip(why);
        m_stack->setCurrentWidget(m_image);
    } else {
        m_image->setImage({});
        m_stack->setCurrentWidget(m_table);
    }
    m_zoomBar->setVisible(shown == Layout::Image2D);
}

QString ResultsViewer::describePixel(int x, int y) const
{
    return ui::describePixel(m_model->buffer(), m_image->image().width(), rowWidth(), m_model->format(), x,
                             y);
}

QString ResultsViewer::pixelText() const
{
    return m_zoomBar->pixelText();
}

void ResultsViewer::fitColumns()
{
    QHeaderView *columns = m_table->horizontalHeader();
    if (m_model->rowWidth() == 0) {
        columns->setSectionResizeMode(QHeaderView::Stretch);
        return;
    }
    // Thousands of columns: one width for all, from the texts of the first rows in the current format
    // (measuring every cell of a large buffer would take longer than the run).
    const QFontMetrics fm = m_table->fontMetrics();
    int widest = fm.horizontalAdvance(QStringLiteral("00000"));
    const int rows = std::min(m_model->rowCount(), 16);
    const int cols = std::min(m_model->columnCount(), 64);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            widest = std::max(widest, fm.horizontalAdvance(m_model->index(r, c).data().toString()));
    }
    columns->setSectionResizeMode(QHeaderView::Interactive);
    columns->setDefaultSectionSize(widest + 2 * fm.averageCharWidth());
}

void ResultsViewer::updateSummary()
{
    const BufferData &b = m_model->buffer();
    const BufferSummary s = summarize(b);
    m_summary->setText(tr("%1 values   min %2   max %3   mean %4   NaN %5   Inf %6")
                           .arg(b.componentCount())
                           .arg(s.min, 0, 'g', 8)
                           .arg(s.max, 0, 'g', 8)
                           .arg(s.mean, 0, 'g', 8)
                           .arg(s.nanCount)
                           .arg(s.infCount));
}

QString ResultsViewer::headerText() const
{
    return m_header->text();
}

QString ResultsViewer::summaryText() const
{
    return m_summary->text();
}

bool ResultsViewer::showFirstDifference()
{
    // The picture has no cells to select: the 2-D table shows the same rows.
    if (m_model->hasComparison() && m_stack->currentWidget() == m_image)
        setLayout(Layout::Table2D);
    return scrollToFirstDifference();
}

bool ResultsViewer::scrollToFirstDifference()
{
    if (!m_model->hasComparison())
        return false;
    const std::size_t n = m_model->buffer().componentCount();
    std::size_t first = 0;
    while (first < n && !m_model->componentDiffers(first))
        ++first;
    if (first >= n)
        return false;
    const QModelIndex index = m_model->indexOfComponent(first);
    if (!index.isValid())
        return false;
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

QString ResultsViewer::saveBuffer(const QString &path) const
{
    const BufferData &b = m_model->buffer();
    if (b.name.empty())
        return tr("No buffer to save");
    return writeBuffer(b, path);
}

} // namespace clscope::ui
