// Comparing the shown buffer with another buffer, a file, or a captured launch's expected contents.
#include "buffercomparebar.h"
#include "display/stdstring.h"

#include "files/readfile.h"
#include "models/buffertablemodel.h"

#include "clscope/compare.h"
#include "clscope/npy.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace clscope::ui {

BufferCompareBar::BufferCompareBar(BufferTableModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_with(new QComboBox)
    , m_tolerance(new QDoubleSpinBox)
    , m_firstDifference(new QPushButton(tr("First difference")))
    , m_result(new QLabel)
    , m_expectedResult(new QLabel)
{
    m_tolerance->setDecimals(9);
    m_tolerance->setRange(0, 1e12);
    m_tolerance->setValue(1e-6);
    m_with->setEditable(true);
    m_with->setPlaceholderText(tr("buffer or file"));
    m_with->setMinimumContentsLength(16);
    m_firstDifference->setObjectName(QStringLiteral("resultsFirstDifference"));
    m_firstDifference->setToolTip(tr("Select the first element that differs"));
    m_firstDifference->setEnabled(false);
    m_expectedResult->setObjectName(QStringLiteral("resultsExpected"));
    m_expectedResult->setWordWrap(true);
    m_expectedResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_expectedResult->hide();

    auto *compare = new QPushButton(tr("Compare"));
    auto *browse = new QPushButton(tr("File…"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Compare with")));
    row->addWidget(m_with, 1);
    row->addWidget(browse);
    row->addWidget(new QLabel(tr("±")));
    row->addWidget(m_tolerance);
    row->addWidget(compare);
    row->addWidget(m_firstDifference);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare with file"), QString(),
                                                          tr("NumPy or raw (*.npy *.bin);;All files (*)"));
        if (!path.isEmpty())
            m_with->setCurrentText(path);
    });
    connect(compare, &QPushButton::clicked, this,
            [this] { compareWith(m_with->currentText().trimmed(), m_tolerance->value()); });
    connect(m_firstDifference, &QPushButton::clicked, this, &BufferCompareBar::firstDifferenceRequested);
}

void BufferCompareBar::setRun(const RunResult *result)
{
    m_run = result;
    // The target stays what it was: a buffer of this run or a file.
    const QString target = m_with->currentText();
    m_with->clear();
    if (result) {
        for (const BufferData &b : result->buffers())
            m_with->addItem(qs(b.name));
    }
    m_with->setCurrentText(target);
}

void BufferCompareBar::compareAgain()
{
    if (m_target.isEmpty())
        return;
    bool compared = false;
    compare(m_target, m_tolerance->value(), &compared);
}

void BufferCompareBar::clearResult()
{
    m_result->clear();
    m_firstDifference->setEnabled(false);
}

QString BufferCompareBar::compareText() const
{
    return m_result->text();
}

void BufferCompareBar::setExpected(std::vector<Expected> expected, const QString &label)
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

QString BufferCompareBar::expectedText() const
{
    return m_expectedResult->text();
}

const BufferCompareBar::Expected *BufferCompareBar::checkExpected()
{
    // Every expected buffer, then the first that differs (else the first) shown with its differences.
    QStringList parts;
    const Expected *show = nullptr;
    bool allEqual = true;
    for (const Expected &e : m_expected) {
        const BufferData *b = m_run ? m_run->buffer(e.buffer.toStdString()) : nullptr;
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
    return show;
}

void BufferCompareBar::showExpected(const Expected &e)
{
    bool compared = false;
    m_with->setCurrentText(e.path);
    compare(e.path, m_tolerance->value(), &compared);
}

QString BufferCompareBar::compareWith(const QString &bufferOrPath, double tolerance)
{
    m_tolerance->setValue(tolerance);
    if (m_with->currentText() != bufferOrPath)
        m_with->setCurrentText(bufferOrPath);
    bool compared = false;
    const QString text = compare(bufferOrPath, tolerance, &compared);
    // Only a comparison that could be made is made again after the next run.
    m_target = compared ? bufferOrPath : QString();
    return text;
}

QString BufferCompareBar::compare(const QString &bufferOrPath, double tolerance, bool *compared)
{
    *compared = false;
    m_model->clearComparison();
    m_firstDifference->setEnabled(false);
    const BufferData &shown = m_model->buffer();
    BufferData other;
    if (const BufferData *b = m_run ? m_run->buffer(bufferOrPath.toStdString()) : nullptr) {
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
            m_result->setText(qs(e.what()));
            return m_result->text();
        }
    } else {
        m_result->setText(tr("'%1' is neither a read-back buffer nor a file").arg(bufferOrPath));
        return m_result->text();
    }
    // Integers exactly, the tolerance for floating point (compare.h).
    BufferComparison c = compareBuffers(shown, other, Tolerance::absoluteOf(tolerance), true);
    *compared = c.problem.empty();
    if (!c.problem.empty()) {
        m_result->setText(
            tr("%1 and %2 cannot be compared: %3").arg(qs(shown.name), qs(other.name), qs(c.problem)));
    } else if (c.differing == 0) {
        m_result->setText(
            tr("Equal within %1: %2 values, max |error| %3").arg(tolerance).arg(c.compared).arg(c.maxAbs));
    } else {
        QString where = QString::number(c.firstDiffering);
        if (const std::size_t width = m_model->rowWidth(); width > 0 && shown.count > 0) {
            const std::size_t element = c.firstDiffering / (shown.componentCount() / shown.count);
            where += tr(": x %1, y %2").arg(element % width).arg(element / width);
        }
        m_result->setText(tr("%1 of %2 values differ by more than %3 (first at value %4), max |error| %5")
                              .arg(c.differing)
                              .arg(c.compared)
                              .arg(tolerance)
                              .arg(where)
                              .arg(c.maxAbs));
        m_model->setComparison(std::move(other), std::move(c.differs));
        m_firstDifference->setEnabled(true);
        emit differencesShown();
    }
    return m_result->text();
}

} // namespace clscope::ui
