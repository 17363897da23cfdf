// The profiling panel offscreen: the events table fills, selection follows clicks on the timeline and the
// timeline follows the table, filters, mouse zoom/pan/rubber band, painting at several zooms, the
// histogram, exports, appending a run, Clear, zoom to the last run and to rows selected in the table,
// per-device statistics, lanes that name their device, an axis counted from the view start; and pictures of
// the panel zoomed out and in for a person to look at.
#include "display/recordformat.h"
#include "models/devicestatsmodel.h"
#include "models/eventtablemodel.h"
#include "models/kernelstatsmodel.h"
#include "widgets/timelinedock.h"
#include "widgets/timelinewidget.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

// QCustomPlot's header uses `foreach`, which the strict build forbids: allowed for this include only.
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach

using namespace clscope;
using namespace clscope::ui;
using Type = CommandRecord::Type;

namespace {

constexpr std::size_t kCommands = 3000;

// A kernel record of the given name on a given lane, away from the start of the run.
int findRecord(const std::vector<CommandRecord> &records, const std::string &name, std::size_t after)
{
    for (std::size_t i = after; i < records.size(); ++i) {
        if (records[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

// Zooms so that the record fills the middle third of the time area.
void zoomTo(TimelineWidget *timeline, const CommandRecord &r)
{
    const auto &g = timeline->geometry();
    const double start = g.relative(r.start);
    const double end = g.relative(r.end);
    const double d = end - start;
    timeline->setView(start - d, end + d);
}

QPoint centreOf(TimelineWidget *timeline, int record)
{
    const CommandRecord &r = (*timeline->records())[static_cast<std::size_t>(record)];
    const auto &g = timeline->geometry();
    const double x = timeline->timeLeft() + g.absoluteToX(r.start + r.duration() / 2);
    const QRect lane = timeline->laneRect(timeline->lanes().laneOf(static_cast<std::size_t>(record)));
    return {static_cast<int>(x), lane.top() + 2};
}

void sendWheel(QWidget *w, const QPoint &pos, int delta)
{
    QWheelEvent event(pos, w->mapToGlobal(pos), {}, {0, delta}, Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
}

void sendMouse(QWidget *w, QEvent::Type type, const QPoint &pos, Qt::MouseButton button,
               Qt::MouseButtons buttons)
{
    QMouseEvent event(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &event);
}

// How many pixels of a row are neither background nor grid.
int inkedPixels(const QImage &image, int y, int fromX, QRgb background, QRgb grid)
{
    int n = 0;
    for (int x = fromX; x < image.width(); ++x) {
        if (image.pixel(x, y) != background && image.pixel(x, y) != grid)
            ++n;
    }
    return n;
}

} // namespace

class TestTimelineDock : public QObject
{
    Q_OBJECT
private:
    std::vector<CommandRecord> m_records;
    std::vector<PoolSeriesPoint> m_pool;
    std::unique_ptr<TimelineDock> m_dock;

private slots:
    void initTestCase()
    {
        m_records = syntheticRecords(kCommands, 2, 4, 11);
        m_pool = syntheticPoolSeries(m_records, 500);
    }

    void init()
    {
        m_dock = std::make_unique<TimelineDock>();
        m_dock->resize(1400, 900);
        m_dock->setRecords(m_records, m_pool);
        m_dock->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_dock.get()));
    }

    void cleanup() { m_dock.reset(); }

    void fills()
    {
        QCOMPARE(m_dock->eventsModel()->rowCount(), int(m_records.size()));
        QCOMPARE(m_dock->eventsProxy()->rowCount(), int(m_records.size()));
        QCOMPARE(m_dock->timeline()->lanes().lanes().size(), std::size_t{9}); // host + 2 x 4 queues
        QCOMPARE(m_dock->timeline()->laneTitle(1), QStringLiteral("Synthetic GPU 0 / queue 0"));
        QVERIFY(m_dock->statsModel()->rowCount() >= 6);
        QVERIFY(m_dock->summaryLabel()->text().contains(QString::number(m_records.size())));
        // The heaviest group is selected and its histogram drawn.
        QVERIFY(m_dock->histogramGroup() >= 0);
        std::uint64_t sum = 0;
        for (std::uint64_t c : m_dock->histogramCounts())
            sum += c;
        QCOMPARE(sum, m_dock->statsModel()->stats(m_dock->histogramGroup()).count);
    }

    void timelineClickSelectsRow()
    {
        TimelineWidget *timeline = m_dock->timeline();
        const int record = findRecord(m_records, "matmul_tiled", 1000);
        QVERIFY(record >= 0);
        zoomTo(timeline, m_records[std::size_t(record)]);
        QSignalSpy selected(m_dock.get(), &TimelineDock::recordSelected);
        const QPoint pos = centreOf(timeline, record);
        QCOMPARE(timeline->recordAt(pos), record);
        QTest::mouseClick(timeline, Qt::LeftButton, {}, pos);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toInt(), record);
        QCOMPARE(m_dock->selectedRecord(), record);
        QCOMPARE(timeline->selectedRecord(), record);
        const QModelIndex current = m_dock->eventsView()->currentIndex();
        QCOMPARE(current.data(EventTableModel::RecordIndexRole).toInt(), record);
        QVERIFY(m_dock->eventsView()->selectionModel()->isRowSelected(current.row(), {}));
        // The statistics follow to the kernel, and the histogram with them.
        const int group = m_dock->histogramGroup();
        QCOMPARE(m_dock->statsModel()->stats(group).name, std::string("matmul_tiled"));
        QVERIFY(timeline->tooltipText(record).contains(QStringLiteral("matmul_tiled")));
        QVERIFY(timeline->tooltipText(record).contains(QStringLiteral("Duration")));

        // A click on empty space clears the selection.
        QTest::mouseClick(timeline, Qt::LeftButton, {},
                          QPoint(timeline->timeLeft() + 5, timeline->height() - 40));
        QCOMPARE(m_dock->selectedRecord(), -1);
        QVERIFY(!m_dock->eventsView()->selectionModel()->hasSelection());
    }

    void rowSelectsInTimeline()
    {
        TimelineWidget *timeline = m_dock->timeline();
        zoomTo(timeline, m_records[100]);
        const int record = findRecord(m_records, "reduce_sum", 2500);
        QVERIFY(record >= 0);
        QSignalSpy selected(m_dock.get(), &TimelineDock::recordSelected);
        QSignalSpy viewChanged(timeline, &TimelineWidget::viewChanged);
        QTableView *view = m_dock->eventsView();
        view->setCurrentIndex(m_dock->eventsProxy()->indexOfRecord(record));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(timeline->selectedRecord(), record);
        // Revealed: the view moved to it and it is on screen.
        QVERIFY(viewChanged.count() >= 1);
        const double x = timeline->recordX(record);
        QVERIFY2(x >= timeline->timeLeft() && x <= timeline->width(), qPrintable(QString::number(x)));
        QCOMPARE(m_dock->statsModel()->stats(m_dock->histogramGroup()).name, std::string("reduce_sum"));
    }

    void filters()
    {
        // The model tester checks every row after each change: a few hundred rows keep that quick.
        const std::vector<CommandRecord> records(m_records.begin(), m_records.begin() + 400);
        m_dock->setRecords(records);
        QAbstractItemModelTester tester(m_dock->eventsProxy(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto count = [&records](auto pred) {
            return int(std::count_if(records.begin(), records.end(), pred));
        };
        m_dock->filterEdit()->setText(QStringLiteral("MATMUL"));
        QCOMPARE(m_dock->eventsProxy()->rowCount(), count([](auto &r) { return r.name == "matmul_tiled"; }));
        QVERIFY(m_dock->summaryLabel()->text().contains(QStringLiteral("shown")));
        m_dock->filterEdit()->clear();
        m_dock->typeCombo()->setCurrentIndex(m_dock->typeCombo()->findData(int(Type::Read)));
        const int reads = count([](auto &r) { return r.type == Type::Read; });
        QVERIFY(reads > 0);
        QCOMPARE(m_dock->eventsProxy()->rowCount(), reads);
        m_dock->filterEdit()->setText(QStringLiteral("buf1"));
        QCOMPARE(m_dock->eventsProxy()->rowCount(),
                 count([](auto &r) { return r.type == Type::Read && r.name == "read buf1"; }));
        for (int row = 0; row < m_dock->eventsProxy()->rowCount(); ++row)
            QCOMPARE(m_dock->eventsProxy()->index(row, EventTableModel::TypeColumn).data().toString(),
                     QStringLiteral("read"));
        // A record hidden by the filter can still be selected on the timeline; the table then has no row.
        const int kernel = findRecord(records, "vector_add", 10);
        m_dock->selectRecord(kernel);
        QCOMPARE(m_dock->timeline()->selectedRecord(), kernel);
        QVERIFY(!m_dock->eventsView()->selectionModel()->hasSelection());
        m_dock->typeCombo()->setCurrentIndex(0);
        m_dock->filterEdit()->clear();
        QCOMPARE(m_dock->eventsProxy()->rowCount(), int(records.size()));
    }

    void sorting()
    {
        QTableView *view = m_dock->eventsView();
        view->sortByColumn(EventTableModel::DurationColumn, Qt::DescendingOrder);
        const auto *proxy = m_dock->eventsProxy();
        const auto first = proxy->index(0, 0).data(EventTableModel::RecordIndexRole).toInt();
        const auto second = proxy->index(1, 0).data(EventTableModel::RecordIndexRole).toInt();
        QVERIFY(m_records[std::size_t(first)].duration() >= m_records[std::size_t(second)].duration());
        // Selection still maps to the right record through the sorted proxy.
        view->setCurrentIndex(proxy->index(5, 0));
        QCOMPARE(m_dock->selectedRecord(), proxy->index(5, 0).data(EventTableModel::RecordIndexRole).toInt());
    }

    void mouseZoomPanAndBand()
    {
        TimelineWidget *timeline = m_dock->timeline();
        const QPoint centre(timeline->timeLeft() + 400, timeline->laneRect(1).center().y());
        const double timeUnderCursor = timeline->geometry().xToTime(400);
        sendWheel(timeline, centre, 120 * 4);
        QVERIFY(timeline->geometry().zoomFactor() > 2.3);
        QVERIFY(std::fabs(timeline->geometry().xToTime(400) - timeUnderCursor) <
                timeline->geometry().nsPerPixel());

        // Drag left by 100 px: the view moves to later times by 100 px worth.
        const double before = timeline->geometry().viewStart;
        const double nsPerPixel = timeline->geometry().nsPerPixel();
        sendMouse(timeline, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
        sendMouse(timeline, QEvent::MouseMove, centre - QPoint(50, 0), Qt::NoButton, Qt::LeftButton);
        sendMouse(timeline, QEvent::MouseMove, centre - QPoint(100, 0), Qt::NoButton, Qt::LeftButton);
        sendMouse(timeline, QEvent::MouseButtonRelease, centre - QPoint(100, 0), Qt::LeftButton,
                  Qt::NoButton);
        QVERIFY(std::fabs(timeline->geometry().viewStart - (before + 100 * nsPerPixel)) < nsPerPixel);
        QCOMPARE(m_dock->selectedRecord(), -1); // a drag is not a click

        // Right drag from x=200 to x=300 of the time area zooms to exactly that range.
        const double from = timeline->geometry().xToTime(200);
        const double to = timeline->geometry().xToTime(300);
        const int y = timeline->laneRect(2).center().y();
        const int left = timeline->timeLeft();
        sendMouse(timeline, QEvent::MouseButtonPress, {left + 200, y}, Qt::RightButton, Qt::RightButton);
        sendMouse(timeline, QEvent::MouseMove, {left + 250, y}, Qt::NoButton, Qt::RightButton);
        sendMouse(timeline, QEvent::MouseMove, {left + 300, y}, Qt::NoButton, Qt::RightButton);
        sendMouse(timeline, QEvent::MouseButtonRelease, {left + 300, y}, Qt::RightButton, Qt::NoButton);
        QCOMPARE(timeline->geometry().viewStart, from);
        QCOMPARE(timeline->geometry().viewEnd, to);

        QTest::mouseDClick(timeline, Qt::LeftButton, {}, centre);
        QCOMPARE(timeline->geometry().zoomFactor(), 1.0);
    }

    void paintsAtSeveralZooms()
    {
        TimelineWidget *timeline = m_dock->timeline();
        const QSize size = timeline->size(); // geometry and lane rectangles are the widget's
        const QRgb grid = timeline->palette().midlight().color().rgb();
        const QRgb background = timeline->palette().base().color().rgb();
        const QRgb alternate = timeline->palette().alternateBase().color().rgb();
        const int record = findRecord(m_records, "nbody_step", 1500);
        for (const double factor : {1.0, 10.0, 100.0, 1000.0}) {
            timeline->fitAll();
            const auto &g = timeline->geometry();
            const CommandRecord &r = m_records[std::size_t(record)];
            const double centre = g.relative(r.start + r.duration() / 2);
            const double span = g.rangeSpan() / factor;
            timeline->setView(centre - span / 2, centre + span / 2);
            const QImage image = timeline->renderImage(size);
            QCOMPARE(image.size(), size);
            const QRect lane = timeline->laneRect(timeline->lanes().laneOf(std::size_t(record)));
            const int y = lane.top() + 2;
            const QRgb shade = timeline->lanes().laneOf(std::size_t(record)) % 2 ? alternate : background;
            QVERIFY2(inkedPixels(image, y, timeline->timeLeft(), shade, grid) > 20,
                     qPrintable(QString::number(factor)));
            if (factor == 1000.0) {
                // Deep in, the box under the record's middle has the record's colour.
                const QColor expected = timelineColour(colourIndexFor(r));
                const int x = int(timeline->timeLeft() + g.absoluteToX(r.start + r.duration() / 2));
                QCOMPARE(QColor(image.pixel(x, y)), expected);
            }
        }
        m_dock->stagesCheck()->setChecked(true);
        QVERIFY(timeline->showStages());
        QVERIFY(!timeline->lanes().lanes()[1].queued.empty());
        QVERIFY(!timeline->renderImage(size).isNull());
    }

    void appendsRuns()
    {
        auto more = syntheticRecords(100, 2, 4, 99);
        const std::uint64_t shift = m_records.back().end + 1'000'000 - more.front().start;
        for (CommandRecord &r : more) {
            for (std::uint64_t *t : {&r.queued, &r.submit, &r.start, &r.end, &r.hostSubmitNs})
                *t += shift;
            if (r.complete)
                *r.complete += shift;
        }
        m_dock->appendRecords(more);
        QCOMPARE(m_dock->eventsModel()->rowCount(), int(m_records.size() + more.size()));
        QCOMPARE(m_dock->timeline()->records()->size(), m_records.size() + more.size());
        std::uint64_t last = 0;
        for (const CommandRecord &r : more)
            last = std::max(last, r.end);
        QCOMPARE(m_dock->timeline()->lanes().last(), last);
    }

    void clearButton()
    {
        auto *clear = m_dock->findChild<QToolButton *>(QStringLiteral("timelineClear"));
        QVERIFY(clear);
        clear->click();
        QCOMPARE(m_dock->records().size(), std::size_t{0});
        QCOMPARE(m_dock->eventsModel()->rowCount(), 0);
        QCOMPARE(m_dock->statsModel()->rowCount(), 0);
        QCOMPARE(m_dock->deviceStatsModel()->rowCount(), 0);
        QVERIFY(m_dock->poolSeries().empty());
        QCOMPARE(m_dock->timeline()->lanes().lanes().size(), std::size_t{1}); // the host lane only
        QVERIFY(!m_dock->timeline()->renderImage(m_dock->timeline()->size()).isNull());
        // The next run starts a new timeline.
        m_dock->appendRecords(std::vector<CommandRecord>(m_records.begin(), m_records.begin() + 10));
        QCOMPARE(m_dock->eventsModel()->rowCount(), 10);
    }

    void zoomToLastRun()
    {
        auto more = syntheticRecords(100, 2, 4, 99);
        const std::uint64_t shift = m_records.back().end + 50'000'000 - more.front().start;
        for (CommandRecord &r : more) {
            for (std::uint64_t *t : {&r.queued, &r.submit, &r.start, &r.end, &r.hostSubmitNs})
                *t += shift;
        }
        std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
        std::uint64_t last = 0;
        for (const CommandRecord &r : more) {
            if (r.type != CommandRecord::Type::Kernel || r.hostSpan)
                continue; // the launches are what a run is about (TimelineData: lastRunSpan)
            first = std::min(first, r.start);
            last = std::max(last, r.end);
        }
        // The run's build, on the host lane, took far longer than its commands: it is not what is framed.
        CommandRecord build;
        build.type = CommandRecord::Type::Build;
        build.name = "Build";
        build.queue = "host";
        build.hostSpan = true;
        build.start = first - 40'000'000;
        build.end = first - 1000;
        more.insert(more.begin(), build);
        m_dock->appendRecords(more);
        QCOMPARE(m_dock->lastRunBegin(), m_records.size());
        TimelineWidget *timeline = m_dock->timeline();
        QCOMPARE(timeline->geometry().zoomFactor(), 1.0);
        m_dock->findChild<QToolButton *>(QStringLiteral("timelineLastRun"))->click();
        const auto &g = timeline->geometry();
        const double from = g.relative(first);
        const double to = g.relative(last);
        QVERIFY(g.viewStart <= from && g.viewEnd >= to);
        QVERIFY2(g.span() <= (to - from) * 1.05, qPrintable(QString::number(g.span() / (to - from))));
        QVERIFY(g.zoomFactor() > 2);
        // After a fresh setRecords() the last run is everything.
        m_dock->setRecords(more);
        QCOMPARE(m_dock->lastRunBegin(), std::size_t{0});
        QVERIFY(m_dock->zoomToLastRun());
    }

    void zoomToTableSelection()
    {
        TimelineWidget *timeline = m_dock->timeline();
        const int a = findRecord(m_records, "matmul_tiled", 1000);
        const int b = findRecord(m_records, "matmul_tiled", std::size_t(a) + 40);
        QVERIFY(a >= 0 && b > a);
        QTableView *view = m_dock->eventsView();
        QItemSelectionModel *selection = view->selectionModel();
        // Click a, then Ctrl-click b: two rows selected, the view spans both.
        view->setCurrentIndex(m_dock->eventsProxy()->indexOfRecord(a));
        QCOMPARE(m_dock->selectedRecord(), a);
        selection->setCurrentIndex(m_dock->eventsProxy()->indexOfRecord(b),
                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(m_dock->selectedRows(), (std::vector<std::size_t>{std::size_t(a), std::size_t(b)}));
        const auto &g = timeline->geometry();
        const CommandRecord &ra = m_records[std::size_t(a)];
        const CommandRecord &rb = m_records[std::size_t(b)];
        const double from = g.relative(std::min(ra.start, rb.start));
        const double to = g.relative(std::max(ra.end, rb.end));
        QVERIFY(g.viewStart <= from && g.viewEnd >= to);
        QVERIFY2(g.span() <= (to - from) * 1.05 + 2 * g.minSpan,
                 qPrintable(QString::number(g.span() / (to - from))));
        QVERIFY(g.zoomFactor() > 5);
        // Both rows stay selected (picking a row in the table does not reselect it alone).
        QCOMPARE(selection->selectedRows().size(), 2);
        // The button does the same for what is selected.
        timeline->fitAll();
        m_dock->findChild<QToolButton *>(QStringLiteral("timelineZoomSelection"))->click();
        QVERIFY(timeline->geometry().zoomFactor() > 5);
    }

    void deviceStatistics()
    {
        DeviceStatsModel *model = m_dock->deviceStatsModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 2);
        std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> expected; // count, total
        for (const CommandRecord &r : m_records) {
            if (r.type == Type::Kernel && !r.hostSpan && r.start && r.end >= r.start) {
                ++expected[r.device].first;
                expected[r.device].second += r.duration();
            }
        }
        for (const DeviceKernelStats &s : model->stats()) {
            QCOMPARE(s.kernels, expected[s.device].first);
            QCOMPARE(s.totalNs, expected[s.device].second);
        }
        QCOMPARE(model->index(0, DeviceStatsModel::DeviceColumn).data().toString(),
                 QStringLiteral("Synthetic GPU 0"));
        QCOMPARE(model->index(0, DeviceStatsModel::MeanColumn).data().toString(),
                 durationText(model->stats().front().meanNs()));
        QCOMPARE(m_dock->deviceStatsView()->model()->rowCount(), 2);
    }

    void lanesNameTheirDevice()
    {
        TimelineWidget *timeline = m_dock->timeline();
        QCOMPARE(timeline->laneLabelLines(0), QStringList{QStringLiteral("Host")});
        QCOMPARE(timeline->laneLabelLines(1),
                 (QStringList{QStringLiteral("queue 0"), QStringLiteral("Synthetic GPU 0")}));
        QCOMPARE(timeline->laneLabelLines(8),
                 (QStringList{QStringLiteral("queue 3"), QStringLiteral("Synthetic GPU 1")}));
    }

    void axisCountsFromViewStart()
    {
        TimelineWidget *timeline = m_dock->timeline();
        const auto &g = timeline->geometry();
        timeline->setView(g.rangeSpan() / 2, g.rangeSpan() / 2 + 300'000);
        QCOMPARE(timeline->axisCaption(g),
                 QStringLiteral("from %1 (300 \u00b5s)").arg(durationText(g.viewStart)));
    }

    void exports()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("t.json"));
        QCOMPARE(m_dock->exportTrace(trace), QString());
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        int slices = 0;
        for (const QJsonValue &e : root.value(QStringLiteral("traceEvents")).toArray())
            slices += e.toObject().value(QStringLiteral("ph")).toString() == QStringLiteral("X");
        QCOMPARE(slices, int(m_records.size()));
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        QCOMPARE(m_dock->exportCsv(csv), QString());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll().count("\r\n"), qsizetype(m_records.size() + 1));
        const QString png = dir.filePath(QStringLiteral("p.png"));
        QCOMPARE(m_dock->exportPng(png), QString());
        QVERIFY(!QImage(png).isNull());
        QVERIFY(!m_dock->exportCsv(QStringLiteral("/nonexistent/dir/c.csv")).isEmpty());
    }

    // Pictures for a person: zoomed out, and zoomed in with stages and a selection.
    void screenshots()
    {
        m_dock->resize(1500, 950);
        m_dock->timeline()->fitAll();
        m_dock->histogramPlot()->replot();
        QVERIFY(m_dock->grab().save(QStringLiteral("/tmp/clscope-timeline-dock-fit.png")));

        const int record = findRecord(m_records, "matmul_tiled", 1200);
        m_dock->stagesCheck()->setChecked(true);
        m_dock->selectRecord(record);
        const CommandRecord &r = m_records[std::size_t(record)];
        const auto &g = m_dock->timeline()->geometry();
        const double centre = g.relative(r.start);
        m_dock->timeline()->setView(centre - 120'000, centre + 180'000);
        m_dock->histogramPlot()->replot();
        QVERIFY(m_dock->grab().save(QStringLiteral("/tmp/clscope-timeline-dock-zoom.png")));
        m_dock->findChild<QTabWidget *>(QStringLiteral("timelineStatsTabs"))->setCurrentIndex(1);
        QVERIFY(m_dock->grab().save(QStringLiteral("/tmp/clscope-timeline-dock-devices.png")));
    }
};

QTEST_MAIN(TestTimelineDock)
#include "tst_timelinedock.moc"
