// Results viewer widgets and actions.
#include "resultsviewer.h"

#include "models/buffertablemodel.h"

#include "clscope/npy.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace clscope::ui {

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
} // namespace

ResultsViewer::ResultsViewer(QWidget *parent)
    : QWidget(parent)
    , m_model(new BufferTableModel(this))
    , m_buffer(new QComboBox)
    , m_format(new QComboBox)
    , m_table(new QTableView)
    , m_header(new QLabel(tr("No run yet. Fill the arguments and press F5.")))
    , m_summary(new QLabel)
    , m_compareWith(new QComboBox)
    , m_tolerance(new QDoubleSpinBox)
    , m_compareResult(new QLabel)
{
    setObjectName(QStringLiteral("resultsViewer"));
    m_format->addItems({tr("Decimal"), tr("Hex"), tr("Scientific")});
    m_table->setModel(m_model);
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tolerance->setDecimals(9);
    m_tolerance->setRange(0, 1e12);
    m_tolerance->setValue(1e-6);
    m_compareWith->setEditable(true);
    m_compareWith->setPlaceholderText(tr("buffer or file"));
    m_compareWith->setMinimumContentsLength(16);

    auto *save = new QPushButton(tr("Save as…"));
    auto *compare = new QPushButton(tr("Compare"));
    auto *browse = new QPushButton(tr("File…"));

    // One row of controls and one of text around the table: the bottom docks get a quarter of the window.
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Buffer")));
    top->addWidget(m_buffer, 2);
    top->addWidget(new QLabel(tr("Format")));
    top->addWidget(m_format);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Compare with")));
    top->addWidget(m_compareWith, 1);
    top->addWidget(browse);
    top->addWidget(new QLabel(tr("±")));
    top->addWidget(m_tolerance);
    top->addWidget(compare);
    top->addSpacing(12);
    top->addWidget(save);
    auto *texts = new QHBoxLayout;
    texts->addWidget(m_summary, 1);
    texts->addWidget(m_compareResult, 1);
    m_summary->setWordWrap(true);
    m_compareResult->setWordWrap(true);
    m_table->setMinimumHeight(40);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(m_header);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addLayout(texts);

    connect(m_buffer, &QComboBox::currentIndexChanged, this, &ResultsViewer::onBufferChosen);
    connect(m_format, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_model->setFormat(static_cast<NumberFormat>(i)); });
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
}

void ResultsViewer::showResult(const RunResult &result)
{
    const QString previous = m_buffer->currentText();
    m_result = result;
    QStringList launches;
    double total = 0;
    for (const auto &l : result.launches())
        total += double(l.duration());
    m_header->setText(
        tr("%1 on %2: %n launch(es), kernel time %3 us (mean %4 us), run %5 ms%6", nullptr,
           int(result.launches().size()))
            .arg(qs(result.kernel()), qs(result.device()))
            .arg(total / 1e3, 0, 'f', 1)
            .arg(result.launches().empty() ? 0.0 : total / 1e3 / double(result.launches().size()), 0, 'f', 1)
            .arg(result.durationMs(), 0, 'f', 1)
            .arg(result.cancelled() ? tr(" — stopped before the end") : QString()));
    m_buffer->blockSignals(true);
    m_buffer->clear();
    m_compareWith->clear();
    for (const BufferData &b : result.buffers()) {
        m_buffer->addItem(qs(b.name) + QStringLiteral("  (") + qs(b.type.name()) + QStringLiteral(" × ") +
                              QString::number(b.count) + u')',
                          qs(b.name));
        m_compareWith->addItem(qs(b.name));
    }
    m_compareWith->setCurrentText(QString());
    m_buffer->blockSignals(false);
    const int keep = m_buffer->findText(previous);
    m_buffer->setCurrentIndex(keep >= 0 ? keep : 0);
    onBufferChosen(m_buffer->currentIndex());
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
    if (index < 0 || index >= int(buffers.size())) {
        m_model->setBuffer({});
        m_summary->clear();
        return;
    }
    m_model->setBuffer(buffers[size_t(index)]);
    m_compareResult->clear();
    updateSummary();
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

QString ResultsViewer::summaryText() const
{
    return m_summary->text();
}

QString ResultsViewer::compareWith(const QString &bufferOrPath, double tolerance)
{
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
                QFile f(bufferOrPath);
                if (!f.open(QIODevice::ReadOnly))
                    throw std::runtime_error(f.errorString().toStdString());
                const QByteArray bytes = f.readAll();
                if (size_t(bytes.size()) != shown.bytes.size())
                    throw std::runtime_error(tr("%1 has %2 bytes, the buffer %3")
                                                 .arg(bufferOrPath)
                                                 .arg(bytes.size())
                                                 .arg(shown.bytes.size())
                                                 .toStdString());
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
    const Comparison c = compareBuffers(shown, other, tolerance);
    if (!c.error.isEmpty())
        m_compareResult->setText(c.error);
    else if (c.mismatches == 0)
        m_compareResult->setText(tr("Equal within %1: %2 values, max |error| %3")
                                     .arg(tolerance)
                                     .arg(c.compared)
                                     .arg(c.maxAbsError));
    else
        m_compareResult->setText(
            tr("%1 of %2 values differ by more than %3 (first at value %4), max |error| %5")
                .arg(c.mismatches)
                .arg(c.compared)
                .arg(tolerance)
                .arg(c.firstMismatch)
                .arg(c.maxAbsError));
    return m_compareResult->text();
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
