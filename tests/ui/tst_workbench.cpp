// The Workbench context between the Arguments panel and the coordinators, without a window or a device: a
// good build reaches the panel through it, what the panel shows (typed, chosen, set) is published there and
// read by the run coordinator (which `// clscope-run:` launch a new tab's first build takes, what Run asks),
// and a launch opened from elsewhere (a captured one) reaches the panel.
#include "controllers/devicemanager.h"
#include "controllers/workbench.h"
#include "widgets/argumentspanel.h"
#include "widgets/resultsviewer.h"
#include "widgets/runhistory.h"
#include "windows/runcoordinator.h"
#include "workers/deviceworkers.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest/QtTest>

using namespace clscope;
using namespace clscope::ui;

namespace {

KernelArg arg(const char *name, AddressQualifier address, const char *type)
{
    KernelArg a;
    a.name = name;
    a.address = address;
    a.typeName = type;
    return a;
}

// A good build of two kernels, as a driver would describe them: scale(out, n) and count(n).
WorkbenchProgram twoKernels(QObject *editor, const QString &text)
{
    BuildResultData data;
    data.status = BuildStatus::Success;
    data.source = text.toStdString();
    KernelInfo scale{
        "scale",
        {arg("out", AddressQualifier::Global, "float*"), arg("n", AddressQualifier::Private, "uint")},
        ArgInfoSource::Driver,
        {},
        {}};
    KernelInfo count{"count", {arg("n", AddressQualifier::Private, "uint")}, ArgInfoSource::Driver, {}, {}};
    data.kernels = {scale, count};
    WorkbenchProgram program;
    program.result = BuildResult(std::move(data));
    program.editor = editor;
    program.title = QStringLiteral("two.cl");
    program.text = text;
    return program;
}

// Builds nothing: every request is refused with the same reason.
class RefusingBuilder : public ProgramBuilder
{
public:
    bool buildThen(std::function<void()>, std::function<void(const QString &)> refused) override
    {
        ++asked;
        refused(QStringLiteral("the test builds nothing"));
        return false;
    }
    WorkbenchProgram programNow() const override { return {}; }
    void showRunDiagnostics(const std::vector<Diagnostic> &) override {}
    int asked = 0;
};

} // namespace

class TestWorkbench : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        // The panel remembers values per kernel in QSettings: each test starts from none.
        QCoreApplication::setOrganizationName(QStringLiteral("clscope-test-workbench"));
        QSettings().clear();
    }

    void panelPublishesWhatItShows()
    {
        Workbench workbench;
        ArgumentsPanel panel;
        panel.setWorkbench(&workbench);
        QCOMPARE(workbench.launchView(), static_cast<LaunchView *>(&panel));
        QSignalSpy changed(&workbench, &Workbench::launchChanged);

        // A good build reaches the panel through the context; its launch comes back.
        QObject editor;
        workbench.setProgram(twoKernels(&editor, QStringLiteral("kernel text")));
        QCOMPARE(panel.currentKernel(), QStringLiteral("scale"));
        QCOMPARE(workbench.launch().kernel, QStringLiteral("scale"));
        QVERIFY(changed.size() > 0);

        // A value set in a row, the range, a read-back, the repeat: each is in the context at once.
        QVERIFY(panel.applySpec(QStringLiteral("n=uint:77")));
        QVERIFY(workbench.launch().specs.contains(QStringLiteral("n=77")));
        panel.setRange(QStringLiteral("256"), QStringLiteral("64"));
        QCOMPARE(workbench.launch().global, QStringLiteral("256"));
        QCOMPARE(workbench.launch().local, QStringLiteral("64"));
        panel.setReadBack(QStringLiteral("out"), true);
        QCOMPARE(workbench.launch().readBack, QStringList{QStringLiteral("out")});
        panel.setRepeat(3);
        QCOMPARE(workbench.launch().repeat, 3);
        QCOMPARE(workbench.launch(), panel.state());

        // The user picks the other kernel in the combo box.
        auto *choice = panel.findChild<QComboBox *>(QStringLiteral("kernelChoice"));
        QVERIFY(choice);
        const int before = int(changed.size());
        choice->setCurrentIndex(choice->findText(QStringLiteral("count")));
        QCOMPARE(workbench.launch().kernel, QStringLiteral("count"));
        QVERIFY(changed.size() > before);

        // A failed build leaves the panel with the kernels of the last good one.
        WorkbenchProgram failed;
        failed.editor = &editor;
        workbench.setProgram(failed);
        QCOMPARE(panel.kernelNames(), (QStringList{QStringLiteral("scale"), QStringLiteral("count")}));
        QVERIFY(!workbench.program().result.success());
    }

    void coordinatorReadsThePublishedLaunch()
    {
        auto workers = std::make_shared<DeviceWorkers>();
        Workbench workbench;
        RefusingBuilder builder;
        workbench.setBuilder(&builder);
        ArgumentsPanel panel;
        panel.setWorkbench(&workbench);
        DeviceManager devices;
        ResultsViewer results;
        RunHistoryPanel history;
        QStatusBar status;
        RunCoordinator runs(workers, &workbench, &devices, &results, &history, &status);

        QObject first;
        workbench.setProgram(twoKernels(&first, QStringLiteral("first tab")));
        runs.onProgramBuilt(workbench.program().result, nullptr);
        // The user works on count.
        panel.setCurrentKernel(QStringLiteral("count"));
        QCOMPARE(workbench.launch().kernel, QStringLiteral("count"));

        // A new tab's first good build with a launch for each kernel: the coordinator takes the one of the
        // kernel the published launch is of, not the first.
        QObject second;
        const QString text = QStringLiteral("// clscope-run: --kernel scale --global 16 --arg n=uint:16\n"
                                            "// clscope-run: --kernel count --global 32 --arg n=uint:5\n");
        workbench.setProgram(twoKernels(&second, text));
        runs.onProgramBuilt(workbench.program().result, nullptr);
        QCOMPARE(panel.currentKernel(), QStringLiteral("count"));
        QCOMPARE(panel.state().global, QStringLiteral("32"));
        QVERIFY(workbench.launch().specs.contains(QStringLiteral("n=5")));

        // Run in the panel reaches the coordinator through the context; its refusal comes back to the panel.
        QSignalSpy refused(&runs, &RunCoordinator::runRefused);
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QCOMPARE(builder.asked, 1);
        QCOMPARE(refused.size(), 1);
        bool shown = false;
        for (const QLabel *label : panel.findChildren<QLabel *>())
            shown |= label->text() == QStringLiteral("Not run: the test builds nothing");
        QVERIFY(shown);
    }

    void openLaunchReachesThePanel()
    {
        Workbench workbench;
        ArgumentsPanel panel;
        panel.setWorkbench(&workbench);
        QObject editor;
        workbench.setProgram(twoKernels(&editor, QStringLiteral("kernel text")));
        panel.setCurrentKernel(QStringLiteral("count"));

        // What the capture side asks: a captured launch of scale, one argument the program does not have.
        ArgumentsState open;
        open.kernel = QStringLiteral("scale");
        open.specs = {QStringLiteral("out=buffer:float:64:iota"), QStringLiteral("n=uint:64"),
                      QStringLiteral("gone=uint:1")};
        open.global = QStringLiteral("64");
        open.repeat = 1;
        open.readBack = {QStringLiteral("out")};
        QSignalSpy requested(&workbench, &Workbench::launchRequested);
        const QStringList problems = workbench.openLaunch(open);
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.at(0).at(0).value<ArgumentsState>().kernel, QStringLiteral("scale"));
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.at(0).contains(QStringLiteral("gone")), qPrintable(problems.at(0)));

        QCOMPARE(panel.currentKernel(), QStringLiteral("scale"));
        const ArgumentsState shown = panel.state();
        QVERIFY(shown.specs.contains(QStringLiteral("n=64")));
        QCOMPARE(shown.global, QStringLiteral("64"));
        QCOMPARE(shown.readBack, QStringList{QStringLiteral("out")});
        // And what the panel shows is the context's launch again.
        QCOMPARE(workbench.launch(), shown);
        QString error;
        const auto request = workbench.launchView()->makeRequest(&error);
        QVERIFY2(request, qPrintable(error));
        QCOMPARE(request->kernel, std::string("scale"));
    }

    void noLaunchViewSaysSo()
    {
        Workbench workbench;
        QCOMPARE(workbench.openLaunch({}).size(), 1);
    }
};

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
