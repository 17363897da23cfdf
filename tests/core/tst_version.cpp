// Version parsing and error names.
#include "clscope/error.h"
#include "clscope/format.h"
#include "clscope/version.h"

#include <QTest>

using namespace clscope;

class TestVersion : public QObject
{
    Q_OBJECT
private slots:
    void openclVersion_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::newRow("pocl") << "OpenCL 3.0 PoCL 3.1+debian  Linux" << true << 3 << 0;
        QTest::newRow("oclgrind") << "OpenCL 1.2 (Oclgrind 21.10)" << true << 1 << 2;
        QTest::newRow("nvidia") << "OpenCL 3.0 CUDA 12.4.131" << true << 3 << 0;
        QTest::newRow("bare") << "OpenCL 2.1" << true << 2 << 1;
        QTest::newRow("c-version-is-not-platform") << "OpenCL C 1.2 PoCL" << false << 0 << 0;
        QTest::newRow("junk") << "Vulkan 1.3" << false << 0 << 0;
        QTest::newRow("no-minor") << "OpenCL 3" << false << 0 << 0;
        QTest::newRow("empty") << "" << false << 0 << 0;
        QTest::newRow("glued") << "OpenCL 3.0x" << false << 0 << 0;
    }
    void openclVersion()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const auto v = parseOpenCLVersion(text.toStdString());
        QCOMPARE(v.has_value(), ok);
        if (ok) {
            QFETCH(int, major);
            QFETCH(int, minor);
            QCOMPARE(v->major, major);
            QCOMPARE(v->minor, minor);
        }
    }
    void openclCVersion_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("number"); // 0: no version
        QTest::newRow("pocl") << "OpenCL C 1.2 PoCL" << 120;
        QTest::newRow("oclgrind") << "OpenCL C 1.2 (Oclgrind 21.10)" << 120;
        QTest::newRow("three") << "OpenCL C 3.0 " << 300;
        QTest::newRow("platform-string") << "OpenCL 3.0 PoCL" << 0;
    }
    void openclCVersion()
    {
        QFETCH(QString, text);
        QFETCH(int, number);
        const auto v = parseOpenCLCVersion(text.toStdString());
        QCOMPARE(v ? v->asNumber() : 0, number);
    }
    void packedVersion()
    {
        QCOMPARE(decodeVersion(CL_MAKE_VERSION(3, 0, 0)).toString(), std::string("3.0.0"));
        QCOMPARE(decodeVersion(12582912).toString(), std::string("3.0.0"));
        QCOMPARE(decodeVersion(4202496).toString(), std::string("1.2.0"));
        QCOMPARE(decodeVersion(CL_MAKE_VERSION(1, 2, 4095)).patch, 4095);
        QVERIFY((ClVersion{1, 2, 0} < ClVersion{3, 0, 0}));
    }
    void errorNames_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("name");
        QTest::newRow("success") << 0 << "CL_SUCCESS";
        QTest::newRow("-1") << -1 << "CL_DEVICE_NOT_FOUND";
        QTest::newRow("-4") << -4 << "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        QTest::newRow("-5") << -5 << "CL_OUT_OF_RESOURCES";
        QTest::newRow("-11") << -11 << "CL_BUILD_PROGRAM_FAILURE";
        QTest::newRow("-30") << -30 << "CL_INVALID_VALUE";
        QTest::newRow("-52") << -52 << "CL_INVALID_KERNEL_ARGS";
        QTest::newRow("-54") << -54 << "CL_INVALID_WORK_GROUP_SIZE";
        QTest::newRow("-59") << -59 << "CL_INVALID_OPERATION";
        QTest::newRow("-68") << -68 << "CL_INVALID_DEVICE_PARTITION_COUNT";
        QTest::newRow("-70") << -70 << "CL_INVALID_DEVICE_QUEUE";
        QTest::newRow("-72") << -72 << "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
        QTest::newRow("-1001") << -1001 << "CL_PLATFORM_NOT_FOUND_KHR";
        QTest::newRow("unknown") << -9999 << "";
    }
    void errorNames()
    {
        QFETCH(int, code);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(std::string(errorName(code))), name);
    }
    void everyCoreCodeHasAName()
    {
        // cl.h defines -1..-19 and -30..-72 (with gaps the spec never filled: none between -30 and -72).
        for (int code = -1; code >= -19; --code)
            QVERIFY2(!errorName(code).empty(), qPrintable(QString::number(code)));
        for (int code = -30; code >= -72; --code)
            QVERIFY2(!errorName(code).empty(), qPrintable(QString::number(code)));
    }
    void exceptionMessage()
    {
        try {
            check(CL_BUILD_PROGRAM_FAILURE, "clBuildProgram");
            QFAIL("no exception");
        } catch (const ClError &e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("clBuildProgram failed: BUILD_PROGRAM_FAILURE"));
            QCOMPARE(e.code(), CL_BUILD_PROGRAM_FAILURE);
            QCOMPARE(e.routine(), std::string("clBuildProgram"));
        }
        const ClError withDetail("clCreateBuffer", -9999, "1 GiB");
        QCOMPARE(QString::fromUtf8(withDetail.what()),
                 QStringLiteral("clCreateBuffer failed: error -9999: 1 GiB"));
    }
    void formatting()
    {
        QCOMPARE(formatBytes(0), std::string("0 B"));
        QCOMPARE(formatBytes(1023), std::string("1023 B"));
        QCOMPARE(formatBytes(1536), std::string("1.5 KiB"));
        QCOMPARE(formatBytes(1ull << 30), std::string("1 GiB"));
        QCOMPARE(formatBytes(3895812096ull), std::string("3.63 GiB"));
        QCOMPARE(formatNanoseconds(999), std::string("999 ns"));
        QCOMPARE(formatNanoseconds(1500), std::string("1.5 us"));
        QCOMPARE(formatNanoseconds(2.5e9), std::string("2.5 s"));
        QCOMPARE(formatHex(0x10de), std::string("0x10de"));
    }
};

QTEST_APPLESS_MAIN(TestVersion)
#include "tst_version.moc"
