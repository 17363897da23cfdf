// Generated code, the build matrix and run on all devices in the real main window, offscreen, on PoCL and
// Oclgrind: Show generated code lists the build's device with PoCL's LLVM IR (or the note that says what to
// install), the matrix dialog's table has a row per option set and a column per device and can diff two
// cells' code, Run on all devices gives a row per device whose outputs agree; and the run-all table flags a
// row that differs.
#include "controllers/devicemanager.h"
#include "controllers/matrixcontroller.h"
#include "controllers/runallcontroller.h"
#include "widgets/buildmatrixdialog.h"
#include "widgets/codediffview.h"
#include "widgets/codelexer.h"
#include "widgets/codeview.h"
#include "widgets/editortabs.h"
#include "widgets/findbar.h"
#include "widgets/generatedcodedialog.h"
#include "widgets/runalldialog.h"
#include "windowparts.h"
#include "windows/comparecoordinator.h"
#include "windows/mainwindow.h"
#include "workers/deviceworkers.h"

#include "../testicd.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

class TestCompareGui : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    QTemporaryDir m_cache;
    std::unique_ptr<MainWindow> m_window;
    bool m_haveOclgrind = false;

    CompareCoordinator *compare() const { return part<CompareCoordinator>(*m_window); }

private slots:
    void initTestCase()
    {
        m_haveOclgrind = clscope::test::setUpVendors(m_vendors, false);
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_cache.path().toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
        QVERIFY(part<DeviceManager>(*m_window)->currentDeviceSnapshot());
        QVERIFY(part<EditorTabs>(*m_window)->openSample(QStringLiteral("vector_add.cl")));
    }

    void codeViewShowsIrOrTheInstallNote()
    {
        CompareCoordinator *c = compare();
        GeneratedCodeDialog *dialog = c->codeDialog();
        QSignalSpy shown(dialog, &GeneratedCodeDialog::shown);
        c->codeAction()->trigger(); // builds first: nothing was built yet
        QVERIFY(shown.wait(240000) || dialog->isSettled());
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->entryNames().size(), 1);
        QVERIFY(dialog->entryNames().front().startsWith(QStringLiteral("Current build — ")));
        const CodeView *view = dialog->codeView();
        QVERIFY(view->headerText().contains(QStringLiteral("LLVM")));
        const QString text = view->editor()->text();
        if (text.isEmpty()) {
            QVERIFY2(view->noteText().contains(QStringLiteral("install")), qPrintable(view->noteText()));
        } else {
            QVERIFY(text.contains(QStringLiteral("vector_add")) && text.contains(QStringLiteral("define")));
            // Searchable, not editable: the find bar finds, and replaces nothing.
            FindBar *find = view->findBar();
            find->findField()->setText(QStringLiteral("@vector_add"));
            QVERIFY(find->findNext(true));
            QCOMPARE(view->editor()->selectedText(), QStringLiteral("@vector_add"));
            find->replaceField()->setText(QStringLiteral("x"));
            QCOMPARE(find->replaceAll(), 0);
            QCOMPARE(view->editor()->text(), text);
        }
        QVERIFY(view->editor()->isReadOnly());
        // The window's own find bar is still the only "findBar".
        QCOMPARE(m_window->findChildren<FindBar *>(QStringLiteral("findBar")).size(), 1);
        dialog->close();
    }

    void matrixTableHasARowPerSetAndAColumnPerDevice()
    {
        CompareCoordinator *c = compare();
        QSignalSpy finished(c->matrix(), &MatrixController::finished);
        BuildMatrixDialog *dialog =
            c->showMatrix(QStringLiteral("-cl-opt-disable|-cl-fast-relaxed-math|-cl-mad-enable -DN=1"), true);
        QVERIFY(finished.wait(300000));
        const int devices = int(c->allDevices().size());
        QCOMPARE(devices, m_haveOclgrind ? 2 : 1);
        QTableWidget *table = dialog->table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->columnCount(), devices);
        QCOMPARE(table->verticalHeaderItem(1)->text(), QStringLiteral("-cl-fast-relaxed-math"));
        for (int r = 0; r < 3; ++r) {
            for (int col = 0; col < devices; ++col)
                QVERIFY2(table->item(r, col)->text().startsWith(QStringLiteral("built in")),
                         qPrintable(table->item(r, col)->text()));
        }
        // A cell's log below the table.
        table->setCurrentCell(0, 0);
        QVERIFY(dialog->logText().contains(QStringLiteral("Options: -cl-opt-disable")));

        // Two cells selected: their code side by side.
        table->clearSelection();
        table->setRangeSelected(QTableWidgetSelectionRange(0, 0, 1, 0), true);
        auto *diff = dialog->findChild<QPushButton *>(QStringLiteral("matrixDiffCode"));
        QVERIFY(diff->isEnabled());
        GeneratedCodeDialog *code = c->codeDialog();
        QSignalSpy shown(code, &GeneratedCodeDialog::shown);
        diff->click();
        QVERIFY(code->diffMode());
        QVERIFY(code->isSettled() || shown.wait(120000));
        QVERIFY(!code->diffView()->rows().empty());
        QVERIFY(code->diffView()->summaryText().contains(QStringLiteral("line")));
        code->close();
        dialog->close();
    }

    void runOnAllDevicesFromTheMenu()
    {
        CompareCoordinator *c = compare();
        QSignalSpy finished(c->runAll(), &RunAllController::finished);
        c->runAllAction()->trigger();
        QVERIFY(finished.wait(300000));
        RunAllDialog *dialog = c->runAllDialog();
        QVERIFY(dialog->isVisible());
        const int devices = int(c->allDevices().size());
        QCOMPARE(dialog->table()->rowCount(), devices);
        QCOMPARE(dialog->table()->item(0, RunAllDialog::OutputsColumn)->text(), QStringLiteral("reference"));
        for (int r = 0; r < devices; ++r)
            QVERIFY2(!dialog->isFlagged(r),
                     qPrintable(dialog->table()->item(r, RunAllDialog::DetailsColumn)->text()));
        if (devices > 1)
            QCOMPARE(dialog->table()->item(1, RunAllDialog::OutputsColumn)->text(),
                     QStringLiteral("✓ agree"));
        QVERIFY(dialog->summaryText().contains(QStringLiteral("agree")));
        dialog->close();
    }

    void differingRowIsFlagged()
    {
        RunAllController controller(std::make_shared<DeviceWorkers>());
        RunAllDialog dialog(&controller);
        RunAllRow reference;
        reference.device = {nullptr, QStringLiteral("cpu-a"), QStringLiteral("A")};
        reference.done = reference.ran = reference.reference = true;
        reference.medianNs = 1500;
        reference.launches = 3;
        RunAllRow same = reference;
        same.device.name = QStringLiteral("cpu-b");
        same.reference = false;
        same.compared = true;
        BufferComparison ok;
        ok.name = "c";
        same.buffers = {ok};
        RunAllRow differs = same;
        differs.device.name = QStringLiteral("cpu-c");
        BufferComparison bad;
        bad.name = "c";
        bad.exact = false;
        bad.compared = 1024;
        bad.differing = 3;
        bad.maxAbs = 0.25;
        bad.maxRel = 0.01;
        differs.buffers = {bad};
        RunAllRow failed;
        failed.device.name = QStringLiteral("cpu-d");
        failed.done = true;
        failed.error = QStringLiteral("the build failed");
        dialog.showRows({reference, same, differs, failed}, true);
        QTableWidget *t = dialog.table();
        QCOMPARE(t->rowCount(), 4);
        QVERIFY(!dialog.isFlagged(0));
        QVERIFY(!dialog.isFlagged(1));
        QVERIFY(dialog.isFlagged(2));
        QVERIFY(dialog.isFlagged(3));
        QCOMPARE(t->item(2, RunAllDialog::OutputsColumn)->text(), QStringLiteral("✗ differ"));
        QVERIFY(t->item(2, RunAllDialog::OutputsColumn)->font().bold());
        QVERIFY(t->item(2, RunAllDialog::DetailsColumn)->text().contains(QStringLiteral("3 of 1024 differ")));
        QCOMPARE(t->item(3, RunAllDialog::DetailsColumn)->text(), QStringLiteral("the build failed"));
        QCOMPARE(dialog.summaryText(), QStringLiteral("1 device(s) differ from cpu-a; 1 failed."));
    }

    void matrixCellTexts()
    {
        MatrixCellResult failed;
        failed.done = true;
        failed.cell.buildMs = 12;
        failed.cell.errors = 2;
        failed.cell.firstError = "k.cl:3: use of undeclared identifier 'x'";
        QCOMPARE(matrixCellText(failed),
                 QStringLiteral("FAILED in 12 ms · 2 error(s)\nk.cl:3: use of undeclared identifier 'x'"));
        MatrixCellResult built;
        built.done = true;
        built.cell.success = true;
        built.cell.buildMs = 250;
        built.cell.binaryBytes = 2048;
        KernelInfo k;
        k.name = "scale";
        WorkGroupInfo w;
        w.workGroupSize = 256;
        w.preferredWorkGroupSizeMultiple = 32;
        k.workGroups = {w};
        built.cell.kernels = {k};
        KernelResources r;
        r.kernel = "scale";
        r.registers = 18;
        r.spillStores = 0;
        r.spillLoads = 0;
        r.stackFrame = 0;
        built.cell.resources = {r};
        built.medianNs = 1234;
        built.launches = 5;
        const QString text = matrixCellText(built);
        QVERIFY2(text.startsWith(QStringLiteral("built in 250 ms · 0 warning(s)\nbinary 2 KiB\n")),
                 qPrintable(text));
        QVERIFY(text.contains(
            QStringLiteral("scale: work-group ≤ 256, multiple of 32\n  local 0 B · private 0 B")));
        QVERIFY(text.contains(QStringLiteral("18 registers · spills 0/0 B")));
        QVERIFY(text.contains(QStringLiteral("(median of 5)")));
    }

    void lexerStyles_data()
    {
        // One letter per byte: d default, c comment, k keyword, t type, r register, g global, n number,
        // s string, . directive.
        QTest::addColumn<int>("language");
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QByteArray>("styles");
        QTest::newRow("llvm") << int(CodeLanguage::LlvmIr) << QByteArray("%1 = load float, ptr @g ; x")
                              << QByteArray("rrdddkkkkdtttttddtttdggdccc");
        QTest::newRow("llvm string") << int(CodeLanguage::LlvmIr) << QByteArray("c\"ab\"")
                                     << QByteArray("dssss");
        QTest::newRow("ptx") << int(CodeLanguage::Ptx) << QByteArray("ld.global.f32 %f1, [%rd4]; // c")
                             << QByteArray("kkkkkkkkkkkkkdrrrdddrrrrdddcccc");
        QTest::newRow("ptx directive")
            << int(CodeLanguage::Ptx) << QByteArray(".reg .b32 %r<9>;") << QByteArray("....d....drrdndd");
        QTest::newRow("spir-v") << int(CodeLanguage::SpirV) << QByteArray("%5 = OpLoad %float %4 ; c")
                                << QByteArray("rrdddkkkkkkdrrrrrrdrrdccc");
    }
    void lexerStyles()
    {
        QFETCH(int, language);
        QFETCH(QByteArray, line);
        QFETCH(QByteArray, styles);
        CodeLexer lexer;
        lexer.setLanguage(CodeLanguage(language));
        const QByteArray got = lexer.styleLine(line);
        QByteArray letters;
        for (char style : got)
            letters += "dcktrgns."[int(style)];
        QCOMPARE(letters, styles);
    }

    void codeWithoutTextSaysWhatToInstall()
    {
        CodeView view;
        GeneratedCode spirv;
        spirv.kind = CodeKind::SpirV;
        spirv.binaryBytes = 1200;
        spirv.note = "no spirv-dis: install spirv-tools";
        view.setCode(QStringLiteral("build — device"), spirv);
        QVERIFY(view.editor()->text().isEmpty());
        QCOMPARE(view.noteText(), QStringLiteral("no spirv-dis: install spirv-tools"));
        QVERIFY(view.headerText().contains(QStringLiteral("SPIR-V")));
        GeneratedCode ptx;
        ptx.kind = CodeKind::Ptx;
        ptx.text = "//\n.version 8.0\n.visible .entry scale(\n)\n{\n\tret;\n}\n";
        view.setCode(QStringLiteral("build — gpu"), ptx);
        QVERIFY(view.noteText().isEmpty());
        int line = 0, index = 0;
        view.editor()->getCursorPosition(&line, &index);
        QCOMPARE(line, 2); // at the kernel's entry
    }

    void windowFindBarStillReplaces()
    {
        // FindBar now takes the editor it acts on; the window's still acts on the current tab and replaces.
        FindBar *find = m_window->findChild<FindBar *>(QStringLiteral("findBar"));
        QVERIFY(find);
        find->findField()->setText(QStringLiteral("__global const float"));
        find->replaceField()->setText(QStringLiteral("__global const float"));
        QVERIFY(find->findNext(true));
        QCOMPARE(find->replaceAll(), 2);
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestCompareGui)
#include "tst_comparegui.moc"
