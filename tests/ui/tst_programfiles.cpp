// Programs that are not OpenCL C through the real main window, offscreen (issue 14: binaries from the CLI
// and the GUI, SPIR-V told by its magic number, built-in kernels by name): a device binary of vector_add
// (the program's CL_PROGRAM_BINARIES on PoCL, as pyopencl's program.binaries) opened with File → Open
// becomes a read-only program tab; Ctrl+B builds it with clCreateProgramWithBinary, its kernel and arguments
// come from the driver, F5 runs it with the source's result and does not build again until the file
// changes. A SPIR-V file is told by its first bytes (PoCL here takes none, and says so); built-in kernels a
// device lacks fail naming the ones it has.
#include "controllers/devicemanager.h"
#include "widgets/argumentspanel.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "windowparts.h"
#include "windows/buildcoordinator.h"
#include "windows/mainwindow.h"
#include "windows/runcoordinator.h"

#include "clscope/build.h"

#include <QDateTime>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::part;

class TestProgramFiles : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    EditorTabs *tabs() const { return part<EditorTabs>(*m_window); }
    BuildCoordinator *builds() const { return part<BuildCoordinator>(*m_window); }

    // The binary of vector_add built for the window's device, written to PATH.
    bool writeBinary(const QString &path)
    {
        const DeviceSnapshot *device = part<DeviceManager>(*m_window)->currentDeviceSnapshot();
        if (!device)
            return false;
        BuildRequest request;
        request.devices = {device->id};
        request.sourcePath = CLSCOPE_SOURCE_DIR "/resources/kernels/vector_add.cl";
        const BuildResult built = buildProgram(request, BinaryCache());
        if (!built.success())
            return false;
        std::size_t size = 0;
        clGetProgramInfo(built.program(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
        std::vector<unsigned char> bytes(size);
        unsigned char *data = bytes.data();
        if (size == 0 ||
            clGetProgramInfo(built.program(), CL_PROGRAM_BINARIES, sizeof data, &data, nullptr) != CL_SUCCESS)
            return false;
        QFile f(path);
        return f.open(QIODevice::WriteOnly) &&
               f.write(reinterpret_cast<const char *>(bytes.data()), qint64(size)) == qint64(size);
    }

    std::optional<BuildResult> buildWithCtrlB(QString *failure = nullptr)
    {
        QSignalSpy done(builds(), &BuildCoordinator::buildFinished);
        QSignalSpy failed(builds(), &BuildCoordinator::buildFailed);
        QTest::keyClick(m_window.get(), Qt::Key_B, Qt::ControlModifier);
        for (int i = 0; i < 1200 && done.isEmpty() && failed.isEmpty(); ++i)
            QTest::qWait(100);
        if (!failed.isEmpty() && failure)
            *failure = failed.at(0).at(0).toString();
        if (done.isEmpty())
            return std::nullopt;
        return done.at(0).at(0).value<BuildResult>();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CLSCOPE_CACHE_DIR", m_dir.filePath(QStringLiteral("cache")).toLocal8Bit());
        qputenv("CLSCOPE_DEVICE", "pocl");
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QSignalSpy ready(m_window.get(), &MainWindow::ready);
        QVERIFY(m_window->isReady() || ready.wait(120000));
    }

    void deviceBinary()
    {
        const QString binary = m_dir.filePath(QStringLiteral("vector_add.bin"));
        QVERIFY(writeBinary(binary));
        QVERIFY(tabs()->openFile(binary));
        QCOMPARE(tabs()->programKind(), QStringLiteral("binary"));
        QCOMPARE(tabs()->title(), QStringLiteral("vector_add.bin"));
        QVERIFY(tabs()->currentEditor()->isReadOnly());
        QVERIFY(tabs()->currentEditor()->text().contains(QStringLiteral("clCreateProgramWithBinary")));
        const std::optional<BuildResult> built = buildWithCtrlB();
        QVERIFY(built && built->success());
        ArgumentsPanel *panel = part<ArgumentsPanel>(*m_window);
        QCOMPARE(panel->kernelNames(), QStringList{QStringLiteral("vector_add")});
        QString error;
        for (const char *spec :
             {"a=buffer:float:64:iota", "b=buffer:float:64:fill=2", "c=buffer:float:64:zeros", "n=uint:64"})
            QVERIFY2(panel->applySpec(QString::fromLatin1(spec), &error), qPrintable(error));
        panel->setRange(QStringLiteral("64"), QString());
        panel->setReadBack(QStringLiteral("c"), true);
        QSignalSpy rebuilt(builds(), &BuildCoordinator::buildFinished);
        QSignalSpy ran(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(ran.wait(120000));
        QCOMPARE(rebuilt.size(), 0); // the binary as built is what F5 runs
        const BufferData *c = ran.at(0).at(0).value<RunResult>().buffer("c");
        QVERIFY(c);
        QCOMPARE(c->value(63), 65.0);
        // Opening it again switches to its tab; a newer file makes the build stale.
        const int tabsBefore = tabs()->count();
        QVERIFY(tabs()->openFile(binary));
        QCOMPARE(tabs()->count(), tabsBefore);
        QVERIFY(writeBinary(binary));
        {
            QFile touched(binary);
            QVERIFY(touched.open(QIODevice::ReadWrite));
            QVERIFY(touched.setFileTime(QDateTime::currentDateTime().addSecs(5),
                                        QFileDevice::FileModificationTime));
        }
        QSignalSpy again(builds(), &BuildCoordinator::buildFinished);
        QSignalSpy ranAgain(part<RunCoordinator>(*m_window), &RunCoordinator::runFinished);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QVERIFY(ranAgain.wait(120000));
        QCOMPARE(again.size(), 1);
    }

    void spirvByItsMagic()
    {
        // A SPIR-V header (magic, version 1.0, generator, bound, schema) in a file named .cl.
        const QString path = m_dir.filePath(QStringLiteral("module.cl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const quint32 words[] = {0x07230203u, 0x00010000u, 0u, 1u, 0u};
        f.write(reinterpret_cast<const char *>(words), sizeof words);
        f.close();
        QVERIFY(tabs()->openFile(path));
        QCOMPARE(tabs()->programKind(), QStringLiteral("il"));
        QVERIFY(tabs()->currentEditor()->text().contains(QStringLiteral("clCreateProgramWithIL")));
        QString failure;
        const std::optional<BuildResult> built = buildWithCtrlB(&failure);
        // PoCL here reports no SPIR-V in CL_DEVICE_IL_VERSION: refused by name; a device that takes
        // SPIR-V refuses this empty module in its build log.
        QVERIFY2((built && !built->success()) || failure.contains(QStringLiteral("does not accept SPIR-V")),
                 qPrintable(failure));
    }

    void builtInKernels()
    {
        const DeviceSnapshot *device = part<DeviceManager>(*m_window)->currentDeviceSnapshot();
        QVERIFY(device);
        QVERIFY(tabs()->openBuiltIns(QStringLiteral("no.such.kernel"),
                                     QString::fromStdString(device->name())) >= 0);
        QCOMPARE(tabs()->programKind(), QStringLiteral("built-in")); // programsource.h's word, as a capture's
        QString failure;
        const std::optional<BuildResult> built = buildWithCtrlB(&failure);
        QVERIFY(built);
        QVERIFY(!built->success());
        QVERIFY(!built->logs().empty());
        QVERIFY2(QString::fromStdString(built->logs().front().log).contains(QStringLiteral("no.such.kernel")),
                 built->logs().front().log.c_str());
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestProgramFiles)
#include "tst_programfiles.moc"
