// Results viewer widgets and actions.
#include "resultsviewer.h"
#include "display/stdstring.h"

#include "bufferimageview.h"
#include "display/recordformat.h"
#include "files/readfile.h"
#include "models/buffertablemodel.h"
#include "models/eventtablemodel.h"

#include "clscope/compare.h"
#include "clscope/imagedata.h"
#include "clscope/npy.h"
#include "clscope/structs.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
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
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {} // namespace

ResultsViewer::ResultsViewer(QWidget *parent)
    : QWidget(parent)
    , m_model(new BufferTableModel(this))
    , m_buffer(new QComboBox)
    , m_format(new QComboBox)
    , m_layoutCombo(new QComboBox)
    , m_stack(new QStackedWidget)
    , m_table(new QTableView)
    , m_image(new BufferImageView)
    , m_header(new QLabel(tr("No run yet. Fill the arguments and press F5.")))
    , m_summary(new QLabel)
    , m_compareWith(new QComboBox)
    , m_tolerance(new QDoubleSpinBox)
    , m_firstDifference(new QPushButton(tr("First difference")))
    , m_compareResult(new QLabel)
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
    m_tolerance->setDecimals(9);
    m_tolerance->setRange(0, 1e12);
    m_tolerance->setValue(1e-6);
    m_buffer->setMinimumContentsLength(14);
    m_buffer->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_compareWith->setEditable(true);
    m_compareWith->setPlaceholderText(tr("buffer or file"));
    m_compareWith->setMinimumContentsLength(16);
    m_firstDifference->setObjectName(QStringLiteral("resultsFirstDifference"));
    m_firstDifference->setToolTip(tr("Select the first element that differs"));
    m_firstDifference->setEnabled(false);

    auto *save = new QPushButton(tr("Save as…"));
    auto *compare = new QPushButton(tr("Compare"));
    auto *browse = new QPushButton(tr("File…"));

    // One row of controls and one of text around the table: the bottom docks get a quarter of the window.
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Buffer")));
    top->addWidget(m_buffer, 2);
    top->addWidget(m_format);
    top->addWidget(m_layoutCombo);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Compare with")));
    top->addWidget(m_compareWith, 1);
    top->addWidget(browse);
    top->addWidget(new QLabel(tr("±")));
    top->addWidget(m_tolerance);
    top->addWidget(compare);
    top->addWidget(m_firstDifference);
    top->addSpacing(12);
    top->addWidget(save);
    // Zoom of the picture, shown with it.
    m_zoomBar = new QWidget;
    auto *zoom = new QHBoxLayout(m_zoomBar);
    zoom->setContentsMargins(0, 0, 0, 0);
    zoom->setSpacing(2);
    const auto zoomButton = [&](const QString &text, const QString &tip, auto action) {
        auto *b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, action);
        zoom->addWidget(b);
    };
    zoomButton(tr("Fit"), tr("Fit the picture to the area (0)"), [this] { m_image->fit(); });
    zoomButton(tr("1:1"), tr("One screen pixel per pixel (1)"), [this] { m_image->setZoom(1); });
    zoomButton(QStringLiteral("−"), tr("Zoom out (-, mouse wheel)"), [this] { m_image->zoomBy(0.5); });
    zoomButton(QStringLiteral("+"), tr("Zoom in (+, mouse wheel); drag to pan"),
               [this] { m_image->zoomBy(2); });
    m_zoomBar->hide();
    // Zoom and the pixel under the mouse: a row of its own under the controls, shown with the picture (the
    // controls' row is as wide as a 1280-pixel window allows, and a short dock scrolls its bottom lines out
    // of view).
    m_pixel = new QLabel;
    m_pixel->setObjectName(QStringLiteral("resultsPixel"));
    m_pixel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pixel->setMinimumWidth(
        m_pixel->fontMetrics().horizontalAdvance(QStringLiteral("x 000, y 000: RGBA 255, 255")));
    zoom->addSpacing(6);
    zoom->addWidget(m_pixel, 1);
    connect(m_image, &BufferImageView::hovered, this,
            [this](int x, int y) { m_pixel->setText(x >= 0 ? describePixel(x, y) : QString()); });
    auto *texts = new QHBoxLayout;
    texts->addWidget(m_summary, 1);
    texts->addWidget(m_compareResult, 1);
    // One line each, whatever their length: a word-wrapped label asks its height for the narrowest width,
    // and the dock (a scroll area under its minimum) then scrolled these very lines out of view.
    for (QLabel *line : {m_summary, m_compareResult}) {
        line->setWordWrap(false);
        line->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        line->setMinimumWidth(1);
    }
    m_table->setMinimumHeight(40);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(m_header);
    m_expectedResult = new QLabel;
    m_expectedResult->setObjectName(QStringLiteral("resultsExpected"));
    m_expectedResult->setWordWrap(true);
    m_expectedResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_expectedResult->hide();
    layout->addWidget(m_expectedResult);
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
    connect(m_buffer, &QComboBox::activated, this, [this] { m_compareTarget.clear(); });
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
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare with file"), QString(),
                                                          tr("NumPy or raw (*.npy *.bin);;All files (*)"));
        if (!path.isEmpty())
            m_compareWith->setCurrentText(path);
    });
    connect(compare, &QPushButton::clicked, this,
            [this] { compareWith(m_compareWith->currentText().trimmed(), m_tolerance->value()); });
    connect(m_firstDifference, &QPushButton::clicked, this, &ResultsViewer::showFirstDifference);
}

void ResultsViewer::showResult(const RunResult &result)
{
    const QString previous = m_buffer->currentData().toString();
    const QString target = m_compareWith->currentText();
    m_result = result;
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
    m_buffer->blockSignals(true);
    m_buffer->clear();
    m_compareWith->clear();
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
        m_compareWith->addItem(qs(b.name));
    }
    // The target stays what it was: a buffer of this run or a file.
    m_compareWith->setCurrentText(target);
    m_buffer->blockSignals(false);
    const int keep = m_buffer->findData(previous);
    m_buffer->setCurrentIndex(keep >= 0 ? keep : 0);
    onBufferChosen(m_buffer->currentIndex());
    if (!m_expected.empty())
        compareExpected();
    else if (!m_compareTarget.isEmpty()) {
        bool compared = false;
        compare(m_compareTarget, m_tolerance->value(), &compared);
    }
}

void ResultsViewer::setExpected(std::vector<Expected> expected, const QString &label)
{
    m_expected = std::move(expected);
    m_expectedLabel = label;
    m_expectedEqual = false;
    if (m_expected.empty()) {
        m_expectedResult->clear();
        m_expectedResult->hide();
        return;
    }
    m_tolerance->setValue(0);
    QStringList names;
    for (const Expected &e : m_expected)
        names << e.buffer;
    m_expectedResult->setText(tr("%1: the next run is compared with its result (%2)")
                                  .arg(m_expectedLabel, names.join(QStringLiteral(", "))));
    m_expectedResult->show();
}

QString ResultsViewer::expectedText() const
{
    return m_expectedResult->text();
}

void ResultsViewer::compareExpected()
{
    // Every expected buffer, then the first that differs (else the first) shown with its differences.
    QStringList parts;
    const Expected *show = nullptr;
    bool allEqual = true;
    for (const Expected &e : m_expected) {
        const BufferData *b = m_result.buffer(e.buffer.toStdString());
        if (!b) {
            parts << tr("%1 not read back").arg(e.buffer);
            allEqual = false;
            continue;
        }
        BufferData other;
        other.name = e.buffer.toStdString();
        other.type = b->type;
        other.count = b->count;
        try {
            other.bytes = fromNpy(readNpyFile(e.path.toStdString()), b->type, b->count);
        } catch (const std::exception &ex) {
            parts << tr("%1: %2").arg(e.buffer, qs(ex.what()));
            allEqual = false;
            continue;
        }
        const BufferComparison c = compareBuffers(*b, other, Tolerance::absoluteOf(m_tolerance->value()));
        if (!c.problem.empty()) {
            parts << tr("%1: %2").arg(e.buffer, qs(c.problem));
            allEqual = false;
        } else if (c.differing == 0) {
            parts << tr("%1 equal (%2 values)").arg(e.buffer).arg(c.compared);
            if (allEqual && (!show || (e.written && !show->written)))
                show = &e; // an output of the launch rather than an input it left alone
        } else {
            parts << tr("%1 differs: %2 of %3 values, first at value %4")
                         .arg(e.buffer)
                         .arg(c.differing)
                         .arg(c.compared)
                         .arg(c.firstDiffering);
            if (allEqual)
                show = &e; // the first that differs
            allEqual = false;
        }
    }
    m_expectedEqual = allEqual;
    m_expectedResult->setText(tr("%1 — %2: %3")
                                  .arg(m_expectedLabel, allEqual ? tr("equal") : tr("NOT equal"),
                                       parts.join(QStringLiteral("; "))));
    m_expectedResult->setStyleSheet(allEqual ? QStringLiteral("color: #2e7d32; font-weight: bold")
                                             : QStringLiteral("color: #c62828; font-weight: bold"));
    m_expectedResult->show();
    if (show && selectBuffer(show->buffer)) {
        bool compared = false;
        m_compareWith->setCurrentText(show->path);
        compare(show->path, m_tolerance->value(), &compared);
    }
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
    m_compareResult->clear();
    m_firstDifference->setEnabled(false);
    if (index < 0 || index >= int(buffers.size())) {
        m_model->setBuffer({});
        m_summary->clear();
        applyLayout();
        return;
    }
    m_model->setBuffer(buffers[size_t(index)]);
    m_pixel->clear();
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
    const BufferData &b = m_model->buffer();
    if (x < 0 || y < 0 || b.count == 0)
        return {};
    if (b.image && m_image->image().width() > 0 && m_image->image().width() == int(b.image->shape.width)) {
        // Pixels in the picture's order (slices one under the other), each its channels' stored values
        // and, for normalized types, what a read_imagef gives.
        const ImageInfo &info = *b.image;
        const std::size_t pixels = info.shape.pixels();
        const std::size_t pixel = std::size_t(y) * info.shape.width + std::size_t(x);
        if (pixel >= pixels)
            return {};
        const std::size_t per = b.componentCount() / pixels;
        QString where = tr("x %1, y %2").arg(x).arg(y);
        if (info.dim == ImageDim::Image3D || info.dim == ImageDim::Image2DArray) {
            const std::size_t rows = info.shape.height;
            where = tr("x %1, y %2, %3 %4")
                        .arg(x)
                        .arg(std::size_t(y) % rows)
                        .arg(info.dim == ImageDim::Image3D ? tr("z") : tr("layer"))
                        .arg(std::size_t(y) / rows);
        } else if (info.dim == ImageDim::Image1DArray) {
            where = tr("x %1, layer %2").arg(x).arg(y);
        }
        QStringList stored;
        QStringList unit;
        for (std::size_t c = 0; c < per; ++c) {
            stored << m_model->formatComponent(pixel * per + c);
            if (isNormalizedType(info.format.type))
                unit << QString::number(b.value(pixel * per + c) / channelMax(info.format.type), 'g', 4);
        }
        QString text = tr("%1: %2 %3")
                           .arg(where, qs(std::string(channelLetters(info.format.order))),
                                stored.join(QStringLiteral(", ")));
        if (!unit.isEmpty() && !isPackedType(info.format.type))
            text += QStringLiteral(" (") + unit.join(QStringLiteral(", ")) + u')';
        return text;
    }
    const std::size_t width = rowWidth();
    const std::size_t element = std::size_t(y) * width + std::size_t(x);
    if (width == 0 || element >= b.count)
        return {};
    const std::size_t components = b.componentCount() / b.count;
    return tr("x %1, y %2: %3").arg(x).arg(y).arg(m_model->formatComponent(element * components));
}

QString ResultsViewer::pixelText() const
{
    return m_pixel->text();
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

QString ResultsViewer::compareText() const
{
    return m_compareResult->text();
}

QString ResultsViewer::compareTarget() const
{
    return m_compareTarget;
}

QString ResultsViewer::compareWith(const QString &bufferOrPath, double tolerance)
{
    m_tolerance->setValue(tolerance);
    if (m_compareWith->currentText() != bufferOrPath)
        m_compareWith->setCurrentText(bufferOrPath);
    bool compared = false;
    const QString text = compare(bufferOrPath, tolerance, &compared);
    // Only a comparison that could be made is made again after the next run.
    m_compareTarget = compared ? bufferOrPath : QString();
    return text;
}

QString ResultsViewer::compare(const QString &bufferOrPath, double tolerance, bool *compared)
{
    *compared = false;
    m_model->clearComparison();
    m_firstDifference->setEnabled(false);
    const BufferData &shown = m_model->buffer();
    BufferData other;
    if (const BufferData *b = m_result.buffer(bufferOrPath.toStdString())) {
        other = *b;
    } else if (QFileInfo::exists(bufferOrPath)) {
        try {
            other.name = QFileInfo(bufferOrPath).fileName().toStdString();
            other.type = shown.type;
            other.count = shown.count;
            if (bufferOrPath.endsWith(QStringLiteral(".npy"), Qt::CaseInsensitive)) {
                other.bytes = fromNpy(readNpyFile(bufferOrPath.toStdString()), shown.type, shown.count);
            } else {
                // A regular file of the wrong size is told from its size, without reading it; checked:
                // nothing is read from a FIFO or a device.
                const QFileInfo info(bufferOrPath);
                const auto wrongSize = [&](qint64 size) {
                    return std::runtime_error(tr("%1 has %2 bytes, the buffer %3")
                                                  .arg(bufferOrPath)
                                                  .arg(size)
                                                  .arg(shown.bytes.size())
                                                  .toStdString());
                };
                if (info.isFile() && std::size_t(info.size()) != shown.bytes.size())
                    throw wrongSize(info.size());
                const FileRead read = readCheckedFile(bufferOrPath, qint64(shown.bytes.size()));
                if (!read.ok())
                    throw std::runtime_error(
                        tr("cannot read %1: %2").arg(bufferOrPath, read.error).toStdString());
                const QByteArray &bytes = read.bytes;
                if (std::size_t(bytes.size()) != shown.bytes.size())
                    throw wrongSize(bytes.size());
                other.bytes.assign(bytes.begin(), bytes.end());
            }
        } catch (const std::exception &e) {
            m_compareResult->setText(qs(e.what()));
            return m_compareResult->text();
        }
    } else {
        m_compareResult->setText(tr("'%1' is neither a read-back buffer nor a file").arg(bufferOrPath));
        return m_compareResult->text();
    }
    // Integers exactly, the tolerance for floating point (compare.h).
    BufferComparison c = compareBuffers(shown, other, Tolerance::absoluteOf(tolerance), true);
    *compared = c.problem.empty();
    if (!c.problem.empty()) {
        m_compareResult->setText(
            tr("%1 and %2 cannot be compared: %3").arg(qs(shown.name), qs(other.name), qs(c.problem)));
    } else if (c.differing == 0) {
        m_compareResult->setText(
            tr("Equal within %1: %2 values, max |error| %3").arg(tolerance).arg(c.compared).arg(c.maxAbs));
    } else {
        QString where = QString::number(c.firstDiffering);
        if (const std::size_t width = m_model->rowWidth(); width > 0 && shown.count > 0) {
            const std::size_t element = c.firstDiffering / (shown.componentCount() / shown.count);
            where += tr(": x %1, y %2").arg(element % width).arg(element / width);
        }
        m_compareResult->setText(
            tr("%1 of %2 values differ by more than %3 (first at value %4), max |error| %5")
                .arg(c.differing)
                .arg(c.compared)
                .arg(tolerance)
                .arg(where)
                .arg(c.maxAbs));
        m_model->setComparison(std::move(other), std::move(c.differs));
        m_firstDifference->setEnabled(true);
        scrollToFirstDifference();
    }
    return m_compareResult->text();
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
    if (path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive))
        return writeBufferCsv(b, path);
    if (path.endsWith(QStringLiteral(".bin"), Qt::CaseInsensitive))
        return writeBufferBin(b, path);
    return writeBufferNpy(b, path);
}

} // namespace clscope::ui
