// A capture's device memory: the chart, the lifetime bars and the table of memory objects.
#include "capturememoryview.h"
#include "display/stdstring.h"

#include "display/recordformat.h"
#include "models/eventtablemodel.h"
#include "poolchart.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <CL/cl.h>

#include <algorithm>

namespace clscope::ui {

namespace {

constexpr int kRow = 7;        // pixels per memory object
constexpr int kMaxRows = 2000; // painted at most (the table lists them all)

std::uint64_t endOf(const CapturedBuffer &b, std::uint64_t last)
{
    return b.releasedNs ? *b.releasedNs : last;
}

QColor contextColour(std::int64_t context)
{
    static const QColor colours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xe8, 0x71, 0x0a),
                                     QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                     QColor(0x8c, 0x56, 0x4b), QColor(0xd6, 0x27, 0x28)};
    return colours[std::size_t(context) % std::size(colours)];
}

} // namespace

QString memFlagsText(std::uint64_t flags)
{
    static const std::pair<std::uint64_t, const char *> names[] = {
        {CL_MEM_READ_WRITE, "READ_WRITE"},
        {CL_MEM_WRITE_ONLY, "WRITE_ONLY"},
        {CL_MEM_READ_ONLY, "READ_ONLY"},
        {CL_MEM_USE_HOST_PTR, "USE_HOST_PTR"},
        {CL_MEM_ALLOC_HOST_PTR, "ALLOC_HOST_PTR"},
        {CL_MEM_COPY_HOST_PTR, "COPY_HOST_PTR"},
        {CL_MEM_HOST_WRITE_ONLY, "HOST_WRITE_ONLY"},
        {CL_MEM_HOST_READ_ONLY, "HOST_READ_ONLY"},
        {CL_MEM_HOST_NO_ACCESS, "HOST_NO_ACCESS"}};
    QStringList parts;
    for (const auto &[bit, name] : names)
        if (flags & bit)
            parts << QString::fromLatin1(name);
    if (parts.isEmpty())
        parts << QStringLiteral("READ_WRITE"); // 0 is the default
    return parts.join(QStringLiteral(" | "));
}

BufferLifetimes::BufferLifetimes(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("bufferLifetimes"));
    setMouseTracking(true);
    setMinimumHeight(40);
}

void BufferLifetimes::setBuffers(const std::vector<CapturedBuffer> *buffers, std::uint64_t first,
                                 std::uint64_t last)
{
    m_buffers = buffers;
    m_first = first;
    m_last = std::max(last, first + 1);
    updateGeometry();
    update();
}

QSize BufferLifetimes::sizeHint() const
{
    const int rows = m_buffers ? std::min<int>(int(m_buffers->size()), kMaxRows) : 0;
    return {400, std::max(40, rows * kRow + 4)};
}

int BufferLifetimes::bufferAt(const QPoint &pos) const
{
    if (!m_buffers)
        return -1;
    const int row = (pos.y() - 2) / kRow;
    return row >= 0 && row < std::min<int>(int(m_buffers->size()), kMaxRows) ? row : -1;
}

void BufferLifetimes::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_buffers || m_buffers->empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No memory objects"));
        return;
    }
    const double span = double(m_last - m_first);
    const double w = std::max(1, width() - 4);
    const int rows = std::min<int>(int(m_buffers->size()), kMaxRows);
    for (int i = 0; i < rows; ++i) {
        const CapturedBuffer &b = (*m_buffers)[std::size_t(i)];
        const double x0 = 2 + w * double(b.createdNs - std::min(b.createdNs, m_first)) / span;
        const double x1 = 2 + w * double(endOf(b, m_last) - std::min(endOf(b, m_last), m_first)) / span;
        QColor c = contextColour(b.context);
        if (b.kind == "sub-buffer")
            c.setAlpha(110); // shares its parent's memory
        p.fillRect(QRectF(x0, 2 + i * kRow, std::max(1.5, x1 - x0), kRow - 2), c);
        if (!b.releasedNs) // still alive at the end: an open end
            p.fillRect(QRectF(x1 - 2, 2 + i * kRow, 2, kRow - 2), palette().color(QPalette::WindowText));
    }
}

bool BufferLifetimes::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_buffers) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int i = bufferAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
            return true;
        }
        const CapturedBuffer &b = (*m_buffers)[std::size_t(i)];
        QStringList kernels;
        for (const std::string &k : b.kernels)
            kernels << qs(k);
        const QString life = b.releasedNs ? durationText(double(*b.releasedNs - b.createdNs))
                                          : tr("until the end of the capture");
        QToolTip::showText(help->globalPos(),
                           tr("<b>%1 %2</b> (context %3)<br>%4, %5<br>alive %6<br>used by %7")
                               .arg(qs(b.kind))
                               .arg(b.id)
                               .arg(b.context)
                               .arg(bytesText(b.size), memFlagsText(b.flags), life,
                                    kernels.isEmpty() ? tr("no kernel")
                                                      : tr("%1 (%n launch(es))", nullptr, int(b.launches))
                                                            .arg(kernels.join(QStringLiteral(", ")))),
                           this);
        return true;
    }
    return QWidget::event(event);
}

CaptureMemoryView::CaptureMemoryView(QWidget *parent)
    : QWidget(parent)
    , m_chart(new PoolChart(&m_history))
    , m_lifetimes(new BufferLifetimes)
    , m_table(new QTableWidget)
    , m_highlights(new QLabel)
{
    setObjectName(QStringLiteral("captureMemory"));
    // The pool chart's channels, as a capture counts them.
    m_chart->graph(int(PoolChannel::HeldBytes))->setName(tr("Live bytes"));
    m_chart->graph(int(PoolChannel::ActiveBytes))->setName(tr("Live bytes, largest context"));
    m_chart->graph(int(PoolChannel::ManagedBytes))->setVisible(false);
    m_chart->graph(int(PoolChannel::ManagedBytes))->removeFromLegend();
    m_chart->graph(int(PoolChannel::HeldBlocks))->setName(tr("Live objects (right)"));
    m_chart->graph(int(PoolChannel::ActiveBlocks))->setVisible(false);
    m_chart->graph(int(PoolChannel::ActiveBlocks))->removeFromLegend();
    m_chart->setWindowSeconds(0);

    m_table->setObjectName(QStringLiteral("captureBuffers"));
    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("Object"), tr("Kind"), tr("Size"), tr("Flags"), tr("Created"),
                                        tr("Lifetime"), tr("Context"), tr("Kernels")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);
    m_highlights->setObjectName(QStringLiteral("captureMemoryHighlights"));
    m_highlights->setWordWrap(true);
    m_highlights->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bars = new QWidget;
    auto *barsLayout = new QVBoxLayout(bars);
    barsLayout->setContentsMargins(0, 0, 0, 0);
    auto *barsTitle =
        new QLabel(tr("Lifetimes, one bar per memory object from create to release (hover for details)"));
    barsLayout->addWidget(barsTitle);
    barsLayout->addWidget(m_lifetimes, 1);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_chart);
    split->addWidget(bars);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_highlights);
    layout->addWidget(split, 1);
}

void CaptureMemoryView::setData(std::vector<CapturedBuffer> buffers,
                                const std::vector<CaptureContextSeries> &contexts, std::uint64_t first,
                                std::uint64_t last)
{
    m_buffers = std::move(buffers);
    for (const CapturedBuffer &b : m_buffers) {
        first = std::min(first, b.createdNs);
        last = std::max(last, endOf(b, b.createdNs));
    }
    if (first > last)
        first = last;

    // The chart: every context's live bytes summed, the largest context's, and the live objects.
    struct Step
    {
        std::uint64_t t;
        std::size_t context;
        double bytes;
    };
    std::vector<Step> steps;
    for (std::size_t c = 0; c < contexts.size(); ++c)
        for (const PoolSeriesPoint &p : contexts[c].series)
            steps.push_back({p.timestampNs, c, double(p.heldBytes)});
    std::sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) { return a.t < b.t; });
    std::vector<std::pair<std::uint64_t, int>> objectSteps;
    for (const CapturedBuffer &b : m_buffers) {
        if (b.kind == "sub-buffer")
            continue;
        objectSteps.push_back({b.createdNs, 1});
        if (b.releasedNs)
            objectSteps.push_back({*b.releasedNs, -1});
    }
    std::sort(objectSteps.begin(), objectSteps.end());
    m_history.clear();
    std::vector<double> perContext(contexts.size(), 0);
    double objects = 0;
    std::size_t o = 0;
    auto seconds = [first](std::uint64_t t) { return double(t - std::min(t, first)) / 1e9; };
    auto append = [&](std::uint64_t t) {
        double total = 0, largest = 0;
        for (double v : perContext) {
            total += v;
            largest = std::max(largest, v);
        }
        m_history.append(seconds(t), PoolValues{total, largest, total, objects, objects});
    };
    for (const Step &s : steps) {
        while (o < objectSteps.size() && objectSteps[o].first <= s.t)
            objects += objectSteps[o++].second;
        perContext[s.context] = s.bytes;
        append(s.t);
    }
    if (last > first)
        m_history.extendTo(seconds(last), m_history.isEmpty() ? PoolValues{} : m_history.lastValues());
    m_chart->refresh();
    m_lifetimes->setBuffers(&m_buffers, first, last);

    // The table, and the largest and longest-lived objects.
    m_table->setSortingEnabled(false);
    m_table->setRowCount(int(m_buffers.size()));
    const CapturedBuffer *largest = nullptr, *longest = nullptr;
    auto lifetime = [last](const CapturedBuffer &b) {
        return endOf(b, last) - std::min(endOf(b, last), b.createdNs);
    };
    for (std::size_t i = 0; i < m_buffers.size(); ++i) {
        const CapturedBuffer &b = m_buffers[i];
        if (b.kind != "sub-buffer" && (!largest || b.size > largest->size))
            largest = &b;
        if (!longest || lifetime(b) > lifetime(*longest))
            longest = &b;
        QStringList kernels;
        for (const std::string &k : b.kernels)
            kernels << qs(k);
        auto number = [](double sortKey, const QString &text) {
            auto *item = new QTableWidgetItem(text);
            item->setData(Qt::UserRole, sortKey);
            item->setData(Qt::InitialSortOrderRole, Qt::DescendingOrder);
            return item;
        };
        const int row = int(i);
        m_table->setItem(row, 0, number(double(b.id), QString::number(b.id)));
        m_table->setItem(row, 1, new QTableWidgetItem(qs(b.kind)));
        auto *size = new QTableWidgetItem;
        size->setData(Qt::DisplayRole, QVariant::fromValue<qulonglong>(b.size));
        size->setToolTip(bytesText(b.size));
        m_table->setItem(row, 2, size);
        m_table->setItem(row, 3, new QTableWidgetItem(memFlagsText(b.flags)));
        m_table->setItem(
            row, 4, new QTableWidgetItem(durationText(double(b.createdNs - std::min(b.createdNs, first)))));
        auto *life = new QTableWidgetItem(
            b.releasedNs ? durationText(double(lifetime(b)))
                         : tr("%1 (not released)").arg(durationText(double(lifetime(b)))));
        m_table->setItem(row, 5, life);
        m_table->setItem(row, 6, new QTableWidgetItem(QString::number(b.context)));
        m_table->setItem(row, 7, new QTableWidgetItem(kernels.join(QStringLiteral(", "))));
    }
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(2, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();

    std::uint64_t peak = 0;
    for (const CaptureContextSeries &c : contexts)
        for (const PoolSeriesPoint &p : c.series)
            peak = std::max(peak, p.heldBytes);
    if (m_buffers.empty()) {
        m_highlights->setText(tr("The program created no memory objects."));
    } else {
        m_highlights->setText(
            tr("%1 %2, peak %3 live in one context. Largest: %4 %5 (%6). "
               "Longest-lived: %7 %8 (%9).")
                .arg(QString::number(m_buffers.size()),
                     m_buffers.size() == 1 ? tr("memory object") : tr("memory objects"), bytesText(peak),
                     qs(largest ? largest->kind : std::string()), QString::number(largest ? largest->id : 0),
                     bytesText(largest ? largest->size : 0), qs(longest->kind), QString::number(longest->id),
                     durationText(double(lifetime(*longest)))));
    }
}

QString CaptureMemoryView::highlightsText() const
{
    return m_highlights->text();
}

} // namespace clscope::ui
